//! The rule every model's result keeps: its label, its confidence, its risk band, its
//! recommendations, its quality verdict and every sentence of its details say the same thing.
//! [`contradictions`] lists what breaks the rule in one result; the tests call it for every result
//! they make (real recordings and seeded signals alike).
//!
//! 1. **Label and text**: the label is one of the model's, and the finding shown is the catalogue's
//!    English text of that label.
//! 2. **Confidence**: the probability of the label, as `details.probabilities` gives it, and the
//!    likeliest of the classes the model decides between (for the PPG model, which calls AF at its
//!    own threshold: AF at a probability of at least 0.5, otherwise the likelier of a regular and an
//!    irregular rhythm, with AF below 0.5).
//! 3. **Risk band** (spec §9: low up to 0.4, high above 0.7): a finding to act on is never "Low
//!    Risk", and a normal result never "High Risk".
//! 4. **Quality**: a result that could not be judged (`noisy`, `unsure`) says its quality is not
//!    usable and shows no heart rate; a judged result says it is usable, its quality sentence starts
//!    with "usable", and no sentence of its details says "too noisy" or "unsure".
//! 5. **Recommendations**: the label's own advice first (no advice of another label), the
//!    disclaimer last, the English sentences those of the codes; a regular pulse with windows that
//!    looked like AF never says "no sign of atrial fibrillation".
//! 6. **12-lead statements** (ECG): a normal rhythm never comes with an atrial fibrillation or
//!    flutter statement; atrial fibrillation decided by the statements always comes with one; a
//!    result that could not be judged carries no measurement and no statement.
//! 7. **Murmur** (heart sounds): a result that could not be judged says the murmur is unknown,
//!    unless it is a recording too short for the normal/abnormal decision (its first advice says
//!    so, and only for such a recording) that the murmur model read; a normal result whose murmur
//!    model hears a murmur says so in its first advice, and only then.

use serde_json::{Map, Value};

use crate::catalogue::{self, Language};
use crate::prediction::Prediction;
use crate::Modality;

/// Slack on probabilities that the details round to 4 decimals.
const SLACK: f64 = 6e-4;

/// Risk score above which the band is moderate (spec §9).
pub const LOW_BAND_MAX: f64 = 0.4;
/// Risk score above which the band is high (spec §9).
pub const MODERATE_BAND_MAX: f64 = 0.7;

/// The labels of a model, and what each says: `(label, finding, first advice codes allowed)`,
/// where the finding is `Some(true)` for something to act on, `Some(false)` for a normal result
/// and `None` for a result that could not be judged.
fn labels(m: Modality) -> &'static [(&'static str, Option<bool>, &'static [&'static str])] {
    match m {
        Modality::Ecg => &[
            ("normal", Some(false), &["ecg.normal_1"]),
            ("af", Some(true), &["ecg.af_1", "ecg.af_12lead_1"]),
            ("other", Some(true), &["ecg.other_1", "ecg.other_12lead_1"]),
            ("noisy", None, &["ecg.noisy_1"]),
        ],
        Modality::Pcg => &[
            (
                "normal",
                Some(false),
                &["pcg.normal_1", "pcg.normal_murmur_1"],
            ),
            ("abnormal", Some(true), &["pcg.abnormal_1"]),
            ("unsure", None, &["pcg.unsure_1", "pcg.short_1"]),
        ],
        Modality::Ppg => &[
            (
                "normal",
                Some(false),
                &["ppg.normal_1", "ppg.normal_af_windows"],
            ),
            ("af", Some(true), &["ppg.af_1"]),
            (
                "irregular",
                Some(true),
                &["ppg.irregular_1", "ppg.tachycardia_1"],
            ),
            ("noisy", None, &["ppg.noisy_1"]),
        ],
        Modality::Clinical => &[
            (
                "disease",
                Some(true),
                &["clinical.moderate_1", "clinical.high_1"],
            ),
            (
                "no_disease",
                Some(false),
                &["clinical.low_1", "clinical.moderate_1"],
            ),
        ],
    }
}

fn code(m: Modality) -> &'static str {
    match m {
        Modality::Clinical => "clinical",
        Modality::Ecg => "ecg",
        Modality::Pcg => "pcg",
        Modality::Ppg => "ppg",
    }
}

