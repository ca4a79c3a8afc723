//! The training of the PPG rhythm classifier ([`cardio_models::ppg_rhythm::classifier`]): the AF
//! stage against every non-AF window, then irregular against normal among the windows labelled one
//! or the other, both with balanced class weights and the boosting settings of [`config`], fixed a
//! priori and not tuned.

use cardio_models::gbdt::GbdtConfig;
use cardio_models::ppg_rhythm::classifier::{RhythmClassifier, WindowLabel};

use crate::gbdt::{balanced_weights, fit};

/// The boosting settings of both stages, fixed a priori.
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

/// Fits both stages to feature rows and window labels (deterministic for a seed).
///
/// Returns `None` when the rows do not hold both AF and non-AF windows.
pub fn train(x: &[Vec<f64>], y: &[WindowLabel], seed: u64) -> Option<RhythmClassifier> {
    let is_af: Vec<usize> = y
        .iter()
        .map(|&l| usize::from(l == WindowLabel::Af))
        .collect();
    if is_af.iter().all(|&v| v == 1) || is_af.iter().all(|&v| v == 0) {
        return None;
    }
    let cfg = config(seed);
    let af = fit(x, &is_af, 2, Some(&balanced_weights(&is_af, 2)), &cfg);
    let (mut x2, mut y2) = (Vec::new(), Vec::new());
    for (row, &l) in x.iter().zip(y) {
        match l {
            WindowLabel::Normal => {
                x2.push(row.clone());
                y2.push(0);
            }
            WindowLabel::Irregular => {
                x2.push(row.clone());
                y2.push(1);
            }
            WindowLabel::Af | WindowLabel::OtherNonAf => {}
        }
    }
    let irregular = (y2.contains(&0) && y2.contains(&1)).then(|| {
        fit(
            &x2,
            &y2,
            2,
            Some(&balanced_weights(&y2, 2)),
            &config(seed.wrapping_add(1)),
        )
    });
    Some(RhythmClassifier { af, irregular })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_combine_the_two_stages_and_sum_to_one() {
        // Feature 0 decides AF, feature 1 decides irregular.
        let mut x = Vec::new();
        let mut y = Vec::new();
        for i in 0..300 {
            let a = f64::from(i % 3);
            let b = f64::from(i % 2);
            x.push(vec![a, b]);
            y.push(if a == 2.0 {
                WindowLabel::Af
            } else if b == 1.0 {
                WindowLabel::Irregular
            } else {
                WindowLabel::Normal
            });
        }
        let c = train(&x, &y, 1).unwrap();
        for (row, want) in [
            ([2.0, 0.0], WindowLabel::Af),
            ([0.0, 1.0], WindowLabel::Irregular),
            ([1.0, 0.0], WindowLabel::Normal),
        ] {
            let p = c.predict(&row);
            assert!((p.normal + p.af + p.irregular - 1.0).abs() < 1e-12);
            assert_eq!(p.label(0.5).0, want, "{row:?} {p:?}");
        }
        assert!(train(&x[..1], &y[..1], 1).is_none());
    }
}
