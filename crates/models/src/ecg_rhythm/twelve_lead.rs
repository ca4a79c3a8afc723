//! The one decision of an ECG result when the record is read as a 12-lead ECG.
//!
//! Every ECG goes through the single-lead rhythm model (its best lead) and, when its channels are
//! named as standard leads, through the 12-lead reading ([`crate::ecg12`]). The two become one
//! decision here:
//! - **three leads or more** ([`MIN_VERDICT_LEADS`]: a 6-lead or 12-lead record): the rhythm is the
//!   12-lead statements' ([`Verdict`]: P waves read across leads, as a cart reads them), with the
//!   probabilities that verdict earned on LUDB; the single-lead model's own probabilities are kept
//!   under `rhythm_model_probabilities`. A record too short for the model (a cart's 5-s page) is
//!   decided by the 12-lead reading alone, once the plausibility gate has passed its best lead;
//! - **one or two leads**: the rhythm model decides; the reading adds its measurements, and no
//!   statement (one lead cannot place an axis or tell a P wave from noise across leads);
//! - **too noisy** (the gate or the model): no measurement and no statement;
//! - **a long record read whole** ([`super::holter`], `details.episodes`): the rhythm is the whole
//!   record's, never the statements' of its first seconds; the reading adds its measurements and
//!   no statement, whatever the number of leads, and reads only the record's first
//!   [`READING_MAX_S`] seconds ([`reading`]).

use cardio_formats::Recording;
use serde_json::{json, Map, Value};

use super::{argmax, has_unit, mv_per_unit, pick_lead, Class, CLASSES};
use crate::catalogue::{self, Advice};
use crate::ecg12::report::{self, Verdict, MIN_VERDICT_LEADS, VERDICT_COUNTS};
use crate::ecg12::Ecg12;
use crate::gate::{self, GateModality};
use crate::prediction::{ModelInfo, PredictError, Prediction};

/// `details.rhythm_decision` when the 12-lead statements decided the rhythm.
pub const BY_STATEMENTS: &str = "twelve_lead_statements";
/// `details.rhythm_decision` when the single-lead model decided it.
pub const BY_MODEL: &str = "single_lead_model";
/// `details.model.id` of a result the 12-lead reading made alone.
pub const RULES_ID: &str = "ecg12-rules";
/// Version of the 12-lead rules.
pub const RULES_VERSION: &str = "1.0.0";

/// The longest stretch the 12-lead reading reads, s: a longer record (a Holter) is read on its
/// first five minutes. Its rhythm is the whole record's ([`super::holter`]), so the reading gives
/// only its measurements, which the median beat of five minutes gives as well as that of a day,
/// at a 300th of the cost.
pub const READING_MAX_S: f64 = 300.0;

/// The 12-lead reading of `rec` ([`crate::ecg12::analyze`]) on its first [`READING_MAX_S`]
/// seconds; `None` when it cannot be read. A record no longer than that is read whole.
pub fn reading(rec: &Recording, sex: Option<crate::ecg12::Sex>) -> Option<Ecg12> {
    let keep = (READING_MAX_S * rec.sampling_rate_hz).round();
    let long =
        rec.sampling_rate_hz > 0.0 && rec.channels.iter().any(|c| c.samples.len() as f64 > keep);
    if !long {
        return crate::ecg12::analyze(rec, sex).ok();
    }
    let keep = keep as usize;
    let head = Recording {
        channels: rec
            .channels
            .iter()
            .map(|c| cardio_formats::Channel {
                name: c.name.clone(),
                unit: c.unit.clone(),
                samples: c.samples[..keep.min(c.samples.len())].to_vec(),
            })
            .collect(),
        sampling_rate_hz: rec.sampling_rate_hz,
        start: rec.start.clone(),
        metadata: rec.metadata.clone(),
        device_interpretation: rec.device_interpretation.clone(),
    };
    crate::ecg12::analyze(&head, sex).ok()
}

/// The result of a recording from the rhythm model's result on its best lead and the 12-lead
/// reading (if the record has standard leads and could be read).
///
/// # Errors
/// The model's error, unless a multi-lead reading can decide without it.
pub fn decide(
    lead_result: Result<Prediction, PredictError>,
    reading: Option<&Ecg12>,
    rec: &Recording,
) -> Result<Prediction, PredictError> {
    let Some(e) = reading else {
        return lead_result;
    };
    let multi = e.leads_used.len() >= MIN_VERDICT_LEADS;
    match lead_result {
        Ok(p) if p.label == Class::Noisy.code() => Ok(p),
        Ok(mut p) if multi && !p.details.contains_key("episodes") => {
            let model_probabilities = p.details.remove("probabilities");
            apply_verdict(&mut p, e);
            if let Some(v) = model_probabilities {
                p.details.insert("rhythm_model_probabilities".into(), v);
            }
            Ok(p)
        }
        Ok(mut p) => {
            let mut d = report::details(e);
            d.insert("statements".into(), json!([]));
            d.insert("interpretation_category".into(), Value::Null);
            let mut notes = e.not_measured.clone();
            if !multi {
                notes.push(report::FEW_LEADS.into());
            }
            d.insert("not_measured".into(), json!(notes));
            p.details.extend(d);
            p.details.insert("rhythm_decision".into(), json!(BY_MODEL));
            Ok(p)
        }
        Err(PredictError::Unusable(reason)) if multi => alone(e, rec, reason),
        Err(err) => Err(err),
    }
}

