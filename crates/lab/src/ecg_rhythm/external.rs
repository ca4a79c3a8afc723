//! An external check of the committed model on another device, lead and population: the MIT-BIH
//! Arrhythmia Database (`$CARDIO_DATASETS/mitdb`, 48 half-hour two-lead Holter records at 360 Hz;
//! Moody & Mark 2001), cut into consecutive 60-s windows of the lead `pick_lead_by_name` chooses (MLII),
//! each classified on its own and compared with the database's rhythm and beat annotations.
//!
//! Reference per window: `af` when the rhythm annotation is atrial fibrillation (`(AFIB`) throughout;
//! `normal` when it is sinus rhythm (`(N`) throughout and every beat is labelled normal (`N`);
//! `other` when neither AF nor flutter occurs and the window is not `normal` (another rhythm, or any
//! ectopic, bundle-branch-block or other non-`N` beat). Windows mixing AF with another rhythm, with
//! atrial flutter, and the four paced records (102, 104, 107, 217; not an intended use) are left out.
//! MIT-BIH has no "noisy" reference. CIs are percentile bootstraps over records (windows of one record
//! are not independent).

use std::fmt::{self, Write as _};
use std::path::Path;

use cardio_formats::{Channel, Recording};
use serde::{Deserialize, Serialize};

use crate::resample::{draw, percentile_nearest, SplitMix64};
use cardio_models::ecg_lead::pick_lead_by_name as pick_lead;
use cardio_models::ecg_rhythm::{Class, Model, CLASSES};

use super::EcgError;

/// Folder under `$CARDIO_DATASETS`.
pub const SUBDIR: &str = "mitdb";
/// Window length, seconds.
pub const WINDOW_S: f64 = 60.0;
/// Paced records, left out.
pub const PACED: [&str; 4] = ["102", "104", "107", "217"];

/// The reference class of a window (see the module documentation).
fn reference(rhythm_at_start: &str, changes: &[&str], beats: &[&str]) -> Option<Class> {
    let mut rhythms: Vec<&str> = vec![rhythm_at_start];
    rhythms.extend_from_slice(changes);
    let has = |r: &str| rhythms.contains(&r);
    if has("(AFL") {
        return None;
    }
    if has("(AFIB") {
        return rhythms.iter().all(|x| *x == "(AFIB").then_some(Class::Af);
    }
    if rhythms.iter().all(|x| *x == "(N") && beats.iter().all(|b| *b == "N") {
        Some(Class::Normal)
    } else {
        Some(Class::Other)
    }
}

/// Counts and AF screening figures of the external check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExternalReport {
    /// Records used.
    pub records: usize,
    /// Windows classified.
    pub windows: usize,
    /// `counts[reference][predicted]` over normal, af, other (rows) and the four predicted classes.
    pub counts: Vec<Vec<usize>>,
    /// AF windows called AF / AF windows, with 95 % record-bootstrap CI.
    pub af_sensitivity: (f64, f64, f64),
    /// Non-AF windows not called AF / non-AF windows, with CI.
    pub af_specificity: (f64, f64, f64),
    /// Records contributing AF windows.
    pub af_records: usize,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

