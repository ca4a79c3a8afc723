//! The measurements the plausibility gate judges a signal by: spectrum (where the power lies, how
//! flat or tonal it is, mains hum), amplitude (ECG, in millivolts), the envelope (does it repeat at
//! a cardiac period, is it sparse like heart sounds or steady like noise or music, is it modulated
//! at the syllable rate of speech), the beats the modality's own detector finds (rate, regularity,
//! beat-to-beat likeness, width), clipping and repeated samples.
//!
//! Every modality computes the same named features on its own prepared signal (ECG: millivolts at
//! [`ECG_HZ`]; PCG: unit-peak sound at 1 kHz; PPG: arbitrary units at [`PPG_HZ`]), the first
//! [`MAX_SECONDS`] s. A feature that does not apply is `NaN` (the boosted trees treat it as
//! missing).

use cardio_signal::filter::{Band, Sos};
use cardio_signal::resample::Resampler;
use cardio_signal::{ecg, pcg, ppg, quality, stats, SamplingRate};

use super::GateModality;

/// Rate of the prepared ECG, Hz (a 60 Hz mains hum is still below its Nyquist frequency).
pub const ECG_HZ: f64 = 125.0;
/// Rate of the prepared PPG, Hz.
pub const PPG_HZ: f64 = 25.0;
/// Rate of the prepared PCG, Hz (the heart-sound model's own analysis rate).
pub const PCG_HZ: f64 = 1000.0;
/// Longest stretch judged, seconds (from the start).
pub const MAX_SECONDS: f64 = 60.0;
/// Rate of the envelopes, Hz.
const ENV_HZ: f64 = 50.0;

/// The feature names, in the classifier's column order.
pub const FEATURE_NAMES: [&str; 22] = [
    "log_amplitude_mv",
    "band_fraction",
    "low_fraction",
    "high_fraction",
    "mains_fraction",
    "spectral_flatness",
    "tonality",
    "lag1_autocorrelation",
    "log_kurtosis",
    "derivative_skewness",
    "envelope_periodicity",
    "envelope_sparsity",
    "envelope_syllable_fraction",
    "beat_rate_bpm",
    "beat_count_ratio",
    "beat_interval_cv",
    "beat_template_correlation",
    "beat_width_s",
    "clip_fraction",
    "repeat_fraction",
    "zero_crossings_per_s",
    "segmentation_periodicity",
];

/// The features the learnt rule reads: all but two that depend on how a file was written rather
/// than on what it holds, which the hand-set rules still use:
/// - the ECG amplitude, known only when the file declares its unit (a serial front end sends bare
///   ADC counts), so that the trees judge a calibrated and an uncalibrated ECG alike;
/// - the share of repeated samples, which depends on quantisation (16-bit audio repeats, a float
///   recording never does).
pub fn learnt_view(f: &[f64]) -> Vec<f64> {
    let mut v = f.to_vec();
    for i in [0, 19] {
        if let Some(x) = v.get_mut(i) {
            *x = f64::NAN;
        }
    }
    v
}

/// The modality's band of interest, Hz: most of a real recording's power lies in it.
pub fn band(modality: GateModality) -> (f64, f64) {
    match modality {
        GateModality::Ecg => (0.5, 40.0),
        GateModality::Pcg => (25.0, 400.0),
        GateModality::Ppg => (0.5, 8.0),
    }
}

/// The analysis rate of a modality, Hz.
pub fn rate(modality: GateModality) -> f64 {
    match modality {
        GateModality::Ecg => ECG_HZ,
        GateModality::Pcg => PCG_HZ,
        GateModality::Ppg => PPG_HZ,
    }
}

