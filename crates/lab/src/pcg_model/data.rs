//! Loading the PhysioNet/CinC Challenge 2016 training sets (`$CARDIO_DATASETS/cinc2016`, the 1 kHz
//! subset described in its `SOURCE.md`) and extracting every recording's features, two threads at a
//! time.
//!
//! Liu, C., Springer, D., Li, Q., et al. (2016), "An open access database for the evaluation of heart
//! sound algorithms", *Physiological Measurement* 37(12), 2181-2213.

use std::path::{Path, PathBuf};

use cardio_models::pcg_model::features::{self, Extracted};

use super::PcgError;

/// The six training sets (recording sites) of the challenge.
pub const SITES: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

/// One labelled recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Site letter (`a`-`f`).
    pub site: String,
    /// Record name, e.g. `a0001`.
    pub name: String,
    /// Reference label: abnormal (`1`) or normal (`-1`).
    pub abnormal: bool,
    /// The `.wav` file.
    pub path: PathBuf,
}

/// The labelled recordings of `root/cinc2016/training-{a..f}` (sites in order, names as listed).
///
/// # Errors
/// [`PcgError::MissingDataset`] without the folder; [`PcgError::Parse`] on a malformed
/// `REFERENCE.csv` line.
pub fn load(root: &Path) -> Result<Vec<Record>, PcgError> {
    let dir = root.join("cinc2016");
    if !dir.is_dir() {
        return Err(PcgError::MissingDataset {
            path: dir.display().to_string(),
        });
    }
    let mut records = Vec::new();
    for site in SITES {
        let folder = dir.join(format!("training-{site}"));
        let reference = folder.join("REFERENCE.csv");
        let text = std::fs::read_to_string(&reference).map_err(|_| PcgError::MissingDataset {
            path: reference.display().to_string(),
        })?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let parse = |reason: &str| PcgError::Parse {
                file: reference.display().to_string(),
                line: i + 1,
                reason: reason.into(),
            };
            let (name, label) = line.split_once(',').ok_or_else(|| parse("no comma"))?;
            let abnormal = match label.trim() {
                "1" => true,
                "-1" => false,
                _ => return Err(parse("label is neither 1 nor -1")),
            };
            let name = name.trim().to_string();
            records.push(Record {
                site: site.into(),
                path: folder.join(format!("{name}.wav")),
                name,
                abnormal,
            });
        }
    }
    Ok(records)
}

/// The features of one recording file, or the reason it cannot be analysed.
///
/// # Errors
/// [`PcgError::Read`] when the file cannot be read.
pub fn extract_file(path: &Path) -> Result<Result<Extracted, String>, PcgError> {
    let rec = cardio_formats::read_path(path).map_err(|e| PcgError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    Ok(features::prepare(&rec)
        .and_then(|p| features::extract(&p))
        .map_err(|e| e.to_string()))
}

/// What one extraction thread returns: `(record index, features or why not)`.
type Part = Result<Vec<(usize, Result<Extracted, String>)>, PcgError>;

/// Features of every record, in order, on two threads. A recording that cannot be analysed gets the
/// reason instead.
///
/// # Errors
/// [`PcgError::Read`] when a file cannot be read.
pub fn extract_all(records: &[Record]) -> Result<Vec<Result<Extracted, String>>, PcgError> {
    const THREADS: usize = 2;
    let parts: Vec<Part> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    records
                        .iter()
                        .enumerate()
                        .skip(t)
                        .step_by(THREADS)
                        .map(|(i, r)| extract_file(&r.path).map(|e| (i, e)))
                        .collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(PcgError::Read {
                        path: String::new(),
                        reason: "feature thread panicked".into(),
                    })
                })
            })
            .collect()
    });
    let mut out: Vec<Option<Result<Extracted, String>>> = vec![None; records.len()];
    for part in parts {
        for (i, e) in part? {
            out[i] = Some(e);
        }
    }
    Ok(out
        .into_iter()
        .map(|e| e.unwrap_or_else(|| Err("not processed".into())))
        .collect())
}