/// Every string in `v`, with its path (`quality_reason`, `gate.reason`, ...).
fn sentences<'v>(prefix: &str, v: &'v Value, out: &mut Vec<(String, &'v str)>) {
    match v {
        Value::String(s) => out.push((prefix.to_string(), s)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                sentences(&format!("{prefix}[{i}]"), item, out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                sentences(&path, item, out);
            }
        }
        _ => {}
    }
}

fn probability(details: &Map<String, Value>, label: &str) -> Option<f64> {
    details.get("probabilities")?.get(label)?.as_f64()
}

/// What contradicts what in one result of model `m`; empty when nothing does.
pub fn contradictions(m: Modality, p: &Prediction) -> Vec<String> {
    let mut out = Vec::new();
    let Some(&(_, finding, first_codes)) = labels(m).iter().find(|(l, _, _)| *l == p.label) else {
        return vec![format!("unknown label {:?}", p.label)];
    };
    // 1. The text of the label.
    let text = catalogue::finding(Language::En, code(m), &p.label);
    if text != Some(p.prediction.as_str()) {
        out.push(format!(
            "the finding {:?} is not the text of the label {} ({text:?})",
            p.prediction, p.label
        ));
    }
    // 2. The confidence is the probability of the label, the likeliest one.
    for (what, v) in [("confidence", p.confidence), ("risk score", p.risk_score)] {
        if !(0.0..=1.0).contains(&v) {
            out.push(format!("the {what} {v} is not a probability"));
        }
    }
    let d = &p.details;
    if let Some(probs) = d.get("probabilities").and_then(Value::as_object) {
        match probability(d, &p.label) {
            Some(q) if (q - p.confidence).abs() > SLACK => out.push(format!(
                "the confidence {:.4} is not the probability of {} ({q:.4})",
                p.confidence, p.label
            )),
            None => out.push(format!("no probability of the label {}", p.label)),
            _ => {}
        }
        let rivals: Vec<(&str, f64)> = probs
            .iter()
            .filter(|(k, _)| *k != &p.label)
            .filter(|(k, _)| !(m == Modality::Ppg && finding.is_some() && *k == "af"))
            .filter_map(|(k, v)| v.as_f64().map(|v| (k.as_str(), v)))
            .collect();
        for (k, v) in rivals {
            if v > p.confidence + SLACK {
                out.push(format!(
                    "the label {} ({:.4}) is less probable than {k} ({v:.4})",
                    p.label, p.confidence
                ));
            }
        }
        if m == Modality::Ppg {
            let af = probability(d, "af").unwrap_or(0.0);
            let agrees = if p.label == "af" {
                af >= 0.5 - SLACK
            } else {
                af < 0.5 + SLACK
            };
            if !agrees && finding.is_some() {
                out.push(format!(
                    "the label {} disagrees with the probability of AF {af:.4}",
                    p.label
                ));
            }
        }
    }
    // 3. The risk band.
    match finding {
        Some(true) if p.risk_score <= LOW_BAND_MAX => out.push(format!(
            "the finding {} comes with a low risk score ({:.4})",
            p.label, p.risk_score
        )),
        Some(false) if p.risk_score > MODERATE_BAND_MAX => out.push(format!(
            "the normal result {} comes with a high risk score ({:.4})",
            p.label, p.risk_score
        )),
        _ => {}
    }
    // 4. The quality verdict and the sentences of the details.
    if m != Modality::Clinical {
        let usable = d.get("quality_usable").and_then(Value::as_bool);
        if usable != Some(finding.is_some()) {
            out.push(format!(
                "quality usable is {usable:?} for the label {}",
                p.label
            ));
        }
        let quality = d
            .get("quality")
            .or_else(|| d.get("quality_reason"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        if quality.starts_with("usable") != finding.is_some() {
            out.push(format!(
                "the quality sentence {quality:?} for the label {}",
                p.label
            ));
        }
        if finding.is_none() && !d.get("heart_rate_bpm").is_none_or(Value::is_null) {
            out.push(format!("a heart rate is shown for the label {}", p.label));
        }
        if d.get("gate").and_then(|g| g.get("plausible")) == Some(&Value::Bool(false))
            && finding.is_some()
        {
            out.push(format!(
                "the gate refused the recording, yet it is {}",
                p.label
            ));
        }
        if finding.is_some() {
            let mut all = Vec::new();
            for (k, v) in d {
                sentences(k, v, &mut all);
            }
            for (path, s) in all {
                let lower = s.to_lowercase();
                if lower.contains("too noisy") || lower.starts_with("unsure") {
                    out.push(format!("{path} says {s:?}, yet the result is {}", p.label));
                }
            }
        }
    }
    // 6. The 12-lead statements (ECG): a normal rhythm never comes with an AF or flutter
    //    statement, AF decided by the statements always does, and a result that could not be
    //    judged carries no measurement and no statement.
    if m == Modality::Ecg {
        let codes: Vec<&str> = d
            .get("statements")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|s| s.get("code")?.as_str()).collect())
            .unwrap_or_default();
        let af = codes
            .iter()
            .any(|c| *c == "atrial_fibrillation" || *c == "atrial_flutter");
        if p.label == "normal" && af {
            out.push("a normal rhythm with an atrial fibrillation or flutter statement".into());
        }
        let by_statements =
            d.get("rhythm_decision").and_then(Value::as_str) == Some("twelve_lead_statements");
        if p.label == "af" && by_statements && !af {
            out.push("atrial fibrillation without its statement".into());
        }
        if finding.is_none() && (d.contains_key("measurements") || !codes.is_empty()) {
            out.push(format!(
                "measurements or statements are given for the label {}",
                p.label
            ));
        }
    }
    // 7. The murmur (heart sounds): a recording that could not be judged has no murmur verdict
    //    but unknown, unless it was too short for the normal/abnormal decision and read for the
    //    murmur alone; a normal result that hears a murmur says so first.
    if m == Modality::Pcg {
        let verdict = d
            .get("murmur")
            .and_then(|v| v.get("verdict"))
            .and_then(Value::as_str);
        let first = p.advice.first().map(|a| a.code.as_str());
        let short = first == Some("pcg.short_1");
        if finding.is_none() && !short && verdict.is_some_and(|v| v != "unknown") {
            out.push(format!(
                "a murmur verdict {verdict:?} for the label {}",
                p.label
            ));
        }
        let seconds = d.get("duration_s").and_then(Value::as_f64);
        if short && !seconds.is_some_and(|s| s < crate::pcg_model::NORMAL_ABNORMAL_MIN_SECONDS) {
            out.push(format!(
                "the advice of a short recording for a recording of {seconds:?} s"
            ));
        }
        if p.label == "normal"
            && (verdict == Some("present")) != (first == Some("pcg.normal_murmur_1"))
        {
            out.push(format!(
                "the murmur verdict {verdict:?} and the first advice {first:?} disagree"
            ));
        }
    }
    // 5. The recommendations.
    let codes: Vec<&str> = p.advice.iter().map(|a| a.code.as_str()).collect();
    if !codes.first().is_some_and(|c| first_codes.contains(c)) {
        out.push(format!(
            "the advice {codes:?} does not start with the advice of {}",
            p.label
        ));
    }
    if m == Modality::Clinical {
        let band = if p.risk_score > MODERATE_BAND_MAX {
            "clinical.high_1"
        } else if p.risk_score > LOW_BAND_MAX {
            "clinical.moderate_1"
        } else {
            "clinical.low_1"
        };
        if codes.first() != Some(&band) {
            out.push(format!(
                "the advice {codes:?} is not that of the risk band ({band})"
            ));
        }
    }
    if codes.last() != Some(&"disclaimer") {
        out.push(format!(
            "the advice {codes:?} does not end with the disclaimer"
        ));
    }
    for (other, _, theirs) in labels(m) {
        for c in theirs.iter().filter(|c| codes.contains(c)) {
            if *other != p.label && !first_codes.contains(c) {
                out.push(format!(
                    "the advice {c} of {other} is given for {}",
                    p.label
                ));
            }
        }
    }
    if catalogue::english(&p.advice) != p.recommendations {
        out.push("the recommendations are not the sentences of the advice codes".into());
    }
    let af_windows = d.get("af_windows").and_then(Value::as_u64).unwrap_or(0);
    if m == Modality::Ppg && af_windows > 0 && codes.contains(&"ppg.normal_1") {
        out.push(format!(
            "{af_windows} window(s) looked like AF, yet the advice says no sign of atrial fibrillation was found"
        ));
    }
    out
}

/// [`contradictions`], as an error naming them all.
///
/// # Errors
/// The contradictions, one a line, after `what` (the input, for the message).
pub fn check(m: Modality, what: &str, p: &Prediction) -> Result<(), String> {
    let found = contradictions(m, p);
    if found.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{what}: {} {:.3} (risk {:.3}) contradicts itself:\n  {}",
            p.label,
            p.confidence,
            p.risk_score,
            found.join("\n  ")
        ))
    }
}
