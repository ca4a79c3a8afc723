//! The heart-sound model ("pcg-gbdt", the id kept from its first version): a phonocardiogram (any
//! rate from 1 kHz up, resampled to 1 kHz) to `normal`, `abnormal` or `unsure` (quality too poor to
//! judge, as the PhysioNet/CinC Challenge 2016 allowed), trained and validated on the challenge's
//! 3240 training recordings. Its probability of abnormal blends a small convolutional network on
//! the log-mel spectrogram with boosted trees on segmentation features (Potes et al. 2016). The
//! model card is `cards/pcg.md`; the trained parameters are `params/pcg-gbdt.json` (trees) and
//! `params/pcg-cnn.bin` (network), compiled in and parsed once.
//!
//! - [`features`]: preparation (channel, resampling, the first [`features::MAX_SECONDS`] s) and the
//!   segmentation-based features (timing, band energies of S1/systole/S2/diastole, MFCC-like
//!   cepstra, spectral and quality measures).
//! - [`hsmm`]: a duration-dependent (semi-Markov) S1/systole/S2/diastole segmentation whose
//!   cycles give a second block of per-cycle features.
//! - [`spectrogram`]: the network's input, a log-mel spectrogram normalised per recording.
//! - [`network`]: the network, its weights and the blend with the trees.
//! - [`decision`]: the quality gate (`unsure`) and the decision from the probability of abnormal.
//!
//! Loading `cinc2016`, the training and the validation of the model card (5-fold CV stratified by
//! site and label, leave-one-site-out, bootstrap CIs) are in `cardio-lab` (`pcg_model`).
//!
//! ```
//! use cardio_formats::{Channel, Recording};
//! use cardio_models::pcg_model;
//!
//! use cardio_testkit::signals::{breathing_beats, jitter};
//!
//! // 12 s of synthetic heart sounds at 4 kHz: S1 and S2 bursts about every 0.8 s, varying with
//! // breathing over a little noise (a signal with neither is refused by the plausibility gate).
//! let mut state = 3;
//! let samples: Vec<f64> = (0..48_000)
//!     .map(|i| {
//!         let t = f64::from(i) / 4000.0;
//!         let ph = breathing_beats(t).fract() * 0.8;
//!         let burst = |c: f64, a: f64| a * (-((ph - c) * (ph - c)) / 0.0003).exp();
//!         (burst(0.1, 1.0) + burst(0.4, 0.6)) * (2.0 * std::f64::consts::PI * 50.0 * t).sin()
//!             + 0.01 * jitter(&mut state)
//!     })
//!     .collect();
//! let rec = Recording {
//!     channels: vec![Channel { name: "mic".into(), unit: String::new(), samples }],
//!     sampling_rate_hz: 4000.0,
//!     start: None,
//!     metadata: Default::default(),
//!     device_interpretation: None,
//! };
//! let result = pcg_model::model().unwrap().predict(&rec).unwrap();
//! assert!(["normal", "abnormal", "unsure"].contains(&result.label.as_str()));
//! assert!((result.details["heart_rate_bpm"].as_f64().unwrap() - 75.0).abs() < 3.0);
//! ```

pub mod decision;
pub mod features;
pub mod hsmm;
pub mod network;
pub mod spectrogram;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::catalogue::{self, whole, Advice};
use crate::gate::{self, GateModality};
use crate::gbdt::{Gbdt, GbdtConfig};
use crate::prediction::{on_decision_scale, ModelInfo, PredictError, Prediction};
pub use decision::Decision;

/// Least periodicity of the heart sounds for the timings of S1 and S2 to be shown (the check of
/// `cardio_signal::quality::pcg`). Below it the recording may still be judged (the model's own
/// quality gate is [`decision::gate`]), but no heart rate or timing is shown.
pub const TIMING_MIN_PERIODICITY: f64 = 0.3;

/// Shortest recording judged normal or abnormal, seconds: CinC 2016's recordings, on which the
/// decision was learnt and validated, are 5 s or more. A shorter one (down to
/// [`features::MIN_SECONDS`]) is `unsure` for this decision and read by the murmur model alone.
pub const NORMAL_ABNORMAL_MIN_SECONDS: f64 = 5.0;

