//! The plausibility gate: before a signal model classifies a recording, is it a plausible
//! recording of that modality at all? One contract for ECG, PCG and PPG:
//!
//! 1. **Impossible input** ([`impossible`]): no finite sample, more than half of them missing, or
//!    nothing but one value. The models answer [`PredictError::Unusable`] (a 422 with the reason).
//! 2. **Hand-set rules** ([`Gate::judge`]): an ECG amplitude outside [`ECG_AMPLITUDE_MV`] after
//!    units and gain, saturation (clipping), repeated samples, fewer than [`MIN_BEATS`] beats, a
//!    beat rate outside [`BEAT_RATE_BPM`].
//! 3. **A learnt rule**: boosted trees on the [`features`] of the signal, trained on real
//!    recordings of public datasets against seeded signals that are not a heart ([`nonheart`]) and
//!    recordings the datasets mark as noise; trained and validated in `cardio-lab` (`gate`), see the
//!    model cards.
//!
//! A recording that fails 2 or 3 is not an error: the model's result says `noisy` (ECG, PPG) or
//! `unsure` (PCG) with the gate's reason, and shows no finding and no heart rate.
//!
//! ```
//! use cardio_models::gate::{self, nonheart, GateModality};
//!
//! let noise = nonheart::generate(nonheart::Kind::WhiteNoise, GateModality::Pcg, 1);
//! let verdict = gate::gate(GateModality::Pcg).unwrap().judge(&noise.samples, noise.fs_hz);
//! assert!(!verdict.plausible);
//! ```

pub mod features;
pub mod nonheart;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::gbdt::Gbdt;
use crate::prediction::PredictError;

/// The modalities the gate judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GateModality {
    /// Electrocardiogram (millivolts).
    Ecg,
    /// Phonocardiogram.
    Pcg,
    /// Photoplethysmogram.
    Ppg,
}

impl GateModality {
    /// Every modality.
    pub const ALL: [Self; 3] = [Self::Ecg, Self::Pcg, Self::Ppg];

    /// Machine name (`ecg`, `pcg`, `ppg`).
    pub fn code(self) -> &'static str {
        match self {
            Self::Ecg => "ecg",
            Self::Pcg => "pcg",
            Self::Ppg => "ppg",
        }
    }

    /// What a recording of the modality is called in reasons.
    pub fn noun(self) -> &'static str {
        match self {
            Self::Ecg => "ECG",
            Self::Pcg => "heart-sound recording",
            Self::Ppg => "pulse (PPG) recording",
        }
    }

    /// What one beat is called in reasons.
    fn beat(self) -> &'static str {
        match self {
            Self::Ecg => "QRS complexes",
            Self::Pcg => "heart sounds",
            Self::Ppg => "pulses",
        }
    }
}

/// Plausible ECG amplitude (robust peak to peak: 0.5th to 99.5th percentile), millivolts, after
/// units and gain. Real leads measure about 0.3-5 mV; the margins leave room for low-voltage and
/// hypertrophy tracings and for baseline wander.
pub const ECG_AMPLITUDE_MV: (f64, f64) = (0.05, 30.0);
/// Plausible beat rate, beats a minute.
pub const BEAT_RATE_BPM: (f64, f64) = (25.0, 250.0);
/// Fewest beats found for a verdict.
pub const MIN_BEATS: usize = 3;
/// Largest share of samples held at the signal's rails (saturation).
pub const MAX_CLIPPED: f64 = 0.02;
/// Largest share of samples equal to their predecessor.
pub const MAX_REPEATED: f64 = 0.9;

/// The gate's answer for one recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Whether the recording may be classified.
    pub plausible: bool,
    /// Why, in one English sentence (starts with `usable:` when plausible).
    pub reason: String,
    /// The learnt rule's probability that the signal is a real recording (`NaN` when a hand-set
    /// rule decided first).
    pub p_real: f64,
}

