//! The figures of one path (100 Hz, or resampled to 30 Hz) from the out-of-fold probabilities:
//! AF sensitivity and specificities with 95 % percentile bootstrap CIs over patients, the calls
//! per true rhythm, the six-rhythm accuracy and the AUROC of `P(af)` of the usable segments.

use std::collections::{BTreeMap, BTreeSet};

use cardio_models::ppg_rhythm::classifier::{Rhythm, RhythmProbabilities, WindowLabel};
use serde::{Deserialize, Serialize};

use super::super::segments::Row;
use super::{OutOfFold, BOOTSTRAP};
use crate::clinical::metrics::auroc;
use crate::resample::{draw, percentile_nearest, SplitMix64};

/// A proportion with its 95 % bootstrap CI over patients.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Ci {
    /// The proportion.
    pub value: f64,
    /// 2.5th percentile of the bootstrap.
    pub low: f64,
    /// 97.5th percentile.
    pub high: f64,
    /// Successes.
    pub hits: usize,
    /// Trials.
    pub n: usize,
}

/// How specificity against all non-AF rhythms varies from patient to patient, and what a new
/// cohort of patients may give: the CI of [`Ci`] is that of the pooled figure for patients drawn
/// like these, not the range a new group of patients falls in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatientSpread {
    /// Patients with non-AF segments.
    pub patients: usize,
    /// Mean of the per-patient specificities (each patient weighs the same).
    pub mean_over_patients: f64,
    /// The lowest per-patient specificity, and that patient's non-AF segments.
    pub lowest: f64,
    /// Non-AF segments of the patient with the lowest specificity.
    pub lowest_segments: usize,
    /// Patients whose specificity is under 0.90.
    pub patients_under_90: usize,
    /// 95 % prediction interval of the pooled specificity of a new cohort of as many patients
    /// (two-stage bootstrap: the patients resampled, then a cohort drawn from the resample), low.
    pub cohort_low: f64,
    /// Its high end.
    pub cohort_high: f64,
}

/// What the segments of one true rhythm were called.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Calls {
    /// The true rhythm.
    pub rhythm: Rhythm,
    /// Segments.
    pub segments: usize,
    /// Patients with such segments.
    pub patients: usize,
    /// Called normal.
    pub normal: usize,
    /// Called AF.
    pub af: usize,
    /// Called irregular.
    pub irregular: usize,
    /// Refused by the quality gate (noisy).
    pub noisy: usize,
}

/// The figures of one path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathFigures {
    /// AF segments called AF, of all AF segments.
    pub af_sensitivity: Ci,
    /// Non-AF segments not called AF, of all non-AF segments.
    pub af_specificity_all: Ci,
    /// Sinus segments not called AF, of all sinus segments.
    pub sinus_specificity: Ci,
    /// AF sensitivity among the segments that passed the quality gate.
    pub af_sensitivity_judged: f64,
    /// Specificity against all non-AF rhythms among the segments that passed the gate.
    pub af_specificity_all_judged: f64,
    /// Share of segments refused as noisy.
    pub noisy_share: f64,
    /// Most probable of the six rhythms right, among the usable segments.
    pub six_rhythm_accuracy: f64,
    /// AUROC of `P(af)`, AF against the rest, among the usable segments.
    pub auroc: f64,
    /// Calls per true rhythm.
    pub calls: Vec<Calls>,
    /// Specificity against all non-AF rhythms, patient by patient.
    pub specificity_spread: PatientSpread,
}

/// Per patient: `[AF called AF, AF, non-AF not called AF, non-AF, sinus not called AF, sinus]`.
type Tally = [usize; 6];

fn proportion(hits: usize, n: usize) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        hits as f64 / n as f64
    }
}

fn ci(per: &[Tally], hit: usize, of: usize, seed: u64) -> Ci {
    let total = per.iter().fold([0usize; 6], |mut t, c| {
        for k in 0..6 {
            t[k] += c[k];
        }
        t
    });
    let mut rng = SplitMix64::new(seed);
    let mut draws = Vec::with_capacity(BOOTSTRAP);
    if !per.is_empty() {
        for _ in 0..BOOTSTRAP {
            let (mut h, mut n) = (0, 0);
            for _ in 0..per.len() {
                let c = per[draw(&mut rng, per.len())];
                h += c[hit];
                n += c[of];
            }
            if n > 0 {
                draws.push(h as f64 / n as f64);
            }
        }
    }
    draws.sort_unstable_by(f64::total_cmp);
    Ci {
        value: proportion(total[hit], total[of]),
        low: percentile_nearest(&draws, 0.025),
        high: percentile_nearest(&draws, 0.975),
        hits: total[hit],
        n: total[of],
    }
}