/// Cuts `x` (finite samples at `fs_hz`) to [`MAX_SECONDS`] and resamples it to the modality's
/// rate; `None` when the rate cannot be resampled.
pub fn prepare(x: &[f64], fs_hz: f64, modality: GateModality) -> Option<Vec<f64>> {
    let keep = ((MAX_SECONDS * fs_hz) as usize).min(x.len());
    let head = &x[..keep];
    let to = rate(modality);
    if (fs_hz - to).abs() < 1e-9 {
        return Some(head.to_vec());
    }
    let r = Resampler::between(fs_hz, to)
        .or_else(|_| Resampler::between(fs_hz.round(), to))
        .ok()?;
    Some(r.process(head))
}

/// The features of a raw signal (finite samples at `fs_hz`; ECG in millivolts), in
/// [`FEATURE_NAMES`] order: amplitude, clipping and repeats are measured on the raw samples (the
/// first [`MAX_SECONDS`]), everything else on the prepared signal (see [`prepare`]). The ECG
/// amplitude only when `calibrated` (the file declared its unit: a column of bare ADC counts has
/// no amplitude in millivolts); otherwise it is missing. `None` when the rate cannot be resampled.
pub fn measure(
    raw: &[f64],
    fs_hz: f64,
    modality: GateModality,
    calibrated: bool,
) -> Option<Vec<f64>> {
    let prepared = prepare(raw, fs_hz, modality)?;
    let mut f = extract(&prepared, modality);
    let keep = ((MAX_SECONDS * fs_hz) as usize).min(raw.len());
    let head = &raw[..keep];
    if head.len() > 1 {
        f[0] = f64::NAN;
        if modality == GateModality::Ecg && calibrated {
            let (lo, hi) = percentiles(head, 0.005, 0.995);
            f[0] = (hi - lo).max(1e-12).log10();
        }
        let (clip, repeat) = clip_and_repeat(head);
        f[18] = clip;
        f[19] = repeat;
    }
    Some(f)
}

