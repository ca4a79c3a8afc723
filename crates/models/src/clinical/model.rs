//! The clinical model: feature coding, the two logistic sub-models and their training.
//!
//! **Features.** Age; chest pain type one-hot against "typical angina"; cholesterol; fasting blood sugar
//! over 120 mg/dl; exercise-induced angina; the interaction asymptomatic × exercise angina. The *full*
//! sub-model adds vessels coloured (0-3), thalassemia one-hot against "normal" and the interaction
//! vessels × reversible defect. Every column is standardised with the training mean and standard
//! deviation. A missing cholesterol, fasting blood sugar or exercise angina is replaced by the training
//! mean (its contribution is then that of an average patient).
//!
//! **Missing `ca`/`thal`.** Cleveland, the only site where they are recorded, has 6 of 303 patients
//! without them: far too few to learn what "missing" means. So instead of missing indicators a row
//! without `ca` or without `thal` is scored by the *reduced* sub-model, trained on every row without
//! those two fields. The external check (Hungary has `ca` in 1 % and `thal` in 10 % of rows) measures it.
//!
//! **Training.** For each sub-model, `lambda` is chosen from [`LAMBDAS`] by the mean out-of-fold
//! log-loss of a seeded stratified 5-fold CV inside the training data, and the Platt calibration
//! `sigmoid(a * logit + b)` is fitted on those out-of-fold logits; the model is then refitted on all
//! training rows. Nothing outside the training rows is looked at.

use serde::{Deserialize, Serialize};

use super::data::Record;
use super::logistic::{self, sigmoid};
use super::metrics::{stratified_folds, SplitMix64};
use super::ClinicalInput;

/// The L2 strengths tried by the inner CV.
pub const LAMBDAS: [f64; 8] = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0];

/// Folds of the inner CV.
pub const INNER_FOLDS: usize = 5;

/// Fewest rows of each class a sub-model needs to be trained.
pub const MIN_CLASS_ROWS: usize = 20;

/// Column names of the reduced sub-model.
pub const REDUCED_FEATURES: [&str; 8] = [
    "age",
    "chest_pain_atypical_angina",
    "chest_pain_non_anginal",
    "chest_pain_asymptomatic",
    "cholesterol",
    "fasting_blood_sugar_over_120",
    "exercise_induced_angina",
    "asymptomatic_x_exercise_angina",
];

/// Column names the full sub-model adds to [`REDUCED_FEATURES`].
pub const FULL_EXTRA_FEATURES: [&str; 4] = [
    "vessels_colored_by_flourosopy",
    "thalassemia_fixed_defect",
    "thalassemia_reversible_defect",
    "vessels_x_reversible_defect",
];

/// Training means that replace a missing value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Imputation {
    /// Mean cholesterol (mg/dl).
    pub cholesterol: f64,
    /// Fraction with fasting blood sugar > 120 mg/dl.
    pub fasting_blood_sugar_over_120: f64,
    /// Fraction with exercise-induced angina.
    pub exercise_induced_angina: f64,
}

impl Imputation {
    /// Means over the rows where each value is present (0 when none is).
    pub fn from_records(records: &[Record]) -> Self {
        let mean = |values: Vec<f64>| {
            if values.is_empty() {
                0.0
            } else {
                values.iter().sum::<f64>() / values.len() as f64
            }
        };
        Self {
            cholesterol: mean(records.iter().filter_map(|r| r.input.cholesterol).collect()),
            fasting_blood_sugar_over_120: mean(
                records
                    .iter()
                    .filter_map(|r| {
                        r.input
                            .fasting_blood_sugar
                            .map(|v| f64::from(u8::from(v > 120.0)))
                    })
                    .collect(),
            ),
            exercise_induced_angina: mean(
                records
                    .iter()
                    .filter_map(|r| r.input.exercise_induced_angina.map(f64::from))
                    .collect(),
            ),
        }
    }
}

/// Whether an input can use the full sub-model (it has both `ca` and `thal`).
pub fn has_full_fields(input: &ClinicalInput) -> bool {
    input.vessels_colored_by_flourosopy.is_some() && input.thalassemia.is_some()
}

