//! What the heart-sound network's training reads (`training/pcg_cnn/train.py`): every recording's
//! log-mel spectrogram before normalisation ([`cardio_models::pcg_model::spectrogram::log_mel`], the
//! code inference runs; the training adds noise to it in the power domain, then normalises it as
//! [`cardio_models::pcg_model::spectrogram::normalise`] does) with its site, label and outer CV fold
//! (the validation's own folds).
//!
//! Written as `index.csv` (`name,site,abnormal,fold,frames,offset,inner0,...,inner4`, one line per
//! recording in [`super::data::load`]'s order; `frames` 0 when the recording gives no spectrogram;
//! `innerK` the recording's inner fold inside outer fold K's training recordings, -1 in fold K:
//! the inner CV of [`super::validation::select`], which the inner networks share) and
//! `spectra.u8`: each spectrogram `[band][frame]` (natural log of the power relative to the
//! recording's mean), quantised as `round((v + 14) * 10)` clipped to 0-255 (steps of 0.1, 0.43 dB),
//! one after the other from `offset` bytes.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use cardio_models::pcg_model::{features, spectrogram};

use super::data::Record;
use super::validation::{inner_folds_of_outer, stratified_folds, FOLDS, SEED};
use super::PcgError;
use crate::parallel::par_map;

/// Quantisation steps per unit of the natural log.
pub const STEPS: f64 = 10.0;
/// The lowest value stored (under the floor, `ln 1e-6` = -13.8).
pub const LOWEST: f64 = -14.0;

/// The spectrogram of one recording file, `None` when it cannot be prepared or is too short.
///
/// # Errors
/// [`PcgError::Read`] when the file cannot be read.
pub fn of_file(path: &Path) -> Result<Option<spectrogram::LogMel>, PcgError> {
    let rec = cardio_formats::read_path(path).map_err(|e| PcgError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    Ok(features::prepare(&rec)
        .ok()
        .and_then(|p| spectrogram::log_mel(&p.x)))
}

/// One value as stored.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn quantise(v: f64) -> u8 {
    ((v - LOWEST) * STEPS).round().clamp(0.0, 255.0) as u8
}

/// Writes `index.csv` and `spectra.u8` of `records` into `dir` (two threads).
///
/// # Errors
/// [`PcgError::Read`] when a recording or the output cannot be read or written.
pub fn dump(records: &[Record], dir: &Path) -> Result<(), PcgError> {
    let write_err = |e: std::io::Error| PcgError::Read {
        path: dir.display().to_string(),
        reason: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(write_err)?;
    let folds = stratified_folds(records, FOLDS, SEED);
    let specs = par_map(records, |r| of_file(&r.path));
    let inner: Vec<Vec<Option<usize>>> = (0..FOLDS)
        .map(|k| inner_folds_of_outer(records, &folds, k))
        .collect();
    let mut index = String::from("name,site,abnormal,fold,frames,offset");
    for k in 0..FOLDS {
        let _ = write!(index, ",inner{k}");
    }
    index.push('\n');
    let mut bytes = Vec::new();
    for (i, ((r, fold), spec)) in records.iter().zip(&folds).zip(specs).enumerate() {
        let spec = spec?;
        let frames = spec.as_ref().map_or(0, |s| s.frames);
        let _ = writeln!(
            index,
            "{},{},{},{fold},{frames},{}{}",
            r.name,
            r.site,
            u8::from(r.abnormal),
            bytes.len(),
            inner
                .iter()
                .map(|f| f[i].map_or_else(|| ",-1".to_string(), |f| format!(",{f}")))
                .collect::<String>()
        );
        if let Some(s) = spec {
            bytes.extend(s.values.iter().map(|&v| quantise(v)));
        }
    }
    std::fs::write(dir.join("index.csv"), index).map_err(write_err)?;
    let mut f = std::fs::File::create(dir.join("spectra.u8")).map_err(write_err)?;
    f.write_all(&bytes).map_err(write_err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantisation_covers_the_floor_to_peaks_in_tenths() {
        assert_eq!(quantise(1e-6f64.ln()), 2);
        assert_eq!(quantise(-20.0), 0);
        assert_eq!(quantise(0.0), 140);
        assert_eq!(quantise(0.1), 141);
        assert_eq!(quantise(11.5), 255);
        assert_eq!(quantise(100.0), 255);
    }
}
