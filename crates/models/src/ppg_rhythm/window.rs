//! One window of a PPG as the rhythm model sees it: its quality verdict and its feature row — the
//! interval features of [`super::features`] (without the interval count, which depends on the
//! window's length) followed by the pulse-morphology features of [`super::morphology`]. The
//! predict path and the training (`cardio-lab`) both call [`analyse`], so the model is trained on
//! exactly what it is later given.

use cardio_signal::{ppg, quality, SamplingRate};

use super::features::{interval_features, FEATURE_NAMES as INTERVAL_NAMES, MIN_INTERVALS};
use super::morphology::{pulse_features, MORPHOLOGY_NAMES};

/// The names of a window's feature row, in order.
pub fn feature_names() -> Vec<&'static str> {
    INTERVAL_NAMES[1..]
        .iter()
        .chain(MORPHOLOGY_NAMES.iter())
        .copied()
        .collect()
}

/// Plausible median pulse rate of a window, bpm.
pub const RATE_RANGE_BPM: (f64, f64) = (30.0, 220.0);
/// Longest stretch without a pulse in a usable window, seconds.
pub const MAX_GAP_S: f64 = 3.0;
/// Least mean correlation of each pulse with the average pulse.
pub const MIN_TEMPLATE_CORRELATION: f64 = 0.70;

/// Quality of one window of a cleaned PPG with its pulse peaks (indices into `x`).
///
/// The rule of `cardio_signal::quality::ppg` (Orphanidou, C. et al. (2015), "Signal-quality indices
/// for the electrocardiogram and photoplethysmogram: derivation and applications to wireless
/// monitoring", *IEEE J. Biomed. Health Inform.* 19(3), 832-838: basic checks, plausible rate, no
/// long gap, beat-template correlation >= 0.86) with the rate range widened to
/// [`RATE_RANGE_BPM`].
pub fn window_quality(x: &[f64], fs: SamplingRate, peaks: &[usize]) -> quality::Quality {
    let bad = |reason: String| quality::Quality {
        score: 0.0,
        usable: false,
        reason,
    };
    if let Some(q) = quality::basic_checks(x, fs) {
        return q;
    }
    let hz = fs.hz();
    if peaks.len() < 3 {
        return bad(format!("only {} pulse(s) found", peaks.len()));
    }
    let mut ibi: Vec<f64> = peaks
        .windows(2)
        .map(|w| (w[1] - w[0]) as f64 / hz)
        .collect();
    let lead = peaks[0] as f64 / hz;
    let tail = x.len().saturating_sub(peaks[peaks.len() - 1]) as f64 / hz;
    let max_gap = ibi.iter().copied().fold(lead.max(tail), f64::max);
    ibi.sort_unstable_by(f64::total_cmp);
    let median = ibi[ibi.len() / 2];
    let bpm = 60.0 / median;
    if !(RATE_RANGE_BPM.0..=RATE_RANGE_BPM.1).contains(&bpm) {
        return bad(format!(
            "pulse rate of {bpm:.0} bpm is outside the plausible {:.0}-{:.0} bpm",
            RATE_RANGE_BPM.0, RATE_RANGE_BPM.1
        ));
    }
    if max_gap > MAX_GAP_S {
        return bad(format!("a gap of {max_gap:.1} s without pulses"));
    }
    let half = ((median * hz) / 2.0) as usize;
    let Some(corr) = quality::template_correlation(x, peaks, half) else {
        return bad("too few complete pulses".into());
    };
    let score = corr.clamp(0.0, 1.0);
    if corr >= MIN_TEMPLATE_CORRELATION {
        quality::Quality {
            score,
            usable: true,
            reason: format!("usable: pulses match their average shape (correlation {corr:.2})"),
        }
    } else {
        quality::Quality {
            score,
            usable: false,
            reason: format!(
                "too noisy: pulses match their average shape poorly (correlation {corr:.2}, needs {MIN_TEMPLATE_CORRELATION:.2})"
            ),
        }
    }
}

/// What one window of a recording gave.
#[derive(Debug, Clone)]
pub struct WindowAnalysis {
    /// Its quality (see [`window_quality`]).
    pub quality: quality::Quality,
    /// Pulse-to-pulse intervals, milliseconds.
    pub intervals_ms: Vec<f64>,
    /// The feature row ([`feature_names`]) when the window is usable and has at least
    /// [`MIN_INTERVALS`] intervals.
    pub features: Option<Vec<f64>>,
}

/// Quality, intervals and features of the samples `s0..s1` of an analysed PPG.
pub fn analyse(
    analysis: &ppg::PpgAnalysis,
    fs: SamplingRate,
    s0: usize,
    s1: usize,
) -> WindowAnalysis {
    let len = analysis.cleaned.len();
    let s0 = s0.min(len);
    let s1 = s1.clamp(s0, len);
    let lo = analysis.peaks.partition_point(|&p| p < s0);
    let hi = analysis.peaks.partition_point(|&p| p < s1);
    let local: Vec<usize> = analysis.peaks[lo..hi].iter().map(|p| p - s0).collect();
    let intervals_ms: Vec<f64> = analysis.peak_times_s[lo..hi]
        .windows(2)
        .map(|w| 1000.0 * (w[1] - w[0]))
        .collect();
    let x = &analysis.cleaned[s0..s1];
    let mut q = window_quality(x, fs, &local);
    let mut features = None;
    if q.usable {
        if let Some(mut row) = interval_features(&intervals_ms) {
            row.remove(0);
            row.extend(pulse_features(x, fs.hz(), &local));
            features = Some(row);
        } else {
            q.usable = false;
            q.reason = format!(
                "too few pulse intervals ({}, at least {MIN_INTERVALS} are needed)",
                intervals_ms.len()
            );
        }
    }
    WindowAnalysis {
        quality: q,
        intervals_ms,
        features,
    }
}

/// [`analyse`] of a whole short recording (a 10-s segment) at `fs_hz`.
///
/// # Errors
/// The message of `cardio_signal::ppg::analyze` when the signal cannot be analysed.
pub fn analyse_segment(x: &[f64], fs_hz: f64) -> Result<WindowAnalysis, String> {
    let fs = SamplingRate::new(fs_hz).map_err(|e| e.to_string())?;
    let a = ppg::analyze(x, fs).map_err(|e| e.to_string())?;
    Ok(analyse(&a, fs, 0, x.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_quality_accepts_fast_regular_pulses_and_refuses_flat_or_sparse_ones() {
        let fs = SamplingRate::new(100.0).unwrap();
        // 200 bpm: a pulse every 0.3 s (30 samples), peaking at 15 + 30 k.
        let peaks: Vec<usize> = (0..33).map(|k| 15 + 30 * k).collect();
        let x: Vec<f64> = (0..1000)
            .map(|i| {
                let ph = 2.0 * std::f64::consts::PI * (f64::from(i) - 15.0) / 30.0;
                ph.cos() + 0.3 * (2.0 * ph).cos()
            })
            .collect();
        let q = window_quality(&x, fs, &peaks);
        assert!(q.usable, "{q:?}");
        assert!(q.score > 0.99);
        assert!(
            !quality::ppg(&x, fs, &peaks).usable,
            "the signal crate's range stops at 180 bpm"
        );
        assert_eq!(
            window_quality(&x, fs, &peaks[..2]).reason,
            "only 2 pulse(s) found"
        );
        let sparse = [15, 45, 75, 500];
        assert!(window_quality(&x, fs, &sparse)
            .reason
            .starts_with("a gap of"));
        assert!(window_quality(&[1.0; 1000], fs, &peaks)
            .reason
            .contains("flat"));
    }
}
