//! Training of the clinical model ([`cardio_models::clinical::model`]): for each pattern sub-model
//! (trained on the rows that have the pattern's attributes),
//! `lambda` is chosen from [`LAMBDAS`] by the mean out-of-fold log-loss of a seeded stratified
//! 5-fold CV inside the training data, and the Platt calibration `sigmoid(a * logit + b)` is fitted
//! on those out-of-fold logits; the model is then refitted on all training rows. Nothing outside
//! the training rows is looked at. Deterministic for a seed.

use cardio_models::clinical::model::{
    encode, sigmoid, Fitted, Imputation, Pattern, PatternModel, SubModel,
};

use super::data::Record;
use super::logistic;
use super::metrics::{stratified_folds, SplitMix64};

/// The L2 strengths tried by the inner CV.
pub const LAMBDAS: [f64; 8] = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0];

/// Folds of the inner CV.
pub const INNER_FOLDS: usize = 5;

/// Fewest rows of each class a sub-model needs to be trained.
pub const MIN_CLASS_ROWS: usize = 20;

/// The imputation of a training set: means over the rows where each value is present (0 when none
/// is).
pub fn imputation(records: &[Record]) -> Imputation {
    let mean = |values: Vec<f64>| {
        if values.is_empty() {
            0.0
        } else {
            values.iter().sum::<f64>() / values.len() as f64
        }
    };
    Imputation {
        cholesterol: mean(records.iter().filter_map(|r| r.input.cholesterol).collect()),
        fasting_blood_sugar_over_120: mean(
            records
                .iter()
                .filter_map(|r| {
                    r.input
                        .fasting_blood_sugar
                        .map(|v| f64::from(u8::from(v > 120.0)))
                })
                .collect(),
        ),
        exercise_induced_angina: mean(
            records
                .iter()
                .filter_map(|r| r.input.exercise_induced_angina.map(f64::from))
                .collect(),
        ),
    }
}

/// Column means and standard deviations (population), a constant column getting scale 1.
fn scaler(rows: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let p = rows.first().map_or(0, Vec::len);
    let n = rows.len().max(1) as f64;
    let mean: Vec<f64> = (0..p)
        .map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / n)
        .collect();
    let scale = (0..p)
        .map(|j| {
            let sd = (rows.iter().map(|r| (r[j] - mean[j]).powi(2)).sum::<f64>() / n).sqrt();
            if sd > 1e-9 {
                sd
            } else {
                1.0
            }
        })
        .collect();
    (mean, scale)
}

/// Fits an uncalibrated sub-model with a given lambda.
fn fit_plain(names: &[&str], raw: &[Vec<f64>], y: &[bool], lambda: f64) -> SubModel {
    let (mean, scale) = scaler(raw);
    let z: Vec<Vec<f64>> = raw
        .iter()
        .map(|r| {
            r.iter()
                .zip(mean.iter().zip(&scale))
                .map(|(x, (m, s))| (x - m) / s)
                .collect()
        })
        .collect();
    let fitted = logistic::fit(&z, y, lambda);
    SubModel {
        features: names.iter().map(|s| (*s).to_string()).collect(),
        mean,
        scale,
        intercept: fitted.intercept,
        coefficients: fitted.coefficients,
        lambda,
        platt_a: 1.0,
        platt_b: 0.0,
        rows: raw.len(),
    }
}

/// Trains one sub-model: lambda and Platt calibration by inner stratified CV, then a refit on all rows.
pub fn train_submodel(names: &[&str], raw: &[Vec<f64>], y: &[bool], seed: u64) -> SubModel {
    let folds = stratified_folds(y, INNER_FOLDS, &mut SplitMix64::new(seed));
    let mut best: Option<(f64, f64, Vec<f64>)> = None;
    for &lambda in &LAMBDAS {
        let mut oof = vec![0.0; raw.len()];
        for f in 0..INNER_FOLDS {
            let train: Vec<usize> = (0..raw.len()).filter(|&i| folds[i] != f).collect();
            let tr_x: Vec<Vec<f64>> = train.iter().map(|&i| raw[i].clone()).collect();
            let tr_y: Vec<bool> = train.iter().map(|&i| y[i]).collect();
            let m = fit_plain(names, &tr_x, &tr_y, lambda);
            for i in (0..raw.len()).filter(|&i| folds[i] == f) {
                oof[i] = m.logit(&raw[i]).0;
            }
        }
        let loss = oof
            .iter()
            .zip(y)
            .map(|(&s, &t)| {
                let p = sigmoid(s).clamp(1e-12, 1.0 - 1e-12);
                if t {
                    -p.ln()
                } else {
                    -(1.0 - p).ln()
                }
            })
            .sum::<f64>()
            / raw.len().max(1) as f64;
        // Strictly better only: on a tie the smaller lambda tried first stays.
        if best.as_ref().is_none_or(|b| loss < b.0) {
            best = Some((loss, lambda, oof));
        }
    }
    let (_, lambda, oof) = best.unwrap_or((0.0, LAMBDAS[0], vec![]));
    let (a, b) = logistic::fit_platt(&oof, y);
    let mut model = fit_plain(names, raw, y, lambda);
    model.platt_a = a;
    model.platt_b = b;
    model
}

/// Trains one pattern's sub-model on the records that have its attributes; `None` when they have
/// fewer than [`MIN_CLASS_ROWS`] of a class. The seed is derived from `seed` and the pattern, so a
/// pattern's sub-model does not depend on which other patterns are trained.
pub fn fit_pattern(
    records: &[Record],
    imputation: &Imputation,
    pattern: Pattern,
    seed: u64,
) -> Option<PatternModel> {
    let rows: Vec<&Record> = records
        .iter()
        .filter(|r| pattern.within(Pattern::of(&r.input)))
        .collect();
    let pos = rows.iter().filter(|r| r.disease).count();
    if pos < MIN_CLASS_ROWS || rows.len() - pos < MIN_CLASS_ROWS {
        return None;
    }
    let x: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| encode(&r.input, imputation, pattern))
        .collect();
    let y: Vec<bool> = rows.iter().map(|r| r.disease).collect();
    let pattern_seed = seed ^ (u64::from(pattern.full) << 8 | u64::from(pattern.optional));
    let model = train_submodel(&pattern.columns(), &x, &y, pattern_seed);
    Some(PatternModel { pattern, model })
}

/// Trains the sub-models of `patterns` on `records` with a fixed `seed` (those with too few rows
/// left out): the committed model when `records` is Cleveland, `patterns` is [`Pattern::all`] and
/// `seed` the validation seed.
pub fn fit_patterns(records: &[Record], seed: u64, patterns: &[Pattern]) -> Fitted {
    let imputation = imputation(records);
    let submodels = patterns
        .iter()
        .filter_map(|&p| fit_pattern(records, &imputation, p, seed))
        .collect();
    Fitted {
        imputation,
        submodels,
    }
}

/// Trains every pattern's sub-model ([`fit_patterns`] with [`Pattern::all`]).
pub fn fit(records: &[Record], seed: u64) -> Fitted {
    fit_patterns(records, seed, &Pattern::all())
}
