//! Loading the PhysioNet/CinC Challenge 2017 training set (`$CARDIO_DATASETS/cinc2017/training2017`:
//! `REFERENCE.csv` labels and one WFDB record per recording, read with `cardio_formats`) and
//! computing every record's features on at most two threads.

use std::path::{Path, PathBuf};
use std::time::Instant;

use cardio_models::ecg_lead::pick_lead_by_name as pick_lead;
use cardio_models::ecg_rhythm::features::{Extractor, FEATURE_NAMES};
use cardio_models::ecg_rhythm::{mv_per_unit, Class};
use cardio_models::gate::GateModality;

use super::EcgError;
use crate::gate;

/// Folder of the training set under `$CARDIO_DATASETS`.
pub const SUBDIR: &str = "cinc2017/training2017";

/// One labelled record.
#[derive(Debug, Clone, PartialEq)]
pub struct Labelled {
    /// Record name, e.g. `A00001`.
    pub name: String,
    /// Its reference class.
    pub class: Class,
}

/// The feature table of the training set.
#[derive(Debug, Clone)]
pub struct Table {
    /// Record names.
    pub names: Vec<String>,
    /// Feature rows (NaN = missing), in [`FEATURE_NAMES`] order.
    pub x: Vec<Vec<f64>>,
    /// Class indices (see [`Class::index`]).
    pub y: Vec<usize>,
    /// Whether the plausibility gate refuses the record (see [`mark_gated`]; its result is then
    /// `noisy` whatever the classifier says).
    pub gated: Vec<bool>,
    /// Wall-clock seconds spent reading and extracting features.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
}

/// The folder holding the records.
pub fn folder(root: &Path) -> PathBuf {
    root.join(SUBDIR)
}

/// Reads `REFERENCE.csv` (`A00001,N` per line; classes N, A, O, `~`).
///
/// # Errors
/// [`EcgError::MissingDataset`] when the file is not there, [`EcgError::Parse`] for a bad line.
pub fn load_labels(root: &Path) -> Result<Vec<Labelled>, EcgError> {
    let path = folder(root).join("REFERENCE.csv");
    let text = std::fs::read_to_string(&path).map_err(|_| EcgError::MissingDataset {
        path: path.display().to_string(),
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = |reason: &str| EcgError::Parse {
            file: "REFERENCE.csv".into(),
            line: i + 1,
            reason: reason.into(),
        };
        let (name, code) = line.split_once(',').ok_or_else(|| bad("no comma"))?;
        let class = Class::from_cinc(code.trim()).ok_or_else(|| bad("unknown class"))?;
        out.push(Labelled {
            name: name.trim().to_string(),
            class,
        });
    }
    Ok(out)
}

/// Reads one record and computes its features.
///
/// # Errors
/// [`EcgError::Record`] when the file cannot be read or has no usable lead.
pub fn record_features(root: &Path, name: &str, ex: &Extractor) -> Result<Vec<f64>, EcgError> {
    let path = folder(root).join(format!("{name}.hea"));
    let fail = |reason: String| EcgError::Record {
        name: name.to_string(),
        reason,
    };
    let rec = cardio_formats::read_path(&path).map_err(|e| fail(e.to_string()))?;
    let lead = pick_lead(&rec).ok_or_else(|| fail("no channel with data".into()))?;
    let c = &rec.channels[lead];
    let values = ex
        .extract_scaled(&c.samples, mv_per_unit(c), rec.sampling_rate_hz)
        .map(|f| f.values)
        .map_err(|e| fail(e.to_string()))?;
    Ok(values)
}

/// Marks the records the plausibility gate refuses, each judged by a gate trained without it
/// (the gate's own grouped 5-fold CV, `crate::gate::validation`): a refused record is `noisy` in
/// the cross-validation whatever the classifier says.
///
/// # Errors
/// [`EcgError::Record`] when the gate's examples cannot be loaded.
pub fn mark_gated(root: &Path, table: &mut Table) -> Result<(), EcgError> {
    let examples = gate::data::load(root, GateModality::Ecg).map_err(|e| EcgError::Record {
        name: "plausibility gate".into(),
        reason: e.to_string(),
    })?;
    let refused = gate::validation::out_of_fold_refusals(&examples, GateModality::Ecg, "CinC 2017");
    table.gated = table
        .names
        .iter()
        .map(|n| refused.get(n).copied().unwrap_or(false))
        .collect();
    Ok(())
}

/// Computes the features of the given records on up to `threads` threads (at most 2).
///
/// # Errors
/// The first [`EcgError::Record`] met.
pub fn table(root: &Path, records: &[Labelled], threads: usize) -> Result<Table, EcgError> {
    let ex = Extractor::new().map_err(|e| EcgError::Record {
        name: "-".into(),
        reason: e.to_string(),
    })?;
    let threads = threads.clamp(1, 2);
    let start = Instant::now();
    let mut rows: Vec<Option<Result<Vec<f64>, EcgError>>> =
        (0..records.len()).map(|_| None).collect();
    std::thread::scope(|s| {
        let chunks: Vec<Vec<(usize, &Labelled)>> = (0..threads)
            .map(|t| {
                records
                    .iter()
                    .enumerate()
                    .skip(t)
                    .step_by(threads)
                    .collect()
            })
            .collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let ex = &ex;
                s.spawn(move || {
                    chunk
                        .into_iter()
                        .map(|(i, r)| (i, record_features(root, &r.name, ex)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            if let Ok(done) = h.join() {
                for (i, r) in done {
                    rows[i] = Some(r);
                }
            }
        }
    });
    let mut x = Vec::with_capacity(records.len());
    for (row, r) in rows.into_iter().zip(records) {
        let row = row.unwrap_or_else(|| {
            Err(EcgError::Record {
                name: r.name.clone(),
                reason: "feature thread failed".into(),
            })
        })?;
        debug_assert_eq!(row.len(), FEATURE_NAMES.len());
        x.push(row);
    }
    Ok(Table {
        names: records.iter().map(|r| r.name.clone()).collect(),
        x,
        y: records.iter().map(|r| r.class.index()).collect(),
        gated: vec![false; records.len()],
        seconds: start.elapsed().as_secs_f64(),
        threads,
    })
}

/// Labels and features of the whole training set.
///
/// # Errors
/// As [`load_labels`] and [`table`].
pub fn load(root: &Path) -> Result<Table, EcgError> {
    let labels = load_labels(root)?;
    table(root, &labels, 2)
}
