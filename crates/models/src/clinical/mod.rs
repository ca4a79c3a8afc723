//! The clinical risk model ("clinical-lr"): the probability of angiographic coronary artery disease
//! from the intake form's seven parameters (spec §3) and whichever of six more UCI attributes are
//! known (sex, resting blood pressure, resting ECG, maximal heart rate, ST depression, ST slope),
//! trained and validated on the UCI Heart Disease data. The model card is `cards/clinical.md`; the
//! trained parameters are `params/clinical.json`, compiled in and parsed once.
//!
//! - [`model`]: feature coding, the pattern sub-models (one per combination of given attributes) and
//!   how an input is scored.
//!
//! The data loader, the training and the validation of the model card are in `cardio-lab`
//! (`clinical`).
//!
//! ```
//! use cardio_models::clinical::{predict, ClinicalInput, ClinicalLabel};
//!
//! let input = ClinicalInput {
//!     age: 63.0,
//!     chest_pain_type: 3,
//!     cholesterol: Some(286.0),
//!     fasting_blood_sugar: Some(100.0),
//!     exercise_induced_angina: Some(1),
//!     vessels_colored_by_flourosopy: Some(2),
//!     thalassemia: Some(2),
//!     ..ClinicalInput::default()
//! };
//! let result = predict(&input).unwrap();
//! assert_eq!(result.label, ClinicalLabel::Disease);
//! assert!(!result.recommendations.is_empty());
//! ```

pub mod model;

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::catalogue::{self, Advice};
use crate::prediction::Prediction;
use model::Fitted;

/// Identifier of the model in results and parameters.
pub const MODEL_ID: &str = "clinical-lr";
/// Version of the model; bump it when the features, training or data change.
pub const VERSION: &str = "2.0.0";
/// Training date written into the parameters (a constant so that training is reproducible).
pub const TRAINING_DATE: &str = "2026-11-26";
/// Probability at or above which the label is `disease`.
pub const THRESHOLD: f64 = 0.5;
/// Where `cardio train clinical` writes the parameters.
pub const PARAMS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/clinical.json");

/// The committed parameters, compiled in.
const PARAMS_JSON: &str = include_str!("../../params/clinical.json");

/// Errors of the clinical model.
#[derive(Debug, thiserror::Error)]
pub enum ClinicalError {
    /// The dataset folder or file is not there.
    #[error("dataset not found: {path} (unpack uci_heart into $CARDIO_DATASETS)")]
    MissingDataset {
        /// The path looked for.
        path: String,
    },
    /// A data file has a malformed line.
    #[error("{file} line {line}: {reason}")]
    Parse {
        /// File name.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// An input value is outside the form's range.
    #[error("{field}: {reason}")]
    OutOfRange {
        /// The snake_case field.
        field: &'static str,
        /// What is allowed.
        reason: String,
    },
    /// The committed parameters cannot be read.
    #[error("clinical model parameters cannot be loaded: {0}")]
    Params(String),
}

/// The patient's sex (UCI `sex`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sex {
    /// UCI `sex = 1`.
    Male,
    /// UCI `sex = 0`.
    Female,
}

/// Resting blood pressure accepted, mm Hg.
pub const RESTING_BLOOD_PRESSURE_RANGE: (f64, f64) = (60.0, 260.0);
/// Maximal heart rate accepted, bpm.
pub const MAX_HEART_RATE_RANGE: (f64, f64) = (50.0, 250.0);
/// ST depression accepted, mm (negative: elevation).
pub const ST_DEPRESSION_RANGE: (f64, f64) = (-5.0, 10.0);

