//! The ECG rhythm model ("ecg-rhythm-gbdt"): normal sinus rhythm, atrial fibrillation, other
//! rhythm or too noisy, from one ECG lead of any length and sampling rate, trained and validated on
//! the PhysioNet/Computing in Cardiology Challenge 2017 training set (Clifford et al. 2017). The
//! model card is `cards/ecg-rhythm.md`; the trained parameters are `params/ecg-rhythm.json`,
//! compiled in and parsed once.
//!
//! - [`features`]: the feature row (RR irregularity, heart rate, QRS/P/T morphology of the median
//!   beat, atrial activity after QRST cancellation, quality and spectrum), built on
//!   `cardio-signal`.
//!
//! The classifier is the crate's gradient-boosted trees ([`crate::gbdt`]) with balanced class
//! weights; its capacity is chosen from three settings fixed a priori by an inner 3-fold CV on the
//! training rows only ([`Choice`]). Loading CinC 2017, the training, the stratified 5-fold CV of
//! the card and the external check on MIT-BIH are in `cardio-lab` (`ecg_rhythm`).
//!
//! ```no_run
//! use cardio_models::ecg_rhythm;
//!
//! let rec = cardio_formats::read_path(std::path::Path::new("A00001.hea")).unwrap();
//! let result = ecg_rhythm::model().unwrap().predict(&rec).unwrap();
//! println!("{} ({:.0} %)", result.prediction, 100.0 * result.confidence);
//! ```

pub mod features;
pub mod holter;
pub mod twelve_lead;

use std::io;
use std::sync::OnceLock;

use cardio_formats::{Recording, StreamedRecord};

pub use crate::ecg_lead::{has_unit, mv_per_unit, pick_lead};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::catalogue::{self, whole, Advice};
use crate::gate::{self, GateModality};
use crate::gbdt::{Gbdt, GbdtConfig};
use crate::prediction::{ModelInfo, PredictError, Prediction};
use features::{Extractor, Features, FEATURE_NAMES, MODEL_FS};

/// Identifier of the model in results and parameters.
pub const MODEL_ID: &str = "ecg-rhythm-gbdt";
/// Version of the model; bump it when the features, training or data change.
pub const VERSION: &str = "1.0.0";
/// Training date written into the parameters (a constant so that training is reproducible).
pub const TRAINING_DATE: &str = "2026-11-22";
/// Where `cardio train ecg` writes the parameters.
pub const PARAMS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/params/ecg-rhythm.json");
/// Name of the headline metric in `details.model`.
pub const METRIC: &str = "cv_mean_f1_nao";

/// The committed parameters, compiled in.
const PARAMS_JSON: &str = include_str!("../../params/ecg-rhythm.json");

/// The last recommendation of every result.
pub use crate::prediction::DISCLAIMER;

/// The four rhythm classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Normal sinus rhythm (CinC `N`).
    Normal,
    /// Atrial fibrillation (CinC `A`).
    Af,
    /// Another rhythm (CinC `O`).
    Other,
    /// Too noisy to classify (CinC `~`).
    Noisy,
}

/// The classes in model output order.
pub const CLASSES: [Class; 4] = [Class::Normal, Class::Af, Class::Other, Class::Noisy];

impl Class {
    /// Position in [`CLASSES`] and in the probability vector.
    pub fn index(self) -> usize {
        match self {
            Self::Normal => 0,
            Self::Af => 1,
            Self::Other => 2,
            Self::Noisy => 3,
        }
    }