/// Why a recording cannot be judged at all, or `None`. `max_missing` is the largest share of
/// non-finite samples tolerated (PPG exports hold gaps; an ECG or PCG should not).
pub fn impossible(samples: &[f64], modality: GateModality, max_missing: f64) -> Option<String> {
    let finite: Vec<f64> = samples.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        return Some(format!(
            "The {} holds no valid sample (every value is missing, infinite or not a number): check the file's gain and format.",
            modality.noun()
        ));
    }
    let missing = 1.0 - finite.len() as f64 / samples.len() as f64;
    if missing > max_missing {
        return Some(format!(
            "{:.0} % of the {}'s samples are missing, infinite or not a number; at most {:.0} % may be: check the file's gain and format.",
            100.0 * missing,
            modality.noun(),
            100.0 * max_missing
        ));
    }
    if finite.iter().all(|v| *v == finite[0]) {
        return Some(format!(
            "The {} holds nothing but one value ({}): there is no signal to analyse.",
            modality.noun(),
            finite[0]
        ));
    }
    None
}

/// The samples with every non-finite one replaced by the last finite value before it (the first
/// finite value at the start), for the gate of a recording that holds a few gaps.
pub fn held(samples: &[f64]) -> Vec<f64> {
    let mut last = samples
        .iter()
        .copied()
        .find(|v| v.is_finite())
        .unwrap_or(0.0);
    samples
        .iter()
        .map(|&v| {
            if v.is_finite() {
                last = v;
            }
            last
        })
        .collect()
}

/// The JSON object results carry under `details.gate`.
pub fn details(verdict: &Verdict, modality: GateModality) -> serde_json::Value {
    let p = if verdict.p_real.is_finite() {
        serde_json::json!(verdict.p_real)
    } else {
        serde_json::Value::Null
    };
    let version = gate(modality).map_or_else(|_| "-".to_string(), |g| g.params.version.clone());
    serde_json::json!({
        "id": format!("{}-plausibility-gate", modality.code()),
        "version": version,
        "plausible": verdict.plausible,
        "reason": verdict.reason,
        "probability_real": p,
    })
}

/// Headline validation of a gate (see [`validation`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateHeadline {
    /// Cross-validated share of real (non-noisy) recordings refused by the whole gate.
    pub cv_false_rejection: f64,
    /// Its 95 % CI (Wilson), lower end.
    pub cv_false_rejection_low: f64,
    /// Upper end.
    pub cv_false_rejection_high: f64,
    /// Cross-validated share of non-heart signals accepted by the whole gate.
    pub cv_false_acceptance: f64,
    /// Its 95 % CI (Wilson), upper end.
    pub cv_false_acceptance_high: f64,
    /// Share of non-heart signals accepted when their kind was left out of training (worst kind).
    pub leave_kind_out_worst_acceptance: f64,
}

/// A gate's committed parameters (`params/gate-<modality>.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateParams {
    /// The modality.
    pub modality: GateModality,
    /// Version of the parameters.
    pub version: String,
    /// What it was trained on.
    pub trained_on: String,
    /// Seed of training and validation.
    pub seed: u64,
    /// Feature names, in the classifier's column order.
    pub features: Vec<String>,
    /// Boosted trees: class 0 a real recording, class 1 not a heart.
    pub classifier: Gbdt,
    /// Probability of "not a heart" at or above which a recording is refused.
    pub threshold: f64,
    /// 0.5th and 99.5th percentile of each feature over the real training recordings (the reason
    /// names the feature furthest outside its range).
    pub real_ranges: Vec<[f64; 2]>,
    /// Headline validation figures.
    pub validation: GateHeadline,
}

/// A loaded gate.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    params: GateParams,
}

const ECG_JSON: &str = include_str!("../../params/gate-ecg.json");
const PCG_JSON: &str = include_str!("../../params/gate-pcg.json");
const PPG_JSON: &str = include_str!("../../params/gate-ppg.json");

/// Where `cardio train gate` writes a modality's parameters.
pub fn params_path(modality: GateModality) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("params")
        .join(format!("gate-{}.json", modality.code()))
}

/// The committed gate of a modality, parsed once.
///
/// # Errors
/// [`PredictError::ModelNotLoaded`] when the compiled-in parameters do not parse or do not fit
/// this build's features.
pub fn gate(modality: GateModality) -> Result<&'static Gate, PredictError> {
    static GATES: [OnceLock<Result<Gate, String>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (cell, json) = match modality {
        GateModality::Ecg => (&GATES[0], ECG_JSON),
        GateModality::Pcg => (&GATES[1], PCG_JSON),
        GateModality::Ppg => (&GATES[2], PPG_JSON),
    };
    cell.get_or_init(|| {
        let params: GateParams = serde_json::from_str(json)
            .map_err(|e| format!("{} gate parameters: {e}", modality.code()))?;
        Gate::new(params)
    })
    .as_ref()
    .map_err(|e| PredictError::ModelNotLoaded(e.clone()))
}