/// The seven clinical parameters of the form (spec §3) and the six optional UCI attributes, `None`
/// where a value is missing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClinicalInput {
    /// Years, 0-120.
    pub age: f64,
    /// 0 typical angina, 1 atypical angina, 2 non-anginal pain, 3 asymptomatic.
    pub chest_pain_type: u8,
    /// Serum cholesterol, mg/dl; 0 is treated as missing (as the UCI data codes it).
    #[serde(default)]
    pub cholesterol: Option<f64>,
    /// Fasting blood sugar, mg/dl; the model uses only whether it is > 120 mg/dl.
    #[serde(default)]
    pub fasting_blood_sugar: Option<f64>,
    /// 0 no, 1 yes.
    #[serde(default)]
    pub exercise_induced_angina: Option<u8>,
    /// Major vessels coloured by fluoroscopy, 0-3 (the spec's spelling of the field).
    #[serde(default)]
    pub vessels_colored_by_flourosopy: Option<u8>,
    /// 0 normal, 1 fixed defect, 2 reversible defect.
    #[serde(default)]
    pub thalassemia: Option<u8>,
    /// Sex (optional).
    #[serde(default)]
    pub sex: Option<Sex>,
    /// Resting blood pressure, mm Hg (optional), [`RESTING_BLOOD_PRESSURE_RANGE`].
    #[serde(default)]
    pub resting_blood_pressure: Option<f64>,
    /// Resting ECG (optional): 0 normal, 1 ST-T wave abnormality, 2 left ventricular hypertrophy.
    #[serde(default)]
    pub resting_ecg: Option<u8>,
    /// Maximal heart rate achieved at exercise, bpm (optional), [`MAX_HEART_RATE_RANGE`].
    #[serde(default)]
    pub max_heart_rate: Option<f64>,
    /// ST depression induced by exercise relative to rest, mm (optional), [`ST_DEPRESSION_RANGE`].
    #[serde(default)]
    pub st_depression: Option<f64>,
    /// Slope of the peak exercise ST segment (optional): 0 upsloping, 1 flat, 2 downsloping.
    #[serde(default)]
    pub st_slope: Option<u8>,
}

impl ClinicalInput {
    /// Checks every value against the form's ranges.
    ///
    /// # Errors
    /// [`ClinicalError::OutOfRange`] naming the first bad field.
    pub fn validate(&self) -> Result<(), ClinicalError> {
        let bad = |field, reason: &str| {
            Err(ClinicalError::OutOfRange {
                field,
                reason: reason.into(),
            })
        };
        if !(self.age.is_finite() && (0.0..=120.0).contains(&self.age)) {
            return bad("age", "must be between 0 and 120 years");
        }
        if self.chest_pain_type > 3 {
            return bad("chest_pain_type", "must be 0, 1, 2 or 3");
        }
        if self.cholesterol.is_some_and(|v| !v.is_finite() || v < 0.0) {
            return bad("cholesterol", "must be 0 or more mg/dl");
        }
        if self
            .fasting_blood_sugar
            .is_some_and(|v| !v.is_finite() || v < 0.0)
        {
            return bad("fasting_blood_sugar", "must be 0 or more mg/dl");
        }
        if self.exercise_induced_angina.is_some_and(|v| v > 1) {
            return bad("exercise_induced_angina", "must be 0 or 1");
        }
        if self.vessels_colored_by_flourosopy.is_some_and(|v| v > 3) {
            return bad("vessels_colored_by_flourosopy", "must be 0 to 3");
        }
        if self.thalassemia.is_some_and(|v| v > 2) {
            return bad("thalassemia", "must be 0, 1 or 2");
        }
        let outside = |v: Option<f64>, (lo, hi): (f64, f64)| {
            v.is_some_and(|v| !(v.is_finite() && (lo..=hi).contains(&v)))
        };
        if outside(self.resting_blood_pressure, RESTING_BLOOD_PRESSURE_RANGE) {
            return bad("resting_blood_pressure", "must be between 60 and 260 mm Hg");
        }
        if self.resting_ecg.is_some_and(|v| v > 2) {
            return bad("resting_ecg", "must be 0, 1 or 2");
        }
        if outside(self.max_heart_rate, MAX_HEART_RATE_RANGE) {
            return bad("max_heart_rate", "must be between 50 and 250 bpm");
        }
        if outside(self.st_depression, ST_DEPRESSION_RANGE) {
            return bad("st_depression", "must be between -5 and 10 mm");
        }
        if self.st_slope.is_some_and(|v| v > 2) {
            return bad("st_slope", "must be 0, 1 or 2");
        }
        Ok(())
    }
}

/// Headline validation figures carried in the parameters (and so in every result's details).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// Repeated 10-fold CV AUROC on Cleveland with the seven form fields.
    pub cv_auroc: f64,
    /// Its 95 % CI, lower end.
    pub cv_auroc_ci_low: f64,
    /// Its 95 % CI, upper end.
    pub cv_auroc_ci_high: f64,
    /// The same with the seven form fields and sex.
    pub cv_auroc_seven_plus_sex: f64,
    /// The same with all thirteen UCI attributes.
    pub cv_auroc_all: f64,
    /// Train Cleveland, test Hungary.
    pub external_cleveland_to_hungary_auroc: f64,
    /// Train Hungary, test Cleveland.
    pub external_hungary_to_cleveland_auroc: f64,
}

