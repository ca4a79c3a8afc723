//! Rhythm features of one window of beat-to-beat intervals, the same for ECG R-R intervals (what the
//! model is trained on) and PPG pulse-to-pulse intervals (what it is applied to). Every feature is
//! scale-free or in beats per minute, so that it does not depend on the modality's timing offset
//! (pulse transit time), and is defined for the 8-15 intervals of a 10-s window.
//!
//! The measures come from the AF-detection literature:
//! - coefficient of variation (Tateno & Glass, *Med. Biol. Eng. Comput.* 2001;39:664-671);
//! - normalised RMSSD, turning-point ratio and Shannon entropy (Dash, Chon, Lu & Raeder,
//!   *Ann. Biomed. Eng.* 2009;37:1701-1709);
//! - the coefficient of sample entropy, COSEn (Lake & Moorman, *Am. J. Physiol. Heart Circ.
//!   Physiol.* 2011;300:H319-H325), for short series;
//! - Poincaré SD1/SD2 (Brennan, Palaniswami & Kamen, *IEEE Trans. Biomed. Eng.* 2001;48:1342-1347);
//! - the share of successive differences above a fraction of the median interval and the
//!   premature-short / compensatory-long pattern of ectopic beats, which separates ectopy from AF
//!   (after Sarkar, Ritscher & Mehra, *IEEE Trans. Biomed. Eng.* 2008;55:1219-1224, who separate AF
//!   from ectopy on the Lorenz plot of ΔRR);
//! - the "core" irregularity of the intervals within 15 % of the median: ectopic beats leave the
//!   core regular, AF does not;
//! - the share of intervals close to the median and of nearly equal successive intervals, and the
//!   share of short-long pairs that sum to two median intervals (the compensatory pause of a
//!   ventricular ectopic beat; Sarkar et al. 2008 as above).
//!
//! Undefined values (too few intervals, zero variance) are `NaN`, which the boosted trees treat as
//! missing.
//!
//! ```
//! use cardio_models::ppg_rhythm::features::{interval_features, FEATURE_NAMES};
//!
//! let regular = [800.0, 810.0, 790.0, 805.0, 795.0, 800.0, 810.0, 790.0];
//! let f = interval_features(&regular).unwrap();
//! assert_eq!(f.len(), FEATURE_NAMES.len());
//! assert!(f[2] < 0.02); // coefficient of variation
//! ```

use cardio_signal::{hrv, stats};

/// Fewest intervals a window needs to be classified.
pub const MIN_INTERVALS: usize = 5;

/// A relative deviation from the median interval above which an interval is an outlier.
pub const OUTLIER_FRACTION: f64 = 0.15;

/// The feature names, in the order of [`interval_features`].
pub const FEATURE_NAMES: [&str; 24] = [
    "n_intervals",
    "mean_hr_bpm",
    "cv",
    "normalized_rmssd",
    "normalized_median_abs_diff",
    "share_diff_over_10pct",
    "share_diff_over_20pct",
    "turning_point_ratio",
    "shannon_entropy",
    "share_outliers_15pct",
    "core_cv",
    "core_normalized_rmssd",
    "share_premature_pairs",
    "autocorrelation_lag1",
    "autocorrelation_lag2",
    "sd1_sd2_ratio",
    "normalized_p10_p90_range",
    "cosen",
    "share_long_over_160pct",
    "share_short_under_60pct",
    "max_min_ratio",
    "share_within_8pct_of_median",
    "share_diff_under_5pct",
    "share_compensated_pairs",
];

fn mean(x: &[f64]) -> f64 {
    stats::mean(x)
}

/// Sample standard deviation; NaN under two values.
fn sd(x: &[f64]) -> f64 {
    stats::sd(x)
}

fn rmssd(x: &[f64]) -> f64 {
    if x.len() < 2 {
        return f64::NAN;
    }
    (x.windows(2).map(|w| (w[1] - w[0]).powi(2)).sum::<f64>() / (x.len() - 1) as f64).sqrt()
}

/// Nearest-rank quantile of sorted values.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    stats::quantile_nearest(sorted, p)
}

fn median(sorted: &[f64]) -> f64 {
    stats::median_sorted(sorted)
}

fn autocorrelation(x: &[f64], lag: usize) -> f64 {
    if x.len() <= lag + 1 {
        return f64::NAN;
    }
    let m = mean(x);
    let var: f64 = x.iter().map(|v| (v - m).powi(2)).sum();
    if var <= 1e-12 * m * m {
        return f64::NAN;
    }
    x.windows(lag + 1)
        .map(|w| (w[0] - m) * (w[lag] - m))
        .sum::<f64>()
        / var
}

fn finite_or_nan(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        f64::NAN
    }
}

