//! The research side of the PPG rhythm model ([`cardio_models::ppg_rhythm`]): the labelled real-PPG
//! segments, the training of `params/ppg-rhythm.json` and the validation of its model card
//! (`crates/models/cards/ppg.md`).
//!
//! - [`liu2022`]: loading the segments of Liu et al. 2022 (`ppg_arrhythmia_liu2022`).
//! - [`segments`]: each segment through the predict path's window analysis, at 100 and 30 Hz.
//! - [`classifier`]: the training of the six-rhythm boosted trees.
//! - [`validation`]: patient-grouped CV, the BIDMC heart-rate check and the wrist heart-rate check.

pub mod classifier;
pub mod liu2022;
pub mod segments;
pub mod validation;

use std::path::Path;

use cardio_models::ppg_rhythm::window::feature_names;
use cardio_models::ppg_rhythm::{
    model, Headline, Model, Params, PpgRhythmError, HEADLINE_METRIC, MODEL_ID, TRAINING_DATE,
    VERSION,
};

pub use validation::Report;

/// Loads every segment and its feature rows.
///
/// # Errors
/// As [`liu2022::load`].
pub fn load_rows(root: &Path) -> Result<Vec<segments::Row>, PpgRhythmError> {
    Ok(segments::rows(&liu2022::load(root)?))
}

fn headline(report: &Report) -> Headline {
    Headline {
        metric: HEADLINE_METRIC.into(),
        value: report.cv_af_sensitivity,
        cv_af_sensitivity: report.cv_af_sensitivity,
        cv_af_specificity_all: report.cv_af_specificity_all,
        cv_sinus_specificity: report.cv_sinus_specificity,
        bidmc_hr_mae_bpm: Some(report.bidmc_mae_bpm).filter(|v| v.is_finite()),
    }
}

/// The optional checks of a model on other datasets: BIDMC heart rate (through the predict path,
/// and the windowed rate of the signal core) and the SPC 2015 wrist heart rate, each left out when
/// its dataset is absent.
///
/// # Errors
/// An unreadable dataset file.
fn external_checks(report: &mut Report, model: &Model, root: &Path) -> Result<(), PpgRhythmError> {
    report.bidmc = match validation::bidmc(model, root) {
        Ok(b) => Some(b),
        Err(PpgRhythmError::MissingDataset { .. }) => None,
        Err(e) => return Err(e),
    };
    report.bidmc_mae_bpm = validation::bidmc_windowed_mae(root)?;
    report.spc = validation::spc(root)?;
    report.spc_loro_mae_bpm = report.spc.as_ref().map_or(f64::NAN, |s| s.mae_bpm);
    Ok(())
}

/// Trains the committed model on every usable segment and runs the validation (the BIDMC and SPC
/// parts with the new model, when those datasets are there).
///
/// # Errors
/// A missing or unreadable dataset, or training data without AF.
pub fn train(root: &Path) -> Result<(Params, Report), PpgRhythmError> {
    let rows = load_rows(root)?;
    let mut report = validation::validate(&rows)?;
    let all: Vec<&segments::Row> = rows.iter().collect();
    let classifier = validation::fit(&all, validation::SEED)?;
    report.importance = validation::importance(&classifier);
    let usable = rows.iter().filter(|r| r.features.is_some()).count();
    let mut params = Params {
        model_id: MODEL_ID.into(),
        version: VERSION.into(),
        training_date: TRAINING_DATE.into(),
        trained_on: format!(
            "real fingertip PPG, 10-s segments at 100 Hz labelled sinus/PVC/PAC/VT/SVT/AF from the simultaneous ECG (Liu et al. 2022): {usable} usable of {} segments of {} patients",
            rows.len(),
            report.patients
        ),
        seed: validation::SEED,
        features: feature_names().iter().map(|s| (*s).to_string()).collect(),
        af_threshold: report.threshold,
        network_weight: report.blend_weight,
        classifier,
        validation: headline(&report),
    };
    let model = Model::new(params.clone())?;
    external_checks(&mut report, &model, root)?;
    params.validation = headline(&report);
    Ok((params, report))
}

/// The card's validation: the CV (retrained, deterministic) and the BIDMC and SPC checks of the
/// committed model.
///
/// # Errors
/// As [`train`]; [`PpgRhythmError::Params`] when the committed model cannot be loaded.
pub fn evaluate(root: &Path) -> Result<Report, PpgRhythmError> {
    let rows = load_rows(root)?;
    let mut report = validation::validate(&rows)?;
    let model = model().map_err(|e| PpgRhythmError::Params(e.to_string()))?;
    report.importance = validation::importance(&model.params.classifier);
    external_checks(&mut report, model, root)?;
    Ok(report)
}
