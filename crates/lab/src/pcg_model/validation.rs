//! Training and validation of the PCG model, as the model card reports it.
//!
//! - **Classifier**: gradient-boosted trees ([`cardio_models::gbdt`]) on the features of
//!   [`cardio_models::pcg_model::features`],
//!   normal vs abnormal, class-balanced weights, abnormal when its probability is at least
//!   [`THRESHOLD`].
//! - **Unsure**: a quality gate computed without labels: the recording is `unsure` when the
//!   plausibility gate (`cardio_models::gate`, trained on these recordings among others) refuses
//!   it, when it fails the basic checks (flat line, clipping), when its envelope periodicity (the
//!   score of `cardio_signal::quality::pcg`) is below a minimum, or when fewer than [`MIN_CYCLES`]
//!   complete heart cycles are segmented.
//! - **Settings by inner CV**: the boosting settings (three candidates, [`config_candidates`]) and
//!   the minimum periodicity of the gate ([`GATE_CANDIDATES`]) are chosen by the MAcc of a seeded
//!   5-fold CV *inside the training data* of every outer fold (and of the final model); the test
//!   folds are never looked at.
//! - **Scoring** (the challenge's MAcc, as the issue defines it): Se = (abnormal called abnormal or
//!   unsure) / abnormal, Sp = (normal called normal) / normal, MAcc = (Se + Sp) / 2. A recording
//!   that cannot be analysed at all counts as unsure.
//! - **5-fold CV** stratified by site and label together (seed [`SEED`]); out-of-fold decisions
//!   pooled; 95 % CIs by a seeded bootstrap over recordings ([`BOOTSTRAP`] resamples, percentile).
//!   Per-site figures come from the same pooled out-of-fold decisions.
//! - **Leave-one-site-out**: train on five sites, test on the sixth.
//! - **Blend weight and threshold** ([`choose_blend`]): in each outer fold, chosen by the MAcc of
//!   the inner CV's out-of-fold probabilities (the trees' of that inner CV and those of the inner
//!   networks trained on the same inner folds, `params/pcg-cnn-inner.bin`), never on the fold's
//!   test recordings. The deployed pair is chosen the same way from the outer CV's out-of-fold
//!   probabilities; each held-out site's from the outer CV's out-of-fold probabilities of the other
//!   five sites' recordings (no inner networks per site: those recordings' networks saw the held-out
//!   site in training, a small leak that the card states).

use serde::{Deserialize, Serialize};

use crate::gbdt::{balanced_weights, fit};
use crate::parallel::par_map;
use cardio_models::gbdt::{Gbdt, GbdtConfig};
pub use cardio_models::pcg_model::decision::{decide, gate, Decision};
use cardio_models::pcg_model::features::Measured;

use super::blend::{choose_blend, Blend};
use super::data::{NetworkScores, Record, SITES};
use crate::clinical::metrics::{calibration, delong_ci, Calibration};
use crate::resample::{self, draw, percentile_linear, SplitMix64};
use cardio_models::pcg_model::network::blend;

/// The seed of everything random in training and validation.
pub const SEED: u64 = 0x0C1C_2016;
/// Outer CV folds.
pub const FOLDS: usize = 5;
/// Bootstrap resamples of the confidence intervals.
pub const BOOTSTRAP: usize = 2000;
/// The first threshold candidate (fixed before any result was seen), and the threshold of each part
/// of the blend scored alone (the card's comparison rows).
pub const THRESHOLD: f64 = 0.5;
/// Fewest complete heart cycles for a verdict other than unsure.
pub const MIN_CYCLES: usize = 3;

/// Minimum periodicity candidates of the quality gate (0.3 is the signal crate's own threshold).
pub const GATE_CANDIDATES: [f64; 4] = [0.3, 0.2, 0.1, 0.0];
/// Inner CV folds of the settings choice.
pub const INNER_FOLDS: usize = 5;

