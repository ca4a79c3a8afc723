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
//! - **BIDMC through the predict path** ([`bidmc`]): the PLETH of each record, whole (8 min) and cut
//!   into consecutive 10-s recordings, through [`super::Model::predict`]; heart rate against the
//!   monitor's mean PULSE over the same span, MAE over the recordings that get a rhythm label (not
//!   noisy), with the noisy/unusable shares and the time per prediction.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::classifier::RhythmClassifier;
use super::data::{Source, Window, WindowLabel, AUGMENT_JITTER_MS};
use super::features::FEATURE_NAMES;
use super::{Model, PpgRhythmError};
use crate::clinical::metrics::{auroc, calibration, Calibration, SplitMix64};

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

/// AF sensitivity and specificity of one group of windows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AfCell {
    /// `cinc2017`, `mitdb` or `all`.
    pub source: String,
    /// Window length, seconds.
    pub length_s: f64,
    /// Windows scored.
    pub windows: usize,
    /// Of those, AF.
    pub af_windows: usize,
    /// Persons.
    pub persons: usize,
    /// Persons with an AF window.
    pub af_persons: usize,
    /// Sensitivity.
    pub se: f64,
    /// 95 % bootstrap CI over persons.
    pub se_ci: (f64, f64),
    /// Specificity.
    pub sp: f64,
    /// 95 % bootstrap CI over persons.
    pub sp_ci: (f64, f64),
    /// AUROC of `P(af)`.
    pub auroc: f64,
}

/// Scored windows: person, truth, `P(af)`, decision.
struct Scored<'a> {
    group: &'a str,
    af: bool,
    p: f64,
    pos: bool,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Sensitivity, specificity with bootstrap CIs over persons, and AUROC.
fn af_cell(source: &str, length_s: f64, scored: &[Scored], seed: u64) -> AfCell {
    // Per person: TP, FN, TN, FP.
    let mut per: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for s in scored {
        let c = per.entry(s.group).or_default();
        match (s.af, s.pos) {
            (true, true) => c[0] += 1,
            (true, false) => c[1] += 1,
            (false, false) => c[2] += 1,
            (false, true) => c[3] += 1,
        }
    }
    let counts: Vec<[usize; 4]> = per.values().copied().collect();
    let total = counts.iter().fold([0usize; 4], |mut t, c| {
        for k in 0..4 {
            t[k] += c[k];
        }
        t
    });
    let mut rng = SplitMix64::new(seed);
    let (mut ses, mut sps) = (Vec::new(), Vec::new());
    if !counts.is_empty() {
        for _ in 0..BOOTSTRAP {
            let mut t = [0usize; 4];
            for _ in 0..counts.len() {
                let c = counts[(rng.next_u64() % counts.len() as u64) as usize];
                for k in 0..4 {
                    t[k] += c[k];
                }
            }
            if t[0] + t[1] > 0 {
                ses.push(ratio(t[0], t[0] + t[1]));
            }
            if t[2] + t[3] > 0 {
                sps.push(ratio(t[2], t[2] + t[3]));
            }
        }
    }
    ses.sort_by(f64::total_cmp);
    sps.sort_by(f64::total_cmp);
    let p: Vec<f64> = scored.iter().map(|s| s.p).collect();
    let y: Vec<bool> = scored.iter().map(|s| s.af).collect();
    AfCell {
        source: source.into(),
        length_s,
        windows: scored.len(),
        af_windows: total[0] + total[1],
        persons: counts.len(),
        af_persons: counts.iter().filter(|c| c[0] + c[1] > 0).count(),
        se: ratio(total[0], total[0] + total[1]),
        se_ci: (percentile(&ses, 0.025), percentile(&ses, 0.975)),
        sp: ratio(total[2], total[2] + total[3]),
        sp_ci: (percentile(&sps, 0.025), percentile(&sps, 0.975)),
        auroc: auroc(&p, &y).unwrap_or(f64::NAN),
    }
}

