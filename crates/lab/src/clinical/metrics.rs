//! Metrics for a binary risk score: AUROC with its DeLong standard error, Brier score, threshold
//! metrics, calibration (intercept, slope, reliability bins), plus the seeded stratified fold split.

use serde::{Deserialize, Serialize};

use super::logistic;
use crate::resample;
pub use crate::resample::SplitMix64;

/// AUROC by the Mann-Whitney statistic (ties count one half); `None` without both classes.
pub fn auroc(scores: &[f64], y: &[bool]) -> Option<f64> {
    delong(scores, y).map(|(auc, _)| auc)
}

/// AUROC and its DeLong variance (DeLong, DeLong & Clarke-Pearson, Biometrics 1988;44:837-845).
pub fn delong(scores: &[f64], y: &[bool]) -> Option<(f64, f64)> {
    let pos: Vec<f64> = scores
        .iter()
        .zip(y)
        .filter(|p| *p.1)
        .map(|p| *p.0)
        .collect();
    let neg: Vec<f64> = scores
        .iter()
        .zip(y)
        .filter(|p| !*p.1)
        .map(|p| *p.0)
        .collect();
    if pos.is_empty() || neg.is_empty() {
        return None;
    }
    let psi = |x: f64, z: f64| {
        if x > z {
            1.0
        } else if x == z {
            0.5
        } else {
            0.0
        }
    };
    let (m, n) = (pos.len() as f64, neg.len() as f64);
    let v10: Vec<f64> = pos
        .iter()
        .map(|&x| neg.iter().map(|&z| psi(x, z)).sum::<f64>() / n)
        .collect();
    let v01: Vec<f64> = neg
        .iter()
        .map(|&z| pos.iter().map(|&x| psi(x, z)).sum::<f64>() / m)
        .collect();
    let auc = v10.iter().sum::<f64>() / m;
    let var_of = |v: &[f64]| {
        if v.len() < 2 {
            return 0.0;
        }
        v.iter().map(|a| (a - auc).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)
    };
    Some((auc, var_of(&v10) / m + var_of(&v01) / n))
}

/// A 95 % confidence interval `auc ± 1.96 * DeLong SE`, clipped to [0, 1].
pub fn delong_ci(scores: &[f64], y: &[bool]) -> Option<(f64, f64, f64)> {
    delong(scores, y).map(|(auc, var)| {
        let half = 1.96 * var.sqrt();
        (auc, (auc - half).max(0.0), (auc + half).min(1.0))
    })
}

/// Mean squared error of the probabilities.
pub fn brier(p: &[f64], y: &[bool]) -> f64 {
    if p.is_empty() {
        return f64::NAN;
    }
    p.iter()
        .zip(y)
        .map(|(p, &y)| (p - f64::from(u8::from(y))).powi(2))
        .sum::<f64>()
        / p.len() as f64
}

/// Accuracy, sensitivity and specificity of `p >= threshold`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ThresholdMetrics {
    /// Fraction correct.
    pub accuracy: f64,
    /// True-positive rate.
    pub sensitivity: f64,
    /// True-negative rate.
    pub specificity: f64,
}

/// Accuracy, sensitivity and specificity of the decision `p >= threshold`.
pub fn threshold_metrics(p: &[f64], y: &[bool], threshold: f64) -> ThresholdMetrics {
    let (mut tp, mut tn, mut fp, mut fn_) = (0.0, 0.0, 0.0, 0.0);
    for (&p, &y) in p.iter().zip(y) {
        match (p >= threshold, y) {
            (true, true) => tp += 1.0,
            (false, false) => tn += 1.0,
            (true, false) => fp += 1.0,
            (false, true) => fn_ += 1.0,
        }
    }
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { f64::NAN };
    ThresholdMetrics {
        accuracy: ratio(tp + tn, tp + tn + fp + fn_),
        sensitivity: ratio(tp, tp + fn_),
        specificity: ratio(tn, tn + fp),
    }
}

/// One bin of a reliability table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReliabilityBin {
    /// Lower edge of the predicted probability.
    pub from: f64,
    /// Upper edge.
    pub to: f64,
    /// Predictions in the bin.
    pub count: usize,
    /// Mean predicted probability.
    pub mean_predicted: f64,
    /// Observed fraction with disease.
    pub observed: f64,
}

/// Calibration of probabilities against outcomes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Calibration intercept (calibration-in-the-large): 0 is ideal.
    pub intercept: f64,
    /// Calibration slope of the outcome on `logit(p)`: 1 is ideal, < 1 over-confident.
    pub slope: f64,
    /// Expected calibration error over the bins (count-weighted |observed - predicted|).
    pub ece: f64,
    /// Five bins of width 0.2.
    pub bins: Vec<ReliabilityBin>,
}

impl Calibration {
    /// The reliability table in Markdown: `| predicted | n | mean predicted | observed |`, a row
    /// per bin (an empty bin shows `-`).
    pub fn markdown_table(&self) -> String {
        use std::fmt::Write as _;
        let mut s =
            String::from("| predicted | n | mean predicted | observed |\n|---|---|---|---|\n");
        for b in &self.bins {
            let _ = if b.count == 0 {
                writeln!(s, "| {:.1}-{:.1} | 0 | - | - |", b.from, b.to)
            } else {
                writeln!(
                    s,
                    "| {:.1}-{:.1} | {} | {:.3} | {:.3} |",
                    b.from, b.to, b.count, b.mean_predicted, b.observed
                )
            };
        }
        s
    }

    /// One line: slope, intercept and ECE.
    pub fn summary(&self) -> String {
        format!(
            "calibration slope {:.2}, intercept {:.2}, expected calibration error {:.3}",
            self.slope, self.intercept, self.ece
        )
    }
}

