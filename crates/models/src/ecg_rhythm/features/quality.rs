//! Signal-quality helpers of the feature vector: a second, amplitude-based QRS detector and its
//! agreement with the first, windowed RMS spread, clipping, kurtosis and skewness, detrending.

use super::stats::{mean, median, quantile, sd};

/// A second QRS detector on a different principle (amplitude rather than slope energy): local
/// extrema of |y - median| above 40 % of its 99th percentile, 250 ms refractory, largest kept.
pub(super) fn amplitude_detector(y: &[f64], f: f64) -> Vec<usize> {
    let med = median(y).unwrap_or(0.0);
    let a: Vec<f64> = y.iter().map(|v| (v - med).abs()).collect();
    let th = 0.4 * quantile(&a, 0.99);
    let refractory = (0.25 * f) as usize;
    let mut out: Vec<usize> = Vec::new();
    for i in 1..a.len().saturating_sub(1) {
        if a[i] > th && a[i] >= a[i - 1] && a[i] >= a[i + 1] {
            match out.last_mut() {
                Some(last) if i - *last < refractory => {
                    if a[i] > a[*last] {
                        *last = i;
                    }
                }
                _ => out.push(i),
            }
        }
    }
    out
}

/// F1 of matching two beat lists within `tol` samples (1 when both are empty).
pub(super) fn agreement(a: &[usize], b: &[usize], tol: usize) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j, mut matched) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        if a[i].abs_diff(b[j]) <= tol {
            matched += 1;
            i += 1;
            j += 1;
        } else if a[i] < b[j] {
            i += 1;
        } else {
            j += 1;
        }
    }
    2.0 * matched as f64 / (a.len() + b.len()) as f64
}

pub(super) fn window_rms_spread(x: &[f64], w: usize) -> (f64, f64, f64) {
    let rms: Vec<f64> = x
        .chunks(w.max(1))
        .filter(|c| c.len() == w)
        .map(|c| (energy(c) / c.len() as f64).sqrt())
        .collect();
    let Some(med) = median(&rms) else {
        return (f64::NAN, f64::NAN, f64::NAN);
    };
    let med = med.max(1e-12);
    (
        rms.iter().copied().fold(0.0, f64::max) / med,
        rms.iter().copied().fold(f64::INFINITY, f64::min) / med,
        sd(&rms).unwrap_or(0.0) / mean(&rms).max(1e-12),
    )
}

pub(super) fn clipped_fraction(x: &[f64]) -> f64 {
    let (lo, hi) = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    let eps = 1e-3 * (hi - lo);
    let rail = |v: f64| v <= lo + eps || v >= hi - eps;
    x.windows(2)
        .filter(|w| rail(w[0]) && rail(w[1]) && (w[0] - w[1]).abs() <= eps)
        .count() as f64
        / (x.len() - 1).max(1) as f64
}

pub(super) fn kurtosis_skewness(x: &[f64]) -> (f64, f64) {
    let m = mean(x);
    let (mut m2, mut m3, mut m4) = (0.0, 0.0, 0.0);
    for &v in x {
        let d = v - m;
        let d2 = d * d;
        m2 += d2;
        m3 += d2 * d;
        m4 += d2 * d2;
    }
    let n = x.len() as f64;
    let (m2, m3, m4) = (m2 / n, m3 / n, m4 / n);
    if m2 <= 0.0 {
        return (f64::NAN, f64::NAN);
    }
    (m4 / (m2 * m2), m3 / m2.powf(1.5))
}

pub(super) fn detrend(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    if n < 2 {
        return x.to_vec();
    }
    let (a, b) = (x[0], x[n - 1]);
    x.iter()
        .enumerate()
        .map(|(i, v)| v - (a + (b - a) * i as f64 / (n - 1) as f64))
        .collect()
}

pub(super) fn energy(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum()
}