/// Cells per source (and all) and length for scored windows (`P(af)` and the threshold used).
fn af_cells(windows: &[&Window], p_af: &[(f64, f64)], sources: &[Option<Source>]) -> Vec<AfCell> {
    let mut out = Vec::new();
    for &source in sources {
        for &len in &LENGTHS_S {
            let scored: Vec<Scored> = windows
                .iter()
                .zip(p_af)
                .filter(|(w, _)| w.length_s == len && source.is_none_or(|s| w.source == s))
                .map(|(w, &(p, t))| Scored {
                    group: &w.group,
                    af: w.label == WindowLabel::Af,
                    p,
                    pos: p >= t,
                })
                .collect();
            if scored.is_empty() {
                continue;
            }
            let name = source.map_or("all", Source::name);
            out.push(af_cell(name, len, &scored, SEED ^ len.to_bits()));
        }
    }
    out
}

/// Counts of windows per source, length and label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataRow {
    /// Dataset.
    pub source: String,
    /// Window length, seconds.
    pub length_s: f64,
    /// Windows per label (`normal`, `af`, `irregular`, `other_non_af`).
    pub windows: BTreeMap<String, usize>,
    /// Persons with at least one window.
    pub persons: usize,
}

/// AF results of the CV's held-out windows after beat-time jitter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JitterCheck {
    /// Standard deviation of each beat time's error, ms.
    pub jitter_ms: f64,
    /// All sources, per length.
    pub cells: Vec<AfCell>,
}

/// 3-class confusion of one window length on MIT-BIH.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Confusion {
    /// Window length, seconds.
    pub length_s: f64,
    /// `counts[truth][predicted]`, truth `normal, af, irregular, other_non_af`, predicted `normal,
    /// af, irregular`.
    pub counts: [[usize; 3]; 4],
}

/// Train on one source, test on the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct External {
    /// Training source.
    pub train: String,
    /// Test source.
    pub test: String,
    /// Training windows.
    pub train_windows: usize,
    /// AF threshold chosen by inner CV on the training source.
    pub threshold: f64,
    /// AF results on the test source per length.
    pub cells: Vec<AfCell>,
}

/// Heart rate and labels on BIDMC through the predict path.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BidmcSpan {
    /// `whole` (each record, 8 min) or `10 s`.
    pub span: String,
    /// Sampling rate of the PLETH given to the model: 125 Hz as recorded, or resampled to 100 Hz.
    pub rate_hz: f64,
    /// Recordings predicted.
    pub recordings: usize,
    /// Refused as unusable.
    pub unusable: usize,
    /// Labelled noisy.
    pub noisy: usize,
    /// Labelled normal / af / irregular.
    pub labels: BTreeMap<String, usize>,
    /// Recordings with a rhythm label and a reference PULSE, scored.
    pub scored: usize,
    /// Heart-rate MAE over the scored recordings, bpm.
    pub hr_mae_bpm: f64,
    /// Share of scored recordings within 5 bpm.
    pub within_5_bpm: f64,
    /// Mean time of one prediction (release build when run with `--release`), ms.
    pub ms_per_recording: f64,
    /// AF calls of the PPG prediction against the same classifier on the simultaneous ECG (lead
    /// II) R-R intervals, over the spans with a PPG rhythm label and a usable ECG: both AF, PPG
    /// only, ECG only, neither.
    pub ppg_vs_ecg_af: [usize; 4],
    /// Cohen's kappa of those AF calls.
    pub ppg_vs_ecg_kappa: f64,
}

/// The BIDMC evaluation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BidmcReport {
    /// Records.
    pub records: usize,
    /// Whole records and 10-s cuts.
    pub spans: Vec<BidmcSpan>,
}

