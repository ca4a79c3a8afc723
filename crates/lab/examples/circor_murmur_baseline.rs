//! A first baseline for heart-murmur detection on the CirCor DigiScope set (PhysioNet Challenge
//! 2022), from what the product already has: the heart-sound features of
//! `cardio_models::pcg_model::features` (`prepare` then `extract`, as the heart-sound model's lab
//! code does) and the lab's boosted trees (`cardio_lab::gbdt::fit`, balanced class weights, the
//! heart-sound model's first boosting setting `config_candidates(seed)[0]`).
//!
//! Per recording, label 1 when the patient's murmur is Present and the recording's site is one of
//! the patient's murmur locations, 0 when the patient's murmur is Absent; the recordings of Unknown
//! patients, and those of Present patients at other sites, are not trained on. 5-fold CV grouped by
//! child (`circor::group_keys`), stratified by the child's murmur label, seed fixed. Per patient:
//! Present when any of its recordings has out-of-fold P(murmur) >= t, else Absent (no Unknown
//! predictions). t is chosen inside each outer training fold only: the midpoint between
//! consecutive patient scores that maximises the training fold's weighted accuracy on the
//! out-of-fold scores of an inner 5-fold grouped CV of that training fold.
//!
//! ```text
//! CARDIO_DATASETS=... cargo run --release -p cardio-lab --example circor_murmur_baseline [DIR]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cardio_lab::circor::{self, Murmur, MurmurTally, Patient};
use cardio_lab::clinical::metrics::auroc;
use cardio_lab::gbdt::{balanced_weights, fit};
use cardio_lab::parallel::{par_map, THREADS};
use cardio_lab::pcg_model::validation::config_candidates;
use cardio_lab::resample::{bootstrap_groups, grouped_folds, percentile_nearest, SplitMix64};
use cardio_models::gbdt::GbdtConfig;
use cardio_models::pcg_model::features;

/// One outer fold's test scores `(recording, P(murmur))`, its threshold and its inner-CV weighted
/// accuracy.
type OuterFold = (Vec<(usize, f64)>, f64, f64);

const FOLDS: usize = 5;
const SEED: u64 = 2022;
const BOOTSTRAP_DRAWS: usize = 2000;

/// One recording: its patient, training label and features (or why none).
struct Rec {
    patient: usize,
    label: Option<usize>,
    features: Result<Vec<f64>, String>,
}

fn murmur_stratum(m: Murmur) -> usize {
    match m {
        Murmur::Present => 0,
        Murmur::Unknown => 1,
        Murmur::Absent => 2,
    }
}

/// Fits on the labelled, analysable recordings of the patients with `train[p]`.
fn fit_rows(recs: &[Rec], train: &[bool], cfg: &GbdtConfig) -> cardio_models::gbdt::Gbdt {
    let mut x = Vec::new();
    let mut y = Vec::new();
    for r in recs {
        if let (true, Some(l), Ok(f)) = (train[r.patient], r.label, &r.features) {
            x.push(f.clone());
            y.push(l);
        }
    }
    let w = balanced_weights(&y, 2);
    fit(&x, &y, 2, Some(&w), cfg)
}

/// Per patient, the highest recording score (NaN when none of its recordings has one).
fn patient_max(recs: &[Rec], scores: &[f64], n_patients: usize) -> Vec<f64> {
    let mut m = vec![f64::NAN; n_patients];
    for (r, &s) in recs.iter().zip(scores) {
        if s.is_finite() && (m[r.patient].is_nan() || s > m[r.patient]) {
            m[r.patient] = s;
        }
    }
    m
}

/// The threshold maximising the weighted accuracy of `rows`: midpoints of the distinct patient
/// maxima, plus below-all and above-all; ties go to the highest threshold.
fn choose_threshold(patients: &[Patient], maxes: &[f64], rows: &[usize]) -> (f64, f64) {
    let mut v: Vec<f64> = rows
        .iter()
        .map(|&p| maxes[p])
        .filter(|s| s.is_finite())
        .collect();
    v.sort_unstable_by(f64::total_cmp);
    v.dedup();
    let mut cands = vec![0.0];
    cands.extend(v.windows(2).map(|w| 0.5 * (w[0] + w[1])));
    cands.push(1.0 + 1e-9);
    let mut best = (f64::NAN, f64::NEG_INFINITY);
    for t in cands {
        let mut tally = MurmurTally::default();
        for &p in rows {
            tally.add(patients[p].murmur, maxes[p] >= t);
        }
        let acc = tally.weighted_accuracy();
        if acc >= best.1 {
            best = (t, acc);
        }
    }
    best
}

