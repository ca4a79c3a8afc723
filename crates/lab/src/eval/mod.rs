//! Validation of the signal core against public reference data (what `cardio eval signal` prints).
//!
//! Each part reads one dataset under `$CARDIO_DATASETS` with `cardio-formats`, runs the
//! `cardio-signal` pipeline the product uses, and scores it against the dataset's reference:
//!
//! | module | dataset | reference | figures |
//! |---|---|---|---|
//! | [`qrs`] | MIT-BIH Arrhythmia (`mitdb`) | beat annotations, 150 ms tolerance, VF episodes excluded (ANSI/AAMI EC57) | Se, +P, non-paced and paced apart |
//! | [`ppg_hr`] | BIDMC (`bidmc`) | the monitor's PULSE, 8-s windows every 2 s | MAE, coverage |
//! | [`ppg_hr`] | IEEE SPC 2015 (`ieee_spc2015`) | ECG-derived `BPM0`, 8-s windows every 2 s | MAE per channel and combined |
//! | [`delineation`] | LUDB (`ludb`) | every lead's wave annotations, 150 ms tolerance (`cardio eval delineation`) | Se, PPV, error mean and SD per boundary, bootstrap CIs; ms per 12-lead reading |
//! | [`neurokit`] | LUDB (`ludb`) | the same, for NeuroKit2's `ecg_delineate` (dwt) run from a venv outside the repo | the reference row beside [`delineation`]'s, ms per lead |
//! | [`holter`] | MIT-BIH Arrhythmia (`mitdb`) | rhythm annotations (`(AFIB`), ANSI/AAMI EC57 | AF duration and episode Se, +P, AF burden error per record (`cardio eval holter`) |
//! | [`pcg`] | PhysioNet/CinC 2016 (`cinc2016`) | envelope-autocorrelation heart rate | share usable, S1-rate agreement |
//!
//! Every part returns plain serialisable structs (per-record rows and aggregates) and never prints.
//! A dataset folder that does not exist is [`EvalError::MissingDataset`], so callers can skip it.
//!
//! ```
//! use cardio_lab::eval::{qrs, Counts};
//!
//! let m = qrs::match_beats(&[100, 500, 900], &[102, 480, 1300], 54);
//! assert_eq!(m, Counts { tp: 2, fn_: 1, fp: 1 });
//! assert_eq!(m.sensitivity_pct(), Some(200.0 / 3.0));
//! ```

use std::path::{Path, PathBuf};

use serde::Serialize;

pub mod delineation;
pub mod holter;
pub mod neurokit;
pub mod pcg;
pub mod ppg_hr;
pub mod qrs;

/// Why an evaluation could not run.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The dataset's folder does not exist (not unpacked).
    #[error("dataset {name} not found at {path} (run ../shared/datasets/unpack {name})")]
    MissingDataset {
        /// The dataset's folder name under `$CARDIO_DATASETS`.
        name: &'static str,
        /// Where it was looked for.
        path: PathBuf,
    },
    /// A dataset file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the reader said.
        source: cardio_formats::FormatError,
    },
    /// A dataset file lacks what the evaluation needs (a channel, a matrix).
    #[error("{path}: {reason}")]
    Content {
        /// The file.
        path: PathBuf,
        /// What is missing, in words.
        reason: String,
    },
    /// The signal methods refused a recording.
    #[error("{path}: {source}")]
    Signal {
        /// The file.
        path: PathBuf,
        /// What the signal crate said.
        source: cardio_signal::SignalError,
    },
}

