//! The fitting of the gradient-boosted trees of [`cardio_models::gbdt`]: a softmax loss for K
//! classes (Friedman, "Greedy function approximation: a gradient boosting machine", Ann Stat
//! 2001;29:1189-1232), with the second-order split gain, L2-penalised Newton leaf values, minimum
//! child hessian, row and column subsampling and a learned direction for missing values of XGBoost
//! (Chen & Guestrin, KDD 2016), on quantile histograms of at most [`MAX_BINS`] bins per feature (as
//! LightGBM, Ke et al., NeurIPS 2017). Deterministic for a given seed (the draws come from
//! [`SplitMix64`]). Missing values are `NaN`.
//!
//! ```
//! use cardio_lab::gbdt::fit;
//! use cardio_models::gbdt::GbdtConfig;
//!
//! // class = whether x0 > 0.5, x1 is noise
//! let x: Vec<Vec<f64>> = (0..200).map(|i| vec![f64::from(i) / 200.0, f64::from(i % 7)]).collect();
//! let y: Vec<usize> = x.iter().map(|r| usize::from(r[0] > 0.5)).collect();
//! let model = fit(&x, &y, 2, None, &GbdtConfig { rounds: 20, ..GbdtConfig::default() });
//! assert!(model.predict_proba(&[0.9, 3.0])[1] > 0.9);
//! assert!(model.predict_proba(&[0.1, 3.0])[0] > 0.9);
//! ```

// x, y, n, p, g, h, k, w are the names of the boosting papers.
#![allow(clippy::many_single_char_names)]

use cardio_models::gbdt::{softmax, Gbdt, GbdtConfig, Node, Tree};
use cardio_models::rng::SplitMix64;

/// Most histogram bins per feature (one more is kept for missing values).
pub const MAX_BINS: usize = 64;

/// `k` distinct indices of `0..n`, sorted: the row and column draws.
fn sample(rng: &mut SplitMix64, n: usize, k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    for i in 0..k.min(n) {
        let j = i + (rng.next_u64() % (n - i) as u64) as usize;
        idx.swap(i, j);
    }
    idx.truncate(k.min(n));
    idx.sort_unstable();
    idx
}

/// Bin code of a missing value.
const MISSING: u8 = u8::MAX;

/// Quantile thresholds of one feature and its rows' bin codes.
struct Binned {
    thresholds: Vec<f64>,
    codes: Vec<u8>,
}

fn bin_feature(values: impl Iterator<Item = f64> + Clone) -> Binned {
    let mut sorted: Vec<f64> = values.clone().filter(|v| !v.is_nan()).collect();
    sorted.sort_unstable_by(f64::total_cmp);
    let mut thresholds: Vec<f64> = Vec::new();
    if !sorted.is_empty() {
        for q in 1..MAX_BINS {
            let t = sorted[(q * sorted.len() / MAX_BINS).min(sorted.len() - 1)];
            if thresholds.last().is_none_or(|&last| t > last) {
                thresholds.push(t);
            }
        }
        // The largest value needs no threshold: everything is <= it.
        if thresholds.last() == sorted.last() {
            thresholds.pop();
        }
    }
    let codes = values
        .map(|v| {
            if v.is_nan() {
                MISSING
            } else {
                thresholds.partition_point(|&t| t < v) as u8
            }
        })
        .collect();
    Binned { thresholds, codes }
}

/// Gradient and hessian sums of one histogram bin.
#[derive(Clone, Copy, Default)]
struct Sums {
    g: f64,
    h: f64,
}

impl Sums {
    fn add(&mut self, g: f64, h: f64) {
        self.g += g;
        self.h += h;
    }
}

struct Split {
    feature: usize,
    bin: usize,
    missing_left: bool,
    gain: f64,
}

struct Grower<'a> {
    bins: &'a [Binned],
    grad: &'a [f64],
    hess: &'a [f64],
    features: &'a [usize],
    cfg: &'a GbdtConfig,
    nodes: Vec<Node>,
    importance: &'a mut [f64],
}

