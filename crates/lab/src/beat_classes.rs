//! The N / S / V beat classifier of long ECGs (`cardio_models::ecg_rhythm::holter::classes`):
//! its data from the MIT-BIH Arrhythmia Database, its training on DS1 and its scoring as ANSI/AAMI
//! EC57 does.
//!
//! - **Split**: the inter-patient division of de Chazal P, O'Dwyer M, Reilly RB (2004),
//!   "Automatic classification of heartbeats using ECG morphology and heartbeat interval
//!   features", IEEE Trans Biomed Eng 51(7):1196-1206: DS1 trains, DS2 tests, no patient in both;
//!   the paced records 102, 104, 107 and 217 are in neither.
//! - **Classes** (AAMI EC57 from the MIT-BIH symbols): N = `N L R e j`, S = `A a J S`, V = `V E`,
//!   F = `F`, Q = `/ f Q`.
//! - **Beats**: the product's QRS detector on the lead `pick_lead` chooses (MLII), each detected
//!   beat matched to the nearest reference beat within [`MATCH_S`] (150 ms, EC57's window).
//! - **Training**: the detected beats of DS1 matched to an N, S or V reference beat, classes
//!   balanced by weight, trees with settings fixed before any DS2 figure was seen.
//! - **Gross statistics** (EC57): for class C in {S, V}, TP = reference C beats detected and
//!   called C; FN = reference C beats missed or called otherwise; FP = detected beats called C
//!   whose reference is N, the other ectopic class, or nothing (a false detection). Reference F
//!   and Q beats count for neither side (EC57 leaves fusion beats out of the VEB figures; Q beats
//!   cannot be scored).

use std::path::Path;

use cardio_formats::wfdb::read_annotations;
use cardio_models::ecg_lead::{mv_per_unit, pick_lead};
use cardio_models::ecg_rhythm::holter::beats::detect_cleaned;
use cardio_models::ecg_rhythm::holter::classes::{
    features, has_intervals, BeatClass, Classifier, ClassifierParams, NAMES, N_FEATURES,
};
use cardio_models::gbdt::GbdtConfig;
use serde::Serialize;
use serde_json::json;

use crate::eval::EvalError;
use crate::gbdt::{balanced_weights, fit};

/// de Chazal et al. 2004's training records.
pub const DS1: [&str; 22] = [
    "101", "106", "108", "109", "112", "114", "115", "116", "118", "119", "122", "124", "201",
    "203", "205", "207", "208", "209", "215", "220", "223", "230",
];
/// de Chazal et al. 2004's test records.
pub const DS2: [&str; 22] = [
    "100", "103", "105", "111", "113", "117", "121", "123", "200", "202", "210", "212", "213",
    "214", "219", "221", "222", "228", "231", "232", "233", "234",
];
/// A detected beat within this of a reference beat is that beat, s (EC57).
pub const MATCH_S: f64 = 0.15;

/// The trees' settings (fixed before the first DS2 figure).
pub fn config() -> GbdtConfig {
    GbdtConfig {
        rounds: 120,
        learning_rate: 0.1,
        max_depth: 4,
        min_child_weight: 5.0,
        lambda: 1.0,
        subsample: 0.8,
        colsample: 0.8,
        seed: 2004,
    }
}

/// A reference beat's AAMI class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Aami {
    /// Normal.
    N,
    /// Supraventricular ectopic.
    S,
    /// Ventricular ectopic.
    V,
    /// Fusion.
    F,
    /// Unclassifiable or paced.
    Q,
}

/// The AAMI class of a MIT-BIH beat symbol; `None` for non-beat annotations.
pub fn aami(symbol: &str) -> Option<Aami> {
    Some(match symbol {
        "N" | "L" | "R" | "e" | "j" => Aami::N,
        "A" | "a" | "J" | "S" => Aami::S,
        "V" | "E" => Aami::V,
        "F" => Aami::F,
        "/" | "f" | "Q" => Aami::Q,
        _ => return None,
    })
}

