//! Features of one heart-sound recording for the PCG model: preparation (channel choice, resampling
//! to 1 kHz, cropping), the S1/S2 segmentation of `cardio-signal`, and per-state timing, band-energy,
//! spectral and MFCC-like features, in the spirit of the feature set of Potes et al. (2016).
//!
//! Potes, C., Parvaneh, S., Rahman, A., Conroy, B. (2016), "Ensemble of feature-based and deep
//! learning-based classifiers for detection of abnormal heart sounds", *Computing in Cardiology* 43,
//! 621-624 (per-cycle timing statistics, amplitude ratios of S1, systole, S2 and diastole, band
//! powers and MFCCs of each state); Springer, D. B., Tarassenko, L., Clifford, G. D. (2016),
//! "Logistic regression-HSMM-based heart sound segmentation", *IEEE Trans. Biomed. Eng.* 63(4),
//! 822-832 (the states and their typical durations).
//!
//! Every feature is a ratio or a log-ratio inside the recording, so the gain of the microphone does
//! not matter. A feature that cannot be computed (e.g. no complete cardiac cycle) is `NaN`, which
//! the boosted trees route as "missing".

// x, n, p, v are the names of the signal-processing papers.
#![allow(clippy::many_single_char_names)]

use cardio_signal::{pcg, resample::Resampler, SamplingRate};
use rustfft::{num_complex::Complex, Fft, FftPlanner};

/// The rate every recording is analysed at, hertz.
pub const ANALYSIS_HZ: f64 = 1000.0;
/// Lowest accepted input rate, hertz (the analysis looks at sound up to 400 Hz).
pub const MIN_INPUT_HZ: f64 = 1000.0;
/// Shortest analysable recording, seconds.
pub const MIN_SECONDS: f64 = 5.0;
/// Longest stretch analysed, seconds: a longer recording is cut to its first [`MAX_SECONDS`].
pub const MAX_SECONDS: f64 = 60.0;
/// Most channels compared when choosing the one to analyse.
pub const MAX_CHANNELS_TRIED: usize = 4;

/// Frequency bands of the band-energy features, hertz.
pub const BANDS: [(f64, f64); 4] = [(25.0, 45.0), (45.0, 80.0), (80.0, 200.0), (200.0, 400.0)];
/// The four heart-cycle states.
pub const STATES: [&str; 4] = ["s1", "systole", "s2", "diastole"];
/// Number of MFCC-like coefficients per state (c0 to c11).
pub const N_CEPSTRA: usize = 12;
/// Mel filters of the cepstral features, spread over 25-400 Hz.
const N_MEL: usize = 20;
/// FFT frame length at 1 kHz (0.256 s; 3.9 Hz bins).
const FRAME: usize = 256;

/// Half-widths of the heart sounds around their envelope peak, seconds (S1 lasts about 0.12 s and
/// S2 about 0.09 s: Springer et al. 2016).
const S1_HALF: f64 = 0.06;
const S2_HALF: f64 = 0.045;
/// Shortest systole or diastole window kept, seconds.
const MIN_STATE: f64 = 0.03;

/// Why a recording cannot be analysed; the text is shown to users.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PrepareError {
    /// No samples at all.
    #[error("The recording holds no samples.")]
    Empty,
    /// Sampling rate below [`MIN_INPUT_HZ`] or not a number.
    #[error("Sampling rate too low: {0} Hz; heart-sound analysis needs at least 1000 Hz.")]
    LowRate(String),
    /// Shorter than [`MIN_SECONDS`].
    #[error("Recording too short: {0:.1} s; at least 5 s is needed.")]
    TooShort(f64),
    /// Not a number or infinite samples in the analysed stretch.
    #[error("The recording has {0} invalid (not-a-number or infinite) samples in its first 60 s; it cannot be analysed.")]
    NonFinite(usize),
    /// A silent (constant) recording.
    #[error("The recording is silent (a flat line): no heart sounds to analyse.")]
    Flat,
    /// The signal library failed on the prepared signal.
    #[error("The recording cannot be analysed: {0}.")]
    Signal(String),
}

