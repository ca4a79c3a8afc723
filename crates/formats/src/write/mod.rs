//! Writers: a [`Recording`] as EDF+, as a WFDB record or as CSV, so that any ECG this crate reads
//! can be handed to other tools (`cardio convert IN OUT`).
//!
//! | module | writes | specification |
//! |---|---|---|
//! | [`edf`] | EDF+ continuous (`EDF+C`), 16-bit, with the time-keeping annotation signal | Kemp and Olivan 2003 |
//! | [`wfdb`] | a WFDB record: `.hea` header and one format-16 `.dat` signal file | PhysioNet `header(5)`, `signal(5)` |
//! | [`csv`] | a `time_s` column, then one column per lead in mV | RFC 4180 |
//!
//! Every writer checks what it is given (a positive rate, at least one channel, finite physical
//! limits) and returns [`FormatError::CannotWrite`] rather than panicking. Each is tested by
//! reading its output back with this crate's own readers.

use std::path::{Path, PathBuf};

use crate::{FormatError, Recording};

pub mod csv;
pub mod edf;
pub mod wfdb;

/// The formats the writers produce, chosen by the output file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// `.edf`: EDF+ continuous.
    Edf,
    /// `.hea`: a WFDB record (the `.dat` beside it, same stem).
    Wfdb,
    /// `.csv`: time and leads in mV.
    Csv,
}

impl OutputFormat {
    /// The format named by `path`'s extension (ASCII case-insensitive), if any.
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "edf" => Some(Self::Edf),
            "hea" => Some(Self::Wfdb),
            "csv" => Some(Self::Csv),
            _ => None,
        }
    }
}

/// Writes `recording` to `path` in the format its extension names; returns the files written
/// (for WFDB the `.hea` and the `.dat` beside it).
///
/// # Errors
/// [`FormatError::CannotWrite`] for an extension none of the writers handles, a recording they
/// cannot represent, or a file that cannot be written.
pub fn write_path(recording: &Recording, path: &Path) -> Result<Vec<PathBuf>, FormatError> {
    let shown = path.display().to_string();
    let Some(format) = OutputFormat::from_path(path) else {
        return Err(cannot_write(
            &shown,
            "the output's extension must be .edf, .hea (WFDB) or .csv",
        ));
    };
    let save = |file: &Path, bytes: &[u8]| {
        std::fs::write(file, bytes)
            .map_err(|e| cannot_write(&file.display().to_string(), e.to_string()))
    };
    match format {
        OutputFormat::Edf => {
            save(
                path,
                &edf::write(recording).map_err(|e| relabel(e, &shown))?,
            )?;
            Ok(vec![path.to_path_buf()])
        }
        OutputFormat::Csv => {
            save(
                path,
                csv::write(recording)
                    .map_err(|e| relabel(e, &shown))?
                    .as_bytes(),
            )?;
            Ok(vec![path.to_path_buf()])
        }
        OutputFormat::Wfdb => {
            let record = path
                .file_stem()
                .and_then(|s| s.to_str())
                .filter(|s| !s.is_empty() && !s.contains(char::is_whitespace))
                .ok_or_else(|| {
                    cannot_write(
                        &shown,
                        "a WFDB record name must be a file stem without spaces",
                    )
                })?;
            let (header, data) = wfdb::write(recording, record).map_err(|e| relabel(e, &shown))?;
            let dat = path.with_extension("dat");
            save(&dat, &data)?;
            save(path, header.as_bytes())?;
            Ok(vec![path.to_path_buf(), dat])
        }
    }
}

pub(crate) fn cannot_write(path: &str, reason: impl Into<String>) -> FormatError {
    FormatError::CannotWrite {
        path: path.to_string(),
        reason: reason.into(),
    }
}

/// Names the output file in an error a writer raised without knowing it.
fn relabel(err: FormatError, path: &str) -> FormatError {
    match err {
        FormatError::CannotWrite { reason, .. } => cannot_write(path, reason),
        other => other,
    }
}

