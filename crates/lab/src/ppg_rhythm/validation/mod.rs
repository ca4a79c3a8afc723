//! Validation of the PPG rhythm model, as the model card reports it.
//!
//! - **Grouped, stratified 5-fold CV** on the ECG-derived interval windows of CinC 2017 and MIT-BIH
//!   together ([`FOLDS`], seed [`SEED`]): folds are dealt over *persons* (a CinC 2017 record, a
//!   MIT-BIH patient), persons with any AF window first, so no person's windows straddle folds. In
//!   every fold both stages are trained from scratch on the other folds' windows of every length
//!   (10, 30 and 60 s) and score the held-out windows. The AF threshold on `P(af)` is chosen inside
//!   the training folds only ([`choose_threshold`]: an inner grouped 4-fold CV, the threshold of
//!   [`THRESHOLD_GRID`] that maximises the smaller of Se and Sp on the inner 10-s windows). AF
//!   sensitivity and specificity are given per source and window length with 95 % percentile
//!   bootstrap CIs over persons ([`BOOTSTRAP`] resamples, seeded), and the AUROC of `P(af)`.
//!   The deployed threshold is chosen the same way from the out-of-fold predictions of this CV.
//! - **3-class confusion** on MIT-BIH (the only source with an "irregular" label).
//! - **External**: train on all CinC 2017 windows, test on all MIT-BIH windows, and the reverse.
//! - **BIDMC through the predict path** ([`bidmc`]): the PLETH of each record, whole (8 min) and
//!   cut into consecutive 10-s recordings, through [`cardio_models::ppg_rhythm::Model::predict`];
//!   heart rate against the monitor's mean PULSE over the same span, MAE over the recordings that
//!   get a rhythm label (not noisy), with the noisy/unusable shares and the time per prediction.

mod bidmc;
mod cells;
mod report;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

use cardio_models::ppg_rhythm::classifier::RhythmClassifier;
use cardio_models::ppg_rhythm::features::FEATURE_NAMES;
use cardio_models::ppg_rhythm::PpgRhythmError;

use super::data::{Source, Window, WindowLabel, AUGMENT_JITTER_MS};
use crate::clinical::metrics::calibration;
use crate::resample::{self, SplitMix64};

pub use bidmc::{bidmc, BidmcReport, BidmcSpan};
pub use cells::AfCell;
use cells::{af_cells, ratio};
pub use report::{Confusion, DataRow, External, JitterCheck, Report};

/// Folds of the cross-validation.
pub const FOLDS: usize = 5;

/// Seed of everything random in training and validation.
pub const SEED: u64 = 0x0099_6A7E;

/// Bootstrap resamples of the CIs.
pub const BOOTSTRAP: usize = 1000;

/// Window lengths trained and validated, seconds.
pub const LENGTHS_S: [f64; 3] = [10.0, 30.0, 60.0];

/// The AF thresholds on `P(af)` that [`choose_threshold`] considers.
pub const THRESHOLD_GRID: [f64; 11] = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7];

/// Folds of the inner CV that chooses the threshold.
pub const INNER_FOLDS: usize = 4;

/// Person-level fold of every window: persons with any AF window are shuffled and dealt first,
/// then the others (stratified by person).
pub fn grouped_folds(windows: &[&Window], k: usize, seed: u64) -> Vec<usize> {
    let af_groups: BTreeSet<&str> = windows
        .iter()
        .filter(|w| w.label == WindowLabel::Af)
        .map(|w| w.group.as_str())
        .collect();
    let group: Vec<&str> = windows.iter().map(|w| w.group.as_str()).collect();
    // Persons with an AF window first (stratum 0), then the others.
    let stratum_of = |g: &str| usize::from(!af_groups.contains(g));
    resample::grouped_folds(&group, stratum_of, 2, k, &mut SplitMix64::new(seed))
}

