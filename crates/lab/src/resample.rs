//! The resampling every validation of the lab shares: stratified and grouped fold assignment for
//! cross-validation, bootstrap draws and the percentiles of bootstrap CIs, all from the one seeded
//! generator [`SplitMix64`] (`cardio_models::rng`). Deterministic: the same seed gives the same
//! folds and resamples on every platform.
//!
//! ```
//! use cardio_lab::resample::{stratified_folds, SplitMix64};
//!
//! // Two classes, three folds: every fold gets a share of each class.
//! let y = [0, 0, 0, 1, 1, 1, 0, 1, 0];
//! let fold = stratified_folds(&y, 2, 3, &mut SplitMix64::new(7));
//! for f in 0..3 {
//!     assert!((0..y.len()).any(|i| fold[i] == f && y[i] == 0));
//!     assert!((0..y.len()).any(|i| fold[i] == f && y[i] == 1));
//! }
//! ```

use std::collections::{BTreeMap, BTreeSet};

pub use cardio_models::rng::SplitMix64;

/// Stratified `k`-fold assignment: stratum by stratum (`0..n_strata`, in that order), the rows of
/// the stratum are shuffled and dealt round-robin, one counter running across strata, so every fold
/// has the balance of the whole. `stratum[i]` is the stratum of row `i`; a row whose stratum is not
/// below `n_strata` is left in fold 0. Returns the fold (`0..k`) of every row.
pub fn stratified_folds(
    stratum: &[usize],
    n_strata: usize,
    k: usize,
    rng: &mut SplitMix64,
) -> Vec<usize> {
    let mut fold = vec![0; stratum.len()];
    let mut next = 0;
    for s in 0..n_strata {
        let mut idx: Vec<usize> = (0..stratum.len()).filter(|&i| stratum[i] == s).collect();
        rng.shuffle(&mut idx);
        for i in idx {
            fold[i] = next % k;
            next += 1;
        }
    }
    fold
}

/// Grouped `k`-fold assignment: the distinct groups (sorted) are dealt to folds as
/// [`stratified_folds`] deals rows, with `stratum_of` giving each group's stratum, so that all rows
/// of a group (a patient, a recording) share a fold. `group[i]` is the group of row `i`. Returns
/// the fold of every row.
pub fn grouped_folds(
    group: &[&str],
    stratum_of: impl Fn(&str) -> usize,
    n_strata: usize,
    k: usize,
    rng: &mut SplitMix64,
) -> Vec<usize> {
    let groups: Vec<&str> = group
        .iter()
        .copied()
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .collect();
    let strata: Vec<usize> = groups.iter().map(|g| stratum_of(g)).collect();
    let of: BTreeMap<&str, usize> = groups
        .into_iter()
        .zip(stratified_folds(&strata, n_strata, k, rng))
        .collect();
    group.iter().map(|g| of[g]).collect()
}

/// One bootstrap draw: an index in `0..n` (`n > 0`).
pub fn draw(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A bootstrap over groups (a patient's or a child's recordings): `draws` times, as many groups as
/// there are, drawn with replacement from `rng`, their members (in group order) given to
/// `figures`; for each figure, its finite values over the draws, sorted. Empty when there is no
/// group.
pub fn bootstrap_groups(
    groups: &[Vec<usize>],
    draws: usize,
    rng: &mut SplitMix64,
    mut figures: impl FnMut(&[usize]) -> Vec<f64>,
) -> Vec<Vec<f64>> {
    let mut boot: Vec<Vec<f64>> = Vec::new();
    if groups.is_empty() {
        return boot;
    }
    for _ in 0..draws {
        let members: Vec<usize> = (0..groups.len())
            .flat_map(|_| groups[draw(rng, groups.len())].iter().copied())
            .collect();
        let values = figures(&members);
        boot.resize_with(boot.len().max(values.len()), Vec::new);
        for (b, v) in boot.iter_mut().zip(values) {
            if v.is_finite() {
                b.push(v);
            }
        }
    }
    for b in &mut boot {
        b.sort_unstable_by(f64::total_cmp);
    }
    boot
}

/// The `q` quantile of sorted values by the nearest rank (`sorted[round((n - 1) q)]`); NaN when
/// empty.
pub fn percentile_nearest(sorted: &[f64], q: f64) -> f64 {
    cardio_signal::stats::quantile_nearest(sorted, q)
}

/// The `q` quantile of sorted values, linearly interpolated between the two nearest ranks; NaN
/// when empty.
pub fn percentile_linear(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos - pos.floor());
    let j = (i + 1).min(sorted.len() - 1);
    sorted[i] * (1.0 - frac) + sorted[j] * frac
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_share_a_fold_and_strata_are_dealt_in_turn() {
        let group = ["a", "a", "b", "c", "c", "d", "e", "f"];
        let af = |g: &str| usize::from(!matches!(g, "a" | "d"));
        let fold = grouped_folds(&group, af, 2, 2, &mut SplitMix64::new(3));
        assert_eq!(fold[0], fold[1]);
        assert_eq!(fold[3], fold[4]);
        // The two stratum-0 groups are dealt first, to folds 0 and 1.
        assert_ne!(fold[0], fold[5]);
        assert_eq!(
            fold,
            grouped_folds(&group, af, 2, 2, &mut SplitMix64::new(3))
        );
    }

    #[test]
    fn percentiles_by_nearest_rank_and_by_interpolation() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile_nearest(&v, 0.5), 3.0);
        assert_eq!(percentile_linear(&v, 0.5), 2.5);
        assert!(percentile_nearest(&[], 0.5).is_nan());
        assert!(percentile_linear(&[], 0.5).is_nan());
    }

    #[test]
    fn a_group_bootstrap_draws_whole_groups_and_keeps_finite_values_sorted() {
        // Group 0 has one member, group 1 two: a draw holds 2, 3 or 4 members, never a group cut.
        let groups = vec![vec![0], vec![1, 2]];
        let mut sizes = Vec::new();
        let boot = bootstrap_groups(&groups, 200, &mut SplitMix64::new(7), |m| {
            sizes.push(m.len());
            assert!(m.windows(2).all(|w| w != [1, 1] && w != [2, 2]), "{m:?}");
            vec![m.len() as f64, if m.contains(&0) { 1.0 } else { f64::NAN }]
        });
        assert_eq!(boot.len(), 2);
        assert_eq!(boot[0].len(), 200);
        assert!(boot[0].windows(2).all(|w| w[0] <= w[1]));
        assert!(sizes.iter().all(|n| [2, 3, 4].contains(n)));
        assert!(sizes.contains(&2) && sizes.contains(&4));
        // Draws without group 0 give NaN for the second figure and are left out.
        assert!(boot[1].len() < 200 && boot[1].iter().all(|v| *v == 1.0));
        assert!(bootstrap_groups(&[], 10, &mut SplitMix64::new(7), |_| vec![1.0]).is_empty());
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = SplitMix64::new(1);
        assert!((0..1000).all(|_| draw(&mut rng, 7) < 7));
    }
}