/// The boosting settings the inner CV chooses from: the first was fixed before any result was
/// seen (small trees, slow learning, strong subsampling for about 1 600 recordings); the others are
/// a smaller and a larger model.
pub fn config_candidates(seed: u64) -> Vec<GbdtConfig> {
    let base = GbdtConfig {
        rounds: 250,
        learning_rate: 0.05,
        max_depth: 3,
        min_child_weight: 2.0,
        lambda: 1.0,
        subsample: 0.8,
        colsample: 0.5,
        seed,
    };
    vec![
        base.clone(),
        GbdtConfig {
            rounds: 150,
            max_depth: 2,
            ..base.clone()
        },
        GbdtConfig {
            rounds: 400,
            max_depth: 4,
            colsample: 0.3,
            ..base
        },
    ]
}

/// The settings chosen by the inner CV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Index into [`config_candidates`].
    pub config: usize,
    /// Minimum envelope periodicity of the gate.
    pub min_periodicity: f64,
    /// Inner-CV MAcc of the choice.
    pub inner_macc: f64,
}

/// Every recording's features and measured values (`None` when it could not be analysed).
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The labelled recordings.
    pub records: Vec<Record>,
    /// Features and measurements, or why the recording could not be analysed.
    pub extracted: Vec<Result<(Vec<f64>, Measured), String>>,
    /// The heart-sound network's probabilities of abnormal (fold's, site's, deployed network).
    pub network: Vec<NetworkScores>,
}

impl Dataset {
    fn gated_out(&self, i: usize, min_periodicity: f64) -> bool {
        self.extracted[i].as_ref().map_or(true, |(_, m)| {
            gate(m, min_periodicity, MIN_CYCLES).is_some()
        })
    }
}

/// Fits the classifier with `cfg` on the analysable records of `rows`.
pub fn fit_on(data: &Dataset, rows: &[usize], cfg: &GbdtConfig) -> Gbdt {
    let mut x = Vec::new();
    let mut y = Vec::new();
    for &i in rows {
        if let Ok((f, _)) = &data.extracted[i] {
            x.push(f.clone());
            y.push(usize::from(data.records[i].abnormal));
        }
    }
    let w = balanced_weights(&y, 2);
    fit(&x, &y, 2, Some(&w), cfg)
}

/// One recording's validation result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// Reference label.
    pub abnormal: bool,
    /// The model's decision.
    pub decision: Decision,
    /// Probability of abnormal (`NaN` when the recording could not be analysed).
    pub p_abnormal: f64,
    /// The threshold the decision used.
    pub threshold: f64,
}

fn probability(data: &Dataset, model: &Gbdt, i: usize) -> f64 {
    data.extracted[i]
        .as_ref()
        .map_or(f64::NAN, |(f, _)| model.predict_proba(f)[1])
}

/// `Some(p)` for a finite probability.
pub(crate) fn finite(p: f64) -> Option<f64> {
    p.is_finite().then_some(p)
}

fn outcome(data: &Dataset, i: usize, p: f64, min_periodicity: f64, threshold: f64) -> Outcome {
    Outcome {
        abnormal: data.records[i].abnormal,
        decision: decide(data.gated_out(i, min_periodicity), p, threshold),
        p_abnormal: p,
        threshold,
    }
}

/// The seed of outer fold `k`'s training (its inner CV's folds too).
pub fn outer_seed(k: usize) -> u64 {
    SEED + k as u64 + 1
}

/// The inner CV's fold (0..[`INNER_FOLDS`]) of each of `rows`, stratified by site and label.
pub fn inner_split(records: &[Record], rows: &[usize], seed: u64) -> Vec<usize> {
    let sub: Vec<Record> = rows.iter().map(|&i| records[i].clone()).collect();
    stratified_folds(&sub, INNER_FOLDS, seed)
}

/// Each record's inner fold inside outer fold `k`'s training recordings (`None` for the records of
/// fold `k`): the folds of [`select`] in that outer fold, which the inner networks share.
pub fn inner_folds_of_outer(records: &[Record], outer: &[usize], k: usize) -> Vec<Option<usize>> {
    let rows: Vec<usize> = (0..records.len()).filter(|&i| outer[i] != k).collect();
    let mut out = vec![None; records.len()];
    for (&i, f) in rows.iter().zip(inner_split(records, &rows, outer_seed(k))) {
        out[i] = Some(f);
    }
    out
}

