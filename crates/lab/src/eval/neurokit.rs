//! NeuroKit2's wave delineation of LUDB, the reference row of `cardio eval delineation`.
//!
//! Makowski, D. et al. (2021), "NeuroKit2: A Python toolbox for neurophysiological signal
//! processing", *Behavior Research Methods* 53, 1689-1696. The script
//! `crates/lab/reference/nk_delineate.py` (built into this crate) runs, per lead, `nk.ecg_clean`,
//! `nk.ecg_peaks` and `nk.ecg_delineate(method="dwt")` with the Python of a venv outside the repo
//! (`make neurokit-venv`, pinned in `crates/lab/reference/requirements.txt`; found at
//! `$CARDIO_NEUROKIT_PYTHON`, else `~/.cache/cardio/neurokit-venv/bin/python`), and the
//! boundaries it prints are scored against the same annotations with the same matcher and
//! statistics as ours ([`super::delineation::score_lead`], [`super::delineation::summarise`]).
//! It also times one lead (II) of each record, the best of
//! [`super::delineation::TIMING_REPEATS`] runs, one thread (no BLAS or OpenMP pool), beside our
//! 12-lead reading. Without the venv the
//! row says it was not measured and how to install it; the evaluation still succeeds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::delineation::{
    median_p95, read_lead_reference, score_lead, summarise, Kind, KindRow, RecordRow, Speed, Sums,
    LEADS, TIMING_REPEATS, TOLERANCE_S,
};
use super::EvalError;

/// The script, run with `python -c`.
pub const SCRIPT: &str = include_str!("../../reference/nk_delineate.py");
/// The variable naming the venv's Python.
pub const PYTHON_ENV: &str = "CARDIO_NEUROKIT_PYTHON";
/// The command that installs the venv.
pub const INSTALL: &str = "make neurokit-venv";
/// The lead timed.
pub const TIMING_LEAD: &str = "ii";

/// The venv's Python: `$CARDIO_NEUROKIT_PYTHON`, else `~/.cache/cardio/neurokit-venv/bin/python`.
pub fn python() -> PathBuf {
    if let Some(p) = std::env::var_os(PYTHON_ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".cache/cardio/neurokit-venv/bin/python")
}

/// NeuroKit2's row, or why there is none.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Reference {
    /// Not run: the reason and the command that installs the venv.
    NotMeasured {
        /// Why, in words.
        reason: String,
        /// The command that installs NeuroKit2.
        install: String,
    },
    /// Run and scored.
    Measured(Box<NeuroKitRow>),
}

impl Default for Reference {
    fn default() -> Self {
        Self::NotMeasured {
            reason: "not run".into(),
            install: INSTALL.into(),
        }
    }
}

/// NeuroKit2 scored as our delineator is.
#[derive(Debug, Clone, Serialize)]
pub struct NeuroKitRow {
    /// The row's label, e.g. `NeuroKit2 0.3.0 dwt (reference)`.
    pub label: String,
    /// NeuroKit2's version, as it reports it.
    pub version: String,
    /// Its delineation method.
    pub method: String,
    /// The leads it delineated.
    pub leads_run: Vec<String>,
    /// Records scored.
    pub records: usize,
    /// Leads scored (those with annotations).
    pub leads: usize,
    /// Leads on which NeuroKit2 raised an error (scored as finding nothing).
    pub failed_leads: usize,
    /// One row per kind.
    pub kinds: Vec<KindRow>,
    /// One row per record.
    pub rows: Vec<RecordRow>,
    /// Its time on one lead, beside ours on twelve.
    pub timing: NeuroKitTiming,
    /// Wall time of the whole NeuroKit2 run, s.
    pub seconds: f64,
}