impl Grower<'_> {
    fn score(&self, s: Sums) -> f64 {
        s.g * s.g / (s.h + self.cfg.lambda)
    }

    fn leaf(&self, s: Sums) -> Node {
        Node::Leaf((-s.g / (s.h + self.cfg.lambda) * self.cfg.learning_rate) as f32)
    }

    fn best_split(&self, rows: &[usize], total: Sums) -> Option<Split> {
        let parent = self.score(total);
        let mut best: Option<Split> = None;
        for &f in self.features {
            let binned = &self.bins[f];
            let n_bins = binned.thresholds.len() + 1;
            if n_bins < 2 {
                continue;
            }
            let mut hist = vec![Sums::default(); n_bins];
            let mut missing = Sums::default();
            for &r in rows {
                let c = binned.codes[r];
                if c == MISSING {
                    missing.add(self.grad[r], self.hess[r]);
                } else {
                    hist[usize::from(c)].add(self.grad[r], self.hess[r]);
                }
            }
            let mut left = Sums::default();
            for (b, bin) in hist.iter().enumerate().take(n_bins - 1) {
                left.add(bin.g, bin.h);
                for missing_left in [false, true] {
                    let mut l = left;
                    if missing_left {
                        l.add(missing.g, missing.h);
                    }
                    let r = Sums {
                        g: total.g - l.g,
                        h: total.h - l.h,
                    };
                    if l.h < self.cfg.min_child_weight || r.h < self.cfg.min_child_weight {
                        continue;
                    }
                    let gain = self.score(l) + self.score(r) - parent;
                    if gain > 1e-12 && best.as_ref().is_none_or(|s| gain > s.gain) {
                        best = Some(Split {
                            feature: f,
                            bin: b,
                            missing_left,
                            gain,
                        });
                    }
                }
            }
        }
        best
    }

    fn grow(&mut self, rows: &[usize], depth: usize) -> usize {
        let total = rows.iter().fold(Sums::default(), |mut s, &r| {
            s.add(self.grad[r], self.hess[r]);
            s
        });
        let at = self.nodes.len();
        self.nodes.push(self.leaf(total));
        if depth >= self.cfg.max_depth || rows.len() < 2 {
            return at;
        }
        let Some(split) = self.best_split(rows, total) else {
            return at;
        };
        self.importance[split.feature] += split.gain;
        let codes = &self.bins[split.feature].codes;
        let (left, right): (Vec<usize>, Vec<usize>) = rows.iter().partition(|&&r| {
            let c = codes[r];
            if c == MISSING {
                split.missing_left
            } else {
                usize::from(c) <= split.bin
            }
        });
        let l = self.grow(&left, depth + 1);
        let r = self.grow(&right, depth + 1);
        self.nodes[at] = Node::Split(
            split.feature,
            self.bins[split.feature].thresholds[split.bin],
            l,
            r,
            split.missing_left,
        );
        at
    }
}

/// Fits a `n_classes`-class model to rows `x` (all of one length; `NaN` = missing) and labels
/// `y` (`0..n_classes`), with optional per-row weights (e.g. to balance classes).
///
/// # Panics
/// When `x` and `y` differ in length, a label is out of range, or `n_classes < 2`.
pub fn fit(
    x: &[Vec<f64>],
    y: &[usize],
    n_classes: usize,
    weights: Option<&[f64]>,
    cfg: &GbdtConfig,
) -> Gbdt {
    assert_eq!(x.len(), y.len(), "one label per row");
    assert!(n_classes >= 2, "at least two classes");
    assert!(y.iter().all(|&c| c < n_classes), "label out of range");
    let n = x.len();
    let p = x.first().map_or(0, Vec::len);
    let w: Vec<f64> = weights.map_or_else(|| vec![1.0; n], <[f64]>::to_vec);
    let bins: Vec<Binned> = (0..p)
        .map(|f| bin_feature(x.iter().map(move |row| row[f])))
        .collect();
    // Base score: log of the weighted class frequencies.
    let w_total: f64 = w.iter().sum::<f64>().max(f64::MIN_POSITIVE);
    let base: Vec<f64> = (0..n_classes)
        .map(|k| {
            let wk: f64 = y
                .iter()
                .zip(&w)
                .filter(|(&c, _)| c == k)
                .map(|(_, w)| w)
                .sum();
            (wk / w_total).max(1e-6).ln()
        })
        .collect();
    let mut scores: Vec<Vec<f64>> = vec![base.clone(); n];
    let mut rng = SplitMix64::new(cfg.seed);
    let mut importance = vec![0.0; p];
    let mut trees = Vec::with_capacity(cfg.rounds);
    let n_rows = ((n as f64 * cfg.subsample).round() as usize).clamp(1.min(n), n);
    let n_cols = ((p as f64 * cfg.colsample).round() as usize).clamp(1.min(p), p);
    let mut grad = vec![0.0; n];
    let mut hess = vec![0.0; n];
    for _ in 0..cfg.rounds {
        let rows = if cfg.subsample < 1.0 {
            sample(&mut rng, n, n_rows)
        } else {
            (0..n).collect()
        };
        let probs: Vec<Vec<f64>> = scores.iter().map(|s| softmax(s)).collect();
        let mut round = Vec::with_capacity(n_classes);
        for k in 0..n_classes {
            for i in 0..n {
                let pk = probs[i][k];
                let target = if y[i] == k { 1.0 } else { 0.0 };
                grad[i] = (pk - target) * w[i];
                hess[i] = (pk * (1.0 - pk)).max(1e-6) * w[i];
            }
            let features = if cfg.colsample < 1.0 {
                sample(&mut rng, p, n_cols)
            } else {
                (0..p).collect()
            };
            let mut grower = Grower {
                bins: &bins,
                grad: &grad,
                hess: &hess,
                features: &features,
                cfg,
                nodes: Vec::new(),
                importance: &mut importance,
            };
            grower.grow(&rows, 0);
            let tree = Tree::new(grower.nodes);
            for (i, s) in scores.iter_mut().enumerate() {
                s[k] += tree.value(&x[i]);
            }
            round.push(tree);
        }
        trees.push(round);
    }
    Gbdt::new(n_classes, p, base, trees, importance)
}