/// A short description of a feature for reasons, and how its value is written.
fn describe(name: &str, modality: GateModality) -> (String, fn(f64) -> String) {
    let pct: fn(f64) -> String = |v| {
        if v.abs() < 0.01 {
            format!("{:.2} %", 100.0 * v)
        } else {
            format!("{:.0} %", 100.0 * v)
        }
    };
    let two: fn(f64) -> String = |v| format!("{v:.2}");
    let (lo, hi) = features::band(modality);
    match name {
        "log_amplitude_mv" => ("the amplitude (mV peak to peak)".into(), |v| {
            format!("{:.3}", 10f64.powf(v))
        }),
        "band_fraction" => (format!("the share of power at {lo}-{hi} Hz"), pct),
        "low_fraction" => (format!("the share of power below {lo} Hz"), pct),
        "high_fraction" => (format!("the share of power above {hi} Hz"), pct),
        "mains_fraction" => (
            "the share of power at the mains frequency (50/60 Hz)".into(),
            pct,
        ),
        "spectral_flatness" => ("the spectral flatness (1 for white noise)".into(), two),
        "tonality" => ("the tonality (log10 of peak to median power)".into(), two),
        "lag1_autocorrelation" => ("the sample-to-sample correlation".into(), two),
        "log_kurtosis" => ("the peakiness (log10 kurtosis)".into(), two),
        "derivative_skewness" => ("the asymmetry of rises and falls".into(), two),
        "envelope_periodicity" => (
            "the periodicity of the envelope at a heart-beat period".into(),
            two,
        ),
        "envelope_sparsity" => ("the sparsity of the envelope".into(), two),
        "envelope_syllable_fraction" => (
            "the share of envelope modulation at the syllable rate of speech (3-10 Hz)".into(),
            pct,
        ),
        "beat_rate_bpm" => ("the beat rate (/min)".into(), |v| format!("{v:.0}")),
        "beat_count_ratio" => ("the ratio of beats counted to the beat rate".into(), two),
        "beat_interval_cv" => ("the variation of beat intervals".into(), two),
        "beat_template_correlation" => ("the likeness of beats to their average".into(), two),
        "beat_width_s" => ("the beat width".into(), two),
        "clip_fraction" => ("the share of clipped samples".into(), pct),
        "repeat_fraction" => ("the share of repeated samples".into(), pct),
        "zero_crossings_per_s" => ("the zero crossings per second".into(), |v| {
            format!("{v:.0}")
        }),
        "segmentation_periodicity" => ("the heart-cycle periodicity".into(), two),
        other => (other.replace('_', " "), two),
    }
}

impl Gate {
    /// A gate from parameters, checked against this build's features.
    ///
    /// # Errors
    /// A message when the feature list, the classifier or the ranges do not fit.
    pub fn new(params: GateParams) -> Result<Self, String> {
        let names: Vec<String> = features::FEATURE_NAMES.map(String::from).to_vec();
        if params.features != names
            || params.classifier.n_features != names.len()
            || params.real_ranges.len() != names.len()
            || params.classifier.n_classes != 2
        {
            return Err(format!(
                "the {} gate's parameters do not fit this build's {} features",
                params.modality.code(),
                names.len()
            ));
        }
        Ok(Self { params })
    }

    /// The parameters.
    pub fn params(&self) -> &GateParams {
        &self.params
    }

    /// Judges finite samples at `fs_hz` (PCG as the heart-sound model prepares it, 1 kHz; an ECG
    /// of unknown unit: see [`Gate::judge_calibrated`]). Call [`impossible`] first.
    pub fn judge(&self, samples: &[f64], fs_hz: f64) -> Verdict {
        self.judge_calibrated(samples, fs_hz, false)
    }

    /// As [`Gate::judge`]; `calibrated` when the samples are in a declared physical unit (an ECG
    /// in millivolts after the file's unit and gain), so that the amplitude can be judged.
    pub fn judge_calibrated(&self, samples: &[f64], fs_hz: f64, calibrated: bool) -> Verdict {
        let m = self.params.modality;
        let Some(f) = features::measure(samples, fs_hz, m, calibrated) else {
            return refuse(format!(
                "the sampling rate of {fs_hz} Hz cannot be analysed as a {}",
                m.noun()
            ));
        };
        self.judge_features(&f)
    }

