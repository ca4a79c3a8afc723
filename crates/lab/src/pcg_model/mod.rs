//! The research side of the heart-sound model ([`cardio_models::pcg_model`]): the CinC 2016 data
//! (all 3240 training recordings), the training of `params/pcg-gbdt.json` (the boosted trees) and
//! the validation of its model card (`crates/models/cards/pcg.md`), which scores the trees, the
//! network (`params/pcg-cnn.bin`, trained by `training/pcg_cnn/train.py`) and their blend.
//!
//! - [`data`]: loading `cinc2016` and `cinc2016_site_e_rest`, extracting features and the network's
//!   probabilities on two threads.
//! - [`spectra`]: the spectrograms the network's training reads (with the inner CV's folds).
//! - [`blend`]: the candidate network weights and thresholds of the blend and their choice.
//! - [`report`]: the report as the card prints it.
//! - [`validation`]: the boosted-tree classifier, the blend, 5-fold CV stratified by site and
//!   label, leave-one-site-out, bootstrap CIs: the model card's table.

pub mod blend;
pub mod data;
pub mod report;
pub mod sites;
pub mod spectra;
pub mod validation;

use std::path::Path;

use cardio_models::gate::{self, GateModality};
use cardio_models::pcg_model::{features, Headline, Params, MODEL_ID, TRAINING_DATE, VERSION};

pub use validation::Report;

/// Errors of training and evaluation.
#[derive(Debug, thiserror::Error)]
pub enum PcgError {
    /// The dataset folder or a file of it is not there.
    #[error("dataset not found: {path} (unpack cinc2016 and cinc2016_site_e_rest into $CARDIO_DATASETS)")]
    MissingDataset {
        /// The path looked for.
        path: String,
    },
    /// A `REFERENCE.csv` line is malformed.
    #[error("{file} line {line}: {reason}")]
    Parse {
        /// File name.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The committed network weights do not load.
    #[error("{0}")]
    Network(String),
    /// A recording cannot be read.
    #[error("cannot read {path}: {reason}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
}

/// Extracts the features of the whole dataset.
///
/// # Errors
/// As [`data::load`] and [`data::extract_all`].
pub fn dataset(root: &Path) -> Result<validation::Dataset, PcgError> {
    let records = data::load(root)?;
    // Each recording is judged by a plausibility gate trained without it (the gate's own grouped
    // 5-fold CV), not by the committed gate, which was trained on all of them.
    let examples = crate::gate::data::load_cinc2016_gate(root).map_err(|e| PcgError::Read {
        path: "the plausibility gate's examples".into(),
        reason: e.to_string(),
    })?;
    let refused =
        crate::gate::validation::out_of_fold_refusals(&examples, GateModality::Pcg, "CinC 2016");
    let folds = validation::stratified_folds(&records, validation::FOLDS, validation::SEED);
    let (extracted, network) = data::extract_all(&records, &folds)?
        .into_iter()
        .zip(&records)
        .map(|((e, scores), r)| {
            let e = e.map(|mut e| {
                let Some(&out) = refused.get(&r.name) else {
                    return (e.values, e.measured);
                };
                if out == e.measured.gate.plausible {
                    e.measured.gate = gate::Verdict {
                        plausible: !out,
                        reason: if out {
                            "refused by the plausibility gate (trained without this recording)"
                                .into()
                        } else {
                            "usable: accepted by the plausibility gate (trained without this recording)"
                                .into()
                        },
                        p_real: f64::NAN,
                    };
                }
                (e.values, e.measured)
            });
            (e, scores)
        })
        .unzip();
    Ok(validation::Dataset {
        records,
        extracted,
        network,
    })
}

/// Runs the model card's validation (features of all recordings, 5-fold CV, leave-one-site-out).
///
/// # Errors
/// [`PcgError::MissingDataset`] when `cinc2016` or `cinc2016_site_e_rest` is not unpacked under
/// `root`; [`PcgError::Read`]
/// when a recording cannot be read.
pub fn evaluate(root: &Path) -> Result<Report, PcgError> {
    let data = dataset(root)?;
    Ok(validation::validate(&data, &features::feature_names()).0)
}

/// Runs the validation and trains the committed model on all recordings; deterministic.
///
/// # Errors
/// As [`evaluate`].
pub fn train(root: &Path) -> Result<(Params, Report), PcgError> {
    let data = dataset(root)?;
    let names = features::feature_names();
    let (report, settings, classifier) = validation::validate(&data, &names);
    let params = Params {
        model_id: MODEL_ID.into(),
        version: VERSION.into(),
        training_date: TRAINING_DATE.into(),
        trained_on: format!(
            "PhysioNet/CinC Challenge 2016 training sets a-f at 1 kHz, all {} recordings ({} abnormal), {} analysable",
            report.records,
            report.abnormal,
            report.records - report.failed.len()
        ),
        seed: validation::SEED,
        threshold: report.final_blend.threshold,
        blend_weight: report.final_blend.weight,
        min_cycles: validation::MIN_CYCLES,
        min_periodicity: settings.min_periodicity,
        max_seconds: features::MAX_SECONDS,
        features: names,
        gbdt_config: validation::config_candidates(validation::SEED)[settings.config].clone(),
        classifier,
        validation: Headline {
            cv_macc: report.cv.macc.value,
            cv_macc_ci_low: report.cv.macc.low,
            cv_macc_ci_high: report.cv.macc.high,
            cv_sensitivity: report.cv.se.value,
            cv_specificity: report.cv.sp.value,
            cv_unsure_fraction: report.cv.unsure_fraction,
            leave_one_site_out_mean_macc: report.leave_one_site_out_mean_macc,
        },
    };
    Ok((params, report))
}