/// The unstandardised feature row of an input (`full` adds the `ca`/`thal` columns).
pub fn encode(input: &ClinicalInput, imp: &Imputation, full: bool) -> Vec<f64> {
    let flag = |b: bool| f64::from(u8::from(b));
    let cp = input.chest_pain_type;
    let exang = input
        .exercise_induced_angina
        .map_or(imp.exercise_induced_angina, f64::from);
    let mut row = vec![
        input.age,
        flag(cp == 1),
        flag(cp == 2),
        flag(cp == 3),
        input
            .cholesterol
            .filter(|&c| c > 0.0)
            .unwrap_or(imp.cholesterol),
        input
            .fasting_blood_sugar
            .map_or(imp.fasting_blood_sugar_over_120, |v| flag(v > 120.0)),
        exang,
        flag(cp == 3) * exang,
    ];
    if full {
        let ca = f64::from(input.vessels_colored_by_flourosopy.unwrap_or(0));
        let thal = input.thalassemia.unwrap_or(0);
        row.extend([ca, flag(thal == 1), flag(thal == 2), ca * flag(thal == 2)]);
    }
    row
}

/// One fitted, calibrated logistic sub-model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubModel {
    /// Column names.
    pub features: Vec<String>,
    /// Training mean of every column.
    pub mean: Vec<f64>,
    /// Training standard deviation of every column (1 for a constant column).
    pub scale: Vec<f64>,
    /// Intercept of the logit on standardised columns.
    pub intercept: f64,
    /// Coefficients on standardised columns.
    pub coefficients: Vec<f64>,
    /// The L2 strength the inner CV chose.
    pub lambda: f64,
    /// Platt slope `a` of `sigmoid(a * logit + b)`.
    pub platt_a: f64,
    /// Platt intercept `b`.
    pub platt_b: f64,
    /// Training rows.
    pub rows: usize,
}

impl SubModel {
    /// Standardised columns of a raw row.
    fn standardise(&self, raw: &[f64]) -> Vec<f64> {
        raw.iter()
            .zip(self.mean.iter().zip(&self.scale))
            .map(|(x, (m, s))| (x - m) / s)
            .collect()
    }

    /// The uncalibrated logit and the per-column contributions `w_j * z_j` to it.
    pub fn logit(&self, raw: &[f64]) -> (f64, Vec<f64>) {
        let z = self.standardise(raw);
        let contributions: Vec<f64> = self
            .coefficients
            .iter()
            .zip(&z)
            .map(|(w, z)| w * z)
            .collect();
        (
            self.intercept + contributions.iter().sum::<f64>(),
            contributions,
        )
    }

    /// The calibrated probability of disease.
    pub fn probability(&self, raw: &[f64]) -> f64 {
        sigmoid(self.platt_a * self.logit(raw).0 + self.platt_b)
    }
}

/// Column means and standard deviations (population), a constant column getting scale 1.
fn scaler(rows: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let p = rows.first().map_or(0, Vec::len);
    let n = rows.len().max(1) as f64;
    let mean: Vec<f64> = (0..p)
        .map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / n)
        .collect();
    let scale = (0..p)
        .map(|j| {
            let sd = (rows.iter().map(|r| (r[j] - mean[j]).powi(2)).sum::<f64>() / n).sqrt();
            if sd > 1e-9 {
                sd
            } else {
                1.0
            }
        })
        .collect();
    (mean, scale)
}

/// Fits an uncalibrated sub-model with a given lambda.
fn fit_plain(names: &[&str], raw: &[Vec<f64>], y: &[bool], lambda: f64) -> SubModel {
    let (mean, scale) = scaler(raw);
    let z: Vec<Vec<f64>> = raw
        .iter()
        .map(|r| {
            r.iter()
                .zip(mean.iter().zip(&scale))
                .map(|(x, (m, s))| (x - m) / s)
                .collect()
        })
        .collect();
    let fitted = logistic::fit(&z, y, lambda);
    SubModel {
        features: names.iter().map(|s| (*s).to_string()).collect(),
        mean,
        scale,
        intercept: fitted.intercept,
        coefficients: fitted.coefficients,
        lambda,
        platt_a: 1.0,
        platt_b: 0.0,
        rows: raw.len(),
    }
}

