//! Pulse-morphology and waveform-regularity features of one window of a band-passed PPG, beside the
//! interval features of [`super::features`]. Ectopic beats change the pulse: a premature beat fills
//! the heart less, so its pulse is weaker and often differently shaped, and a compensatory pause
//! follows; in atrial fibrillation the amplitude varies beat to beat with the preceding interval,
//! and the waveform has no dominant period.
//!
//! The measures follow the PPG arrhythmia literature:
//! - pulse amplitude variability and its coupling to the preceding and following intervals
//!   (Solosenko, Petrenas, Marozas & Sörnmo, "Modeling of the photoplethysmogram during atrial
//!   fibrillation", *Comput. Biol. Med.* 2017;81:130-138; Bashar et al., "Atrial fibrillation
//!   detection from wrist photoplethysmography signals using smartwatches", *Sci. Rep.*
//!   2019;9:15054, who separate PAC/PVC from AF with the same cues);
//! - beat-to-template correlation (Orphanidou et al., *IEEE J. Biomed. Health Inform.*
//!   2015;19:832-838), here per pulse: its mean, its low decile and the share of misshapen pulses;
//! - spectral concentration and entropy of the waveform and its autocorrelation at the pulse
//!   period (a regular rhythm puts its power in narrow lines; Shan, Li, Wang & Song,
//!   "Reliable PPG-based algorithm in atrial fibrillation detection", *IEEE BioCAS* 2016).
//!
//! Every feature is scale-free (the published segments are scaled per segment) and independent of
//! the sampling rate. Undefined values are `NaN`, which the boosted trees treat as missing.

use cardio_signal::stats;
use rustfft::{num_complex::Complex, FftPlanner};

/// The feature names, in the order of [`pulse_features`].
pub const MORPHOLOGY_NAMES: [&str; 17] = [
    "amplitude_cv",
    "amplitude_normalized_rmssd",
    "share_weak_pulses",
    "normalized_amplitude_range",
    "amplitude_prev_interval_corr",
    "amplitude_next_interval_corr",
    "pulse_template_corr_mean",
    "pulse_template_corr_p10",
    "share_misshapen_pulses",
    "spectral_peak_share",
    "spectral_entropy",
    "autocorrelation_at_period",
    "dominant_rate_over_pulse_rate",
    "pulse_width_cv",
    "share_typical_pulses",
    "successive_pulse_corr_mean",
    "share_dissimilar_successive_pulses",
];

/// A pulse weaker than this share of the median amplitude is weak.
pub const WEAK_PULSE_FRACTION: f64 = 0.6;
/// A pulse correlating with the template at least this well is typical.
pub const TYPICAL_CORRELATION: f64 = 0.95;
/// Successive pulses correlating below this are dissimilar.
pub const SIMILAR_SUCCESSIVE_CORRELATION: f64 = 0.9;
/// A pulse correlating with the template below this is misshapen.
pub const MISSHAPEN_CORRELATION: f64 = 0.8;
/// Band searched for the dominant pulse frequency, Hz (30-240 bpm).
const PULSE_BAND_HZ: (f64, f64) = (0.5, 4.0);
/// Rate the autocorrelation is computed at (at most), Hz.
const ACF_RATE_HZ: f64 = 50.0;
/// Half-width of the spectral line counted around the fundamental and its harmonic, Hz.
const LINE_HALF_WIDTH_HZ: f64 = 0.15;

fn nan_unless(ok: bool, v: f64) -> f64 {
    if ok && v.is_finite() {
        v
    } else {
        f64::NAN
    }
}

/// Amplitude (peak minus the lowest point since the previous peak) and width (samples above half
/// the amplitude around the peak) of each pulse; the first pulse looks back one median interval.
fn amplitudes_and_widths(x: &[f64], peaks: &[usize], median_gap: usize) -> (Vec<f64>, Vec<f64>) {
    let mut amps = Vec::with_capacity(peaks.len());
    let mut widths = Vec::with_capacity(peaks.len());
    for (k, &p) in peaks.iter().enumerate() {
        let from = if k == 0 {
            p.saturating_sub(median_gap)
        } else {
            peaks[k - 1]
        };
        let foot = x[from..=p].iter().copied().fold(f64::INFINITY, f64::min);
        let amp = x[p] - foot;
        amps.push(amp);
        let half = foot + 0.5 * amp;
        let mut lo = p;
        while lo > from && x[lo - 1] > half {
            lo -= 1;
        }
        let to = peaks.get(k + 1).copied().unwrap_or(x.len() - 1);
        let mut hi = p;
        while hi < to && x[hi + 1] > half {
            hi += 1;
        }
        widths.push((hi - lo + 1) as f64);
    }
    (amps, widths)
}