/// Values measured on the recording and shown with the prediction.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Length of the recording, seconds.
    pub duration_s: f64,
    /// Length analysed (at most [`MAX_SECONDS`]), seconds.
    pub analysed_s: f64,
    /// The input sampling rate, hertz.
    pub sampling_rate_hz: f64,
    /// Index of the analysed channel.
    pub channel_index: usize,
    /// Its name.
    pub channel_name: String,
    /// Heart rate from the envelope autocorrelation, bpm.
    pub heart_rate_bpm: Option<f64>,
    /// Systole (S1 to S2) from the autocorrelation, seconds.
    pub systole_s: Option<f64>,
    /// Median cycle length of the segmented cycles, seconds.
    pub median_cycle_s: Option<f64>,
    /// Median S1-S2 interval of the segmented cycles, seconds.
    pub median_systole_s: Option<f64>,
    /// Median S2-S1 interval, seconds.
    pub median_diastole_s: Option<f64>,
    /// Standard deviation of the cycle lengths, seconds.
    pub cycle_sd_s: Option<f64>,
    /// Complete cycles found.
    pub cycles: usize,
    /// Envelope periodicity, the quality score of `cardio_signal::quality::pcg` (0-1).
    pub quality_score: f64,
    /// That quality check's verdict.
    pub quality_usable: bool,
    /// Its reason.
    pub quality_reason: String,
    /// What the basic checks (flat line, clipping) found wrong, if anything.
    pub basic_problem: Option<String>,
    /// The plausibility gate's verdict on the prepared sound (see `crate::gate`).
    pub gate: crate::gate::Verdict,
}

/// The feature vector and the measured values of a recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// One value per name of [`feature_names`], `NaN` when missing.
    pub values: Vec<f64>,
    /// What is shown to users.
    pub measured: Measured,
}

/// The names of the features, in order: whole-recording features, then the per-cycle block of the
/// rule-based segmentation of `cardio_signal::pcg::segment`, then the same block (prefixed `hsmm_`)
/// of the duration-dependent segmentation of [`super::hsmm`].
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "heart_rate_bpm",
        "systole_autocorr_s",
        "periodicity",
        "peak_height_cv",
        "kurtosis",
        "zero_crossing_rate",
        "spectral_entropy",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    for (lo, hi) in BANDS {
        names.push(format!("power_fraction_{lo:.0}_{hi:.0}"));
    }
    for c in 0..N_CEPSTRA {
        names.push(format!("frame_mfcc_{c}_mean"));
        names.push(format!("frame_mfcc_{c}_sd"));
    }
    for (lo, hi) in BANDS {
        for q in [10, 50, 90] {
            names.push(format!("frame_band_{lo:.0}_{hi:.0}_log_p{q}"));
        }
    }
    names.extend(block_names("", false));
    names.extend(block_names("hsmm_", true));
    names
}

/// Names of the per-cycle block; `durations` adds the mean S1 and S2 durations (only meaningful
/// when the segmentation measures them: the rule-based windows have a fixed length).
fn block_names(prefix: &str, durations: bool) -> Vec<String> {
    let mut names: Vec<String> = [
        "cycles_per_minute_ratio",
        "cycle_mean_s",
        "cycle_sd_s",
        "systole_mean_s",
        "systole_sd_s",
        "diastole_mean_s",
        "diastole_sd_s",
        "systole_cycle_ratio_mean",
        "systole_cycle_ratio_sd",
        "diastole_cycle_ratio_mean",
        "diastole_cycle_ratio_sd",
        "systole_diastole_ratio_mean",
        "systole_diastole_ratio_sd",
        "s1_duration_mean_s",
        "s2_duration_mean_s",
        "s1_s2_amplitude_log_ratio",
        "systole_s1_amplitude_log_ratio",
        "diastole_s2_amplitude_log_ratio",
        "systole_amplitude_cv",
        "diastole_amplitude_cv",
    ]
    .iter()
    .filter(|s| durations || !s.ends_with("_duration_mean_s"))
    .map(|s| format!("{prefix}{s}"))
    .collect();
    for s in STATES {
        for (lo, hi) in BANDS {
            names.push(format!("{prefix}{s}_band_{lo:.0}_{hi:.0}_log_rel"));
        }
    }
    for s in ["systole", "diastole"] {
        for (lo, hi) in BANDS {
            names.push(format!("{prefix}{s}_band_{lo:.0}_{hi:.0}_log_sd"));
        }
    }
    for (lo, hi) in BANDS {
        names.push(format!("{prefix}systole_over_s1_band_{lo:.0}_{hi:.0}"));
        names.push(format!("{prefix}diastole_over_s2_band_{lo:.0}_{hi:.0}"));
    }
    for s in STATES {
        names.push(format!("{prefix}{s}_spectral_entropy"));
        names.push(format!("{prefix}{s}_spectral_centroid_hz"));
        for c in 0..N_CEPSTRA {
            names.push(format!("{prefix}{s}_mfcc_{c}"));
        }
    }
    names
}

/// A recording prepared for analysis: one channel at [`ANALYSIS_HZ`], at most [`MAX_SECONDS`] long.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// The samples at 1 kHz.
    pub x: Vec<f64>,
    /// Original length, seconds.
    pub duration_s: f64,
    /// Input rate, hertz.
    pub sampling_rate_hz: f64,
    /// Which channel.
    pub channel_index: usize,
    /// Its name.
    pub channel_name: String,
}

