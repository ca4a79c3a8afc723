//! Validation of the clinical model, as the model card reports it.
//!
//! - **Repeated stratified 10-fold CV on Cleveland** ([`REPEATS`] × [`FOLDS`], seeded). In every outer
//!   fold the model is trained from scratch on the other nine folds (imputation means, scalers, lambda
//!   and Platt calibration all by inner CV inside them), then scores the held-out fold. Per repeat the
//!   out-of-fold probabilities of all patients are pooled into one AUROC, Brier score and threshold
//!   metrics; the table shows their mean over the repeats. The 95 % CI of the AUROC is `mean ± 1.96 ×
//!   sqrt(mean DeLong variance)` over the repeats; the range over the repeats is shown beside it.
//! - The CV is run for what the model is given: the seven form fields, the seven and sex, all
//!   thirteen UCI attributes (each patient scored by the pattern sub-model of exactly those fields);
//!   the seven with the reduced sub-model forced (what a patient without `ca`/`thal` gets), and
//!   gradient-boosted stumps on the seven as a comparison (fixed settings, same folds; not
//!   deployed).
//! - **External**: train on all of Cleveland, test on Hungary, each Hungarian patient scored with
//!   every attribute the data has for them (and, as a comparison, with the seven form fields only);
//!   and the reverse. AUROC with a DeLong CI.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::boosting::BoostedModel;
use super::data::{self, Record, Site};
use super::metrics::{
    self, brier, calibration, delong, delong_ci, stratified_folds, threshold_metrics, Calibration,
    SplitMix64, ThresholdMetrics,
};
use super::train;
use cardio_models::clinical::model::{Attribute, Pattern};
use cardio_models::clinical::{ClinicalError, THRESHOLD};

/// Outer CV repeats.
pub const REPEATS: usize = 10;
/// Outer CV folds.
pub const FOLDS: usize = 10;
/// The seed of everything random in training and validation.
pub const SEED: u64 = 0x00CA_4D10;

/// Results of the repeated cross-validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CvReport {
    /// Site.
    pub site: String,
    /// Which candidate was cross-validated.
    pub model: Candidate,
    /// Patients after de-duplication.
    pub rows: usize,
    /// Patients with disease.
    pub positives: usize,
    /// Repeats × folds.
    pub repeats: usize,
    /// Folds per repeat.
    pub folds: usize,
    /// Mean over repeats of the pooled out-of-fold AUROC.
    pub auroc: f64,
    /// Lower end of the 95 % CI (see the module docs).
    pub auroc_ci_low: f64,
    /// Upper end of the 95 % CI.
    pub auroc_ci_high: f64,
    /// Lowest repeat AUROC.
    pub auroc_min: f64,
    /// Highest repeat AUROC.
    pub auroc_max: f64,
    /// Mean threshold metrics at [`THRESHOLD`].
    pub at_threshold: ThresholdMetrics,
    /// Mean Brier score.
    pub brier: f64,
    /// Calibration of all out-of-fold probabilities of all repeats.
    pub calibration: Calibration,
}

/// Results of training on one site and testing on another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExternalReport {
    /// Training site.
    pub train_site: String,
    /// Test site.
    pub test_site: String,
    /// Training patients.
    pub train_rows: usize,
    /// Test patients.
    pub test_rows: usize,
    /// Test patients with disease.
    pub test_positives: usize,
    /// What the test patients were scored with: `seven form fields` or `every attribute given`.
    pub attributes: String,
    /// Test patients scored by a full sub-model (both `ca` and `thal` present and a full model
    /// trained).
    pub test_rows_full_model: usize,
    /// Test patients per set of fields their sub-model scored (comma-separated snake_case).
    pub test_rows_by_attributes: std::collections::BTreeMap<String, usize>,
    /// AUROC.
    pub auroc: f64,
    /// DeLong 95 % CI, lower end.
    pub auroc_ci_low: f64,
    /// DeLong 95 % CI, upper end.
    pub auroc_ci_high: f64,
    /// Metrics at [`THRESHOLD`].
    pub at_threshold: ThresholdMetrics,
    /// Brier score.
    pub brier: f64,
    /// Calibration.
    pub calibration: Calibration,
}

