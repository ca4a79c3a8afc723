//! Heart-rate variability from NN (normal-to-normal) intervals in milliseconds: time domain,
//! frequency domain (Lomb-Scargle, no resampling), non-linear (Poincaré SD1/SD2, sample entropy)
//! and irregularity measures used to screen for atrial fibrillation.
//!
//! Definitions follow the Task Force of the ESC/NASPE (1996), "Heart rate variability: standards
//! of measurement, physiological interpretation and clinical use", *Circulation* 93(5),
//! 1043-1065, and match NeuroKit2's `hrv_time` / `hrv_nonlinear` where they overlap (golden tests).
//!
//! ```
//! use cardio_signal::hrv;
//!
//! let rr = [800.0, 810.0, 790.0, 805.0, 795.0, 820.0];
//! let t = hrv::time_domain(&rr).unwrap();
//! assert!((t.mean_nn_ms - 803.333).abs() < 1e-3);
//! ```

use crate::{stats, SignalError};

/// NN intervals in milliseconds from R-peak sample indices.
pub fn rr_from_peaks(peaks: &[usize], fs_hz: f64) -> Vec<f64> {
    peaks
        .windows(2)
        .map(|w| (w[1] - w[0]) as f64 * 1000.0 / fs_hz)
        .collect()
}

fn check(rr: &[f64], min: usize) -> Result<(), SignalError> {
    if rr.len() < min {
        return Err(SignalError::TooShort {
            needed: min,
            got: rr.len(),
        });
    }
    if rr.iter().any(|v| !v.is_finite() || *v <= 0.0) {
        return Err(SignalError::InvalidParameter(
            "NN intervals must be finite and positive".into(),
        ));
    }
    Ok(())
}

/// Time-domain HRV.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeDomain {
    /// Mean NN interval, ms.
    pub mean_nn_ms: f64,
    /// Standard deviation of NN intervals (n - 1), ms.
    pub sdnn_ms: f64,
    /// Root mean square of successive differences, ms.
    pub rmssd_ms: f64,
    /// Standard deviation of successive differences (n - 1), ms.
    pub sdsd_ms: f64,
    /// Median NN interval, ms.
    pub median_nn_ms: f64,
    /// Percentage of successive differences above 50 ms, over (differences + 1) as NeuroKit2.
    pub pnn50: f64,
    /// Percentage of successive differences above 20 ms, same denominator.
    pub pnn20: f64,
    /// Mean heart rate, beats per minute (60000 / mean NN).
    pub mean_hr_bpm: f64,
}

/// Computes time-domain HRV from NN intervals (ms).
///
/// Task Force of the ESC/NASPE (1996), *Circulation* 93(5), 1043-1065, Table 1.
///
/// # Errors
/// [`SignalError::TooShort`] under 3 intervals; [`SignalError::InvalidParameter`] for
/// non-positive or non-finite intervals.
pub fn time_domain(rr_ms: &[f64]) -> Result<TimeDomain, SignalError> {
    check(rr_ms, 3)?;
    let diffs: Vec<f64> = rr_ms.windows(2).map(|w| w[1] - w[0]).collect();
    let mean_nn = stats::mean(rr_ms);
    let denom = (diffs.len() + 1) as f64;
    Ok(TimeDomain {
        mean_nn_ms: mean_nn,
        sdnn_ms: stats::sd(rr_ms),
        rmssd_ms: (diffs.iter().map(|d| d * d).sum::<f64>() / diffs.len() as f64).sqrt(),
        sdsd_ms: stats::sd(&diffs),
        median_nn_ms: stats::median(rr_ms),
        pnn50: 100.0 * diffs.iter().filter(|d| d.abs() > 50.0).count() as f64 / denom,
        pnn20: 100.0 * diffs.iter().filter(|d| d.abs() > 20.0).count() as f64 / denom,
        mean_hr_bpm: 60_000.0 / mean_nn,
    })
}

/// Frequency-domain HRV from a Lomb-Scargle periodogram.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrequencyDomain {
    /// Power 0.04-0.15 Hz, ms².
    pub lf_ms2: f64,
    /// Power 0.15-0.4 Hz, ms².
    pub hf_ms2: f64,
    /// LF / HF.
    pub lf_hf: f64,
    /// LF / (LF + HF).
    pub lf_norm: f64,
    /// HF / (LF + HF).
    pub hf_norm: f64,
    /// Total power 0.0033-0.4 Hz, ms².
    pub total_ms2: f64,
}

