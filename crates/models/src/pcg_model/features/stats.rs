//! Small statistics of the feature vector (mean, SD, median, percentiles), NaN where undefined (definitions: `cardio_signal::stats`).

use cardio_signal::stats;

use super::ANALYSIS_HZ;

pub(super) fn mean(v: &[f64]) -> f64 {
    stats::mean(v)
}

pub(super) fn sd(v: &[f64]) -> f64 {
    stats::sd(v)
}

pub(super) fn median(v: &[f64]) -> f64 {
    let finite: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    stats::median(&finite)
}

/// Linear-interpolated quantile of sorted values (`NaN` when empty).
pub(super) fn percentile_sorted(s: &[f64], q: f64) -> f64 {
    stats::quantile_linear(s, q)
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