/// The MAcc of `rows` whose probabilities are `p` (in the order of `rows`), the gate at
/// `min_periodicity` and abnormal from `threshold`.
pub(crate) fn macc_of(
    data: &Dataset,
    rows: &[usize],
    p: &[f64],
    min_periodicity: f64,
    threshold: f64,
) -> f64 {
    let o: Vec<Outcome> = rows
        .iter()
        .zip(p)
        .map(|(&i, &v)| outcome(data, i, v, min_periodicity, threshold))
        .collect();
    se_sp(&o).2
}

/// Chooses the boosting settings and the gate by a seeded stratified inner CV on `rows` only;
/// returns them with the inner CV's out-of-fold probabilities of the chosen boosting settings (in
/// the order of `rows`).
pub fn select(data: &Dataset, rows: &[usize], seed: u64) -> (Settings, Vec<f64>) {
    let folds = inner_split(&data.records, rows, seed);
    let n_cfg = config_candidates(seed).len();
    let jobs: Vec<(usize, usize)> = (0..n_cfg)
        .flat_map(|c| (0..INNER_FOLDS).map(move |f| (c, f)))
        .collect();
    let parts = par_map(&jobs, |&(c, f)| {
        let cfg = &config_candidates(seed ^ (c * 31 + f + 1) as u64)[c];
        let train: Vec<usize> = (0..rows.len())
            .filter(|&k| folds[k] != f)
            .map(|k| rows[k])
            .collect();
        let model = fit_on(data, &train, cfg);
        (0..rows.len())
            .filter(|&k| folds[k] == f)
            .map(|k| (k, probability(data, &model, rows[k])))
            .collect::<Vec<_>>()
    });
    let mut best: Option<Settings> = None;
    let mut best_p = Vec::new();
    for c in 0..n_cfg {
        let mut p = vec![f64::NAN; rows.len()];
        for (job, part) in jobs.iter().zip(&parts) {
            if job.0 == c {
                for &(k, v) in part {
                    p[k] = v;
                }
            }
        }
        for t in GATE_CANDIDATES {
            let macc = macc_of(data, rows, &p, t, THRESHOLD);
            // Strictly better only: on a tie the earlier (a-priori) candidate stays.
            if best.as_ref().is_none_or(|b| macc > b.inner_macc) {
                best = Some(Settings {
                    config: c,
                    min_periodicity: t,
                    inner_macc: macc,
                });
                best_p.clone_from(&p);
            }
        }
    }
    let settings = best.unwrap_or(Settings {
        config: 0,
        min_periodicity: GATE_CANDIDATES[0],
        inner_macc: f64::NAN,
    });
    (settings, best_p)
}

/// Chooses the settings on `rows` by inner CV, then fits on all of `rows`; also returns the inner
/// CV's out-of-fold probabilities (as [`select`]).
pub fn train_on(data: &Dataset, rows: &[usize], seed: u64) -> (Settings, Vec<f64>, Gbdt) {
    let (settings, inner_p) = select(data, rows, seed);
    let cfg = &config_candidates(seed)[settings.config];
    let model = fit_on(data, rows, cfg);
    (settings, inner_p, model)
}

/// Se, Sp and MAcc of outcomes (unsure: a referral for Se, an error for Sp); `NaN` when a class is
/// absent.
pub fn se_sp(outcomes: &[Outcome]) -> (f64, f64, f64) {
    let (mut pos, mut tp, mut neg, mut tn) = (0.0, 0.0, 0.0, 0.0);
    for o in outcomes {
        if o.abnormal {
            pos += 1.0;
            if o.decision != Decision::Normal {
                tp += 1.0;
            }
        } else {
            neg += 1.0;
            if o.decision == Decision::Normal {
                tn += 1.0;
            }
        }
    }
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { f64::NAN };
    let (se, sp) = (ratio(tp, pos), ratio(tn, neg));
    (se, sp, f64::midpoint(se, sp))
}

/// A figure with its 95 % bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The point estimate on all recordings.
    pub value: f64,
    /// 2.5th percentile of the bootstrap.
    pub low: f64,
    /// 97.5th percentile.
    pub high: f64,
}

