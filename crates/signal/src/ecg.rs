//! ECG: cleaning, QRS detection with adaptive thresholds, search-back, refractory and T-wave /
//! baseline-shift rejection, R-peak refinement and simple beat delineation (QRS onset/offset,
//! width, P-wave presence).
//!
//! Plan once ([`EcgAnalyzer::new`], [`QrsDetector::new`]) and process many recordings;
//! [`analyze`] is the one-call form.
//!
//! ```
//! use cardio_signal::{ecg, SamplingRate};
//!
//! let fs = SamplingRate::new(360.0).unwrap();
//! // A synthetic ECG: narrow Gaussian "R waves" once a second on a slow baseline.
//! let x: Vec<f64> = (0..3600 * 3)
//!     .map(|i| {
//!         let t = i as f64 / 360.0;
//!         let d = (t % 1.0) - 0.5;
//!         (-(d * d) / (2.0 * 0.01f64.powi(2))).exp() + 0.3 * (0.2 * t).sin()
//!     })
//!     .collect();
//! let result = ecg::analyze(&x, fs, ecg::Powerline::Hz50).unwrap();
//! assert!(result.r_peaks.len().abs_diff(30) <= 1);
//! ```

use crate::filter::{Band, Sos};
use crate::{SamplingRate, SignalError};

/// Mains frequency to notch out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Powerline {
    /// 50 Hz mains (Europe, most of Asia and Africa).
    Hz50,
    /// 60 Hz mains (the Americas, parts of Asia).
    Hz60,
    /// No notch.
    None,
}

impl Powerline {
    fn hz(self) -> Option<f64> {
        match self {
            Self::Hz50 => Some(50.0),
            Self::Hz60 => Some(60.0),
            Self::None => None,
        }
    }
}

fn check_finite(x: &[f64]) -> Result<(), SignalError> {
    if x.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(SignalError::NonFinite)
    }
}

/// Cleans an ECG: zero-phase 0.5 Hz 5th-order Butterworth high-pass (baseline wander) then a
/// zero-phase powerline notch (Q = 30) when the mains frequency is below Nyquist.
///
/// Makowski, D. et al. (2021), "NeuroKit2: A Python toolbox for neurophysiological signal
/// processing", *Behavior Research Methods* 53, 1689-1696 (`ecg_clean` default high-pass);
/// notch after Orfanidis (1996), see [`Sos::notch`].
///
/// # Errors
/// [`SignalError::NonFinite`] for NaN/inf samples, [`SignalError::TooShort`] when the signal is
/// shorter than the filters' padding (about 0.1 s).
pub fn clean(x: &[f64], fs: SamplingRate, powerline: Powerline) -> Result<Vec<f64>, SignalError> {
    check_finite(x)?;
    cleaning_filter(fs, powerline)?.filtfilt(x)
}

fn cleaning_filter(fs: SamplingRate, powerline: Powerline) -> Result<Sos, SignalError> {
    let mut sos = Sos::butterworth(5, Band::HighPass(0.5), fs)?;
    if let Some(f0) = powerline.hz() {
        if f0 < fs.hz() / 2.0 * 0.98 {
            sos = sos.then(&Sos::notch(f0, 30.0, fs)?);
        }
    }
    Ok(sos)
}

/// A planned QRS detector for one sampling rate.
///
/// The feature signal and decision rules follow Hamilton's open-source detector, itself a
/// refinement of Pan & Tompkins: band-pass 5-15 Hz, absolute derivative, 80 ms moving-window
/// integration; peaks held 200 ms; threshold between the medians of the last eight QRS and noise
/// peaks; search-back at 1.5 median RR for the largest sub-threshold peak above half the
/// threshold; baseline-shift rejection by requiring opposing slopes within 150 ms; T-wave
/// rejection within 360 ms of a beat when the slope is under half the previous QRS's.
///
/// Pan, J., Tompkins, W. J. (1985), "A real-time QRS detection algorithm", *IEEE Trans. Biomed.
/// Eng.* 32(3), 230-236. Hamilton, P. S., Tompkins, W. J. (1986), "Quantitative investigation of
/// QRS detection rules using the MIT/BIH arrhythmia database", *IEEE Trans. Biomed. Eng.* 33(12),
/// 1157-1165. Hamilton, P. (2002), "Open source ECG analysis", *Computers in Cardiology* 29,
/// 101-104.
#[derive(Debug, Clone)]
pub struct QrsDetector {
    fs: f64,
    bandpass: Sos,
}

