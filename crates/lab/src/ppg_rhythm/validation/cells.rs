//! AF sensitivity and specificity per source and window length, with bootstrap CIs over persons
//! and the AUROC of `P(af)`: the cells of the model card's tables.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::super::data::{Source, Window, WindowLabel};
use super::{BOOTSTRAP, LENGTHS_S, SEED};
use crate::clinical::metrics::auroc;
use crate::resample::{draw, percentile_nearest, SplitMix64};

/// AF sensitivity and specificity of one group of windows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AfCell {
    /// `cinc2017`, `mitdb` or `all`.
    pub source: String,
    /// Window length, seconds.
    pub length_s: f64,
    /// Windows scored.
    pub windows: usize,
    /// Of those, AF.
    pub af_windows: usize,
    /// Persons.
    pub persons: usize,
    /// Persons with an AF window.
    pub af_persons: usize,
    /// Sensitivity.
    pub se: f64,
    /// 95 % bootstrap CI over persons.
    pub se_ci: (f64, f64),
    /// Specificity.
    pub sp: f64,
    /// 95 % bootstrap CI over persons.
    pub sp_ci: (f64, f64),
    /// AUROC of `P(af)`.
    pub auroc: f64,
}

/// Scored windows: person, truth, `P(af)`, decision.
pub(super) struct Scored<'a> {
    pub(super) group: &'a str,
    pub(super) af: bool,
    pub(super) p: f64,
    pub(super) pos: bool,
}

pub(super) fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

/// Sensitivity, specificity with bootstrap CIs over persons, and AUROC.
pub(super) fn af_cell(source: &str, length_s: f64, scored: &[Scored], seed: u64) -> AfCell {
    // Per person: TP, FN, TN, FP.
    let mut per: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for s in scored {
        let c = per.entry(s.group).or_default();
        match (s.af, s.pos) {
            (true, true) => c[0] += 1,
            (true, false) => c[1] += 1,
            (false, false) => c[2] += 1,
            (false, true) => c[3] += 1,
        }
    }
    let counts: Vec<[usize; 4]> = per.values().copied().collect();
    let total = counts.iter().fold([0usize; 4], |mut t, c| {
        for k in 0..4 {
            t[k] += c[k];
        }
        t
    });
    let mut rng = SplitMix64::new(seed);
    let (mut ses, mut sps) = (Vec::new(), Vec::new());
    if !counts.is_empty() {
        for _ in 0..BOOTSTRAP {
            let mut t = [0usize; 4];
            for _ in 0..counts.len() {
                let c = counts[draw(&mut rng, counts.len())];
                for k in 0..4 {
                    t[k] += c[k];
                }
            }
            if t[0] + t[1] > 0 {
                ses.push(ratio(t[0], t[0] + t[1]));
            }
            if t[2] + t[3] > 0 {
                sps.push(ratio(t[2], t[2] + t[3]));
            }
        }
    }
    ses.sort_by(f64::total_cmp);
    sps.sort_by(f64::total_cmp);
    let p: Vec<f64> = scored.iter().map(|s| s.p).collect();
    let y: Vec<bool> = scored.iter().map(|s| s.af).collect();
    AfCell {
        source: source.into(),
        length_s,
        windows: scored.len(),
        af_windows: total[0] + total[1],
        persons: counts.len(),
        af_persons: counts.iter().filter(|c| c[0] + c[1] > 0).count(),
        se: ratio(total[0], total[0] + total[1]),
        se_ci: (
            percentile_nearest(&ses, 0.025),
            percentile_nearest(&ses, 0.975),
        ),
        sp: ratio(total[2], total[2] + total[3]),
        sp_ci: (
            percentile_nearest(&sps, 0.025),
            percentile_nearest(&sps, 0.975),
        ),
        auroc: auroc(&p, &y).unwrap_or(f64::NAN),
    }
}

/// Cells per source (and all) and length for scored windows (`P(af)` and the threshold used).
pub(super) fn af_cells(
    windows: &[&Window],
    p_af: &[(f64, f64)],
    sources: &[Option<Source>],
) -> Vec<AfCell> {
    let mut out = Vec::new();
    for &source in sources {
        for &len in &LENGTHS_S {
            let scored: Vec<Scored> = windows
                .iter()
                .zip(p_af)
                .filter(|(w, _)| w.length_s == len && source.is_none_or(|s| w.source == s))
                .map(|(w, &(p, t))| Scored {
                    group: &w.group,
                    af: w.label == WindowLabel::Af,
                    p,
                    pos: p >= t,
                })
                .collect();
            if scored.is_empty() {
                continue;
            }
            let name = source.map_or("all", Source::name);
            out.push(af_cell(name, len, &scored, SEED ^ len.to_bits()));
        }
    }
    out
}

/// `a / n`, NaN when `n` is 0 (a mean over no recording).
pub(super) fn ratio_f(a: f64, n: usize) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        a / n as f64
    }
}