/// A resampler to 1 kHz; a rate whose ratio to 1 kHz does not reduce to factors of at most 1000
/// (e.g. 8000.5 Hz) is rounded to whole, then 10, then 100 hertz (a timing error of at most
/// 50 / rate, 0.6 % at 8 kHz).
fn resampler(from_hz: f64) -> Result<Resampler, PrepareError> {
    let mut result = Resampler::between(from_hz, ANALYSIS_HZ);
    for step in [1.0, 10.0, 100.0] {
        if result.is_ok() {
            break;
        }
        result = Resampler::between((from_hz / step).round() * step, ANALYSIS_HZ);
    }
    result.map_err(|e| PrepareError::Signal(e.to_string()))
}

/// One channel cut to [`MAX_SECONDS`] and resampled to 1 kHz; checks length and validity.
///
/// # Errors
/// A [`PrepareError`] saying what is wrong, with the measured value.
pub fn prepare_channel(samples: &[f64], fs_hz: f64) -> Result<Vec<f64>, PrepareError> {
    if !(fs_hz.is_finite() && fs_hz >= MIN_INPUT_HZ - 0.5) {
        return Err(PrepareError::LowRate(format!("{fs_hz}")));
    }
    if samples.is_empty() {
        return Err(PrepareError::Empty);
    }
    let seconds = samples.len() as f64 / fs_hz;
    if seconds < MIN_SECONDS {
        return Err(PrepareError::TooShort(seconds));
    }
    let keep = ((MAX_SECONDS * fs_hz) as usize).min(samples.len());
    let x = &samples[..keep];
    let bad = x.iter().filter(|v| !v.is_finite()).count();
    if bad > 0 {
        return Err(PrepareError::NonFinite(bad));
    }
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    if hi - lo <= 1e-12 * hi.abs().max(lo.abs()).max(1e-300) {
        return Err(PrepareError::Flat);
    }
    // Mean removed and scaled to unit peak so that huge or tiny integer scales behave alike.
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let peak = x.iter().map(|v| (v - mean).abs()).fold(0.0, f64::max);
    let centred: Vec<f64> = x.iter().map(|v| (v - mean) / peak).collect();
    if (fs_hz - ANALYSIS_HZ).abs() < 1e-9 {
        return Ok(centred);
    }
    Ok(resampler(fs_hz)?.process(&centred))
}