/// The peaks whose whole pulse (`± half` samples) lies inside `x`.
fn complete_pulses(x: &[f64], peaks: &[usize], half: usize) -> Vec<usize> {
    peaks
        .iter()
        .copied()
        .filter(|&p| p >= half && p + half < x.len())
        .collect()
}

/// Correlation of each complete pulse (`± half` samples around its peak) with their mean.
fn pulse_correlations(x: &[f64], complete: &[usize], half: usize) -> Vec<f64> {
    if complete.len() < 3 {
        return Vec::new();
    }
    let mut template = vec![0.0; 2 * half + 1];
    for &p in complete {
        for (t, v) in template.iter_mut().zip(&x[p - half..=p + half]) {
            *t += v;
        }
    }
    complete
        .iter()
        .map(|&p| stats::pearson(&x[p - half..=p + half], &template))
        .filter(|c| c.is_finite())
        .collect()
}

/// Correlation of each complete pulse with the next one.
fn successive_correlations(x: &[f64], complete: &[usize], half: usize) -> Vec<f64> {
    complete
        .windows(2)
        .map(|w| stats::pearson(&x[w[0] - half..=w[0] + half], &x[w[1] - half..=w[1] + half]))
        .filter(|c| c.is_finite())
        .collect()
}

thread_local! {
    /// One FFT planner per thread: it keeps the plans it made, so that each window does not plan
    /// its transform again.
    static PLANNER: std::cell::RefCell<FftPlanner<f64>> = std::cell::RefCell::new(FftPlanner::new());
}

/// Spectral figures of the window: share of the pulse-band power in the lines of the dominant
/// frequency and its first harmonic, normalised spectral entropy of the pulse band, and the
/// dominant frequency (Hz).
fn spectrum(x: &[f64], fs_hz: f64) -> (f64, f64, f64) {
    let n = x.len().next_power_of_two().max(256);
    let mean = stats::mean(x);
    // A Hann window against leakage between the lines; its cosine by rotation rather than one
    // `cos` per sample.
    let step = Complex::from_polar(1.0, 2.0 * std::f64::consts::PI / x.len() as f64);
    let mut phasor = Complex::new(1.0, 0.0);
    let mut buf: Vec<Complex<f64>> = x
        .iter()
        .map(|v| {
            let w = 0.5 - 0.5 * phasor.re;
            phasor *= step;
            Complex::new((v - mean) * w, 0.0)
        })
        .collect();
    buf.resize(n, Complex::new(0.0, 0.0));
    PLANNER.with(|p| p.borrow_mut().plan_fft_forward(n).process(&mut buf));
    let df = fs_hz / n as f64;
    let bin = |hz: f64| ((hz / df).round() as usize).min(n / 2);
    let (lo, hi) = (bin(PULSE_BAND_HZ.0), bin(PULSE_BAND_HZ.1));
    let power: Vec<f64> = buf[..=n / 2].iter().map(Complex::norm_sqr).collect();
    let band = &power[lo..=hi];
    let total: f64 = band.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let k_max = band
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i + lo);
    let f0 = k_max as f64 * df;
    let line = |centre: f64| {
        let (a, b) = (
            bin((centre - LINE_HALF_WIDTH_HZ).max(0.0)),
            bin(centre + LINE_HALF_WIDTH_HZ),
        );
        power[a..=b].iter().sum::<f64>()
    };
    let all_total: f64 = power[lo..=bin(2.0 * PULSE_BAND_HZ.1)].iter().sum();
    let peak_share = (line(f0) + line(2.0 * f0)) / all_total.max(f64::MIN_POSITIVE);
    let entropy = -band
        .iter()
        .map(|p| p / total)
        .filter(|&q| q > 0.0)
        .map(|q| q * q.ln())
        .sum::<f64>()
        / (band.len() as f64).ln();
    (peak_share.min(1.0), entropy, f0)
}

