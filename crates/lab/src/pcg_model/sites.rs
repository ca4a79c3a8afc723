//! Site-shift experiments for the heart-sound card: can the boosted trees be made to carry over to
//! a site they were not trained on without any label from it?
//!
//! Leave-one-site-out of the trees alone (the first of [`config_candidates`], threshold 0.5, no
//! gate), three ways, next to the committed network trained without the site:
//! - **as they are**: the features unchanged;
//! - **site-scaled**: every site's features centred on that site's own medians and divided by its
//!   own interquartile ranges, labels unused (unsupervised adaptation to a new device, as in
//!   Shariat Panah, Hines & McKeever, "Exploring composite dataset biases for heart sound
//!   classification", AICS 2020, who find the CinC 2016 sites told apart by their sensors);
//! - **site-invariant half**: the half of the features whose variance among the training sites'
//!   *normal* recordings is least explained by the site (eta squared) kept, the rest set to zero.
//!
//! And [`with_seventh_site`]: the same leave-one-site-out of the trees as they are, trained with and
//! without a second population as a seventh site (CirCor DigiScope, another stethoscope, children in
//! Brazil): does a second device and population in training carry the trees over to a CinC site
//! they never saw?

use std::fmt;

use cardio_models::gbdt::Gbdt;

use super::data::SITES;
use super::validation::{config_candidates, fit_on, outer_seed, Dataset};
use crate::clinical::metrics::{auroc, threshold_metrics};
use crate::gbdt::{balanced_weights, fit};
use cardio_signal::stats;

/// The share of the features the site-invariant variant keeps.
pub const KEEP: f64 = 0.5;

/// AUROC and MAcc (at 0.5) of one variant on one held-out site.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SiteScore {
    /// AUROC of the probability of abnormal (`NaN` without both labels).
    pub auroc: f64,
    /// Mean of sensitivity and specificity at 0.5.
    pub macc: f64,
}

/// The variants, in report order.
pub const VARIANTS: [&str; 4] = [
    "trees, features as they are",
    "trees, site-scaled",
    "trees, site-invariant half",
    "network trained without the site (committed)",
];

/// Every held-out site's scores, per variant in [`VARIANTS`] order.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteReport {
    /// `(site, recordings scored, scores per variant)`.
    pub rows: Vec<(String, usize, [SiteScore; 4])>,
}

impl SiteReport {
    /// Mean over the held-out sites of variant `v`: `(AUROC, MAcc)`.
    pub fn mean(&self, v: usize) -> (f64, f64) {
        let n = self.rows.len().max(1) as f64;
        let sum = |f: fn(&SiteScore) -> f64| self.rows.iter().map(|r| f(&r.2[v])).sum::<f64>() / n;
        (sum(|s| s.auroc), sum(|s| s.macc))
    }
}

impl fmt::Display for SiteReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "| held-out site | n | {} |", VARIANTS.join(" | "))?;
        writeln!(f, "|---|---|{}", "---|".repeat(VARIANTS.len()))?;
        let cell = |s: &SiteScore| format!("{:.3} / {:.3}", s.auroc, s.macc);
        for (site, n, scores) in &self.rows {
            let cells: Vec<String> = scores.iter().map(cell).collect();
            writeln!(f, "| {site} | {n} | {} |", cells.join(" | "))?;
        }
        let means: Vec<String> = (0..VARIANTS.len())
            .map(|v| {
                let (a, m) = self.mean(v);
                format!("{a:.3} / {m:.3}")
            })
            .collect();
        writeln!(f, "| mean | | {} |", means.join(" | "))?;
        write!(f, "(AUROC / MAcc at 0.5 on the held-out site)")
    }
}

/// `x` centred on its median and divided by its interquartile range (nearest-rank quartiles; a
/// range of zero counts as 1e-9).
pub fn robust_scale(x: &mut [f64]) {
    if x.is_empty() {
        return;
    }
    let [q1, median, q3] = stats::quantiles_nearest_unsorted(&mut x.to_vec(), [0.25, 0.5, 0.75]);
    let iqr = (q3 - q1).max(1e-9);
    for value in x {
        *value = (*value - median) / iqr;
    }
}

/// The share of the variance of `values` explained by their `groups` (eta squared); 1 for values
/// that do not vary.
pub fn eta_squared(values: &[f64], groups: &[usize]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let total: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
    if total <= 0.0 {
        return 1.0;
    }
    let mut sums = std::collections::BTreeMap::<usize, (f64, f64)>::new();
    for (&v, &g) in values.iter().zip(groups) {
        let e = sums.entry(g).or_default();
        e.0 += v;
        e.1 += 1.0;
    }
    let between: f64 = sums.values().map(|(s, c)| c * (s / c - mean).powi(2)).sum();
    between / total
}

fn features(data: &Dataset, i: usize) -> Option<&Vec<f64>> {
    data.extracted[i].as_ref().ok().map(|(f, _)| f)
}