/// NeuroKit2's milliseconds on one lead per record (the best of the repeats; median and 95th
/// percentile over the records), and how many times our 12-lead reading fits in it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct NeuroKitTiming {
    /// The lead timed.
    pub lead: String,
    /// Records timed.
    pub records: usize,
    /// `ecg_clean` + `ecg_peaks` + `ecg_delineate`: median ms.
    pub total_median_ms: Option<f64>,
    /// The same, 95th percentile.
    pub total_p95_ms: Option<f64>,
    /// `ecg_delineate` alone: median ms.
    pub delineate_median_ms: Option<f64>,
    /// The same, 95th percentile.
    pub delineate_p95_ms: Option<f64>,
    /// NeuroKit2's one lead (total) over our full 12-lead reading, medians.
    pub ratio_to_our_reading: Option<f64>,
    /// NeuroKit2's `ecg_delineate` of one lead over our delineation of twelve, medians.
    pub ratio_to_our_delineation: Option<f64>,
}

/// What the script prints.
#[derive(Debug, Clone, Deserialize)]
pub struct ScriptOutput {
    /// NeuroKit2's version.
    pub neurokit2: String,
    /// The method.
    pub method: String,
    /// Per record.
    pub records: BTreeMap<String, ScriptRecord>,
    /// Per record timed.
    #[serde(default)]
    pub timing: Vec<ScriptTiming>,
}

/// One record of the script's output.
#[derive(Debug, Clone, Deserialize)]
pub struct ScriptRecord {
    /// Sampling rate, Hz.
    pub fs: f64,
    /// Per lead: boundary kind ([`Kind::key`]) to samples, or `error` to NeuroKit2's error.
    pub leads: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
}

/// One record's timing in the script's output.
#[derive(Debug, Clone, Deserialize)]
pub struct ScriptTiming {
    /// Record name.
    pub record: String,
    /// Clean + peaks + delineate, ms.
    pub total_ms: f64,
    /// Delineate alone, ms.
    pub delineate_ms: f64,
}

/// Runs NeuroKit2 on every lead of `names` in `dir` (LUDB's `data` folder) and scores it; a
/// [`Reference::NotMeasured`] without the venv or when the run fails (the reason says which).
pub fn reference(dir: &Path, names: &[String], ours: &Speed) -> Reference {
    reference_with(&python(), dir, names, ours)
}

/// As [`reference`], with the Python at `python`.
pub fn reference_with(python: &Path, dir: &Path, names: &[String], ours: &Speed) -> Reference {
    if !python.exists() {
        return Reference::NotMeasured {
            reason: format!(
                "no NeuroKit2 venv at {} (or set {PYTHON_ENV})",
                python.display()
            ),
            install: INSTALL.into(),
        };
    }
    let t = Instant::now();
    let result = run_script(python, dir, names, &LEADS)
        .and_then(|out| score(dir, &out, ours, t.elapsed().as_secs_f64()));
    match result {
        Ok(row) => Reference::Measured(Box::new(row)),
        Err(e) => Reference::NotMeasured {
            reason: e.to_string(),
            install: INSTALL.into(),
        },
    }
}

/// Runs the script with `python` on `leads` of `names`, timing lead II.
///
/// # Errors
/// [`EvalError::Content`] when the script cannot start, fails, or prints what cannot be read.
pub fn run_script(
    python: &Path,
    dir: &Path,
    names: &[String],
    leads: &[&str],
) -> Result<ScriptOutput, EvalError> {
    let out = Command::new(python)
        .arg("-c")
        .arg(SCRIPT)
        .arg(dir)
        .arg("--records")
        .arg(names.join(","))
        .arg("--leads")
        .arg(leads.join(","))
        .arg("--timing-lead")
        .arg(TIMING_LEAD)
        .arg("--repeats")
        .arg(TIMING_REPEATS.to_string())
        // One thread, as ours: no BLAS or OpenMP pool.
        .env("OMP_NUM_THREADS", "1")
        .env("OPENBLAS_NUM_THREADS", "1")
        .env("MKL_NUM_THREADS", "1")
        .output()
        .map_err(|e| EvalError::content(python, format!("cannot run: {e}")))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(EvalError::content(
            python,
            format!(
                "the NeuroKit2 script failed ({}): {}",
                out.status,
                tail.join(" | ")
            ),
        ));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| EvalError::content(python, format!("unreadable output of the script: {e}")))
}

