//! The descriptive statistics every crate uses, each with one stated definition: mean, sample
//! standard deviation, median, two quantile rules and Pearson's correlation.
//!
//! Two quantile rules are kept because the committed models were fitted with them: the nearest rank
//! ([`quantile_nearest`], `sorted[round((n - 1) q)]`) and linear interpolation between the two
//! nearest ranks ([`quantile_linear`], Hyndman and Fan's definition 7, NumPy's default). Hyndman,
//! R. J., Fan, Y. (1996), "Sample quantiles in statistical packages", *The American Statistician*
//! 50(4), 361-365.
//!
//! ```
//! use cardio_signal::stats;
//!
//! let x = [4.0, 1.0, 3.0, 2.0];
//! assert_eq!(stats::mean(&x), 2.5);
//! assert_eq!(stats::median(&x), 2.5);
//! let sorted = [1.0, 2.0, 3.0, 4.0];
//! assert_eq!(stats::quantile_nearest(&sorted, 0.5), 3.0);
//! assert_eq!(stats::quantile_linear(&sorted, 0.5), 2.5);
//! ```

/// Arithmetic mean; NaN when empty.
pub fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Sample standard deviation (divisor `n - 1`); NaN under two values.
pub fn sd(x: &[f64]) -> f64 {
    if x.len() < 2 {
        return f64::NAN;
    }
    let m = mean(x);
    (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64).sqrt()
}

/// Median: the middle value, or the midpoint of the two middle values of an even count (values
/// ordered by `f64::total_cmp`); NaN when empty.
pub fn median(x: &[f64]) -> f64 {
    // A selection, not a sort (linear time); the same value as `median_sorted` of the sorted copy,
    // since values equal under `total_cmp` are the same bits.
    let mut s = x.to_vec();
    let n = s.len();
    if n == 0 {
        return f64::NAN;
    }
    let (below, middle, _) = s.select_nth_unstable_by(n / 2, f64::total_cmp);
    let middle = *middle;
    if n % 2 == 1 {
        return middle;
    }
    let lower = below
        .iter()
        .copied()
        .max_by(f64::total_cmp)
        .expect("an even count of at least two has a lower half");
    f64::midpoint(lower, middle)
}

/// [`median`] of values already sorted ascending.
pub fn median_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        sorted[n / 2]
    } else {
        f64::midpoint(sorted[n / 2 - 1], sorted[n / 2])
    }
}

/// The upper middle value (`sorted[n / 2]`), a median that is always one of the values; `None`
/// when empty.
pub fn median_upper(x: &[f64]) -> Option<f64> {
    if x.is_empty() {
        return None;
    }
    let mut s = x.to_vec();
    let n = s.len();
    Some(*s.select_nth_unstable_by(n / 2, f64::total_cmp).1)
}

/// The `q` (0-1) quantile of sorted values by the nearest rank, `sorted[round((n - 1) q)]`; NaN
/// when empty.
pub fn quantile_nearest(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// The nearest-rank quantiles `qs` (0-1, ascending) of unsorted values, by selection (linear time
/// per quantile) instead of a sort: the same values as [`quantile_nearest`] of the sorted values,
/// since values equal under `f64::total_cmp` are the same bits. `values` is reordered. NaN each
/// when empty.
pub fn quantiles_nearest_unsorted<const N: usize>(values: &mut [f64], qs: [f64; N]) -> [f64; N] {
    let n = values.len();
    let mut out = [f64::NAN; N];
    if n == 0 {
        return out;
    }
    // Each selection leaves the larger ranks to its right, so the next (higher) rank is selected
    // among those only.
    let mut from = 0;
    for (slot, q) in out.iter_mut().zip(qs) {
        let rank = (((n - 1) as f64 * q).round() as usize).min(n - 1);
        if rank < from {
            // Not ascending: select again over everything (still the same value).
            *slot = *values.select_nth_unstable_by(rank, f64::total_cmp).1;
            from = 0;
            continue;
        }
        *slot = *values[from..]
            .select_nth_unstable_by(rank - from, f64::total_cmp)
            .1;
        from = rank;
    }
    out
}

/// The `q` (0-1) quantile of sorted values interpolated between the two nearest ranks (definition
/// 7 of Hyndman and Fan); NaN when empty.
pub fn quantile_linear(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let i = pos.floor() as usize;
    let j = (i + 1).min(sorted.len() - 1);
    sorted[i] + (sorted[j] - sorted[i]) * (pos - pos.floor())
}

/// Pearson's correlation of two equally long series; 0 when either is constant.
pub fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let ma = mean(a);
    let mb = mean(b);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa <= 0.0 || sbb <= 0.0 {
        0.0
    } else {
        sab / (saa * sbb).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_statistic_follows_its_definition() {
        assert!(mean(&[]).is_nan());
        assert_eq!(mean(&[1.0, 2.0, 6.0]), 3.0);
        assert!(sd(&[1.0]).is_nan());
        // Sample sd of 2, 4, 4, 4, 5, 5, 7, 9: sum of squares 32 over 7.
        let x = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert!((sd(&x) - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert_eq!(median_upper(&[4.0, 1.0, 3.0, 2.0]), Some(3.0));
        assert_eq!(median_upper(&[]), None);
        let s = [10.0, 20.0, 30.0, 40.0, 50.0];
        assert_eq!(quantile_nearest(&s, 0.0), 10.0);
        assert_eq!(quantile_nearest(&s, 0.3), 20.0); // round(1.2) = 1
        assert_eq!(quantile_nearest(&s, 1.0), 50.0);
        assert_eq!(quantile_linear(&s, 0.3), 22.0); // 20 + 0.2 * 10
        assert_eq!(quantile_linear(&s, 1.0), 50.0);
        assert!(quantile_linear(&[], 0.5).is_nan());
        assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.5]) - 0.997_949).abs() < 1e-6);
        assert_eq!(pearson(&[1.0, 1.0], &[1.0, 2.0]), 0.0);
    }

    #[test]
    fn selected_medians_and_quantiles_are_the_sorted_ones_bit_for_bit() {
        let mut state = 1u32;
        for n in 1..200 {
            let x: Vec<f64> = (0..n)
                .map(|i| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    // Repeats, signed zeros and a NaN now and then, as real features have.
                    match state >> 28 {
                        0 => 0.0,
                        1 => -0.0,
                        2 if i % 7 == 0 => f64::NAN,
                        _ => f64::from(state >> 20) / 7.0 - 300.0,
                    }
                })
                .collect();
            let mut sorted = x.clone();
            sorted.sort_by(f64::total_cmp);
            assert_eq!(
                median(&x).to_bits(),
                median_sorted(&sorted).to_bits(),
                "n = {n}"
            );
            assert_eq!(
                median_upper(&x).map(f64::to_bits),
                sorted.get(n / 2).map(|v| v.to_bits())
            );
            let qs = [0.0, 0.005, 0.05, 0.5, 0.95, 0.995, 1.0];
            let selected = quantiles_nearest_unsorted(&mut x.clone(), qs);
            for (q, value) in qs.into_iter().zip(selected) {
                assert_eq!(
                    value.to_bits(),
                    quantile_nearest(&sorted, q).to_bits(),
                    "n = {n}, q = {q}"
                );
            }
            let [hi, lo] = quantiles_nearest_unsorted(&mut x.clone(), [0.9, 0.1]);
            assert_eq!(
                (hi.to_bits(), lo.to_bits()),
                (
                    quantile_nearest(&sorted, 0.9).to_bits(),
                    quantile_nearest(&sorted, 0.1).to_bits()
                )
            );
        }
    }
}
