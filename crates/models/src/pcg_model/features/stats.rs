//! Small statistics of the feature vector (mean, SD, median, percentiles), NaN where undefined.

use super::ANALYSIS_HZ;

pub(super) fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

pub(super) fn sd(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return f64::NAN;
    }
    let m = mean(v);
    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}

pub(super) fn median(v: &[f64]) -> f64 {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if s.is_empty() {
        return f64::NAN;
    }
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        0.5 * (s[n / 2 - 1] + s[n / 2])
    }
}

/// Linear-interpolated quantile of sorted values (`NaN` when empty).
pub(super) fn percentile_sorted(s: &[f64], q: f64) -> f64 {
    if s.is_empty() {
        return f64::NAN;
    }
    let pos = q * (s.len() - 1) as f64;
    let i = pos.floor() as usize;
    let j = (i + 1).min(s.len() - 1);
    s[i] + (s[j] - s[i]) * (pos - pos.floor())
}

pub(super) fn opt(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// Sample index range of `[a, b)` seconds, clipped to `n`.
pub(super) fn span(a: f64, b: f64, n: usize) -> std::ops::Range<usize> {
    let i = ((a * ANALYSIS_HZ).round().max(0.0) as usize).min(n);
    let j = ((b * ANALYSIS_HZ).round().max(0.0) as usize).min(n);
    i..j.max(i)
}

pub(super) fn mean_abs(x: &[f64]) -> f64 {
    if x.is_empty() {
        f64::NAN
    } else {
        x.iter().map(|v| v.abs()).sum::<f64>() / x.len() as f64
    }
}
