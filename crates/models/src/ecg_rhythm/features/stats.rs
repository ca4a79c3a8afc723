//! Small statistics of the feature vector (mean, SD, median, quantiles, shares, autocorrelation,
//! Pearson correlation), with NaN or `None` where a value is undefined; the definitions are
//! `cardio_signal::stats`.

use cardio_signal::stats;

pub(super) fn mean(x: &[f64]) -> f64 {
    stats::mean(x)
}

/// Sample standard deviation; `None` under two values.
pub(super) fn sd(x: &[f64]) -> Option<f64> {
    (x.len() >= 2).then(|| stats::sd(x))
}

pub(super) fn median(x: &[f64]) -> Option<f64> {
    (!x.is_empty()).then(|| stats::median(x))
}

pub(super) fn median_in_place(s: &mut [f64]) -> f64 {
    let n = s.len();
    let mid = n / 2;
    let (_, m, _) = s.select_nth_unstable_by(mid, f64::total_cmp);
    let hi = *m;
    if n % 2 == 1 {
        hi
    } else {
        let lo = s[..mid].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        f64::midpoint(lo, hi)
    }
}

/// The `q` quantile (nearest rank on the sorted values); NaN when empty.
pub(super) fn quantile(x: &[f64], q: f64) -> f64 {
    stats::quantiles_nearest_unsorted(&mut x.to_vec(), [q])[0]
}

pub(super) fn fraction(it: impl Iterator<Item = bool>) -> f64 {
    let (mut yes, mut all) = (0usize, 0usize);
    for b in it {
        yes += usize::from(b);
        all += 1;
    }
    if all == 0 {
        f64::NAN
    } else {
        yes as f64 / all as f64
    }
}

pub(super) fn autocorr(x: &[f64], lag: usize) -> f64 {
    if x.len() <= lag + 2 {
        return f64::NAN;
    }
    let m = mean(x);
    let den: f64 = x.iter().map(|v| (v - m) * (v - m)).sum();
    if den <= 0.0 {
        return f64::NAN;
    }
    let num: f64 = x.windows(lag + 1).map(|w| (w[0] - m) * (w[lag] - m)).sum();
    num / den
}

pub(super) fn pearson(a: &[f64], b: &[f64]) -> f64 {
    stats::pearson(a, b)
}
