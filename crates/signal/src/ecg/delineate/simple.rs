//! Simple beat delineation around each R peak: QRS onset and offset, width and whether a P wave
//! precedes it.

use crate::ecg::qrs::samples;
use crate::SamplingRate;

/// Timing of one beat found by [`delineate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Beat {
    /// R peak, sample index.
    pub r_peak: usize,
    /// QRS onset, sample index.
    pub qrs_onset: usize,
    /// QRS offset (J point), sample index.
    pub qrs_offset: usize,
    /// QRS duration in seconds.
    pub qrs_width_s: f64,
    /// Whether a P wave was found 120-300 ms before the R peak.
    pub p_wave: bool,
}

/// Delineates each beat: QRS onset and offset where the absolute slope of the (cleaned) ECG falls
/// below 5% of its maximum within the QRS, searched within 120 ms either side of the R peak;
/// P-wave presence when a rounded deflection of 3-50% of the R amplitude, clear of the noise,
/// sits between 300 ms before R and the QRS onset.
///
/// Slope-threshold delineation after Laguna, P., Jané, R., Caminal, P. (1994), "Automatic
/// detection of wave boundaries in multilead ECG signals: validation with the CSE database",
/// *Computers and Biomedical Research* 27(1), 45-60 (simplified: one lead, fixed thresholds).
pub fn delineate(ecg: &[f64], r_peaks: &[usize], fs: SamplingRate) -> Vec<Beat> {
    let n = ecg.len();
    let f = fs.hz();
    let w = samples(0.12, f);
    let mut out = Vec::with_capacity(r_peaks.len());
    for (idx, &r) in r_peaks.iter().enumerate() {
        if r == 0 || r + 1 >= n {
            continue;
        }
        let s = r.saturating_sub(w).max(1);
        let e = (r + w).min(n - 1);
        let slope = |i: usize| (ecg[i + 1] - ecg[i - 1]).abs();
        let max_slope = (s..e).map(slope).fold(0.0, f64::max);
        let th = 0.05 * max_slope;
        // Onset: walk left from the steepest point before R until the slope stays low.
        let mut on = r;
        let steepest_before = (s..=r)
            .max_by(|&a, &b| slope(a).total_cmp(&slope(b)))
            .unwrap_or(r);
        let mut i = steepest_before;
        while i > s {
            if slope(i) < th {
                on = i;
                break;
            }
            i -= 1;
            on = i;
        }
        let steepest_after = (r..e)
            .max_by(|&a, &b| slope(a).total_cmp(&slope(b)))
            .unwrap_or(r);
        let mut off = r;
        let mut i = steepest_after;
        while i < e {
            if slope(i) < th {
                off = i;
                break;
            }
            i += 1;
            off = i;
        }
        // The previous beat's T wave ends about 0.42·sqrt(RR) s after it (Bazett), with RR the
        // interval before that beat (premature beats do not shorten their predecessor's QT).
        let t_end = match (idx.checked_sub(1), idx.checked_sub(2)) {
            (Some(p), Some(pp)) => {
                let rr = (r_peaks[p] - r_peaks[pp]) as f64 / f;
                Some(r_peaks[p] + (0.42 * rr.sqrt() * f) as usize)
            }
            (Some(p), None) => Some(r_peaks[p] + (r - r_peaks[p]) * 3 / 5),
            _ => None,
        };
        let p_wave = has_p_wave(ecg, r, on, t_end, f);
        out.push(Beat {
            r_peak: r,
            qrs_onset: on,
            qrs_offset: off,
            qrs_width_s: (off - on) as f64 / f,
            p_wave,
        });
    }
    out
}

/// P-wave test for one beat: in the window from 300 ms before R (not before the end of the previous
/// T wave) to 20 ms before the QRS onset, after removing the line between the
/// window's ends, the largest deflection must lie inside the window (30 ms from its start, 20 ms
/// from its end), fall back below half its height on both sides, measure 3-50% of the R
/// amplitude, and exceed three times the window's noise (RMS around a 20 ms moving average).
pub(super) fn has_p_wave(ecg: &[f64], r: usize, on: usize, t_end: Option<usize>, f: f64) -> bool {
    let mut ps = r.saturating_sub(samples(0.30, f));
    if let Some(t) = t_end {
        ps = ps.max(t);
    }
    let pe = on.saturating_sub(samples(0.02, f));
    if pe <= ps + samples(0.08, f) || pe >= ecg.len() {
        return false;
    }
    let seg = &ecg[ps..=pe];
    let len = seg.len();
    let (a, b) = (seg[0], seg[len - 1]);
    let detr = |i: usize| seg[i] - (a + (b - a) * i as f64 / (len - 1) as f64);
    let (mut k, mut amp) = (0, 0.0);
    for i in 0..len {
        if detr(i).abs() > amp {
            amp = detr(i).abs();
            k = i;
        }
    }
    if k < samples(0.03, f) || k + samples(0.02, f) >= len {
        return false;
    }
    let sign = detr(k).signum();
    let falls = |lo: usize, hi: usize| (lo..hi).any(|i| sign * detr(i) < 0.5 * amp);
    if !falls(0, k) || !falls(k + 1, len) {
        return false;
    }
    let r_amp = (ecg[r] - ecg[on]).abs();
    // Noise: RMS of the window around its own 20 ms moving average (a P wave is smooth).
    let half = samples(0.01, f);
    let mut resid = 0.0;
    for i in 0..len {
        let (lo, hi) = (i.saturating_sub(half), (i + half + 1).min(len));
        let m = seg[lo..hi].iter().sum::<f64>() / (hi - lo) as f64;
        resid += (seg[i] - m).powi(2);
    }
    let noise = (resid / len as f64).sqrt();
    amp >= 0.03 * r_amp && amp <= 0.5 * r_amp && amp > 3.0 * noise
}