    /// Machine code: `normal`, `af`, `other`, `noisy`.
    pub fn code(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Af => "af",
            Self::Other => "other",
            Self::Noisy => "noisy",
        }
    }

    /// The challenge's letter: `N`, `A`, `O`, `~`.
    pub fn cinc(self) -> &'static str {
        match self {
            Self::Normal => "N",
            Self::Af => "A",
            Self::Other => "O",
            Self::Noisy => "~",
        }
    }

    /// The class of a challenge letter.
    pub fn from_cinc(code: &str) -> Option<Self> {
        CLASSES.into_iter().find(|c| c.cinc() == code)
    }

    /// Text for the screen.
    pub fn text(self) -> &'static str {
        match self {
            Self::Normal => "Normal sinus rhythm",
            Self::Af => "Atrial fibrillation suspected",
            Self::Other => "Other rhythm abnormality suspected",
            Self::Noisy => "Too noisy to classify",
        }
    }

    /// Plain, guideline-style recommendations for the class (without the final disclaimer), as
    /// catalogue codes.
    pub fn advice(self) -> Vec<Advice> {
        let codes: &[&str] = match self {
            Self::Normal => &["ecg.normal_1", "ecg.normal_2"],
            Self::Af => &["ecg.af_1", "ecg.af_2", "ecg.af_3"],
            Self::Other => &["ecg.other_1", "ecg.other_2"],
            Self::Noisy => &["ecg.noisy_1", "ecg.noisy_2"],
        };
        codes.iter().map(|code| Advice::new(code)).collect()
    }
}

/// What the inner CV found: the challenge score of every candidate and the one chosen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// Inner-CV challenge score of each of the candidate settings (`cardio-lab`, `ecg_rhythm::candidate_configs`).
    pub scores: Vec<f64>,
    /// Index of the best (the first on a tie).
    pub chosen: usize,
}

/// RR intervals whose coefficient of variation is below this are exactly regular, as no heart
/// beats: such a recording is never called atrial fibrillation (it is `noisy`, with the reason).
pub const REGULAR_RR_CV: f64 = 0.003;

/// Seconds of a record on disk read into memory by [`Model::predict_streamed`]: what the 12-lead
/// reading ([`twelve_lead::READING_MAX_S`]), the one-piece judgement ([`features::MAX_SECONDS`])
/// and the lead's quality ([`crate::ecg_lead::QUALITY_SECONDS`]) read.
pub const HEAD_S: f64 = twelve_lead::READING_MAX_S;
const _: () = assert!(
    HEAD_S >= features::MAX_SECONDS && HEAD_S >= crate::ecg_lead::QUALITY_SECONDS,
    "the head holds what the first readings read"
);

/// Index of the largest probability.
pub fn argmax(p: &[f64]) -> usize {
    p.iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i)
}

/// Headline validation figures carried in the parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// CV challenge score (mean F1 of N, A, O).
    pub cv_mean_f1_nao: f64,
    /// Its 95 % bootstrap CI, lower end.
    pub cv_mean_f1_nao_ci_low: f64,
    /// Its 95 % bootstrap CI, upper end.
    pub cv_mean_f1_nao_ci_high: f64,
    /// CV F1 of normal, AF, other, noisy.
    pub cv_f1: Vec<f64>,
    /// CV AF sensitivity (AF vs rest).
    pub cv_af_sensitivity: f64,
    /// CV AF specificity.
    pub cv_af_specificity: f64,
}

/// The committed parameters (`params/ecg-rhythm.json`).
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
    /// Sampling rate the features are computed at, Hz.
    pub model_fs_hz: f64,
    /// Shortest recording accepted, s.
    pub min_seconds: f64,
    /// Longest stretch analysed, s.
    pub max_seconds: f64,
    /// Class codes in probability order.
    pub classes: Vec<String>,
    /// Feature names in row order.
    pub features: Vec<String>,
    /// Boosting settings (chosen by the inner CV on all records).
    pub config: GbdtConfig,
    /// The inner CV's score of every candidate setting on all records.
    pub config_choice: Choice,
    /// Headline validation figures.
    pub validation: Headline,
    /// The fitted trees.
    pub gbdt: Gbdt,
}

/// The loaded model: parameters and the planned feature extractor.
#[derive(Debug, Clone)]
pub struct Model {
    /// The parameters.
    pub params: Params,
    extractor: Extractor,
}