/// The dataset with every site's features robust-scaled by that site's own recordings.
fn site_scaled(data: &Dataset) -> Dataset {
    let mut out = data.clone();
    let width = (0..data.records.len())
        .find_map(|i| features(data, i))
        .map_or(0, Vec::len);
    for site in SITES {
        let rows: Vec<usize> = (0..data.records.len())
            .filter(|&i| data.records[i].site == site && features(data, i).is_some())
            .collect();
        for j in 0..width {
            let mut column: Vec<f64> = rows
                .iter()
                .filter_map(|&i| features(data, i).map(|f| f[j]))
                .collect();
            robust_scale(&mut column);
            for (&i, v) in rows.iter().zip(column) {
                if let Ok((f, _)) = &mut out.extracted[i] {
                    f[j] = v;
                }
            }
        }
    }
    out
}

/// The dataset with the most site-bound features (by eta squared among the normal recordings of
/// `train`) set to zero, [`KEEP`] of them kept.
fn site_invariant(data: &Dataset, train: &[usize]) -> Dataset {
    let normals: Vec<usize> = train
        .iter()
        .copied()
        .filter(|&i| !data.records[i].abnormal && features(data, i).is_some())
        .collect();
    let groups: Vec<usize> = normals
        .iter()
        .map(|&i| {
            SITES
                .iter()
                .position(|s| *s == data.records[i].site)
                .unwrap_or(0)
        })
        .collect();
    let width = normals
        .first()
        .and_then(|&i| features(data, i))
        .map_or(0, Vec::len);
    let mut eta: Vec<(f64, usize)> = (0..width)
        .map(|j| {
            let column: Vec<f64> = normals
                .iter()
                .filter_map(|&i| features(data, i).map(|f| f[j]))
                .collect();
            (eta_squared(&column, &groups), j)
        })
        .collect();
    eta.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = data.clone();
    let kept = (width as f64 * KEEP) as usize;
    for (f, _) in out.extracted.iter_mut().flatten() {
        for &(_, j) in &eta[kept..] {
            f[j] = 0.0;
        }
    }
    out
}

fn score(p: &[f64], y: &[bool]) -> SiteScore {
    let at_half = threshold_metrics(p, y, 0.5);
    SiteScore {
        auroc: auroc(p, y).unwrap_or(f64::NAN),
        macc: f64::midpoint(at_half.sensitivity, at_half.specificity),
    }
}

/// Leaving `site` out: the training rows (every other site's), the held-out rows with features and
/// their labels.
fn split(data: &Dataset, site: &str) -> (Vec<usize>, Vec<usize>, Vec<bool>) {
    let n = data.records.len();
    let train: Vec<usize> = (0..n).filter(|&i| data.records[i].site != site).collect();
    let held: Vec<usize> = (0..n)
        .filter(|&i| data.records[i].site == site && features(data, i).is_some())
        .collect();
    let y: Vec<bool> = held.iter().map(|&i| data.records[i].abnormal).collect();
    (train, held, y)
}

/// The experiments on `data` (recordings the features or the network could not score are left
/// out of that variant's figures).
pub fn experiment(data: &Dataset) -> SiteReport {
    let scaled = site_scaled(data);
    let cfg = config_candidates(outer_seed(0))[0].clone();
    let rows = SITES
        .iter()
        .map(|&site| {
            let (train, held, y) = split(data, site);
            let invariant = site_invariant(data, &train);
            let trees = |d: &Dataset| {
                let model: Gbdt = fit_on(d, &train, &cfg);
                let p: Vec<f64> = held
                    .iter()
                    .map(|&i| features(d, i).map_or(f64::NAN, |f| model.predict_proba(f)[1]))
                    .collect();
                score(&p, &y)
            };
            let (p_net, y_net): (Vec<f64>, Vec<bool>) = held
                .iter()
                .map(|&i| (data.network[i].without_site, data.records[i].abnormal))
                .filter(|(p, _)| p.is_finite())
                .unzip();
            (
                site.to_string(),
                held.len(),
                [
                    trees(data),
                    trees(&scaled),
                    trees(&invariant),
                    score(&p_net, &y_net),
                ],
            )
        })
        .collect();
    SiteReport { rows }
}

/// Each held-out CinC site's scores of the trees trained on the five other sites, without and
/// with the seventh site's recordings.
#[derive(Debug, Clone, PartialEq)]
pub struct SeventhSiteReport {
    /// The seventh site's recordings in training and how many of them are abnormal.
    pub extra: (usize, usize),
    /// `(site, recordings scored, without, with)`.
    pub rows: Vec<SeventhSiteRow>,
}

/// One held-out site: `(site, recordings scored, without, with)`.
pub type SeventhSiteRow = (String, usize, SiteScore, SiteScore);