/// Chooses the channel to analyse (of the first [`MAX_CHANNELS_TRIED`], the one whose envelope
/// repeats most clearly) and prepares it.
///
/// # Errors
/// The error of the first channel when none can be prepared.
pub fn prepare(rec: &cardio_formats::Recording) -> Result<Prepared, PrepareError> {
    let fs = rec.sampling_rate_hz;
    let mut best: Option<(f64, Prepared)> = None;
    let mut first_err = None;
    for (i, ch) in rec.channels.iter().take(MAX_CHANNELS_TRIED).enumerate() {
        match prepare_channel(&ch.samples, fs) {
            Ok(x) => {
                let periodicity = if rec.channels.len() > 1 {
                    SamplingRate::new(ANALYSIS_HZ)
                        .ok()
                        .and_then(|f| pcg::envelope(&x, f).ok())
                        .and_then(|env| envelope_periodicity(&env))
                        .unwrap_or(f64::NEG_INFINITY)
                } else {
                    0.0
                };
                if best.as_ref().is_none_or(|b| periodicity > b.0) {
                    best = Some((
                        periodicity,
                        Prepared {
                            x,
                            duration_s: ch.samples.len() as f64 / fs,
                            sampling_rate_hz: fs,
                            channel_index: i,
                            channel_name: ch.name.clone(),
                        },
                    ));
                }
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    match best {
        Some((_, p)) => Ok(p),
        None => Err(first_err.unwrap_or(PrepareError::Empty)),
    }
}

/// Highest normalised autocorrelation of an envelope at 0.33-2 s (as `quality::pcg`).
fn envelope_periodicity(env: &[f64]) -> Option<f64> {
    let ef = pcg::ENVELOPE_HZ;
    let (lo, hi) = ((0.33 * ef).round() as usize, (2.0 * ef).round() as usize);
    let n = env.len();
    if n < hi + 2 {
        return None;
    }
    let m = env.iter().sum::<f64>() / n as f64;
    let d: Vec<f64> = env.iter().map(|v| v - m).collect();
    let e0: f64 = d.iter().map(|v| v * v).sum();
    if e0 <= 0.0 {
        return None;
    }
    (lo..=hi)
        .map(|lag| {
            let s: f64 = d[..n - lag].iter().zip(&d[lag..]).map(|(a, b)| a * b).sum();
            s / e0 * n as f64 / (n - lag) as f64
        })
        .fold(None, |a: Option<f64>, v| Some(a.map_or(v, |a| a.max(v))))
}

/// Spectral analysis of short segments: Hann frames of [`FRAME`] samples, half overlapping,
/// averaged (Welch, P. D. (1967), *IEEE Trans. Audio Electroacoust.* 15(2), 70-73); a segment
/// shorter than a frame is zero-padded.
struct Spectra {
    window: Vec<f64>,
    /// The transform of [`FRAME`] samples, planned once (Cooley, J. W., Tukey, J. W. (1965), "An
    /// algorithm for the machine calculation of complex Fourier series", *Mathematics of
    /// Computation* 19(90), 297-301; `rustfft`).
    fft: std::sync::Arc<dyn Fft<f64>>,
    buffer: Vec<Complex<f64>>,
}

impl Spectra {
    fn new() -> Self {
        let window = (0..FRAME)
            .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / FRAME as f64).cos())
            .collect();
        Self {
            window,
            fft: FftPlanner::new().plan_fft_forward(FRAME),
            buffer: vec![Complex::new(0.0, 0.0); FRAME],
        }
    }

    /// Mean power per bin (`FRAME / 2 + 1` bins) of `seg`, per sample: the sum over bins equals
    /// the mean square of the (windowed, mean-removed) segment.
    fn psd(&mut self, seg: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; FRAME / 2 + 1];
        if seg.is_empty() {
            return out;
        }
        let hop = FRAME / 2;
        let mut starts = vec![0];
        while starts.last().is_some_and(|&s| s + FRAME < seg.len()) {
            let next = starts.last().map_or(0, |&s| s + hop);
            starts.push(next.min(seg.len() - FRAME));
        }
        starts.dedup();
        for &s in &starts {
            let frame = &seg[s..(s + FRAME).min(seg.len())];
            let mean = frame.iter().sum::<f64>() / frame.len() as f64;
            // A short frame gets a Hann window of its own length, centred in the zero padding.
            let len = frame.len();
            let offset = (FRAME - len) / 2;
            self.buffer.fill(Complex::new(0.0, 0.0));
            let mut wsum = 0.0;
            for (i, v) in frame.iter().enumerate() {
                let w = if len == FRAME {
                    self.window[i]
                } else {
                    0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / len as f64).cos()
                };
                self.buffer[offset + i].re = (v - mean) * w;
                wsum += w * w;
            }
            self.fft.process(&mut self.buffer);
            // Parseval: Σ_k |X_k|² = N Σ_n (x_n w_n)², so dividing by N Σ w² gives mean-square units.
            let norm = 1.0 / (wsum.max(1e-300) * FRAME as f64 * starts.len() as f64);
            for (k, o) in out.iter_mut().enumerate() {
                let p = self.buffer[k].norm_sqr();
                let one_sided = if k == 0 || k == FRAME / 2 { 1.0 } else { 2.0 };
                *o += p * one_sided * norm;
            }
        }
        out
    }
}

fn bin_hz() -> f64 {
    ANALYSIS_HZ / FRAME as f64
}

/// Power of a spectrum in `[lo, hi)` hertz.
fn band_power(psd: &[f64], lo: f64, hi: f64) -> f64 {
    psd.iter()
        .enumerate()
        .filter(|(k, _)| {
            let f = *k as f64 * bin_hz();
            f >= lo && f < hi
        })
        .map(|(_, p)| p)
        .sum()
}

fn mel(f: f64) -> f64 {
    2595.0 * (1.0 + f / 700.0).log10()
}

/// Triangular mel filters over 25-400 Hz on the FFT bins (Davis, S., Mermelstein, P. (1980),
/// "Comparison of parametric representations for monosyllabic word recognition in continuously
/// spoken sentences", *IEEE Trans. Acoust. Speech Signal Process.* 28(4), 357-366).
fn mel_bank() -> Vec<Vec<f64>> {
    let (m_lo, m_hi) = (mel(25.0), mel(400.0));
    let edges: Vec<f64> = (0..N_MEL + 2)
        .map(|i| {
            let m = m_lo + (m_hi - m_lo) * i as f64 / (N_MEL + 1) as f64;
            700.0 * (10f64.powf(m / 2595.0) - 1.0)
        })
        .collect();
    (0..N_MEL)
        .map(|j| {
            let (a, b, c) = (edges[j], edges[j + 1], edges[j + 2]);
            (0..=FRAME / 2)
                .map(|k| {
                    let f = k as f64 * bin_hz();
                    if f <= a || f >= c {
                        0.0
                    } else if f <= b {
                        (f - a) / (b - a)
                    } else {
                        (c - f) / (c - b)
                    }
                })
                .collect()
        })
        .collect()
}