/// Trains one sub-model: lambda and Platt calibration by inner stratified CV, then a refit on all rows.
pub fn train_submodel(names: &[&str], raw: &[Vec<f64>], y: &[bool], seed: u64) -> SubModel {
    let folds = stratified_folds(y, INNER_FOLDS, &mut SplitMix64::new(seed));
    let mut best: Option<(f64, f64, Vec<f64>)> = None;
    for &lambda in &LAMBDAS {
        let mut oof = vec![0.0; raw.len()];
        for f in 0..INNER_FOLDS {
            let train: Vec<usize> = (0..raw.len()).filter(|&i| folds[i] != f).collect();
            let tr_x: Vec<Vec<f64>> = train.iter().map(|&i| raw[i].clone()).collect();
            let tr_y: Vec<bool> = train.iter().map(|&i| y[i]).collect();
            let m = fit_plain(names, &tr_x, &tr_y, lambda);
            for i in (0..raw.len()).filter(|&i| folds[i] == f) {
                oof[i] = m.logit(&raw[i]).0;
            }
        }
        let loss = oof
            .iter()
            .zip(y)
            .map(|(&s, &t)| {
                let p = sigmoid(s).clamp(1e-12, 1.0 - 1e-12);
                if t {
                    -p.ln()
                } else {
                    -(1.0 - p).ln()
                }
            })
            .sum::<f64>()
            / raw.len().max(1) as f64;
        // Strictly better only: on a tie the smaller lambda tried first stays.
        if best.as_ref().is_none_or(|b| loss < b.0) {
            best = Some((loss, lambda, oof));
        }
    }
    let (_, lambda, oof) = best.unwrap_or((0.0, LAMBDAS[0], vec![]));
    let (a, b) = logistic::fit_platt(&oof, y);
    let mut model = fit_plain(names, raw, y, lambda);
    model.platt_a = a;
    model.platt_b = b;
    model
}

/// The two fitted sub-models and the imputation they share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fitted {
    /// Means replacing a missing cholesterol, blood sugar or exercise angina.
    pub imputation: Imputation,
    /// Sub-model with `ca` and `thal`; absent when the training data had too few complete rows.
    pub full: Option<SubModel>,
    /// Sub-model without `ca` and `thal`.
    pub reduced: SubModel,
}

/// How one input was scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Calibrated probability of disease.
    pub probability: f64,
    /// Whether the full sub-model was used.
    pub full: bool,
    /// `(column, contribution to the logit)`.
    pub contributions: Vec<(String, f64)>,
}

impl Fitted {
    /// Trains both sub-models on `records` with a fixed `seed`.
    pub fn train(records: &[Record], seed: u64) -> Self {
        let imputation = Imputation::from_records(records);
        let y: Vec<bool> = records.iter().map(|r| r.disease).collect();
        let reduced_x: Vec<Vec<f64>> = records
            .iter()
            .map(|r| encode(&r.input, &imputation, false))
            .collect();
        let reduced = train_submodel(&REDUCED_FEATURES, &reduced_x, &y, seed);
        let complete: Vec<&Record> = records
            .iter()
            .filter(|r| has_full_fields(&r.input))
            .collect();
        let pos = complete.iter().filter(|r| r.disease).count();
        let full = (pos >= MIN_CLASS_ROWS && complete.len() - pos >= MIN_CLASS_ROWS).then(|| {
            let names: Vec<&str> = REDUCED_FEATURES
                .iter()
                .chain(&FULL_EXTRA_FEATURES)
                .copied()
                .collect();
            let x: Vec<Vec<f64>> = complete
                .iter()
                .map(|r| encode(&r.input, &imputation, true))
                .collect();
            let y: Vec<bool> = complete.iter().map(|r| r.disease).collect();
            train_submodel(&names, &x, &y, seed ^ 0x5EED)
        });
        Self {
            imputation,
            full,
            reduced,
        }
    }

    /// Scores one input: the full sub-model when it exists and `ca` and `thal` are given (and
    /// `force_reduced` is false), else the reduced one.
    pub fn score(&self, input: &ClinicalInput, force_reduced: bool) -> Scored {
        let (model, full) = match &self.full {
            Some(m) if !force_reduced && has_full_fields(input) => (m, true),
            _ => (&self.reduced, false),
        };
        let raw = encode(input, &self.imputation, full);
        let (logit, contributions) = model.logit(&raw);
        Scored {
            probability: sigmoid(model.platt_a * logit + model.platt_b),
            full,
            contributions: model.features.iter().cloned().zip(contributions).collect(),
        }
    }
}
