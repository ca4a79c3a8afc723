//! Validation of the ECG rhythm model as the model card reports it: stratified 5-fold CV with a
//! fixed seed over the 8528 CinC 2017 training records, the challenge score (mean F1 of N, A and O,
//! Clifford et al. 2017), per-class F1, the confusion matrix, the fraction predicted noisy, AF
//! sensitivity/specificity, and 95 % bootstrap CIs over records (seeded).
//!
//! The features are computed without labels; the boosting capacity is chosen among settings fixed
//! a priori ([`super::candidate_configs`]) by an inner 3-fold CV inside each outer training fold
//! (nested CV), so nothing is tuned on the test folds.

// x, y, f, n, k, v, w follow the signal-processing and boosting papers' notation.
#![allow(clippy::many_single_char_names)]

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use crate::gbdt::{balanced_weights, fit};
use cardio_models::ecg_rhythm::features::FEATURE_NAMES;
pub use cardio_models::ecg_rhythm::{argmax, Choice};
use cardio_models::ecg_rhythm::{Class, CLASSES};
use cardio_models::gbdt::{Gbdt, GbdtConfig};

use super::data::Table;
use super::{candidate_configs, describe_config};
use crate::clinical::metrics::{calibration, Calibration};
use crate::resample::{draw, percentile_nearest, SplitMix64};

/// Seed of the folds and the bootstrap.
pub const SEED: u64 = 0x00EC_6201;
/// Folds of the CV.
pub const FOLDS: usize = 5;
/// Bootstrap resamples for the CIs.
pub const BOOTSTRAP: usize = 1000;
/// Folds of the inner CV that chooses the boosting settings.
pub const INNER_FOLDS: usize = 3;

/// Chooses the boosting settings by the challenge score of a stratified inner CV on `x`, `y`
/// (balanced class weights as in the final fit), running the fits on `threads` threads (at most 2).
pub fn select_config(x: &[Vec<f64>], y: &[usize], seed: u64, threads: usize) -> Choice {
    let k = CLASSES.len();
    let configs = candidate_configs();
    let fold = stratified_folds(y, k, INNER_FOLDS, &mut SplitMix64::new(seed ^ 0x1AAE));
    let jobs: Vec<(usize, usize)> = (0..configs.len())
        .flat_map(|c| (0..INNER_FOLDS).map(move |f| (c, f)))
        .collect();
    let run = |(c, f): (usize, usize)| -> Vec<(usize, usize)> {
        let train: Vec<usize> = (0..y.len()).filter(|&i| fold[i] != f).collect();
        let tx: Vec<Vec<f64>> = train.iter().map(|&i| x[i].clone()).collect();
        let ty: Vec<usize> = train.iter().map(|&i| y[i]).collect();
        let w = balanced_weights(&ty, k);
        let m = fit(&tx, &ty, k, Some(&w), &configs[c]);
        (0..y.len())
            .filter(|&i| fold[i] == f)
            .map(|i| (i, argmax(&m.predict_proba(&x[i]))))
            .collect()
    };
    let threads = threads.clamp(1, 2);
    let mut pred = vec![vec![0usize; y.len()]; configs.len()];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<(usize, usize)> =
                    jobs.iter().copied().skip(t).step_by(threads).collect();
                let run = &run;
                s.spawn(move || mine.into_iter().map(|j| (j.0, run(j))).collect::<Vec<_>>())
            })
            .collect();
        for h in handles {
            if let Ok(done) = h.join() {
                for (c, rows) in done {
                    for (i, p) in rows {
                        pred[c][i] = p;
                    }
                }
            }
        }
    });
    let scores: Vec<f64> = pred
        .iter()
        .map(|p| challenge_score(&f1_per_class(&confusion(y, p, k))))
        .collect();
    let mut chosen = 0;
    for (i, v) in scores.iter().enumerate() {
        if *v > scores[chosen] {
            chosen = i;
        }
    }
    Choice { scores, chosen }
}

/// The stratified folds of the CV and the inner CV: one stratum per class (`y` is the class).
pub use crate::resample::stratified_folds;

/// `confusion[true][predicted]` counts.
pub fn confusion(y: &[usize], pred: &[usize], n_classes: usize) -> Vec<Vec<usize>> {
    let mut c = vec![vec![0; n_classes]; n_classes];
    for (&t, &p) in y.iter().zip(pred) {
        c[t][p] += 1;
    }
    c
}