/// MFCC-like coefficients c0..c11 of a power spectrum (log mel energies, DCT-II), the spectrum
/// first scaled by `reference` so that c0 is a level relative to the recording.
fn cepstra(psd: &[f64], bank: &[Vec<f64>], reference: f64) -> Vec<f64> {
    let logs: Vec<f64> = bank
        .iter()
        .map(|w| {
            let e: f64 = w.iter().zip(psd).map(|(w, p)| w * p).sum();
            (e / reference.max(1e-300) + 1e-12).ln()
        })
        .collect();
    (0..N_CEPSTRA)
        .map(|c| {
            logs.iter()
                .enumerate()
                .map(|(j, l)| {
                    l * (std::f64::consts::PI * c as f64 * (j as f64 + 0.5) / N_MEL as f64).cos()
                })
                .sum::<f64>()
                / N_MEL as f64
        })
        .collect()
}

/// Normalised Shannon entropy of the spectrum in 25-400 Hz (0 = one bin, 1 = flat).
fn spectral_entropy(psd: &[f64]) -> f64 {
    let sel: Vec<f64> = psd
        .iter()
        .enumerate()
        .filter(|(k, _)| {
            let f = *k as f64 * bin_hz();
            (25.0..400.0).contains(&f)
        })
        .map(|(_, p)| *p)
        .collect();
    let total: f64 = sel.iter().sum();
    if total <= 0.0 || sel.len() < 2 {
        return f64::NAN;
    }
    -sel.iter()
        .filter(|&&p| p > 0.0)
        .map(|p| {
            let q = p / total;
            q * q.ln()
        })
        .sum::<f64>()
        / (sel.len() as f64).ln()
}

/// Power-weighted mean frequency in 25-400 Hz.
fn spectral_centroid(psd: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (k, p) in psd.iter().enumerate() {
        let f = k as f64 * bin_hz();
        if (25.0..400.0).contains(&f) {
            num += f * p;
            den += p;
        }
    }
    if den > 0.0 {
        num / den
    } else {
        f64::NAN
    }
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn sd(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return f64::NAN;
    }
    let m = mean(v);
    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}

fn median(v: &[f64]) -> f64 {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if s.is_empty() {
        return f64::NAN;
    }
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        0.5 * (s[n / 2 - 1] + s[n / 2])
    }
}

/// Linear-interpolated quantile of sorted values (`NaN` when empty).
fn percentile_sorted(s: &[f64], q: f64) -> f64 {
    if s.is_empty() {
        return f64::NAN;
    }
    let pos = q * (s.len() - 1) as f64;
    let i = pos.floor() as usize;
    let j = (i + 1).min(s.len() - 1);
    s[i] + (s[j] - s[i]) * (pos - pos.floor())
}