/// The spread of specificity against all non-AF rhythms over the patients of `per`.
fn spread(per: &[Tally], seed: u64) -> PatientSpread {
    let with: Vec<&Tally> = per.iter().filter(|t| t[3] > 0).collect();
    let rates: Vec<f64> = with.iter().map(|t| proportion(t[2], t[3])).collect();
    let (lowest, lowest_segments) = with
        .iter()
        .zip(&rates)
        .min_by(|a, b| a.1.total_cmp(b.1))
        .map_or((f64::NAN, 0), |(t, r)| (*r, t[3]));
    let mut rng = SplitMix64::new(seed);
    let mut draws = Vec::with_capacity(BOOTSTRAP);
    let k = with.len();
    if k > 0 {
        let mut population: Vec<&Tally> = Vec::with_capacity(k);
        for _ in 0..BOOTSTRAP {
            population.clear();
            population.extend((0..k).map(|_| with[draw(&mut rng, k)]));
            let (mut h, mut n) = (0, 0);
            for _ in 0..k {
                let t = population[draw(&mut rng, k)];
                h += t[2];
                n += t[3];
            }
            draws.push(proportion(h, n));
        }
    }
    draws.sort_unstable_by(f64::total_cmp);
    PatientSpread {
        patients: k,
        mean_over_patients: if k == 0 {
            f64::NAN
        } else {
            rates.iter().sum::<f64>() / k as f64
        },
        lowest,
        lowest_segments,
        patients_under_90: rates.iter().filter(|&&r| r < 0.9).count(),
        cohort_low: percentile_nearest(&draws, 0.025),
        cohort_high: percentile_nearest(&draws, 0.975),
    }
}

/// The figures of the path whose probabilities `pick` takes from each out-of-fold result.
pub fn figures(
    rows: &[Row],
    oof: &[OutOfFold],
    pick: impl Fn(&OutOfFold) -> Option<[f64; 6]>,
    seed: u64,
) -> PathFigures {
    let mut per: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut calls: Vec<Calls> = Rhythm::ALL
        .into_iter()
        .map(|rhythm| Calls {
            rhythm,
            segments: 0,
            patients: 0,
            normal: 0,
            af: 0,
            irregular: 0,
            noisy: 0,
        })
        .collect();
    let mut patients: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); 6];
    let (mut right, mut usable) = (0usize, 0usize);
    let (mut judged_af, mut judged_af_hit, mut judged_non, mut judged_non_hit) = (0, 0, 0, 0);
    let (mut scores, mut truth) = (Vec::new(), Vec::new());
    for (r, o) in rows.iter().zip(oof) {
        let probs = pick(o).map(|rhythms| RhythmProbabilities { rhythms });
        let label = probs.map(|p| p.label(o.threshold).0);
        let called_af = label == Some(WindowLabel::Af);
        let c = &mut calls[r.rhythm.index()];
        c.segments += 1;
        patients[r.rhythm.index()].insert(&r.patient);
        match label {
            Some(WindowLabel::Normal) => c.normal += 1,
            Some(WindowLabel::Af) => c.af += 1,
            Some(WindowLabel::Irregular) => c.irregular += 1,
            None => c.noisy += 1,
        }
        let t = per.entry(&r.patient).or_default();
        let is_af = r.rhythm == Rhythm::Af;
        if is_af {
            t[1] += 1;
            t[0] += usize::from(called_af);
        } else {
            t[3] += 1;
            t[2] += usize::from(!called_af);
        }
        if r.rhythm == Rhythm::Sinus {
            t[5] += 1;
            t[4] += usize::from(!called_af);
        }
        if let Some(p) = probs {
            usable += 1;
            let best = Rhythm::ALL
                .into_iter()
                .max_by(|a, b| p.of(*a).total_cmp(&p.of(*b)))
                .unwrap_or(Rhythm::Sinus);
            right += usize::from(best == r.rhythm);
            scores.push(p.af());
            truth.push(is_af);
            if is_af {
                judged_af += 1;
                judged_af_hit += usize::from(called_af);
            } else {
                judged_non += 1;
                judged_non_hit += usize::from(!called_af);
            }
        }
    }
    for (c, p) in calls.iter_mut().zip(&patients) {
        c.patients = p.len();
    }
    let per: Vec<Tally> = per.into_values().collect();
    PathFigures {
        af_sensitivity: ci(&per, 0, 1, seed),
        af_specificity_all: ci(&per, 2, 3, seed ^ 2),
        sinus_specificity: ci(&per, 4, 5, seed ^ 4),
        af_sensitivity_judged: proportion(judged_af_hit, judged_af),
        af_specificity_all_judged: proportion(judged_non_hit, judged_non),
        noisy_share: proportion(rows.len() - usable, rows.len()),
        six_rhythm_accuracy: proportion(right, usable),
        auroc: auroc(&scores, &truth).unwrap_or(f64::NAN),
        calls,
        specificity_spread: spread(&per, seed ^ 6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_weighs_each_patient_the_same_and_finds_the_worst() {
        // Specificity 99/100, 9/10 and 20/40; a patient with AF segments only is left out.
        let per: Vec<Tally> = vec![
            [0, 0, 99, 100, 0, 0],
            [0, 0, 9, 10, 0, 0],
            [0, 0, 20, 40, 0, 0],
            [5, 5, 0, 0, 0, 0],
        ];
        let s = spread(&per, 7);
        assert_eq!(s.patients, 3);
        assert!((s.mean_over_patients - (0.99 + 0.9 + 0.5) / 3.0).abs() < 1e-12);
        assert_eq!((s.lowest, s.lowest_segments), (0.5, 40));
        assert_eq!(s.patients_under_90, 1);
        // A new cohort can be all the worst patient or all the best.
        assert!(s.cohort_low >= 0.5 && s.cohort_low < 128.0 / 150.0);
        assert!(s.cohort_high <= 0.99 && s.cohort_high > 128.0 / 150.0);
        assert!(s.cohort_low < s.cohort_high);
    }
}
