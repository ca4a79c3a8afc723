//! Heart rate from a wrist PPG during motion, with the accelerometer as the noise reference: a
//! spectral tracker in the spirit of TROIKA (Zhang, Pi & Liu, "TROIKA: a general framework for heart
//! rate monitoring using wrist-type photoplethysmographic signals during intensive physical
//! exercise", *IEEE Trans. Biomed. Eng.* 62(2):522-531, 2015), without its sparse spectrum
//! reconstruction.
//!
//! Per window (8 s every 2 s, as the IEEE Signal Processing Cup 2015): the Hann-windowed power
//! spectra of the band-passed PPG channels on a 0.5-bpm grid (each normalised to its maximum, then
//! averaged), attenuated where the accelerometer spectra are strong (the largest of the axes,
//! normalised: motion lines and their harmonics are what peak-based methods lock onto). Where TROIKA
//! tracks the spectral peak window by window, the rate here is the best path through all windows
//! at once (Viterbi, "Error bounds for convolutional codes and an asymptotically optimum decoding
//! algorithm", *IEEE Trans. Inf. Theory* 13(2):260-269, 1967): it earns the log power of each
//! window's rate and pays for every bpm it moves between windows, so that a few windows where
//! motion hides the pulse, or where the rate climbs fast as running starts, do not throw it off.
//!
//! The spectra are evaluated by direct DFT on the bpm grid rather than by FFT because the grid is
//! finer than an 8-s window's FFT bins would give.

use crate::filter::{Band, Sos};
use crate::ppg::HrWindow;
use crate::{SamplingRate, SignalError};

/// Lowest rate on the spectral grid, bpm.
pub const MIN_BPM: f64 = 40.0;
/// Highest rate on the spectral grid, bpm.
pub const MAX_BPM: f64 = 220.0;
/// Grid step, bpm.
const GRID_BPM: f64 = 0.5;
/// Rate the band-passed signals are decimated to, Hz.
const WORK_HZ: f64 = 25.0;
/// Added to a window's normalised spectral power before its logarithm, so that a rate where the
/// spectrum is empty costs a bounded amount.
const POWER_FLOOR: f64 = 0.01;

/// The tracker's settings (chosen by leave-one-recording-out on the SPC 2015 recordings in
/// `cardio-lab`; [`TrackerSettings::default`] is the choice on all of them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrackerSettings {
    /// How strongly the accelerometer spectrum suppresses the PPG spectrum (1 removes a bin where
    /// the motion spectrum peaks).
    pub motion_weight: f64,
    /// Cost of a change of rate between consecutive windows, per bpm (in units of the log
    /// spectral power a window's rate earns).
    pub change_cost_per_bpm: f64,
    /// Largest change of the rate from one window to the next, bpm.
    pub max_step_bpm: f64,
}

impl Default for TrackerSettings {
    fn default() -> Self {
        Self {
            motion_weight: 0.9,
            change_cost_per_bpm: 0.2,
            max_step_bpm: 4.0,
        }
    }
}