fn median8(buf: &[f64; 8]) -> f64 {
    let mut s = *buf;
    s.sort_by(f64::total_cmp);
    f64::midpoint(s[3], s[4])
}

fn push8(buf: &mut [f64; 8], v: f64) {
    buf.copy_within(0..7, 1);
    buf[0] = v;
}

/// Samples in `seconds` at `fs`, at least 1.
fn samples(seconds: f64, fs: f64) -> usize {
    ((seconds * fs).round() as usize).max(1)
}

impl QrsDetector {
    /// Plans the detector's filters for `fs`.
    ///
    /// Hamilton (2002), see [`QrsDetector`].
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] when `fs` is below 40 Hz (the 5-15 Hz band needs it).
    pub fn new(fs: SamplingRate) -> Result<Self, SignalError> {
        if fs.hz() < 40.0 {
            return Err(SignalError::InvalidParameter(format!(
                "QRS detection needs at least 40 Hz, got {} Hz",
                fs.hz()
            )));
        }
        Ok(Self {
            fs: fs.hz(),
            bandpass: Sos::butterworth(2, Band::BandPass(5.0, 15.0), fs)?,
        })
    }

    /// The detection feature: moving-window (80 ms) average of the absolute derivative of the
    /// 5-15 Hz band-passed ECG, centred so that its peaks line up with the QRS.
    ///
    /// Hamilton (2002), see [`QrsDetector`].
    ///
    /// # Errors
    /// [`SignalError::TooShort`] when the signal is shorter than the filter padding.
    pub fn feature(&self, ecg: &[f64]) -> Result<Vec<f64>, SignalError> {
        let mut out = vec![0.0; ecg.len()];
        self.feature_into(ecg, &mut out, &mut Vec::new())?;
        Ok(out)
    }

    /// [`QrsDetector::feature`] into `out` (the length of `ecg`), reusing `scratch`.
    fn feature_into(
        &self,
        ecg: &[f64],
        out: &mut [f64],
        scratch: &mut Vec<f64>,
    ) -> Result<(), SignalError> {
        self.bandpass.filtfilt_into(ecg, out, scratch)?;
        let n = out.len();
        // Absolute central difference, in place (keeping the previous original value).
        let mut prev = out[0];
        for i in 1..n.saturating_sub(1) {
            let cur = out[i];
            out[i] = (out[i + 1] - prev).abs();
            prev = cur;
        }
        out[0] = 0.0;
        if n > 1 {
            out[n - 1] = 0.0;
        }
        moving_average_centered_in_place(out, samples(0.08, self.fs), scratch);
        Ok(())
    }

    /// Detects QRS complexes in a cleaned ECG (see [`clean`]) and returns the sample index of each
    /// R peak, refined to the largest deflection of `ecg` (see [`refine_r_peaks`]).
    ///
    /// Hamilton (2002); Pan & Tompkins (1985), see [`QrsDetector`].
    ///
    /// # Errors
    /// [`SignalError::NonFinite`], or [`SignalError::TooShort`] for under 0.5 s of signal.
    pub fn detect(&self, ecg: &[f64]) -> Result<Vec<usize>, SignalError> {
        self.detect_with(ecg, &mut Vec::new())
    }

    fn detect_with(&self, ecg: &[f64], scratch: &mut Vec<f64>) -> Result<Vec<usize>, SignalError> {
        check_finite(ecg)?;
        let min_len = samples(0.5, self.fs);
        if ecg.len() < min_len {
            return Err(SignalError::TooShort {
                needed: min_len,
                got: ecg.len(),
            });
        }
        let mut feat = vec![0.0; ecg.len()];
        self.feature_into(ecg, &mut feat, scratch)?;
        let beats = self.decide(&feat, ecg);
        Ok(refine_r_peaks(
            ecg,
            &beats,
            SamplingRate(self.fs),
            samples(0.08, self.fs),
        ))
    }

    /// Hamilton's decision rules applied offline to the feature signal; returns feature peaks.
    fn decide(&self, feat: &[f64], ecg: &[f64]) -> Vec<usize> {
        let fs = self.fs;
        let n = feat.len();
        let hold = samples(0.2, fs);
        let ms360 = samples(0.36, fs);
        let ms150 = samples(0.15, fs);
        let half220 = samples(0.11, fs);
        let refractory = samples(0.2, fs);
        let peaks = held_peaks(feat, hold);

        // Initialise: the largest peak in each of the first eight seconds (or fewer if short).
        let sec = samples(1.0, fs);
        let mut qrsbuf = [0.0; 8];
        let init_secs = (n / sec).clamp(1, 8);
        for (k, slot) in qrsbuf.iter_mut().enumerate() {
            let s = (k % init_secs) * sec;
            let e = (s + sec).min(n);
            *slot = feat[s..e].iter().copied().fold(0.0, f64::max);
        }
        let mut noisebuf = [0.0; 8];
        let mut rrbuf = [sec as f64; 8];
        let th = 0.3125;
        let thresh = |q: f64, nz: f64| nz + th * (q - nz);
        let mut qmedian = median8(&qrsbuf);
        let mut nmedian = 0.0;
        let mut det = thresh(qmedian, nmedian);
        let mut rrmedian = sec as f64;

        let mut beats: Vec<usize> = Vec::new();
        let mut last_beat: Option<usize> = None;
        let mut lastmax = 0.0_f64;
        // Best sub-threshold candidate since the last beat, for search-back.
        let mut sb: Option<(f64, usize, f64)> = None;
        // Time of the last threshold re-learning.
        let mut last_reset = 0usize;

        let slope = |c: usize| -> (bool, f64) {
            // Baseline-shift check: a QRS has a rising and a falling slope of comparable size
            // within 150 ms of each other.
            let s = c.saturating_sub(half220).max(1);
            let e = (c + half220).min(n - 1);
            let (mut maxv, mut maxt, mut minv, mut mint) = (0.0, s, 0.0, s);
            for t in 0..e.saturating_sub(s) {
                let v = ecg[s + t + 1] - ecg[s + t - 1];
                if v > maxv {
                    maxv = v;
                    maxt = t;
                } else if v < minv {
                    minv = v;
                    mint = t;
                }
            }
            let minv = -minv;
            let ok = maxv > minv / 8.0 && minv > maxv / 8.0 && maxt.abs_diff(mint) < ms150;
            (ok, maxv.max(minv))
        };

        for &p in &peaks {
            // Search-back: no beat for 1.5 median RR, take the best sub-threshold candidate.
            if let (Some(b), Some((amp, loc, md))) = (last_beat, sb) {
                if p > b + (1.5 * rrmedian) as usize && amp > det / 2.0 {
                    accept(
                        loc,
                        amp,
                        &mut beats,
                        &mut last_beat,
                        &mut qrsbuf,
                        &mut rrbuf,
                        &mut rrmedian,
                    );
                    qmedian = median8(&qrsbuf);
                    det = thresh(qmedian, nmedian);
                    lastmax = md;
                    sb = None;
                }
            }
            // Eight seconds without a beat: re-learn the QRS level from the last eight seconds.
            let anchor = last_beat.unwrap_or(0).max(last_reset);
            if p > anchor + 8 * sec {
                let s = p - 8 * sec;
                for (k, slot) in qrsbuf.iter_mut().enumerate() {
                    let a = s + k * sec;
                    *slot = feat[a..(a + sec).min(n)]
                        .iter()
                        .copied()
                        .fold(0.0, f64::max);
                }
                noisebuf = [0.0; 8];
                qmedian = median8(&qrsbuf);
                nmedian = 0.0;
                det = thresh(qmedian, nmedian);
                last_reset = p;
                sb = None;
            }
            let (is_qrs_shape, md) = slope(p);
            self.handle_peak(
                p,
                feat[p],
                is_qrs_shape,
                md,
                &mut Handle {
                    beats: &mut beats,
                    last_beat: &mut last_beat,
                    qrsbuf: &mut qrsbuf,
                    noisebuf: &mut noisebuf,
                    rrbuf: &mut rrbuf,
                    rrmedian: &mut rrmedian,
                    qmedian: &mut qmedian,
                    nmedian: &mut nmedian,
                    det: &mut det,
                    lastmax: &mut lastmax,
                    sb: &mut sb,
                },
                (ms360, refractory),
            );
        }
        // A search-back still due at the end of the signal.
        if let (Some(b), Some((amp, loc, _))) = (last_beat, sb) {
            if n > b + (1.5 * rrmedian) as usize && amp > det / 2.0 {
                beats.push(loc);
            }
        }
        beats
    }

    #[allow(clippy::unused_self)]
    fn handle_peak(
        &self,
        p: usize,
        amp: f64,
        is_qrs_shape: bool,
        maxder: f64,
        h: &mut Handle<'_>,
        (ms360, refractory): (usize, usize),
    ) {
        if !is_qrs_shape {
            return;
        }
        let since = h.last_beat.map(|b| p.saturating_sub(b));
        if since.is_some_and(|s| s < refractory) {
            return;
        }
        let t_wave = since.is_some_and(|s| s < ms360) && maxder < *h.lastmax / 2.0;
        let th = 0.3125;
        if amp > *h.det && !t_wave {
            accept(p, amp, h.beats, h.last_beat, h.qrsbuf, h.rrbuf, h.rrmedian);
            *h.qmedian = median8(h.qrsbuf);
            *h.det = *h.nmedian + th * (*h.qmedian - *h.nmedian);
            *h.lastmax = maxder;
            *h.sb = None;
        } else {
            push8(h.noisebuf, amp);
            *h.nmedian = median8(h.noisebuf);
            *h.det = *h.nmedian + th * (*h.qmedian - *h.nmedian);
            // Early peaks (possible T waves) are not search-back candidates.
            if since.is_none_or(|s| s >= ms360) && h.sb.is_none_or(|(a, _, _)| amp > a) {
                *h.sb = Some((amp, p, maxder));
            }
        }
    }
}