impl Model {
    /// A model from parameters, checking that they match this code's features and classes.
    ///
    /// # Errors
    /// [`PredictError::ModelNotLoaded`] when they do not.
    pub fn new(params: Params) -> Result<Self, PredictError> {
        let names: Vec<&str> = params.features.iter().map(String::as_str).collect();
        if names.as_slice() != FEATURE_NAMES || params.gbdt.n_features != FEATURE_NAMES.len() {
            return Err(PredictError::ModelNotLoaded(
                "the parameters were trained on other features; retrain the ECG rhythm model"
                    .into(),
            ));
        }
        if params.gbdt.n_classes != CLASSES.len() {
            return Err(PredictError::ModelNotLoaded(
                "the parameters have another number of classes".into(),
            ));
        }
        let extractor =
            Extractor::new().map_err(|e| PredictError::ModelNotLoaded(e.to_string()))?;
        Ok(Self { params, extractor })
    }

    /// Class probabilities (in [`CLASSES`] order) of a feature row.
    pub fn probabilities(&self, features: &Features) -> Vec<f64> {
        self.params.gbdt.predict_proba(&features.values)
    }

    /// Classifies the rhythm of a recording: the rhythm model on its best lead ([`pick_lead`];
    /// recordings longer than 60 s are judged on their first 60 s) and, when the channels are
    /// named as standard leads, the 12-lead reading ([`crate::ecg12::analyze`]), made one
    /// decision by [`twelve_lead::decide`] (with three leads or more the rhythm is the 12-lead
    /// statements'; `details` then carry `measurements` and `statements`).
    ///
    /// # Errors
    /// [`PredictError::Unusable`] with the reason and the measured value (no channel with data,
    /// shorter than 9 s and not a multi-lead ECG, sampling rate under 50 Hz, flat line).
    pub fn predict(&self, rec: &Recording) -> Result<Prediction, PredictError> {
        self.predict_for(rec, None)
    }

    /// [`Model::predict`] for a patient of known sex: the 12-lead reading applies the
    /// sex-specific limits (QTc, Cornell voltage, ST elevation in V2-V3); without it, the limits
    /// stricter for specificity.
    ///
    /// # Errors
    /// As [`Model::predict`].
    pub fn predict_for(
        &self,
        rec: &Recording,
        sex: Option<crate::ecg12::Sex>,
    ) -> Result<Prediction, PredictError> {
        let reading = twelve_lead::reading(rec, sex);
        twelve_lead::decide(self.predict_lead(rec), reading.as_ref(), rec)
    }

    /// The rhythm model alone on the recording's best lead (see [`Model::predict`]). A lead
    /// longer than [`features::MAX_SECONDS`] is read whole ([`holter`]): the result rests on every
    /// 30-s window and carries the episodes; a shorter one is judged in one piece.
    ///
    /// # Errors
    /// As [`Model::predict`], without the multi-lead reading.
    pub fn predict_lead(&self, rec: &Recording) -> Result<Prediction, PredictError> {
        let lead = pick_lead(rec).ok_or_else(|| {
            PredictError::Unusable("The recording has no ECG channel with samples.".into())
        })?;
        let first = self.predict_channel(rec, lead);
        if holter::is_long(rec.channels[lead].samples.len(), rec.sampling_rate_hz) {
            holter::whole(self, rec, lead, first)
        } else {
            first
        }
    }

