//! Gradient-boosted decision stumps with logistic loss (Friedman, Ann Stat 2001;29:1189-1232; Newton
//! leaf values with an L2 term as in XGBoost, Chen & Guestrin KDD 2016): the comparison model of the
//! clinical card. Fixed settings ([`ROUNDS`], [`LEARNING_RATE`], [`LEAF_L2`]), not tuned.

use super::data::Record;
use super::logistic::sigmoid;
use super::train::{imputation, MIN_CLASS_ROWS};
use cardio_models::clinical::model::{encode, has_full_fields, Imputation, Pattern};
use cardio_models::clinical::ClinicalInput;

/// Boosting rounds.
pub const ROUNDS: usize = 100;
/// Shrinkage of every stump.
pub const LEARNING_RATE: f64 = 0.1;
/// L2 penalty on the leaf values.
pub const LEAF_L2: f64 = 1.0;

/// One split on one column.
#[derive(Debug, Clone, PartialEq)]
struct Stump {
    feature: usize,
    threshold: f64,
    left: f64,
    right: f64,
}

/// A fitted sum of stumps.
#[derive(Debug, Clone, PartialEq)]
pub struct Boosted {
    base: f64,
    stumps: Vec<Stump>,
}

impl Boosted {
    /// The log-odds of one row.
    pub fn logit(&self, x: &[f64]) -> f64 {
        self.base
            + self
                .stumps
                .iter()
                .map(|s| {
                    if x[s.feature] <= s.threshold {
                        s.left
                    } else {
                        s.right
                    }
                })
                .sum::<f64>()
    }
}

/// Fits [`ROUNDS`] stumps to `rows` / `y`.
#[allow(clippy::many_single_char_names)] // the usual g, h, n, p of boosting
pub fn fit(rows: &[Vec<f64>], y: &[bool]) -> Boosted {
    let n = rows.len();
    let p = rows.first().map_or(0, Vec::len);
    let target: Vec<f64> = y.iter().map(|&t| f64::from(u8::from(t))).collect();
    let mean = target.iter().sum::<f64>() / n.max(1) as f64;
    let mean = mean.clamp(1e-3, 1.0 - 1e-3);
    let base = (mean / (1.0 - mean)).ln();
    let order: Vec<Vec<usize>> = (0..p)
        .map(|j| {
            let mut idx: Vec<usize> = (0..n).collect();
            idx.sort_by(|&a, &b| rows[a][j].total_cmp(&rows[b][j]));
            idx
        })
        .collect();
    let mut f = vec![base; n];
    let mut stumps = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let g: Vec<f64> = f
            .iter()
            .zip(&target)
            .map(|(&z, t)| t - sigmoid(z))
            .collect();
        let h: Vec<f64> = f
            .iter()
            .map(|&z| {
                let q = sigmoid(z);
                q * (1.0 - q)
            })
            .collect();
        let (g_all, h_all) = (g.iter().sum::<f64>(), h.iter().sum::<f64>());
        let mut best: Option<(f64, Stump)> = None;
        for (j, idx) in order.iter().enumerate() {
            let (mut gl, mut hl) = (0.0, 0.0);
            for k in 0..n.saturating_sub(1) {
                let i = idx[k];
                gl += g[i];
                hl += h[i];
                let (here, next) = (rows[i][j], rows[idx[k + 1]][j]);
                if here == next {
                    continue;
                }
                let (gr, hr) = (g_all - gl, h_all - hl);
                let gain = gl * gl / (hl + LEAF_L2) + gr * gr / (hr + LEAF_L2);
                if best.as_ref().is_none_or(|b| gain > b.0) {
                    best = Some((
                        gain,
                        Stump {
                            feature: j,
                            threshold: f64::midpoint(here, next),
                            left: LEARNING_RATE * gl / (hl + LEAF_L2),
                            right: LEARNING_RATE * gr / (hr + LEAF_L2),
                        },
                    ));
                }
            }
        }
        let Some((_, stump)) = best else { break };
        for (fi, row) in f.iter_mut().zip(rows) {
            *fi += if row[stump.feature] <= stump.threshold {
                stump.left
            } else {
                stump.right
            };
        }
        stumps.push(stump);
    }
    Boosted { base, stumps }
}

/// Boosted stumps with the same full / reduced routing and imputation as the logistic model.
#[derive(Debug, Clone, PartialEq)]
pub struct BoostedModel {
    imputation: Imputation,
    full: Option<Boosted>,
    reduced: Boosted,
}

impl BoostedModel {
    /// Trains on `records`.
    pub fn train(records: &[Record]) -> Self {
        let imputation = imputation(records);
        let y: Vec<bool> = records.iter().map(|r| r.disease).collect();
        let x: Vec<Vec<f64>> = records
            .iter()
            .map(|r| encode(&r.input, &imputation, Pattern::seven(false)))
            .collect();
        let reduced = fit(&x, &y);
        let complete: Vec<&Record> = records
            .iter()
            .filter(|r| has_full_fields(&r.input))
            .collect();
        let pos = complete.iter().filter(|r| r.disease).count();
        let full = (pos >= MIN_CLASS_ROWS && complete.len() - pos >= MIN_CLASS_ROWS).then(|| {
            let x: Vec<Vec<f64>> = complete
                .iter()
                .map(|r| encode(&r.input, &imputation, Pattern::seven(true)))
                .collect();
            let y: Vec<bool> = complete.iter().map(|r| r.disease).collect();
            fit(&x, &y)
        });
        Self {
            imputation,
            full,
            reduced,
        }
    }

    /// Probability of disease (uncalibrated).
    pub fn probability(&self, input: &ClinicalInput) -> f64 {
        match &self.full {
            Some(m) if has_full_fields(input) => {
                sigmoid(m.logit(&encode(input, &self.imputation, Pattern::seven(true))))
            }
            _ => sigmoid(self.reduced.logit(&encode(
                input,
                &self.imputation,
                Pattern::seven(false),
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stumps_learn_a_threshold_rule() {
        let rows: Vec<Vec<f64>> = (0..40).map(|i| vec![f64::from(i), 0.0]).collect();
        let y: Vec<bool> = (0..40).map(|i| i >= 25).collect();

        let m = fit(&rows, &y);

        assert_eq!(m.stumps[0].feature, 0);
        assert!((m.stumps[0].threshold - 24.5).abs() < 1e-12);
        assert!(sigmoid(m.logit(&[30.0, 0.0])) > 0.9);
        assert!(sigmoid(m.logit(&[10.0, 0.0])) < 0.1);
    }
}
