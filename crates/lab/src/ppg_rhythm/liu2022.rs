//! The real-PPG arrhythmia segments of Liu et al. (2022), `ppg_arrhythmia_liu2022`: one MATLAB v5
//! file per patient (`MPA_<time>.mat`) with `ppgseg` (segments of 10 s at 100 Hz, one per row,
//! stored as `round(value × 65535)` of the published 0..1 scaling) and `labels` (0 sinus, 1 PVC,
//! 2 PAC, 3 VT, 4 SVT, 5 AF), labelled by two cardiologists from the simultaneous ECG.
//!
//! Liu Z, Zhou B, Jiang Z, et al. "Multiclass Arrhythmia Detection and Classification From
//! Photoplethysmography Signals Using a Deep Convolutional Neural Network", *J. Am. Heart Assoc.*
//! 2022;11(7):e023555.

use std::path::Path;

use cardio_formats::mat;
use cardio_models::ppg_rhythm::classifier::Rhythm;
use cardio_models::ppg_rhythm::PpgRhythmError;

/// The folder under `$CARDIO_DATASETS`.
pub const DATASET: &str = "ppg_arrhythmia_liu2022";
/// Sampling rate of every segment, Hz.
pub const RATE_HZ: f64 = 100.0;
/// Samples per segment (10 s).
pub const SEGMENT_SAMPLES: usize = 1000;
/// The stored scale of the published 0..1 values.
pub const STORED_SCALE: f64 = 65535.0;

/// One labelled segment.
#[derive(Debug, Clone)]
pub struct Segment {
    /// The patient (file stem): the grouping unit of every split.
    pub patient: String,
    /// Row of the segment in the patient's file.
    pub index: usize,
    /// The rhythm from the simultaneous ECG.
    pub rhythm: Rhythm,
    /// The PPG, 0..1 as published, at [`RATE_HZ`].
    pub samples: Vec<f64>,
}

fn data_error(path: &Path, what: &str) -> PpgRhythmError {
    PpgRhythmError::Data(format!("{}: {what}", path.display()))
}

/// The segments of one patient's file.
///
/// # Errors
/// [`PpgRhythmError::Data`] when the file cannot be read, lacks `ppgseg` or `labels`, their sizes
/// disagree or a label is not 0-5.
pub fn load_file(path: &Path) -> Result<Vec<Segment>, PpgRhythmError> {
    let bytes = std::fs::read(path).map_err(|e| data_error(path, &e.to_string()))?;
    let matrices = mat::read_matrices(&bytes).map_err(|e| data_error(path, &e.to_string()))?;
    let find = |name: &str| {
        matrices
            .iter()
            .find(|m| m.name == name)
            .ok_or_else(|| data_error(path, &format!("no variable `{name}`")))
    };
    let seg = find("ppgseg")?;
    let labels = find("labels")?;
    if labels.rows * labels.cols != seg.rows || seg.cols != SEGMENT_SAMPLES {
        return Err(data_error(
            path,
            &format!(
                "{} labels for {}×{} segments (expected {SEGMENT_SAMPLES} samples each)",
                labels.rows * labels.cols,
                seg.rows,
                seg.cols
            ),
        ));
    }
    let patient = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    (0..seg.rows)
        .map(|i| {
            let code = labels.data[i];
            let rhythm = Rhythm::from_code(code)
                .ok_or_else(|| data_error(path, &format!("label {code} of row {i} is not 0-5")))?;
            let samples = seg
                .row(i)
                .unwrap_or_default()
                .into_iter()
                .map(|v| v / STORED_SCALE)
                .collect();
            Ok(Segment {
                patient: patient.clone(),
                index: i,
                rhythm,
                samples,
            })
        })
        .collect()
}

/// Every segment of every patient, in file-name order.
///
/// # Errors
/// [`PpgRhythmError::MissingDataset`] without the folder or with no `.mat` file in it; as
/// [`load_file`].
pub fn load(root: &Path) -> Result<Vec<Segment>, PpgRhythmError> {
    let dir = root.join(DATASET);
    let missing = || PpgRhythmError::MissingDataset {
        path: dir.display().to_string(),
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|_| missing())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "mat"))
        .collect();
    if files.is_empty() {
        return Err(missing());
    }
    files.sort();
    let mut out = Vec::new();
    for f in &files {
        out.extend(load_file(f)?);
    }
    Ok(out)
}