/// One record's reference beats, `(time s, class)`, in time order.
///
/// # Errors
/// When the annotation file cannot be read.
pub fn reference(dir: &Path, name: &str, fs: f64) -> Result<Vec<(f64, Aami)>, EvalError> {
    let atr = dir.join(format!("{name}.atr"));
    let bytes = std::fs::read(&atr).map_err(|e| EvalError::content(&atr, e.to_string()))?;
    let ann = read_annotations(&bytes).map_err(|e| EvalError::read(&atr, e))?;
    Ok(ann
        .iter()
        .filter_map(|a| aami(&a.symbol).map(|c| (a.sample as f64 / fs, c)))
        .collect())
}

/// For every detected beat, the index of the reference beat it matches (nearest within
/// [`MATCH_S`], each reference beat matched at most once, in time order).
pub fn match_beats(detected: &[f64], reference: &[(f64, Aami)]) -> Vec<Option<usize>> {
    let mut out = vec![None; detected.len()];
    let mut taken = vec![false; reference.len()];
    let mut j = 0;
    for (i, &t) in detected.iter().enumerate() {
        while j < reference.len() && reference[j].0 < t - MATCH_S {
            j += 1;
        }
        let mut best: Option<usize> = None;
        let mut k = j;
        while k < reference.len() && reference[k].0 <= t + MATCH_S {
            if !taken[k]
                && best.is_none_or(|b| (reference[k].0 - t).abs() < (reference[b].0 - t).abs())
            {
                best = Some(k);
            }
            k += 1;
        }
        if let Some(b) = best {
            taken[b] = true;
            out[i] = Some(b);
        }
    }
    out
}

/// One record's beats: detected times, features and the matched reference class.
pub struct RecordBeats {
    /// Record number.
    pub name: String,
    /// Detected beats, s.
    pub times: Vec<f64>,
    /// Their features.
    pub features: Vec<[f64; N_FEATURES]>,
    /// The reference class each detected beat matches (`None`: a false detection).
    pub truth: Vec<Option<Aami>>,
    /// The reference beats.
    pub reference: Vec<(f64, Aami)>,
    /// For every detected beat, the reference beat it matches.
    pub matches: Vec<Option<usize>>,
}

/// Detects, features and matches the beats of one record.
///
/// # Errors
/// When the record or its annotations cannot be read.
pub fn load(dir: &Path, name: &str) -> Result<RecordBeats, EvalError> {
    let hea = dir.join(format!("{name}.hea"));
    let rec = cardio_formats::read_path(&hea).map_err(|e| EvalError::read(&hea, e))?;
    let lead = pick_lead(&rec).ok_or_else(|| EvalError::content(&hea, "no ECG channel"))?;
    let fs = rec.sampling_rate_hz;
    let channel = &rec.channels[lead];
    let scale = mv_per_unit(channel);
    let mv: Vec<f64> = channel.samples.iter().map(|v| v * scale).collect();
    let (times, cleaned) = detect_cleaned(&mv, fs);
    let feats = features(&cleaned, fs, &times);
    let reference = reference(dir, name, fs)?;
    let matches = match_beats(&times, &reference);
    let truth = matches.iter().map(|m| m.map(|k| reference[k].1)).collect();
    Ok(RecordBeats {
        name: name.to_string(),
        times,
        features: feats,
        truth,
        reference,
        matches,
    })
}

/// The class weights are the balanced weights to this power (1: every class the same total
/// weight; 0: every beat the same).
pub const WEIGHT_POWER: f64 = 1.0;

/// Fits the classifier on `records` (their beats matched to N, S or V).
pub fn train(records: &[&RecordBeats]) -> ClassifierParams {
    train_with(records, WEIGHT_POWER)
}

