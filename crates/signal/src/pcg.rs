//! PCG (phonocardiogram): homomorphic envelope, heart rate and systolic interval from the
//! envelope's autocorrelation, S1/S2 detection and cardiac-cycle segmentation.
//!
//! A simplified take on Springer et al. (2016): the same envelope and duration priors (heart
//! cycle and systole from autocorrelation), with envelope peaks labelled S1 or S2 by the
//! alternation of short (systole) and long (diastole) intervals instead of a trained HSMM.
//!
//! ```
//! use cardio_signal::{pcg, SamplingRate};
//!
//! let fs = SamplingRate::new(1000.0).unwrap();
//! // Bursts of 50 Hz sound: S1 every 0.8 s, S2 0.3 s after it.
//! let x: Vec<f64> = (0..10_000)
//!     .map(|i| {
//!         let t = i as f64 / 1000.0;
//!         let ph = t % 0.8;
//!         let burst = |c: f64, a: f64| a * (-((ph - c) * (ph - c)) / 0.0003).exp();
//!         (burst(0.1, 1.0) + burst(0.4, 0.6)) * (2.0 * std::f64::consts::PI * 50.0 * t).sin()
//!     })
//!     .collect();
//! let seg = pcg::segment(&x, fs).unwrap();
//! assert!((seg.heart_rate_bpm.unwrap() - 75.0).abs() < 3.0);
//! assert!(seg.s1_s.len() >= 11);
//! ```

use crate::filter::{Band, Sos};
use crate::{SamplingRate, SignalError};

/// Sampling rate of the envelope, hertz.
pub const ENVELOPE_HZ: f64 = 50.0;

/// Homomorphic envelope of a PCG, resampled to [`ENVELOPE_HZ`]: band-pass 25-400 Hz (4th order,
/// upper edge capped at 0.45·fs), rectify, log, zero-phase 8 Hz low-pass, exp; then averaged over
/// blocks down to 50 Hz and scaled to unit standard deviation around zero mean.
///
/// Schmidt, S. E., Holst-Hansen, C., Graff, C., Toft, E., Struijk, J. J. (2010), "Segmentation of
/// heart sound recordings by a duration-dependent hidden Markov model", *Physiological
/// Measurement* 31(4), 513-529 (homomorphic envelogram); Springer, D. B., Tarassenko, L.,
/// Clifford, G. D. (2016), "Logistic regression-HSMM-based heart sound segmentation", *IEEE Trans.
/// Biomed. Eng.* 63(4), 822-832.
///
/// # Errors
/// [`SignalError::NonFinite`]; [`SignalError::InvalidParameter`] when `fs` is below 100 Hz;
/// [`SignalError::TooShort`] under one second.
pub fn envelope(x: &[f64], fs: SamplingRate) -> Result<Vec<f64>, SignalError> {
    let f = fs.hz();
    if f < 100.0 {
        return Err(SignalError::InvalidParameter(format!(
            "PCG needs at least 100 Hz, got {f} Hz"
        )));
    }
    if x.iter().any(|v| !v.is_finite()) {
        return Err(SignalError::NonFinite);
    }
    if (x.len() as f64) < f {
        return Err(SignalError::TooShort {
            needed: f.ceil() as usize,
            got: x.len(),
        });
    }
    let hi = 400.0_f64.min(0.45 * f);
    let bp = Sos::butterworth(4, Band::BandPass(25.0, hi), fs)?.filtfilt(x)?;
    let scale = bp.iter().map(|v| v.abs()).fold(0.0, f64::max).max(1e-300);
    let mut logs: Vec<f64> = bp.iter().map(|v| (v.abs() / scale + 1e-10).ln()).collect();
    Sos::butterworth(1, Band::LowPass(8.0), fs)?.filtfilt_into(
        &logs.clone(),
        &mut logs,
        &mut Vec::new(),
    )?;
    let block = (f / ENVELOPE_HZ).round().max(1.0) as usize;
    let env: Vec<f64> = logs
        .chunks(block)
        .map(|c| (c.iter().sum::<f64>() / c.len() as f64).exp())
        .collect();
    let n = env.len() as f64;
    let m = env.iter().sum::<f64>() / n;
    let sd = (env.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n)
        .sqrt()
        .max(1e-300);
    Ok(env.iter().map(|v| (v - m) / sd).collect())
}

