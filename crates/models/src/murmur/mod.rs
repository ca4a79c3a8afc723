//! The heart-murmur model: whether a murmur is heard in a heart-sound recording (present, absent,
//! or unknown when the recording does not allow a verdict), per auscultation site and per patient
//! from all of its sites, with the murmur's timing in systole and its Levine grade, learnt from the
//! CirCor DigiScope set (PhysioNet Challenge 2022; `cards/murmur.md`).
//!
//! - [`features`]: the heart-sound model's features and a block of when sound fills systole and
//!   diastole.
//! - [`decision`]: the patient's verdict from its recordings' probabilities.
//! - [`site`]: the auscultation sites.

pub mod decision;
pub mod features;
pub mod site;

use serde::{Deserialize, Serialize};

/// When in systole a murmur is heard (the CirCor annotators' words; a late-systolic murmur, one
/// patient of 942, is read as mid-systolic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    /// Early systole.
    EarlySystolic,
    /// Mid (or late) systole.
    MidSystolic,
    /// All of systole.
    Holosystolic,
}

impl Timing {
    /// Every timing, in the timing model's class order.
    pub const ALL: [Self; 3] = [Self::EarlySystolic, Self::MidSystolic, Self::Holosystolic];

    /// `early-systolic`, `mid-systolic` or `holosystolic`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::EarlySystolic => "early-systolic",
            Self::MidSystolic => "mid-systolic",
            Self::Holosystolic => "holosystolic",
        }
    }

    /// The timing spelled as [`Timing::as_str`] spells it.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

/// The Levine grade of a systolic murmur (CirCor grades I-III of VI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Grade {
    /// I/VI: faint, heard only with effort.
    #[serde(rename = "I/VI")]
    I,
    /// II/VI: soft, heard at once.
    #[serde(rename = "II/VI")]
    II,
    /// III/VI: loud, without a thrill.
    #[serde(rename = "III/VI")]
    III,
}

impl Grade {
    /// Every grade, in the grade model's class order.
    pub const ALL: [Self; 3] = [Self::I, Self::II, Self::III];

    /// `I/VI`, `II/VI` or `III/VI`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::I => "I/VI",
            Self::II => "II/VI",
            Self::III => "III/VI",
        }
    }

    /// The grade spelled as [`Grade::as_str`] spells it.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.as_str() == text)
    }
}

/// Fewest complete heart cycles a recording is read on: two, about 2 s (clinic recordings are often
/// that short; the figures on such recordings are in the card).
pub const MIN_CYCLES: usize = 2;

/// Identifier of the model in results and parameters.
pub const MODEL_ID: &str = "murmur-gbdt";
/// Version of the model; bump it when the features, training or data change.
pub const VERSION: &str = "1.1.0";
/// Training date written into the parameters (a constant so that training is reproducible).
pub const TRAINING_DATE: &str = "2026-11-29";
/// Where `cardio train murmur` writes the parameters.
pub const PARAMS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/murmur.json");
/// Name of the headline metric in results.
pub const METRIC: &str = "cv_weighted_accuracy";

/// The committed parameters, compiled in.
const PARAMS_JSON: &str = include_str!("../../params/murmur.json");

/// Headline validation figures carried in the parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// The Challenge's weighted accuracy over patients, 5-fold CV grouped by child.
    pub cv_weighted_accuracy: f64,
    /// Its 95 % CI, lower end.
    pub cv_weighted_accuracy_ci_low: f64,
    /// Upper end.
    pub cv_weighted_accuracy_ci_high: f64,
    /// Present patients called present.
    pub cv_sensitivity: f64,
    /// Absent patients not called present.
    pub cv_specificity: f64,
}

/// The committed parameters (`params/murmur.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Params {
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
    /// Feature names, in the classifiers' column order.
    pub features: Vec<String>,
    /// The boosting settings used.
    pub gbdt_config: crate::gbdt::GbdtConfig,
    /// Presence: absent, present, unknown ([`decision::CLASSES`]).
    pub presence: crate::gbdt::Gbdt,
    /// Timing ([`Timing::ALL`]).
    pub timing: crate::gbdt::Gbdt,
    /// Grade ([`Grade::ALL`]).
    pub grade: crate::gbdt::Gbdt,
    /// The verdict's thresholds.
    pub thresholds: decision::Thresholds,
    /// Headline validation figures.
    pub validation: Headline,
}

/// One recording's reading.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// Presence probabilities in [`decision::CLASSES`] order.
    pub probabilities: [f64; 3],
    /// The most probable timing, were a murmur there.
    pub timing: Timing,
    /// The most probable grade, were a murmur there.
    pub grade: Grade,
}

impl Reading {
    /// The reading a result's `details.murmur` carries ([`Verdict::recording_value`]); `None` when
    /// the recording was not read (no probabilities) or the value is not one.
    pub fn from_value(value: &serde_json::Value) -> Option<Self> {
        let p = value.get("probabilities")?;
        let mut probabilities = [0.0; 3];
        for (slot, class) in probabilities.iter_mut().zip(decision::CLASSES) {
            *slot = p.get(class.as_str())?.as_f64()?;
        }
        let text = |key: &str| value.get(key).and_then(serde_json::Value::as_str);
        Some(Self {
            probabilities,
            // A recording without a murmur carries no timing or grade; they are only read for the
            // recording that decides a Present verdict, which has them.
            timing: text("timing")
                .and_then(Timing::parse)
                .unwrap_or(Timing::Holosystolic),
            grade: text("grade").and_then(Grade::parse).unwrap_or(Grade::I),
        })
    }
}

