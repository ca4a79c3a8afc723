//! Training and validation of a plausibility gate, as the model cards report it.
//!
//! - **Classifier**: boosted trees ([`cardio_models::gbdt`], [`config`]) on the
//!   [`cardio_models::gate::features`], real recordings (class 0) against non-heart signals and
//!   recordings a dataset marks as noise (class 1), class-balanced weights; refused when P(not a
//!   heart) >= [`THRESHOLD`], fixed before any result was seen. The hand-set rules of
//!   [`cardio_models::gate::hand_rules`] come first.
//! - **5-fold CV grouped** by patient or recording (a group's examples share a fold; seed
//!   [`SEED`]): the whole gate (rules, then trees) on the held-out fold. **False rejection**: the
//!   share of real recordings refused, per dataset; **false acceptance**: the share of non-heart
//!   signals accepted, per kind; 95 % Wilson intervals.
//! - **Leave one kind out**: the trees trained without one kind of non-heart signal, tested on
//!   that kind: how the gate copes with a kind of noise it never saw.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::gbdt::{balanced_weights, fit};
use crate::resample::{self, SplitMix64};
use cardio_models::gate::nonheart::KINDS;
use cardio_models::gate::{features, hand_rules, GateHeadline, GateModality, GateParams};
use cardio_models::gbdt::{Gbdt, GbdtConfig};

use super::data::Example;

/// Seed of folds and trees.
pub const SEED: u64 = 0x6A7E_2026;
/// CV folds.
pub const FOLDS: usize = 5;
/// P(not a heart) at or above which the trees refuse a recording.
pub const THRESHOLD: f64 = 0.5;
/// Version of the gates' parameters.
pub const VERSION: &str = "1.0.0";

/// The boosting settings (fixed: small trees for a few thousand rows).
pub fn config() -> GbdtConfig {
    GbdtConfig {
        rounds: 150,
        learning_rate: 0.1,
        max_depth: 3,
        min_child_weight: 2.0,
        lambda: 1.0,
        subsample: 0.8,
        colsample: 0.8,
        seed: SEED,
    }
}

