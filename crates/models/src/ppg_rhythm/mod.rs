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
//! - [`data`]: loading CinC 2017 and MIT-BIH beats, windows and their labels.
//! - [`classifier`]: the two-stage gradient-boosted trees (AF gate, then irregular vs normal).
//! - [`predict`]: the PPG path from a `Recording` to a `Prediction`.
//! - [`validation`]: grouped CV, external checks and the BIDMC heart-rate check of the card.
//!
//! ```no_run
//! use cardio_models::ppg_rhythm;
//!
//! let rec = cardio_formats::read_path(std::path::Path::new("finger.csv")).unwrap();
//! let p = ppg_rhythm::model().unwrap().predict(&rec).unwrap();
//! println!("{} (P(AF) = {:.2})", p.prediction, p.risk_score);
//! ```

pub mod classifier;
pub mod data;
pub mod features;
pub mod predict;
pub mod validation;

use std::path::Path;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

pub use validation::Report;

use crate::prediction::PredictError;
use classifier::RhythmClassifier;
use data::Window;

/// Identifier of the model in results and parameters.
pub const MODEL_ID: &str = "ppg-rhythm-gbdt";
/// Version of the model; bump it when the features, training or data change.
pub const VERSION: &str = "1.0.0";
/// Training date written into the parameters (a constant so that training is reproducible).
pub const TRAINING_DATE: &str = "2026-11-22";
/// Where `train` writes the parameters.
pub const PARAMS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/ppg-rhythm.json");
/// Name of the headline metric in `details.model`.
pub const HEADLINE_METRIC: &str = "cv_af_sensitivity_10s";

/// The committed parameters, compiled in.
const PARAMS_JSON: &str = include_str!("../../params/ppg-rhythm.json");

/// Errors of training and evaluation.
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

/// Loads every window of both sources at every length of [`validation::LENGTHS_S`].
///
/// # Errors
/// As [`data::load_cinc2017`] and [`data::load_mitdb`].
pub fn load_windows(root: &Path) -> Result<Vec<Window>, PpgRhythmError> {
    let mut records = data::load_cinc2017(root, None)?;
    records.extend(data::load_mitdb(root, None)?);
    Ok(windows_of_records(&records))
}

/// Windows of every length of every record.
pub fn windows_of_records(records: &[data::BeatRecord]) -> Vec<Window> {
    let mut out = Vec::new();
    for &len in &validation::LENGTHS_S {
        for (i, r) in records.iter().enumerate() {
            out.extend(data::windows_of(r, i, len));
        }
    }
    out
}

fn headline(report: &Report) -> Headline {
    let cell = |len: f64| report.cv_cell("all", len);
    let se10 = cell(10.0).map_or(f64::NAN, |c| c.se);
    Headline {
        metric: HEADLINE_METRIC.into(),
        value: se10,
        cv_af_se_10s: se10,
        cv_af_sp_10s: cell(10.0).map_or(f64::NAN, |c| c.sp),
        cv_af_se_30s: cell(30.0).map_or(f64::NAN, |c| c.se),
        cv_af_sp_30s: cell(30.0).map_or(f64::NAN, |c| c.sp),
        bidmc_hr_mae_10s_bpm: report.bidmc.as_ref().and_then(|b| {
            b.spans
                .iter()
                .find(|s| s.span == "10 s")
                .map(|s| s.hr_mae_bpm)
                .filter(|v| v.is_finite())
        }),
    }
}

/// Trains the committed model on every window of both sources and runs the validation (the BIDMC
/// part with the new model, when the dataset is there).
///
/// # Errors
/// A missing or unreadable dataset, or training data without AF.
pub fn train(root: &Path) -> Result<(Params, Report), PpgRhythmError> {
    let windows = load_windows(root)?;
    let mut report = validation::validate(&windows)?;
    let all: Vec<&Window> = windows.iter().collect();
    let classifier = validation::fit(&all, validation::SEED)?;
    report.importance = validation::importance(&classifier);
    let persons: std::collections::BTreeSet<&str> =
        windows.iter().map(|w| w.group.as_str()).collect();
    let mut params = Params {
        model_id: MODEL_ID.into(),
        version: VERSION.into(),
        training_date: TRAINING_DATE.into(),
        trained_on: format!(
            "ECG-derived interval windows of {:?} s: PhysioNet/CinC 2017 (N, A, O records) and MIT-BIH Arrhythmia (non-paced records, reference beats); {} windows of {} persons",
            validation::LENGTHS_S,
            windows.len(),
            persons.len()
        ),
        seed: validation::SEED,
        features: features::FEATURE_NAMES.iter().map(|s| (*s).to_string()).collect(),
        af_threshold: report.threshold,
        classifier,
        validation: headline(&report),
    };
    let model = Model::new(params.clone())?;
    report.bidmc = match validation::bidmc(&model, root) {
        Ok(b) => Some(b),
        Err(PpgRhythmError::MissingDataset { .. }) => None,
        Err(e) => return Err(e),
    };
    params.validation = headline(&report);
    Ok((params, report))
}

/// The card's validation: the CV and external checks (retrained, deterministic) and the BIDMC
/// check of the committed model.
///
/// # Errors
/// As [`train`]; [`PpgRhythmError::Params`] when the committed model cannot be loaded.
pub fn evaluate(root: &Path) -> Result<Report, PpgRhythmError> {
    let windows = load_windows(root)?;
    let mut report = validation::validate(&windows)?;
    let model = model().map_err(|e| PpgRhythmError::Params(e.to_string()))?;
    report.importance = validation::importance(&model.params.classifier);
    report.bidmc = match validation::bidmc(model, root) {
        Ok(b) => Some(b),
        Err(PpgRhythmError::MissingDataset { .. }) => None,
        Err(e) => return Err(e),
    };
    Ok(report)
}

/// The parameters as the committed JSON text (pretty, with a final newline).
pub fn params_json(params: &Params) -> String {
    let mut s = serde_json::to_string_pretty(params).unwrap_or_default();
    s.push('\n');
    s
}