fn opt(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// Sample index range of `[a, b)` seconds, clipped to `n`.
fn span(a: f64, b: f64, n: usize) -> std::ops::Range<usize> {
    let i = ((a * ANALYSIS_HZ).round().max(0.0) as usize).min(n);
    let j = ((b * ANALYSIS_HZ).round().max(0.0) as usize).min(n);
    i..j.max(i)
}

fn mean_abs(x: &[f64]) -> f64 {
    if x.is_empty() {
        f64::NAN
    } else {
        x.iter().map(|v| v.abs()).sum::<f64>() / x.len() as f64
    }
}

/// One cardiac cycle: S1 onset, S2 onset and the next S1 onset (seconds), and the sample ranges of
/// its four states at 1 kHz.
#[derive(Debug, Clone, PartialEq)]
struct Cycle {
    s1: f64,
    s2: f64,
    next_s1: f64,
    windows: [std::ops::Range<usize>; 4],
}

/// Cycles of the rule-based segmentation: fixed windows around the S1 and S2 envelope peaks.
fn rule_cycles(seg: &pcg::Segmentation, n: usize) -> Vec<Cycle> {
    let min_len = (MIN_STATE * ANALYSIS_HZ) as usize;
    seg.cycles
        .iter()
        .filter(|&&(a, b, c)| b > a && c > b && c - a < 2.5)
        .map(|&(a, b, c)| Cycle {
            s1: a,
            s2: b,
            next_s1: c,
            windows: [
                span(a - S1_HALF, a + S1_HALF, n),
                span(a + S1_HALF, b - S2_HALF, n),
                span(b - S2_HALF, b + S2_HALF, n),
                span(b + S2_HALF, c - S1_HALF, n),
            ],
        })
        .filter(|c| c.windows.iter().all(|w| w.len() >= min_len))
        .collect()
}

/// Cycles of the duration-dependent segmentation ([`super::hsmm`]).
fn hsmm_cycles(seg: &pcg::Segmentation, n: usize) -> Vec<Cycle> {
    let (Some(hr), Some(sys)) = (seg.heart_rate_bpm, seg.systole_s) else {
        return Vec::new();
    };
    let ef = pcg::ENVELOPE_HZ;
    let states = super::hsmm::decode(&seg.envelope, ef, hr, sys);
    let to_s = |i: usize| i as f64 / ef;
    super::hsmm::cycles(&states)
        .into_iter()
        .map(|w| Cycle {
            s1: to_s(w[0].start),
            s2: to_s(w[2].start),
            next_s1: to_s(w[3].end),
            windows: [
                span(to_s(w[0].start), to_s(w[0].end), n),
                span(to_s(w[1].start), to_s(w[1].end), n),
                span(to_s(w[2].start), to_s(w[2].end), n),
                span(to_s(w[3].start), to_s(w[3].end), n),
            ],
        })
        .filter(|c| c.windows.iter().all(|w| !w.is_empty()))
        .collect()
}

/// The per-cycle block of features (see [`block_names`]).
fn cycle_block(
    x: &[f64],
    cycles: &[Cycle],
    analysed_s: f64,
    heart_rate: f64,
    spectra: &mut Spectra,
    bank: &[Vec<f64>],
    durations: bool,
) -> Vec<f64> {
    let cyc: Vec<f64> = cycles.iter().map(|c| c.next_s1 - c.s1).collect();
    let sys: Vec<f64> = cycles.iter().map(|c| c.s2 - c.s1).collect();
    let dia: Vec<f64> = cycles.iter().map(|c| c.next_s1 - c.s2).collect();
    let ratio =
        |a: &[f64], b: &[f64]| -> Vec<f64> { a.iter().zip(b).map(|(a, b)| a / b).collect() };
    let sys_cyc = ratio(&sys, &cyc);
    let dia_cyc = ratio(&dia, &cyc);
    let sys_dia = ratio(&sys, &dia);
    let s1_len: Vec<f64> = cycles
        .iter()
        .map(|c| c.windows[0].len() as f64 / ANALYSIS_HZ)
        .collect();
    let s2_len: Vec<f64> = cycles
        .iter()
        .map(|c| c.windows[2].len() as f64 / ANALYSIS_HZ)
        .collect();

    let bins = FRAME / 2 + 1;
    let mut state_psd = vec![vec![0.0; bins]; 4];
    let mut band_log_rel: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); BANDS.len()]; 4];
    let mut sys_over_s1: Vec<Vec<f64>> = vec![Vec::new(); BANDS.len()];
    let mut dia_over_s2: Vec<Vec<f64>> = vec![Vec::new(); BANDS.len()];
    let (mut amp_s1_s2, mut amp_sys_s1, mut amp_dia_s2) = (Vec::new(), Vec::new(), Vec::new());
    let (mut amp_sys, mut amp_dia) = (Vec::new(), Vec::new());
    for c in cycles {
        let amps: Vec<f64> = c.windows.iter().map(|w| mean_abs(&x[w.clone()])).collect();
        amp_s1_s2.push((amps[0] / amps[2]).ln());
        amp_sys_s1.push((amps[1] / amps[0]).ln());
        amp_dia_s2.push((amps[3] / amps[2]).ln());
        amp_sys.push(amps[1]);
        amp_dia.push(amps[3]);
        let psds: Vec<Vec<f64>> = c
            .windows
            .iter()
            .map(|w| spectra.psd(&x[w.clone()]))
            .collect();
        // Reference: the mean power of the whole cycle's sounds and intervals.
        let total: f64 = psds.iter().map(|p| band_power(p, 25.0, 400.0)).sum::<f64>() / 4.0;
        for (s, psd) in psds.iter().enumerate() {
            for (k, v) in psd.iter().enumerate() {
                state_psd[s][k] += v / total.max(1e-300);
            }
            for (bi, &(lo, hi)) in BANDS.iter().enumerate() {
                band_log_rel[s][bi].push((band_power(psd, lo, hi) / total + 1e-12).ln());
            }
        }
        for (bi, &(lo, hi)) in BANDS.iter().enumerate() {
            let e = |s: usize| band_power(&psds[s], lo, hi) + 1e-12 * total;
            sys_over_s1[bi].push((e(1) / e(0)).ln());
            dia_over_s2[bi].push((e(3) / e(2)).ln());
        }
    }
    let cv = |v: &[f64]| sd(v) / mean(v);
    let per_minute = cycles.len() as f64 / analysed_s * 60.0;
    let mut v = vec![
        per_minute / heart_rate,
        mean(&cyc),
        sd(&cyc),
        mean(&sys),
        sd(&sys),
        mean(&dia),
        sd(&dia),
        mean(&sys_cyc),
        sd(&sys_cyc),
        mean(&dia_cyc),
        sd(&dia_cyc),
        mean(&sys_dia),
        sd(&sys_dia),
    ];
    if durations {
        v.extend([mean(&s1_len), mean(&s2_len)]);
    }
    v.extend([
        median(&amp_s1_s2),
        median(&amp_sys_s1),
        median(&amp_dia_s2),
        cv(&amp_sys),
        cv(&amp_dia),
    ]);
    for per_state in &band_log_rel {
        for b in per_state {
            v.push(median(b));
        }
    }
    for s in [1, 3] {
        for b in &band_log_rel[s] {
            v.push(sd(b));
        }
    }
    for bi in 0..BANDS.len() {
        v.push(median(&sys_over_s1[bi]));
        v.push(median(&dia_over_s2[bi]));
    }
    for psd in &state_psd {
        if cycles.is_empty() {
            v.extend(std::iter::repeat_n(f64::NAN, 2 + N_CEPSTRA));
            continue;
        }
        let avg: Vec<f64> = psd.iter().map(|p| p / cycles.len() as f64).collect();
        v.push(spectral_entropy(&avg));
        v.push(spectral_centroid(&avg));
        v.extend(cepstra(&avg, bank, 1.0));
    }
    v
}