/// [`train`] with the balanced weights raised to `power`.
pub fn train_with(records: &[&RecordBeats], power: f64) -> ClassifierParams {
    let mut x = Vec::new();
    let mut y = Vec::new();
    for r in records {
        for (f, t) in r.features.iter().zip(&r.truth) {
            let class = match t {
                Some(Aami::N) => BeatClass::N,
                Some(Aami::S) => BeatClass::S,
                Some(Aami::V) => BeatClass::V,
                _ => continue,
            };
            if !has_intervals(f) {
                continue;
            }
            x.push(f.to_vec());
            y.push(class.index());
        }
    }
    let w: Vec<f64> = balanced_weights(&y, 3)
        .into_iter()
        .map(|w| w.powf(power))
        .collect();
    let cfg = config();
    let gbdt = fit(&x, &y, 3, Some(&w), &cfg);
    let per_class: Vec<usize> = (0..3)
        .map(|k| y.iter().filter(|c| **c == k).count())
        .collect();
    ClassifierParams {
        model_id: "beat-classes-gbdt".into(),
        version: "1.1.0".into(),
        features: NAMES.iter().map(|s| (*s).to_string()).collect(),
        gbdt,
        training: json!({
            "data": "MIT-BIH Arrhythmia Database, DS1 of de Chazal et al. 2004",
            "records": records.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
            "beats": {"n": per_class[0], "s": per_class[1], "v": per_class[2]},
            "weights": format!("balanced class weights to the power {power}"),
            "config": cfg,
        }),
    }
}

/// EC57 gross counts of one record for S and V.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Counts {
    /// S: true positives, false negatives, false positives.
    pub s: [usize; 3],
    /// V: true positives, false negatives, false positives.
    pub v: [usize; 3],
}

/// Scores the classes `called` of a record's detected beats against its reference (see the
/// module documentation).
pub fn score(reference: &[(f64, Aami)], matches: &[Option<usize>], called: &[BeatClass]) -> Counts {
    let mut c = Counts::default();
    let mut found = vec![None; reference.len()];
    for (m, &k) in matches.iter().zip(called) {
        if let Some(r) = m {
            found[*r] = Some(k);
        }
    }
    for (class, aami_class, counts) in [
        (BeatClass::S, Aami::S, &mut c.s),
        (BeatClass::V, Aami::V, &mut c.v),
    ] {
        for (r, f) in reference.iter().zip(&found) {
            if r.1 == aami_class {
                if *f == Some(class) {
                    counts[0] += 1;
                } else {
                    counts[1] += 1;
                }
            }
        }
        for (m, &k) in matches.iter().zip(called) {
            if k != class {
                continue;
            }
            match m.map(|r| reference[r].1) {
                Some(a) if a == aami_class => {}
                Some(Aami::F | Aami::Q) => {}
                _ => counts[2] += 1,
            }
        }
    }
    c
}

/// Classifies a loaded record with `model`.
pub fn classify(model: &Classifier, r: &RecordBeats) -> Vec<BeatClass> {
    r.features.iter().map(|f| model.class_of(f)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beats_match_the_nearest_reference_within_150_ms_once() {
        let reference = [(1.0, Aami::N), (1.9, Aami::V), (3.0, Aami::N)];
        let detected = [0.95, 1.05, 1.8, 2.5, 3.1];

        let m = match_beats(&detected, &reference);

        assert_eq!(m, vec![Some(0), None, Some(1), None, Some(2)]);
    }

    #[test]
    fn ec57_counts_leave_fusion_out_and_count_false_detections_against_plus_p() {
        let reference = [
            (1.0, Aami::N),
            (2.0, Aami::V),
            (3.0, Aami::F),
            (4.0, Aami::S),
            (5.0, Aami::V),
        ];
        // Detected: 1.0 (V: FP), 2.0 (V: TP), 3.0 (V on fusion: nothing), 3.5 (false detection,
        // V: FP), 4.0 (N: S missed); 5.0 not detected (V missed).
        let matches = [Some(0), Some(1), Some(2), None, Some(3)];
        let called = [
            BeatClass::V,
            BeatClass::V,
            BeatClass::V,
            BeatClass::V,
            BeatClass::N,
        ];

        let c = score(&reference, &matches, &called);

        assert_eq!(c.v, [1, 1, 2]);
        assert_eq!(c.s, [0, 1, 0]);
    }

    #[test]
    fn mit_bih_symbols_map_to_the_aami_classes() {
        assert_eq!(aami("L"), Some(Aami::N));
        assert_eq!(aami("a"), Some(Aami::S));
        assert_eq!(aami("E"), Some(Aami::V));
        assert_eq!(aami("/"), Some(Aami::Q));
        assert_eq!(aami("+"), None);
    }
}