/// The verdict's label, probabilities, advice and the reading's details, over `p`.
fn apply_verdict(p: &mut Prediction, e: &Ecg12) {
    let probs = Verdict::of(e).probabilities();
    let k = argmax(&probs);
    let class = [Class::Normal, Class::Af, Class::Other][k];
    let mut advice = advice_12lead(class);
    advice.push(Advice::new("disclaimer"));
    p.label = class.code().into();
    p.prediction = class.text().into();
    p.confidence = probs[k];
    p.risk_score = (probs[1] + probs[2]).clamp(0.0, 1.0);
    p.recommendations = catalogue::english(&advice);
    p.advice = advice;
    let mut probabilities = Map::new();
    for (c, v) in CLASSES.iter().zip(probs.iter().chain(&[0.0])) {
        probabilities.insert(c.code().into(), json!((v * 1e4).round() / 1e4));
    }
    p.details
        .insert("probabilities".into(), Value::Object(probabilities));
    p.details.extend(report::details(e));
    p.details
        .insert("rhythm_decision".into(), json!(BY_STATEMENTS));
}

/// The advice of a class decided on a multi-lead ECG: the same as the single-lead model's, but
/// the ECG to review is this one, not "a 12-lead ECG" still to be made.
fn advice_12lead(class: Class) -> Vec<Advice> {
    let mut advice = class.advice();
    if let Some(first) = advice.first_mut() {
        match class {
            Class::Af => *first = Advice::new("ecg.af_12lead_1"),
            Class::Other => *first = Advice::new("ecg.other_12lead_1"),
            Class::Normal | Class::Noisy => {}
        }
    }
    advice
}

/// A result from the 12-lead reading alone (the rhythm model refused the record, e.g. shorter than
/// its 9 s), once the gate has passed the best lead; otherwise the model's refusal stands.
fn alone(e: &Ecg12, rec: &Recording, refusal: String) -> Result<Prediction, PredictError> {
    let Some(lead) = pick_lead(rec) else {
        return Err(PredictError::Unusable(refusal));
    };
    let channel = &rec.channels[lead];
    let scale = mv_per_unit(channel);
    let mv: Vec<f64> = channel.samples.iter().map(|v| v * scale).collect();
    if gate::impossible(&mv, GateModality::Ecg, 0.5).is_some() {
        return Err(PredictError::Unusable(refusal));
    }
    let verdict = gate::gate(GateModality::Ecg)?.judge_calibrated(
        &gate::held(&mv),
        rec.sampling_rate_hz,
        has_unit(channel),
    );
    if !verdict.plausible {
        return Err(PredictError::Unusable(refusal));
    }
    let duration = rec
        .channels
        .iter()
        .map(|c| c.samples.len())
        .max()
        .unwrap_or(0) as f64
        / rec.sampling_rate_hz;
    let agreement = {
        let hits: usize = (0..3).map(|i| VERDICT_COUNTS[i][i]).sum();
        let n: usize = VERDICT_COUNTS.iter().flatten().sum();
        if n == 0 {
            0.0
        } else {
            hits as f64 / n as f64
        }
    };
    let mut details = Map::new();
    details.insert(
        "model".into(),
        ModelInfo {
            id: RULES_ID.into(),
            version: RULES_VERSION.into(),
            metric: "ludb_rhythm_agreement".into(),
            value: (agreement * 1e4).round() / 1e4,
        }
        .to_value(),
    );
    details.insert(
        "heart_rate_bpm".into(),
        json!(e.measurements.heart_rate_bpm.map(f64::round)),
    );
    details.insert("quality_usable".into(), json!(true));
    details.insert("quality".into(), json!(verdict.reason));
    details.insert("gate".into(), gate::details(&verdict, GateModality::Ecg));
    details.insert("rhythm_model_note".into(), json!(refusal));
    details.insert("duration_s".into(), num(duration));
    details.insert("analysed_s".into(), num(e.seconds));
    details.insert("channel".into(), json!(channel.name));
    details.insert("channel_index".into(), json!(lead));
    details.insert("sampling_rate_hz".into(), num(rec.sampling_rate_hz));
    let mut p = Prediction {
        label: String::new(),
        prediction: String::new(),
        confidence: 0.0,
        risk_score: 0.0,
        recommendations: Vec::new(),
        advice: Vec::new(),
        details,
    };
    apply_verdict(&mut p, e);
    Ok(p)
}

fn num(v: f64) -> Value {
    serde_json::Number::from_f64((v * 1e3).round() / 1e3).map_or(Value::Null, Value::Number)
}