/// Lomb-Scargle power spectral density of unevenly sampled `y` at times `t` (seconds), one-sided,
/// in units of y² per hertz, at each frequency in `freqs` (hertz). The mean is removed first.
/// Scaled so that the PSD integrates to the variance of `y` (for evenly sampled data it equals
/// the classical periodogram).
///
/// Lomb, N. R. (1976), "Least-squares frequency analysis of unequally spaced data", *Astrophysics
/// and Space Science* 39, 447-462; Scargle, J. D. (1982), "Studies in astronomical time series
/// analysis II", *Astrophysical Journal* 263, 835-853.
pub fn lomb_scargle(t: &[f64], y: &[f64], freqs: &[f64]) -> Vec<f64> {
    let n = t.len().min(y.len());
    if n < 2 {
        return vec![0.0; freqs.len()];
    }
    let m = stats::mean(&y[..n]);
    let span = t[n - 1] - t[0];
    let scale = 2.0 * span / n as f64;
    freqs
        .iter()
        .map(|&f| {
            let w = 2.0 * std::f64::consts::PI * f;
            let (mut s2, mut c2) = (0.0, 0.0);
            for &ti in &t[..n] {
                let (s, c) = (2.0 * w * ti).sin_cos();
                s2 += s;
                c2 += c;
            }
            let tau = s2.atan2(c2) / (2.0 * w);
            let (mut yc, mut ys, mut cc, mut ss) = (0.0, 0.0, 0.0, 0.0);
            for (&ti, &yi) in t[..n].iter().zip(&y[..n]) {
                let (s, c) = (w * (ti - tau)).sin_cos();
                let d = yi - m;
                yc += d * c;
                ys += d * s;
                cc += c * c;
                ss += s * s;
            }
            let p =
                0.5 * (yc * yc / cc.max(f64::MIN_POSITIVE) + ys * ys / ss.max(f64::MIN_POSITIVE));
            p * scale
        })
        .collect()
}

/// LF and HF power of NN intervals by Lomb-Scargle on the intervals at their beat times, on a
/// 0.001 Hz grid from 0.0033 to 0.4 Hz.
///
/// Laguna, P., Moody, G. B., Mark, R. G. (1998), "Power spectral density of unevenly sampled data
/// by least-square analysis: performance and application to heart rate signals", *IEEE Trans.
/// Biomed. Eng.* 45(6), 698-715; bands from the Task Force (1996).
///
/// # Errors
/// [`SignalError::TooShort`] under 2 intervals or when the intervals span under 60 s (LF needs
/// at least about 2.5 cycles at 0.04 Hz); invalid intervals as [`time_domain`].
pub fn frequency_domain(rr_ms: &[f64]) -> Result<FrequencyDomain, SignalError> {
    check(rr_ms, 2)?;
    let mut t = Vec::with_capacity(rr_ms.len());
    let mut acc = 0.0;
    for r in rr_ms {
        acc += r / 1000.0;
        t.push(acc);
    }
    if acc < 60.0 {
        return Err(SignalError::TooShort {
            needed: 60_000,
            got: acc as usize * 1000,
        });
    }
    let df = 0.001;
    // 0.0033, 0.0043, ..., 0.3993 Hz.
    let freqs: Vec<f64> = (0..397_u32).map(|k| 0.0033 + f64::from(k) * df).collect();
    let psd = lomb_scargle(&t, rr_ms, &freqs);
    let band = |lo: f64, hi: f64| -> f64 {
        freqs
            .iter()
            .zip(&psd)
            .filter(|(f, _)| **f >= lo && **f < hi)
            .map(|(_, p)| p * df)
            .sum()
    };
    let lf = band(0.04, 0.15);
    let hf = band(0.15, 0.4 + 1e-12);
    let total = band(0.0, 0.4 + 1e-12);
    let sum = lf + hf;
    Ok(FrequencyDomain {
        lf_ms2: lf,
        hf_ms2: hf,
        lf_hf: if hf > 0.0 { lf / hf } else { f64::NAN },
        lf_norm: if sum > 0.0 { lf / sum } else { f64::NAN },
        hf_norm: if sum > 0.0 { hf / sum } else { f64::NAN },
        total_ms2: total,
    })
}