struct Handle<'a> {
    beats: &'a mut Vec<usize>,
    last_beat: &'a mut Option<usize>,
    qrsbuf: &'a mut [f64; 8],
    noisebuf: &'a mut [f64; 8],
    rrbuf: &'a mut [f64; 8],
    rrmedian: &'a mut f64,
    qmedian: &'a mut f64,
    nmedian: &'a mut f64,
    det: &'a mut f64,
    lastmax: &'a mut f64,
    sb: &'a mut Option<(f64, usize, f64)>,
}

fn accept(
    p: usize,
    amp: f64,
    beats: &mut Vec<usize>,
    last_beat: &mut Option<usize>,
    qrsbuf: &mut [f64; 8],
    rrbuf: &mut [f64; 8],
    rrmedian: &mut f64,
) {
    push8(qrsbuf, amp);
    if let Some(b) = *last_beat {
        push8(rrbuf, (p - b) as f64);
        *rrmedian = median8(rrbuf);
    }
    beats.push(p);
    *last_beat = Some(p);
}

/// Local maxima of `x`, each kept only if no larger maximum follows within `hold` samples and it
/// exceeds any maximum in the preceding `hold` samples that was itself kept (Hamilton's 200 ms
/// peak hold).
fn held_peaks(x: &[f64], hold: usize) -> Vec<usize> {
    let n = x.len();
    let mut maxima = Vec::new();
    for i in 1..n.saturating_sub(1) {
        if x[i] > x[i - 1] && x[i] >= x[i + 1] && x[i] > 0.0 {
            maxima.push(i);
        }
    }
    let mut out: Vec<usize> = Vec::with_capacity(maxima.len());
    let mut held: Option<usize> = None;
    for &m in &maxima {
        match held {
            None => held = Some(m),
            Some(h) => {
                if m - h > hold {
                    out.push(h);
                    held = Some(m);
                } else if x[m] > x[h] {
                    held = Some(m);
                }
            }
        }
    }
    if let Some(h) = held {
        out.push(h);
    }
    out
}