/// A share with its 95 % Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    /// Events.
    pub k: usize,
    /// Trials.
    pub n: usize,
    /// k / n.
    pub value: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Rate {
    /// The share and its Wilson score interval (Wilson 1927).
    pub fn new(k: usize, n: usize) -> Self {
        if n == 0 {
            return Self {
                k,
                n,
                value: f64::NAN,
                low: f64::NAN,
                high: f64::NAN,
            };
        }
        let (kf, nf, z) = (k as f64, n as f64, 1.959_964);
        let p = kf / nf;
        let denom = 1.0 + z * z / nf;
        let centre = (p + z * z / (2.0 * nf)) / denom;
        let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
        Self {
            k,
            n,
            value: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    fn pct(&self) -> String {
        if self.n == 0 {
            return "-".into();
        }
        format!(
            "{:.1} % [{:.1}-{:.1}] ({}/{})",
            100.0 * self.value,
            100.0 * self.low,
            100.0 * self.high,
            self.k,
            self.n
        )
    }
}

/// The validation of one modality's gate.
#[derive(Debug, Clone, Serialize)]
pub struct GateReport {
    /// The modality.
    pub modality: GateModality,
    /// Examples that could not be measured (counted as refused when real).
    pub unmeasured: usize,
    /// CV false rejection over all real recordings.
    pub false_rejection: Rate,
    /// Per dataset.
    pub false_rejection_by_source: BTreeMap<String, Rate>,
    /// False rejection by the hand-set rules alone, per dataset.
    pub rules_rejection_by_source: BTreeMap<String, Rate>,
    /// CV false acceptance over all non-heart signals.
    pub false_acceptance: Rate,
    /// Per kind.
    pub false_acceptance_by_kind: BTreeMap<String, Rate>,
    /// Share of recordings a dataset marks as noise that the gate refuses.
    pub noise_refused: BTreeMap<String, Rate>,
    /// Leave one kind out: acceptance of the left-out kind.
    pub leave_kind_out: BTreeMap<String, Rate>,
    /// The most common reasons for refusing real recordings.
    pub rejection_reasons: Vec<(String, usize)>,
}

fn is_noise_label(e: &Example) -> bool {
    !e.real && e.kind.is_none()
}

/// Group-wise fold assignment: groups shuffled with `seed` and dealt round-robin.
fn folds(examples: &[Example], k: usize, seed: u64) -> Vec<usize> {
    let group: Vec<&str> = examples.iter().map(|e| e.group.as_str()).collect();
    resample::grouped_folds(&group, |_| 0, 1, k, &mut SplitMix64::new(seed))
}

/// Fits the trees on the measured examples among `rows`.
pub fn fit_rows(examples: &[Example], rows: &[usize]) -> Gbdt {
    let mut x = Vec::new();
    let mut y = Vec::new();
    for &i in rows {
        if let Some(f) = &examples[i].features {
            x.push(features::learnt_view(f));
            y.push(usize::from(!examples[i].real));
        }
    }
    let w = balanced_weights(&y, 2);
    fit(&x, &y, 2, Some(&w), &config())
}

/// The whole gate's decision on one example: refused (with the rule's reason, if a rule).
fn refused(model: &Gbdt, e: &Example, m: GateModality) -> (bool, Option<String>) {
    let Some(f) = &e.features else {
        return (true, Some("could not be measured".into()));
    };
    if let Some(r) = hand_rules(f, m) {
        return (true, Some(r));
    }
    (
        model.predict_proba(&features::learnt_view(f))[1] >= THRESHOLD,
        None,
    )
}

/// Every example's out-of-fold decision (refused, and the hand-set rule's reason if a rule
/// refused it): the whole gate, its trees trained without the example's fold.
fn cv_outcomes(examples: &[Example], m: GateModality) -> Vec<(bool, Option<String>)> {
    let fold = folds(examples, FOLDS, SEED);
    let mut outcome: Vec<(bool, Option<String>)> = vec![(false, None); examples.len()];
    for k in 0..FOLDS {
        let train: Vec<usize> = (0..examples.len()).filter(|&i| fold[i] != k).collect();
        let model = fit_rows(examples, &train);
        for i in (0..examples.len()).filter(|&i| fold[i] == k) {
            outcome[i] = refused(&model, &examples[i], m);
        }
    }
    outcome
}

/// The out-of-fold refusals of the real and noise-labelled examples of one dataset, by group
/// (record name): what a model's own cross-validation uses so that no recording is judged by a
/// gate trained on it.
pub fn out_of_fold_refusals(
    examples: &[Example],
    m: GateModality,
    source: &str,
) -> BTreeMap<String, bool> {
    cv_outcomes(examples, m)
        .into_iter()
        .zip(examples)
        .filter(|(_, e)| e.source == source)
        .map(|((refused, _), e)| (e.group.clone(), refused))
        .collect()
}

/// Cross-validates the gate of `modality` on its examples.
pub fn validate(examples: &[Example], m: GateModality) -> GateReport {
    let outcome = cv_outcomes(examples, m);
    let mut by_source: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut rules_by_source: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut by_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut noise: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let (mut fr, mut nr, mut fa, mut na) = (0, 0, 0, 0);
    for (e, (refused, rule)) in examples.iter().zip(&outcome) {
        if e.real {
            let s = by_source.entry(e.source.clone()).or_default();
            s.0 += usize::from(*refused);
            s.1 += 1;
            let r = rules_by_source.entry(e.source.clone()).or_default();
            r.0 += usize::from(rule.is_some());
            r.1 += 1;
            fr += usize::from(*refused);
            nr += 1;
            if *refused {
                let key = rule.as_deref().map_or("learnt rule".to_string(), |r| {
                    r.split(':').next().unwrap_or(r).chars().take(60).collect()
                });
                *reasons.entry(key).or_default() += 1;
            }
        } else if let Some(kind) = e.kind {
            let s = by_kind.entry(kind.name().into()).or_default();
            s.0 += usize::from(!*refused);
            s.1 += 1;
            fa += usize::from(!*refused);
            na += 1;
        } else if is_noise_label(e) {
            let s = noise.entry(e.source.clone()).or_default();
            s.0 += usize::from(*refused);
            s.1 += 1;
        }
    }
    let rate_map = |m: BTreeMap<String, (usize, usize)>| {
        m.into_iter()
            .map(|(k, (a, b))| (k, Rate::new(a, b)))
            .collect::<BTreeMap<_, _>>()
    };
    let mut leave_kind_out = BTreeMap::new();
    for kind in KINDS {
        let train: Vec<usize> = (0..examples.len())
            .filter(|&i| examples[i].kind != Some(kind))
            .collect();
        let model = fit_rows(examples, &train);
        let test: Vec<&Example> = examples.iter().filter(|e| e.kind == Some(kind)).collect();
        let accepted = test.iter().filter(|e| !refused(&model, e, m).0).count();
        leave_kind_out.insert(kind.name().to_string(), Rate::new(accepted, test.len()));
    }
    let mut rejection_reasons: Vec<(String, usize)> = reasons.into_iter().collect();
    rejection_reasons.sort_by_key(|r| std::cmp::Reverse(r.1));
    GateReport {
        modality: m,
        unmeasured: examples.iter().filter(|e| e.features.is_none()).count(),
        false_rejection: Rate::new(fr, nr),
        false_rejection_by_source: rate_map(by_source),
        rules_rejection_by_source: rate_map(rules_by_source),
        false_acceptance: Rate::new(fa, na),
        false_acceptance_by_kind: rate_map(by_kind),
        noise_refused: rate_map(noise),
        leave_kind_out,
        rejection_reasons,
    }
}

/// The 0.5th and 99.5th percentiles of each feature over the measured real examples.
fn real_ranges(examples: &[Example]) -> Vec<[f64; 2]> {
    (0..features::FEATURE_NAMES.len())
        .map(|j| {
            let mut v: Vec<f64> = examples
                .iter()
                .filter(|e| e.real)
                .filter_map(|e| e.features.as_ref().map(|f| f[j]))
                .filter(|v| v.is_finite())
                .collect();
            if v.is_empty() {
                // Not measured for this modality: any value is in range (finite for JSON).
                return [f64::MIN, f64::MAX];
            }
            v.sort_unstable_by(f64::total_cmp);
            let at = |q: f64| v[((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
            [at(0.005), at(0.995)]
        })
        .collect()
}

/// Validates, then trains the committed gate on every example.
pub fn train(examples: &[Example], m: GateModality) -> (GateParams, GateReport) {
    let report = validate(examples, m);
    let all: Vec<usize> = (0..examples.len()).collect();
    let classifier = fit_rows(examples, &all);
    let mut sources: BTreeMap<&str, usize> = BTreeMap::new();
    for e in examples.iter().filter(|e| e.real || e.kind.is_none()) {
        *sources.entry(e.source.as_str()).or_default() += 1;
    }
    let real_list = sources
        .iter()
        .map(|(s, n)| format!("{s} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let worst = report
        .leave_kind_out
        .values()
        .map(|r| r.value)
        .fold(0.0, f64::max);
    let params = GateParams {
        modality: m,
        version: VERSION.into(),
        trained_on: format!(
            "real recordings ({real_list}) against {} seeded non-heart signals of {} kinds",
            examples.iter().filter(|e| e.kind.is_some()).count(),
            KINDS.len()
        ),
        seed: SEED,
        features: features::FEATURE_NAMES.map(String::from).to_vec(),
        classifier,
        threshold: THRESHOLD,
        real_ranges: real_ranges(examples),
        validation: GateHeadline {
            cv_false_rejection: report.false_rejection.value,
            cv_false_rejection_low: report.false_rejection.low,
            cv_false_rejection_high: report.false_rejection.high,
            cv_false_acceptance: report.false_acceptance.value,
            cv_false_acceptance_high: report.false_acceptance.high,
            leave_kind_out_worst_acceptance: worst,
        },
    };
    (params, report)
}

impl GateReport {
    /// The model card's table, as text.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} plausibility gate: 5-fold CV grouped by patient/recording, rules then boosted trees (threshold {THRESHOLD})",
            self.modality.code().to_uppercase()
        );
        let _ = writeln!(
            s,
            "false rejection, real recordings: {}",
            self.false_rejection.pct()
        );
        for (src, r) in &self.false_rejection_by_source {
            let rules = self.rules_rejection_by_source.get(src).map(Rate::pct);
            let _ = writeln!(
                s,
                "  {src:<20} {}   (hand-set rules alone: {})",
                r.pct(),
                rules.unwrap_or_default()
            );
        }
        for (src, r) in &self.noise_refused {
            let _ = writeln!(s, "recordings {src} marks as noise, refused: {}", r.pct());
        }
        let _ = writeln!(
            s,
            "false acceptance, non-heart signals: {}",
            self.false_acceptance.pct()
        );
        for (kind, r) in &self.false_acceptance_by_kind {
            let loko = self.leave_kind_out.get(kind).map(Rate::pct);
            let _ = writeln!(
                s,
                "  {kind:<16} {}   (kind left out of training: {})",
                r.pct(),
                loko.unwrap_or_default()
            );
        }
        if !self.rejection_reasons.is_empty() {
            let _ = writeln!(s, "why real recordings were refused:");
            for (reason, n) in self.rejection_reasons.iter().take(6) {
                let _ = writeln!(s, "  {n:>5}  {reason}");
            }
        }
        let _ = writeln!(
            s,
            "examples that could not be measured: {}",
            self.unmeasured
        );
        s
    }
}
