//! Signal-quality indices with a usable/unusable decision and a human-readable reason, for ECG,
//! PPG and PCG.
//!
//! Every modality first runs the same basic checks (length, non-finite samples, flat line,
//! clipping); ECG and PPG then use beat-template correlation (Orphanidou et al. 2015), PCG the
//! periodicity of its envelope.
//!
//! ```
//! use cardio_signal::{quality, SamplingRate};
//!
//! let fs = SamplingRate::new(250.0).unwrap();
//! let q = quality::ecg(&vec![0.0; 5000], fs, &[]);
//! assert!(!q.usable);
//! assert!(q.reason.contains("flat"));
//! ```

use crate::{stats, SamplingRate};

/// A quality verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Quality {
    /// Quality score between 0 (unusable) and 1 (clean).
    pub score: f64,
    /// Whether the signal is good enough to analyse.
    pub usable: bool,
    /// Why, in one short English sentence.
    pub reason: String,
}

impl Quality {
    fn bad(reason: String) -> Self {
        Self {
            score: 0.0,
            usable: false,
            reason,
        }
    }
}

/// Minimum length for a quality verdict, seconds.
pub const MIN_SECONDS: f64 = 5.0;

/// Minimum length for a heart-sound quality verdict, seconds: two heart cycles at 60 /min, the
/// shortest clinic recording a murmur is read on (a pulse or ECG verdict needs [`MIN_SECONDS`]).
pub const PCG_MIN_SECONDS: f64 = 2.0;

/// Length, finiteness, flat-line and clipping checks shared by all modalities; `None` when the
/// signal passes.
///
/// A flat line is a standard deviation below 1e-9 of the signal's scale or over 90% of samples
/// equal to their predecessor; clipping is over 2% of samples held (with their predecessor) within
/// 0.1% of the range of the signal's minimum or maximum (rails). Clifford, G. D., Behar, J., Li, Q., Rezek, I. (2012),
/// "Signal quality indices and data fusion for determining clinical acceptability of
/// electrocardiograms", *Physiological Measurement* 33(9), 1419-1433 (flat-line and saturation
/// SQIs).
pub fn basic_checks(x: &[f64], fs: SamplingRate) -> Option<Quality> {
    basic_checks_at_least(x, fs, MIN_SECONDS)
}