    /// [`Model::predict_for`] of a record on disk (WFDB, ISHNE), opened by
    /// [`cardio_formats::open_path`] with its first [`HEAD_S`] seconds read: the lead is
    /// chosen ([`pick_lead`]) and the 12-lead reading and the one-piece judgement made on those
    /// seconds, which hold all they read, and a long lead is read whole from its file a window and
    /// an hour at a time ([`holter::read_lead`]), never held whole. The result is the one a whole
    /// read gives, but for the lead's choice, made on the first [`HEAD_S`] seconds (a whole read
    /// also weighs how much of each lead is missing over the whole record).
    ///
    /// # Errors
    /// As [`Model::predict`], and [`PredictError::Unusable`] when the file cannot be read.
    pub fn predict_streamed(
        &self,
        rec: &StreamedRecord,
        sex: Option<crate::ecg12::Sex>,
    ) -> Result<Prediction, PredictError> {
        let head = &rec.head;
        let reading = twelve_lead::reading(head, sex);
        let lead = pick_lead(head).ok_or_else(|| {
            PredictError::Unusable("The recording has no ECG channel with samples.".into())
        })?;
        let first = self.predict_channel(head, lead);
        let fs = head.sampling_rate_hz;
        let rhythm = match rec.signals.get(lead) {
            Some(signal) if holter::is_long(rec.n_frames, fs) => {
                let on_disk = holter::OnDisk::new(signal.as_ref(), &head.channels[lead], fs);
                let whole = holter::read_lead(self, &on_disk).map_err(|e| {
                    PredictError::Unusable(format!("The recording could not be read: {e}"))
                })?;
                holter::result::decide(self, head, lead, &whole, first)
            }
            _ => first,
        };
        twelve_lead::decide(rhythm, reading.as_ref(), head)
    }

    /// One stretch of a lead judged (its first [`features::MAX_SECONDS`] s): the features, the
    /// plausibility gate and the classifier, with `noisy` at probability 1 when the gate refused
    /// the stretch or AF was called on exactly regular beats.
    ///
    /// # Errors
    /// [`PredictError::Unusable`] when the stretch cannot be analysed at all (too short, rate too
    /// low, flat, no valid sample).
    pub(crate) fn judge(
        &self,
        samples: &[f64],
        scale: f64,
        fs_hz: f64,
        calibrated: bool,
    ) -> Result<Judged, PredictError> {
        // One piece is its first MAX_SECONDS s, for the gate as for the features (the first
        // result of a day-long lead would otherwise copy and gate the whole day).
        let samples = if fs_hz.is_finite() && fs_hz > 0.0 {
            &samples[..((features::MAX_SECONDS * fs_hz).round() as usize).min(samples.len())]
        } else {
            samples
        };
        let mv: Vec<f64> = samples.iter().map(|v| v * scale).collect();
        let feats = self.extractor.extract_scaled(samples, scale, fs_hz);
        // Rate and length problems are said first; then a lead with no usable samples or one value.
        if matches!(feats, Ok(_) | Err(features::FeatureError::Flat { .. })) {
            if let Some(reason) = gate::impossible(&mv, GateModality::Ecg, 0.5) {
                return Err(PredictError::Unusable(reason));
            }
        }
        let feats = feats.map_err(|e| PredictError::Unusable(e.to_string()))?;
        let verdict =
            gate::gate(GateModality::Ecg)?.judge_calibrated(&gate::held(&mv), fs_hz, calibrated);
        let judged = verdict.plausible.then(|| self.probabilities(&feats));
        // Exactly regular RR intervals, as no heart beats, are never atrial fibrillation.
        let regular_cv = feats
            .measured
            .rr_cv
            .filter(|cv| *cv < REGULAR_RR_CV)
            .filter(|_| {
                judged
                    .as_deref()
                    .is_some_and(|p| argmax(p) == Class::Af.index())
            });
        let p = if let Some(p) = judged.filter(|_| regular_cv.is_none()) {
            p
        } else {
            // Not a plausible ECG, or AF called on exactly regular beats: no rhythm is judged.
            let mut p = vec![0.0; CLASSES.len()];
            p[Class::Noisy.index()] = 1.0;
            p
        };
        Ok(Judged {
            p,
            feats,
            verdict,
            regular_cv,
        })
    }