/// The scores of a group of recordings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    /// What the group is.
    pub name: String,
    /// Recordings.
    pub n: usize,
    /// Abnormal recordings.
    pub n_abnormal: usize,
    /// MAcc with its bootstrap CI.
    pub macc: Interval,
    /// Sensitivity (unsure counted as referred).
    pub se: Interval,
    /// Specificity (unsure counted as an error).
    pub sp: Interval,
    /// Fraction of recordings called unsure.
    pub unsure_fraction: f64,
    /// Unsure among normal recordings.
    pub unsure_normal: usize,
    /// Unsure among abnormal recordings.
    pub unsure_abnormal: usize,
    /// AUROC of the probability of abnormal on the analysable recordings, with its DeLong CI.
    pub auroc: Interval,
    /// MAcc of the classifier alone (every analysable recording thresholded, no gate).
    pub macc_without_gate: f64,
}

/// Scores with seeded bootstrap CIs over recordings.
pub fn scores(name: &str, outcomes: &[Outcome], seed: u64) -> Scores {
    let (se, sp, macc) = se_sp(outcomes);
    let mut rng = SplitMix64::new(seed);
    let n = outcomes.len();
    let (mut b_se, mut b_sp, mut b_macc) = (Vec::new(), Vec::new(), Vec::new());
    let mut sample = Vec::with_capacity(n);
    for _ in 0..BOOTSTRAP {
        if n == 0 {
            break;
        }
        sample.clear();
        sample.extend((0..n).map(|_| outcomes[draw(&mut rng, n)]));
        let (a, b, c) = se_sp(&sample);
        if a.is_finite() {
            b_se.push(a);
        }
        if b.is_finite() {
            b_sp.push(b);
        }
        if c.is_finite() {
            b_macc.push(c);
        }
    }
    let interval = |value: f64, mut v: Vec<f64>| {
        v.sort_unstable_by(f64::total_cmp);
        Interval {
            value,
            low: percentile_linear(&v, 0.025),
            high: percentile_linear(&v, 0.975),
        }
    };
    let analysable: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| o.p_abnormal.is_finite())
        .collect();
    let p: Vec<f64> = analysable.iter().map(|o| o.p_abnormal).collect();
    let y: Vec<bool> = analysable.iter().map(|o| o.abnormal).collect();
    let (auc, lo, hi) = delong_ci(&p, &y).unwrap_or((f64::NAN, f64::NAN, f64::NAN));
    let ungated: Vec<Outcome> = analysable
        .iter()
        .map(|o| Outcome {
            decision: decide(false, o.p_abnormal, o.threshold),
            ..**o
        })
        .collect();
    let unsure = |abnormal: bool| {
        outcomes
            .iter()
            .filter(|o| o.abnormal == abnormal && o.decision == Decision::Unsure)
            .count()
    };
    Scores {
        name: name.into(),
        n,
        n_abnormal: outcomes.iter().filter(|o| o.abnormal).count(),
        macc: interval(macc, b_macc),
        se: interval(se, b_se),
        sp: interval(sp, b_sp),
        unsure_fraction: (unsure(true) + unsure(false)) as f64 / n.max(1) as f64,
        unsure_normal: unsure(false),
        unsure_abnormal: unsure(true),
        auroc: Interval {
            value: auc,
            low: lo,
            high: hi,
        },
        macc_without_gate: se_sp(&ungated).2,
    }
}

/// Fold (0..k) of every record, stratified by site and label together: each (site, label) stratum
/// is shuffled and dealt round-robin, continuing from stratum to stratum.
pub fn stratified_folds(records: &[Record], k: usize, seed: u64) -> Vec<usize> {
    // Strata in the order site a (abnormal, normal), site b (abnormal, normal), ...
    let stratum: Vec<usize> = records
        .iter()
        .map(|r| {
            SITES
                .iter()
                .position(|s| *s == r.site)
                .map_or(2 * SITES.len(), |s| 2 * s + usize::from(!r.abnormal))
        })
        .collect();
    resample::stratified_folds(&stratum, 2 * SITES.len(), k, &mut SplitMix64::new(seed))
}

/// One feature's share of the total split gain of the final model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Importance {
    /// Feature name.
    pub feature: String,
    /// Share of the total gain, 0-1.
    pub share: f64,
}