/// The whole validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClinicalReport {
    /// CV AUROC with the seven form fields ([`Self::cv`]).
    pub cv_auroc_seven: f64,
    /// Its 95 % CI.
    pub cv_auroc_seven_ci: [f64; 2],
    /// CV AUROC with the seven form fields and sex ([`Self::cv_seven_plus_sex`]).
    pub cv_auroc_seven_plus_sex: f64,
    /// Its 95 % CI.
    pub cv_auroc_seven_plus_sex_ci: [f64; 2],
    /// CV AUROC with all thirteen attributes ([`Self::cv_all`]).
    pub cv_auroc_all: f64,
    /// Its 95 % CI.
    pub cv_auroc_all_ci: [f64; 2],
    /// AUROC trained on Cleveland, tested on Hungary with every attribute each patient has.
    pub external_auroc_hungary: f64,
    /// Its DeLong 95 % CI.
    pub external_auroc_hungary_ci: [f64; 2],
    /// CV on Cleveland with the seven form fields (full sub-model when `ca` and `thal` are present).
    pub cv: CvReport,
    /// CV on Cleveland with the seven form fields and sex.
    pub cv_seven_plus_sex: CvReport,
    /// CV on Cleveland with all thirteen attributes.
    pub cv_all: CvReport,
    /// CV on Cleveland with the reduced seven-field sub-model for everybody.
    pub cv_reduced: CvReport,
    /// CV on Cleveland of the comparison model (boosted stumps on the seven, same folds).
    pub cv_boosted: CvReport,
    /// Cleveland → Hungary (every attribute, then the seven only) and Hungary → Cleveland.
    pub external: Vec<ExternalReport>,
}

/// What a cross-validation trains and scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Candidate {
    /// The deployed logistic model given the seven form fields (full sub-model when `ca` and
    /// `thal` are present).
    Logistic,
    /// The deployed model given the seven form fields and sex.
    LogisticSevenPlusSex,
    /// The deployed model given all thirteen attributes.
    LogisticAll,
    /// The logistic reduced seven-field sub-model (no `ca`/`thal`) for every patient.
    LogisticReduced,
    /// Gradient-boosted stumps ([`super::boosting`]) on the seven, same routing; a comparison, not
    /// deployed.
    Boosted,
}

impl Candidate {
    /// The table's description.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Logistic => "logistic, seven form fields",
            Self::LogisticSevenPlusSex => "logistic, seven + sex",
            Self::LogisticAll => "logistic, all thirteen",
            Self::LogisticReduced => "logistic, seven without ca/thal",
            Self::Boosted => "boosted stumps, seven (comparison)",
        }
    }

    /// The widest pattern a patient is scored with (the deployed routing within it).
    pub fn limit(self) -> Pattern {
        match self {
            Self::Logistic | Self::Boosted => Pattern::seven(true),
            Self::LogisticSevenPlusSex => Pattern {
                full: true,
                optional: Attribute::Sex.bit(),
            },
            Self::LogisticAll => Pattern {
                full: true,
                optional: Pattern::ALL_OPTIONAL,
            },
            Self::LogisticReduced => Pattern::seven(false),
        }
    }

    /// The patterns trained in each fold: the limit with and without `ca`/`thal`.
    fn patterns(self) -> Vec<Pattern> {
        let limit = self.limit();
        let mut patterns = vec![Pattern {
            full: false,
            optional: limit.optional,
        }];
        if limit.full {
            patterns.push(limit);
        }
        patterns
    }
}

