//! The murmur model's features of one heart-sound recording: the heart-sound model's features
//! ([`crate::pcg_model::features`]: band powers of S1, systole, S2 and diastole, cepstra, timing and
//! quality; Potes et al. 2016) followed by a block that says *when* in the cycle sound fills what
//! should be silence ([`timing_names`]).
//!
//! A murmur is sound between the heart sounds, in systole (between S1 and S2) or diastole, lasting
//! over a part of the phase (early, mid, late) or all of it (holosystolic), louder in the 100-400 Hz
//! band than the heart sounds' low rumble (Reddy P. S., "The third and fourth heart sounds and
//! murmurs", *Clinical Methods*, 3rd ed., 1990, ch. 25; the CirCor annotation protocol, Oliveira et
//! al., *IEEE JBHI* 26(6), 2022). The block reads the cycles of the duration-dependent segmentation
//! ([`crate::pcg_model::hsmm`], Springer et al. 2016), splits systole and diastole into quarters
//! and measures, per quarter and per band, the mean power of 20-ms frames:
//! - relative to the recording's quiet floor (the 10th percentile of its frames' power): how loud;
//! - relative to the same cycle's S1: how loud against the heart sounds (what the Levine grade
//!   judges by ear);
//! - systole against diastole, and the share of cycles where systole is the louder by 3 dB: how
//!   consistently.
//!
//! The medians over cycles are the features; a recording without decoded cycles has them missing
//! (`NaN`), which the boosted trees route as missing.

use cardio_signal::filter::{Band, Sos};
use cardio_signal::{pcg, SamplingRate};

use crate::pcg_model::features::{self as pcg_features, PrepareError, Prepared, ANALYSIS_HZ};
use crate::pcg_model::hsmm;

/// The bands of the timing block, hertz: the heart sounds' rumble and the murmurs' band.
pub const TIMING_BANDS: [(f64, f64); 3] = [(25.0, 100.0), (100.0, 200.0), (200.0, 400.0)];
/// Quarters of systole and of diastole.
pub const QUARTERS: usize = 4;
/// Samples per frame at 1 kHz: one envelope sample of [`pcg::ENVELOPE_HZ`] (20 ms).
const FRAME: usize = (ANALYSIS_HZ / pcg::ENVELOPE_HZ) as usize;
/// Systole louder than diastole by this ratio of power (3 dB) counts as a loud systole.
const LOUD_RATIO: f64 = 2.0;
/// The quiet floor: this quantile of the recording's frame powers.
const FLOOR_QUANTILE: f64 = 0.1;

/// The names of the timing block, in order.
pub fn timing_names() -> Vec<String> {
    let mut names = Vec::new();
    for (lo, hi) in TIMING_BANDS {
        for phase in ["systole", "diastole"] {
            for q in 1..=QUARTERS {
                names.push(format!("{phase}_q{q}_band_{lo:.0}_{hi:.0}_over_floor"));
            }
        }
        for q in 1..=QUARTERS {
            names.push(format!("systole_q{q}_band_{lo:.0}_{hi:.0}_over_s1"));
        }
        names.push(format!("systole_over_diastole_band_{lo:.0}_{hi:.0}"));
        names.push(format!("share_loud_systole_band_{lo:.0}_{hi:.0}"));
    }
    names.push("timing_cycles".into());
    names
}

/// The names of every feature: the heart-sound model's, then [`timing_names`].
pub fn feature_names() -> Vec<String> {
    let mut names = pcg_features::feature_names();
    names.extend(timing_names());
    names
}

/// Power of one band in 20-ms frames (mean square of the band-passed signal per frame).
fn frame_power(x: &[f64], fs: SamplingRate, lo: f64, hi: f64) -> Result<Vec<f64>, PrepareError> {
    let y = Sos::butterworth(4, Band::BandPass(lo, hi), fs)
        .and_then(|f| f.filtfilt(x))
        .map_err(|e| PrepareError::Signal(e.to_string()))?;
    Ok(y.chunks(FRAME)
        .map(|c| c.iter().map(|v| v * v).sum::<f64>() / c.len() as f64)
        .collect())
}

fn mean_of(p: &[f64], r: std::ops::Range<usize>) -> Option<f64> {
    let r = r.start.min(p.len())..r.end.min(p.len());
    (!r.is_empty()).then(|| p[r.clone()].iter().sum::<f64>() / r.len() as f64)
}

