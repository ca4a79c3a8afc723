//! The PPG rhythm model ("ppg-rhythm-gbdt"): heart rate, signal quality and rhythm — `normal`,
//! `af` (atrial fibrillation), `irregular` (non-AF irregular rhythm, e.g. frequent ectopy) or
//! `noisy` — from a photoplethysmogram, for 10-s fingertip recordings at any rate from 20 Hz up
//! as well as for long recordings. The model card is `cards/ppg.md`; the trained parameters are
//! `params/ppg-rhythm.json`, compiled in and parsed once.
//!
//! The rhythm decision is learnt from real fingertip PPG of arrhythmia patients (Liu et al. 2022:
//! 10-s segments labelled sinus, PVC, PAC, VT, SVT or AF from the simultaneous ECG), on the
//! pulse-to-pulse intervals and the pulse morphology of each window (boosted trees) blended with a
//! small convolutional network on the window's waveform, behind a PPG quality gate.
//!
//! - [`features`]: rhythm features of a window of intervals.
//! - [`morphology`]: pulse-shape, amplitude and waveform-regularity features of a window.
//! - [`window`]: one window's quality verdict and feature row (the predict path and the training
//!   both use it).
//! - [`classifier`]: the six-rhythm gradient-boosted trees and how they fold into the labels.
//! - [`network`]: the waveform network (`params/ppg-rhythm-cnn.bin`) blended with the trees.
//! - [`predict`]: the PPG path from a `Recording` to a `Prediction`.
//! - [`whole`]: a PPG longer than a minute read whole in 10-s windows (episodes, AF burden, one
//!   decision from the whole record).
//!
//! Loading the labelled segments, the training, the patient-grouped CV and the BIDMC heart-rate
//! check of the card are in `cardio-lab` (`ppg_rhythm`).
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
pub mod morphology;
pub mod network;
pub mod predict;
pub mod whole;
pub mod window;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::prediction::PredictError;
use classifier::RhythmClassifier;

/// Identifier of the model in results and parameters.
pub const MODEL_ID: &str = "ppg-rhythm-gbdt";
/// Version of the model; bump it when the features, training or data change.
pub const VERSION: &str = "2.2.0";
/// Training date written into the parameters (a constant so that training is reproducible).
pub const TRAINING_DATE: &str = "2026-11-26";
/// Where `cardio train ppg` writes the parameters.
pub const PARAMS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/ppg-rhythm.json");
/// Name of the headline metric in `details.model`.
pub const HEADLINE_METRIC: &str = "cv_af_sensitivity";

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
    /// Patient-grouped CV AF sensitivity (AF segments called `af`; a noisy call is a miss).
    pub cv_af_sensitivity: f64,
    /// Patient-grouped CV AF specificity against every non-AF rhythm (a noisy call is not `af`).
    pub cv_af_specificity_all: f64,
    /// Patient-grouped CV AF specificity against sinus rhythm.
    pub cv_sinus_specificity: f64,
    /// Heart-rate MAE of the windowed PPG rate on BIDMC (8-s windows every 2 s against the
    /// monitor), bpm (`null` when not measured).
    pub bidmc_hr_mae_bpm: Option<f64>,
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
    /// AF decision threshold on the blended `P(af)`.
    pub af_threshold: f64,
    /// Weight of the waveform network ([`network`]) in the blend with the trees' probabilities.
    pub network_weight: f64,
    /// The six-rhythm boosted trees.
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
        if names != window::feature_names()
            || params.classifier.model.n_features != names.len()
            || params.classifier.model.n_classes != classifier::Rhythm::ALL.len()
        {
            return Err(PpgRhythmError::Params(
                "the parameters' features differ from this build's".into(),
            ));
        }
        network::deployed()?;
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