/// A loaded model.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    params: Params,
}

/// The model with the committed parameters, parsed once.
///
/// # Errors
/// [`crate::prediction::PredictError::ModelNotLoaded`] when the compiled-in JSON does not parse or
/// does not fit this build's features.
pub fn model() -> Result<&'static Model, crate::prediction::PredictError> {
    static MODEL: std::sync::OnceLock<Result<Model, String>> = std::sync::OnceLock::new();
    MODEL
        .get_or_init(|| {
            let params: Params = serde_json::from_str(PARAMS_JSON).map_err(|e| e.to_string())?;
            Model::new(params)
        })
        .as_ref()
        .map_err(|e| crate::prediction::PredictError::ModelNotLoaded(e.clone()))
}

fn argmax(p: &[f64]) -> usize {
    (0..p.len())
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))
        .unwrap_or(0)
}

impl Model {
    /// A model from parameters, checked against this build's features.
    ///
    /// # Errors
    /// A message when the feature list or a classifier's shape differ from the code's.
    pub fn new(params: Params) -> Result<Self, String> {
        let names = features::feature_names();
        let shapes = [
            (&params.presence, decision::CLASSES.len()),
            (&params.timing, Timing::ALL.len()),
            (&params.grade, Grade::ALL.len()),
        ];
        if params.features != names
            || shapes
                .iter()
                .any(|(m, k)| m.n_features != names.len() || m.n_classes != *k)
        {
            return Err(format!(
                "the murmur parameters do not fit this build ({} features computed)",
                names.len()
            ));
        }
        Ok(Self { params })
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Reads one recording's features (those of [`features::extract`]).
    pub fn read(&self, x: &[f64]) -> Reading {
        let p = self.params.presence.predict_proba(x);
        Reading {
            probabilities: [p[0], p[1], p[2]],
            timing: Timing::ALL[argmax(&self.params.timing.predict_proba(x))],
            grade: Grade::ALL[argmax(&self.params.grade.predict_proba(x))],
        }
    }

    /// Reads one prepared recording whose heart-sound features are already extracted (the
    /// heart-sound model's `predict` does both).
    ///
    /// # Errors
    /// As [`features::timing_block`].
    pub fn read_prepared(
        &self,
        prepared: &crate::pcg_model::features::Prepared,
        extracted: &crate::pcg_model::features::Extracted,
    ) -> Result<Reading, crate::pcg_model::features::PrepareError> {
        let mut x = extracted.values.clone();
        x.extend(features::timing_block(prepared)?);
        Ok(self.read(&x))
    }

    /// The verdict of one patient from its recordings' readings (`None`: not readable).
    pub fn decide(&self, readings: &[Option<Reading>]) -> Verdict {
        let probs: Vec<Option<[f64; 3]>> = readings
            .iter()
            .map(|r| r.as_ref().map(|r| r.probabilities))
            .collect();
        let d = decision::decide(&probs, &self.params.thresholds);
        let loudest = d.loudest.and_then(|i| readings[i].as_ref());
        let present = d.verdict == decision::Verdict::Present;
        Verdict {
            verdict: d.verdict,
            probability: d.probability,
            timing: loudest.filter(|_| present).map(|r| r.timing),
            grade: loudest.filter(|_| present).map(|r| r.grade),
            loudest: d.loudest,
        }
    }
}

/// A patient's (or one recording's) murmur verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// Present, absent or unknown.
    pub verdict: decision::Verdict,
    /// The probability of that verdict (`NaN` when no recording was readable).
    pub probability: f64,
    /// The timing, when present.
    pub timing: Option<Timing>,
    /// The grade, when present.
    pub grade: Option<Grade>,
    /// The recording that decided (index into the input).
    pub loudest: Option<usize>,
}

impl Verdict {
    /// The verdict of a recording that could not be judged: unknown, without a probability.
    pub fn unread() -> Self {
        Self {
            verdict: decision::Verdict::Unknown,
            probability: f64::NAN,
            timing: None,
            grade: None,
            loudest: None,
        }
    }

    /// `{verdict, probability, timing, grade}` as in a result's `details.murmur`.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::json!({
            "verdict": self.verdict.as_str(),
            "probability": if self.probability.is_finite() { serde_json::json!(self.probability) } else { serde_json::Value::Null },
            "timing": self.timing.map(Timing::as_str),
            "grade": self.grade.map(Grade::as_str),
        })
    }

    /// One recording's `details.murmur`: [`Verdict::to_value`] with the reading's probabilities
    /// (`{absent, present, unknown}`), from which a patient's verdict over several recordings is
    /// decided again later ([`Reading::from_value`]); without a reading (a recording not read),
    /// [`Verdict::to_value`] alone.
    pub fn recording_value(&self, reading: Option<&Reading>) -> serde_json::Value {
        let mut value = self.to_value();
        if let (Some(r), Some(map)) = (reading, value.as_object_mut()) {
            let probabilities: serde_json::Map<String, serde_json::Value> = decision::CLASSES
                .iter()
                .zip(r.probabilities)
                .map(|(c, p)| (c.as_str().to_string(), serde_json::json!(p)))
                .collect();
            map.insert("probabilities".into(), probabilities.into());
        }
        value
    }
}

/// The parameters as the committed JSON text (pretty, with a final newline).
pub fn params_json(params: &Params) -> String {
    let mut s = serde_json::to_string_pretty(params).unwrap_or_default();
    s.push('\n');
    s
}
