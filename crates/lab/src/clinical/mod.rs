//! The research side of the clinical risk model ([`cardio_models::clinical`]): the UCI Heart
//! Disease data, the training of the committed parameters and the validation of its model card
//! (`crates/models/cards/clinical.md`).
//!
//! - [`data`]: loading the UCI files, mapping their codes to the form's, de-duplication.
//! - [`logistic`]: L2-penalised logistic regression (Newton) and Platt scaling, written here.
//! - [`train`]: the training of the pattern sub-models (one per combination of given attributes).
//! - [`boosting`]: gradient-boosted stumps, the comparison model of the card.
//! - [`metrics`]: AUROC with DeLong CI, Brier, calibration, seeded stratified folds.
//! - [`validation`]: the repeated CV and external checks of the model card.

pub mod boosting;
pub mod data;
pub mod logistic;
pub mod metrics;
pub mod train;
pub mod validation;

use std::path::Path;

use cardio_models::clinical::{
    ClinicalError, ClinicalParams, Headline, MODEL_ID, THRESHOLD, TRAINING_DATE, VERSION,
};

/// Trains the committed model on all of Cleveland and runs the validation; what
/// `cardio train clinical` writes.
///
/// # Errors
/// As [`validation::evaluate`].
pub fn train(root: &Path) -> Result<(ClinicalParams, validation::ClinicalReport), ClinicalError> {
    let report = validation::evaluate(root)?;
    let cleveland = data::load_site(root, data::Site::Cleveland)?;
    let model = train::fit(&cleveland, validation::SEED);
    let params = ClinicalParams {
        model_id: MODEL_ID.into(),
        version: VERSION.into(),
        training_date: TRAINING_DATE.into(),
        trained_on: format!(
            "UCI Heart Disease, Cleveland ({} patients after de-duplication, {} with num > 0)",
            cleveland.len(),
            cleveland.iter().filter(|r| r.disease).count()
        ),
        seed: validation::SEED,
        threshold: THRESHOLD,
        model,
        validation: Headline {
            cv_auroc: report.cv.auroc,
            cv_auroc_ci_low: report.cv.auroc_ci_low,
            cv_auroc_ci_high: report.cv.auroc_ci_high,
            cv_auroc_seven_plus_sex: report.cv_auroc_seven_plus_sex,
            cv_auroc_all: report.cv_auroc_all,
            external_cleveland_to_hungary_auroc: report.external[0].auroc,
            external_hungary_to_cleveland_auroc: report.external[2].auroc,
        },
    };
    Ok((params, report))
}
