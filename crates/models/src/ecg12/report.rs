//! What a 12-lead reading hands on: every lead's beats with their fiducials in seconds
//! ([`LeadBeats`], the `leads` of `cardio analyze`), the measurement keys of a result's `details`
//! ([`measurement_keys`]), the statements, and the rhythm verdict ([`Verdict`]) that becomes the
//! ECG result's one decision when a record has enough leads to read P waves across them.
//!
//! The verdict's probabilities are what the verdict was worth on LUDB (Kalyakulina et al. 2020):
//! of the records where the rules read a sinus rhythm (or AF, or another rhythm), the share whose
//! cardiologists' rhythm was each class ([`VERDICT_COUNTS`], add-one smoothed). LUDB is the rules'
//! development set, so these are development figures; `cardio eval ecg12` recomputes the counts.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::{Ecg12, UNCONFIRMED};

/// Fewest leads for the 12-lead rhythm verdict (P waves read across leads): a 6-lead or 12-lead
/// record; one or two leads stay with the single-lead rhythm model.
pub const MIN_VERDICT_LEADS: usize = 3;

/// What `not_measured` says of a record with one or two leads, whose statements are not given.
pub const FEW_LEADS: &str =
    "interpretation statements: need at least 3 leads; the rhythm is the single-lead model's";

/// One beat's fiducial points, seconds from the record's start (`None` when absent).
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq)]
pub struct BeatFiducials {
    /// P-wave onset.
    pub p_on: Option<f64>,
    /// P-wave peak.
    pub p_peak: Option<f64>,
    /// P-wave offset.
    pub p_off: Option<f64>,
    /// QRS onset.
    pub qrs_on: Option<f64>,
    /// R peak (the beat's main QRS peak).
    pub r_peak: Option<f64>,
    /// QRS offset.
    pub qrs_off: Option<f64>,
    /// T-wave onset.
    pub t_on: Option<f64>,
    /// T-wave peak.
    pub t_peak: Option<f64>,
    /// T-wave end.
    pub t_off: Option<f64>,
}

impl BeatFiducials {
    /// The fiducials of delineated `waves`, whose sample 0 is `offset` samples into the record.
    pub fn of(waves: &cardio_signal::ecg::Waves, offset: usize, fs: f64) -> Self {
        let s = |v: Option<usize>| v.map(|i| round_ms((offset + i) as f64 / fs));
        Self {
            p_on: s(waves.p_on),
            p_peak: s(waves.p_peak),
            p_off: s(waves.p_off),
            qrs_on: s(waves.qrs_on),
            r_peak: s(waves.r_peak),
            qrs_off: s(waves.qrs_off),
            t_on: s(waves.t_on),
            t_peak: s(waves.t_peak),
            t_off: s(waves.t_off),
        }
    }
}

/// One beat's global fiducials across the leads read (CSE convention: the earliest onset and the
/// latest offset another lead supports, see `cardio_signal::ecg::global_fiducials`), seconds from
/// the record's start (`None` when absent).
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq)]
pub struct GlobalBeat {
    /// The beat's position found across leads (its R peak).
    pub r_s: f64,
    /// Earliest P onset.
    pub p_on: Option<f64>,
    /// Earliest QRS onset.
    pub qrs_on: Option<f64>,
    /// Latest QRS offset.
    pub qrs_off: Option<f64>,
    /// Latest T end.
    pub t_off: Option<f64>,
}

impl GlobalBeat {
    /// The beat at sample `beat` with global fiducials `g`, both `offset` samples into the record.
    pub fn of(
        beat: usize,
        g: &cardio_signal::ecg::GlobalFiducials,
        offset: usize,
        fs: f64,
    ) -> Self {
        let s = |v: usize| round_ms((offset + v) as f64 / fs);
        Self {
            r_s: s(beat),
            p_on: g.p_on.map(s),
            qrs_on: g.qrs_on.map(s),
            qrs_off: g.qrs_off.map(s),
            t_off: g.t_off.map(s),
        }
    }
}

/// One lead and its beats.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LeadBeats {
    /// The lead's standard name ("II", "aVR", "V1").
    pub name: &'static str,
    /// Every beat found in the lead's span, in time order.
    pub beats: Vec<BeatFiducials>,
}

