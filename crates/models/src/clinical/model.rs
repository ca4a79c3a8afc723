//! The clinical model: feature coding and the logistic pattern sub-models (their training is in
//! `cardio-lab`, `clinical::train`).
//!
//! **Features.** The seven form fields: age; chest pain type one-hot against "typical angina";
//! cholesterol; fasting blood sugar over 120 mg/dl; exercise-induced angina; the interaction
//! asymptomatic × exercise angina; with `ca` and `thal`: vessels coloured (0-3), thalassemia one-hot
//! against "normal" and the interaction vessels × reversible defect. The six optional UCI attributes
//! ([`Attribute`]) add: sex (male = 1), resting blood pressure, resting ECG one-hot against "normal",
//! maximal heart rate, ST depression and ST slope one-hot against "upsloping". Every column is
//! standardised with the training mean and standard deviation. A missing cholesterol, fasting blood
//! sugar or exercise angina is replaced by the training mean (its contribution is then that of an
//! average patient).
//!
//! **Missing values: pattern sub-models** (Fletcher Mercaldo & Blume, "Missing data and prediction:
//! the pattern submodel", Biostatistics 2020;21:236-252). Instead of imputing an attribute the
//! patient does not have, every combination of given attributes has its own sub-model, trained on
//! the training rows that have those attributes and using only them: a [`Pattern`] is whether `ca`
//! and `thal` are both given and which of the six optional attributes are. 2 × 2⁶ = 128 sub-models;
//! a result names the attributes its sub-model used. Cleveland records all of them (6 of 303
//! patients lack `ca` or `thal`), so every pattern is trained on (nearly) all patients; where a
//! pattern has too few rows of a class, the input falls back to the trained pattern that uses the
//! most of its attributes.
//!
//! **Training** (`cardio-lab`). For each sub-model, `lambda` is chosen from a fixed grid by the
//! mean out-of-fold log-loss of a seeded stratified 5-fold CV inside the training data, and the
//! Platt calibration `sigmoid(a * logit + b)` is fitted on those out-of-fold logits; the model is
//! then refitted on all training rows. Nothing outside the training rows is looked at.

use serde::{Deserialize, Serialize};

use super::{ClinicalInput, Sex};

/// Columns of the seven form fields without `ca`/`thal`.
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

/// Columns that `ca` and `thal` add to [`REDUCED_FEATURES`].
pub const FULL_EXTRA_FEATURES: [&str; 4] = [
    "vessels_colored_by_flourosopy",
    "thalassemia_fixed_defect",
    "thalassemia_reversible_defect",
    "vessels_x_reversible_defect",
];

/// The six optional UCI attributes beyond the form's seven, in their fixed column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Attribute {
    /// `sex` (UCI `sex`): male or female.
    Sex,
    /// `resting_blood_pressure` (UCI `trestbps`), mm Hg.
    RestingBloodPressure,
    /// `resting_ecg` (UCI `restecg`): 0 normal, 1 ST-T abnormality, 2 LV hypertrophy.
    RestingEcg,
    /// `max_heart_rate` (UCI `thalach`), bpm achieved at exercise.
    MaxHeartRate,
    /// `st_depression` (UCI `oldpeak`), mm, exercise against rest.
    StDepression,
    /// `st_slope` (UCI `slope`): 0 up, 1 flat, 2 down.
    StSlope,
}

impl Attribute {
    /// Every optional attribute, in column order (bit `i` of a [`Pattern`] is `ALL[i]`).
    pub const ALL: [Self; 6] = [
        Self::Sex,
        Self::RestingBloodPressure,
        Self::RestingEcg,
        Self::MaxHeartRate,
        Self::StDepression,
        Self::StSlope,
    ];

