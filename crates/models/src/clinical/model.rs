//! The clinical model: feature coding and the two logistic sub-models (their training is in
//! `cardio-lab`, `clinical::train`).
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
//! **Training** (`cardio-lab`). For each sub-model, `lambda` is chosen from a fixed grid by the
//! mean out-of-fold log-loss of a seeded stratified 5-fold CV inside the training data, and the
//! Platt calibration `sigmoid(a * logit + b)` is fitted on those out-of-fold logits; the model is
//! then refitted on all training rows. Nothing outside the training rows is looked at.

use serde::{Deserialize, Serialize};

use super::ClinicalInput;

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

/// The logistic function, stable for large `|z|`.
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}