impl SeventhSiteReport {
    /// Mean over the held-out sites, `(without, with)`, each `(AUROC, MAcc)`.
    pub fn means(&self) -> [(f64, f64); 2] {
        let n = self.rows.len().max(1) as f64;
        let mean = |f: &dyn Fn(&SeventhSiteRow) -> f64| self.rows.iter().map(f).sum::<f64>() / n;
        [
            (mean(&|r| r.2.auroc), mean(&|r| r.2.macc)),
            (mean(&|r| r.3.auroc), mean(&|r| r.3.macc)),
        ]
    }
}

impl fmt::Display for SeventhSiteReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "seventh site in training: {} recordings ({} abnormal)",
            self.extra.0, self.extra.1
        )?;
        writeln!(
            f,
            "| held-out site | n | five CinC sites | five CinC sites + the seventh |"
        )?;
        writeln!(f, "|---|---|---|---|")?;
        for (site, n, without, with) in &self.rows {
            writeln!(
                f,
                "| {site} | {n} | {:.3} / {:.3} | {:.3} / {:.3} |",
                without.auroc, without.macc, with.auroc, with.macc
            )?;
        }
        let [a, b] = self.means();
        writeln!(
            f,
            "| mean | | {:.3} / {:.3} | {:.3} / {:.3} |",
            a.0, a.1, b.0, b.1
        )?;
        write!(f, "(AUROC / MAcc at 0.5 on the held-out site)")
    }
}

/// Leave-one-site-out of the trees as they are (the first of [`config_candidates`], class-balanced,
/// threshold 0.5, no gate), trained on the five other CinC sites alone and with `extra` (feature
/// rows of another dataset with their label, abnormal or not) added to every training set.
pub fn with_seventh_site(data: &Dataset, extra: &[(Vec<f64>, bool)]) -> SeventhSiteReport {
    let cfg = config_candidates(outer_seed(0))[0].clone();
    let rows = SITES
        .iter()
        .map(|&site| {
            let (train, held, y) = split(data, site);
            let fitted = |with_extra: bool| -> Gbdt {
                let mut x: Vec<Vec<f64>> = Vec::new();
                let mut labels: Vec<usize> = Vec::new();
                for &i in &train {
                    if let Some(f) = features(data, i) {
                        x.push(f.clone());
                        labels.push(usize::from(data.records[i].abnormal));
                    }
                }
                if with_extra {
                    for (f, abnormal) in extra {
                        x.push(f.clone());
                        labels.push(usize::from(*abnormal));
                    }
                }
                let w = balanced_weights(&labels, 2);
                fit(&x, &labels, 2, Some(&w), &cfg)
            };
            let scored = |model: &Gbdt| {
                let p: Vec<f64> = held
                    .iter()
                    .map(|&i| features(data, i).map_or(f64::NAN, |f| model.predict_proba(f)[1]))
                    .collect();
                score(&p, &y)
            };
            (
                site.to_string(),
                held.len(),
                scored(&fitted(false)),
                scored(&fitted(true)),
            )
        })
        .collect();
    SeventhSiteReport {
        extra: (extra.len(), extra.iter().filter(|(_, a)| *a).count()),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robust_scaling_centres_on_the_median_and_divides_by_the_quartile_range() {
        let mut x = vec![1.0, 2.0, 3.0, 4.0, 100.0];
        robust_scale(&mut x);
        // Nearest-rank quartiles of 5 values: positions 1, 2, 3 -> 2, 3, 4.
        assert_eq!(x, vec![-1.0, -0.5, 0.0, 0.5, 48.5]);
    }

    #[test]
    fn eta_squared_is_one_for_pure_group_differences_and_zero_for_none() {
        assert!((eta_squared(&[1.0, 1.0, 5.0, 5.0], &[0, 0, 1, 1]) - 1.0).abs() < 1e-12);
        assert!(eta_squared(&[1.0, 5.0, 1.0, 5.0], &[0, 0, 1, 1]).abs() < 1e-12);
        // Half the variance between groups: values 0, 2 | 2, 4 (means 1 and 3, overall 2).
        assert!((eta_squared(&[0.0, 2.0, 2.0, 4.0], &[0, 0, 1, 1]) - 0.5).abs() < 1e-12);
        assert_eq!(eta_squared(&[3.0, 3.0], &[0, 1]), 1.0);
    }

    #[test]
    fn a_perfect_ranking_scores_one_and_a_threshold_miss_halves_the_macc() {
        let y = [true, true, false, false];
        let s = score(&[0.9, 0.8, 0.2, 0.1], &y);
        assert_eq!(
            s,
            SiteScore {
                auroc: 1.0,
                macc: 1.0
            }
        );
        // Ranked right, but every probability above 0.5: Se 1, Sp 0.
        let s = score(&[0.9, 0.8, 0.7, 0.6], &y);
        assert_eq!(
            s,
            SiteScore {
                auroc: 1.0,
                macc: 0.5
            }
        );
    }
}
