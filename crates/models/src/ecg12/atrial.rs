//! Organised atrial activity between the QRS complexes: the flutter waves of atrial flutter.
//!
//! The QRS complexes are blanked (linear interpolation from 20 ms before each lead's QRS onset to
//! 20 ms after its offset), what is left is band-passed 3-12 Hz (Butterworth, order 2, zero phase)
//! and its power spectrum estimated by Welch's method (Hann windows of 2048 samples at 500 Hz,
//! half overlapping), averaged over the inferior leads and V1, where flutter waves are seen (II,
//! III, aVF, V1: AHA/ACCF/HRS part II, Mason et al. 2007). The dominant atrial frequency is the
//! peak between 3.6 and 6 Hz, and the organisation the share of the 2.5-12 Hz power within
//! 0.3 Hz of it and of its first harmonic: after Bollmann et al. 2006 (Europace 8:911-926, the
//! dominant atrial frequency and organisation of the surface ECG after QRS removal). Regular
//! flutter waves put most of the power on one line and its harmonic; fibrillation waves and a
//! sinus rhythm's P and T waves spread it.

use cardio_signal::filter::{Band, Sos};
use cardio_signal::SamplingRate;

use super::Lead;
use cardio_signal::ecg::Waves;

/// The leads read (where flutter waves show).
pub const LEADS: [Lead; 4] = [Lead::II, Lead::III, Lead::AVF, Lead::V1];
/// Welch segment length at 500 Hz (scaled with the rate), samples.
const SEGMENT_S: f64 = 2048.0 / 500.0;

/// The atrial activity of a record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AtrialActivity {
    /// Dominant atrial frequency, per minute.
    pub rate_per_min: f64,
    /// Share of the 2.5-12 Hz power at the dominant frequency and its harmonic (0-1).
    pub organisation: f64,
}

/// The atrial activity of `leads` (the rhythm span's samples) given each lead's delineated
/// beats; `None` without one of [`LEADS`] or with too short a span (under one Welch segment).
pub fn activity(leads: &[(Lead, &[f64], &[Waves])], fs: f64) -> Option<AtrialActivity> {
    let rate = SamplingRate::new(fs).ok()?;
    let filter = Sos::butterworth(2, Band::BandPass(3.0, 12.0), rate).ok()?;
    let seg = (SEGMENT_S * fs).round() as usize;
    let mut spectra: Vec<Vec<f64>> = Vec::new();
    for (lead, x, waves) in leads {
        if !LEADS.contains(lead) || x.len() < seg || x.iter().any(|v| !v.is_finite()) {
            continue;
        }
        let blanked = blank_qrs(x, waves, (0.02 * fs).round() as usize);
        let Ok(filtered) = filter.filtfilt(&blanked) else {
            continue;
        };
        let power = crate::spectrum::welch(&filtered, seg);
        let total: f64 = band(&power, fs, seg, 2.5, 12.0).iter().sum();
        if total > 0.0 {
            spectra.push(power.iter().map(|v| v / total).collect());
        }
    }
    if spectra.is_empty() {
        return None;
    }
    let n = spectra.len() as f64;
    let p: Vec<f64> = (0..spectra[0].len())
        .map(|k| spectra.iter().map(|s| s[k]).sum::<f64>() / n)
        .collect();
    let hz = |k: usize| k as f64 * fs / seg as f64;
    let peak = (0..p.len())
        .filter(|&k| (3.6..=6.0).contains(&hz(k)))
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))?;
    let df = hz(peak);
    let near = |centre: f64| -> f64 { band(&p, fs, seg, centre - 0.3, centre + 0.3).iter().sum() };
    let total: f64 = band(&p, fs, seg, 2.5, 12.0).iter().sum();
    Some(AtrialActivity {
        rate_per_min: df * 60.0,
        organisation: if total > 0.0 {
            (near(df) + near(2.0 * df)) / total
        } else {
            0.0
        },
    })
}

/// `x` less its mean, each QRS (from `pad` samples before its onset to `pad` after its offset)
/// replaced by the straight line between its ends.
fn blank_qrs(x: &[f64], waves: &[Waves], pad: usize) -> Vec<f64> {
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let mut out: Vec<f64> = x.iter().map(|v| v - mean).collect();
    let last = out.len() - 1;
    for w in waves {
        if let (Some(on), Some(off)) = (w.qrs_on, w.qrs_off) {
            let (from, to) = (on.saturating_sub(pad), (off + pad).min(last));
            if to > from {
                let (left, right) = (out[from], out[to]);
                let span = (to - from) as f64;
                for (k, v) in out[from..=to].iter_mut().enumerate() {
                    *v = left + (right - left) * k as f64 / span;
                }
            }
        }
    }
    out
}

/// The bins of `p` from `lo` to `hi` Hz (inclusive).
fn band(p: &[f64], fs: f64, seg: usize, lo: f64, hi: f64) -> &[f64] {
    let bin = |f: f64| (f * seg as f64 / fs).ceil().max(0.0) as usize;
    let a = bin(lo).min(p.len());
    let b = ((hi * seg as f64 / fs).floor() as usize + 1).min(p.len());
    &p[a..b.max(a)]
}

#[cfg(test)]
mod tests {
    use super::*;

    const FS: f64 = 500.0;

    /// `seconds` of lead II: QRS spikes every `rr` s over a sawtooth at `atrial_hz` (flutter) or a
    /// P and T wave per beat (sinus), with the beats' delineation.
    fn lead(seconds: f64, rr: f64, atrial_hz: Option<f64>) -> (Vec<f64>, Vec<Waves>) {
        let len = (seconds * FS) as usize;
        let gauss =
            |t: f64, centre: f64, width: f64| (-(t - centre).powi(2) / (2.0 * width * width)).exp();
        let mut waves = Vec::new();
        let mut r_s = 0.3;
        while r_s < seconds - 0.3 {
            let at = (r_s * FS) as usize;
            waves.push(Waves {
                qrs_on: Some(at - 20),
                r_peak: Some(at),
                qrs_off: Some(at + 20),
                ..Waves::default()
            });
            r_s += rr;
        }
        let samples = (0..len)
            .map(|i| {
                let t = i as f64 / FS;
                let beat = ((t - 0.3) / rr).round() * rr + 0.3;
                let qrs = 1.2 * gauss(t, beat, 0.01);
                qrs + match atrial_hz {
                    Some(hz) => 0.15 * ((t * hz).fract() - 0.5),
                    None => 0.15 * gauss(t, beat - 0.16, 0.025) + 0.3 * gauss(t, beat + 0.3, 0.05),
                }
            })
            .collect();
        (samples, waves)
    }

    #[test]
    fn flutter_waves_at_300_per_minute_are_organised_and_a_sinus_rhythm_is_not() {
        let (x, w) = lead(10.0, 0.8, Some(5.0));
        let a = activity(&[(Lead::II, &x, &w)], FS).unwrap();
        assert!((a.rate_per_min - 300.0).abs() <= 15.0, "{a:?}");
        assert!(a.organisation > 0.6, "{a:?}");
        let (x, w) = lead(10.0, 0.8, None);
        let s = activity(&[(Lead::II, &x, &w)], FS).unwrap();
        assert!(s.organisation < 0.5, "{s:?}");
        // Leads where flutter waves are not read, and spans under one segment: nothing.
        assert!(activity(&[(Lead::V5, &x, &w)], FS).is_none());
        assert!(activity(&[(Lead::II, &x[..1000], &w)], FS).is_none());
    }
}