/// Calibration intercept and slope (logistic recalibration), ECE and a five-bin reliability table.
pub fn calibration(p: &[f64], y: &[bool]) -> Calibration {
    let logits: Vec<f64> = p
        .iter()
        .map(|&p| {
            let p = p.clamp(1e-6, 1.0 - 1e-6);
            (p / (1.0 - p)).ln()
        })
        .collect();
    let (slope, intercept) = logistic::fit_platt(&logits, y);
    let mut bins = Vec::new();
    let mut ece = 0.0;
    for b in 0..5 {
        let from = f64::from(b) * 0.2;
        let to = from + 0.2;
        let members: Vec<(f64, bool)> = p
            .iter()
            .zip(y)
            .filter(|(&p, _)| p >= from && (p < to || (b == 4 && p <= 1.0)))
            .map(|(&p, &y)| (p, y))
            .collect();
        let count = members.len();
        let (mean_predicted, observed) = if count == 0 {
            (f64::NAN, f64::NAN)
        } else {
            (
                members.iter().map(|m| m.0).sum::<f64>() / count as f64,
                members.iter().filter(|m| m.1).count() as f64 / count as f64,
            )
        };
        if count > 0 {
            ece += count as f64 / p.len() as f64 * (observed - mean_predicted).abs();
        }
        bins.push(ReliabilityBin {
            from,
            to,
            count,
            mean_predicted,
            observed,
        });
    }
    Calibration {
        intercept,
        slope,
        ece,
        bins,
    }
}

/// Stratified `k`-fold assignment: each class is shuffled and dealt round-robin, so every fold has
/// the class balance of the whole. Returns the fold (0..k) of every row.
pub fn stratified_folds(y: &[bool], k: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let stratum: Vec<usize> = y.iter().map(|&d| usize::from(!d)).collect();
    resample::stratified_folds(&stratum, 2, k, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reliability_table_has_a_row_per_bin_and_dashes_for_an_empty_one() {
        let p = [0.1, 0.1, 0.3, 0.9, 0.9, 0.9, 0.9];
        let y = [false, true, false, true, true, true, false];

        let c = calibration(&p, &y);

        assert_eq!(
            c.markdown_table(),
            "| predicted | n | mean predicted | observed |\n|---|---|---|---|\n\
             | 0.0-0.2 | 2 | 0.100 | 0.500 |\n\
             | 0.2-0.4 | 1 | 0.300 | 0.000 |\n\
             | 0.4-0.6 | 0 | - | - |\n\
             | 0.6-0.8 | 0 | - | - |\n\
             | 0.8-1.0 | 4 | 0.900 | 0.750 |\n"
        );
        // ECE: (2 * 0.4 + 1 * 0.3 + 4 * 0.15) / 7.
        assert!((c.ece - 1.7 / 7.0).abs() < 1e-12, "{}", c.ece);
        assert!(c
            .summary()
            .ends_with(&format!("expected calibration error {:.3}", 1.7 / 7.0)));
    }

    #[test]
    fn auroc_of_a_hand_computed_example_is_exact() {
        // Positives 0.8, 0.6, 0.4; negatives 0.7, 0.4, 0.2, 0.1. Pairs won: 0.8 beats 4, 0.6 beats 3,
        // 0.4 beats 2 and ties 1 (0.5): 9.5 of 12.
        let scores = [0.8, 0.7, 0.6, 0.4, 0.4, 0.2, 0.1];
        let y = [true, false, true, true, false, false, false];

        let auc = auroc(&scores, &y).unwrap();

        assert_eq!(auc, 9.5 / 12.0);
        assert!(auroc(&[0.1, 0.2], &[true, true]).is_none());
    }

    #[test]
    fn delong_interval_contains_the_estimate_and_narrows_with_more_data() {
        let scores = [0.8, 0.7, 0.6, 0.4, 0.4, 0.2, 0.1];
        let y = [true, false, true, true, false, false, false];
        let (auc, lo, hi) = delong_ci(&scores, &y).unwrap();
        assert!(lo < auc && auc < hi);
        let scores4: Vec<f64> = scores.iter().cycle().take(28).copied().collect();
        let y4: Vec<bool> = y.iter().cycle().take(28).copied().collect();
        let (_, lo4, hi4) = delong_ci(&scores4, &y4).unwrap();
        assert!(hi4 - lo4 < hi - lo);
    }

    #[test]
    fn threshold_metrics_and_brier_count_correctly() {
        let p = [0.9, 0.6, 0.4, 0.1];
        let y = [true, false, true, false];
        let m = threshold_metrics(&p, &y, 0.5);
        assert_eq!(m.accuracy, 0.5);
        assert_eq!(m.sensitivity, 0.5);
        assert_eq!(m.specificity, 0.5);
        assert!((brier(&p, &y) - (0.01 + 0.36 + 0.36 + 0.01) / 4.0).abs() < 1e-12);
    }

    #[test]
    fn stratified_folds_keep_the_class_balance_and_are_seeded() {
        let y: Vec<bool> = (0..100).map(|i| i % 4 == 0).collect();
        let folds = stratified_folds(&y, 5, &mut SplitMix64::new(7));
        for f in 0..5 {
            let members: Vec<usize> = (0..100).filter(|&i| folds[i] == f).collect();
            assert_eq!(members.len(), 20);
            assert_eq!(members.iter().filter(|&&i| y[i]).count(), 5);
        }
        assert_eq!(folds, stratified_folds(&y, 5, &mut SplitMix64::new(7)));
    }
}