/// The whole validation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Windows per source, length and label.
    pub data: Vec<DataRow>,
    /// The AF thresholds chosen inside the CV's training folds (distinct values).
    pub fold_thresholds: Vec<f64>,
    /// The AF threshold chosen from the CV's out-of-fold predictions (the deployed one).
    pub threshold: f64,
    /// Grouped CV, AF per source and length.
    pub cv: Vec<AfCell>,
    /// Calibration of the out-of-fold `P(af)` per window length (seconds), all sources.
    pub cv_calibration: Vec<(f64, Calibration)>,
    /// The CV's held-out windows with beat-time jitter (PPG-like timing noise), all sources.
    pub cv_jittered: Vec<JitterCheck>,
    /// 3-class confusion on MIT-BIH (CV predictions).
    pub confusion: Vec<Confusion>,
    /// CinC 2017 → MIT-BIH and MIT-BIH → CinC 2017.
    pub external: Vec<External>,
    /// Heart rate on BIDMC through the predict path (absent without the dataset).
    pub bidmc: Option<BidmcReport>,
    /// Split-gain importance of the final AF stage, largest first (empty for `evaluate`).
    pub importance: Vec<(String, f64)>,
}

impl Report {
    /// The CV cell of a source and length.
    pub fn cv_cell(&self, source: &str, length_s: f64) -> Option<&AfCell> {
        self.cv
            .iter()
            .find(|c| c.source == source && c.length_s == length_s)
    }
}