/// The committed parameters (`params/clinical.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClinicalParams {
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
    /// [`THRESHOLD`].
    pub threshold: f64,
    /// Imputation and the pattern sub-models.
    pub model: Fitted,
    /// Headline validation figures.
    pub validation: Headline,
}

/// The committed parameters, parsed once.
///
/// # Errors
/// [`ClinicalError::Params`] when the compiled-in JSON does not parse.
pub fn params() -> Result<&'static ClinicalParams, ClinicalError> {
    static PARAMS: OnceLock<Result<ClinicalParams, String>> = OnceLock::new();
    PARAMS
        .get_or_init(|| serde_json::from_str(PARAMS_JSON).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| ClinicalError::Params(e.clone()))
}

/// The machine label of a prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClinicalLabel {
    /// Probability at or above [`THRESHOLD`].
    Disease,
    /// Probability below [`THRESHOLD`].
    NoDisease,
}

impl ClinicalLabel {
    /// `disease` or `no_disease`.
    pub fn code(self) -> &'static str {
        match self {
            Self::Disease => "disease",
            Self::NoDisease => "no_disease",
        }
    }

    /// The text shown as the prediction.
    pub fn text(self) -> &'static str {
        match self {
            Self::Disease => "Coronary artery disease likely",
            Self::NoDisease => "Coronary artery disease unlikely",
        }
    }
}

/// Risk band of the spec (§9): above 0.7 high, above 0.4 moderate, else low.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RiskBand {
    /// risk score <= 0.4.
    Low,
    /// 0.4 < risk score <= 0.7.
    Moderate,
    /// risk score > 0.7.
    High,
}

impl RiskBand {
    /// The band of a risk score.
    pub fn of(risk: f64) -> Self {
        if risk > 0.7 {
            Self::High
        } else if risk > 0.4 {
            Self::Moderate
        } else {
            Self::Low
        }
    }

    /// Plain, guideline-style recommendations for the band, as catalogue codes. Never a diagnosis.
    pub fn advice(self) -> Vec<Advice> {
        let codes: &[&str] = match self {
            Self::Low => &["clinical.low_1", "clinical.low_2", "clinical.low_3"],
            Self::Moderate => &[
                "clinical.moderate_1",
                "clinical.moderate_2",
                "clinical.moderate_3",
            ],
            Self::High => &["clinical.high_1", "clinical.high_2", "clinical.high_3"],
        };
        codes.iter().map(|code| Advice::new(code)).collect()
    }
}

/// One feature's contribution to the model's log-odds, relative to an average training patient.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contribution {
    /// Column name.
    pub feature: String,
    /// `coefficient × standardised value` (log-odds before calibration).
    pub value: f64,
}

/// The result of [`predict`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClinicalPrediction {
    /// Calibrated probability of disease (also the risk score).
    pub probability: f64,
    /// `disease` or `no_disease`.
    pub label: ClinicalLabel,
    /// Text for the screen.
    pub prediction: String,
    /// Probability of the predicted label, `max(p, 1 - p)`.
    pub confidence: f64,
    /// Same as `probability`.
    pub risk_score: f64,
    /// Band of the risk score.
    pub risk_band: RiskBand,
    /// Plain recommendations for the band (and for missing values), in English.
    pub recommendations: Vec<String>,
    /// The same as catalogue codes ([`crate::catalogue`]).
    pub advice: Vec<Advice>,
    /// Per-feature contributions, in the model's column order.
    pub contributions: Vec<Contribution>,
    /// `full` or `reduced` (no `ca`/`thal`).
    pub submodel: String,
    /// The snake_case fields the sub-model scored (a missing cholesterol, blood sugar or exercise
    /// angina is scored as the training average and still listed).
    pub attributes_used: Vec<String>,
    /// The snake_case fields of the thirteen that were not given.
    pub attributes_missing: Vec<String>,
    /// [`MODEL_ID`].
    pub model_id: String,
    /// Version of the parameters.
    pub version: String,
    /// Headline CV AUROC of the model card.
    pub cv_auroc: f64,
}