/// The features of a prepared signal (see [`prepare`]), in [`FEATURE_NAMES`] order.
pub fn extract(x: &[f64], modality: GateModality) -> Vec<f64> {
    let fs = rate(modality);
    let mut f = vec![f64::NAN; FEATURE_NAMES.len()];
    if x.len() < (2.0 * fs) as usize {
        return f;
    }
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let d: Vec<f64> = x.iter().map(|v| v - mean).collect();

    let (freqs, psd) = welch(&d, fs);
    let total: f64 = psd.iter().skip(1).sum::<f64>().max(f64::MIN_POSITIVE);
    let (b_lo, b_hi) = band(modality);
    let sum_where = |pred: &dyn Fn(f64) -> bool| -> f64 {
        freqs
            .iter()
            .zip(&psd)
            .skip(1)
            .filter(|(fr, _)| pred(**fr))
            .map(|(_, p)| p)
            .sum::<f64>()
    };
    f[1] = sum_where(&|fr| (b_lo..=b_hi).contains(&fr)) / total;
    f[2] = sum_where(&|fr| fr < b_lo) / total;
    f[3] = sum_where(&|fr| fr > b_hi) / total;
    if fs / 2.0 > 61.5 {
        f[4] = sum_where(&|fr| (fr - 50.0).abs() <= 1.0 || (fr - 60.0).abs() <= 1.0) / total;
    }
    let in_band: Vec<f64> = freqs
        .iter()
        .zip(&psd)
        .filter(|(fr, _)| (b_lo..=b_hi).contains(*fr))
        .map(|(_, p)| p.max(1e-300))
        .collect();
    if !in_band.is_empty() {
        let arith = in_band.iter().sum::<f64>() / in_band.len() as f64;
        let geo = (in_band.iter().map(|p| p.ln()).sum::<f64>() / in_band.len() as f64).exp();
        f[5] = geo / arith;
        let mut sorted = in_band.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let med = sorted[sorted.len() / 2];
        f[6] = (sorted[sorted.len() - 1] / med).log10();
    }
    f[7] = autocorrelation(&d, 1);
    let filtered = band_pass(&d, fs, b_lo, b_hi).unwrap_or_else(|| d.clone());
    f[8] = kurtosis(&filtered).max(1e-9).log10();
    let diff: Vec<f64> = filtered.windows(2).map(|w| w[1] - w[0]).collect();
    f[9] = skewness(&diff);
    f[20] = zero_crossings(&filtered) as f64 / (x.len() as f64 / fs);
    let (clip, repeat) = clip_and_repeat(x);
    f[18] = clip;
    f[19] = repeat;

    let Ok(sr) = SamplingRate::new(fs) else {
        return f;
    };
    let mut pcg_rate = f64::NAN;
    let (envelope, beats_s, width) = match modality {
        GateModality::Ecg => ecg_beats(x, &filtered, sr),
        GateModality::Pcg => pcg_beats(x, sr, &mut f[21], &mut pcg_rate),
        GateModality::Ppg => ppg_beats(x, sr),
    };
    if let Some(env) = envelope.filter(|e| e.len() > (3.0 * ENV_HZ) as usize) {
        f[10] = cycle_periodicity(&env, ENV_HZ).unwrap_or(f64::NAN);
        let (p50, p95) = percentiles(&env, 0.5, 0.95);
        let floor = percentiles(&env, 0.05, 0.05).0;
        f[11] = ((p95 - floor).max(1e-12) / (p50 - floor).max(1e-12)).log10();
        f[12] = syllable_fraction(&env, ENV_HZ);
    }
    f[17] = width.unwrap_or(f64::NAN);
    let duration = x.len() as f64 / fs;
    if modality == GateModality::Pcg {
        // Heart sounds: the rate of the segmentation's envelope autocorrelation (S1 picks miss
        // beats in murmurs); beats counted from its S1 times.
        f[13] = pcg_rate;
        f[14] = beats_s.len() as f64 / duration * 60.0 / pcg_rate;
        if beats_s.len() >= 3 {
            let ibi: Vec<f64> = beats_s.windows(2).map(|w| w[1] - w[0]).collect();
            let (m, var) = moments(&ibi);
            f[15] = var.sqrt() / m;
        }
    } else if beats_s.len() >= 3 {
        let mut ibi: Vec<f64> = beats_s.windows(2).map(|w| w[1] - w[0]).collect();
        let m = ibi.iter().sum::<f64>() / ibi.len() as f64;
        let sd = (ibi.iter().map(|v| (v - m).powi(2)).sum::<f64>() / ibi.len() as f64).sqrt();
        ibi.sort_unstable_by(f64::total_cmp);
        let median = ibi[ibi.len() / 2];
        f[13] = 60.0 / median;
        f[14] = (beats_s.len() as f64 / duration * 60.0) / f[13];
        f[15] = sd / m;
        let idx: Vec<usize> = beats_s.iter().map(|t| (t * fs).round() as usize).collect();
        let half = (median * fs / 2.0) as usize;
        let source = if modality == GateModality::Pcg {
            &filtered
        } else {
            x
        };
        f[16] = quality::template_correlation(source, &idx, half).unwrap_or(f64::NAN);
    } else {
        f[14] = beats_s.len() as f64 / duration * 60.0 / 60.0;
    }
    f
}

type Beats = (Option<Vec<f64>>, Vec<f64>, Option<f64>);

/// ECG: R peaks of the signal crate's detector, the median QRS width and the QRS-band envelope.
fn ecg_beats(x: &[f64], filtered: &[f64], fs: SamplingRate) -> Beats {
    let env = band_pass(filtered, fs.hz(), 5.0, 25.0).map(|q| envelope(&q, fs.hz(), 0.05));
    match ecg::analyze(x, fs, ecg::Powerline::Hz50) {
        Ok(a) => {
            let mut widths: Vec<f64> = a.beats.iter().map(|b| b.qrs_width_s).collect();
            widths.sort_unstable_by(f64::total_cmp);
            let width = widths.get(widths.len() / 2).copied();
            let beats = a.r_peaks.iter().map(|&i| i as f64 / fs.hz()).collect();
            (env, beats, width)
        }
        Err(_) => (env, Vec::new(), None),
    }
}

