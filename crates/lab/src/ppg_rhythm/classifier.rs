//! The training of the PPG rhythm classifier ([`cardio_models::ppg_rhythm::classifier`]): one
//! six-class boosted model on the usable windows, weighted so that the three labels it folds into
//! (normal, AF, irregular) weigh the same and the four irregular rhythms weigh the same within
//! theirs, with the boosting settings of [`config`], fixed a priori and not tuned.

use cardio_models::gbdt::GbdtConfig;
use cardio_models::ppg_rhythm::classifier::{Rhythm, RhythmClassifier, WindowLabel};

use crate::gbdt::fit;

/// The boosting settings, fixed a priori.
pub fn config(seed: u64) -> GbdtConfig {
    GbdtConfig {
        rounds: 120,
        learning_rate: 0.1,
        max_depth: 4,
        min_child_weight: 2.0,
        lambda: 1.0,
        subsample: 0.8,
        colsample: 0.8,
        seed,
    }
}

/// Row weights: each label totals a third of the weight; within a label each rhythm present
/// weighs the same.
pub fn weights(y: &[Rhythm]) -> Vec<f64> {
    let mut count = [0usize; 6];
    for r in y {
        count[r.index()] += 1;
    }
    let present = |l: WindowLabel| {
        Rhythm::ALL
            .into_iter()
            .filter(|r| r.label() == l && count[r.index()] > 0)
            .count()
    };
    let labels = WindowLabel::ALL
        .into_iter()
        .filter(|&l| present(l) > 0)
        .count();
    y.iter()
        .map(|r| {
            let share = 1.0 / (labels.max(1) * present(r.label()).max(1)) as f64;
            share * y.len() as f64 / count[r.index()].max(1) as f64
        })
        .collect()
}

/// Fits the classifier to feature rows and their rhythms (deterministic for a seed); `None`
/// without both AF and non-AF rows.
pub fn train(x: &[Vec<f64>], y: &[Rhythm], seed: u64) -> Option<RhythmClassifier> {
    let af = y.iter().filter(|&&r| r == Rhythm::Af).count();
    if af == 0 || af == y.len() {
        return None;
    }
    let classes: Vec<usize> = y.iter().map(|r| r.index()).collect();
    let model = fit(
        x,
        &classes,
        Rhythm::ALL.len(),
        Some(&weights(y)),
        &config(seed),
    );
    Some(RhythmClassifier { model })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_label_weighs_a_third() {
        let y = [
            Rhythm::Sinus,
            Rhythm::Sinus,
            Rhythm::Af,
            Rhythm::Pvc,
            Rhythm::Svt,
            Rhythm::Svt,
        ];
        let w = weights(&y);
        let total: f64 = w.iter().sum();
        let of = |l: WindowLabel| {
            y.iter()
                .zip(&w)
                .filter(|(r, _)| r.label() == l)
                .map(|(_, w)| w)
                .sum::<f64>()
        };
        for l in WindowLabel::ALL {
            assert!((of(l) / total - 1.0 / 3.0).abs() < 1e-12, "{l:?}");
        }
        assert!((w[3] - w[4] * 2.0).abs() < 1e-12);
    }

    #[test]
    fn a_feature_that_names_the_rhythm_is_learnt() {
        let mut x = Vec::new();
        let mut y = Vec::new();
        for i in 0..600 {
            let r = Rhythm::ALL[i % 6];
            x.push(vec![r.index() as f64, (i % 7) as f64]);
            y.push(r);
        }
        let c = train(&x, &y, 1).unwrap();
        for r in Rhythm::ALL {
            let p = c.predict(&[r.index() as f64, 3.0]);
            assert!(p.of(r) > 0.8, "{r:?} {p:?}");
        }
        assert!(train(&x[..1], &y[..1], 1).is_none());
    }
}
