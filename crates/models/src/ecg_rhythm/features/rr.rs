//! RR-interval features: irregularity (CV, normalised RMSSD, pNN50/pNN20, Poincaré SD1/SD2,
//! sample entropy and COSEn, turning points, Shannon entropy), an AF-evidence count on the Lorenz
//! plot of successive differences, and premature beats (see the papers cited at each function and
//! in [`super`]).

use cardio_signal::hrv;

use super::stats::{autocorr, fraction, mean, median, quantile, sd};
use super::Row;

/// RR-interval features (seconds in); returns the coefficient of variation.
pub(super) fn rr_features(rr: &[f64], v: &mut Row) -> Option<f64> {
    // A feature not set below (too few intervals) is NaN: `Row::finish` fills every unset name.
    if rr.len() < 3 {
        return None;
    }
    let m = mean(rr);
    let med = median(rr).unwrap_or(m);
    let s = sd(rr).unwrap_or(0.0);
    let drr: Vec<f64> = rr.windows(2).map(|w| w[1] - w[0]).collect();
    let rmssd = (drr.iter().map(|d| d * d).sum::<f64>() / drr.len() as f64).sqrt();
    v.put("hr_mean_bpm", 60.0 / m);
    v.put("hr_median_bpm", 60.0 / med);
    if rr.len() >= 5 {
        let sums: Vec<f64> = rr.windows(5).map(|w| w.iter().sum::<f64>() / 5.0).collect();
        let lo = sums.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = sums.iter().copied().fold(0.0, f64::max);
        v.put("hr_fastest_5_bpm", 60.0 / lo);
        v.put("hr_slowest_5_bpm", 60.0 / hi);
    }
    let rr_min = rr.iter().copied().fold(f64::INFINITY, f64::min);
    let rr_max = rr.iter().copied().fold(0.0, f64::max);
    v.put("rr_min_over_median", rr_min / med);
    v.put("rr_max_over_median", rr_max / med);
    v.put("rr_cv", s / m);
    v.put("rmssd_norm", rmssd / m);
    let frac_over = |t: f64| fraction(drr.iter().map(|d| d.abs() > t));
    v.put("pnn50", frac_over(0.05));
    v.put("pnn20", frac_over(0.02));
    v.put("drr_over_10pct", frac_over(0.1 * m));
    let abs_d: Vec<f64> = drr.iter().map(|d| d.abs()).collect();
    v.put("drr_median_norm", median(&abs_d).unwrap_or(f64::NAN) / m);
    v.put("drr_p90_norm", quantile(&abs_d, 0.9) / m);
    if rr.len() >= 4 {
        v.put("sample_entropy", hrv::sample_entropy(rr, 2, 0.2 * s));
        v.put("cosen", cosen(rr));
        let sq = std::f64::consts::SQRT_2;
        let x1: Vec<f64> = rr.windows(2).map(|w| (w[0] - w[1]) / sq).collect();
        let x2: Vec<f64> = rr.windows(2).map(|w| (w[0] + w[1]) / sq).collect();
        let sd1 = sd(&x1).unwrap_or(0.0);
        let sd2 = sd(&x2).unwrap_or(0.0);
        v.put("sd1_norm", sd1 / m);
        v.put("sd2_norm", sd2 / m);
        v.put("sd1_sd2", if sd2 > 0.0 { sd1 / sd2 } else { f64::NAN });
    }
    let rr_ms: Vec<f64> = rr.iter().map(|r| r * 1000.0).collect();
    if let Ok(irr) = hrv::irregularity(&rr_ms) {
        v.put("turning_point_ratio", irr.turning_point_ratio);
        v.put("shannon_entropy", irr.shannon_entropy);
    }
    let (afev, irrev, origin) = af_evidence(&drr);
    v.put("afev", afev);
    v.put("irrev_fraction", irrev);
    v.put("origin_fraction", origin);
    v.put(
        "rr_near_median_fraction",
        fraction(rr.iter().map(|r| (r - med).abs() <= 0.05 * med)),
    );
    v.put(
        "rr_long_fraction",
        fraction(rr.iter().map(|&r| r > 1.3 * med)),
    );
    v.put(
        "rr_short_fraction",
        fraction(rr.iter().map(|&r| r < 0.75 * med)),
    );
    let ratios: Vec<f64> = rr.windows(2).map(|w| w[1] / w[0]).collect();
    v.put(
        "rr_ratio_min",
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
    );
    v.put("rr_ratio_max", ratios.iter().copied().fold(0.0, f64::max));
    let premature = premature_flags(rr);
    v.put("premature_fraction", fraction(premature.iter().copied()));
    let kept: Vec<f64> = (0..rr.len())
        .filter(|&i| !(premature[i] || (i > 0 && premature[i - 1])))
        .map(|i| rr[i])
        .collect();
    if kept.len() >= 3 {
        let km = mean(&kept);
        v.put("rr_cv_without_premature", sd(&kept).unwrap_or(0.0) / km);
        let kd: Vec<f64> = kept.windows(2).map(|w| w[1] - w[0]).collect();
        v.put(
            "rmssd_norm_without_premature",
            (kd.iter().map(|d| d * d).sum::<f64>() / kd.len() as f64).sqrt() / km,
        );
    }
    v.put("rr_autocorr_lag1", autocorr(rr, 1));
    v.put("rr_autocorr_lag2", autocorr(rr, 2));
    if rr.len() >= 12 {
        let win: Vec<f64> = rr
            .windows(10)
            .step_by(2)
            .map(|w| {
                let wm = mean(w);
                let d2: f64 = w.windows(2).map(|p| (p[1] - p[0]).powi(2)).sum::<f64>() / 9.0;
                d2.sqrt() / wm
            })
            .collect();
        v.put(
            "rmssd_norm_window_max",
            win.iter().copied().fold(0.0, f64::max),
        );
        v.put(
            "rmssd_norm_window_min",
            win.iter().copied().fold(f64::INFINITY, f64::min),
        );
    }
    Some(s / m)
}

