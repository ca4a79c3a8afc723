//! The research side of the PPG rhythm model ([`cardio_models::ppg_rhythm`]): the labelled interval
//! windows of CinC 2017 and MIT-BIH, the training of `params/ppg-rhythm.json` and the validation of
//! its model card (`crates/models/cards/ppg.md`).
//!
//! - [`classifier`]: the training of the two boosted stages.
//! - [`data`]: loading CinC 2017 and MIT-BIH beats, windows and their labels.
//! - [`validation`]: grouped CV, external checks and the BIDMC heart-rate check of the card.

pub mod classifier;
pub mod data;
pub mod validation;

use std::path::Path;

use cardio_models::ppg_rhythm::{
    features, model, Headline, Model, Params, PpgRhythmError, HEADLINE_METRIC, MODEL_ID,
    TRAINING_DATE, VERSION,
};

use data::Window;
pub use validation::Report;

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