/// Normalised power spectra on the grid, one row per window, of one channel.
fn spectra(
    x: &[f64],
    fs: SamplingRate,
    window_s: f64,
    step_s: f64,
    n_windows: usize,
) -> Result<Vec<Vec<f64>>, SignalError> {
    let fs_hz = fs.hz();
    let filtered =
        Sos::butterworth(2, Band::BandPass(0.5, 4.0f64.min(0.45 * fs_hz)), fs)?.filtfilt(x)?;
    let stride = (fs_hz / WORK_HZ).round().max(1.0) as usize;
    let work_hz = fs_hz / stride as f64;
    let y: Vec<f64> = filtered.iter().step_by(stride).copied().collect();
    let len = (window_s * work_hz).round() as usize;
    let hop = step_s * work_hz;
    let hann: Vec<f64> = (0..len)
        .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / len as f64).cos())
        .collect();
    let n_bins = ((MAX_BPM - MIN_BPM) / GRID_BPM) as usize + 1;
    let table: Vec<(Vec<f64>, Vec<f64>)> = (0..n_bins)
        .map(|b| {
            let w = 2.0 * std::f64::consts::PI * (bpm_of(b) / 60.0) / work_hz;
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
    Ok(rows)
}

fn bpm_of(bin: usize) -> f64 {
    MIN_BPM + bin as f64 * GRID_BPM
}

/// Number of whole windows of `window_s` every `step_s` in `duration_s`.
pub fn window_count(duration_s: f64, window_s: f64, step_s: f64) -> usize {
    if !(duration_s >= window_s && window_s > 0.0 && step_s > 0.0) {
        return 0;
    }
    ((duration_s - window_s) / step_s + 1e-9).floor() as usize + 1
}

/// The spectra of every window of the PPG channels and the accelerometer axes of one recording:
/// computed once, followed with any [`TrackerSettings`].
#[derive(Debug, Clone)]
pub struct WindowSpectra {
    ppg: Vec<Vec<Vec<f64>>>,
    acc: Vec<Vec<Vec<f64>>>,
    window_s: f64,
    step_s: f64,
}

impl WindowSpectra {
    /// The spectra of every whole window (`window_s` long, every `step_s`) of PPG channels with
    /// the accelerometer axes recorded beside them, all at `fs` (the shortest channel sets the
    /// length).
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] without a PPG channel; the filter's errors when a channel
    /// holds a non-finite sample.
    pub fn compute(
        ppg: &[&[f64]],
        acc: &[&[f64]],
        fs: SamplingRate,
        window_s: f64,
        step_s: f64,
    ) -> Result<Self, SignalError> {
        if ppg.is_empty() {
            return Err(SignalError::InvalidParameter(
                "motion-compensated heart rate needs a PPG channel".into(),
            ));
        }
        let n = ppg.iter().chain(acc).map(|x| x.len()).min().unwrap_or(0);
        let n_windows = window_count(n as f64 / fs.hz(), window_s, step_s);
        let of = |chans: &[&[f64]]| -> Result<Vec<Vec<Vec<f64>>>, SignalError> {
            if n_windows == 0 {
                return Ok(Vec::new());
            }
            chans
                .iter()
                .map(|x| spectra(&x[..n], fs, window_s, step_s, n_windows))
                .collect()
        };
        Ok(Self {
            ppg: of(ppg)?,
            acc: of(acc)?,
            window_s,
            step_s,
        })
    }

    /// Number of windows.
    pub fn len(&self) -> usize {
        self.ppg.first().map_or(0, Vec::len)
    }

    /// Whether there is no whole window.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The motion-attenuated spectrum of window `k`, normalised to its maximum.
    fn clean(&self, k: usize, motion_weight: f64) -> Vec<f64> {
        let n_bins = self.ppg[0][k].len();
        let mut clean = vec![0.0; n_bins];
        for (b, c) in clean.iter_mut().enumerate() {
            let s = self.ppg.iter().map(|s| s[k][b]).sum::<f64>() / self.ppg.len() as f64;
            let a = self.acc.iter().map(|s| s[k][b]).fold(0.0, f64::max);
            *c = s * (1.0 - motion_weight * a).max(0.0);
        }
        let top = clean.iter().copied().fold(0.0, f64::max);
        if top > 0.0 {
            for c in &mut clean {
                *c /= top;
            }
        }
        clean
    }

    /// The heart rate of every window: the path through the windows' motion-attenuated spectra
    /// that maximises the summed log power of its rates minus [`TrackerSettings::change_cost_per_bpm`]
    /// for every bpm it moves, moving at most [`TrackerSettings::max_step_bpm`] per window (Viterbi
    /// decoding, Viterbi 1967, over the whole recording). Every window gets a rate: the path goes
    /// through windows where the pulse is not visible.
    pub fn follow(&self, settings: &TrackerSettings) -> Vec<HrWindow> {
        let n = self.len();
        if n == 0 {
            return Vec::new();
        }
        let n_bins = self.ppg[0][0].len();
        let reach = (settings.max_step_bpm / GRID_BPM).floor().max(0.0) as usize;
        let step_cost = settings.change_cost_per_bpm * GRID_BPM;
        let earn = |p: f64| (p + POWER_FLOOR).ln();
        let mut score: Vec<f64> = self
            .clean(0, settings.motion_weight)
            .into_iter()
            .map(earn)
            .collect();
        let mut back: Vec<Vec<u16>> = Vec::with_capacity(n);
        back.push(vec![0; n_bins]);
        for k in 1..n {
            let clean = self.clean(k, settings.motion_weight);
            let mut next = vec![f64::NEG_INFINITY; n_bins];
            let mut from = vec![0u16; n_bins];
            for b in 0..n_bins {
                let lo = b.saturating_sub(reach);
                let hi = (b + reach).min(n_bins - 1);
                let (mut best, mut arg) = (f64::NEG_INFINITY, b);
                for (j, s) in score.iter().enumerate().take(hi + 1).skip(lo) {
                    let v = s - step_cost * b.abs_diff(j) as f64;
                    if v > best {
                        best = v;
                        arg = j;
                    }
                }
                next[b] = best + earn(clean[b]);
                from[b] = arg as u16;
            }
            score = next;
            back.push(from);
        }
        let mut b = (0..n_bins)
            .max_by(|&x, &y| score[x].total_cmp(&score[y]))
            .unwrap_or(0);
        let mut path = vec![0usize; n];
        for k in (0..n).rev() {
            path[k] = b;
            b = back[k][b] as usize;
        }
        path.into_iter()
            .enumerate()
            .map(|(k, b)| {
                let start_s = k as f64 * self.step_s;
                HrWindow {
                    start_s,
                    end_s: start_s + self.window_s,
                    bpm: Some(bpm_of(b)),
                }
            })
            .collect()
    }
}