/// The checks every writer makes: a positive finite rate and at least one channel. Returns the
/// number of frames (the longest channel's length; shorter channels are padded with NaN).
pub(crate) fn frames(recording: &Recording, what: &str) -> Result<usize, FormatError> {
    if !(recording.sampling_rate_hz.is_finite() && recording.sampling_rate_hz > 0.0) {
        return Err(cannot_write(
            what,
            format!(
                "the sampling rate {} Hz is not a positive number",
                recording.sampling_rate_hz
            ),
        ));
    }
    if recording.channels.is_empty() {
        return Err(cannot_write(what, "the recording has no channels"));
    }
    Ok(recording
        .channels
        .iter()
        .map(|c| c.samples.len())
        .max()
        .unwrap_or(0))
}

/// The factor that takes a voltage in `unit` to mV (`mV` 1, `uV`/`µV` 0.001, `V` 1000), or `None`
/// for a unit that is not a voltage.
pub fn to_millivolts(unit: &str) -> Option<f64> {
    match unit.trim() {
        "mV" | "mv" | "MV" | "millivolt" | "millivolts" => Some(1.0),
        "uV" | "µV" | "μV" | "uv" | "microvolt" | "microvolts" => Some(1e-3),
        "V" | "v" | "volt" | "volts" => Some(1e3),
        _ => None,
    }
}

/// Sample `i` of `samples`, NaN past its end.
pub(crate) fn sample(samples: &[f64], i: usize) -> f64 {
    samples.get(i).copied().unwrap_or(f64::NAN)
}

/// `text` with every character outside printable ASCII replaced (`µ` becomes `u`).
pub(crate) fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'µ' | 'μ' => 'u',
            c if c.is_ascii() && !c.is_ascii_control() => c,
            _ => '_',
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod test_support {
    use std::collections::BTreeMap;

    use crate::{Channel, Recording};

    /// Two leads at `rate` Hz for `seconds`, in `unit`, the second NaN in its first quarter.
    pub fn recording(rate: f64, seconds: f64, unit: &str, scale: f64) -> Recording {
        let n = (rate * seconds).round() as usize;
        let wave = |k: f64| {
            (0..n)
                .map(|i| scale * (k * i as f64 / rate).sin() * 1.5)
                .collect::<Vec<_>>()
        };
        let mut second = wave(7.0);
        for v in second.iter_mut().take(n / 4) {
            *v = f64::NAN;
        }
        Recording {
            channels: vec![
                Channel {
                    name: "II".into(),
                    unit: unit.into(),
                    samples: wave(3.0),
                },
                Channel {
                    name: "aVR".into(),
                    unit: unit.into(),
                    samples: second,
                },
            ],
            sampling_rate_hz: rate,
            start: Some("2021-03-04T05:06:07".into()),
            metadata: BTreeMap::new(),
            device_interpretation: None,
        }
    }

    pub fn temp_dir(tag: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cardio-write-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;

    #[test]
    fn the_extension_chooses_the_writer_and_others_are_refused() {
        let rec = recording(250.0, 2.0, "mV", 1.0);
        let dir = temp_dir("mod");
        for (name, count) in [("r.edf", 1), ("r.csv", 1), ("r.HEA", 2)] {
            let files = write_path(&rec, &dir.join(name)).unwrap();
            assert_eq!(files.len(), count);
            let back = crate::read_path(&dir.join(name)).unwrap();
            assert_eq!(back.channels.len(), 2, "{name}");
        }
        let err = write_path(&rec, &dir.join("r.xml")).unwrap_err();
        assert!(
            err.to_string().contains(".edf, .hea (WFDB) or .csv"),
            "{err}"
        );
        let empty = Recording {
            channels: vec![],
            ..rec
        };
        let err = write_path(&empty, &dir.join("e.edf")).unwrap_err();
        assert!(
            err.to_string()
                .contains("e.edf: the recording has no channels"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