/// PCG: S1 times of the segmentation, its envelope, its own periodicity score and heart rate.
fn pcg_beats(x: &[f64], fs: SamplingRate, periodicity: &mut f64, rate: &mut f64) -> Beats {
    match pcg::segment(x, fs) {
        Ok(s) => {
            *periodicity = s.quality.score;
            *rate = s.heart_rate_bpm.unwrap_or(f64::NAN);
            (Some(s.envelope), s.s1_s, None)
        }
        Err(_) => (None, Vec::new(), None),
    }
}

/// PPG: systolic peaks; the pulse wave is its own envelope; the width is the rise time (foot to
/// peak) as a share of the beat interval.
fn ppg_beats(x: &[f64], fs: SamplingRate) -> Beats {
    let Ok(a) = ppg::analyze(x, fs) else {
        return (None, Vec::new(), None);
    };
    let env = Resampler::between(fs.hz(), ENV_HZ)
        .ok()
        .map(|r| r.process(&a.cleaned));
    let mut rises = Vec::new();
    for w in a.peaks.windows(2) {
        let seg = &a.cleaned[w[0]..=w[1]];
        if let Some((foot, _)) = seg.iter().enumerate().min_by(|p, q| p.1.total_cmp(q.1)) {
            rises.push((seg.len() - 1 - foot) as f64 / (seg.len() - 1).max(1) as f64);
        }
    }
    rises.sort_unstable_by(f64::total_cmp);
    let width = rises.get(rises.len() / 2).copied();
    (env, a.peak_times_s, width)
}

/// Zero-phase 2nd-order Butterworth band-pass, the upper edge capped below Nyquist.
fn band_pass(x: &[f64], fs: f64, lo: f64, hi: f64) -> Option<Vec<f64>> {
    let sr = SamplingRate::new(fs).ok()?;
    let hi = hi.min(0.45 * fs);
    Sos::butterworth(2, Band::BandPass(lo, hi), sr)
        .ok()?
        .filtfilt(x)
        .ok()
}

/// Rectified, `smooth_s` moving-average envelope at [`ENV_HZ`].
fn envelope(x: &[f64], fs: f64, smooth_s: f64) -> Vec<f64> {
    let w = ((smooth_s * fs).round() as usize).max(1);
    let step = (fs / ENV_HZ).round().max(1.0) as usize;
    let abs: Vec<f64> = x.iter().map(|v| v.abs()).collect();
    let mut prefix = vec![0.0; abs.len() + 1];
    for (i, v) in abs.iter().enumerate() {
        prefix[i + 1] = prefix[i] + v;
    }
    (0..abs.len())
        .step_by(step)
        .map(|i| {
            let a = i.saturating_sub(w / 2);
            let b = (i + w / 2 + 1).min(abs.len());
            (prefix[b] - prefix[a]) / (b - a) as f64
        })
        .collect()
}

/// Welch power spectrum (Hann windows, half overlap) of about 4 s segments; bins and powers.
///
/// Welch, P. D. (1967), "The use of fast Fourier transform for the estimation of power spectra",
/// *IEEE Trans. Audio Electroacoust.* 15(2), 70-73.
fn welch(x: &[f64], fs: f64) -> (Vec<f64>, Vec<f64>) {
    let want = ((4.0 * fs) as usize).next_power_of_two().min(4096);
    let n = want.min(x.len().next_power_of_two() / 2).max(16);
    let psd = crate::spectrum::welch(x, n);
    let freqs = (0..=n / 2).map(|k| k as f64 * fs / n as f64).collect();
    (freqs, psd)
}