/// Premature intervals: under 85 % of the local median (the 5 intervals around it) and followed
/// by a longer one (compensatory pause). One flag per interval.
pub(super) fn premature_flags(rr: &[f64]) -> Vec<bool> {
    let med = median(rr).unwrap_or(0.0);
    let mut premature = vec![false; rr.len()];
    for i in 0..rr.len().saturating_sub(1) {
        let lo = i.saturating_sub(2);
        let hi = (i + 3).min(rr.len());
        let local = median(&rr[lo..hi]).unwrap_or(med);
        if rr[i] < 0.85 * local && rr[i + 1] > 1.1 * rr[i] {
            premature[i] = true;
        }
    }
    premature
}

/// Coefficient of sample entropy: `SampEn(m = 1, r) + ln(2r) - ln(mean RR)` with `r` = 30 ms,
/// widened (60, 120, 240 ms) while no template matches.
///
/// Lake, D. E., Moorman, J. R. (2011), "Accurate estimation of entropy in very short physiological
/// time series: the problem of atrial fibrillation detection in implanted ventricular devices",
/// *Am. J. Physiol. Heart Circ. Physiol.* 300(1), H319-H325.
pub(super) fn cosen(rr: &[f64]) -> f64 {
    let m = mean(rr);
    for r in [0.03, 0.06, 0.12, 0.24] {
        let se = hrv::sample_entropy(rr, 1, r);
        if se.is_finite() {
            return se + (2.0 * r).ln() - m.ln();
        }
    }
    f64::NAN
}

/// AF evidence on the Lorenz plot of successive RR differences `(dRR[i-1], dRR[i])`, 40 ms cells
/// within ± 600 ms: `IrrEv` = occupied cells outside the origin cell, `OriginCount` = points in
/// the origin cell (both |dRR| < 20 ms); `AFEv = IrrEv - OriginCount` (the PAC-evidence term of
/// the paper is left out). Returns `(AFEv, IrrEv / points, OriginCount / points)`.
///
/// Sarkar, S., Ritscher, D., Mehra, R. (2008), "A detector for a chronic implantable atrial
/// tachyarrhythmia monitor", *IEEE Trans. Biomed. Eng.* 55(3), 1219-1224.
pub(super) fn af_evidence(drr: &[f64]) -> (f64, f64, f64) {
    if drr.len() < 2 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let cell = |d: f64| ((d.clamp(-0.6, 0.6) + 0.02) / 0.04).floor() as i32;
    let mut cells: Vec<(i32, i32)> = Vec::with_capacity(drr.len());
    let mut origin = 0usize;
    for w in drr.windows(2) {
        let c = (cell(w[0]), cell(w[1]));
        if c == (0, 0) {
            origin += 1;
        } else {
            cells.push(c);
        }
    }
    cells.sort_unstable();
    cells.dedup();
    let points = (drr.len() - 1) as f64;
    (
        cells.len() as f64 - origin as f64,
        cells.len() as f64 / points,
        origin as f64 / points,
    )
}