/// As [`basic_checks`], with `min_seconds` as the shortest signal judged.
pub fn basic_checks_at_least(x: &[f64], fs: SamplingRate, min_seconds: f64) -> Option<Quality> {
    let seconds = x.len() as f64 / fs.hz();
    if seconds < min_seconds {
        return Some(Quality::bad(format!(
            "too short: {seconds:.1} s, at least {min_seconds:.0} s are needed"
        )));
    }
    // One pass for finiteness, sum, range and repeats; a second for spread and clipping.
    let (mut sum, mut lo, mut hi, mut repeats) = (0.0, f64::INFINITY, f64::NEG_INFINITY, 0usize);
    let mut prev = f64::NAN;
    for &v in x {
        if !v.is_finite() {
            return Some(Quality::bad(
                "the signal contains missing (NaN) or infinite samples".into(),
            ));
        }
        sum += v;
        lo = lo.min(v);
        hi = hi.max(v);
        repeats += usize::from(v == prev);
        prev = v;
    }
    let n = x.len() as f64;
    let mean = sum / n;
    let sd = (x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
    if sd <= 1e-9 * mean.abs().max(1e-12) || hi - lo == 0.0 {
        return Some(Quality::bad("flat line: the signal does not vary".into()));
    }
    let eps = 1e-3 * (hi - lo);
    // Clipping: samples held at a rail, i.e. at the minimum or maximum together with their
    // predecessor (a flat run at the extreme).
    let at_rail = |v: f64| v <= lo + eps || v >= hi - eps;
    let clipped = x
        .windows(2)
        .filter(|w| at_rail(w[0]) && at_rail(w[1]) && (w[0] - w[1]).abs() <= eps)
        .count() as f64
        / (n - 1.0);
    if clipped > 0.02 {
        return Some(Quality::bad(format!(
            "clipping: {:.0}% of samples are held at the signal's limits",
            100.0 * clipped
        )));
    }
    let repeats = repeats as f64 / (n - 1.0);
    if repeats > 0.9 {
        return Some(Quality::bad(format!(
            "flat line: {:.0}% of samples repeat the previous value",
            100.0 * repeats
        )));
    }
    None
}

/// Mean Pearson correlation of each beat with the average beat (template), with beats cut
/// `± half` samples around each fiducial point; `None` under three complete beats.
///
/// Orphanidou, C., Bonnici, T., Charlton, P., Clifton, D., Vallance, D., Tarassenko, L. (2015),
/// "Signal-quality indices for the electrocardiogram and photoplethysmogram: derivation and
/// applications to wireless monitoring", *IEEE J. Biomed. Health Inform.* 19(3), 832-838.
pub fn template_correlation(x: &[f64], beats: &[usize], half: usize) -> Option<f64> {
    let w = 2 * half + 1;
    let complete: Vec<usize> = beats
        .iter()
        .copied()
        .filter(|&b| b >= half && b + half < x.len())
        .collect();
    if complete.len() < 3 {
        return None;
    }
    let mut template = vec![0.0; w];
    for &b in &complete {
        for (t, v) in template.iter_mut().zip(&x[b - half..=b + half]) {
            *t += v;
        }
    }
    for t in &mut template {
        *t /= complete.len() as f64;
    }
    let sum: f64 = complete
        .iter()
        .map(|&b| stats::pearson(&x[b - half..=b + half], &template))
        .sum();
    Some(sum / complete.len() as f64)
}

/// Beat-based verdict shared by ECG and PPG.
fn beat_quality(
    x: &[f64],
    fs: SamplingRate,
    beats: &[usize],
    threshold: f64,
    what: &str,
) -> Quality {
    if let Some(q) = basic_checks(x, fs) {
        return q;
    }
    let f = fs.hz();
    let seconds = x.len() as f64 / f;
    if beats.len() < 3 {
        return Quality::bad(format!("no {what} beats found"));
    }
    let mut rr: Vec<f64> = beats.windows(2).map(|w| (w[1] - w[0]) as f64 / f).collect();
    // Gaps include the stretches before the first and after the last beat.
    let lead = beats[0] as f64 / f;
    let tail = seconds - beats[beats.len() - 1] as f64 / f;
    let max_gap = rr.iter().copied().fold(lead.max(tail), f64::max);
    rr.sort_unstable_by(f64::total_cmp);
    let bpm = 60.0 / rr[rr.len() / 2];
    if !(40.0..=180.0).contains(&bpm) {
        return Quality::bad(format!(
            "heart rate of {bpm:.0} bpm is outside the plausible 40-180 bpm"
        ));
    }
    if max_gap > 3.0 {
        return Quality::bad(format!("a gap of {max_gap:.1} s without {what} beats"));
    }
    let half = ((rr[rr.len() / 2] * f) / 2.0) as usize;
    let Some(corr) = template_correlation(x, beats, half) else {
        return Quality::bad(format!("too few complete {what} beats"));
    };
    let score = corr.clamp(0.0, 1.0);
    if corr >= threshold {
        Quality {
            score,
            usable: true,
            reason: format!("usable: beats match their average shape (correlation {corr:.2})"),
        }
    } else {
        Quality {
            score,
            usable: false,
            reason: format!(
                "too noisy: beats match their average shape poorly (correlation {corr:.2}, needs {threshold:.2})"
            ),
        }
    }
}

/// ECG quality from the cleaned signal and its R peaks: basic checks, heart rate 40-180 bpm, no
/// gap over 3 s, and mean beat-template correlation of at least 0.66.
///
/// Orphanidou et al. (2015), *IEEE J. Biomed. Health Inform.* 19(3), 832-838. (Their RR
/// max/min ratio rule is left out so that atrial fibrillation is not rejected as noise.)
pub fn ecg(x: &[f64], fs: SamplingRate, r_peaks: &[usize]) -> Quality {
    beat_quality(x, fs, r_peaks, 0.66, "QRS")
}

/// PPG quality from the cleaned signal and its systolic peaks: as [`ecg`] with a correlation
/// threshold of 0.86.
///
/// Orphanidou et al. (2015), *IEEE J. Biomed. Health Inform.* 19(3), 832-838.
pub fn ppg(x: &[f64], fs: SamplingRate, peaks: &[usize]) -> Quality {
    beat_quality(x, fs, peaks, 0.86, "pulse")
}

/// PCG quality from its envelope (see [`crate::pcg::envelope`]): basic checks on the signal, then
/// the height of the envelope's normalised autocorrelation peak at a lag of 0.33-2 s (one cardiac
/// cycle, 30-180 bpm); usable at 0.3 or above.
///
/// Springer, D. B., Tarassenko, L., Clifford, G. D. (2014), "Support vector machine hidden
/// semi-Markov model-based heart sound segmentation", *Computing in Cardiology* 41, 625-628
/// (envelope autocorrelation as heart-sound quality); Liu, C. et al. (2016), "An open access
/// database for the evaluation of heart sound algorithms", *Physiological Measurement* 37(12),
/// 2181-2213.
pub fn pcg(x: &[f64], fs: SamplingRate, envelope: &[f64], envelope_fs: SamplingRate) -> Quality {
    if let Some(q) = basic_checks_at_least(x, fs, PCG_MIN_SECONDS) {
        return q;
    }
    let Some((peak, lag_s)) = cycle_autocorrelation(envelope, envelope_fs) else {
        return Quality::bad("too short to find a cardiac cycle".into());
    };
    let score = peak.clamp(0.0, 1.0);
    if peak >= 0.3 {
        Quality {
            score,
            usable: true,
            reason: format!(
                "usable: heart sounds repeat every {lag_s:.2} s (periodicity {peak:.2})"
            ),
        }
    } else {
        Quality {
            score,
            usable: false,
            reason: format!("too noisy: no repeating heart-sound pattern (periodicity {peak:.2})"),
        }
    }
}

/// Highest normalised autocorrelation of `env` at lags 0.33-2 s (at most half the envelope, so
/// that at least two cycles overlap) and that lag in seconds.
pub(crate) fn cycle_autocorrelation(env: &[f64], fs: SamplingRate) -> Option<(f64, f64)> {
    let f = fs.hz();
    let n = env.len();
    let lo = (0.33 * f).round() as usize;
    let hi = ((2.0 * f).round() as usize).min(n / 2);
    if hi <= lo || lo == 0 {
        return None;
    }
    let m = env.iter().sum::<f64>() / n as f64;
    let d: Vec<f64> = env.iter().map(|v| v - m).collect();
    let e0: f64 = d.iter().map(|v| v * v).sum();
    if e0 == 0.0 {
        return None;
    }
    let mut best = (f64::NEG_INFINITY, lo);
    for lag in lo..=hi {
        let s: f64 = d[..n - lag].iter().zip(&d[lag..]).map(|(a, b)| a * b).sum();
        let r = s / e0 * n as f64 / (n - lag) as f64;
        if r > best.0 {
            best = (r, lag);
        }
    }
    Some((best.0, best.1 as f64 / f))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fs(hz: f64) -> SamplingRate {
        SamplingRate::new(hz).unwrap()
    }

    #[test]
    fn too_short_signals_are_unusable() {
        let q = basic_checks(&[1.0, 2.0, 3.0], fs(100.0)).unwrap();
        assert!(q.reason.starts_with("too short"));
    }

    #[test]
    fn clipped_signals_are_unusable() {
        let x: Vec<f64> = (0..2000_usize)
            .map(|i| (3.0 * (i as f64 * 0.05).sin()).clamp(-1.0, 1.0))
            .collect();
        let q = basic_checks(&x, fs(100.0)).unwrap();
        assert!(q.reason.starts_with("clipping"), "{}", q.reason);
    }

    #[test]
    fn regular_beats_are_usable_and_noise_is_not() {
        let f = 100.0;
        let n = 3000;
        let beats: Vec<usize> = (50..n - 50).step_by(80).collect();
        let mut x = vec![0.0; n];
        for &b in &beats {
            for k in 0..20 {
                x[b - 10 + k] += (std::f64::consts::PI * k as f64 / 20.0).sin();
            }
        }
        // A little deterministic noise so that no sample repeats.
        let mut s: u64 = 3;
        for v in &mut x {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            *v += 0.01 * (s >> 33) as f64 / f64::from(1u32 << 31);
        }
        let q = ecg(&x, fs(f), &beats);
        assert!(q.usable, "{q:?}");
        let mut s: u64 = 1;
        let noise: Vec<f64> = (0..n)
            .map(|_| {
                s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (s >> 33) as f64 / f64::from(1u32 << 31)
            })
            .collect();
        let q = ecg(&noise, fs(f), &beats);
        assert!(!q.usable, "{q:?}");
        assert!(q.reason.starts_with("too noisy"));
    }

    #[test]
    fn implausible_rates_and_gaps_are_reported() {
        let x: Vec<f64> = (0..3000_usize).map(|i| (i as f64 * 0.3).sin()).collect();
        let q = ecg(&x, fs(100.0), &[100, 2900, 2950]);
        assert!(!q.usable);
    }
}
