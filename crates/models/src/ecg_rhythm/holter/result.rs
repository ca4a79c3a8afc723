//! The result of a long ECG read whole: one decision from every window.
//!
//! - **label**: `af` when any AF episode was found; otherwise, among the analysed windows, `other`
//!   when windows called another rhythm cover more time than windows called normal, else
//!   `normal`; `noisy` when no window could be analysed.
//! - **probabilities and confidence**: the mean class probabilities of the windows called that
//!   label (every one of those windows has the label as its likeliest class, so their mean has it
//!   too: the confidence is the probability of the label, and the likeliest).
//! - **details**: `episodes`, `af_burden`, `analysed_s` (the whole record's analysed seconds),
//!   `noisy_s`, `duration_s`; heart rate and RR variability from every beat of the analysed
//!   windows; `heart_rate_summary`, `hourly` and `hrv` (see [`super::trend`]); the morphology
//!   (QRS width, PR interval, P waves) of the first 60 s when they were usable; the quality
//!   sentence says how many windows were analysed.
//! - **advice**: the label's own, then "Atrial fibrillation: N episodes, burden B %, longest L
//!   min" for AF, then how much of the recording was analysed.

use cardio_formats::Recording;
use cardio_signal::hrv;
use serde_json::{json, Map, Value};

use super::classes::{self, BeatClass};
use super::episodes::Kind;
use super::{Reading, Window, WINDOW_S};
use crate::catalogue::{minutes, whole, Advice};
use crate::ecg_rhythm::{num, rhythm_prediction, Class, Model, CLASSES, METRIC};
use crate::prediction::{ModelInfo, PredictError, Prediction};

/// The label of a reading (see the module documentation).
pub fn label(r: &Reading) -> Class {
    if r.episodes.iter().any(|e| e.kind == Kind::Af) {
        return Class::Af;
    }
    let time = |c: Class| -> f64 {
        r.windows
            .iter()
            .filter(|w| w.class == c)
            .map(|w| w.end_s - w.start_s)
            .sum()
    };
    let (normal, other) = (time(Class::Normal), time(Class::Other));
    if normal + other <= 0.0 {
        Class::Noisy
    } else if other > normal {
        Class::Other
    } else {
        Class::Normal
    }
}

fn round(v: f64, decimals: i32) -> Value {
    let k = 10f64.powi(decimals);
    num((v * k).round() / k)
}

/// The classes of the beats outside noisy windows, in order.
fn counted_classes(r: &Reading) -> Vec<BeatClass> {
    let noisy = super::episodes::spans(&r.episodes, Kind::Noisy);
    r.beats
        .iter()
        .zip(&r.classes)
        .filter(|(t, _)| !noisy.iter().any(|&(s, e)| **t >= s && **t < e))
        .map(|(_, c)| *c)
        .collect()
}

/// The RR intervals (s) that start in an analysed window.
fn analysed_rr(r: &Reading) -> Vec<f64> {
    let noisy = super::episodes::spans(&r.episodes, Kind::Noisy);
    r.beats
        .windows(2)
        .filter(|w| !noisy.iter().any(|&(s, e)| w[0] >= s && w[0] < e))
        .map(|w| w[1] - w[0])
        .collect()
}