/// Weights that give every class the same total weight (`n / (K · n_k)` per row).
pub fn balanced_weights(y: &[usize], n_classes: usize) -> Vec<f64> {
    let mut counts = vec![0usize; n_classes];
    for &c in y {
        counts[c] += 1;
    }
    y.iter()
        .map(|&c| y.len() as f64 / (n_classes as f64 * counts[c].max(1) as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xor_data() -> (Vec<Vec<f64>>, Vec<usize>) {
        let mut x = Vec::new();
        let mut y = Vec::new();
        for i in 0..400 {
            let a = f64::from(i % 20) / 20.0;
            let b = f64::from(i / 20) / 20.0;
            x.push(vec![a, b]);
            y.push(usize::from((a > 0.5) != (b > 0.5)));
        }
        (x, y)
    }

    #[test]
    fn learns_an_interaction_a_stump_cannot() {
        let (x, y) = xor_data();
        let m = fit(&x, &y, 2, None, &GbdtConfig::default());
        let wrong = x
            .iter()
            .zip(&y)
            .filter(|(r, &c)| usize::from(m.predict_proba(r)[1] > 0.5) != c)
            .count();
        assert_eq!(wrong, 0);
    }

    #[test]
    fn three_classes_and_probabilities_sum_to_one() {
        let x: Vec<Vec<f64>> = (0..300).map(|i| vec![f64::from(i)]).collect();
        let y: Vec<usize> = (0..300).map(|i| i / 100).collect();
        let m = fit(&x, &y, 3, None, &GbdtConfig::default());
        for (v, want) in [(50.0, 0), (150.0, 1), (250.0, 2)] {
            let p = m.predict_proba(&[v]);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let got = p
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .unwrap()
                .0;
            assert_eq!(got, want, "{v}: {p:?}");
        }
    }

    #[test]
    fn missing_values_follow_the_learned_side() {
        // Class 1 rows have x missing; class 0 rows have small x. Missing must route to class 1.
        let mut x = Vec::new();
        let mut y = Vec::new();
        for i in 0..200 {
            if i % 2 == 0 {
                x.push(vec![f64::NAN]);
                y.push(1);
            } else {
                x.push(vec![f64::from(i)]);
                y.push(usize::from(i > 150));
            }
        }
        let m = fit(&x, &y, 2, None, &GbdtConfig::default());
        assert!(m.predict_proba(&[f64::NAN])[1] > 0.9);
        assert!(m.predict_proba(&[10.0])[0] > 0.9);
    }

    #[test]
    fn same_seed_same_model_and_round_trips_through_json() {
        let (x, y) = xor_data();
        let cfg = GbdtConfig {
            rounds: 10,
            ..GbdtConfig::default()
        };
        let a = fit(&x, &y, 2, None, &cfg);
        let b = fit(&x, &y, 2, None, &cfg);
        assert_eq!(a, b);
        let json = serde_json::to_string(&a).unwrap();
        let back: Gbdt = serde_json::from_str(&json).unwrap();
        for r in &x {
            assert_eq!(a.predict_proba(r), back.predict_proba(r));
        }
    }

    #[test]
    fn balanced_weights_equalise_class_totals() {
        let y = [0, 0, 0, 1];
        let w = balanced_weights(&y, 2);
        assert!((w[0] * 3.0 - w[3]).abs() < 1e-12);
        assert!((w.iter().sum::<f64>() - 4.0).abs() < 1e-12);
    }
}