/// Centred moving average with window `w` (shrinking at the edges), O(n).
fn moving_average_centered_in_place(x: &mut [f64], w: usize, prefix: &mut Vec<f64>) {
    let n = x.len();
    prefix.clear();
    prefix.reserve(n + 1);
    prefix.push(0.0);
    let mut acc = 0.0;
    for v in x.iter() {
        acc += v;
        prefix.push(acc);
    }
    let half = w / 2;
    for (i, v) in x.iter_mut().enumerate() {
        let s = i.saturating_sub(half);
        let e = (i + w - half).min(n);
        *v = (prefix[e] - prefix[s]) / (e - s) as f64;
    }
}

/// Moves each detected beat to the largest absolute deflection of `ecg` from its local median
/// level within `± window` samples, so that R peaks sit on the true extremum (positive or
/// negative QRS) of the given signal; duplicates created by the move are dropped.
///
/// Pan & Tompkins (1985) locate the fiducial point on the band-passed signal; here the extremum
/// is taken on the cleaned signal as in Makowski et al. (2021), NeuroKit2 `_ecg_findpeaks`
/// correction step.
pub fn refine_r_peaks(ecg: &[f64], beats: &[usize], fs: SamplingRate, window: usize) -> Vec<usize> {
    let n = ecg.len();
    let mut out: Vec<usize> = Vec::with_capacity(beats.len());
    let level_half = samples(0.15, fs.hz());
    for &b in beats {
        if n == 0 {
            break;
        }
        let s = b.saturating_sub(window);
        let e = (b + window + 1).min(n);
        // Local level: mean of the window ends 150 ms away (cheap stand-in for the isoelectric line).
        let ls = b.saturating_sub(level_half);
        let le = (b + level_half).min(n - 1);
        let level = f64::midpoint(ecg[ls], ecg[le]);
        let mut best = b.min(n - 1);
        let mut best_v = -1.0;
        for (i, &v) in ecg.iter().enumerate().take(e).skip(s) {
            let a = (v - level).abs();
            if a > best_v {
                best_v = a;
                best = i;
            }
        }
        if out.last().is_none_or(|&l| best > l) {
            out.push(best);
        }
    }
    out
}

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
fn has_p_wave(ecg: &[f64], r: usize, on: usize, t_end: Option<usize>, f: f64) -> bool {
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

/// Everything [`analyze`] finds in one ECG.
#[derive(Debug, Clone, PartialEq)]
pub struct EcgAnalysis {
    /// The cleaned signal (same length as the input).
    pub cleaned: Vec<f64>,
    /// R-peak sample indices.
    pub r_peaks: Vec<usize>,
    /// Per-beat delineation.
    pub beats: Vec<Beat>,
    /// Mean heart rate from the median RR interval, beats per minute (`None` under two beats).
    pub heart_rate_bpm: Option<f64>,
    /// Signal quality of the cleaned signal (see [`crate::quality::ecg`]).
    pub quality: crate::quality::Quality,
}

/// Cleans, detects, refines and delineates an ECG in one call.
///
/// Chains [`clean`] (Makowski et al. 2021), [`QrsDetector::detect`] (Hamilton 2002; Pan &
/// Tompkins 1985), [`delineate`] (Laguna et al. 1994) and [`crate::quality::ecg`] (Orphanidou
/// et al. 2015).
///
/// # Errors
/// As [`clean`] and [`QrsDetector::detect`].
pub fn analyze(
    x: &[f64],
    fs: SamplingRate,
    powerline: Powerline,
) -> Result<EcgAnalysis, SignalError> {
    EcgAnalyzer::new(fs, powerline)?.analyze(x)
}

/// A planned ECG analysis for one sampling rate and mains frequency: design the filters once,
/// analyse many recordings.
#[derive(Debug, Clone)]
pub struct EcgAnalyzer {
    fs: SamplingRate,
    cleaning: Sos,
    detector: QrsDetector,
}

impl EcgAnalyzer {
    /// Plans the cleaning filters ([`clean`]) and the QRS detector ([`QrsDetector::new`]).
    ///
    /// Makowski et al. (2021); Hamilton (2002), see [`clean`] and [`QrsDetector`].
    ///
    /// # Errors
    /// As [`QrsDetector::new`] and [`Sos::butterworth`].
    pub fn new(fs: SamplingRate, powerline: Powerline) -> Result<Self, SignalError> {
        Ok(Self {
            fs,
            cleaning: cleaning_filter(fs, powerline)?,
            detector: QrsDetector::new(fs)?,
        })
    }

    /// Cleans, detects, refines, delineates and rates the quality of one ECG.
    ///
    /// Chains [`clean`] (Makowski et al. 2021), [`QrsDetector::detect`] (Hamilton 2002; Pan &
    /// Tompkins 1985), [`delineate`] (Laguna et al. 1994) and [`crate::quality::ecg`]
    /// (Orphanidou et al. 2015).
    ///
    /// # Errors
    /// As [`clean`] and [`QrsDetector::detect`].
    pub fn analyze(&self, x: &[f64]) -> Result<EcgAnalysis, SignalError> {
        let fs = self.fs;
        check_finite(x)?;
        let mut cleaned = vec![0.0; x.len()];
        let mut scratch = Vec::new();
        self.cleaning.filtfilt_into(x, &mut cleaned, &mut scratch)?;
        let r_peaks = self.detector.detect_with(&cleaned, &mut scratch)?;
        let beats = delineate(&cleaned, &r_peaks, fs);
        let mut rr: Vec<f64> = r_peaks
            .windows(2)
            .map(|w| (w[1] - w[0]) as f64 / fs.hz())
            .collect();
        let heart_rate_bpm = if rr.is_empty() {
            None
        } else {
            rr.sort_by(f64::total_cmp);
            Some(60.0 / rr[rr.len() / 2])
        };
        let quality = crate::quality::ecg(&cleaned, fs, &r_peaks);
        Ok(EcgAnalysis {
            cleaned,
            r_peaks,
            beats,
            heart_rate_bpm,
            quality,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn synthetic(fs: f64, seconds: f64, rr: &[f64]) -> (Vec<f64>, Vec<usize>) {
        let n = (fs * seconds) as usize;
        let mut x = vec![0.0; n];
        let mut t = 0.5;
        let mut truth = Vec::new();
        let mut k = 0;
        while t < seconds - 0.5 {
            let c = (t * fs) as usize;
            truth.push(c);
            for (i, v) in x.iter_mut().enumerate() {
                let d = (i as f64 - c as f64) / fs;
                *v += (-(d * d) / (2.0 * 0.012_f64.powi(2))).exp()
                    + 0.25 * (-((d - 0.25) * (d - 0.25)) / (2.0 * 0.04_f64.powi(2))).exp()
                    + 0.1 * (-((d + 0.18) * (d + 0.18)) / (2.0 * 0.02_f64.powi(2))).exp();
            }
            t += rr[k % rr.len()];
            k += 1;
        }
        (x, truth)
    }

    #[test]
    fn finds_every_beat_of_a_synthetic_ecg_with_wander_and_mains() {
        let fs = 360.0;
        let (mut x, truth) = synthetic(fs, 30.0, &[0.8, 0.75, 0.9, 0.6, 1.1]);
        for (i, v) in x.iter_mut().enumerate() {
            let t = i as f64 / fs;
            *v += 0.8 * (2.0 * std::f64::consts::PI * 0.15 * t).sin()
                + 0.05 * (2.0 * std::f64::consts::PI * 50.0 * t).sin();
        }
        let a = analyze(&x, SamplingRate::new(fs).unwrap(), Powerline::Hz50).unwrap();
        assert_eq!(a.r_peaks.len(), truth.len());
        for (p, t) in a.r_peaks.iter().zip(&truth) {
            assert!(p.abs_diff(*t) <= 3, "{p} vs {t}");
        }
        let hr = a.heart_rate_bpm.unwrap();
        assert!((60.0..90.0).contains(&hr), "{hr}");
        assert!(a.quality.usable, "{:?}", a.quality);
        assert!(a.beats.iter().filter(|b| b.p_wave).count() > truth.len() / 2);
        for b in &a.beats {
            assert!((0.02..0.2).contains(&b.qrs_width_s), "{b:?}");
        }
    }

    #[test]
    fn a_flat_line_has_no_beats() {
        let fs = SamplingRate::new(250.0).unwrap();
        let a = analyze(&vec![0.0; 2500], fs, Powerline::Hz60).unwrap();
        assert!(a.r_peaks.is_empty());
    }

    #[test]
    fn rejects_non_finite_and_too_short_signals() {
        let fs = SamplingRate::new(250.0).unwrap();
        assert_eq!(
            analyze(&[f64::NAN; 1000], fs, Powerline::None).unwrap_err(),
            SignalError::NonFinite
        );
        assert!(analyze(&[0.0; 10], fs, Powerline::None).is_err());
    }

    #[test]
    fn held_peaks_keep_only_the_largest_within_the_hold() {
        let mut x = vec![0.0; 100];
        x[10] = 1.0;
        x[15] = 2.0;
        x[50] = 1.0;
        assert_eq!(held_peaks(&x, 20), vec![15, 50]);
    }
}