/// The record's measurements under the keys of a result's `details.measurements`: every
/// [`super::Measurements`] value but the per-lead amplitudes, rounded as they are shown (whole
/// ms, bpm and degrees; 0.01 mV for the `_mv` voltages).
pub fn measurement_keys(e: &Ecg12) -> Map<String, Value> {
    let Ok(Value::Object(mut m)) = serde_json::to_value(&e.measurements) else {
        return Map::new();
    };
    m.remove("amplitudes");
    for (key, value) in &mut m {
        if let Some(v) = value.as_f64() {
            let shown = if key.ends_with("_mv") {
                (v * 100.0).round() / 100.0
            } else {
                v.round()
            };
            *value = json!(shown);
        }
    }
    m
}

/// The rhythm the statements read, in the rhythm model's classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A sinus rhythm (any rate, with or without sinus arrhythmia) and nothing else.
    Normal,
    /// Atrial fibrillation or flutter.
    Af,
    /// Another rhythm: paced, premature beats, 2nd/3rd-degree AV block, or P waves not read.
    Other,
}

/// The statements that make a rhythm [`Verdict::Other`].
pub const OTHER_RHYTHM: [&str; 5] = [
    "paced_rhythm",
    "pac",
    "pvc",
    "second_degree_av_block",
    "third_degree_av_block",
];

/// The sinus statements.
pub const SINUS: [&str; 4] = [
    "sinus_rhythm",
    "sinus_bradycardia",
    "sinus_tachycardia",
    "sinus_arrhythmia",
];

impl Verdict {
    /// Every verdict, in [`VERDICT_COUNTS`]' order.
    pub const ALL: [Self; 3] = [Self::Normal, Self::Af, Self::Other];

    /// The verdict of a reading's statements.
    pub fn of(e: &Ecg12) -> Self {
        if e.has("atrial_fibrillation") || e.has("atrial_flutter") {
            Self::Af
        } else if OTHER_RHYTHM.iter().any(|c| e.has(c)) || !SINUS.iter().any(|c| e.has(c)) {
            Self::Other
        } else {
            Self::Normal
        }
    }

    /// The rhythm model's label code of this verdict.
    pub fn code(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Af => "af",
            Self::Other => "other",
        }
    }

    /// Probabilities of the cardiologists' rhythm (`normal`, `af`, `other`) given this verdict:
    /// the verdict's row of [`VERDICT_COUNTS`], add-one smoothed.
    pub fn probabilities(self) -> [f64; 3] {
        let row = VERDICT_COUNTS[self as usize];
        let n: usize = row.iter().sum();
        let mut p = [0.0; 3];
        for (out, k) in p.iter_mut().zip(row) {
            *out = (k as f64 + 1.0) / (n as f64 + 3.0);
        }
        p
    }
}

/// LUDB's 200 records: rows the rules' verdict (normal, af, other), columns the cardiologists'
/// rhythm in the same classes (AF or flutter; sinus with extrasystoles, pacing or a 2nd/3rd-degree
/// AV block; otherwise sinus). Recomputed by `cardio eval ecg12`, checked by its test.
pub const VERDICT_COUNTS: [[usize; 3]; 3] = [[158, 1, 4], [0, 14, 0], [7, 3, 13]];

/// The interpretation's entries of a result's `details`: `measurements`, `statements`,
/// `interpretation_status`, `interpretation_category`, `leads_used`, `leads_missing`,
/// `not_measured`, `beats_used`, `beats_excluded`.
pub fn details(e: &Ecg12) -> Map<String, Value> {
    let mut d = Map::new();
    d.insert("measurements".into(), Value::Object(measurement_keys(e)));
    d.insert("statements".into(), json!(e.statements));
    d.insert("interpretation_status".into(), json!(UNCONFIRMED));
    d.insert(
        "interpretation_category".into(),
        e.category.map_or(Value::Null, |c| json!(c)),
    );
    d.insert("leads_used".into(), json!(e.leads_used));
    d.insert("leads_missing".into(), json!(e.leads_missing));
    d.insert("not_measured".into(), json!(e.not_measured));
    d.insert("beats_used".into(), json!(e.beats.used.len()));
    d.insert("beats_excluded".into(), json!(e.beats.excluded.len()));
    d
}

fn round_ms(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}