/// Feature rows and labels of the windows and of one copy of each with beat-time jitter
/// [`AUGMENT_JITTER_MS`] (training augmentation towards PPG timing noise).
fn rows(windows: &[&Window]) -> (Vec<Vec<f64>>, Vec<WindowLabel>) {
    let mut x: Vec<Vec<f64>> = windows.iter().map(|w| w.features.clone()).collect();
    let mut y: Vec<WindowLabel> = windows.iter().map(|w| w.label).collect();
    for w in windows {
        if let Some(f) = w.jittered_features(AUGMENT_JITTER_MS, 1) {
            x.push(f);
            y.push(w.label);
        }
    }
    (x, y)
}

/// Trains on `train` windows and their jittered copies.
///
/// # Errors
/// [`PpgRhythmError::Training`] without both AF and non-AF windows.
pub fn fit(train: &[&Window], seed: u64) -> Result<RhythmClassifier, PpgRhythmError> {
    let (x, y) = rows(train);
    super::classifier::train(&x, &y, seed)
        .ok_or_else(|| PpgRhythmError::Training("the training windows need AF and non-AF".into()))
}

/// The threshold of [`THRESHOLD_GRID`] that maximises `min(Se, Sp)` of `P(af) >= t` over the 10-s
/// windows among `scored` (`(window, P(af))`); ties go to the threshold nearest 0.5, and 0.5 is
/// returned without both AF and non-AF 10-s windows.
pub fn best_threshold(scored: &[(&Window, f64)]) -> f64 {
    let ten: Vec<(bool, f64)> = scored
        .iter()
        .filter(|(w, _)| w.length_s == LENGTHS_S[0])
        .map(|(w, p)| (w.label == WindowLabel::Af, *p))
        .collect();
    let pos = ten.iter().filter(|s| s.0).count();
    let neg = ten.len() - pos;
    if pos == 0 || neg == 0 {
        return 0.5;
    }
    let mut best: (f64, f64) = (f64::NEG_INFINITY, 0.5);
    for &t in &THRESHOLD_GRID {
        let tp = ten.iter().filter(|s| s.0 && s.1 >= t).count();
        let tn = ten.iter().filter(|s| !s.0 && s.1 < t).count();
        let score = ratio(tp, pos).min(ratio(tn, neg));
        let better = score > best.0 + 1e-12
            || ((score - best.0).abs() <= 1e-12 && (t - 0.5).abs() < (best.1 - 0.5).abs());
        if better {
            best = (score, t);
        }
    }
    best.1
}

/// Chooses the AF threshold for a model trained on `train` by an inner grouped
/// [`INNER_FOLDS`]-fold CV inside `train` only (see [`best_threshold`]).
///
/// # Errors
/// As [`fit`].
pub fn choose_threshold(train: &[&Window], seed: u64) -> Result<f64, PpgRhythmError> {
    let folds = grouped_folds(train, INNER_FOLDS, seed);
    let mut scored: Vec<(&Window, f64)> = Vec::with_capacity(train.len());
    for f in 0..INNER_FOLDS {
        let inner: Vec<&Window> = train
            .iter()
            .zip(&folds)
            .filter(|(_, &k)| k != f)
            .map(|(w, _)| *w)
            .collect();
        let model = fit(&inner, seed.wrapping_add(100 + f as u64))?;
        for (w, _) in train.iter().zip(&folds).filter(|(_, &k)| k == f) {
            scored.push((w, model.predict(&w.features).af));
        }
    }
    Ok(best_threshold(&scored))
}

/// Beat-time jitter of the robustness check of held-out windows, ms.
pub const TEST_JITTER_MS: [f64; 2] = [10.0, 20.0];

/// What the CV gives for a held-out window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutOfFold {
    /// Class probabilities (normal, af, irregular).
    pub probs: [f64; 3],
    /// The AF threshold chosen in its training folds.
    pub threshold: f64,
    /// `P(af)` of the window with beat-time jitter [`TEST_JITTER_MS`] (NaN when undefined).
    pub p_af_jittered: [f64; 2],
}