    /// The snake_case field name (API, CSV, results).
    pub fn name(self) -> &'static str {
        match self {
            Self::Sex => "sex",
            Self::RestingBloodPressure => "resting_blood_pressure",
            Self::RestingEcg => "resting_ecg",
            Self::MaxHeartRate => "max_heart_rate",
            Self::StDepression => "st_depression",
            Self::StSlope => "st_slope",
        }
    }

    /// The model columns of the attribute.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Self::Sex => &["sex_male"],
            Self::RestingBloodPressure => &["resting_blood_pressure"],
            Self::RestingEcg => &["resting_ecg_st_t_abnormality", "resting_ecg_lv_hypertrophy"],
            Self::MaxHeartRate => &["max_heart_rate"],
            Self::StDepression => &["st_depression"],
            Self::StSlope => &["st_slope_flat", "st_slope_down"],
        }
    }

    /// The bit of the attribute in [`Pattern::optional`].
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// Whether the input gives the attribute.
    pub fn given(self, input: &ClinicalInput) -> bool {
        match self {
            Self::Sex => input.sex.is_some(),
            Self::RestingBloodPressure => input.resting_blood_pressure.is_some(),
            Self::RestingEcg => input.resting_ecg.is_some(),
            Self::MaxHeartRate => input.max_heart_rate.is_some(),
            Self::StDepression => input.st_depression.is_some(),
            Self::StSlope => input.st_slope.is_some(),
        }
    }

    /// The attribute's raw column values (only called when [`Self::given`]).
    fn encode(self, input: &ClinicalInput, row: &mut Vec<f64>) {
        let flag = |b: bool| f64::from(u8::from(b));
        match self {
            Self::Sex => row.push(flag(input.sex == Some(Sex::Male))),
            Self::RestingBloodPressure => row.push(input.resting_blood_pressure.unwrap_or(0.0)),
            Self::RestingEcg => {
                let v = input.resting_ecg.unwrap_or(0);
                row.extend([flag(v == 1), flag(v == 2)]);
            }
            Self::MaxHeartRate => row.push(input.max_heart_rate.unwrap_or(0.0)),
            Self::StDepression => row.push(input.st_depression.unwrap_or(0.0)),
            Self::StSlope => {
                let v = input.st_slope.unwrap_or(0);
                row.extend([flag(v == 1), flag(v == 2)]);
            }
        }
    }
}

/// Which attributes a sub-model uses: the seven form fields always (missing cholesterol, blood sugar
/// and exercise angina imputed), `ca` and `thal` when `full`, and the optional attributes whose bits
/// are set in `optional`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pattern {
    /// `ca` and `thal` are used.
    pub full: bool,
    /// Bit `i` set: [`Attribute::ALL`]`[i]` is used.
    pub optional: u8,
}

impl Pattern {
    /// Every optional attribute's bit.
    pub const ALL_OPTIONAL: u8 = (1 << Attribute::ALL.len()) - 1;

    /// The seven form fields only, with or without `ca`/`thal`.
    pub const fn seven(full: bool) -> Self {
        Self { full, optional: 0 }
    }

    /// Every pattern: 2 × 64, reduced ones first, then by bits.
    pub fn all() -> Vec<Self> {
        [false, true]
            .into_iter()
            .flat_map(|full| (0..=Self::ALL_OPTIONAL).map(move |optional| Self { full, optional }))
            .collect()
    }

    /// The attributes an input gives (`full` when it has both `ca` and `thal`).
    pub fn of(input: &ClinicalInput) -> Self {
        Self {
            full: has_full_fields(input),
            optional: Attribute::ALL
                .iter()
                .filter(|a| a.given(input))
                .fold(0, |bits, a| bits | a.bit()),
        }
    }

    /// The optional attributes of the pattern, in column order.
    pub fn attributes(self) -> impl Iterator<Item = Attribute> {
        Attribute::ALL
            .into_iter()
            .filter(move |a| self.optional & a.bit() != 0)
    }

    /// Whether every attribute of `self` is in `other`.
    pub fn within(self, other: Self) -> bool {
        (!self.full || other.full) && self.optional & !other.optional == 0
    }

    /// How many attributes the pattern uses beyond the five always-scored form fields.
    pub fn size(self) -> u32 {
        2 * u32::from(self.full) + self.optional.count_ones()
    }