impl EvalError {
    pub(crate) fn read(path: &Path, source: cardio_formats::FormatError) -> Self {
        Self::Read {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn content(path: &Path, reason: impl Into<String>) -> Self {
        Self::Content {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }

    fn signal(path: &Path, source: cardio_signal::SignalError) -> Self {
        Self::Signal {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The folder of a dataset under `root`, or [`EvalError::MissingDataset`].
fn dataset_dir(root: &Path, name: &'static str, sub: &str) -> Result<PathBuf, EvalError> {
    let path = if sub.is_empty() {
        root.join(name)
    } else {
        root.join(name).join(sub)
    };
    if path.is_dir() {
        Ok(path)
    } else {
        Err(EvalError::MissingDataset { name, path })
    }
}

/// Detection counts: true positives, false negatives, false positives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Reference events matched by a detection.
    pub tp: usize,
    /// Reference events without a detection.
    #[serde(rename = "fn")]
    pub fn_: usize,
    /// Detections without a reference event.
    pub fp: usize,
}

impl Counts {
    /// Sensitivity `TP / (TP + FN)` in percent; `None` without reference events.
    pub fn sensitivity_pct(self) -> Option<f64> {
        percent(self.tp, self.tp + self.fn_)
    }

    /// Positive predictivity `TP / (TP + FP)` in percent; `None` without detections.
    pub fn positive_predictivity_pct(self) -> Option<f64> {
        percent(self.tp, self.tp + self.fp)
    }
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Self) {
        self.tp += other.tp;
        self.fn_ += other.fn_;
        self.fp += other.fp;
    }
}

/// `100 * part / whole`, `None` when `whole` is zero.
pub fn percent(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

/// A running mean of absolute errors.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct AbsError {
    /// Sum of `|estimate - reference|`.
    pub sum: f64,
    /// Number of pairs.
    pub n: usize,
}

impl AbsError {
    /// Adds one pair.
    pub fn add(&mut self, estimate: f64, reference: f64) {
        self.sum += (estimate - reference).abs();
        self.n += 1;
    }

    /// Mean absolute error; `None` without pairs.
    pub fn mae(self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }
}

impl std::ops::AddAssign for AbsError {
    fn add_assign(&mut self, other: Self) {
        self.sum += other.sum;
        self.n += other.n;
    }
}

/// Mean absolute error of paired values (`None` when empty); pairs are taken up to the shorter.
pub fn mae(estimates: &[f64], references: &[f64]) -> Option<f64> {
    let mut e = AbsError::default();
    for (a, b) in estimates.iter().zip(references) {
        e.add(*a, *b);
    }
    e.mae()
}

/// Median of the values by the upper-middle rule (`v[n / 2]` of the sorted values); `None` when empty.
fn median(values: &[f64]) -> Option<f64> {
    cardio_signal::stats::median_upper(values)
}

/// Files of `dir` whose name ends with `suffix`, sorted by name.
fn files_ending(dir: &Path, suffix: &str) -> Result<Vec<PathBuf>, EvalError> {
    let entries = std::fs::read_dir(dir).map_err(|source| {
        EvalError::read(
            dir,
            cardio_formats::FormatError::Io {
                path: dir.display().to_string(),
                reason: source,
            },
        )
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(suffix))
        })
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitivity_and_positive_predictivity_are_exact_percentages() {
        let c = Counts {
            tp: 99,
            fn_: 1,
            fp: 3,
        };
        assert_eq!(c.sensitivity_pct(), Some(99.0));
        assert_eq!(c.positive_predictivity_pct(), Some(9900.0 / 102.0));
    }

    #[test]
    fn ratios_without_a_denominator_are_none() {
        let c = Counts::default();
        assert_eq!(c.sensitivity_pct(), None);
        assert_eq!(c.positive_predictivity_pct(), None);
    }

    #[test]
    fn counts_add_up_field_by_field() {
        let mut total = Counts {
            tp: 1,
            fn_: 2,
            fp: 3,
        };
        total += Counts {
            tp: 10,
            fn_: 20,
            fp: 30,
        };
        assert_eq!(
            total,
            Counts {
                tp: 11,
                fn_: 22,
                fp: 33
            }
        );
    }

    #[test]
    fn mae_averages_absolute_differences_over_the_shorter_input() {
        assert_eq!(mae(&[60.0, 70.0, 80.0], &[62.0, 65.0]), Some(3.5));
        assert_eq!(mae(&[], &[1.0]), None);
    }

    #[test]
    fn pooled_absolute_errors_weigh_every_pair_equally() {
        let mut a = AbsError::default();
        a.add(10.0, 11.0);
        let mut b = AbsError::default();
        b.add(0.0, 4.0);
        b.add(5.0, 1.0);
        a += b;
        assert_eq!(a.mae(), Some(3.0));
        assert_eq!(AbsError::default().mae(), None);
    }

    #[test]
    fn median_takes_the_upper_middle_value() {
        assert_eq!(median(&[3.0, 1.0, 2.0, 4.0]), Some(3.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn a_missing_dataset_names_its_folder() {
        let err = dataset_dir(Path::new("/nonexistent/cardio"), "mitdb", "").unwrap_err();
        assert!(matches!(
            err,
            EvalError::MissingDataset { name: "mitdb", .. }
        ));
        assert!(
            err.to_string().contains("/nonexistent/cardio/mitdb"),
            "{err}"
        );
    }
}