/// Largest correlation of `x` with itself shifted by a lag within ±25 % of `period` samples (the
/// Pearson correlation of the overlapping parts, so that the window's edges do not lower it; sums
/// of the overlaps from prefix sums, one pass per lag).
fn autocorrelation_at(x: &[f64], period: usize) -> f64 {
    let n = x.len();
    if period == 0 || n < 4 {
        return f64::NAN;
    }
    let mut sum = vec![0.0; n + 1];
    let mut sq = vec![0.0; n + 1];
    for (i, v) in x.iter().enumerate() {
        sum[i + 1] = sum[i] + v;
        sq[i + 1] = sq[i] + v * v;
    }
    let lo = (period * 3 / 4).max(1);
    let hi = (period * 5 / 4).min(n.saturating_sub(3));
    let mut best = f64::NAN;
    for lag in lo..=hi {
        let m = (n - lag) as f64;
        let (sa, sb) = (sum[n - lag], sum[n] - sum[lag]);
        let (qa, qb) = (sq[n - lag], sq[n] - sq[lag]);
        let sab: f64 = x[..n - lag].iter().zip(&x[lag..]).map(|(a, b)| a * b).sum();
        let var_a = qa - sa * sa / m;
        let var_b = qb - sb * sb / m;
        if var_a > 0.0 && var_b > 0.0 {
            let r = (sab - sa * sb / m) / (var_a * var_b).sqrt();
            if r.is_finite() && (best.is_nan() || r > best) {
                best = r;
            }
        }
    }
    best
}