/// The whole validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Recordings validated (`cardio eval pcg --format json`'s headline keys come first).
    pub n_recordings: usize,
    /// Pooled out-of-fold MAcc of the 5-fold CV (the blend, the gate applied).
    pub cv_macc: f64,
    /// Its bootstrap 95 % CI, `[low, high]`.
    pub cv_macc_ci: [f64; 2],
    /// Mean MAcc over the six held-out sites.
    pub loso_macc_mean: f64,
    /// MAcc of each held-out site, by site letter.
    pub loso_macc_by_site: std::collections::BTreeMap<String, f64>,
    /// Fraction of recordings called unsure in the CV.
    pub unsure_rate: f64,
    /// Recordings.
    pub records: usize,
    /// Abnormal recordings.
    pub abnormal: usize,
    /// Recordings that could not be analysed (counted as unsure), with the reason.
    pub failed: Vec<(String, String)>,
    /// Features per recording.
    pub features: usize,
    /// Pooled out-of-fold scores of the 5-fold CV.
    pub cv: Scores,
    /// The same per site.
    pub cv_per_site: Vec<Scores>,
    /// Leave-one-site-out: trained on the other sites, tested on this one.
    pub leave_one_site_out: Vec<Scores>,
    /// Mean MAcc over the six held-out sites.
    pub leave_one_site_out_mean_macc: f64,
    /// Calibration of the pooled out-of-fold probability of abnormal, analysable recordings
    /// (the gate not applied).
    pub cv_calibration: Calibration,
    /// The CV of each part of the blend alone (trees, network), same folds and gate.
    pub cv_alone: Vec<Scores>,
    /// Leave-one-site-out mean MAcc of each part alone: `(trees, network)`.
    pub leave_one_site_out_alone_mean_macc: (f64, f64),
    /// Resubstitution (final model on its own training data): an upper bound, for contrast only.
    pub training_fit: Scores,
    /// Top features of the final model by split gain.
    pub top_features: Vec<Importance>,
    /// The settings the inner CV chose in each outer fold.
    pub cv_settings: Vec<Settings>,
    /// The settings the inner CV chose for each held-out site.
    pub leave_one_site_out_settings: Vec<Settings>,
    /// The settings of the final model.
    pub final_settings: Settings,
    /// The blend weight and threshold the inner CV (with the inner networks) chose in each outer
    /// fold.
    pub cv_blends: Vec<Blend>,
    /// Those of each held-out site, chosen on the outer CV's out-of-fold probabilities of the
    /// other sites.
    pub leave_one_site_out_blends: Vec<Blend>,
    /// The deployed model's, chosen on all the outer CV's out-of-fold probabilities.
    pub final_blend: Blend,
}