/// S1/S2 timing of a PCG.
#[derive(Debug, Clone, PartialEq)]
pub struct Segmentation {
    /// Heart rate from the envelope autocorrelation, bpm (`None` when no cycle is found).
    pub heart_rate_bpm: Option<f64>,
    /// Systolic interval (S1 to S2) from the autocorrelation, seconds.
    pub systole_s: Option<f64>,
    /// S1 times, seconds from the start.
    pub s1_s: Vec<f64>,
    /// S2 times, seconds from the start.
    pub s2_s: Vec<f64>,
    /// Cardiac cycles as (S1, S2, next S1) times, seconds.
    pub cycles: Vec<(f64, f64, f64)>,
    /// The envelope at [`ENVELOPE_HZ`].
    pub envelope: Vec<f64>,
    /// Signal quality (see [`crate::quality::pcg`]).
    pub quality: crate::quality::Quality,
}

fn autocorr(d: &[f64], lag: usize) -> f64 {
    let n = d.len();
    let s: f64 = d[..n - lag].iter().zip(&d[lag..]).map(|(a, b)| a * b).sum();
    s / (n - lag) as f64
}

/// Finds S1 and S2 sounds and cardiac cycles.
///
/// Springer et al. (2016), *IEEE Trans. Biomed. Eng.* 63(4), 822-832: heart cycle from the
/// highest envelope autocorrelation at 0.5-2 s (here 0.33-2 s, up to 180 bpm) and systole from
/// the highest at 0.2 s to half a cycle. Envelope peaks (above the envelope's mean, at least
/// 0.15 s apart) are labelled S1 when the interval after them is closer to the systole than to
/// the diastole, S2 otherwise; of two same-labelled sounds closer than 70% of a cycle only the
/// louder is kept; a cycle is S1, the S2 after it, and the next S1.
///
/// # Errors
/// As [`envelope`].
pub fn segment(x: &[f64], fs: SamplingRate) -> Result<Segmentation, SignalError> {
    let env = envelope(x, fs)?;
    let ef = ENVELOPE_HZ;
    let n = env.len();
    let lo = (0.33 * ef).round() as usize;
    // At most half the envelope, so that a short recording's cycle is found where two overlap.
    let hi = ((2.0 * ef).round() as usize).min(n / 2);
    let mut heart_rate_bpm = None;
    let mut systole_s = None;
    let mut cycle = None;
    if hi > lo {
        let ac: Vec<f64> = (lo..=hi).map(|l| autocorr(&env, l)).collect();
        let best_of = |a: usize, b: usize| -> (usize, f64) {
            (a..=b)
                .map(|l| (l, ac[l - lo]))
                .fold((a, f64::NEG_INFINITY), |x, y| if y.1 > x.1 { y } else { x })
        };
        let (mut lag, best) = best_of(lo, hi);
        // Prefer the fundamental: a multiple of the cycle correlates as well as the cycle itself
        // on a regular rhythm, so a peak near half the lag that is at least 85% as high wins.
        let (h_lo, h_hi) = (
            ((lag as f64 * 0.45) as usize).max(lo),
            (lag as f64 * 0.55) as usize,
        );
        if h_hi >= h_lo && h_hi <= hi {
            let (half_lag, half_val) = best_of(h_lo, h_hi);
            if half_val >= 0.85 * best {
                lag = half_lag;
            }
        }
        let c = lag as f64 / ef;
        heart_rate_bpm = Some(60.0 / c);
        cycle = Some(lag);
        let s_lo = (0.2 * ef).round() as usize;
        let s_hi = lag / 2;
        if s_hi > s_lo {
            let (sl, _) = (s_lo..=s_hi).map(|l| (l, autocorr(&env, l))).fold(
                (s_lo, f64::NEG_INFINITY),
                |a, b| if b.1 > a.1 { b } else { a },
            );
            systole_s = Some(sl as f64 / ef);
        } else {
            // Fast rhythms leave no room for the search: systole takes about 40% of the cycle.
            systole_s = Some(0.4 * c);
        }
    }
    // Envelope peaks above the mean (zero), at least 0.15 s apart (larger one kept).
    let min_gap = (0.15 * ef).round() as usize;
    let mut peaks: Vec<usize> = Vec::new();
    for i in 1..n.saturating_sub(1) {
        if env[i] > 0.0 && env[i] > env[i - 1] && env[i] >= env[i + 1] {
            match peaks.last() {
                Some(&l) if i - l < min_gap => {
                    if env[i] > env[l] {
                        *peaks.last_mut().expect("non-empty") = i;
                    }
                }
                _ => peaks.push(i),
            }
        }
    }
    let mut s1 = Vec::new();
    let mut s2 = Vec::new();
    if let (Some(sys), Some(cyc)) = (systole_s, cycle) {
        let cyc_s = cyc as f64 / ef;
        let dia = (cyc_s - sys).max(sys);
        // (sample, is S1) for each envelope peak.
        let mut labelled: Vec<(usize, bool)> = Vec::with_capacity(peaks.len());
        for (k, &p) in peaks.iter().enumerate() {
            let next = peaks.get(k + 1).map(|&q| (q - p) as f64 / ef);
            let prev = k.checked_sub(1).map(|j| (p - peaks[j]) as f64 / ef);
            // Score "S1-ness": the interval after an S1 is a systole, the one before a diastole.
            let mut score = 0.0;
            if let Some(d) = next {
                score += (d - dia).abs() - (d - sys).abs();
            }
            if let Some(d) = prev {
                score += (d - sys).abs() - (d - dia).abs();
            }
            labelled.push((p, score > 0.0));
        }
        // Sounds alternate: two S1 (or two S2) closer than 70% of a cycle cannot both be real;
        // keep the louder one.
        let min_same = 0.7 * cyc_s;
        let mut kept: Vec<(usize, bool)> = Vec::with_capacity(labelled.len());
        for (p, is_s1) in labelled {
            if let Some(&(q, last_s1)) = kept.last() {
                if last_s1 == is_s1 && ((p - q) as f64 / ef) < min_same {
                    if env[p] > env[q] {
                        *kept.last_mut().expect("non-empty") = (p, is_s1);
                    }
                    continue;
                }
            }
            kept.push((p, is_s1));
        }
        for (p, is_s1) in kept {
            let t = p as f64 / ef;
            if is_s1 {
                s1.push(t);
            } else {
                s2.push(t);
            }
        }
    }
    let mut cycles = Vec::new();
    for w in s1.windows(2) {
        let (a, b) = (w[0], w[1]);
        if let Some(&m) = s2.iter().find(|&&t| t > a && t < b) {
            cycles.push((a, m, b));
        }
    }
    let quality = crate::quality::pcg(x, fs, &env, SamplingRate(ENVELOPE_HZ));
    Ok(Segmentation {
        quality,
        heart_rate_bpm,
        systole_s,
        s1_s: s1,
        s2_s: s2,
        cycles,
        envelope: env,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heart_sounds(fs: f64, seconds: f64, cycle: f64, systole: f64) -> Vec<f64> {
        (0..(fs * seconds) as usize)
            .map(|i| {
                let t = i as f64 / fs;
                let ph = t % cycle;
                let burst = |c: f64, a: f64| a * (-((ph - c) * (ph - c)) / 0.0003).exp();
                (burst(0.1, 1.0) + burst(0.1 + systole, 0.7))
                    * (2.0 * std::f64::consts::PI * 60.0 * t).sin()
            })
            .collect()
    }

    #[test]
    fn finds_s1_s2_and_the_heart_rate() {
        let fs = SamplingRate::new(2000.0).unwrap();
        let x = heart_sounds(2000.0, 12.0, 1.0, 0.32);
        let seg = segment(&x, fs).unwrap();
        assert!((seg.heart_rate_bpm.unwrap() - 60.0).abs() < 2.0, "{seg:?}");
        assert!((seg.systole_s.unwrap() - 0.32).abs() < 0.05);
        assert!(
            seg.s1_s.len() >= 11 && seg.s1_s.len() <= 12,
            "{:?}",
            seg.s1_s
        );
        for s in &seg.s1_s {
            let ph = s % 1.0;
            assert!((ph - 0.1).abs() < 0.04, "S1 at {s}");
        }
        assert!(seg.cycles.len() >= 10);
    }

    #[test]
    fn rejects_low_rates_and_short_signals() {
        assert!(envelope(&[0.0; 100], SamplingRate::new(50.0).unwrap()).is_err());
        assert!(envelope(&[0.0; 100], SamplingRate::new(1000.0).unwrap()).is_err());
    }
}