/// Why the heart rate and timings of a judged recording are not shown: the segmentation's own
/// check failed. Never says the recording is too noisy: the model judged it.
fn timing_note(m: &features::Measured) -> String {
    if m.quality_reason.starts_with("too noisy") {
        format!(
            "The heart rate and timings are not shown: the heart sounds do not repeat clearly enough to time S1 and S2 (periodicity {:.2}, timing needs at least {TIMING_MIN_PERIODICITY:.2}).",
            m.quality_score
        )
    } else {
        format!(
            "The heart rate and timings are not shown: the segmentation of S1 and S2 did not pass its own check ({}).",
            m.quality_reason
        )
    }
}

/// Identifier of the model in results and parameters.
pub const MODEL_ID: &str = "pcg-gbdt";
/// Version of the model; bump it when the features, training or data change.
pub const VERSION: &str = "2.1.0";
/// Training date written into the parameters (a constant so that training is reproducible).
pub const TRAINING_DATE: &str = "2026-11-26";
/// Where `cardio train pcg` writes the parameters.
pub const PARAMS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/pcg-gbdt.json");
/// Name of the headline metric in results.
pub const METRIC: &str = "cv_macc";

/// The committed parameters, compiled in.
const PARAMS_JSON: &str = include_str!("../../params/pcg-gbdt.json");

/// The last recommendation of every result.
pub use crate::prediction::DISCLAIMER;

/// Headline validation figures carried in the parameters (and so in every result's details).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// Pooled out-of-fold MAcc of the 5-fold CV.
    pub cv_macc: f64,
    /// Its bootstrap 95 % CI, lower end.
    pub cv_macc_ci_low: f64,
    /// Upper end.
    pub cv_macc_ci_high: f64,
    /// CV sensitivity (unsure counted as referred).
    pub cv_sensitivity: f64,
    /// CV specificity (unsure counted as an error).
    pub cv_specificity: f64,
    /// Fraction of recordings called unsure in the CV.
    pub cv_unsure_fraction: f64,
    /// Mean MAcc of the leave-one-site-out check.
    pub leave_one_site_out_mean_macc: f64,
}

/// The committed parameters (`params/pcg-gbdt.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// [`MODEL_ID`].
    pub model_id: String,
    /// [`VERSION`].
    pub version: String,
    /// [`TRAINING_DATE`].
    pub training_date: String,
    /// What the model was trained on.
    pub trained_on: String,
    /// Seed of training and validation.
    pub seed: u64,
    /// Probability of abnormal at or above which the label is `abnormal` (chosen with
    /// [`Params::blend_weight`] on the validation's out-of-fold probabilities).
    pub threshold: f64,
    /// Weight of the network in the blend with the trees ([`network::blend`]).
    pub blend_weight: f64,
    /// Fewest complete cycles for a verdict other than `unsure`.
    pub min_cycles: usize,
    /// Lowest envelope periodicity for a verdict other than `unsure` (chosen by inner CV).
    pub min_periodicity: f64,
    /// Longest stretch analysed, seconds.
    pub max_seconds: f64,
    /// Feature names, in the classifier's column order.
    pub features: Vec<String>,
    /// The boosting settings used.
    pub gbdt_config: GbdtConfig,
    /// The classifier (class 0 normal, 1 abnormal).
    pub classifier: Gbdt,
    /// Headline validation figures.
    pub validation: Headline,
}

/// A loaded model.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    params: Params,
}

/// The model with the committed parameters, parsed once.
///
/// # Errors
/// [`PredictError::ModelNotLoaded`] when the compiled-in JSON does not parse or does not fit the
/// features of this build.
pub fn model() -> Result<&'static Model, PredictError> {
    static MODEL: OnceLock<Result<Model, String>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let params: Params = serde_json::from_str(PARAMS_JSON).map_err(|e| e.to_string())?;
            Model::new(params)
        })
        .as_ref()
        .map_err(|e| PredictError::ModelNotLoaded(e.clone()))
}

fn num(v: Option<f64>) -> Value {
    v.filter(|x| x.is_finite())
        .map_or(Value::Null, |x| json!(x))
}