    /// The rhythm model on lead `lead` judged in one piece (its first [`features::MAX_SECONDS`] s).
    fn predict_channel(&self, rec: &Recording, lead: usize) -> Result<Prediction, PredictError> {
        let channel = &rec.channels[lead];
        let scale = mv_per_unit(channel);
        let Judged {
            p,
            feats,
            verdict,
            regular_cv,
        } = self.judge(
            &channel.samples,
            scale,
            rec.sampling_rate_hz,
            has_unit(channel),
        )?;
        let k = argmax(&p);
        let class = CLASSES[k];
        let mut advice = class.advice();
        let p_af = p[Class::Af.index()];
        if class != Class::Af && p_af >= 0.25 {
            advice.push(Advice::new("ecg.af_not_excluded").with("percent", whole(100.0 * p_af)));
        }
        advice.push(Advice::new("disclaimer"));
        let mut probabilities = Map::new();
        for (c, v) in CLASSES.iter().zip(&p) {
            probabilities.insert(c.code().into(), num(*v));
        }
        let m = &feats.measured;
        let opt = |v: Option<f64>| v.map_or(Value::Null, num);
        // The result never contradicts its details: usable only when the gate passed and the
        // rhythm was judged; a heart rate only when the beats passed their own check.
        let usable = verdict.plausible && class != Class::Noisy;
        let quality_reason = if !verdict.plausible {
            format!("too noisy: {}", verdict.reason)
        } else if let Some(cv) = regular_cv {
            format!(
                "too noisy: the RR intervals are exactly regular (CV {cv:.3}), yet the rhythm classifier called them atrial fibrillation"
            )
        } else if class == Class::Noisy {
            format!(
                "too noisy: the rhythm classifier judged the recording too noisy (probability {:.2})",
                p[k]
            )
        } else {
            verdict.reason.clone()
        };
        let show_beats = usable && m.quality_usable;
        let mut details = Map::new();
        details.insert(
            "model".into(),
            ModelInfo {
                id: self.params.model_id.clone(),
                version: self.params.version.clone(),
                metric: METRIC.into(),
                value: self.params.validation.cv_mean_f1_nao,
            }
            .to_value(),
        );
        details.insert("probabilities".into(), Value::Object(probabilities));
        let beat = |v: Option<f64>| if show_beats { opt(v) } else { Value::Null };
        details.insert("heart_rate_bpm".into(), beat(m.heart_rate_bpm));
        details.insert("beats".into(), json!(m.beats));
        details.insert("sdnn_ms".into(), beat(m.sdnn_ms));
        details.insert("rmssd_ms".into(), beat(m.rmssd_ms));
        details.insert("pnn50_percent".into(), beat(m.pnn50));
        details.insert("rr_cv".into(), beat(m.rr_cv));
        details.insert("qrs_width_ms".into(), beat(m.qrs_width_ms));
        details.insert("pr_interval_ms".into(), beat(m.pr_ms));
        details.insert("p_wave_fraction".into(), beat(m.p_wave_fraction));
        details.insert("quality_score".into(), num(m.quality_score));
        details.insert("quality_usable".into(), json!(usable));
        details.insert("quality".into(), Value::String(quality_reason));
        details.insert(
            "heart_rate_note".into(),
            if show_beats || !usable {
                Value::Null
            } else {
                json!(format!(
                    "The heart rate and intervals are not shown: the beats found do not pass their own check ({}).",
                    m.quality_reason.trim_start_matches("too noisy: ")
                ))
            },
        );
        details.insert("gate".into(), gate::details(&verdict, GateModality::Ecg));
        details.insert("duration_s".into(), num(m.duration_s));
        details.insert("analysed_s".into(), num(m.analysed_s));
        Ok(rhythm_prediction(class, &p, advice, details, rec, lead))
    }
}