/// The features of one window of a band-passed PPG `x` at `fs_hz` with its pulse peaks (indices
/// into `x`), in the order of [`MORPHOLOGY_NAMES`]. With fewer than three peaks the pulse features
/// are `NaN`; the spectral ones are defined for any window of at least a second.
pub fn pulse_features(x: &[f64], fs_hz: f64, peaks: &[usize]) -> Vec<f64> {
    let mut out = vec![f64::NAN; MORPHOLOGY_NAMES.len()];
    if x.len() < fs_hz as usize || !fs_hz.is_finite() || fs_hz <= 0.0 {
        return out;
    }
    let peaks: Vec<usize> = peaks.iter().copied().filter(|&p| p < x.len()).collect();
    let (peak_share, entropy, f0) = spectrum(x, fs_hz);
    out[9] = nan_unless(true, peak_share);
    out[10] = nan_unless(true, entropy);
    if peaks.len() < 3 {
        return out;
    }
    let mut gaps: Vec<f64> = peaks.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
    let intervals = gaps.clone();
    gaps.sort_unstable_by(f64::total_cmp);
    let median_gap = stats::median_sorted(&gaps);
    let (amps, widths) = amplitudes_and_widths(x, &peaks, median_gap as usize);
    let mut sorted_amps = amps.clone();
    sorted_amps.sort_unstable_by(f64::total_cmp);
    let med_amp = stats::median_sorted(&sorted_amps);
    let mean_amp = stats::mean(&amps);
    let ok = med_amp > 0.0 && mean_amp > 0.0;
    out[0] = nan_unless(ok, stats::sd(&amps) / mean_amp);
    let rmssd = (amps.windows(2).map(|w| (w[1] - w[0]).powi(2)).sum::<f64>()
        / (amps.len() - 1) as f64)
        .sqrt();
    out[1] = nan_unless(ok, rmssd / mean_amp);
    out[2] = nan_unless(
        ok,
        amps.iter()
            .filter(|&&a| a < WEAK_PULSE_FRACTION * med_amp)
            .count() as f64
            / amps.len() as f64,
    );
    out[3] = nan_unless(
        ok,
        (stats::quantile_nearest(&sorted_amps, 0.9) - stats::quantile_nearest(&sorted_amps, 0.1))
            / med_amp,
    );
    // Pulse k (k >= 1) follows interval k-1 and precedes interval k.
    if amps.len() >= 4 {
        let prev = stats::pearson(&amps[1..], &intervals);
        out[4] = nan_unless(true, prev);
        let next = stats::pearson(&amps[1..amps.len() - 1], &intervals[1..]);
        out[5] = nan_unless(true, next);
    }
    let half = ((median_gap / 2.0) as usize).max(1);
    let complete = complete_pulses(x, &peaks, half);
    let mut corrs = pulse_correlations(x, &complete, half);
    if !corrs.is_empty() {
        corrs.sort_unstable_by(f64::total_cmp);
        out[6] = stats::mean(&corrs);
        out[7] = stats::quantile_nearest(&corrs, 0.1);
        out[8] = corrs.iter().filter(|&&c| c < MISSHAPEN_CORRELATION).count() as f64
            / corrs.len() as f64;
        out[14] =
            corrs.iter().filter(|&&c| c >= TYPICAL_CORRELATION).count() as f64 / corrs.len() as f64;
    }
    let successive = successive_correlations(x, &complete, half);
    if !successive.is_empty() {
        out[15] = stats::mean(&successive);
        out[16] = successive
            .iter()
            .filter(|&&c| c < SIMILAR_SUCCESSIVE_CORRELATION)
            .count() as f64
            / successive.len() as f64;
    }
    // The autocorrelation at about 50 Hz: the band-passed pulse holds nothing above 8 Hz.
    let stride = ((fs_hz / ACF_RATE_HZ).floor() as usize).max(1);
    let coarse: Vec<f64> = x.iter().step_by(stride).copied().collect();
    out[11] = autocorrelation_at(&coarse, (median_gap / stride as f64).round() as usize);
    let pulse_rate_hz = fs_hz / median_gap;
    out[12] = nan_unless(f0.is_finite(), f0 / pulse_rate_hz);
    let mean_width = stats::mean(&widths);
    out[13] = nan_unless(mean_width > 0.0, stats::sd(&widths) / mean_width);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(f: &[f64], name: &str) -> f64 {
        f[MORPHOLOGY_NAMES.iter().position(|n| *n == name).unwrap()]
    }

    /// A pulse train at 100 Hz with pulses at `beats` (seconds) of amplitude `amps`.
    fn train(beats: &[f64], amps: &[f64]) -> (Vec<f64>, Vec<usize>) {
        let fs = 100.0;
        let n = 1000;
        let mut x = vec![0.0; n];
        for (&t, &a) in beats.iter().zip(amps) {
            for (i, v) in x.iter_mut().enumerate() {
                let d = i as f64 / fs - t;
                *v += a * (-d * d / (2.0 * 0.08 * 0.08)).exp();
            }
        }
        let peaks = beats.iter().map(|t| (t * fs).round() as usize).collect();
        (x, peaks)
    }

    #[test]
    fn a_regular_pulse_train_is_concentrated_and_uniform() {
        let beats: Vec<f64> = (0..12).map(|k| 0.4 + 0.8 * f64::from(k)).collect();
        let (x, peaks) = train(&beats, &[1.0; 12]);
        let f = pulse_features(&x, 100.0, &peaks);
        assert_eq!(f.len(), MORPHOLOGY_NAMES.len());
        assert!(feature(&f, "amplitude_cv") < 1e-3, "{f:?}");
        assert_eq!(feature(&f, "share_weak_pulses"), 0.0);
        assert!(feature(&f, "pulse_template_corr_mean") > 0.99);
        assert!(feature(&f, "spectral_peak_share") > 0.6, "{f:?}");
        assert!(feature(&f, "autocorrelation_at_period") > 0.9);
        assert!((feature(&f, "dominant_rate_over_pulse_rate") - 1.0).abs() < 0.05);
    }

    #[test]
    fn a_premature_weak_beat_is_weak_and_couples_amplitude_to_the_preceding_interval() {
        // Regular at 0.8 s with every third beat 0.45 s early and half as strong.
        let mut beats = Vec::new();
        let mut amps = Vec::new();
        let mut t = 0.4;
        for k in 0..12 {
            let early = k % 3 == 2;
            beats.push(if early { t - 0.35 } else { t });
            amps.push(if early { 0.45 } else { 1.0 });
            t += 0.8;
        }
        let (x, peaks) = train(&beats, &amps);
        let f = pulse_features(&x, 100.0, &peaks);
        assert!(
            (feature(&f, "share_weak_pulses") - 4.0 / 12.0).abs() < 1e-9,
            "{f:?}"
        );
        assert!(feature(&f, "amplitude_prev_interval_corr") > 0.8, "{f:?}");
        assert!(feature(&f, "amplitude_cv") > 0.25);
    }

    #[test]
    fn short_or_pulseless_windows_give_nan_not_a_panic() {
        assert!(pulse_features(&[], 100.0, &[]).iter().all(|v| v.is_nan()));
        let x = vec![0.0; 500];
        let f = pulse_features(&x, 100.0, &[10, 600]);
        assert!(f.iter().all(|v| v.is_nan()), "{f:?}");
        let f = pulse_features(&[1.0; 300], f64::NAN, &[1, 2, 3]);
        assert!(f.iter().all(|v| v.is_nan()));
    }
}