/// Heart rate of every whole window (`window_s` long, every `step_s`) of PPG channels with the
/// accelerometer axes recorded beside them: [`WindowSpectra::compute`] then
/// [`WindowSpectra::follow`].
///
/// # Errors
/// As [`WindowSpectra::compute`].
pub fn track(
    ppg: &[&[f64]],
    acc: &[&[f64]],
    fs: SamplingRate,
    window_s: f64,
    step_s: f64,
    settings: &TrackerSettings,
) -> Result<Vec<HrWindow>, SignalError> {
    Ok(WindowSpectra::compute(ppg, acc, fs, window_s, step_s)?.follow(settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(fs: f64, n: usize, hz: f64, amp: f64) -> Vec<f64> {
        (0..n)
            .map(|i| amp * (2.0 * std::f64::consts::PI * hz * i as f64 / fs).sin())
            .collect()
    }

    #[test]
    fn tracks_a_pulse_and_ignores_a_stronger_motion_line() {
        let fs = 125.0;
        let n = (40.0 * fs) as usize;
        // Pulse at 90 bpm, motion at 150 bpm (2.5 Hz) 1.5 times as strong in the PPG.
        let pulse = tone(fs, n, 1.5, 1.0);
        let motion = tone(fs, n, 2.5, 1.5);
        let ppg: Vec<f64> = pulse.iter().zip(&motion).map(|(a, b)| a + b).collect();
        let rates = track(
            &[&ppg],
            &[&motion],
            SamplingRate::new(fs).unwrap(),
            8.0,
            2.0,
            &TrackerSettings::default(),
        )
        .unwrap();
        assert_eq!(rates.len(), 17);
        assert_eq!((rates[1].start_s, rates[1].end_s), (2.0, 10.0));
        assert!(
            rates.iter().all(|r| (r.bpm.unwrap() - 90.0).abs() <= 1.0),
            "{rates:?}"
        );
    }

    #[test]
    fn without_the_accelerometer_the_motion_line_wins() {
        let fs = 125.0;
        let n = (20.0 * fs) as usize;
        let pulse = tone(fs, n, 1.5, 1.0);
        let motion = tone(fs, n, 2.5, 2.0);
        let ppg: Vec<f64> = pulse.iter().zip(&motion).map(|(a, b)| a + b).collect();
        let rates = track(
            &[&ppg],
            &[],
            SamplingRate::new(fs).unwrap(),
            8.0,
            2.0,
            &TrackerSettings::default(),
        )
        .unwrap();
        assert!((rates[0].bpm.unwrap() - 150.0).abs() <= 1.0, "{rates:?}");
    }

    #[test]
    fn counts_whole_windows_and_refuses_no_ppg() {
        assert_eq!(window_count(40.0, 8.0, 2.0), 17);
        assert_eq!(window_count(7.9, 8.0, 2.0), 0);
        assert_eq!(window_count(f64::NAN, 8.0, 2.0), 0);
        let fs = SamplingRate::new(125.0).unwrap();
        assert!(track(&[], &[], fs, 8.0, 2.0, &TrackerSettings::default()).is_err());
        let short = [0.0; 10];
        assert!(
            track(&[&short], &[], fs, 8.0, 2.0, &TrackerSettings::default())
                .unwrap()
                .is_empty()
        );
    }
}