/// Extracts the features of a prepared recording.
///
/// # Errors
/// [`PrepareError::Signal`] when the segmentation fails (it cannot on a prepared signal of at least
/// 5 s, but the error is passed on rather than assumed away).
pub fn extract(p: &Prepared) -> Result<Extracted, PrepareError> {
    let fs = SamplingRate::new(ANALYSIS_HZ).map_err(|e| PrepareError::Signal(e.to_string()))?;
    // The segmentation works on 25-400 Hz; the features use the same band.
    let x = cardio_signal::filter::Sos::butterworth(
        4,
        cardio_signal::filter::Band::BandPass(25.0, 400.0),
        fs,
    )
    .and_then(|f| f.filtfilt(&p.x))
    .map_err(|e| PrepareError::Signal(e.to_string()))?;
    let seg = pcg::segment(&p.x, fs).map_err(|e| PrepareError::Signal(e.to_string()))?;
    let n = x.len();
    let analysed_s = n as f64 / ANALYSIS_HZ;
    let mut spectra = Spectra::new();
    let bank = mel_bank();

    // Whole-recording measures.
    let whole = spectra.psd(&x);
    let whole_total = band_power(&whole, 25.0, 400.0);
    let m2 = x.iter().map(|v| v * v).sum::<f64>() / n as f64;
    let m4 = x.iter().map(|v| v.powi(4)).sum::<f64>() / n as f64;
    let zcr = x
        .windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count() as f64
        / analysed_s;
    // Envelope peak heights at the S1 and S2 times.
    let ef = pcg::ENVELOPE_HZ;
    let heights: Vec<f64> = seg
        .s1_s
        .iter()
        .chain(&seg.s2_s)
        .filter_map(|t| seg.envelope.get((t * ef).round() as usize).copied())
        .collect();
    let hr = seg.heart_rate_bpm.unwrap_or(f64::NAN);
    let mut v = vec![
        hr,
        seg.systole_s.unwrap_or(f64::NAN),
        seg.quality.score,
        sd(&heights) / mean(&heights),
        if m2 > 0.0 { m4 / (m2 * m2) } else { f64::NAN },
        zcr,
        spectral_entropy(&whole),
    ];
    for (lo, hi) in BANDS {
        v.push(band_power(&whole, lo, hi) / whole_total);
    }
    // Frame-level statistics over the whole recording, independent of the segmentation.
    let frames: Vec<Vec<f64>> = x
        .chunks_exact(FRAME / 2)
        .collect::<Vec<_>>()
        .windows(2)
        .map(|w| {
            let mut f = w[0].to_vec();
            f.extend_from_slice(w[1]);
            spectra.psd(&f)
        })
        .collect();
    let frame_cepstra: Vec<Vec<f64>> = frames
        .iter()
        .map(|psd| cepstra(psd, &bank, whole_total))
        .collect();
    for c in 0..N_CEPSTRA {
        let col: Vec<f64> = frame_cepstra.iter().map(|f| f[c]).collect();
        v.push(mean(&col));
        v.push(sd(&col));
    }
    for (lo, hi) in BANDS {
        let mut col: Vec<f64> = frames
            .iter()
            .map(|psd| (band_power(psd, lo, hi) / whole_total.max(1e-300) + 1e-12).ln())
            .collect();
        col.sort_by(f64::total_cmp);
        for q in [0.1, 0.5, 0.9] {
            v.push(percentile_sorted(&col, q));
        }
    }
    let rule = rule_cycles(&seg, n);
    v.extend(cycle_block(
        &x,
        &rule,
        analysed_s,
        hr,
        &mut spectra,
        &bank,
        false,
    ));
    let hsmm = hsmm_cycles(&seg, n);
    v.extend(cycle_block(
        &x,
        &hsmm,
        analysed_s,
        hr,
        &mut spectra,
        &bank,
        true,
    ));
    // Anything not finite (e.g. a ratio with a zero amplitude) is missing.
    for x in &mut v {
        if !x.is_finite() {
            *x = f64::NAN;
        }
    }
    let cyc: Vec<f64> = rule.iter().map(|c| c.next_s1 - c.s1).collect();
    let sys: Vec<f64> = rule.iter().map(|c| c.s2 - c.s1).collect();
    let dia: Vec<f64> = rule.iter().map(|c| c.next_s1 - c.s2).collect();
    let measured = Measured {
        duration_s: p.duration_s,
        analysed_s,
        sampling_rate_hz: p.sampling_rate_hz,
        channel_index: p.channel_index,
        channel_name: p.channel_name.clone(),
        heart_rate_bpm: seg.heart_rate_bpm.filter(|v| v.is_finite()),
        systole_s: seg.systole_s.filter(|v| v.is_finite()),
        median_cycle_s: opt(median(&cyc)),
        median_systole_s: opt(median(&sys)),
        median_diastole_s: opt(median(&dia)),
        cycle_sd_s: opt(sd(&cyc)),
        cycles: rule.len(),
        quality_score: if seg.quality.score.is_finite() {
            seg.quality.score
        } else {
            0.0
        },
        quality_usable: seg.quality.usable,
        quality_reason: seg.quality.reason.clone(),
        basic_problem: cardio_signal::quality::basic_checks(&p.x, fs).map(|q| q.reason),
        gate: crate::gate::gate(crate::gate::GateModality::Pcg).map_or_else(
            |e| crate::gate::Verdict {
                plausible: false,
                reason: e.to_string(),
                p_real: f64::NAN,
            },
            |g| g.judge(&p.x, ANALYSIS_HZ),
        ),
    };
    Ok(Extracted {
        values: v,
        measured,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spectrum_sums_to_the_mean_square_of_a_long_sine() {
        let x: Vec<f64> = (0..4000)
            .map(|i| (2.0 * std::f64::consts::PI * 100.0 * f64::from(i) / 1000.0).sin())
            .collect();
        let psd = Spectra::new().psd(&x);
        let total: f64 = psd.iter().sum();
        assert!((total - 0.5).abs() < 0.01, "{total}");
        assert!((band_power(&psd, 80.0, 200.0) / total) > 0.99);
        assert!((spectral_centroid(&psd) - 100.0).abs() < 2.0);
    }

    #[test]
    fn feature_names_match_the_feature_count() {
        let x: Vec<f64> = (0..12_000)
            .map(|i| {
                let t = f64::from(i) / 1000.0;
                let ph = t % 0.8;
                let burst = |c: f64, a: f64| a * (-((ph - c) * (ph - c)) / 0.0003).exp();
                (burst(0.1, 1.0) + burst(0.4, 0.6)) * (2.0 * std::f64::consts::PI * 50.0 * t).sin()
            })
            .collect();
        let p = Prepared {
            x,
            duration_s: 12.0,
            sampling_rate_hz: 1000.0,
            channel_index: 0,
            channel_name: String::new(),
        };
        let e = extract(&p).unwrap();
        assert_eq!(e.values.len(), feature_names().len());
        assert!((e.measured.heart_rate_bpm.unwrap() - 75.0).abs() < 3.0);
        assert!(e.measured.cycles >= 10, "{:?}", e.measured);
        assert!((e.measured.median_systole_s.unwrap() - 0.3).abs() < 0.05);
    }

    #[test]
    fn preparation_rejects_what_cannot_be_analysed_with_the_measured_value() {
        assert_eq!(prepare_channel(&[], 1000.0), Err(PrepareError::Empty));
        assert_eq!(
            prepare_channel(&vec![0.0; 3200], 1000.0),
            Err(PrepareError::TooShort(3.2))
        );
        assert_eq!(
            PrepareError::TooShort(3.2).to_string(),
            "Recording too short: 3.2 s; at least 5 s is needed."
        );
        assert_eq!(
            prepare_channel(&vec![1.0; 6000], 1000.0),
            Err(PrepareError::Flat)
        );
        assert!(matches!(
            prepare_channel(&vec![1.0; 6000], 500.0),
            Err(PrepareError::LowRate(_))
        ));
        assert!(matches!(
            prepare_channel(&vec![1.0; 6000], f64::NAN),
            Err(PrepareError::LowRate(_))
        ));
        let mut x: Vec<f64> = (0..6000).map(|i| f64::from(i % 7)).collect();
        x[10] = f64::NAN;
        assert_eq!(prepare_channel(&x, 1000.0), Err(PrepareError::NonFinite(1)));
    }

    #[test]
    fn long_recordings_are_cut_and_other_rates_resampled_to_1_khz() {
        let x: Vec<f64> = (0..4000 * 70).map(|i| f64::from(i % 13) - 6.0).collect();
        let y = prepare_channel(&x, 4000.0).unwrap();
        assert_eq!(y.len(), 60_000);
    }
}