/// AUC of scores of positives (label 1) against negatives (the lab's Mann-Whitney AUROC, ties
/// one half); NaN without both classes.
fn auc(pairs: &[(f64, usize)]) -> f64 {
    let (scores, y): (Vec<f64>, Vec<bool>) = pairs.iter().map(|&(s, l)| (s, l == 1)).unzip();
    auroc(&scores, &y).unwrap_or(f64::NAN)
}

/// Figures of one set of patients (with multiplicity) and recordings.
fn figures(
    patients: &[Patient],
    pred_present: &[bool],
    rows: &[usize],
    rec_pairs: &[(f64, usize)],
) -> [f64; 4] {
    let mut tally = MurmurTally::default();
    for &p in rows {
        tally.add(patients[p].murmur, pred_present[p]);
    }
    [
        tally.weighted_accuracy(),
        tally.sensitivity(),
        tally.specificity(),
        auc(rec_pairs),
    ]
}

fn main() -> ExitCode {
    let start = Instant::now();
    let dir = std::env::args().nth(1).map(PathBuf::from).or_else(|| {
        std::env::var_os("CARDIO_DATASETS").map(|r| PathBuf::from(r).join(circor::FOLDER))
    });
    let Some(dir) = dir else {
        eprintln!("set CARDIO_DATASETS or name the training_data folder");
        return ExitCode::FAILURE;
    };
    let patients = match circor::read_patients(&dir) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let groups = circor::group_keys(&patients);
    let n_pat = patients.len();

    // Features of every recording.
    let jobs: Vec<(usize, usize)> = patients
        .iter()
        .enumerate()
        .flat_map(|(p, pat)| (0..pat.recordings.len()).map(move |r| (p, r)))
        .collect();
    let t_feat = Instant::now();
    let feats: Vec<Result<Vec<f64>, String>> = par_map(&jobs, |&(p, r)| {
        let path = &patients[p].recordings[r].wav;
        let rec = cardio_formats::read_path(path).map_err(|e| format!("read: {e}"))?;
        let prepared = features::prepare(&rec).map_err(|e| e.to_string())?;
        features::extract(&prepared)
            .map(|e| e.values)
            .map_err(|e| e.to_string())
    });
    let feat_s = t_feat.elapsed().as_secs_f64();
    let recs: Vec<Rec> = jobs
        .iter()
        .zip(feats)
        .map(|(&(p, r), features)| {
            let pat = &patients[p];
            let site = pat.recordings[r].site;
            let label = match pat.murmur {
                Murmur::Present if pat.locations.contains(&site) => Some(1),
                Murmur::Absent => Some(0),
                _ => None,
            };
            Rec {
                patient: p,
                label,
                features,
            }
        })
        .collect();
    let n_features = features::feature_names().len();

    // Outer folds by child, stratified by the child's label (Present if any patient of the child
    // is, else Unknown if any is, else Absent).
    let child_stratum = |g: &str| {
        (0..n_pat)
            .filter(|&p| groups[p] == g)
            .map(|p| murmur_stratum(patients[p].murmur))
            .min()
            .unwrap_or(2)
    };
    let group_refs: Vec<&str> = groups.iter().map(String::as_str).collect();
    let fold = grouped_folds(
        &group_refs,
        child_stratum,
        3,
        FOLDS,
        &mut SplitMix64::new(SEED),
    );

    // Each outer fold: inner 5-fold grouped CV on its training patients to choose t, then a fit
    // on all its training patients scoring the test fold.
    let t_fit = Instant::now();
    let cfg_of = |seed: u64| config_candidates(seed)[0].clone();
    let outer: Vec<OuterFold> = par_map(&(0..FOLDS).collect::<Vec<_>>(), |&k| {
        let seed = SEED + 1 + k as u64;
        let train_pats: Vec<usize> = (0..n_pat).filter(|&p| fold[p] != k).collect();
        let train_groups: Vec<&str> = train_pats.iter().map(|&p| groups[p].as_str()).collect();
        let inner_fold_of = grouped_folds(
            &train_groups,
            child_stratum,
            3,
            FOLDS,
            &mut SplitMix64::new(seed),
        );
        let mut inner = vec![usize::MAX; n_pat];
        for (&p, &f) in train_pats.iter().zip(&inner_fold_of) {
            inner[p] = f;
        }
        let mut inner_scores = vec![f64::NAN; recs.len()];
        for j in 0..FOLDS {
            let train: Vec<bool> = (0..n_pat)
                .map(|p| inner[p] != usize::MAX && inner[p] != j)
                .collect();
            let model = fit_rows(&recs, &train, &cfg_of(seed * 10 + j as u64));
            for (i, r) in recs.iter().enumerate() {
                if inner[r.patient] == j {
                    if let Ok(f) = &r.features {
                        inner_scores[i] = model.predict_proba(f)[1];
                    }
                }
            }
        }
        let maxes = patient_max(&recs, &inner_scores, n_pat);
        let (t, inner_acc) = choose_threshold(&patients, &maxes, &train_pats);
        let train: Vec<bool> = (0..n_pat).map(|p| fold[p] != k).collect();
        let model = fit_rows(&recs, &train, &cfg_of(seed));
        let test: Vec<(usize, f64)> = recs
            .iter()
            .enumerate()
            .filter(|(_, r)| fold[r.patient] == k)
            .map(|(i, r)| {
                let s = r
                    .features
                    .as_ref()
                    .map_or(f64::NAN, |f| model.predict_proba(f)[1]);
                (i, s)
            })
            .collect();
        (test, t, inner_acc)
    });
    let fit_s = t_fit.elapsed().as_secs_f64();

    let mut oof = vec![f64::NAN; recs.len()];
    let mut thresholds = [f64::NAN; FOLDS];
    let mut inner_accs = [f64::NAN; FOLDS];
    for (k, (test, t, a)) in outer.into_iter().enumerate() {
        for (i, s) in test {
            oof[i] = s;
        }
        thresholds[k] = t;
        inner_accs[k] = a;
    }
    let maxes = patient_max(&recs, &oof, n_pat);
    let pred_present: Vec<bool> = (0..n_pat)
        .map(|p| maxes[p] >= thresholds[fold[p]])
        .collect();

    // Rows per child for the bootstrap.
    let mut children: Vec<&str> = group_refs.clone();
    children.sort_unstable();
    children.dedup();
    let pats_of: Vec<Vec<usize>> = children
        .iter()
        .map(|c| (0..n_pat).filter(|&p| groups[p] == *c).collect())
        .collect();
    let mut recs_of_pat: Vec<Vec<usize>> = vec![Vec::new(); n_pat];
    for (i, r) in recs.iter().enumerate() {
        recs_of_pat[r.patient].push(i);
    }
    let pairs_of = |pats: &[usize]| -> Vec<(f64, usize)> {
        pats.iter()
            .flat_map(|&p| recs_of_pat[p].iter())
            .filter_map(|&i| match (recs[i].label, oof[i]) {
                (Some(l), s) if s.is_finite() => Some((s, l)),
                _ => None,
            })
            .collect()
    };
    let all: Vec<usize> = (0..n_pat).collect();
    let point = figures(&patients, &pred_present, &all, &pairs_of(&all));
    let t_boot = Instant::now();
    let mut rng = SplitMix64::new(SEED);
    let boots = bootstrap_groups(&pats_of, BOOTSTRAP_DRAWS, &mut rng, |rows| {
        figures(&patients, &pred_present, rows, &pairs_of(rows)).to_vec()
    });
    let boot_s = t_boot.elapsed().as_secs_f64();

    // Counts.
    let count = |m: Murmur| patients.iter().filter(|p| p.murmur == m).count();
    let (n_present, n_absent, n_unknown) = (
        count(Murmur::Present),
        count(Murmur::Absent),
        count(Murmur::Unknown),
    );
    let failed: Vec<&Rec> = recs.iter().filter(|r| r.features.is_err()).collect();
    let mut reasons: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for r in &failed {
        if let Err(e) = &r.features {
            *reasons.entry(e.as_str()).or_default() += 1;
        }
    }
    let no_score = (0..n_pat).filter(|&p| !maxes[p].is_finite()).count();
    let n1 = recs.iter().filter(|r| r.label == Some(1)).count();
    let n0 = recs.iter().filter(|r| r.label == Some(0)).count();
    let n_other_site = recs
        .iter()
        .filter(|r| r.label.is_none() && patients[r.patient].murmur == Murmur::Present)
        .count();
    let n_unk_recs = recs
        .iter()
        .filter(|r| patients[r.patient].murmur == Murmur::Unknown)
        .count();
    let tp = (0..n_pat)
        .filter(|&p| patients[p].murmur == Murmur::Present && pred_present[p])
        .count();
    let tn = (0..n_pat)
        .filter(|&p| patients[p].murmur == Murmur::Absent && !pred_present[p])
        .count();
    let pred_unk_present = (0..n_pat)
        .filter(|&p| patients[p].murmur == Murmur::Unknown && pred_present[p])
        .count();
    // Patient-level AUC of the highest recording score (Present vs Absent), for context.
    let pat_pairs: Vec<(f64, usize)> = (0..n_pat)
        .filter_map(|p| match patients[p].murmur {
            Murmur::Present => Some((maxes[p], 1)),
            Murmur::Absent => Some((maxes[p], 0)),
            Murmur::Unknown => None,
        })
        .filter(|(s, _)| s.is_finite())
        .collect();

    println!("CirCor DigiScope murmur baseline (PhysioNet Challenge 2022 training set)");
    println!("data: {}", dir.display());
    println!(
        "patients: {n_pat} (Present {n_present}, Absent {n_absent}, Unknown {n_unknown}); children: {}",
        children.len()
    );
    println!(
        "recordings: {} ({} with features, {} without; patients with no scored recording: {no_score})",
        recs.len(),
        recs.len() - failed.len(),
        failed.len()
    );
    for (reason, n) in &reasons {
        println!("  no features ({n}): {reason}");
    }
    println!(
        "training labels: {n1} murmur (Present patient, site in locations), {n0} no murmur (Absent \
         patient); not trained on: {n_other_site} Present-patient recordings at other sites, \
         {n_unk_recs} Unknown-patient recordings"
    );
    println!(
        "features: {n_features} (cardio_models::pcg_model::features::prepare + extract); classifier: \
         cardio_lab::gbdt::fit, balanced weights, pcg_model config_candidates(seed)[0] \
         (250 rounds, lr 0.05, depth 3)"
    );
    println!(
        "CV: {FOLDS}-fold grouped by child, stratified by child murmur label, seed {SEED}; patient \
         = Present if max recording out-of-fold P(murmur) >= t, else Absent (never Unknown)"
    );
    println!("t per outer fold (maximises weighted accuracy of the inner 5-fold grouped CV out-of-fold scores of the training fold):");
    println!("  fold  patients  t       inner-CV weighted acc");
    for k in 0..FOLDS {
        println!(
            "  {k}     {:<8}  {:.4}  {:.3}",
            (0..n_pat).filter(|&p| fold[p] == k).count(),
            thresholds[k],
            inner_accs[k]
        );
    }
    println!();
    println!(
        "metric (all {n_pat} patients, out-of-fold)     value    95% CI (bootstrap over children, {BOOTSTRAP_DRAWS} draws)"
    );
    let names = [
        "Challenge weighted accuracy",
        "murmur sensitivity (Present pts)",
        "murmur specificity (Absent pts)",
        "recording-level AUC",
    ];
    for ((name, v), b) in names.iter().zip(point).zip(&boots) {
        println!(
            "{name:<40}  {v:.3}    {:.3} - {:.3}",
            percentile_nearest(b, 0.025),
            percentile_nearest(b, 0.975)
        );
    }
    println!(
        "{:<40}  {:.3}    (no CI)",
        "patient-level AUC (max rec score)",
        auc(&pat_pairs)
    );
    println!();
    println!(
        "patients: TP {tp}/{n_present} Present, TN {tn}/{n_absent} Absent, Unknown {n_unknown} \
         (never right; {pred_unk_present} called Present)"
    );
    println!(
        "recording-level AUC on {} labelled recordings with scores",
        pairs_of(&all).len()
    );
    println!(
        "run time: {:.1} s total (features {feat_s:.1} s, 30 fits {fit_s:.1} s, bootstrap {boot_s:.1} s; {THREADS} threads)",
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
