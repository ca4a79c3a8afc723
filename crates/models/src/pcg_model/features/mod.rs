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

mod cycles;
mod prepare;
mod spectra;
mod stats;
#[cfg(test)]
mod tests;

use cardio_signal::{pcg, SamplingRate};

use cycles::{cycle_block, hsmm_cycles, rule_cycles};
pub use prepare::{prepare, prepare_channel, Prepared};
use spectra::{band_power, cepstra, mel_bank, spectral_entropy, Spectra};
use stats::{mean, median, opt, percentile_sorted, sd};

/// The rate every recording is analysed at, hertz.
pub const ANALYSIS_HZ: f64 = 1000.0;

/// Lowest accepted input rate, hertz (the analysis looks at sound up to 400 Hz).
pub const MIN_INPUT_HZ: f64 = 1000.0;

/// Shortest analysable recording, seconds: two heart cycles at 60 /min, what the murmur model
/// reads (`cardio_signal::quality::PCG_MIN_SECONDS`); the normal/abnormal decision needs
/// [`super::NORMAL_ABNORMAL_MIN_SECONDS`].
pub const MIN_SECONDS: f64 = cardio_signal::quality::PCG_MIN_SECONDS;

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
    #[error("Recording too short: {0:.1} s; at least 2 s is needed.")]
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
        col.sort_unstable_by(f64::total_cmp);
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
        basic_problem: cardio_signal::quality::basic_checks_at_least(&p.x, fs, MIN_SECONDS)
            .map(|q| q.reason),
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