/// The quarters of a range (empty when it is shorter than [`QUARTERS`] frames).
fn quarters(r: &std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    let n = r.len();
    if n < QUARTERS {
        return Vec::new();
    }
    (0..QUARTERS)
        .map(|q| r.start + q * n / QUARTERS..r.start + (q + 1) * n / QUARTERS)
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_unstable_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Natural log of a power ratio, floored so that silence is finite.
fn log_ratio(a: f64, b: f64) -> f64 {
    ((a + 1e-12) / (b + 1e-12)).ln()
}

/// The timing block of a prepared recording (see the module's doc), one value per name of
/// [`timing_names`].
///
/// # Errors
/// [`PrepareError::Signal`] when the filters or the segmentation fail.
pub fn timing_block(p: &Prepared) -> Result<Vec<f64>, PrepareError> {
    let fs = SamplingRate::new(ANALYSIS_HZ).map_err(|e| PrepareError::Signal(e.to_string()))?;
    let seg = pcg::segment(&p.x, fs).map_err(|e| PrepareError::Signal(e.to_string()))?;
    let cycles = match (seg.heart_rate_bpm, seg.systole_s) {
        (Some(hr), Some(sys)) => {
            hsmm::cycles(&hsmm::decode(&seg.envelope, pcg::ENVELOPE_HZ, hr, sys))
        }
        _ => Vec::new(),
    };
    let mut out = Vec::with_capacity(timing_names().len());
    for (lo, hi) in TIMING_BANDS {
        let power = frame_power(&p.x, fs, lo, hi)?;
        let mut sorted: Vec<f64> = power.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let floor = if sorted.is_empty() {
            f64::NAN
        } else {
            sorted[((sorted.len() - 1) as f64 * FLOOR_QUANTILE) as usize]
        };
        let mut over_floor = vec![Vec::new(); 2 * QUARTERS];
        let mut over_s1 = vec![Vec::new(); QUARTERS];
        let mut sys_over_dia = Vec::new();
        let mut loud = 0usize;
        for c in &cycles {
            let (sq, dq) = (quarters(&c[1]), quarters(&c[3]));
            let (Some(s1), Some(sys), Some(dia)) = (
                mean_of(&power, c[0].clone()),
                mean_of(&power, c[1].clone()),
                mean_of(&power, c[3].clone()),
            ) else {
                continue;
            };
            if sq.is_empty() || dq.is_empty() {
                continue;
            }
            for (q, r) in sq.iter().enumerate() {
                if let Some(m) = mean_of(&power, r.clone()) {
                    over_floor[q].push(log_ratio(m, floor));
                    over_s1[q].push(log_ratio(m, s1));
                }
            }
            for (q, r) in dq.iter().enumerate() {
                if let Some(m) = mean_of(&power, r.clone()) {
                    over_floor[QUARTERS + q].push(log_ratio(m, floor));
                }
            }
            sys_over_dia.push(log_ratio(sys, dia));
            if sys > LOUD_RATIO * dia {
                loud += 1;
            }
        }
        let counted = sys_over_dia.len();
        out.extend(over_floor.into_iter().map(median));
        out.extend(over_s1.into_iter().map(median));
        out.push(median(sys_over_dia));
        out.push(if counted > 0 {
            loud as f64 / counted as f64
        } else {
            f64::NAN
        });
    }
    let counted = cycles
        .iter()
        .filter(|c| c[1].len() >= QUARTERS && c[3].len() >= QUARTERS)
        .count();
    out.push(counted as f64);
    Ok(out)
}

/// Every feature of a prepared recording (the names of [`feature_names`]) and what the heart-sound
/// model measured on it.
///
/// # Errors
/// As [`pcg_features::extract`] and [`timing_block`].
pub fn extract(p: &Prepared) -> Result<pcg_features::Extracted, PrepareError> {
    let mut e = pcg_features::extract(p)?;
    e.values.extend(timing_block(p)?);
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prepared(x: Vec<f64>) -> Prepared {
        Prepared {
            duration_s: x.len() as f64 / ANALYSIS_HZ,
            x,
            sampling_rate_hz: ANALYSIS_HZ,
            channel_index: 0,
            channel_name: "mic".into(),
        }
    }

    /// 12 s at 1 kHz of S1 (50 Hz) and S2 bursts every 0.8 s, with or without a 200-Hz sound
    /// filling the systole between them.
    fn heart(murmur: bool) -> Vec<f64> {
        let mut state = 7_u64;
        (0..12_000)
            .map(|i| {
                let t = f64::from(i) / 1000.0;
                let ph = t % 0.8;
                let burst = |c: f64, a: f64| a * (-((ph - c) * (ph - c)) / 0.0004).exp();
                let sounds = (burst(0.1, 1.0) + burst(0.42, 0.7))
                    * (2.0 * std::f64::consts::PI * 50.0 * t).sin();
                let fill = if murmur && ph > 0.16 && ph < 0.36 {
                    0.15 * (2.0 * std::f64::consts::PI * 200.0 * t).sin()
                } else {
                    0.0
                };
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let noise = ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.01;
                sounds + fill + noise
            })
            .collect()
    }

    #[test]
    fn the_names_and_values_line_up() {
        let e = extract(&prepared(heart(false))).unwrap();
        assert_eq!(e.values.len(), feature_names().len());
        assert_eq!(
            timing_names().len(),
            TIMING_BANDS.len() * (3 * QUARTERS + 2) + 1
        );
    }

    #[test]
    fn a_systolic_murmur_fills_systole_in_the_murmur_band_and_not_diastole() {
        let names = timing_names();
        let at = |v: &[f64], name: &str| v[names.iter().position(|n| n == name).unwrap()];
        let with = timing_block(&prepared(heart(true))).unwrap();
        let without = timing_block(&prepared(heart(false))).unwrap();
        assert!(at(&with, "timing_cycles") >= 5.0, "{with:?}");
        assert!(at(&without, "timing_cycles") >= 5.0, "{without:?}");
        let ratio = "systole_over_diastole_band_200_400";
        assert!(
            at(&with, ratio) > at(&without, ratio) + 2.0,
            "{with:?} {without:?}"
        );
        assert!(at(&with, "share_loud_systole_band_200_400") > 0.9);
        assert!(
            at(&without, "share_loud_systole_band_200_400") < 0.5,
            "{without:?}"
        );
        let mid = "systole_q2_band_200_400_over_floor";
        let dia = "diastole_q3_band_200_400_over_floor";
        assert!(at(&with, mid) > at(&with, dia) + 2.0, "{with:?}");
    }

    #[test]
    fn a_recording_without_cycles_has_its_timing_block_missing() {
        let flat_noise: Vec<f64> = (0..8000)
            .map(|i| f64::from((i * 7919) % 101) / 101.0 - 0.5)
            .collect();
        let v = timing_block(&prepared(flat_noise)).unwrap();
        assert_eq!(v.len(), timing_names().len());
        let cycles = *v.last().unwrap();
        assert!(cycles == 0.0 || v[0].is_finite());
    }
}