/// The features of one window of intervals (milliseconds), in the order of [`FEATURE_NAMES`];
/// `None` under [`MIN_INTERVALS`] intervals or when an interval is not finite and positive.
pub fn interval_features(rr_ms: &[f64]) -> Option<Vec<f64>> {
    let n = rr_ms.len();
    if n < MIN_INTERVALS || rr_ms.iter().any(|v| !v.is_finite() || *v <= 0.0) {
        return None;
    }
    let mut sorted = rr_ms.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let med = median(&sorted);
    let mu = mean(rr_ms);
    let diffs: Vec<f64> = rr_ms.windows(2).map(|w| w[1] - w[0]).collect();
    let mut abs_diffs: Vec<f64> = diffs.iter().map(|d| d.abs()).collect();
    abs_diffs.sort_unstable_by(f64::total_cmp);
    let share = |count: usize, of: usize| count as f64 / of as f64;
    let irr = hrv::irregularity(rr_ms).ok();
    let outlier = |v: f64| (v - med).abs() > OUTLIER_FRACTION * med;
    let core: Vec<f64> = rr_ms.iter().copied().filter(|&v| !outlier(v)).collect();
    let core_pairs: Vec<f64> = rr_ms
        .windows(2)
        .filter(|w| !outlier(w[0]) && !outlier(w[1]))
        .map(|w| (w[1] - w[0]).powi(2))
        .collect();
    let core_nrmssd = if core_pairs.len() >= 2 && !core.is_empty() {
        (mean(&core_pairs)).sqrt() / mean(&core)
    } else {
        f64::NAN
    };
    let premature = rr_ms
        .windows(2)
        .filter(|w| w[0] < 0.88 * med && w[1] > 1.08 * med)
        .count();
    let compensated = rr_ms
        .windows(2)
        .filter(|w| w[0] < 0.88 * med && (w[0] + w[1] - 2.0 * med).abs() <= 0.1 * med)
        .count();
    let sd_rr = sd(rr_ms);
    let sd1 = sd(&diffs) / std::f64::consts::SQRT_2;
    let sd2 = (2.0 * sd_rr * sd_rr - sd1 * sd1).max(0.0).sqrt();
    let sd_ratio = if sd2 > 1e-9 { sd1 / sd2 } else { f64::NAN };
    // COSEn: sample entropy with m = 1, r = 30 ms, plus ln(2r) and minus ln(mean RR), r and mean in s.
    let sampen = hrv::sample_entropy(rr_ms, 1, 30.0);
    let cosen = finite_or_nan(sampen + (2.0 * 0.030_f64).ln() - (mu / 1000.0).ln());
    Some(vec![
        n as f64,
        60_000.0 / mu,
        sd_rr / mu,
        rmssd(rr_ms) / mu,
        median(&abs_diffs) / med,
        share(
            abs_diffs.iter().filter(|&&d| d > 0.1 * med).count(),
            diffs.len(),
        ),
        share(
            abs_diffs.iter().filter(|&&d| d > 0.2 * med).count(),
            diffs.len(),
        ),
        irr.map_or(f64::NAN, |i| i.turning_point_ratio),
        irr.map_or(f64::NAN, |i| i.shannon_entropy),
        share(rr_ms.iter().filter(|&&v| outlier(v)).count(), n),
        if core.len() >= 3 {
            sd(&core) / mean(&core)
        } else {
            f64::NAN
        },
        core_nrmssd,
        share(premature, diffs.len()),
        autocorrelation(rr_ms, 1),
        autocorrelation(rr_ms, 2),
        sd_ratio,
        (quantile(&sorted, 0.9) - quantile(&sorted, 0.1)) / med,
        cosen,
        share(rr_ms.iter().filter(|&&v| v > 1.6 * med).count(), n),
        share(rr_ms.iter().filter(|&&v| v < 0.6 * med).count(), n),
        sorted[n - 1] / sorted[0],
        share(
            rr_ms
                .iter()
                .filter(|&&v| (v - med).abs() <= 0.08 * med)
                .count(),
            n,
        ),
        share(
            abs_diffs.iter().filter(|&&d| d < 0.05 * med).count(),
            diffs.len(),
        ),
        share(compensated, diffs.len()),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(f: &[f64], name: &str) -> f64 {
        let i = FEATURE_NAMES.iter().position(|n| *n == name).unwrap();
        f[i]
    }

    #[test]
    fn too_few_or_invalid_intervals_give_no_features() {
        assert_eq!(interval_features(&[800.0; 4]), None);
        assert_eq!(interval_features(&[]), None);
        assert_eq!(
            interval_features(&[800.0, 800.0, f64::NAN, 800.0, 800.0]),
            None
        );
        assert_eq!(interval_features(&[800.0, 800.0, 0.0, 800.0, 800.0]), None);
    }

    #[test]
    fn a_constant_rhythm_has_zero_spread_and_undefined_correlations() {
        let f = interval_features(&[750.0; 10]).unwrap();
        assert_eq!(feature(&f, "n_intervals"), 10.0);
        assert_eq!(feature(&f, "mean_hr_bpm"), 80.0);
        assert_eq!(feature(&f, "cv"), 0.0);
        assert_eq!(feature(&f, "normalized_rmssd"), 0.0);
        assert_eq!(feature(&f, "share_outliers_15pct"), 0.0);
        assert_eq!(feature(&f, "max_min_ratio"), 1.0);
        assert!(feature(&f, "autocorrelation_lag1").is_nan());
        assert!(feature(&f, "sd1_sd2_ratio").is_nan());
    }

    #[test]
    fn bigeminy_is_anticorrelated_with_premature_pairs_and_a_regular_core() {
        // Short (premature) and long (compensatory) intervals alternate.
        let rr: Vec<f64> = (0..12)
            .map(|i| if i % 2 == 0 { 560.0 } else { 1040.0 })
            .collect();
        let f = interval_features(&rr).unwrap();
        assert!(feature(&f, "autocorrelation_lag1") < -0.8);
        assert!(feature(&f, "autocorrelation_lag2") > 0.6);
        assert_eq!(feature(&f, "share_premature_pairs"), 6.0 / 11.0);
        assert_eq!(feature(&f, "turning_point_ratio"), 1.0);
    }

    #[test]
    fn one_ectopic_beat_makes_two_outliers_but_leaves_the_core_regular() {
        let mut rr = vec![800.0; 12];
        rr[5] = 560.0;
        rr[6] = 1040.0;
        let f = interval_features(&rr).unwrap();
        assert_eq!(feature(&f, "share_outliers_15pct"), 2.0 / 12.0);
        assert_eq!(feature(&f, "core_cv"), 0.0);
        assert_eq!(feature(&f, "share_premature_pairs"), 1.0 / 11.0);
        assert!(feature(&f, "cv") > 0.1);
    }
}