/// Runs the validation on extracted data and trains the final model on all of it (settings chosen
/// by inner CV on all recordings).
pub fn validate(data: &Dataset, names: &[String]) -> (Report, Settings, Gbdt) {
    let n = data.records.len();
    let folds = stratified_folds(&data.records, FOLDS, SEED);
    let mut cv_out: Vec<Option<Outcome>> = vec![None; n];
    let mut cv_trees: Vec<Option<Outcome>> = vec![None; n];
    let mut cv_net: Vec<Option<Outcome>> = vec![None; n];
    let mut cv_settings = Vec::new();
    let mut cv_blends = Vec::new();
    for f in 0..FOLDS {
        let train: Vec<usize> = (0..n).filter(|&i| folds[i] != f).collect();
        let (settings, inner_trees, model) = train_on(data, &train, outer_seed(f));
        let inner_net: Vec<f64> = train.iter().map(|&i| data.network[i].inner[f]).collect();
        let t = settings.min_periodicity;
        let chosen = choose_blend(data, &train, &inner_trees, &inner_net, t);
        for i in (0..n).filter(|&i| folds[i] == f) {
            let trees = probability(data, &model, i);
            let net = data.network[i].cv;
            let p = blend(chosen.weight, trees, finite(net));
            cv_out[i] = Some(outcome(data, i, p, t, chosen.threshold));
            cv_trees[i] = Some(outcome(data, i, trees, t, THRESHOLD));
            cv_net[i] = Some(outcome(data, i, net, t, THRESHOLD));
        }
        cv_settings.push(settings);
        cv_blends.push(chosen);
    }
    let cv_out: Vec<Outcome> = cv_out.into_iter().flatten().collect();
    let cv = scores(
        "5-fold CV (stratified by site and label), all sites",
        &cv_out,
        SEED,
    );
    let cv_trees: Vec<Outcome> = cv_trees.into_iter().flatten().collect();
    let cv_network: Vec<Outcome> = cv_net.into_iter().flatten().collect();
    // The outer CV's out-of-fold probabilities of some recordings, for the blends chosen outside
    // the inner CVs (each held-out site's, the deployed one).
    let oof_blend = |rows: &[usize], min_periodicity: f64| {
        let trees: Vec<f64> = rows.iter().map(|&i| cv_trees[i].p_abnormal).collect();
        let net: Vec<f64> = rows.iter().map(|&i| cv_network[i].p_abnormal).collect();
        choose_blend(data, rows, &trees, &net, min_periodicity)
    };
    let cv_alone = vec![
        scores("5-fold CV, boosted trees alone", &cv_trees, SEED + 10),
        scores("5-fold CV, network alone", &cv_network, SEED + 11),
    ];
    let (p, y): (Vec<f64>, Vec<bool>) = cv_out
        .iter()
        .filter(|o| o.p_abnormal.is_finite())
        .map(|o| (o.p_abnormal, o.abnormal))
        .unzip();
    let cv_calibration = calibration(&p, &y);
    let cv_per_site = SITES
        .iter()
        .enumerate()
        .map(|(k, site)| {
            let o: Vec<Outcome> = (0..n)
                .filter(|&i| data.records[i].site == *site)
                .map(|i| cv_out[i])
                .collect();
            scores(
                &format!("5-fold CV, site {site}"),
                &o,
                SEED + 100 + k as u64,
            )
        })
        .collect();
    let mut loso_settings = Vec::new();
    let mut loso_blends = Vec::new();
    let mut loso_alone = [0.0; 2];
    let leave_one_site_out: Vec<Scores> = SITES
        .iter()
        .enumerate()
        .map(|(k, site)| {
            let train: Vec<usize> = (0..n).filter(|&i| data.records[i].site != *site).collect();
            let (settings, _, model) = train_on(data, &train, SEED + 200 + k as u64);
            let held: Vec<usize> = (0..n).filter(|&i| data.records[i].site == *site).collect();
            let gate_min = settings.min_periodicity;
            let chosen = oof_blend(&train, gate_min);
            let trees: Vec<f64> = held.iter().map(|&i| probability(data, &model, i)).collect();
            let o: Vec<Outcome> = held
                .iter()
                .zip(&trees)
                .map(|(&i, &p)| {
                    outcome(
                        data,
                        i,
                        blend(chosen.weight, p, finite(data.network[i].without_site)),
                        gate_min,
                        chosen.threshold,
                    )
                })
                .collect();
            let alone = |k: usize| {
                let o: Vec<Outcome> = held
                    .iter()
                    .zip(&trees)
                    .map(|(&i, &p)| {
                        let p = if k == 0 {
                            p
                        } else {
                            data.network[i].without_site
                        };
                        outcome(data, i, p, gate_min, THRESHOLD)
                    })
                    .collect();
                se_sp(&o).2
            };
            loso_alone[0] += alone(0);
            loso_alone[1] += alone(1);
            loso_settings.push(settings);
            loso_blends.push(chosen);
            scores(
                &format!("train on the other sites, test on site {site}"),
                &o,
                SEED + 300 + k as u64,
            )
        })
        .collect();
    let leave_one_site_out_mean_macc = leave_one_site_out.iter().map(|s| s.macc.value).sum::<f64>()
        / leave_one_site_out.len() as f64;
    let all: Vec<usize> = (0..n).collect();
    let (settings, _, model) = train_on(data, &all, SEED);
    let final_blend = oof_blend(&all, settings.min_periodicity);
    let fit_out: Vec<Outcome> = all
        .iter()
        .map(|&i| {
            let p = blend(
                final_blend.weight,
                probability(data, &model, i),
                finite(data.network[i].deployed),
            );
            outcome(data, i, p, settings.min_periodicity, final_blend.threshold)
        })
        .collect();
    let training_fit = scores("final model on its own training data", &fit_out, SEED + 400);
    let total: f64 = model.importance.iter().sum::<f64>().max(1e-300);
    let mut top: Vec<Importance> = model
        .importance
        .iter()
        .zip(names)
        .map(|(g, name)| Importance {
            feature: name.clone(),
            share: g / total,
        })
        .collect();
    top.sort_by(|a, b| b.share.total_cmp(&a.share));
    top.truncate(12);
    let report = Report {
        n_recordings: n,
        cv_macc: cv.macc.value,
        cv_macc_ci: [cv.macc.low, cv.macc.high],
        loso_macc_mean: leave_one_site_out_mean_macc,
        loso_macc_by_site: SITES
            .iter()
            .zip(&leave_one_site_out)
            .map(|(site, s)| ((*site).to_string(), s.macc.value))
            .collect(),
        unsure_rate: cv.unsure_fraction,
        records: n,
        abnormal: data.records.iter().filter(|r| r.abnormal).count(),
        failed: data
            .records
            .iter()
            .zip(&data.extracted)
            .filter_map(|(r, e)| e.as_ref().err().map(|why| (r.name.clone(), why.clone())))
            .collect(),
        features: names.len(),
        cv,
        cv_per_site,
        leave_one_site_out,
        leave_one_site_out_mean_macc,
        cv_calibration,
        cv_alone,
        leave_one_site_out_alone_mean_macc: (
            loso_alone[0] / SITES.len() as f64,
            loso_alone[1] / SITES.len() as f64,
        ),
        training_fit,
        top_features: top,
        cv_settings,
        leave_one_site_out_settings: loso_settings,
        final_settings: settings.clone(),
        cv_blends,
        leave_one_site_out_blends: loso_blends,
        final_blend,
    };
    (report, settings, model)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(abnormal: bool, decision: Decision) -> Outcome {
        Outcome {
            abnormal,
            decision,
            p_abnormal: 0.5,
            threshold: THRESHOLD,
        }
    }

    #[test]
    fn unsure_is_a_referral_for_se_and_an_error_for_sp() {
        let out = [
            o(true, Decision::Abnormal),
            o(true, Decision::Unsure),
            o(true, Decision::Normal),
            o(true, Decision::Normal),
            o(false, Decision::Normal),
            o(false, Decision::Unsure),
        ];
        let (se, sp, macc) = se_sp(&out);
        assert_eq!(se, 0.5);
        assert_eq!(sp, 0.5);
        assert_eq!(macc, 0.5);
    }

    #[test]
    fn the_gate_wins_over_the_probability() {
        assert_eq!(decide(true, 0.99, 0.5), Decision::Unsure);
        assert_eq!(decide(false, 0.5, 0.5), Decision::Abnormal);
        assert_eq!(decide(false, 0.49, 0.5), Decision::Normal);
    }

    #[test]
    fn bootstrap_interval_brackets_the_estimate_and_is_seeded() {
        let out: Vec<Outcome> = (0..200)
            .map(|i| {
                let abnormal = i % 2 == 0;
                let right = i % 5 != 0;
                let decision = if abnormal == right {
                    Decision::Abnormal
                } else {
                    Decision::Normal
                };
                o(abnormal, decision)
            })
            .collect();
        let a = scores("x", &out, 1);
        assert_eq!(a.macc.value, 0.8);
        assert!(a.macc.low < 0.8 && a.macc.high > 0.8, "{a:?}");
        assert!(a.macc.high - a.macc.low < 0.15);
        assert_eq!(a, scores("x", &out, 1));
    }

    #[test]
    fn folds_keep_every_site_and_label_spread_evenly() {
        let records: Vec<Record> = (0..60)
            .map(|i| Record {
                site: SITES[i % 3].into(),
                name: format!("r{i}"),
                abnormal: i % 4 == 0,
                path: std::path::PathBuf::new(),
            })
            .collect();
        let folds = stratified_folds(&records, 5, 3);
        for f in 0..5 {
            for site in &SITES[..3] {
                let members = (0..60)
                    .filter(|&i| folds[i] == f && records[i].site == *site)
                    .count();
                assert_eq!(members, 4, "fold {f} site {site}");
            }
        }
        assert_eq!(folds, stratified_folds(&records, 5, 3));
    }
}