/// Person-level fold of every window: persons with any AF window are shuffled and dealt first,
/// then the others (stratified by person).
pub fn grouped_folds(windows: &[&Window], k: usize, seed: u64) -> Vec<usize> {
    let mut af_groups: BTreeSet<&str> = BTreeSet::new();
    let mut all: BTreeSet<&str> = BTreeSet::new();
    for w in windows {
        all.insert(&w.group);
        if w.label == WindowLabel::Af {
            af_groups.insert(&w.group);
        }
    }
    let mut rng = SplitMix64::new(seed);
    let mut fold_of: BTreeMap<&str, usize> = BTreeMap::new();
    let mut next = 0;
    for af in [true, false] {
        let mut g: Vec<&str> = all
            .iter()
            .copied()
            .filter(|g| af_groups.contains(g) == af)
            .collect();
        rng.shuffle(&mut g);
        for name in g {
            fold_of.insert(name, next % k);
            next += 1;
        }
    }
    windows
        .iter()
        .map(|w| fold_of.get(w.group.as_str()).copied().unwrap_or(0))
        .collect()
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
    RhythmClassifier::train(&x, &y, seed)
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
            let probs = super::classifier::RhythmProbabilities {
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

/// The BIDMC heart-rate check through [`Model::predict`] (see the module docs).
///
/// # Errors
/// [`PpgRhythmError::MissingDataset`] without `$root/bidmc/bidmc_csv`; [`PpgRhythmError::Data`] for
/// an unreadable file.
pub fn bidmc(model: &Model, root: &Path) -> Result<BidmcReport, PpgRhythmError> {
    let dir = root.join("bidmc").join("bidmc_csv");
    if !dir.is_dir() {
        return Err(PpgRhythmError::MissingDataset {
            path: dir.display().to_string(),
        });
    }
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with("_Signals.csv"))
        })
        .collect();
    files.sort();
    let mut report = BidmcReport::default();
    let mut spans: Vec<(BidmcSpan, f64, f64)> = [125.0, 100.0]
        .iter()
        .flat_map(|&rate_hz| {
            ["whole", "10 s"].map(|span| {
                (
                    BidmcSpan {
                        span: span.into(),
                        rate_hz,
                        ..BidmcSpan::default()
                    },
                    0.0,
                    0.0,
                )
            })
        })
        .collect();
    let to_100 = cardio_signal::resample::Resampler::between(125.0, 100.0)
        .map_err(|e| PpgRhythmError::Data(e.to_string()))?;
    let read = |p: &Path| {
        cardio_formats::read_path(p)
            .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", p.display())))
    };
    for sig in files {
        let Some(stem) = sig
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix("_Signals.csv"))
            .map(str::to_owned)
        else {
            continue;
        };
        let mut rec = read(&sig)?;
        rec.sampling_rate_hz = rec.sampling_rate_hz.round();
        let num_path = dir.join(format!("{stem}_Numerics.csv"));
        let numerics = read(&num_path)?;
        let Some(pulse) = numerics.channel("PULSE") else {
            continue;
        };
        let t0 = std::fs::read_to_string(&num_path)
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.split(',').next()?.trim().parse::<f64>().ok())
            })
            .unwrap_or(0.0);
        let times: Vec<f64> = (0..pulse.samples.len())
            .map(|i| t0 + i as f64 / numerics.sampling_rate_hz)
            .collect();
        let reference =
            |a: f64, b: f64| crate::eval::ppg_hr::window_reference(&times, &pulse.samples, a, b);
        report.records += 1;
        let fs = rec.sampling_rate_hz;
        let duration = rec.duration_seconds();
        let mut cuts: Vec<(usize, f64, f64)> = Vec::new();
        for rate in 0..2 {
            cuts.push((2 * rate, 0.0, duration));
            let mut k = 0.0;
            while (k + 1.0) * 10.0 <= duration + 1e-9 {
                cuts.push((2 * rate + 1, k * 10.0, (k + 1.0) * 10.0));
                k += 1.0;
            }
        }
        let Some(pleth) = rec.channel("PLETH").cloned() else {
            continue;
        };
        let pleth_100 = to_100.process(&pleth.samples);
        let ecg = ecg_reference(model, &rec);
        for (which, a, b) in cuts {
            let recording = if which == 0 {
                rec.clone()
            } else {
                let (samples, hz) = if which < 2 {
                    (&pleth.samples, fs)
                } else {
                    (&pleth_100, 100.0)
                };
                let s0 = (a * hz).round() as usize;
                let s1 = ((b * hz).round() as usize).min(samples.len());
                cardio_formats::Recording {
                    channels: vec![cardio_formats::Channel {
                        name: pleth.name.clone(),
                        unit: pleth.unit.clone(),
                        samples: samples[s0.min(s1)..s1].to_vec(),
                    }],
                    sampling_rate_hz: hz,
                    start: None,
                    metadata: BTreeMap::new(),
                }
            };
            let started = Instant::now();
            let result = model.predict(&recording);
            let elapsed = started.elapsed().as_secs_f64() * 1000.0;
            let (span, err_sum, within) = &mut spans[which];
            span.recordings += 1;
            span.ms_per_recording += elapsed;
            match result {
                Err(_) => span.unusable += 1,
                Ok(p) if p.label == "noisy" => span.noisy += 1,
                Ok(p) => {
                    *span.labels.entry(p.label.clone()).or_default() += 1;
                    let ecg_af = ecg.as_ref().and_then(|e| {
                        if which % 2 == 0 {
                            e.whole_af
                        } else {
                            e.af_in(a, b)
                        }
                    });
                    if let Some(ecg_af) = ecg_af {
                        let k = match (p.label == "af", ecg_af) {
                            (true, true) => 0,
                            (true, false) => 1,
                            (false, true) => 2,
                            (false, false) => 3,
                        };
                        span.ppg_vs_ecg_af[k] += 1;
                    }
                    let hr = p
                        .details
                        .get("heart_rate_bpm")
                        .and_then(serde_json::Value::as_f64);
                    if let (Some(hr), Some(r)) = (hr, reference(a, b)) {
                        span.scored += 1;
                        *err_sum += (hr - r).abs();
                        if (hr - r).abs() <= 5.0 {
                            *within += 1.0;
                        }
                    }
                }
            }
        }
    }
    for (mut span, err, within) in spans {
        span.ppg_vs_ecg_kappa = kappa(span.ppg_vs_ecg_af);
        span.hr_mae_bpm = ratio_f(err, span.scored);
        span.within_5_bpm = ratio_f(within, span.scored);
        span.ms_per_recording = ratio_f(span.ms_per_recording, span.recordings);
        report.spans.push(span);
    }
    Ok(report)
}

