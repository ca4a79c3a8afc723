//! Gradient-boosted regression trees with a softmax loss for K classes (Friedman, "Greedy function
//! approximation: a gradient boosting machine", Ann Stat 2001;29:1189-1232): the fitted model
//! ([`Gbdt`], serialised in the committed parameters) and its prediction. Missing values are `NaN`;
//! a split sends them to the side learnt in training.
//!
//! Written here because no maintained pure-Rust crate offers multiclass boosting with missing
//! values and a small, stable, serialisable model. The fitting (second-order split gain, quantile
//! histograms, row and column subsampling; deterministic for a seed) is in `cardio-lab`
//! (`gbdt::fit`), which builds the trees from [`Node`]s with [`Tree::new`] and [`Gbdt::new`].

// x, y, n, p, g, h, k, w are the names of the boosting papers.
#![allow(clippy::many_single_char_names)]

use serde::{Deserialize, Serialize};

/// Training settings (written into the parameters with the model they produced).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GbdtConfig {
    /// Boosting rounds (one tree per class per round).
    pub rounds: usize,
    /// Shrinkage of every tree.
    pub learning_rate: f64,
    /// Deepest level of a tree (root is depth 0).
    pub max_depth: usize,
    /// Least sum of hessians in a child.
    pub min_child_weight: f64,
    /// L2 penalty on leaf values.
    pub lambda: f64,
    /// Fraction of rows drawn (without replacement) for each round.
    pub subsample: f64,
    /// Fraction of features drawn for each tree.
    pub colsample: f64,
    /// Seed of the row and column draws.
    pub seed: u64,
}

impl Default for GbdtConfig {
    fn default() -> Self {
        Self {
            rounds: 200,
            learning_rate: 0.1,
            max_depth: 4,
            min_child_weight: 1.0,
            lambda: 1.0,
            subsample: 0.8,
            colsample: 0.8,
            seed: 17,
        }
    }
}

/// One node of a tree, in a flat array; children are indices into it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Node {
    /// `[feature, threshold, left, right, missing_left]`: go left when `x <= threshold` (a missing
    /// `x` goes left when `missing_left`).
    Split(usize, f64, usize, usize, bool),
    /// The value added to the class score.
    Leaf(f32),
}

/// One regression tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    /// A tree from its nodes, the root first (children are indices into `nodes`).
    pub fn new(nodes: Vec<Node>) -> Self {
        Self { nodes }
    }

    /// The value the tree adds to its class score for the row `x`.
    pub fn value(&self, x: &[f64]) -> f64 {
        let mut i = 0;
        loop {
            match self.nodes[i] {
                Node::Leaf(v) => return f64::from(v),
                Node::Split(f, t, l, r, missing_left) => {
                    let v = x.get(f).copied().unwrap_or(f64::NAN);
                    i = if v.is_nan() {
                        if missing_left {
                            l
                        } else {
                            r
                        }
                    } else if v <= t {
                        l
                    } else {
                        r
                    };
                }
            }
        }
    }
}

/// A fitted model: `base[k] + Σ trees[round][k](x)` is the score of class `k`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gbdt {
    /// Number of classes.
    pub n_classes: usize,
    /// Number of input features.
    pub n_features: usize,
    base: Vec<f64>,
    trees: Vec<Vec<Tree>>,
    /// Total split gain per feature (for the model card).
    pub importance: Vec<f64>,
}

impl Gbdt {
    /// A model from its parts: `base[k]` plus, for every round, one tree per class.
    pub fn new(
        n_classes: usize,
        n_features: usize,
        base: Vec<f64>,
        trees: Vec<Vec<Tree>>,
        importance: Vec<f64>,
    ) -> Self {
        Self {
            n_classes,
            n_features,
            base,
            trees,
            importance,
        }
    }

    /// The raw class scores (log-probabilities up to a constant).
    pub fn scores(&self, x: &[f64]) -> Vec<f64> {
        let mut s = self.base.clone();
        for round in &self.trees {
            for (k, tree) in round.iter().enumerate() {
                s[k] += tree.value(x);
            }
        }
        s
    }

    /// Class probabilities (softmax of [`Gbdt::scores`]).
    pub fn predict_proba(&self, x: &[f64]) -> Vec<f64> {
        softmax(&self.scores(x))
    }
}

/// The softmax of class scores: probabilities that sum to one.
pub fn softmax(s: &[f64]) -> Vec<f64> {
    let m = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = s.iter().map(|v| (v - m).exp()).collect();
    let z: f64 = e.iter().sum();
    e.into_iter().map(|v| v / z).collect()
}