/// Repeated stratified CV of `records` (seeded by [`SEED`]).
pub fn cross_validate(
    site: &str,
    records: &[Record],
    repeats: usize,
    folds: usize,
    model: Candidate,
) -> CvReport {
    let y: Vec<bool> = records.iter().map(|r| r.disease).collect();
    let mut aucs = Vec::new();
    let mut vars = Vec::new();
    let mut briers = Vec::new();
    let mut thresholds = Vec::new();
    let mut all_p = Vec::new();
    let mut all_y = Vec::new();
    for r in 0..repeats {
        let fold = stratified_folds(&y, folds, &mut SplitMix64::new(SEED + r as u64));
        let mut p = vec![0.0; records.len()];
        for f in 0..folds {
            let train: Vec<Record> = records
                .iter()
                .zip(&fold)
                .filter(|(_, &k)| k != f)
                .map(|(rec, _)| rec.clone())
                .collect();
            let test = (0..records.len()).filter(|&i| fold[i] == f);
            if model == Candidate::Boosted {
                let fitted = BoostedModel::train(&train);
                for i in test {
                    p[i] = fitted.probability(&records[i].input);
                }
            } else {
                let seed = SEED ^ ((r * folds + f) as u64 + 1);
                let fitted = train::fit_patterns(&train, seed, &model.patterns());
                for i in test {
                    p[i] = fitted
                        .score(&records[i].input, Some(model.limit()))
                        .map_or(0.5, |s| s.probability);
                }
            }
        }
        let (auc, var) = delong(&p, &y).unwrap_or((f64::NAN, f64::NAN));
        aucs.push(auc);
        vars.push(var);
        briers.push(brier(&p, &y));
        thresholds.push(threshold_metrics(&p, &y, THRESHOLD));
        all_p.extend_from_slice(&p);
        all_y.extend_from_slice(&y);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let auroc = mean(&aucs);
    let half = 1.96 * mean(&vars).sqrt();
    CvReport {
        site: site.into(),
        model,
        rows: records.len(),
        positives: y.iter().filter(|&&v| v).count(),
        repeats,
        folds,
        auroc,
        auroc_ci_low: (auroc - half).max(0.0),
        auroc_ci_high: (auroc + half).min(1.0),
        auroc_min: aucs.iter().copied().fold(f64::INFINITY, f64::min),
        auroc_max: aucs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        at_threshold: ThresholdMetrics {
            accuracy: mean(&thresholds.iter().map(|t| t.accuracy).collect::<Vec<_>>()),
            sensitivity: mean(&thresholds.iter().map(|t| t.sensitivity).collect::<Vec<_>>()),
            specificity: mean(&thresholds.iter().map(|t| t.specificity).collect::<Vec<_>>()),
        },
        brier: mean(&briers),
        calibration: calibration(&all_p, &all_y),
    }
}

/// Trains on one set and tests on another, each test patient scored with the attributes they have
/// within `limit`.
pub fn external(
    train_site: &str,
    train: &[Record],
    test_site: &str,
    test: &[Record],
    limit: Pattern,
) -> ExternalReport {
    let patterns: Vec<Pattern> = Pattern::all()
        .into_iter()
        .filter(|p| p.within(limit))
        .collect();
    let model = train::fit_patterns(train, SEED, &patterns);
    let scored: Vec<_> = test
        .iter()
        .map(|r| model.score(&r.input, Some(limit)))
        .collect();
    let p: Vec<f64> = scored
        .iter()
        .map(|s| s.as_ref().map_or(0.5, |s| s.probability))
        .collect();
    let y: Vec<bool> = test.iter().map(|r| r.disease).collect();
    let (auroc, lo, hi) = delong_ci(&p, &y).unwrap_or((f64::NAN, f64::NAN, f64::NAN));
    ExternalReport {
        train_site: train_site.into(),
        test_site: test_site.into(),
        train_rows: train.len(),
        test_rows: test.len(),
        test_positives: y.iter().filter(|&&v| v).count(),
        attributes: if limit.optional == 0 {
            "seven form fields".into()
        } else {
            "every attribute given".into()
        },
        test_rows_full_model: scored
            .iter()
            .filter(|s| s.as_ref().is_some_and(|s| s.pattern.full))
            .count(),
        test_rows_by_attributes: {
            let mut counts = std::collections::BTreeMap::new();
            for s in scored.iter().flatten() {
                *counts.entry(s.pattern.fields().join(",")).or_insert(0) += 1;
            }
            counts
        },
        auroc,
        auroc_ci_low: lo,
        auroc_ci_high: hi,
        at_threshold: threshold_metrics(&p, &y, THRESHOLD),
        brier: metrics::brier(&p, &y),
        calibration: calibration(&p, &y),
    }
}

/// Runs the whole validation from a datasets root (`$CARDIO_DATASETS`).
///
/// # Errors
/// [`ClinicalError::MissingDataset`] when `uci_heart` is not unpacked; [`ClinicalError::Parse`] on a
/// malformed file.
pub fn evaluate(root: &Path) -> Result<ClinicalReport, ClinicalError> {
    let cleveland = data::load_site(root, Site::Cleveland)?;
    let hungary = data::load_site(root, Site::Hungary)?;
    let cv = |model| cross_validate(Site::Cleveland.name(), &cleveland, REPEATS, FOLDS, model);
    let everything = Pattern {
        full: true,
        optional: Pattern::ALL_OPTIONAL,
    };
    let (c, h) = (Site::Cleveland.name(), Site::Hungary.name());
    let seven = cv(Candidate::Logistic);
    let seven_plus_sex = cv(Candidate::LogisticSevenPlusSex);
    let all = cv(Candidate::LogisticAll);
    let to_hungary = external(c, &cleveland, h, &hungary, everything);
    Ok(ClinicalReport {
        cv_auroc_seven: seven.auroc,
        cv_auroc_seven_ci: [seven.auroc_ci_low, seven.auroc_ci_high],
        cv_auroc_seven_plus_sex: seven_plus_sex.auroc,
        cv_auroc_seven_plus_sex_ci: [seven_plus_sex.auroc_ci_low, seven_plus_sex.auroc_ci_high],
        cv_auroc_all: all.auroc,
        cv_auroc_all_ci: [all.auroc_ci_low, all.auroc_ci_high],
        external_auroc_hungary: to_hungary.auroc,
        external_auroc_hungary_ci: [to_hungary.auroc_ci_low, to_hungary.auroc_ci_high],
        cv: seven,
        cv_seven_plus_sex: seven_plus_sex,
        cv_all: all,
        cv_reduced: cv(Candidate::LogisticReduced),
        cv_boosted: cv(Candidate::Boosted),
        external: vec![
            to_hungary,
            external(c, &cleveland, h, &hungary, Pattern::seven(true)),
            external(h, &hungary, c, &cleveland, everything),
        ],
    })
}

/// The validation table of the model card.
pub fn table(r: &ClinicalReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Clinical model (clinical-lr): UCI Heart Disease, target num > 0, duplicates removed, threshold {THRESHOLD}"
    );
    let _ = writeln!(
        s,
        "| validation | n (disease) | AUROC [95% CI] | AUROC range | accuracy | sensitivity | specificity | Brier | cal. slope | cal. intercept |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    for cv in [
        &r.cv,
        &r.cv_seven_plus_sex,
        &r.cv_all,
        &r.cv_reduced,
        &r.cv_boosted,
    ] {
        let _ = writeln!(
            s,
            "| {}x{}-fold CV, {}, {} | {} ({}) | {:.3} [{:.3}-{:.3}] | {:.3}-{:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.2} | {:.2} |",
            cv.repeats,
            cv.folds,
            cv.site,
            cv.model.describe(),
            cv.rows,
            cv.positives,
            cv.auroc,
            cv.auroc_ci_low,
            cv.auroc_ci_high,
            cv.auroc_min,
            cv.auroc_max,
            cv.at_threshold.accuracy,
            cv.at_threshold.sensitivity,
            cv.at_threshold.specificity,
            cv.brier,
            cv.calibration.slope,
            cv.calibration.intercept,
        );
    }
    for e in &r.external {
        let _ = writeln!(
            s,
            "| train {} -> test {}, {} ({} of {} with ca+thal) | {} ({}) | {:.3} [{:.3}-{:.3}] | - | {:.3} | {:.3} | {:.3} | {:.3} | {:.2} | {:.2} |",
            e.train_site,
            e.test_site,
            e.attributes,
            e.test_rows_full_model,
            e.test_rows,
            e.test_rows,
            e.test_positives,
            e.auroc,
            e.auroc_ci_low,
            e.auroc_ci_high,
            e.at_threshold.accuracy,
            e.at_threshold.sensitivity,
            e.at_threshold.specificity,
            e.brier,
            e.calibration.slope,
            e.calibration.intercept,
        );
    }
    let _ = writeln!(
        s,
        "\nCV AUROC: mean over repeats of the pooled out-of-fold AUROC; 95% CI = mean +- 1.96 sqrt(mean DeLong variance); range = min-max over repeats."
    );
    let _ = writeln!(
        s,
        "\nReliability of the CV probabilities (all repeats pooled; ECE {:.3}):",
        r.cv.calibration.ece
    );
    s.push_str(&r.cv.calibration.markdown_table());
    s
}