/// F1 of each class from a confusion matrix, `2·C[k][k] / (Σ_j C[k][j] + Σ_i C[i][k])` as the
/// challenge scores it (NaN for a class neither present nor predicted).
pub fn f1_per_class(c: &[Vec<usize>]) -> Vec<f64> {
    (0..c.len())
        .map(|k| {
            let row: usize = c[k].iter().sum();
            let col: usize = c.iter().map(|r| r[k]).sum();
            if row + col == 0 {
                f64::NAN
            } else {
                2.0 * c[k][k] as f64 / (row + col) as f64
            }
        })
        .collect()
}

/// The challenge score: mean F1 of normal, AF and other rhythm (noisy left out).
pub fn challenge_score(f1: &[f64]) -> f64 {
    (f1[Class::Normal.index()] + f1[Class::Af.index()] + f1[Class::Other.index()]) / 3.0
}

/// A figure with its 95 % bootstrap CI.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WithCi {
    /// The estimate on all records.
    pub value: f64,
    /// 2.5th percentile of the bootstrap.
    pub low: f64,
    /// 97.5th percentile of the bootstrap.
    pub high: f64,
}

/// The validation report of the model card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Records used.
    pub records: usize,
    /// Records per class (N, A, O, ~).
    pub class_counts: Vec<usize>,
    /// Folds.
    pub folds: usize,
    /// Seed.
    pub seed: u64,
    /// Challenge score (mean F1 of N, A, O) of the pooled out-of-fold predictions.
    pub mean_f1_nao: WithCi,
    /// F1 per class (N, A, O, ~).
    pub f1: Vec<WithCi>,
    /// Challenge score of each fold.
    pub fold_scores: Vec<f64>,
    /// `confusion[true][predicted]` of the pooled out-of-fold predictions.
    pub confusion: Vec<Vec<usize>>,
    /// Fraction of records predicted noisy.
    pub predicted_noisy_fraction: f64,
    /// AF versus the rest: sensitivity.
    pub af_sensitivity: WithCi,
    /// AF versus the rest: specificity.
    pub af_specificity: WithCi,
    /// Accuracy over the four classes.
    pub accuracy: f64,
    /// Calibration of the out-of-fold `P(af)` against AF (one against the rest).
    pub af_calibration: Calibration,
    /// Calibration of the confidence (the predicted class's probability) against the prediction
    /// being right.
    pub confidence_calibration: Calibration,
    /// The 15 features with the largest total split gain in the CV models (share of the total).
    pub top_features: Vec<(String, f64)>,
    /// Seconds spent on feature extraction (wall clock) and threads used.
    pub feature_seconds: f64,
    /// Threads of the feature extraction.
    pub feature_threads: usize,
    /// The inner CV's choice of settings in each outer fold.
    pub inner_choices: Vec<Choice>,
    /// The inner CV's choice on all records, for the committed model (set by `train`).
    pub final_choice: Option<Choice>,
}

/// Out-of-fold results of the nested, stratified CV.
pub struct CvResult {
    /// Out-of-fold class probabilities of every row.
    pub proba: Vec<Vec<f64>>,
    /// Outer fold of every row.
    pub fold: Vec<usize>,
    /// Total split gain per feature over the fold models.
    pub importance: Vec<f64>,
    /// The inner CV's choice in each outer fold.
    pub choices: Vec<Choice>,
}

/// Nested stratified CV: in each outer training fold the inner CV ([`select_config`]) picks the
/// settings, the model is fitted on that training fold and predicts the held-out fold. Outer
/// folds run two at a time.
pub fn cross_validate(table: &Table, folds: usize, seed: u64) -> CvResult {
    let k = CLASSES.len();
    let fold = stratified_folds(&table.y, k, folds, &mut SplitMix64::new(seed));
    let fit_fold = |f: usize| -> (Gbdt, Vec<usize>, Choice) {
        let train: Vec<usize> = (0..table.y.len()).filter(|&i| fold[i] != f).collect();
        let x: Vec<Vec<f64>> = train.iter().map(|&i| table.x[i].clone()).collect();
        let y: Vec<usize> = train.iter().map(|&i| table.y[i]).collect();
        let choice = select_config(&x, &y, seed.wrapping_add(f as u64), 1);
        let w = balanced_weights(&y, k);
        let model = fit(&x, &y, k, Some(&w), &candidate_configs()[choice.chosen]);
        let test: Vec<usize> = (0..table.y.len()).filter(|&i| fold[i] == f).collect();
        (model, test, choice)
    };
    let mut results: Vec<Option<(Gbdt, Vec<usize>, Choice)>> = (0..folds).map(|_| None).collect();
    std::thread::scope(|s| {
        for pair in (0..folds).collect::<Vec<_>>().chunks(2) {
            let handles: Vec<_> = pair
                .iter()
                .map(|&f| (f, s.spawn(move || fit_fold(f))))
                .collect();
            for (f, h) in handles {
                results[f] = h.join().ok();
            }
        }
    });
    let mut proba = vec![vec![0.0; k]; table.y.len()];
    let mut importance = vec![0.0; FEATURE_NAMES.len()];
    let mut choices = Vec::new();
    for (model, test, choice) in results.into_iter().flatten() {
        for &i in &test {
            proba[i] = if table.gated.get(i).copied().unwrap_or(false) {
                // Refused by the plausibility gate: the result is noisy whatever the trees say.
                let mut p = vec![0.0; k];
                p[Class::Noisy.index()] = 1.0;
                p
            } else {
                model.predict_proba(&table.x[i])
            };
        }
        for (a, b) in importance.iter_mut().zip(&model.importance) {
            *a += b;
        }
        choices.push(choice);
    }
    CvResult {
        proba,
        fold,
        importance,
        choices,
    }
}

