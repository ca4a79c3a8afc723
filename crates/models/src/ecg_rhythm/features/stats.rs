//! Small statistics of the feature vector (mean, SD, median, quantiles, shares, autocorrelation,
//! Pearson correlation), with NaN or `None` where a value is undefined.

pub(super) fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        f64::NAN
    } else {
        x.iter().sum::<f64>() / x.len() as f64
    }
}

/// Sample standard deviation; `None` under two values.
pub(super) fn sd(x: &[f64]) -> Option<f64> {
    if x.len() < 2 {
        return None;
    }
    let m = mean(x);
    Some((x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64).sqrt())
}

pub(super) fn median(x: &[f64]) -> Option<f64> {
    if x.is_empty() {
        return None;
    }
    let mut s = x.to_vec();
    Some(median_in_place(&mut s))
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
    if x.is_empty() {
        return f64::NAN;
    }
    let mut s = x.to_vec();
    let k = ((s.len() - 1) as f64 * q).round() as usize;
    let (_, v, _) = s.select_nth_unstable_by(k, f64::total_cmp);
    *v
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