/// The result of a long lead (see the module documentation).
///
/// # Errors
/// `first`'s error when no window could be analysed and the one-piece reading failed too.
pub fn decide(
    model: &Model,
    rec: &Recording,
    lead: usize,
    r: &Reading,
    first: Result<Prediction, PredictError>,
) -> Result<Prediction, PredictError> {
    let class = label(r);
    let first = match first {
        Err(e) if class == Class::Noisy => return Err(e),
        other => other.ok(),
    };
    let chosen: Vec<&Window> = r.windows.iter().filter(|w| w.class == class).collect();
    let mut p = vec![0.0; CLASSES.len()];
    for w in &chosen {
        for (acc, v) in p.iter_mut().zip(&w.p) {
            *acc += v / chosen.len() as f64;
        }
    }
    let k = class.index();
    let usable = class != Class::Noisy;
    let analysed_windows = r.windows.iter().filter(|w| w.class != Class::Noisy).count();

    let mut advice = class.advice();
    let af = r.of(Kind::Af);
    if class == Class::Af {
        let longest = af
            .iter()
            .map(super::Episode::duration_s)
            .fold(0.0, f64::max);
        advice.push(
            Advice::new("ecg.holter_af")
                .with("episodes", af.len())
                .with("percent", whole(100.0 * r.af_burden))
                .with("longest", minutes(longest)),
        );
    } else if p[Class::Af.index()] >= 0.25 {
        advice.push(
            Advice::new("ecg.af_not_excluded").with("percent", whole(100.0 * p[Class::Af.index()])),
        );
    }
    let counted = counted_classes(r);
    let patterns = classes::patterns::count(&counted);
    let (n_beats, s_beats, v_beats) = classes::counts(&counted);
    if usable && s_beats + v_beats > 0 {
        advice.push(
            Advice::new("ecg.holter_ectopy")
                .with("v", v_beats)
                .with("v_couplets", patterns.v_couplets)
                .with("v_runs", patterns.v_runs)
                .with("s", s_beats)
                .with("s_runs", patterns.s_runs),
        );
    }
    advice.push(
        Advice::new("ecg.holter_analysed")
            .with("total", minutes(r.duration_s))
            .with("analysed", minutes(r.analysed_s))
            .with("noisy", minutes(r.noisy_s)),
    );
    advice.push(Advice::new("disclaimer"));

    let mut details = first.map(|f| f.details).unwrap_or_default();
    details.insert(
        "model".into(),
        ModelInfo {
            id: model.params.model_id.clone(),
            version: model.params.version.clone(),
            metric: METRIC.into(),
            value: model.params.validation.cv_mean_f1_nao,
        }
        .to_value(),
    );
    let mut probabilities = Map::new();
    for (c, v) in CLASSES.iter().zip(&p) {
        probabilities.insert(c.code().into(), num(*v));
    }
    details.insert("probabilities".into(), Value::Object(probabilities));
    let rr = analysed_rr(r);
    let td = if usable {
        hrv::time_domain(&rr.iter().map(|v| v * 1000.0).collect::<Vec<_>>()).ok()
    } else {
        None
    };
    let mut sorted = rr.clone();
    sorted.sort_unstable_by(f64::total_cmp);
    let hr = (usable && !sorted.is_empty()).then(|| 60.0 / sorted[sorted.len() / 2]);
    let opt = |v: Option<f64>, d: i32| v.map_or(Value::Null, |v| round(v, d));
    details.insert("heart_rate_bpm".into(), opt(hr, 1));
    details.insert("beats".into(), json!(if usable { rr.len() + 1 } else { 0 }));
    details.insert("sdnn_ms".into(), opt(td.map(|t| t.sdnn_ms), 1));
    details.insert("rmssd_ms".into(), opt(td.map(|t| t.rmssd_ms), 1));
    details.insert("pnn50_percent".into(), opt(td.map(|t| t.pnn50), 1));
    let cv = td.map(|t| t.sdnn_ms / (1000.0 * cardio_signal::stats::mean(&rr)));
    details.insert("rr_cv".into(), opt(cv, 4));
    // Heart rate minimum/mean/maximum, hourly table and 5-min HRV (`trend.rs`).
    let normal: Vec<bool> = r.classes.iter().map(|c| *c == BeatClass::N).collect();
    details.extend(super::trend::of_reading(r, Some(&normal)).details(usable));
    details.insert(
        "beat_counts".into(),
        if usable {
            json!({"n": n_beats, "s": s_beats, "v": v_beats})
        } else {
            Value::Null
        },
    );
    details.insert(
        "ectopy".into(),
        if usable {
            serde_json::to_value(&patterns).unwrap_or(Value::Null)
        } else {
            Value::Null
        },
    );
    if !usable {
        for key in ["qrs_width_ms", "pr_interval_ms", "p_wave_fraction"] {
            details.insert(key.into(), Value::Null);
        }
    }
    let judged: Vec<&Window> = r
        .windows
        .iter()
        .filter(|w| w.class != Class::Noisy)
        .collect();
    let quality_score = if judged.is_empty() {
        0.0
    } else {
        judged.iter().map(|w| w.quality_score).sum::<f64>() / judged.len() as f64
    };
    details.insert("quality_score".into(), round(quality_score, 4));
    details.insert("quality_usable".into(), json!(usable));
    let quality = if usable {
        format!(
            "usable: {} of {} windows ({:.0} % of the recording) passed the quality check; the others were left out",
            analysed_windows,
            r.windows.len(),
            100.0 * r.analysed_s / r.duration_s.max(1e-9)
        )
    } else {
        format!(
            "too noisy: none of the {} windows of this recording passed the quality check",
            r.windows.len()
        )
    };
    details.insert("quality".into(), json!(quality));
    details.insert("heart_rate_note".into(), Value::Null);
    // The gate's verdict of the window that speaks most for the label.
    let best = chosen
        .iter()
        .filter(|w| !w.gate.is_null())
        .max_by(|a, b| a.p[k].total_cmp(&b.p[k]));
    details.insert(
        "gate".into(),
        best.map_or_else(
            || details.get("gate").cloned().unwrap_or(Value::Null),
            |w| w.gate.clone(),
        ),
    );
    details.insert("duration_s".into(), round(r.duration_s, 3));
    details.insert("analysed_s".into(), round(r.analysed_s, 3));
    details.insert("noisy_s".into(), round(r.noisy_s, 3));
    details.insert("af_burden".into(), round(r.af_burden, 4));
    details.insert("window_s".into(), num(WINDOW_S));
    details.insert("episodes".into(), super::episodes::to_json(&r.episodes));
    Ok(rhythm_prediction(class, &p, advice, details, rec, lead))
}