/// Non-linear HRV.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonLinear {
    /// Poincaré short-term variability SD1, ms.
    pub sd1_ms: f64,
    /// Poincaré long-term variability SD2, ms.
    pub sd2_ms: f64,
    /// SD1 / SD2.
    pub sd1_sd2: f64,
    /// Sample entropy (m = 2, r = 0.2·SDNN); infinite when no template of length 3 matches.
    pub sample_entropy: f64,
}

/// Poincaré descriptors and sample entropy of NN intervals (ms).
///
/// Brennan, M., Palaniswami, M., Kamen, P. (2001), "Do existing measures of Poincaré plot geometry
/// reflect nonlinear features of heart rate variability?", *IEEE Trans. Biomed. Eng.* 48(11),
/// 1342-1347 (SD1, SD2); Richman, J. S., Moorman, J. R. (2000), "Physiological time-series
/// analysis using approximate entropy and sample entropy", *Am. J. Physiol. Heart Circ. Physiol.*
/// 278(6), H2039-H2049 (SampEn).
///
/// # Errors
/// [`SignalError::TooShort`] under 4 intervals; invalid intervals as [`time_domain`].
pub fn non_linear(rr_ms: &[f64]) -> Result<NonLinear, SignalError> {
    check(rr_ms, 4)?;
    let s = std::f64::consts::SQRT_2;
    let x1: Vec<f64> = rr_ms.windows(2).map(|w| (w[0] - w[1]) / s).collect();
    let x2: Vec<f64> = rr_ms.windows(2).map(|w| (w[0] + w[1]) / s).collect();
    let sd1 = stats::sd(&x1);
    let sd2 = stats::sd(&x2);
    Ok(NonLinear {
        sd1_ms: sd1,
        sd2_ms: sd2,
        sd1_sd2: sd1 / sd2,
        sample_entropy: {
            // Sample entropy compares every template with every other (quadratic); a 24-hour
            // Holter has ~100 000 intervals, so it is computed on the first ones only.
            let head = &rr_ms[..rr_ms.len().min(SAMPLE_ENTROPY_MAX_INTERVALS)];
            sample_entropy(head, 2, 0.2 * stats::sd(head))
        },
    })
}

/// [`non_linear`] computes sample entropy over at most this many intervals (the first ones), which
/// keeps the analysis linear in the length of the recording.
pub const SAMPLE_ENTROPY_MAX_INTERVALS: usize = 2000;

/// Sample entropy with template length `m` and tolerance `r` (Chebyshev distance, `<= r`,
/// self-matches excluded, the same N - m templates for lengths m and m + 1). O(N²) time, O(1)
/// extra memory. Returns infinity when no length-(m+1) template matches and NaN when no
/// length-m template does.
///
/// Richman, J. S., Moorman, J. R. (2000), *Am. J. Physiol. Heart Circ. Physiol.* 278(6),
/// H2039-H2049.
pub fn sample_entropy(x: &[f64], m: usize, r: f64) -> f64 {
    let n = x.len();
    if n <= m + 1 {
        return f64::NAN;
    }
    let templates = n - m;
    let (mut b, mut a) = (0u64, 0u64);
    for i in 0..templates {
        for j in i + 1..templates {
            let mut ok = true;
            for k in 0..m {
                if (x[i + k] - x[j + k]).abs() > r {
                    ok = false;
                    break;
                }
            }
            if ok {
                b += 1;
                if (x[i + m] - x[j + m]).abs() <= r {
                    a += 1;
                }
            }
        }
    }
    if b == 0 {
        f64::NAN
    } else if a == 0 {
        f64::INFINITY
    } else {
        -(a as f64 / b as f64).ln()
    }
}

/// Rhythm-irregularity measures used to screen for atrial fibrillation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Irregularity {
    /// Coefficient of variation of NN intervals, SDNN / mean NN.
    pub cv: f64,
    /// RMSSD / mean NN.
    pub normalized_rmssd: f64,
    /// Share of intervals that are a strict local maximum or minimum of their neighbours
    /// (about 2/3 for a random sequence).
    pub turning_point_ratio: f64,
    /// Shannon entropy (bits) of the NN intervals in 16 equal bins between the 5th and 95th
    /// percentile.
    pub shannon_entropy: f64,
}

