//! Experiment: the clinical model trained on Cleveland's training folds plus every row of the other
//! three UCI sites, with missing indicators for `ca`, `thal` and cholesterol, scored on Cleveland's
//! held-out folds (the same 10 × 10 folds as the card's CV).

use std::path::PathBuf;

use cardio_lab::clinical::data::{self, Record, Site};
use cardio_lab::clinical::metrics::{delong, stratified_folds, SplitMix64};
use cardio_lab::clinical::train::{self, imputation, train_submodel};
use cardio_lab::clinical::validation::{FOLDS, REPEATS, SEED};
use cardio_models::clinical::model::{
    encode, Imputation, Pattern, FULL_EXTRA_FEATURES, REDUCED_FEATURES,
};

fn row(r: &Record, imp: &Imputation) -> Vec<f64> {
    let mut x = encode(&r.input, imp, Pattern::seven(true));
    let flag = |b: bool| f64::from(u8::from(b));
    x.push(flag(r.input.vessels_colored_by_flourosopy.is_none()));
    x.push(flag(r.input.thalassemia.is_none()));
    x.push(flag(r.input.cholesterol.is_none_or(|c| c <= 0.0)));
    x
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARDIO_DATASETS").expect("CARDIO_DATASETS"));
    let cleveland = data::load_site(&root, Site::Cleveland).unwrap();
    let mut others = Vec::new();
    for site in [Site::Hungary, Site::Switzerland, Site::Va] {
        others.extend(data::load_site(&root, site).unwrap());
    }
    let mut names: Vec<&str> = REDUCED_FEATURES
        .iter()
        .chain(&FULL_EXTRA_FEATURES)
        .copied()
        .collect();
    names.extend(["ca_missing", "thal_missing", "cholesterol_missing"]);
    let labels: Vec<bool> = cleveland.iter().map(|r| r.disease).collect();
    let (mut pooled_aucs, mut base_aucs) = (Vec::new(), Vec::new());
    for rep in 0..REPEATS {
        let fold = stratified_folds(&labels, FOLDS, &mut SplitMix64::new(SEED + rep as u64));
        let mut pooled_p = vec![0.0; cleveland.len()];
        let mut base_p = vec![0.0; cleveland.len()];
        for f in 0..FOLDS {
            let train: Vec<Record> = cleveland
                .iter()
                .zip(&fold)
                .filter(|(_, &k)| k != f)
                .map(|(r, _)| r.clone())
                .collect();
            let seed = SEED ^ ((rep * FOLDS + f) as u64 + 1);
            let mut pooled = train.clone();
            pooled.extend(others.iter().cloned());
            let imp = imputation(&pooled);
            let x: Vec<Vec<f64>> = pooled.iter().map(|r| row(r, &imp)).collect();
            let targets: Vec<bool> = pooled.iter().map(|r| r.disease).collect();
            let model = train_submodel(&names, &x, &targets, seed);
            let base =
                train::fit_patterns(&train, seed, &[Pattern::seven(false), Pattern::seven(true)]);
            for i in (0..cleveland.len()).filter(|&i| fold[i] == f) {
                pooled_p[i] = model.probability(&row(&cleveland[i], &imp));
                base_p[i] = base
                    .score(&cleveland[i].input, Some(Pattern::seven(true)))
                    .map_or(f64::NAN, |s| s.probability);
            }
        }
        pooled_aucs.push(delong(&pooled_p, &labels).unwrap().0);
        base_aucs.push(delong(&base_p, &labels).unwrap().0);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "pooled with missing indicators: {:.4}  (repeats {:?})",
        mean(&pooled_aucs),
        pooled_aucs
            .iter()
            .map(|a| format!("{a:.3}"))
            .collect::<Vec<_>>()
    );
    println!("deployed (Cleveland only):      {:.4}", mean(&base_aucs));
}