fn percentile(mut v: Vec<f64>, q: f64) -> f64 {
    v.retain(|x| x.is_finite());
    v.sort_unstable_by(f64::total_cmp);
    percentile_nearest(&v, q)
}

/// Challenge score, per-class F1, AF sensitivity and specificity of one (re)sample.
type Scores = (f64, Vec<f64>, f64, f64);

/// The report from out-of-fold probabilities.
pub fn report(table: &Table, cv: &CvResult) -> Report {
    let (proba, fold, importance) = (&cv.proba, &cv.fold, &cv.importance);
    let k = CLASSES.len();
    let n = table.y.len();
    let pred: Vec<usize> = proba.iter().map(|p| argmax(p)).collect();
    let af = Class::Af.index();
    let sens_spec = |idx: &[usize]| {
        let (mut tp, mut fn_, mut tn, mut fp) = (0.0, 0.0, 0.0, 0.0);
        for &i in idx {
            match (table.y[i] == af, pred[i] == af) {
                (true, true) => tp += 1.0,
                (true, false) => fn_ += 1.0,
                (false, false) => tn += 1.0,
                (false, true) => fp += 1.0,
            }
        }
        (tp / (tp + fn_), tn / (tn + fp))
    };
    let all: Vec<usize> = (0..n).collect();
    let scores = |idx: &[usize]| {
        let y: Vec<usize> = idx.iter().map(|&i| table.y[i]).collect();
        let p: Vec<usize> = idx.iter().map(|&i| pred[i]).collect();
        let f1 = f1_per_class(&confusion(&y, &p, k));
        let (se, sp) = sens_spec(idx);
        (challenge_score(&f1), f1, se, sp)
    };
    let (score, f1, se, sp) = scores(&all);
    // Bootstrap over records.
    let mut rng = SplitMix64::new(SEED ^ 0xB007);
    let mut boot: Vec<Scores> = Vec::with_capacity(BOOTSTRAP);
    for _ in 0..BOOTSTRAP {
        let idx: Vec<usize> = (0..n).map(|_| draw(&mut rng, n)).collect();
        boot.push(scores(&idx));
    }
    let ci = |value: f64, get: &dyn Fn(&Scores) -> f64| WithCi {
        value,
        low: percentile(boot.iter().map(get).collect(), 0.025),
        high: percentile(boot.iter().map(get).collect(), 0.975),
    };
    let fold_scores = (0..FOLDS)
        .map(|f| {
            let idx: Vec<usize> = (0..n).filter(|&i| fold[i] == f).collect();
            scores(&idx).0
        })
        .collect();
    let total_imp: f64 = importance.iter().sum::<f64>().max(1e-12);
    let mut top: Vec<(String, f64)> = FEATURE_NAMES
        .iter()
        .zip(importance)
        .map(|(name, v)| ((*name).to_string(), v / total_imp))
        .collect();
    top.sort_by(|a, b| b.1.total_cmp(&a.1));
    top.truncate(15);
    let mut class_counts = vec![0; k];
    for &c in &table.y {
        class_counts[c] += 1;
    }
    let c = confusion(&table.y, &pred, k);
    let noisy = Class::Noisy.index();
    let p_af: Vec<f64> = proba.iter().map(|p| p[af]).collect();
    let is_af: Vec<bool> = table.y.iter().map(|&y| y == af).collect();
    let confidence: Vec<f64> = proba.iter().zip(&pred).map(|(p, &j)| p[j]).collect();
    let right: Vec<bool> = table.y.iter().zip(&pred).map(|(y, p)| y == p).collect();
    Report {
        records: n,
        class_counts,
        folds: FOLDS,
        seed: SEED,
        mean_f1_nao: ci(score, &|b| b.0),
        f1: (0..k).map(|j| ci(f1[j], &|b| b.1[j])).collect(),
        fold_scores,
        predicted_noisy_fraction: pred.iter().filter(|&&p| p == noisy).count() as f64 / n as f64,
        af_sensitivity: ci(se, &|b| b.2),
        af_specificity: ci(sp, &|b| b.3),
        accuracy: (0..k).map(|j| c[j][j]).sum::<usize>() as f64 / n as f64,
        af_calibration: calibration(&p_af, &is_af),
        confidence_calibration: calibration(&confidence, &right),
        confusion: c,
        top_features: top,
        feature_seconds: table.seconds,
        feature_threads: table.threads,
        inner_choices: cv.choices.clone(),
        final_choice: None,
    }
}