/// Irregularity measures of NN intervals (ms).
///
/// Dash, S., Chon, K. H., Lu, S., Raeder, E. A. (2009), "Automatic real time detection of atrial
/// fibrillation", *Annals of Biomedical Engineering* 37(9), 1701-1709 (normalised RMSSD,
/// turning-point ratio, Shannon entropy); Tateno, K., Glass, L. (2001), "Automatic detection of
/// atrial fibrillation using the coefficient of variation and density histograms of RR and ΔRR
/// intervals", *Med. Biol. Eng. Comput.* 39, 664-671 (CV).
///
/// # Errors
/// [`SignalError::TooShort`] under 3 intervals; invalid intervals as [`time_domain`].
pub fn irregularity(rr_ms: &[f64]) -> Result<Irregularity, SignalError> {
    let t = time_domain(rr_ms)?;
    let turning = rr_ms
        .windows(3)
        .filter(|w| (w[1] > w[0] && w[1] > w[2]) || (w[1] < w[0] && w[1] < w[2]))
        .count();
    let mut sorted = rr_ms.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let q = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
    let (lo, hi) = (q(0.05), q(0.95));
    let bins = 16usize;
    let mut counts = vec![0usize; bins];
    let mut total = 0usize;
    for &v in rr_ms {
        if v >= lo && v <= hi {
            let k = if hi > lo {
                (((v - lo) / (hi - lo)) * bins as f64) as usize
            } else {
                0
            };
            counts[k.min(bins - 1)] += 1;
            total += 1;
        }
    }
    let shannon = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / total as f64;
            -p * p.log2()
        })
        .sum();
    Ok(Irregularity {
        cv: t.sdnn_ms / t.mean_nn_ms,
        normalized_rmssd: t.rmssd_ms / t.mean_nn_ms,
        turning_point_ratio: turning as f64 / (rr_ms.len() - 2) as f64,
        shannon_entropy: shannon,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn sample_entropy_of_a_long_series_uses_its_first_intervals() {
        let rr: Vec<f64> = (0..5000)
            .map(|i| 800.0 + 40.0 * (f64::from(i) * 0.7).sin() + f64::from(i % 7))
            .collect();
        let head = &rr[..SAMPLE_ENTROPY_MAX_INTERVALS];
        let expected = sample_entropy(head, 2, 0.2 * stats::sd(head));
        assert_eq!(non_linear(&rr).unwrap().sample_entropy, expected);
        assert!(expected.is_finite());
    }

    use super::*;

    #[test]
    fn lomb_scargle_puts_a_0_1_hz_oscillation_in_lf() {
        let mut rr = Vec::new();
        let mut t = 0.0;
        while t < 300.0 {
            let r = 800.0 + 50.0 * (2.0 * std::f64::consts::PI * 0.1 * t).sin();
            rr.push(r);
            t += r / 1000.0;
        }
        let f = frequency_domain(&rr).unwrap();
        // Variance of a 50 ms sinusoid is 1250 ms².
        assert!((f.lf_ms2 - 1250.0).abs() < 150.0, "{f:?}");
        assert!(f.hf_ms2 < 50.0, "{f:?}");
        assert!(f.lf_hf > 10.0);
    }

    #[test]
    fn a_regular_rhythm_is_not_irregular_and_a_random_one_is() {
        let regular: Vec<f64> = (0..100).map(|i| 800.0 + f64::from(i % 2) * 5.0).collect();
        let irr = irregularity(&regular).unwrap();
        assert!(irr.cv < 0.01);
        // Pseudo-random intervals (fixed LCG seed).
        let mut s: u64 = 42;
        let random: Vec<f64> = (0..200)
            .map(|_| {
                s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                500.0 + ((s >> 33) % 500) as f64
            })
            .collect();
        let irr = irregularity(&random).unwrap();
        assert!(irr.cv > 0.15);
        assert!((irr.turning_point_ratio - 2.0 / 3.0).abs() < 0.1, "{irr:?}");
        assert!(irr.shannon_entropy > 3.0);
    }

    #[test]
    fn sample_entropy_of_a_constant_series_is_zero() {
        assert_eq!(sample_entropy(&[5.0; 50], 2, 0.1), 0.0);
    }

    #[test]
    fn rejects_short_or_invalid_intervals() {
        assert!(time_domain(&[800.0]).is_err());
        assert!(time_domain(&[800.0, -1.0, 700.0]).is_err());
        assert!(frequency_domain(&[800.0; 10]).is_err());
    }
}