    /// The verdict from measured features (see [`features::measure`]).
    pub fn judge_features(&self, f: &[f64]) -> Verdict {
        if let Some(reason) = hand_rules(f, self.params.modality) {
            return refuse(reason);
        }
        let p_not = self
            .params
            .classifier
            .predict_proba(&features::learnt_view(f))[1];
        let p_real = 1.0 - p_not;
        if p_not.is_finite() && p_not < self.params.threshold {
            return Verdict {
                plausible: true,
                reason: format!(
                    "usable: it looks like a real {} (probability {p_real:.2})",
                    self.params.modality.noun()
                ),
                p_real,
            };
        }
        Verdict {
            plausible: false,
            reason: self.learnt_reason(f, p_real),
            p_real,
        }
    }

    fn learnt_reason(&self, f: &[f64], p_real: f64) -> String {
        let m = self.params.modality;
        let mut worst: Option<(f64, usize)> = None;
        for (i, (v, [lo, hi])) in f.iter().zip(&self.params.real_ranges).enumerate() {
            let span = (hi - lo).abs().max(1e-9);
            let out = if *v < *lo {
                (lo - v) / span
            } else if *v > *hi {
                (v - hi) / span
            } else {
                0.0
            };
            if v.is_finite() && out > 0.0 && worst.is_none_or(|(w, _)| out > w) {
                worst = Some((out, i));
            }
        }
        let head = format!("this does not look like a real {}", m.noun());
        match worst {
            Some((_, i)) => {
                let (what, fmt) = describe(&self.params.features[i], m);
                let [lo, hi] = self.params.real_ranges[i];
                format!(
                    "{head}: {what} is {}, where real recordings lie within {} to {} (probability of a real recording {p_real:.2})",
                    fmt(f[i]),
                    fmt(lo),
                    fmt(hi)
                )
            }
            None => format!(
                "{head}: its spectrum, envelope and beats together are unlike real recordings (probability of a real recording {p_real:.2})"
            ),
        }
    }
}

fn refuse(reason: String) -> Verdict {
    Verdict {
        plausible: false,
        reason,
        p_real: f64::NAN,
    }
}

/// The hand-set rules on measured features; the reason of the first that fails.
pub fn hand_rules(f: &[f64], m: GateModality) -> Option<String> {
    let at = |name: &str| {
        features::FEATURE_NAMES
            .iter()
            .position(|n| *n == name)
            .map_or(f64::NAN, |i| f[i])
    };
    if m == GateModality::Ecg {
        let amp = 10f64.powf(at("log_amplitude_mv"));
        let (lo, hi) = ECG_AMPLITUDE_MV;
        if amp.is_finite() && amp > hi {
            return Some(format!(
                "an amplitude of {amp:.3e} mV peak to peak is far beyond an ECG's (at most {hi:.0} mV): check the units or the gain"
            ));
        }
        if amp.is_finite() && amp < lo {
            return Some(format!(
                "an amplitude of {amp:.3} mV peak to peak is too small for an ECG (at least {lo} mV): check the units or the electrode contact"
            ));
        }
    }
    let clipped = at("clip_fraction");
    if clipped > MAX_CLIPPED {
        return Some(format!(
            "saturated: {:.0} % of samples are held at the signal's limits (clipping)",
            100.0 * clipped
        ));
    }
    let repeated = at("repeat_fraction");
    if repeated > MAX_REPEATED {
        return Some(format!(
            "flat: {:.0} % of samples repeat the previous value",
            100.0 * repeated
        ));
    }
    let rate = at("beat_rate_bpm");
    if !rate.is_finite() {
        return Some(format!(
            "no repeating beat pattern: fewer than {MIN_BEATS} {} were found",
            m.beat()
        ));
    }
    let (lo, hi) = BEAT_RATE_BPM;
    if !(lo..=hi).contains(&rate) {
        return Some(format!(
            "a beat rate of {rate:.0} /min is outside the plausible {lo:.0}-{hi:.0} /min"
        ));
    }
    None
}
