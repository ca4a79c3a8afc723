//! The research side of the ECG rhythm model ([`cardio_models::ecg_rhythm`]): the CinC 2017 data,
//! the training of `params/ecg-rhythm.json` and the validation of its model card
//! (`crates/models/cards/ecg-rhythm.md`).
//!
//! - [`data`]: loading the CinC 2017 records and labels, features on two threads.
//! - [`validation`]: the stratified 5-fold CV, challenge score, bootstrap CIs and report.
//! - [`external`]: a check of the committed model on 60-s windows of the MIT-BIH Arrhythmia Database.
//!
//! The boosting capacity is chosen from three settings fixed a priori ([`candidate_configs`]) by an
//! inner 3-fold CV on the training rows only.

pub mod data;
pub mod external;
pub mod validation;

use std::path::Path;

use crate::gbdt::{balanced_weights, fit};
use cardio_models::ecg_rhythm::features::{FEATURE_NAMES, MAX_SECONDS, MIN_SECONDS, MODEL_FS};
use cardio_models::ecg_rhythm::{Headline, Params, CLASSES, MODEL_ID, TRAINING_DATE, VERSION};
use cardio_models::gbdt::GbdtConfig;

pub use validation::Report;

/// Errors of training and evaluation.
#[derive(Debug, thiserror::Error)]
pub enum EcgError {
    /// The dataset folder or file is not there.
    #[error("dataset not found: {path} (unpack cinc2017 into $CARDIO_DATASETS)")]
    MissingDataset {
        /// The path looked for.
        path: String,
    },
    /// A label file has a malformed line.
    #[error("{file} line {line}: {reason}")]
    Parse {
        /// File name.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A record cannot be read or analysed.
    #[error("record {name}: {reason}")]
    Record {
        /// Record name.
        name: String,
        /// What went wrong.
        reason: String,
    },
}

/// The boosting settings the inner CV chooses from (set before any result was seen: the crate's
/// defaults with shrinkage 0.05, minimum child hessian 2 and half the features per tree, at three
/// capacities): 300 rounds of depth-4 trees, 600 rounds of depth 4, 300 rounds of depth 5.
pub fn candidate_configs() -> Vec<GbdtConfig> {
    let base = GbdtConfig {
        rounds: 300,
        learning_rate: 0.05,
        max_depth: 4,
        min_child_weight: 2.0,
        lambda: 1.0,
        subsample: 0.8,
        colsample: 0.5,
        seed: validation::SEED,
    };
    vec![
        base.clone(),
        GbdtConfig {
            rounds: 600,
            ..base.clone()
        },
        GbdtConfig {
            max_depth: 5,
            ..base
        },
    ]
}

/// A short description of a configuration for reports.
pub fn describe_config(c: &GbdtConfig) -> String {
    format!(
        "{} rounds, depth {}, shrinkage {}",
        c.rounds, c.max_depth, c.learning_rate
    )
}

/// Runs the validation of the model card (the stratified 5-fold CV) on `$CARDIO_DATASETS`.
///
/// # Errors
/// As [`data::load`].
pub fn evaluate(root: &Path) -> Result<Report, EcgError> {
    let mut table = data::load(root)?;
    data::mark_gated(root, &mut table)?;
    Ok(validation::evaluate_table(&table))
}

/// Runs the validation, then trains the committed model on all records. Deterministic.
///
/// # Errors
/// As [`data::load`].
pub fn train(root: &Path) -> Result<(Params, Report), EcgError> {
    let mut table = data::load(root)?;
    data::mark_gated(root, &mut table)?;
    let mut report = validation::evaluate_table(&table);
    let params = train_table(&table, &report);
    report.final_choice = Some(params.config_choice.clone());
    Ok((params, report))
}

/// Fits the final model on a feature table and records the report's headline figures.
pub fn train_table(table: &data::Table, report: &Report) -> Params {
    let k = CLASSES.len();
    let w = balanced_weights(&table.y, k);
    let choice = validation::select_config(&table.x, &table.y, validation::SEED, 2);
    let cfg = candidate_configs()[choice.chosen].clone();
    let gbdt = fit(&table.x, &table.y, k, Some(&w), &cfg);
    let mut counts = [0usize; 4];
    for &c in &table.y {
        counts[c] += 1;
    }
    Params {
        model_id: MODEL_ID.into(),
        version: VERSION.into(),
        training_date: TRAINING_DATE.into(),
        trained_on: format!(
            "PhysioNet/CinC Challenge 2017 training set, {} records (N {}, A {}, O {}, ~ {}), REFERENCE.csv (v3 labels)",
            table.y.len(),
            counts[0],
            counts[1],
            counts[2],
            counts[3]
        ),
        model_fs_hz: MODEL_FS,
        min_seconds: MIN_SECONDS,
        max_seconds: MAX_SECONDS,
        classes: CLASSES.iter().map(|c| c.code().to_string()).collect(),
        features: FEATURE_NAMES.iter().map(|s| (*s).to_string()).collect(),
        config: cfg,
        config_choice: choice,
        validation: Headline {
            cv_mean_f1_nao: report.mean_f1_nao.value,
            cv_mean_f1_nao_ci_low: report.mean_f1_nao.low,
            cv_mean_f1_nao_ci_high: report.mean_f1_nao.high,
            cv_f1: report.f1.iter().map(|f| f.value).collect(),
            cv_af_sensitivity: report.af_sensitivity.value,
            cv_af_specificity: report.af_specificity.value,
        },
        gbdt,
    }
}