    /// The model's column names for the pattern.
    pub fn columns(self) -> Vec<&'static str> {
        let mut names: Vec<&str> = REDUCED_FEATURES.to_vec();
        if self.full {
            names.extend(FULL_EXTRA_FEATURES);
        }
        for a in self.attributes() {
            names.extend(a.columns());
        }
        names
    }

    /// The snake_case fields the pattern scores: the form's five always, `ca`/`thal` when
    /// `full`, then the optional attributes.
    pub fn fields(self) -> Vec<&'static str> {
        let mut names = vec![
            "age",
            "chest_pain_type",
            "cholesterol",
            "fasting_blood_sugar",
            "exercise_induced_angina",
        ];
        if self.full {
            names.extend(["vessels_colored_by_flourosopy", "thalassemia"]);
        }
        names.extend(self.attributes().map(Attribute::name));
        names
    }
}

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

/// Whether an input can use a full sub-model (it has both `ca` and `thal`).
pub fn has_full_fields(input: &ClinicalInput) -> bool {
    input.vessels_colored_by_flourosopy.is_some() && input.thalassemia.is_some()
}

/// The unstandardised feature row of an input for a pattern (the columns of
/// [`Pattern::columns`]); an optional attribute the input lacks enters as 0, so only call it with a
/// pattern [`Pattern::within`] the input's.
pub fn encode(input: &ClinicalInput, imp: &Imputation, pattern: Pattern) -> Vec<f64> {
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
    if pattern.full {
        let ca = f64::from(input.vessels_colored_by_flourosopy.unwrap_or(0));
        let thal = input.thalassemia.unwrap_or(0);
        row.extend([ca, flag(thal == 1), flag(thal == 2), ca * flag(thal == 2)]);
    }
    for a in pattern.attributes() {
        a.encode(input, &mut row);
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

/// One pattern's sub-model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternModel {
    /// The attributes it uses.
    pub pattern: Pattern,
    /// The fitted, calibrated logistic regression on [`Pattern::columns`].
    pub model: SubModel,
}

/// The fitted pattern sub-models and the imputation they share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fitted {
    /// Means replacing a missing cholesterol, blood sugar or exercise angina.
    pub imputation: Imputation,
    /// One sub-model per trained pattern (patterns with too few rows of a class are absent), in
    /// [`Pattern::all`] order.
    pub submodels: Vec<PatternModel>,
}

/// How one input was scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Calibrated probability of disease.
    pub probability: f64,
    /// The pattern of the sub-model used.
    pub pattern: Pattern,
    /// `(column, contribution to the logit)`.
    pub contributions: Vec<(String, f64)>,
}

impl Fitted {
    /// The trained sub-model for `wanted`, else the trained pattern within it that uses the most
    /// attributes (a full one first on a tie, then the lowest bits); `None` when none is within it.
    pub fn submodel_for(&self, wanted: Pattern) -> Option<&PatternModel> {
        self.submodels
            .iter()
            .filter(|m| m.pattern.within(wanted))
            .max_by_key(|m| {
                (
                    m.pattern.size(),
                    m.pattern.full,
                    std::cmp::Reverse(m.pattern.optional),
                )
            })
    }

    /// Scores one input with the sub-model of its pattern, narrowed to `limit` when one is given
    /// (validation scores the seven fields alone this way). `None` when no sub-model fits, which
    /// a fitted model never gives: the seven-field reduced sub-model is always trained.
    pub fn score(&self, input: &ClinicalInput, limit: Option<Pattern>) -> Option<Scored> {
        let mut wanted = Pattern::of(input);
        if let Some(limit) = limit {
            wanted.full &= limit.full;
            wanted.optional &= limit.optional;
        }
        let chosen = self.submodel_for(wanted)?;
        let raw = encode(input, &self.imputation, chosen.pattern);
        let (logit, contributions) = chosen.model.logit(&raw);
        Some(Scored {
            probability: sigmoid(chosen.model.platt_a * logit + chosen.model.platt_b),
            pattern: chosen.pattern,
            contributions: chosen
                .model
                .features
                .iter()
                .cloned()
                .zip(contributions)
                .collect(),
        })
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