/// Out-of-fold class probabilities (normal, af, irregular) of every window and the AF threshold
/// chosen inside its training folds; two threads.
///
/// # Errors
/// As [`fit`].
pub fn cross_validate(windows: &[Window]) -> Result<Vec<OutOfFold>, PpgRhythmError> {
    let refs: Vec<&Window> = windows.iter().collect();
    let folds = grouped_folds(&refs, FOLDS, SEED);
    let run = |f: usize| -> Result<Vec<(usize, OutOfFold)>, PpgRhythmError> {
        let train: Vec<&Window> = windows
            .iter()
            .zip(&folds)
            .filter(|(_, &k)| k != f)
            .map(|(w, _)| w)
            .collect();
        let seed = SEED.wrapping_add(f as u64);
        let threshold = choose_threshold(&train, seed)?;
        let model = fit(&train, seed)?;
        Ok(windows
            .iter()
            .enumerate()
            .filter(|(i, _)| folds[*i] == f)
            .map(|(i, w)| {
                let p = model.predict(&w.features);
                let jittered = TEST_JITTER_MS.map(|s| {
                    w.jittered_features(s, 2)
                        .map_or(f64::NAN, |f| model.predict(&f).af)
                });
                (
                    i,
                    OutOfFold {
                        probs: [p.normal, p.af, p.irregular],
                        threshold,
                        p_af_jittered: jittered,
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
            probs: [f64::NAN; 3],
            threshold: 0.5,
            p_af_jittered: [f64::NAN; 2],
        };
        windows.len()
    ];
    for part in a.into_iter().chain(b) {
        for (i, p) in part? {
            out[i] = p;
        }
    }
    Ok(out)
}

/// Counts of windows per source, length and label.
pub fn data_rows(windows: &[Window]) -> Vec<DataRow> {
    let mut out = Vec::new();
    for source in [Source::Cinc2017, Source::Mitdb] {
        for &len in &LENGTHS_S {
            let mut counts: BTreeMap<String, usize> = BTreeMap::new();
            let mut persons: BTreeSet<&str> = BTreeSet::new();
            for w in windows
                .iter()
                .filter(|w| w.source == source && w.length_s == len)
            {
                *counts.entry(w.label.name().into()).or_default() += 1;
                persons.insert(&w.group);
            }
            if !persons.is_empty() {
                out.push(DataRow {
                    source: source.name().into(),
                    length_s: len,
                    windows: counts,
                    persons: persons.len(),
                });
            }
        }
    }
    out
}

/// CV, confusion and external checks on loaded windows (the BIDMC part is added by the caller).
///
/// # Errors
/// As [`fit`].
pub fn validate(windows: &[Window]) -> Result<Report, PpgRhythmError> {
    let oof = cross_validate(windows)?;
    let all: Vec<&Window> = windows.iter().collect();
    let p_af: Vec<(f64, f64)> = oof.iter().map(|o| (o.probs[1], o.threshold)).collect();
    let mut fold_thresholds: Vec<f64> = oof.iter().map(|o| o.threshold).collect();
    fold_thresholds.sort_by(f64::total_cmp);
    fold_thresholds.dedup();
    let scored: Vec<(&Window, f64)> = windows
        .iter()
        .zip(&oof)
        .map(|(w, o)| (w, o.probs[1]))
        .collect();
    let threshold = best_threshold(&scored);
    let cv = af_cells(
        &all,
        &p_af,
        &[Some(Source::Cinc2017), Some(Source::Mitdb), None],
    );
    let cv_calibration = LENGTHS_S
        .iter()
        .map(|&len| {
            let (p, y): (Vec<f64>, Vec<bool>) = windows
                .iter()
                .zip(&oof)
                .filter(|(w, o)| w.length_s == len && o.probs[1].is_finite())
                .map(|(w, o)| (o.probs[1], w.label == WindowLabel::Af))
                .unzip();
            (len, calibration(&p, &y))
        })
        .collect();
    let jittered = TEST_JITTER_MS
        .iter()
        .enumerate()
        .map(|(k, &sigma)| {
            let (w, p): (Vec<&Window>, Vec<(f64, f64)>) = windows
                .iter()
                .zip(&oof)
                .filter(|(_, o)| o.p_af_jittered[k].is_finite())
                .map(|(w, o)| (w, (o.p_af_jittered[k], o.threshold)))
                .unzip();
            JitterCheck {
                jitter_ms: sigma,
                cells: af_cells(&w, &p, &[None]),
            }
        })
        .collect();
    let mut confusion = Vec::new();
    for &len in &LENGTHS_S {
        let mut counts = [[0usize; 3]; 4];
        for (w, o) in windows.iter().zip(&oof) {
            let (p, t) = (o.probs, o.threshold);
            if w.source != Source::Mitdb || w.length_s != len {
                continue;
            }
            let truth = match w.label {
                WindowLabel::Normal => 0,
                WindowLabel::Af => 1,
                WindowLabel::Irregular => 2,
                WindowLabel::OtherNonAf => 3,
            };
            let probs = cardio_models::ppg_rhythm::classifier::RhythmProbabilities {
                normal: p[0],
                af: p[1],
                irregular: p[2],
            };
            let pred = match probs.label(t).0 {
                WindowLabel::Normal | WindowLabel::OtherNonAf => 0,
                WindowLabel::Af => 1,
                WindowLabel::Irregular => 2,
            };
            counts[truth][pred] += 1;
        }
        confusion.push(Confusion {
            length_s: len,
            counts,
        });
    }
    let mut external = Vec::new();
    for (train_src, test_src) in [
        (Source::Cinc2017, Source::Mitdb),
        (Source::Mitdb, Source::Cinc2017),
    ] {
        let train: Vec<&Window> = windows.iter().filter(|w| w.source == train_src).collect();
        let test: Vec<&Window> = windows.iter().filter(|w| w.source == test_src).collect();
        if train.is_empty() || test.is_empty() {
            continue;
        }
        let t = choose_threshold(&train, SEED)?;
        let model = fit(&train, SEED)?;
        let p: Vec<(f64, f64)> = test
            .iter()
            .map(|w| (model.predict(&w.features).af, t))
            .collect();
        external.push(External {
            train: train_src.name().into(),
            test: test_src.name().into(),
            train_windows: train.len(),
            threshold: t,
            cells: af_cells(&test, &p, &[Some(test_src)]),
        });
    }
    Ok(Report {
        data: data_rows(windows),
        fold_thresholds,
        threshold,
        cv,
        cv_calibration,
        cv_jittered: jittered,
        confusion,
        external,
        bidmc: None,
        importance: Vec::new(),
    })
}

/// Split-gain importance of the AF stage, named and sorted, largest first.
pub fn importance(model: &RhythmClassifier) -> Vec<(String, f64)> {
    let total: f64 = model
        .af
        .importance
        .iter()
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let mut out: Vec<(String, f64)> = FEATURE_NAMES
        .iter()
        .zip(&model.af.importance)
        .map(|(n, v)| ((*n).to_string(), v / total))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out
}

/// Cohen's kappa of a 2×2 agreement table `[both, first only, second only, neither]`.
pub fn kappa(t: [usize; 4]) -> f64 {
    let n = t.iter().sum::<usize>() as f64;
    if n == 0.0 {
        return f64::NAN;
    }
    let observed = (t[0] + t[3]) as f64 / n;
    let first = (t[0] + t[1]) as f64 / n;
    let second = (t[0] + t[2]) as f64 / n;
    let expected = first * second + (1.0 - first) * (1.0 - second);
    if (1.0 - expected).abs() < 1e-12 {
        return f64::NAN;
    }
    (observed - expected) / (1.0 - expected)
}
