//! Validation of the PPG rhythm model, as the model card reports it.
//!
//! - **Patient-grouped 5-fold CV** on the real-PPG segments of Liu et al. 2022 ([`FOLDS`], seed
//!   [`SEED`]): patients are dealt to folds (those with any AF segment first), so no patient's
//!   segments straddle folds. In every fold the classifier is trained from scratch on the other
//!   folds' usable segments and calls the held-out ones; a segment the quality gate refuses is
//!   called `noisy`. The trees' probabilities are blended with those of the fold's waveform
//!   network ([`cardio_models::ppg_rhythm::network`], trained without the fold's patients by
//!   `training/ppg_rhythm_cnn/train.py`), with the blend weight and AF threshold that were chosen
//!   inside the fold's training patients only (an inner patient-grouped [`INNER_FOLDS`]-fold CV of
//!   both models: the pair that maximises the smaller of AF sensitivity and specificity among
//!   those that keep the specificity against sinus rhythm at 0.98 or more). The deployed blend was
//!   chosen the same way from this CV's out-of-fold probabilities.
//! - **Figures** ([`metrics`]): AF sensitivity (a noisy AF segment is a miss), specificity against
//!   every non-AF rhythm and against sinus rhythm (a noisy segment is not an AF call), with 95 %
//!   percentile bootstrap CIs over patients; the six-by-four table of calls; the six-rhythm accuracy
//!   of the usable segments; all of it again for the same segments resampled to 30 Hz (the camera
//!   path) and called by the same fold's model.
//! - **BIDMC through the predict path** ([`bidmc`]): heart rate against the monitor.
//! - **Wrist heart rate**: the IEEE SPC 2015 recordings (`cardio_lab::eval::ppg_hr`).

mod bidmc;
pub mod metrics;
mod report;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use cardio_models::ppg_rhythm::classifier::{Rhythm, RhythmClassifier};
use cardio_models::ppg_rhythm::window::feature_names;
use cardio_models::ppg_rhythm::{network, PpgRhythmError};

use super::segments::Row;
use crate::resample::{self, SplitMix64};

pub use bidmc::{bidmc, BidmcReport, BidmcSpan};
pub use metrics::{Calls, PathFigures};
pub use report::Report;

/// Folds of the cross-validation.
pub const FOLDS: usize = 5;
/// Seed of everything random in training and validation.
pub const SEED: u64 = 0x0099_6A7E;
/// Bootstrap resamples of the CIs.
pub const BOOTSTRAP: usize = 1000;
/// Folds of the inner CV that chooses the blend (in the network's training).
pub const INNER_FOLDS: usize = 4;

/// Patient-level fold of every row: patients with any AF segment are shuffled and dealt first,
/// then the others.
pub fn grouped_folds(rows: &[&Row], k: usize, seed: u64) -> Vec<usize> {
    let af: BTreeSet<&str> = rows
        .iter()
        .filter(|r| r.rhythm == Rhythm::Af)
        .map(|r| r.patient.as_str())
        .collect();
    let group: Vec<&str> = rows.iter().map(|r| r.patient.as_str()).collect();
    let stratum_of = |g: &str| usize::from(!af.contains(g));
    resample::grouped_folds(&group, stratum_of, 2, k, &mut SplitMix64::new(seed))
}

/// Trains on the usable rows among `train`.
///
/// # Errors
/// [`PpgRhythmError::Training`] without both AF and non-AF usable rows.
pub fn fit(train: &[&Row], seed: u64) -> Result<RhythmClassifier, PpgRhythmError> {
    let (x, y): (Vec<Vec<f64>>, Vec<Rhythm>) = train
        .iter()
        .filter_map(|r| r.features.clone().map(|f| (f, r.rhythm)))
        .unzip();
    super::classifier::train(&x, &y, seed)
        .ok_or_else(|| PpgRhythmError::Training("the training segments need AF and non-AF".into()))
}

/// What the CV gives for a held-out segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutOfFold {
    /// Rhythm probabilities at 100 Hz; `None` when the segment was refused (noisy).
    pub probs: Option<[f64; 6]>,
    /// Rhythm probabilities of the segment resampled to 30 Hz; `None` when refused.
    pub camera: Option<[f64; 6]>,
    /// The AF threshold chosen in its training folds.
    pub threshold: f64,
    /// The network's weight in the blend, chosen in its training folds.
    pub blend_weight: f64,
}

pub use network::blend;