/// A plain (not nested) stratified CV with one fixed setting: the quick check used while
/// developing features (`ecg_rhythm quick`); the card reports [`evaluate_table`].
pub fn evaluate_fixed(table: &Table, config: &GbdtConfig) -> Report {
    let k = CLASSES.len();
    let fold = stratified_folds(&table.y, k, FOLDS, &mut SplitMix64::new(SEED));
    let mut proba = vec![vec![0.0; k]; table.y.len()];
    let mut importance = vec![0.0; FEATURE_NAMES.len()];
    let fit_fold = |f: usize| {
        let train: Vec<usize> = (0..table.y.len()).filter(|&i| fold[i] != f).collect();
        let x: Vec<Vec<f64>> = train.iter().map(|&i| table.x[i].clone()).collect();
        let y: Vec<usize> = train.iter().map(|&i| table.y[i]).collect();
        let w = balanced_weights(&y, k);
        (f, fit(&x, &y, k, Some(&w), config))
    };
    let mut models = Vec::new();
    std::thread::scope(|s| {
        for pair in (0..FOLDS).collect::<Vec<_>>().chunks(2) {
            let handles: Vec<_> = pair.iter().map(|&f| s.spawn(move || fit_fold(f))).collect();
            models.extend(handles.into_iter().filter_map(|h| h.join().ok()));
        }
    });
    for (f, m) in models {
        for i in (0..table.y.len()).filter(|&i| fold[i] == f) {
            proba[i] = m.predict_proba(&table.x[i]);
        }
        for (a, b) in importance.iter_mut().zip(&m.importance) {
            *a += b;
        }
    }
    report(
        table,
        &CvResult {
            proba,
            fold,
            importance,
            choices: Vec::new(),
        },
    )
}

/// Runs the CV on a feature table.
pub fn evaluate_table(table: &Table) -> Report {
    report(table, &cross_validate(table, FOLDS, SEED))
}

