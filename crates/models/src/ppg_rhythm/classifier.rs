//! The rhythm classifier on interval features: two gradient-boosted tree models ([`crate::gbdt`],
//! Friedman 2001; Chen & Guestrin 2016) in sequence.
//!
//! 1. **AF gate**: AF against every non-AF window (normal, irregular and other non-AF), balanced
//!    class weights.
//! 2. **Irregular**: among non-AF windows, irregular (frequent ectopy) against normal, trained only
//!    on windows labelled one or the other, balanced class weights.
//!
//! The class probabilities are `P(af) = p1`, `P(irregular) = (1 - p1) p2`, `P(normal) = (1 - p1)
//! (1 - p2)`. A window is AF when `p1` reaches the AF threshold (chosen by an inner grouped CV in
//! `cardio-lab`, `ppg_rhythm::validation::choose_threshold`), otherwise the more probable of
//! irregular and normal. [`WindowLabel`] names the classes of a window.
//! The boosting settings ([`config`]) were fixed before any validation and are not tuned.

use serde::{Deserialize, Serialize};

use crate::gbdt::{balanced_weights, fit, Gbdt, GbdtConfig};

/// The label of a window of intervals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowLabel {
    /// Regular (sinus) rhythm.
    Normal,
    /// Atrial fibrillation.
    Af,
    /// Non-AF irregular rhythm (frequent ectopy), MIT-BIH only.
    Irregular,
    /// Not AF, and neither clearly normal nor irregular.
    OtherNonAf,
}

impl WindowLabel {
    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::Af => "af",
            Self::Irregular => "irregular",
            Self::OtherNonAf => "other_non_af",
        }
    }
}

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

/// The two fitted stages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RhythmClassifier {
    /// AF against non-AF.
    pub af: Gbdt,
    /// Irregular against normal, among non-AF windows; `None` when the training data had no
    /// irregular (or no normal) window.
    pub irregular: Option<Gbdt>,
}

/// Class probabilities of one window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RhythmProbabilities {
    /// Regular rhythm.
    pub normal: f64,
    /// Atrial fibrillation.
    pub af: f64,
    /// Non-AF irregular rhythm.
    pub irregular: f64,
}

impl RhythmProbabilities {
    /// The label: AF when `P(af) >= af_threshold`, otherwise the more probable of irregular and
    /// normal (ties go to irregular); with the label's probability.
    pub fn label(&self, af_threshold: f64) -> (WindowLabel, f64) {
        if self.af >= af_threshold {
            (WindowLabel::Af, self.af)
        } else if self.irregular >= self.normal {
            (WindowLabel::Irregular, self.irregular)
        } else {
            (WindowLabel::Normal, self.normal)
        }
    }
}

impl RhythmClassifier {
    /// Fits both stages to feature rows and window labels (deterministic for a seed).
    ///
    /// Returns `None` when the rows do not hold both AF and non-AF windows.
    pub fn train(x: &[Vec<f64>], y: &[WindowLabel], seed: u64) -> Option<Self> {
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
        Some(Self { af, irregular })
    }

    /// Class probabilities of one feature row.
    pub fn predict(&self, features: &[f64]) -> RhythmProbabilities {
        let p1 = self
            .af
            .predict_proba(features)
            .get(1)
            .copied()
            .unwrap_or(0.0);
        let p2 = self
            .irregular
            .as_ref()
            .and_then(|m| m.predict_proba(features).get(1).copied())
            .unwrap_or(0.0);
        RhythmProbabilities {
            normal: (1.0 - p1) * (1.0 - p2),
            af: p1,
            irregular: (1.0 - p1) * p2,
        }
    }
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
        let c = RhythmClassifier::train(&x, &y, 1).unwrap();
        for (row, want) in [
            ([2.0, 0.0], WindowLabel::Af),
            ([0.0, 1.0], WindowLabel::Irregular),
            ([1.0, 0.0], WindowLabel::Normal),
        ] {
            let p = c.predict(&row);
            assert!((p.normal + p.af + p.irregular - 1.0).abs() < 1e-12);
            assert_eq!(p.label(0.5).0, want, "{row:?} {p:?}");
        }
        assert!(RhythmClassifier::train(&x[..1], &y[..1], 1).is_none());
    }
}