/// AF calls of the rhythm classifier on the R-R intervals of a recording's ECG lead II.
struct EcgReference {
    fs: f64,
    cleaned: Vec<f64>,
    r_peaks: Vec<usize>,
    threshold: f64,
    classifier: RhythmClassifier,
    /// AF call of the whole record (soft vote over the usable 30-s windows, as the PPG path does).
    whole_af: Option<bool>,
}

impl EcgReference {
    /// `P(af)` of the span `[a, b)` seconds; `None` when the ECG there is not usable.
    fn p_af(&self, a: f64, b: f64) -> Option<f64> {
        let n = self.cleaned.len();
        let s0 = ((a * self.fs).round() as usize).min(n);
        let s1 = ((b * self.fs).round() as usize).clamp(s0, n);
        let lo = self.r_peaks.partition_point(|&p| p < s0);
        let hi = self.r_peaks.partition_point(|&p| p < s1);
        let local: Vec<usize> = self.r_peaks[lo..hi].iter().map(|p| p - s0).collect();
        let fs = cardio_signal::SamplingRate::new(self.fs).ok()?;
        if !cardio_signal::quality::ecg(&self.cleaned[s0..s1], fs, &local).usable {
            return None;
        }
        let rr: Vec<f64> = self.r_peaks[lo..hi]
            .windows(2)
            .map(|w| 1000.0 * (w[1] - w[0]) as f64 / self.fs)
            .collect();
        let f = super::features::interval_features(&rr)?;
        Some(self.classifier.predict(&f).af)
    }

    fn af_in(&self, a: f64, b: f64) -> Option<bool> {
        self.p_af(a, b).map(|p| p >= self.threshold)
    }
}

/// Lead II of a BIDMC record through `EcgAnalyzer` (60 Hz mains), ready for [`EcgReference::af_in`].
fn ecg_reference(model: &Model, rec: &cardio_formats::Recording) -> Option<EcgReference> {
    use cardio_signal::ecg::{EcgAnalyzer, Powerline};
    let ii = rec.channel("II")?;
    let fs = cardio_signal::SamplingRate::new(rec.sampling_rate_hz).ok()?;
    if ii.samples.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let analysis = EcgAnalyzer::new(fs, Powerline::Hz60)
        .ok()?
        .analyze(&ii.samples)
        .ok()?;
    let mut out = EcgReference {
        fs: fs.hz(),
        cleaned: analysis.cleaned,
        r_peaks: analysis.r_peaks,
        threshold: model.params.af_threshold,
        classifier: model.params.classifier.clone(),
        whole_af: None,
    };
    let duration = ii.samples.len() as f64 / fs.hz();
    let (mut sum, mut total) = (0.0, 0.0);
    for (a, b) in super::predict::plan_windows(duration) {
        if let Some(p) = out.p_af(a, b) {
            sum += p * (b - a);
            total += b - a;
        }
    }
    if total * 2.0 >= duration {
        out.whole_af = Some(sum / total >= out.threshold);
    }
    Some(out)
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

fn ratio_f(a: f64, n: usize) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        a / n as f64
    }
}

fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1}", 100.0 * v)
    } else {
        "–".into()
    }
}

fn ci(c: (f64, f64)) -> String {
    format!("{}–{}", pct(c.0), pct(c.1))
}

fn af_table(f: &mut fmt::Formatter<'_>, cells: &[AfCell]) -> fmt::Result {
    writeln!(
        f,
        "| source | window | windows (AF) | persons (with AF) | AF Se % (95 % CI) | AF Sp % (95 % CI) | AUROC |"
    )?;
    writeln!(f, "|---|---|---|---|---|---|---|")?;
    for c in cells {
        writeln!(
            f,
            "| {} | {:.0} s | {} ({}) | {} ({}) | {} ({}) | {} ({}) | {:.3} |",
            c.source,
            c.length_s,
            c.windows,
            c.af_windows,
            c.persons,
            c.af_persons,
            pct(c.se),
            ci(c.se_ci),
            pct(c.sp),
            ci(c.sp_ci),
            c.auroc
        )?;
    }
    Ok(())
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.data.is_empty() {
            self.fmt_validation(f)?;
        }
        self.fmt_bidmc(f)
    }
}