impl fmt::Display for Report {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        let counts: Vec<String> = CLASSES
            .iter()
            .zip(&self.class_counts)
            .map(|(c, n)| format!("{} {n}", c.cinc()))
            .collect();
        let _ = writeln!(
            s,
            "ECG rhythm model (ecg-rhythm-gbdt): CinC 2017 training set, {} records ({}), stratified {}-fold CV, seed {:#x}",
            self.records,
            counts.join(" / "),
            self.folds,
            self.seed
        );
        let _ = writeln!(s, "\n| metric | value [95% bootstrap CI] |\n|---|---|");
        let ci = |w: &WithCi| format!("{:.3} [{:.3}-{:.3}]", w.value, w.low, w.high);
        let _ = writeln!(
            s,
            "| challenge score, mean F1 of N, A, O | **{}** |",
            ci(&self.mean_f1_nao)
        );
        for (c, f) in CLASSES.iter().zip(&self.f1) {
            let _ = writeln!(s, "| F1 {} ({}) | {} |", c.cinc(), c.code(), ci(f));
        }
        let _ = writeln!(
            s,
            "| AF sensitivity (AF vs rest) | {} |",
            ci(&self.af_sensitivity)
        );
        let _ = writeln!(
            s,
            "| AF specificity (AF vs rest) | {} |",
            ci(&self.af_specificity)
        );
        let _ = writeln!(s, "| accuracy (4 classes) | {:.3} |", self.accuracy);
        let _ = writeln!(
            s,
            "| fraction predicted noisy | {:.3} (true noisy {:.3}) |",
            self.predicted_noisy_fraction,
            self.class_counts[Class::Noisy.index()] as f64 / self.records.max(1) as f64
        );
        let folds: Vec<String> = self.fold_scores.iter().map(|v| format!("{v:.3}")).collect();
        let _ = writeln!(s, "| challenge score per fold | {} |", folds.join(", "));
        let _ = writeln!(
            s,
            "\nConfusion matrix (rows: reference, columns: predicted):\n"
        );
        let head: Vec<&str> = CLASSES.iter().map(|c| c.cinc()).collect();
        let _ = writeln!(s, "| reference \\ predicted | {} |", head.join(" | "));
        let _ = writeln!(s, "|---|---|---|---|---|");
        for (c, row) in CLASSES.iter().zip(&self.confusion) {
            let cells: Vec<String> = row.iter().map(ToString::to_string).collect();
            let _ = writeln!(s, "| {} | {} |", c.cinc(), cells.join(" | "));
        }
        for (what, c) in [
            ("P(af) against AF (one against the rest)", &self.af_calibration),
            (
                "confidence (the probability of the predicted class) against the prediction being right",
                &self.confidence_calibration,
            ),
        ] {
            let _ = writeln!(
                s,
                "\nCalibration of the out-of-fold {what}: {}\n\n{}",
                c.summary(),
                c.markdown_table()
            );
        }
        let _ = writeln!(
            s,
            "\nTop features by split gain (share of the total over the CV models):\n"
        );
        let _ = writeln!(s, "| feature | share |\n|---|---|");
        for (name, v) in &self.top_features {
            let _ = writeln!(s, "| {name} | {v:.3} |");
        }
        let _ = writeln!(s, "\nBoosting settings chosen by the inner 3-fold CV (inner challenge score of each candidate):\n");
        let cands: Vec<String> = candidate_configs().iter().map(describe_config).collect();
        let _ = writeln!(s, "| outer fold | {} | chosen |", cands.join(" | "));
        let _ = writeln!(s, "|---|---|---|---|---|");
        for (i, c) in self.inner_choices.iter().enumerate() {
            let v: Vec<String> = c.scores.iter().map(|v| format!("{v:.3}")).collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} |",
                i + 1,
                v.join(" | "),
                describe_config(&candidate_configs()[c.chosen])
            );
        }
        if let Some(c) = &self.final_choice {
            let v: Vec<String> = c.scores.iter().map(|v| format!("{v:.3}")).collect();
            let _ = writeln!(
                s,
                "| all records (committed model) | {} | {} |",
                v.join(" | "),
                describe_config(&candidate_configs()[c.chosen])
            );
        }
        let _ = writeln!(
            s,
            "\nFeature extraction: {:.1} s wall clock for {} records on {} thread(s) (reading included).",
            self.feature_seconds, self.records, self.feature_threads
        );
        out.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f1_and_challenge_score_of_a_hand_computed_confusion() {
        // rows true N, A, O, ~ ; columns predicted.
        let c = vec![
            vec![8, 0, 2, 0],
            vec![1, 3, 0, 0],
            vec![1, 0, 4, 1],
            vec![0, 0, 0, 0],
        ];
        let f1 = f1_per_class(&c);
        assert_eq!(f1[0], 16.0 / 20.0);
        assert_eq!(f1[1], 6.0 / 7.0);
        assert_eq!(f1[2], 8.0 / 12.0);
        assert_eq!(f1[3], 0.0);
        assert!((challenge_score(&f1) - (0.8 + 6.0 / 7.0 + 8.0 / 12.0) / 3.0).abs() < 1e-15);
    }

    #[test]
    fn stratified_folds_keep_each_class_spread_and_are_seeded() {
        let y: Vec<usize> = (0..200)
            .map(|i| [0, 0, 0, 1, 2][i % 5] + usize::from(i % 50 == 0) * 3 % 4)
            .collect();
        let folds = stratified_folds(&y, 4, 5, &mut SplitMix64::new(1));
        for c in 0..4 {
            let per: Vec<usize> = (0..5)
                .map(|f| (0..200).filter(|&i| y[i] == c && folds[i] == f).count())
                .collect();
            let (lo, hi) = (per.iter().min().unwrap(), per.iter().max().unwrap());
            assert!(hi - lo <= 1, "class {c}: {per:?}");
        }
        assert_eq!(folds, stratified_folds(&y, 4, 5, &mut SplitMix64::new(1)));
    }

    #[test]
    fn argmax_takes_the_largest() {
        assert_eq!(argmax(&[0.1, 0.5, 0.3, 0.1]), 1);
        assert_eq!(argmax(&[]), 0);
    }
}