impl Model {
    /// A model from parameters, checked against this build's features.
    ///
    /// # Errors
    /// A message when the parameters' feature list or classifier width differ from the code's.
    pub fn new(params: Params) -> Result<Self, String> {
        let names = features::feature_names();
        if params.features != names || params.classifier.n_features != names.len() {
            return Err(format!(
                "the parameters were trained on {} features, this build computes {}",
                params.classifier.n_features,
                names.len()
            ));
        }
        if params.classifier.n_classes != 2 {
            return Err("the classifier must have two classes".into());
        }
        Ok(Self { params })
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Why a measured recording cannot be judged normal or abnormal (it is then `unsure`), or
    /// `None`: the gate [`Model::predict`] applies. A recording the murmur model cannot read
    /// ([`Model::murmur_unreadable`]) gives that reason; else one shorter than
    /// [`NORMAL_ABNORMAL_MIN_SECONDS`] says so; else the model's own cycle count.
    pub fn unjudged(&self, m: &features::Measured) -> Option<String> {
        self.murmur_unreadable(m)
            .or_else(|| {
                (m.duration_s < NORMAL_ABNORMAL_MIN_SECONDS)
                    .then(|| decision::too_short(m.duration_s, NORMAL_ABNORMAL_MIN_SECONDS))
            })
            .or_else(|| decision::gate(m, self.params.min_periodicity, self.params.min_cycles))
    }

    /// Why the murmur model cannot read a measured recording, or `None`: the same quality gate
    /// with [`crate::murmur::MIN_CYCLES`] heart cycles and no length beyond
    /// [`features::MIN_SECONDS`] (a murmur is read on as little as two cycles).
    pub fn murmur_unreadable(&self, m: &features::Measured) -> Option<String> {
        decision::gate(m, self.params.min_periodicity, crate::murmur::MIN_CYCLES)
    }

    /// Classifies one recording (the first channels are compared and the one with the clearest
    /// heart-sound rhythm is used).
    ///
    /// # Errors
    /// [`PredictError::Unusable`] with a message for the user when the recording cannot be analysed
    /// (no samples, under 1 kHz, under 2 s, invalid samples, silent).
    pub fn predict(&self, rec: &cardio_formats::Recording) -> Result<Prediction, PredictError> {
        let prepared = features::prepare(rec).map_err(|e| PredictError::Unusable(e.to_string()))?;
        let extracted =
            features::extract(&prepared).map_err(|e| PredictError::Unusable(e.to_string()))?;
        let p = &self.params;
        let nets = network::networks().map_err(|e| PredictError::ModelNotLoaded(e.to_string()))?;
        let p_network = spectrogram::spectrogram(&prepared.x).map(|s| nets.deployed.p_abnormal(&s));
        let probs = p.classifier.predict_proba(&extracted.values);
        let p_trees = probs
            .get(1)
            .copied()
            .filter(|v| v.is_finite())
            .unwrap_or(0.5);
        let score = network::blend(p.blend_weight, p_trees, p_network);
        // The decision's probability: the blend's score on the scale where the threshold is 0.5
        // (see `on_decision_scale`), so that label, confidence and risk agree.
        let p_abnormal = on_decision_scale(score, p.threshold);
        let m = &extracted.measured;
        // Loaded here so that a gate that cannot load is a 503, not an unsure result.
        gate::gate(GateModality::Pcg)?;
        let verdict = &m.gate;
        let gate_reason = self.unjudged(m);
        let murmur_reason = self.murmur_unreadable(m);
        let decision = decision::decide(gate_reason.is_some(), score, p.threshold);
        // The result never contradicts its details: the timing figures are shown only when the
        // segmentation passed its own check and the recording was judged.
        let show_timing = decision != Decision::Unsure && m.quality_usable;
        let timing = |v: Option<f64>| if show_timing { num(v) } else { Value::Null };
        let (prob_normal, prob_abnormal, prob_unsure) = match decision {
            Decision::Unsure => (0.0, 0.0, 1.0),
            _ => (1.0 - p_abnormal, p_abnormal, 0.0),
        };
        let confidence = match decision {
            Decision::Normal => prob_normal,
            Decision::Abnormal => prob_abnormal,
            Decision::Unsure => prob_unsure,
        };
        // The murmur model reads the same prepared recording, also one too short for the
        // normal/abnormal decision; one it cannot read has no murmur verdict but "unknown".
        let (murmur, reading) = if murmur_reason.is_some() {
            (crate::murmur::Verdict::unread(), None)
        } else {
            let model = crate::murmur::model()?;
            let reading = model
                .read_prepared(&prepared, &extracted)
                .map_err(|e| PredictError::Unusable(e.to_string()))?;
            (model.decide(&[Some(reading.clone())]), Some(reading))
        };
        let mut details = Map::new();
        details.insert("murmur".into(), murmur.recording_value(reading.as_ref()));
        details.insert(
            "model".into(),
            ModelInfo {
                id: p.model_id.clone(),
                version: p.version.clone(),
                metric: METRIC.into(),
                value: p.validation.cv_macc,
            }
            .to_value(),
        );
        details.insert(
            "probabilities".into(),
            json!({"normal": prob_normal, "abnormal": prob_abnormal, "unsure": prob_unsure}),
        );
        details.insert("classifier_probability_abnormal".into(), json!(p_trees));
        details.insert("network_probability_abnormal".into(), num(p_network));
        details.insert("score_abnormal".into(), json!(score));
        details.insert("decision_threshold".into(), json!(p.threshold));
        details.insert("probability_abnormal".into(), json!(p_abnormal));
        details.insert("heart_rate_bpm".into(), timing(m.heart_rate_bpm));
        details.insert("systole_s".into(), timing(m.systole_s));
        details.insert("median_cycle_s".into(), timing(m.median_cycle_s));
        details.insert("median_systole_s".into(), timing(m.median_systole_s));
        details.insert("median_diastole_s".into(), timing(m.median_diastole_s));
        details.insert("cycle_sd_s".into(), timing(m.cycle_sd_s));
        details.insert("cycles".into(), json!(m.cycles));
        details.insert("quality_score".into(), num(Some(m.quality_score)));
        details.insert("quality_usable".into(), json!(gate_reason.is_none()));
        details.insert(
            "quality_reason".into(),
            json!(gate_reason
                .as_ref()
                .map_or_else(|| verdict.reason.clone(), |r| format!("unsure: {r}"))),
        );
        details.insert(
            "timing_note".into(),
            if show_timing || decision == Decision::Unsure {
                Value::Null
            } else {
                json!(timing_note(m))
            },
        );
        details.insert("gate".into(), gate::details(verdict, GateModality::Pcg));
        details.insert("duration_s".into(), num(Some(m.duration_s)));
        details.insert("analysed_s".into(), num(Some(m.analysed_s)));
        details.insert("channel".into(), json!(m.channel_name));
        details.insert("channel_index".into(), json!(m.channel_index));
        details.insert("sampling_rate_hz".into(), num(Some(m.sampling_rate_hz)));
        details.insert("analysis_rate_hz".into(), num(Some(features::ANALYSIS_HZ)));
        let murmur_heard = murmur.verdict == crate::murmur::decision::Verdict::Present;
        let mut advice: Vec<Advice> = match decision {
            Decision::Normal if murmur_heard => {
                vec![
                    Advice::new("pcg.normal_murmur_1"),
                    Advice::new("pcg.normal_2"),
                ]
            }
            Decision::Normal => vec![Advice::new("pcg.normal_1"), Advice::new("pcg.normal_2")],
            Decision::Abnormal => {
                vec![Advice::new("pcg.abnormal_1"), Advice::new("pcg.abnormal_2")]
            }
            Decision::Unsure
                if murmur_reason.is_none() && m.duration_s < NORMAL_ABNORMAL_MIN_SECONDS =>
            {
                vec![
                    Advice::new("pcg.short_1")
                        .with("seconds", format!("{:.1}", m.duration_s))
                        .with("min", whole(NORMAL_ABNORMAL_MIN_SECONDS))
                        .with("cycles", m.cycles.to_string()),
                    Advice::new("pcg.unsure_2"),
                ]
            }
            Decision::Unsure => vec![Advice::new("pcg.unsure_1"), Advice::new("pcg.unsure_2")],
        };
        if m.duration_s > p.max_seconds {
            advice.push(
                Advice::new("pcg.first_seconds")
                    .with("analysed", whole(p.max_seconds))
                    .with("total", whole(m.duration_s)),
            );
        }
        advice.push(Advice::new("disclaimer"));
        let recommendations = catalogue::english(&advice);
        let prediction = match decision {
            Decision::Normal => "Normal heart sounds",
            Decision::Abnormal => "Abnormal heart sounds suspected",
            Decision::Unsure => "Unsure: this recording cannot be judged",
        };
        Ok(Prediction {
            label: decision.code().into(),
            prediction: prediction.into(),
            confidence,
            risk_score: p_abnormal,
            recommendations,
            advice,
            details,
        })
    }
}

/// The parameters as the committed JSON text (pretty, with a final newline).
pub fn params_json(params: &Params) -> String {
    let mut s = serde_json::to_string_pretty(params).unwrap_or_default();
    s.push('\n');
    s
}