/// Out-of-fold probabilities of every row (trees blended with the fold's network) and the AF
/// threshold chosen inside its training folds; two threads.
///
/// # Errors
/// As [`fit`]; [`PpgRhythmError::Params`] when the committed networks do not load or are not one
/// per fold.
pub fn cross_validate(rows: &[Row]) -> Result<Vec<OutOfFold>, PpgRhythmError> {
    let refs: Vec<&Row> = rows.iter().collect();
    let folds = grouped_folds(&refs, FOLDS, SEED);
    let nets = network::networks()?;
    if nets.folds.len() != FOLDS {
        return Err(PpgRhythmError::Params(format!(
            "{} fold networks for {FOLDS} folds: retrain them (training/ppg_rhythm_cnn)",
            nets.folds.len()
        )));
    }
    let run = |f: usize| -> Result<Vec<(usize, OutOfFold)>, PpgRhythmError> {
        let train: Vec<&Row> = rows
            .iter()
            .zip(&folds)
            .filter(|(_, &k)| k != f)
            .map(|(r, _)| r)
            .collect();
        let seed = SEED.wrapping_add(f as u64);
        let net = &nets.folds[f];
        let model = fit(&train, seed)?;
        Ok(rows
            .iter()
            .enumerate()
            .filter(|(i, _)| folds[*i] == f)
            .map(|(i, r)| {
                let call = |x: &Option<Vec<f64>>, wave: &Option<Vec<f32>>| {
                    x.as_ref().map(|x| {
                        let net_p = wave.as_ref().map(|w| net.probabilities(w));
                        blend(model.predict(x).rhythms, net_p, net.blend_weight)
                    })
                };
                (
                    i,
                    OutOfFold {
                        probs: call(&r.features, &r.wave),
                        camera: call(&r.camera, &r.wave_camera),
                        threshold: net.threshold,
                        blend_weight: net.blend_weight,
                    },
                )
            })
            .collect())
    };
    let (a, b) = std::thread::scope(|s| {
        let h = s.spawn(|| {
            (0..FOLDS)
                .filter(|f| f % 2 == 0)
                .map(run)
                .collect::<Vec<_>>()
        });
        let b: Vec<_> = (0..FOLDS).filter(|f| f % 2 == 1).map(run).collect();
        (h.join(), b)
    });
    let a = a.map_err(|_| PpgRhythmError::Training("a CV thread panicked".into()))?;
    let mut out = vec![
        OutOfFold {
            probs: None,
            camera: None,
            threshold: 0.5,
            blend_weight: 0.0,
        };
        rows.len()
    ];
    for part in a.into_iter().chain(b) {
        for (i, p) in part? {
            out[i] = p;
        }
    }
    Ok(out)
}

/// Split-gain importance of the features, named and sorted, largest first.
pub fn importance(model: &RhythmClassifier) -> Vec<(String, f64)> {
    let total: f64 = model
        .model
        .importance
        .iter()
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let mut out: Vec<(String, f64)> = feature_names()
        .iter()
        .zip(&model.model.importance)
        .map(|(n, v)| ((*n).to_string(), v / total))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out
}

/// The CV figures of the rows (both rates) and the deployed threshold.
///
/// # Errors
/// As [`cross_validate`].
pub fn validate(rows: &[Row]) -> Result<Report, PpgRhythmError> {
    let oof = cross_validate(rows)?;
    let nets = network::networks()?;
    let native = metrics::figures(rows, &oof, |o| o.probs, SEED);
    let camera = metrics::figures(rows, &oof, |o| o.camera, SEED ^ 1);
    let patients: BTreeSet<&str> = rows.iter().map(|r| r.patient.as_str()).collect();
    Ok(Report {
        cv_af_sensitivity: native.af_sensitivity.value,
        cv_af_specificity_all: native.af_specificity_all.value,
        cv_sinus_specificity: native.sinus_specificity.value,
        spc_loro_mae_bpm: f64::NAN,
        bidmc_mae_bpm: f64::NAN,
        patients: patients.len(),
        segments: rows.len(),
        folds: FOLDS,
        threshold: nets.deployed.threshold,
        blend_weight: nets.deployed.blend_weight,
        fold_blends: nets
            .folds
            .iter()
            .map(|n| (n.blend_weight, n.threshold))
            .collect(),
        native,
        camera,
        importance: Vec::new(),
        bidmc: None,
        spc: None,
    })
}

/// The wrist heart-rate check on the IEEE SPC 2015 training recordings: the motion-compensated
/// tracker with the accelerometer (`cardio_signal::motion`), each recording scored with the settings
/// chosen on the other eleven (`cardio_lab::eval::ppg_hr`), beside the peak-based rate without the
/// accelerometer; `None` without the dataset.
///
/// # Errors
/// [`PpgRhythmError::Data`] for an unreadable file.
pub fn spc(root: &std::path::Path) -> Result<Option<report::SpcSummary>, PpgRhythmError> {
    use crate::eval::{ppg_hr, EvalError};
    match ppg_hr::evaluate_ieee(root) {
        Ok(r) => Ok(Some(report::SpcSummary {
            method: "motion-compensated spectral tracker with the accelerometer, leave one recording out"
                .into(),
            recordings: r.rows.len(),
            windows: r.windows,
            mae_bpm: r.motion_loro_mae_bpm.unwrap_or(f64::NAN),
            peak_mae_bpm: r.combined_mae_bpm.unwrap_or(f64::NAN),
            product_settings_mae_bpm: r.motion_default_mae_bpm.unwrap_or(f64::NAN),
            per_recording: r
                .rows
                .iter()
                .map(|row| {
                    (
                        row.recording.clone(),
                        row.motion_loro_mae_bpm.unwrap_or(f64::NAN),
                        row.combined_mae_bpm.unwrap_or(f64::NAN),
                    )
                })
                .collect(),
        })),
        Err(EvalError::MissingDataset { .. }) => Ok(None),
        Err(e) => Err(PpgRhythmError::Data(e.to_string())),
    }
}

/// The heart-rate MAE of the product's windowed PPG rate on BIDMC (8-s windows every 2 s against
/// the monitor, as `cardio eval signal` prints it), bpm; `NaN` without the dataset.
///
/// # Errors
/// [`PpgRhythmError::Data`] for an unreadable file.
pub fn bidmc_windowed_mae(root: &std::path::Path) -> Result<f64, PpgRhythmError> {
    use crate::eval::{ppg_hr, EvalError};
    match ppg_hr::evaluate_bidmc(root) {
        Ok(r) => Ok(r.mae_bpm.unwrap_or(f64::NAN)),
        Err(EvalError::MissingDataset { .. }) => Ok(f64::NAN),
        Err(e) => Err(PpgRhythmError::Data(e.to_string())),
    }
}
