//! The PPG rhythm model ("ppg-rhythm-gbdt"): heart rate, signal quality and rhythm — `normal`,
//! `af` (atrial fibrillation), `irregular` (non-AF irregular rhythm, e.g. frequent ectopy) or
//! `noisy` — from a photoplethysmogram, for 10-s fingertip recordings at any rate from 20 Hz up
//! as well as for long recordings. The model card is `cards/ppg.md`; the trained parameters are
//! `params/ppg-rhythm.json`, compiled in and parsed once.
//!
//! No AF-labelled PPG is public, but the irregularity of beat-to-beat intervals does not depend on
//! the modality, so the rhythm decision is learned on ECG R-R intervals (CinC 2017 and MIT-BIH) and
//! applied to PPG pulse-to-pulse intervals behind a PPG quality gate.
//!
//! - [`features`]: rhythm features of a window of intervals (the same for ECG and PPG).
//! - [`classifier`]: the two-stage gradient-boosted trees (AF gate, then irregular vs normal).
//! - [`predict`]: the PPG path from a `Recording` to a `Prediction`.
//!
//! Loading CinC 2017 and MIT-BIH beats into labelled windows, the training, the grouped CV, the
//! external checks and the BIDMC heart-rate check of the card are in `cardio-lab` (`ppg_rhythm`).
//!
//! ```no_run
//! use cardio_models::ppg_rhythm;
//!
//! let rec = cardio_formats::read_path(std::path::Path::new("finger.csv")).unwrap();
//! let p = ppg_rhythm::model().unwrap().predict(&rec).unwrap();
//! println!("{} (P(AF) = {:.2})", p.prediction, p.risk_score);
//! ```

pub mod classifier;
pub mod features;
pub mod predict;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::prediction::PredictError;
use classifier::RhythmClassifier;

/// Identifier of the model in results and parameters.
pub const MODEL_ID: &str = "ppg-rhythm-gbdt";
/// Version of the model; bump it when the features, training or data change.
pub const VERSION: &str = "1.0.0";
/// Training date written into the parameters (a constant so that training is reproducible).
pub const TRAINING_DATE: &str = "2026-11-22";
/// Where `cardio train ppg` writes the parameters.
pub const PARAMS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/ppg-rhythm.json");
/// Name of the headline metric in `details.model`.
pub const HEADLINE_METRIC: &str = "cv_af_sensitivity_10s";

/// The committed parameters, compiled in.
const PARAMS_JSON: &str = include_str!("../../params/ppg-rhythm.json");

/// Errors of loading the model, and of training and evaluating it (`cardio-lab`).
#[derive(Debug, thiserror::Error)]
pub enum PpgRhythmError {
    /// A dataset folder is not there.
    #[error("dataset not found: {path} (unpack it into $CARDIO_DATASETS)")]
    MissingDataset {
        /// The path looked for.
        path: String,
    },
    /// A dataset file cannot be read or lacks what is needed.
    #[error("{0}")]
    Data(String),
    /// The training data cannot make a model.
    #[error("training failed: {0}")]
    Training(String),
    /// The committed parameters cannot be loaded.
    #[error("PPG rhythm model parameters cannot be loaded: {0}")]
    Params(String),
}

/// Headline validation figures carried in the parameters (and so in every result's details).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// [`HEADLINE_METRIC`].
    pub metric: String,
    /// Its value.
    pub value: f64,
    /// CV AF sensitivity, all sources, 10-s windows.
    pub cv_af_se_10s: f64,
    /// CV AF specificity, all sources, 10-s windows.
    pub cv_af_sp_10s: f64,
    /// CV AF sensitivity, all sources, 30-s windows.
    pub cv_af_se_30s: f64,
    /// CV AF specificity, all sources, 30-s windows.
    pub cv_af_sp_30s: f64,
    /// Heart-rate MAE on BIDMC 10-s recordings through the predict path, bpm (`null` when not
    /// measured).
    pub bidmc_hr_mae_10s_bpm: Option<f64>,
}

/// The committed parameters (`params/ppg-rhythm.json`).
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
    /// Feature names, in the classifier's column order.
    pub features: Vec<String>,
    /// AF decision threshold on `P(af)`.
    pub af_threshold: f64,
    /// The two boosted stages.
    pub classifier: RhythmClassifier,
    /// Headline validation figures.
    pub validation: Headline,
}

/// A loaded model.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Its parameters.
    pub params: Params,
}

impl Model {
    /// A model from parameters.
    ///
    /// # Errors
    /// [`PpgRhythmError::Params`] when the parameters are for another model or feature set.
    pub fn new(params: Params) -> Result<Self, PpgRhythmError> {
        if params.model_id != MODEL_ID {
            return Err(PpgRhythmError::Params(format!(
                "parameters are for {}, not {MODEL_ID}",
                params.model_id
            )));
        }
        let names: Vec<&str> = params.features.iter().map(String::as_str).collect();
        if names != features::FEATURE_NAMES || params.classifier.af.n_features != names.len() {
            return Err(PpgRhythmError::Params(
                "the parameters' features differ from this build's".into(),
            ));
        }
        Ok(Self { params })
    }
}

/// The committed model, parsed once.
///
/// # Errors
/// [`PredictError::ModelNotLoaded`] when the compiled-in parameters do not parse or do not fit.
pub fn model() -> Result<&'static Model, PredictError> {
    static MODEL: OnceLock<Result<Model, String>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            serde_json::from_str::<Params>(PARAMS_JSON)
                .map_err(|e| e.to_string())
                .and_then(|p| Model::new(p).map_err(|e| e.to_string()))
        })
        .as_ref()
        .map_err(|e| PredictError::ModelNotLoaded(format!("{MODEL_ID}: {e}")))
}

/// The parameters as the committed JSON text (pretty, with a final newline).
pub fn params_json(params: &Params) -> String {
    let mut s = serde_json::to_string_pretty(params).unwrap_or_default();
    s.push('\n');
    s
}