/// The samples under `key` of one lead's output (none when absent or not a list of integers).
fn samples(lead: &BTreeMap<String, serde_json::Value>, key: &str) -> Vec<usize> {
    lead.get(key)
        .and_then(serde_json::Value::as_array)
        .map(|v| {
            v.iter()
                .filter_map(serde_json::Value::as_u64)
                .filter_map(|x| usize::try_from(x).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Scores the script's output against the annotations in `dir`, as our delineator is scored.
///
/// # Errors
/// A read error of an annotation file.
pub fn score(
    dir: &Path,
    out: &ScriptOutput,
    ours: &Speed,
    seconds: f64,
) -> Result<NeuroKitRow, EvalError> {
    let mut rows = Vec::with_capacity(out.records.len());
    let mut leads_scored = 0;
    let mut failed_leads = 0;
    let mut leads_run: Vec<String> = Vec::new();
    let mut names: Vec<&String> = out.records.keys().collect();
    names.sort_by_key(|n| (n.parse::<u64>().unwrap_or(u64::MAX), (*n).clone()));
    for name in names {
        let rec = &out.records[name];
        let tol = (TOLERANCE_S * rec.fs).round() as usize;
        let ms = 1000.0 / rec.fs;
        let mut sums = [Sums::default(); 9];
        for (lead, found) in &rec.leads {
            if !leads_run.contains(lead) {
                leads_run.push(lead.clone());
            }
            let failed = found.contains_key("error");
            let detected: [Vec<usize>; 9] =
                std::array::from_fn(|k| samples(found, Kind::ALL[k].key()));
            let reference = read_lead_reference(dir, name, lead)?;
            let Some(lead_sums) = score_lead(&reference, &detected, tol, ms) else {
                continue;
            };
            leads_scored += 1;
            failed_leads += usize::from(failed);
            for (t, s) in sums.iter_mut().zip(lead_sums) {
                *t += s;
            }
        }
        rows.push(RecordRow {
            record: name.clone(),
            sums,
        });
    }
    leads_run.sort_by_key(|l| LEADS.iter().position(|x| x == l).unwrap_or(LEADS.len()));
    let total: Vec<f64> = out.timing.iter().map(|t| t.total_ms).collect();
    let alone: Vec<f64> = out.timing.iter().map(|t| t.delineate_ms).collect();
    let (total_median_ms, total_p95_ms) = median_p95(&total);
    let (delineate_median_ms, delineate_p95_ms) = median_p95(&alone);
    let ratio =
        |a: Option<f64>, b: Option<f64>| a.zip(b).filter(|(_, b)| *b > 0.0).map(|(a, b)| a / b);
    Ok(NeuroKitRow {
        label: format!("NeuroKit2 {} {} (reference)", out.neurokit2, out.method),
        version: out.neurokit2.clone(),
        method: out.method.clone(),
        leads_run,
        records: rows.len(),
        leads: leads_scored,
        failed_leads,
        kinds: summarise(&rows),
        rows,
        timing: NeuroKitTiming {
            lead: TIMING_LEAD.into(),
            records: out.timing.len(),
            total_median_ms,
            total_p95_ms,
            delineate_median_ms,
            delineate_p95_ms,
            ratio_to_our_reading: ratio(total_median_ms, ours.analyze_median_ms),
            ratio_to_our_delineation: ratio(delineate_median_ms, ours.delineate_median_ms),
        },
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ludb_data() -> Option<PathBuf> {
        let hea = cardio_testkit::dataset_file("ludb/data/1.hea")?;
        Some(hea.parent()?.to_path_buf())
    }

    #[test]
    fn the_annotations_themselves_score_100_percent_with_no_error() {
        let Some(dir) = ludb_data() else {
            return;
        };
        let reference = read_lead_reference(&dir, "1", "ii").unwrap();
        let lead: BTreeMap<String, serde_json::Value> = Kind::ALL
            .iter()
            .map(|k| {
                (
                    k.key().to_owned(),
                    serde_json::json!(reference.by_kind[*k as usize]),
                )
            })
            .collect();
        let out = ScriptOutput {
            neurokit2: "x".into(),
            method: "dwt".into(),
            records: BTreeMap::from([(
                "1".to_owned(),
                ScriptRecord {
                    fs: 500.0,
                    leads: BTreeMap::from([("ii".to_owned(), lead)]),
                },
            )]),
            timing: vec![],
        };
        let row = score(&dir, &out, &Speed::default(), 0.0).unwrap();
        assert_eq!((row.records, row.leads, row.failed_leads), (1, 1, 0));
        assert_eq!(row.leads_run, vec!["ii".to_owned()]);
        for k in &row.kinds {
            if k.counts.tp + k.counts.fn_ > 0 {
                assert_eq!(k.se_pct.value, Some(100.0), "{k:?}");
                assert_eq!(k.ppv_pct.value, Some(100.0), "{k:?}");
                assert_eq!(k.mean_ms.value, Some(0.0), "{k:?}");
            }
        }
    }

    #[test]
    fn a_lead_neurokit2_failed_on_finds_nothing() {
        let Some(dir) = ludb_data() else {
            return;
        };
        let out: ScriptOutput = serde_json::from_value(serde_json::json!({
            "neurokit2": "0.0.0", "method": "dwt",
            "records": {"1": {"fs": 500.0, "leads": {"ii": {"error": "ValueError: no peaks"}}}},
            "timing": [{"record": "1", "total_ms": 40.0, "delineate_ms": 30.0}]
        }))
        .unwrap();
        let ours = Speed {
            analyze_median_ms: Some(4.0),
            delineate_median_ms: Some(3.0),
            ..Speed::default()
        };
        let row = score(&dir, &out, &ours, 0.0).unwrap();
        assert_eq!(row.failed_leads, 1);
        assert_eq!(row.label, "NeuroKit2 0.0.0 dwt (reference)");
        let qrs = row.kinds.iter().find(|k| k.kind == Kind::QrsOn).unwrap();
        assert_eq!(qrs.counts.tp, 0);
        assert!(qrs.counts.fn_ > 0);
        assert_eq!(row.timing.ratio_to_our_reading, Some(10.0));
        assert_eq!(row.timing.ratio_to_our_delineation, Some(10.0));
    }

    #[test]
    fn without_the_venv_the_row_is_not_measured_and_says_how_to_install_it() {
        let r = Reference::default();
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["status"], "not_measured");
        assert_eq!(json["install"], INSTALL);
    }

    #[test]
    fn a_missing_python_is_not_measured_with_its_path_and_the_install_command() {
        let python = Path::new("/nonexistent/neurokit-venv/bin/python");
        let r = reference_with(python, Path::new("/nonexistent"), &[], &Speed::default());
        let Reference::NotMeasured { reason, install } = r else {
            panic!("{r:?}")
        };
        assert!(
            reason.contains("/nonexistent/neurokit-venv/bin/python"),
            "{reason}"
        );
        assert!(reason.contains(PYTHON_ENV), "{reason}");
        assert_eq!(install, INSTALL);
    }

    #[test]
    fn neurokit2_delineates_record_1_when_its_venv_is_there() {
        let (Some(dir), python) = (ludb_data(), python()) else {
            return;
        };
        if !python.exists() {
            return;
        }
        let out = run_script(&python, &dir, &["1".to_owned()], &["ii"]).unwrap();
        let row = score(&dir, &out, &Speed::default(), 0.0).unwrap();
        assert_eq!((row.records, row.leads, row.timing.records), (1, 1, 1));
        let r = row.kinds.iter().find(|k| k.kind == Kind::RPeak).unwrap();
        // Measured: every R peak of lead II found.
        assert!(r.se_pct.value.unwrap() >= 90.0, "{r:?}");
    }
}