/// The two quantiles `a` and `b` (0-1) of `x`.
fn percentiles(x: &[f64], a: f64, b: f64) -> (f64, f64) {
    let mut s: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    let [a, b] = stats::quantiles_nearest_unsorted(&mut s, [a, b]);
    (a, b)
}

fn autocorrelation(d: &[f64], lag: usize) -> f64 {
    let e0: f64 = d.iter().map(|v| v * v).sum();
    if e0 <= 0.0 || d.len() <= lag {
        return f64::NAN;
    }
    d[..d.len() - lag]
        .iter()
        .zip(&d[lag..])
        .map(|(a, b)| a * b)
        .sum::<f64>()
        / e0
}

fn moments(x: &[f64]) -> (f64, f64) {
    let n = x.len().max(1) as f64;
    let m = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n;
    (m, var)
}

fn kurtosis(x: &[f64]) -> f64 {
    let (m, var) = moments(x);
    if var <= 0.0 {
        return f64::NAN;
    }
    x.iter().map(|v| (v - m).powi(4)).sum::<f64>() / x.len() as f64 / (var * var)
}

fn skewness(x: &[f64]) -> f64 {
    let (m, var) = moments(x);
    if var <= 0.0 {
        return f64::NAN;
    }
    x.iter().map(|v| (v - m).powi(3)).sum::<f64>() / x.len() as f64 / var.powf(1.5)
}

fn zero_crossings(x: &[f64]) -> usize {
    x.windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count()
}

/// Share of samples held at the signal's extremes with their predecessor, and share equal to
/// their predecessor (the basic checks of `cardio_signal::quality`, as numbers).
fn clip_and_repeat(x: &[f64]) -> (f64, f64) {
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let eps = 1e-3 * (hi - lo);
    let at_rail = |v: f64| v <= lo + eps || v >= hi - eps;
    let n = (x.len() - 1).max(1) as f64;
    let clipped = x
        .windows(2)
        .filter(|w| at_rail(w[0]) && at_rail(w[1]) && (w[0] - w[1]).abs() <= eps)
        .count() as f64;
    let repeats = x.windows(2).filter(|w| w[0] == w[1]).count() as f64;
    (clipped / n, repeats / n)
}

/// Highest normalised autocorrelation of an envelope at one cardiac cycle (0.24-2.4 s: 25-250
/// beats a minute).
fn cycle_periodicity(env: &[f64], fs: f64) -> Option<f64> {
    let lo = (0.24 * fs).round() as usize;
    let hi = ((2.4 * fs).round() as usize).min(env.len() / 2);
    if hi <= lo {
        return None;
    }
    let (m, _) = moments(env);
    let d: Vec<f64> = env.iter().map(|v| v - m).collect();
    let e0: f64 = d.iter().map(|v| v * v).sum();
    if e0 <= 0.0 {
        return None;
    }
    let n = d.len();
    (lo..=hi)
        .map(|lag| {
            d[..n - lag]
                .iter()
                .zip(&d[lag..])
                .map(|(a, b)| a * b)
                .sum::<f64>()
                / e0
                * n as f64
                / (n - lag) as f64
        })
        .max_by(f64::total_cmp)
}

/// Share of the envelope's modulation power at 3-10 Hz (the syllable rate of speech) among
/// 0.3-10 Hz (heartbeats modulate at 0.4-4 Hz).
fn syllable_fraction(env: &[f64], fs: f64) -> f64 {
    let (m, _) = moments(env);
    let d: Vec<f64> = env.iter().map(|v| v - m).collect();
    let (freqs, psd) = welch(&d, fs);
    let (mut syl, mut all) = (0.0, 0.0);
    for (fr, p) in freqs.iter().zip(&psd) {
        if (0.3..=10.0).contains(fr) {
            all += p;
            if *fr >= 3.0 {
                syl += p;
            }
        }
    }
    if all > 0.0 {
        syl / all
    } else {
        f64::NAN
    }
}