impl ClinicalPrediction {
    /// The result in the shape of the signal models' ([`Prediction`]): the label's code, the
    /// probabilities of both labels and the risk band under `details`.
    pub fn as_prediction(&self) -> Prediction {
        let mut details = serde_json::Map::new();
        details.insert(
            "probabilities".into(),
            serde_json::json!({"disease": self.probability, "no_disease": 1.0 - self.probability}),
        );
        details.insert(
            "risk_band".into(),
            serde_json::to_value(self.risk_band).unwrap_or_default(),
        );
        Prediction {
            label: self.label.code().into(),
            prediction: self.prediction.clone(),
            confidence: self.confidence,
            risk_score: self.risk_score,
            recommendations: self.recommendations.clone(),
            advice: self.advice.clone(),
            details,
        }
    }
}

/// Predicts with the committed parameters.
///
/// # Errors
/// [`ClinicalError::OutOfRange`] for a value outside the form's ranges, [`ClinicalError::Params`]
/// when the parameters cannot be loaded.
pub fn predict(input: &ClinicalInput) -> Result<ClinicalPrediction, ClinicalError> {
    predict_with(params()?, input)
}

/// Every field of the model, in the order of the API: the seven of the form, then the optional six.
pub const FIELDS: [&str; 13] = [
    "age",
    "chest_pain_type",
    "cholesterol",
    "fasting_blood_sugar",
    "exercise_induced_angina",
    "vessels_colored_by_flourosopy",
    "thalassemia",
    "sex",
    "resting_blood_pressure",
    "resting_ecg",
    "max_heart_rate",
    "st_depression",
    "st_slope",
];

impl ClinicalInput {
    /// The snake_case fields that are given (age and chest pain type always are).
    pub fn given_fields(&self) -> Vec<&'static str> {
        let form = [
            true,
            true,
            self.cholesterol.is_some_and(|c| c > 0.0),
            self.fasting_blood_sugar.is_some(),
            self.exercise_induced_angina.is_some(),
            self.vessels_colored_by_flourosopy.is_some(),
            self.thalassemia.is_some(),
        ];
        let optional = model::Attribute::ALL.map(|a| a.given(self));
        FIELDS
            .iter()
            .zip(form.into_iter().chain(optional))
            .filter_map(|(f, g)| g.then_some(*f))
            .collect()
    }
}

/// Predicts with given parameters.
///
/// # Errors
/// [`ClinicalError::OutOfRange`] for a value outside the form's ranges, [`ClinicalError::Params`]
/// when the parameters hold no sub-model for the input (never for the committed ones).
pub fn predict_with(
    params: &ClinicalParams,
    input: &ClinicalInput,
) -> Result<ClinicalPrediction, ClinicalError> {
    input.validate()?;
    let scored = params
        .model
        .score(input, None)
        .ok_or_else(|| ClinicalError::Params("no sub-model for these fields".into()))?;
    let p = scored.probability;
    let label = if p >= params.threshold {
        ClinicalLabel::Disease
    } else {
        ClinicalLabel::NoDisease
    };
    let band = RiskBand::of(p);
    let mut advice = band.advice();
    if !scored.pattern.full {
        advice.push(Advice::new("clinical.reduced_model"));
    }
    let given = input.given_fields();
    let used = scored.pattern.fields();
    advice.push(Advice::new("disclaimer"));
    let recommendations = catalogue::english(&advice);
    Ok(ClinicalPrediction {
        probability: p,
        label,
        prediction: label.text().into(),
        confidence: p.max(1.0 - p),
        risk_score: p,
        risk_band: band,
        recommendations,
        advice,
        contributions: scored
            .contributions
            .into_iter()
            .map(|(feature, value)| Contribution { feature, value })
            .collect(),
        submodel: if scored.pattern.full {
            "full"
        } else {
            "reduced"
        }
        .into(),
        attributes_used: used.iter().map(|f| (*f).to_string()).collect(),
        attributes_missing: FIELDS
            .iter()
            .filter(|f| !given.contains(f))
            .map(|f| (*f).to_string())
            .collect(),
        model_id: params.model_id.clone(),
        version: params.version.clone(),
        cv_auroc: params.validation.cv_auroc,
    })
}

/// The parameters as the committed JSON text (pretty, with a final newline).
pub fn params_json(params: &ClinicalParams) -> String {
    let mut s = serde_json::to_string_pretty(params).unwrap_or_default();
    s.push('\n');
    s
}