impl Report {
    fn fmt_validation(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "## Interval windows (ECG-derived)\n")?;
        writeln!(
            f,
            "| source | window | persons | normal | af | irregular | other non-AF |"
        )?;
        writeln!(f, "|---|---|---|---|---|---|---|")?;
        for d in &self.data {
            let g = |k: &str| d.windows.get(k).copied().unwrap_or(0);
            writeln!(
                f,
                "| {} | {:.0} s | {} | {} | {} | {} | {} |",
                d.source,
                d.length_s,
                d.persons,
                g("normal"),
                g("af"),
                g("irregular"),
                g("other_non_af")
            )?;
        }
        writeln!(
            f,
            "\n## Grouped {FOLDS}-fold CV (persons never straddle folds)\n\nAF = P(af) >= threshold chosen by inner CV in the training folds: {:?}; deployed threshold (from this CV's out-of-fold predictions): {}\n",
            self.fold_thresholds, self.threshold
        )?;
        af_table(f, &self.cv)?;
        for (len, c) in &self.cv_calibration {
            writeln!(
                f,
                "\nCalibration of the out-of-fold P(af), {len:.0}-s windows, all sources: {}\n\n{}",
                c.summary(),
                c.markdown_table()
            )?;
        }
        for j in &self.cv_jittered {
            writeln!(
                f,
                "\nThe same held-out windows with every beat time moved by Gaussian noise of SD {} ms (PPG-like timing noise):\n",
                j.jitter_ms
            )?;
            af_table(f, &j.cells)?;
        }
        writeln!(
            f,
            "\n## MIT-BIH 3-class confusion (CV), rows truth, columns predicted\n"
        )?;
        for c in &self.confusion {
            writeln!(f, "{:.0}-s windows:\n", c.length_s)?;
            writeln!(f, "| truth \\ predicted | normal | af | irregular |")?;
            writeln!(f, "|---|---|---|---|")?;
            for (name, row) in ["normal", "af", "irregular", "other non-AF"]
                .iter()
                .zip(&c.counts)
            {
                writeln!(f, "| {name} | {} | {} | {} |", row[0], row[1], row[2])?;
            }
            writeln!(f)?;
        }
        writeln!(f, "## External checks\n")?;
        for e in &self.external {
            writeln!(
                f,
                "Train {} ({} windows, threshold {} by inner CV) → test {}:\n",
                e.train, e.train_windows, e.threshold, e.test
            )?;
            af_table(f, &e.cells)?;
            writeln!(f)?;
        }
        Ok(())
    }

    fn fmt_bidmc(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(b) = &self.bidmc {
            writeln!(
                f,
                "## BIDMC through the predict path ({} records, fingertip PLETH at 125 Hz and resampled to 100 Hz, reference: monitor PULSE)\n",
                b.records
            )?;
            writeln!(
                f,
                "| recordings | rate | n | unusable | noisy | normal / af / irregular | HR scored | HR MAE bpm | within 5 bpm | ms per prediction | AF calls PPG vs ECG (both / PPG only / ECG only / neither) | kappa |"
            )?;
            writeln!(f, "|---|---|---|---|---|---|---|---|---|---|---|---|")?;
            for s in &b.spans {
                let g = |k: &str| s.labels.get(k).copied().unwrap_or(0);
                writeln!(
                    f,
                    "| {} | {:.0} Hz | {} | {} | {} | {} / {} / {} | {} | {:.2} | {} % | {:.2} | {} / {} / {} / {} | {:.2} |",
                    s.span,
                    s.rate_hz,
                    s.recordings,
                    s.unusable,
                    s.noisy,
                    g("normal"),
                    g("af"),
                    g("irregular"),
                    s.scored,
                    s.hr_mae_bpm,
                    pct(s.within_5_bpm),
                    s.ms_per_recording,
                    s.ppg_vs_ecg_af[0],
                    s.ppg_vs_ecg_af[1],
                    s.ppg_vs_ecg_af[2],
                    s.ppg_vs_ecg_af[3],
                    s.ppg_vs_ecg_kappa
                )?;
            }
            writeln!(f)?;
        }
        if !self.importance.is_empty() {
            writeln!(f, "## AF stage: split-gain importance (share)\n")?;
            for (n, v) in self.importance.iter().take(10) {
                writeln!(f, "- {n}: {v:.3}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(group: &str, label: WindowLabel) -> Window {
        Window {
            source: Source::Mitdb,
            record: 0,
            group: group.into(),
            length_s: 10.0,
            start_s: 0.0,
            label,
            features: vec![0.0],
            intervals_ms: Vec::new(),
        }
    }

    #[test]
    fn folds_never_split_a_person_and_spread_af_persons() {
        let mut w = Vec::new();
        for g in 0..20 {
            for _ in 0..5 {
                let label = if g < 5 {
                    WindowLabel::Af
                } else {
                    WindowLabel::Normal
                };
                w.push(window(&format!("p{g}"), label));
            }
        }
        let w: Vec<&Window> = w.iter().collect();
        let folds = grouped_folds(&w, 5, 3);
        for g in 0..20 {
            let name = format!("p{g}");
            let f: BTreeSet<usize> = w
                .iter()
                .zip(&folds)
                .filter(|(x, _)| x.group == name)
                .map(|(_, &f)| f)
                .collect();
            assert_eq!(f.len(), 1);
        }
        let af_folds: BTreeSet<usize> = w
            .iter()
            .zip(&folds)
            .filter(|(x, _)| x.label == WindowLabel::Af)
            .map(|(_, &f)| f)
            .collect();
        assert_eq!(af_folds.len(), 5);
        assert_eq!(folds, grouped_folds(&w, 5, 3));
    }

    #[test]
    fn the_threshold_balances_sensitivity_and_specificity_on_ten_second_windows() {
        let af = window("a", WindowLabel::Af);
        let non = window("b", WindowLabel::Normal);
        let mut long = window("c", WindowLabel::Normal);
        long.length_s = 30.0;
        // AF at 0.42 and 0.8; non-AF at 0.1 and 0.38: any t in (0.38, 0.42] separates them.
        let scored = vec![
            (&af, 0.42),
            (&af, 0.8),
            (&non, 0.1),
            (&non, 0.38),
            (&long, 0.99),
        ];
        assert_eq!(best_threshold(&scored), 0.4);
        assert_eq!(best_threshold(&[(&non, 0.3)]), 0.5);
    }

    #[test]
    fn kappa_is_one_for_perfect_agreement_and_zero_for_chance() {
        assert_eq!(kappa([5, 0, 0, 5]), 1.0);
        assert_eq!(kappa([25, 25, 25, 25]), 0.0);
        assert!(kappa([0, 0, 0, 0]).is_nan());
    }

    #[test]
    fn sensitivity_and_specificity_are_exact_and_cis_contain_them() {
        let scored: Vec<Scored> = (0..40)
            .map(|i| Scored {
                group: ["a", "b", "c", "d", "e", "f", "g", "h"][i % 8],
                af: i % 2 == 0,
                p: if i % 4 == 0 || i % 10 == 1 { 0.9 } else { 0.1 },
                pos: i % 4 == 0 || i % 10 == 1,
            })
            .collect();
        let c = af_cell("x", 10.0, &scored, 1);
        // AF windows: i even (20); called AF when i % 4 == 0 (10) -> Se 0.5.
        assert_eq!(c.se, 0.5);
        // Non-AF: i odd (20); called AF when i % 10 == 1 (4) -> Sp 0.8.
        assert_eq!(c.sp, 0.8);
        assert!(c.se_ci.0 <= c.se && c.se <= c.se_ci.1);
        assert!(c.sp_ci.0 <= c.sp && c.sp <= c.sp_ci.1);
        assert_eq!(c.windows, 40);
        assert_eq!(c.persons, 8);
    }
}