/// A rhythm result: `class` with its probability as the confidence, the risk of a rhythm
/// abnormality (the finding screened for: AF or another arrhythmia), and in `details` the lead
/// read and the rates (every ECG rhythm result names them, one window or the whole record).
pub(crate) fn rhythm_prediction(
    class: Class,
    p: &[f64],
    advice: Vec<Advice>,
    mut details: Map<String, Value>,
    rec: &Recording,
    lead: usize,
) -> Prediction {
    details.insert(
        "channel".into(),
        Value::String(rec.channels[lead].name.clone()),
    );
    details.insert("channel_index".into(), json!(lead));
    details.insert("sampling_rate_hz".into(), num(rec.sampling_rate_hz));
    details.insert("model_sampling_rate_hz".into(), num(MODEL_FS));
    Prediction {
        label: class.code().into(),
        prediction: class.text().into(),
        confidence: p[class.index()],
        risk_score: (p[Class::Af.index()] + p[Class::Other.index()]).clamp(0.0, 1.0),
        recommendations: catalogue::english(&advice),
        advice,
        details,
    }
}

/// One stretch of a lead as [`Model::judge`] saw it.
pub(crate) struct Judged {
    /// Class probabilities in [`CLASSES`] order (`noisy` = 1 when no rhythm was judged).
    pub p: Vec<f64>,
    /// The features and measured values.
    pub feats: Features,
    /// The plausibility gate's verdict.
    pub verdict: gate::Verdict,
    /// The RR coefficient of variation when exactly regular beats vetoed an AF call.
    pub regular_cv: Option<f64>,
}

/// A JSON number, or null when not finite.
pub(crate) fn num(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// The committed model, parsed once.
///
/// # Errors
/// [`PredictError::ModelNotLoaded`] when the compiled-in parameters do not parse or do not match
/// this code.
pub fn model() -> Result<&'static Model, PredictError> {
    static MODEL: OnceLock<Result<Model, PredictError>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let params: Params = serde_json::from_str(PARAMS_JSON)
                .map_err(|e| PredictError::ModelNotLoaded(format!("ecg-rhythm parameters: {e}")))?;
            Model::new(params)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The parameters as the committed JSON text: pretty for the first two levels of nesting,
/// compact below (one line per boosting round), with a final newline.
pub fn params_json(p: &Params) -> String {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, Shallow::default());
    if p.serialize(&mut ser).is_err() {
        return String::new();
    }
    let mut s = String::from_utf8(buf).unwrap_or_default();
    s.push('\n');
    s
}

/// A JSON formatter that indents only the outer [`Shallow::LEVELS`] levels.
#[derive(Default)]
struct Shallow {
    depth: usize,
    has_value: bool,
}

impl Shallow {
    const LEVELS: usize = 3;

    fn newline<W: ?Sized + io::Write>(w: &mut W, depth: usize) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn begin<W: ?Sized + io::Write>(&mut self, w: &mut W, open: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(open)
    }

    fn end<W: ?Sized + io::Write>(&mut self, w: &mut W, close: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value && self.depth < Self::LEVELS {
            Self::newline(w, self.depth)?;
        }
        w.write_all(close)
    }

    fn item<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.depth <= Self::LEVELS {
            Self::newline(w, self.depth)?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Shallow {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"[")
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, b"{")
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.depth <= Self::LEVELS {
            b": "
        } else {
            b":"
        })
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_codes_round_trip() {
        for c in CLASSES {
            assert_eq!(Class::from_cinc(c.cinc()), Some(c));
            assert_eq!(CLASSES[c.index()], c);
        }
        assert_eq!(Class::from_cinc("X"), None);
    }

    #[test]
    fn shallow_json_keeps_deep_arrays_on_one_line() {
        #[derive(Serialize)]
        struct T {
            a: u8,
            b: Vec<Vec<Vec<u8>>>,
        }
        let mut buf = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut buf, Shallow::default());
        T {
            a: 1,
            b: vec![vec![vec![1, 2]], vec![]],
        }
        .serialize(&mut ser)
        .unwrap();
        let s = String::from_utf8(buf).unwrap();
        assert_eq!(
            s,
            "{\n  \"a\": 1,\n  \"b\": [\n    [\n      [1,2]\n    ],\n    []\n  ]\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["b"][0][0][1], 2);
    }
}