/// Runs the check.
///
/// # Errors
/// [`EcgError::MissingDataset`] when the folder is missing; [`EcgError::Record`] for a record that
/// cannot be read.
pub fn mitdb(root: &Path, model: &Model) -> Result<ExternalReport, EcgError> {
    let dir = root.join(SUBDIR);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|_| EcgError::MissingDataset {
            path: dir.display().to_string(),
        })?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let p = e.path();
            (p.extension().is_some_and(|x| x == "hea"))
                .then(|| p.file_stem().map(|s| s.to_string_lossy().to_string()))
                .flatten()
        })
        .filter(|n| !PACED.contains(&n.as_str()))
        .collect();
    names.sort();
    // Per record: (reference, predicted) of each window.
    let mut per_record: Vec<Vec<(Class, Class)>> = Vec::new();
    for name in &names {
        let fail = |reason: String| EcgError::Record {
            name: name.clone(),
            reason,
        };
        let rec = cardio_formats::read_path(&dir.join(format!("{name}.hea")))
            .map_err(|e| fail(e.to_string()))?;
        let bytes =
            std::fs::read(dir.join(format!("{name}.atr"))).map_err(|e| fail(e.to_string()))?;
        let ann =
            cardio_formats::wfdb::read_annotations(&bytes).map_err(|e| fail(e.to_string()))?;
        let lead = pick_lead(&rec).ok_or_else(|| fail("no channel".into()))?;
        let fs = rec.sampling_rate_hz;
        let win = (WINDOW_S * fs).round() as usize;
        let samples = &rec.channels[lead].samples;
        let mut out = Vec::new();
        let mut rhythm = String::from("(N");
        let mut idx = 0;
        let mut start = 0usize;
        while start + win <= samples.len() {
            let end = start + win;
            // Rhythm in force at the window start.
            while idx < ann.len() && (ann[idx].sample as usize) < start {
                if let Some(aux) = rhythm_of(&ann[idx]) {
                    rhythm = aux;
                }
                idx += 1;
            }
            let inside: Vec<&cardio_formats::wfdb::Annotation> = ann[idx..]
                .iter()
                .take_while(|a| (a.sample as usize) < end)
                .collect();
            let changes: Vec<String> = inside.iter().filter_map(|a| rhythm_of(a)).collect();
            let change_refs: Vec<&str> = changes.iter().map(String::as_str).collect();
            let beats: Vec<&str> = inside
                .iter()
                .filter(|a| is_beat(&a.symbol))
                .map(|a| a.symbol.as_str())
                .collect();
            if let Some(truth) = reference(&rhythm, &change_refs, &beats) {
                let window = Recording {
                    channels: vec![Channel {
                        name: rec.channels[lead].name.clone(),
                        unit: rec.channels[lead].unit.clone(),
                        samples: samples[start..end].to_vec(),
                    }],
                    sampling_rate_hz: fs,
                    start: None,
                    metadata: std::collections::BTreeMap::new(),
                    device_interpretation: None,
                };
                if let Ok(p) = model.predict(&window) {
                    let pred = CLASSES
                        .into_iter()
                        .find(|c| c.code() == p.label)
                        .unwrap_or(Class::Noisy);
                    out.push((truth, pred));
                }
            }
            start = end;
        }
        per_record.push(out);
    }
    let summarise = |recs: &[&Vec<(Class, Class)>]| {
        let (mut tp, mut pos, mut tn, mut neg) = (0, 0, 0, 0);
        for r in recs {
            for &(t, p) in *r {
                if t == Class::Af {
                    pos += 1;
                    tp += usize::from(p == Class::Af);
                } else {
                    neg += 1;
                    tn += usize::from(p != Class::Af);
                }
            }
        }
        (ratio(tp, pos), ratio(tn, neg))
    };
    let all: Vec<&Vec<(Class, Class)>> = per_record.iter().collect();
    let (se, sp) = summarise(&all);
    let mut rng = SplitMix64::new(0x00EC_6201 ^ 0x3177);
    let (mut ses, mut sps) = (Vec::new(), Vec::new());
    for _ in 0..1000 {
        let pick: Vec<&Vec<(Class, Class)>> = (0..all.len())
            .map(|_| all[draw(&mut rng, all.len())])
            .collect();
        let (a, b) = summarise(&pick);
        if a.is_finite() {
            ses.push(a);
        }
        if b.is_finite() {
            sps.push(b);
        }
    }
    let pct = |mut v: Vec<f64>, q: f64| {
        v.sort_unstable_by(f64::total_cmp);
        percentile_nearest(&v, q)
    };
    let mut counts = vec![vec![0; 4]; 3];
    let row = |c: Class| match c {
        Class::Normal => 0,
        Class::Af => 1,
        _ => 2,
    };
    for r in &per_record {
        for &(t, p) in r {
            counts[row(t)][p.index()] += 1;
        }
    }
    Ok(ExternalReport {
        records: per_record.len(),
        windows: per_record.iter().map(Vec::len).sum(),
        counts,
        af_sensitivity: (se, pct(ses.clone(), 0.025), pct(ses, 0.975)),
        af_specificity: (sp, pct(sps.clone(), 0.025), pct(sps, 0.975)),
        af_records: per_record
            .iter()
            .filter(|r| r.iter().any(|(t, _)| *t == Class::Af))
            .count(),
    })
}

/// The rhythm a rhythm-change annotation (`+` with aux text) starts, without trailing NULs.
fn rhythm_of(a: &cardio_formats::wfdb::Annotation) -> Option<String> {
    if a.symbol != "+" {
        return None;
    }
    a.aux.as_deref().map(|s| {
        s.trim_matches(|c: char| c == '\0' || c.is_whitespace())
            .to_string()
    })
}

/// Whether an annotation symbol is a beat label (`annot(5)` beat codes).
fn is_beat(symbol: &str) -> bool {
    matches!(
        symbol,
        "N" | "L"
            | "R"
            | "a"
            | "V"
            | "F"
            | "J"
            | "A"
            | "S"
            | "E"
            | "j"
            | "/"
            | "Q"
            | "e"
            | "f"
            | "n"
            | "B"
            | "r"
    )
}

impl fmt::Display for ExternalReport {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "External check: MIT-BIH Arrhythmia Database, lead MLII, {} records (paced left out), {} windows of 60 s classified one by one",
            self.records, self.windows
        );
        let _ = writeln!(
            s,
            "\n| reference \\ predicted | normal | af | other | noisy |\n|---|---|---|---|---|"
        );
        for (name, row) in [
            "normal (sinus, all beats N)",
            "af (AFIB throughout)",
            "other (no AF/AFL)",
        ]
        .iter()
        .zip(&self.counts)
        {
            let cells: Vec<String> = row.iter().map(ToString::to_string).collect();
            let _ = writeln!(s, "| {name} | {} |", cells.join(" | "));
        }
        let (se, lo, hi) = self.af_sensitivity;
        let _ = writeln!(
            s,
            "\nAF sensitivity {se:.3} [{lo:.3}-{hi:.3}] ({} records with AF windows); AF specificity {:.3} [{:.3}-{:.3}] (95% CI: bootstrap over records)",
            self.af_records, self.af_specificity.0, self.af_specificity.1, self.af_specificity.2
        );
        out.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_get_the_reference_of_their_rhythm_and_beats() {
        assert_eq!(reference("(AFIB", &[], &["N", "N"]), Some(Class::Af));
        assert_eq!(reference("(N", &["(AFIB"], &["N"]), None);
        assert_eq!(reference("(N", &[], &["N", "N"]), Some(Class::Normal));
        assert_eq!(reference("(N", &[], &["N", "V"]), Some(Class::Other));
        assert_eq!(reference("(SBR", &[], &["N"]), Some(Class::Other));
        assert_eq!(reference("(AFL", &[], &["N"]), None);
    }
}
