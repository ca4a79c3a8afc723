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

/// One channel's normalised spectra (a row per window) and band power per window.
type ChannelSpectra = (Vec<Vec<f64>>, Vec<f64>);

/// Normalised power spectra on the grid, one row per window, of one channel, and its band power
/// per window.
fn spectra(
    x: &[f64],
    fs: SamplingRate,
    window_s: f64,
    step_s: f64,
    n_windows: usize,
) -> Result<ChannelSpectra, SignalError> {
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
    let mut energy = Vec::with_capacity(n_windows);
    let mut seg = vec![0.0; len];
    for k in 0..n_windows {
        let start = (k as f64 * hop).round() as usize;
        let Some(window) = y.get(start..start + len) else {
            rows.push(vec![0.0; n_bins]);
            energy.push(0.0);
            continue;
        };
        energy.push(window.iter().map(|v| v * v).sum::<f64>() / len.max(1) as f64);
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
    Ok((rows, energy))
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
    /// Per window: whether the arm is still (the accelerometer's band power under
    /// [`QUIET_MOTION_SHARE`] of the recording's largest) and the pulse peaks in it are regular:
    /// then the rate of the peaks, bpm.
    anchors: Vec<Option<f64>>,
    window_s: f64,
    step_s: f64,
}

/// A window is still when the accelerometer's band power (0.5-4 Hz, summed over the axes) is under
/// this share of the recording's most active window.
pub const QUIET_MOTION_SHARE: f64 = 0.05;
/// What a rate within [`ANCHOR_BPM`] of a still window's pulse-peak rate earns beside its log
/// power (a spectral line at a tenth of the window's largest earns about 2.2 less than it).
const ANCHOR_EARN: f64 = 2.0;
/// How near the pulse-peak rate of a still window a rate must be to earn [`ANCHOR_EARN`], bpm.
const ANCHOR_BPM: f64 = 3.0;
/// Largest coefficient of variation of a still window's peak intervals for its rate to anchor
/// the track (a regular pulse: missed or extra peaks give far more).
const ANCHOR_MAX_CV: f64 = 0.12;
/// A rate within this of the accelerometer's dominant rate, its double or its half is "on the
/// motion", bpm.
pub const MOTION_LINE_BPM: f64 = 3.0;
/// When the track is on the motion in at least this share of the moving windows, it has locked
/// onto the arm's rhythm: it is followed again with the motion lines barred.
pub const LOCK_SHARE: f64 = 0.5;

/// Mean normalised spectral power along a rerouted track below which it follows no line at all
/// (the first track is then kept, and unconfirmed).
const MIN_REROUTED_POWER: f64 = 0.1;

/// The rate of every window and what the tracker checked of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The rate of every window.
    pub windows: Vec<HrWindow>,
    /// Share of the moving windows whose rate is on the accelerometer's dominant rate, its double
    /// or its half ([`MOTION_LINE_BPM`]), for the track returned; 0 without an accelerometer.
    pub motion_lock_share: f64,
    /// Whether the first track was on the motion in at least [`LOCK_SHARE`] of the moving
    /// windows and was followed again with the motion lines barred (kept only when that track
    /// follows a line: a mean normalised power of at least [`MIN_REROUTED_POWER`]).
    pub rerouted: bool,
    /// Still windows whose regular pulse peaks anchored the track.
    pub anchored_windows: usize,
}

impl Track {
    /// Whether the rate cannot be trusted: the track stays on the arm's rhythm (no other line
    /// was there to follow, or the rerouted track came back to it).
    pub fn unconfirmed(&self) -> bool {
        self.motion_lock_share >= LOCK_SHARE
    }
}

/// The pulse-peak rate of every window that is still and whose peaks are regular.
fn still_window_anchors(
    ppg: &[f64],
    acc_energy: &[f64],
    fs: SamplingRate,
    window_s: f64,
    step_s: f64,
) -> Vec<Option<f64>> {
    let top = acc_energy.iter().copied().fold(0.0, f64::max);
    if top <= 0.0 {
        return vec![None; acc_energy.len()];
    }
    let Ok(analysis) = crate::ppg::analyze(ppg, fs) else {
        return vec![None; acc_energy.len()];
    };
    let peaks = &analysis.peak_times_s;
    acc_energy
        .iter()
        .enumerate()
        .map(|(k, &e)| {
            if e > QUIET_MOTION_SHARE * top {
                return None;
            }
            let start = k as f64 * step_s;
            let lo = peaks.partition_point(|&t| t < start);
            let hi = peaks.partition_point(|&t| t <= start + window_s);
            let ibis: Vec<f64> = peaks.get(lo..hi)?.windows(2).map(|w| w[1] - w[0]).collect();
            if ibis.len() < 5 {
                return None;
            }
            let mean = ibis.iter().sum::<f64>() / ibis.len() as f64;
            let sd =
                (ibis.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / ibis.len() as f64).sqrt();
            let bpm = 60.0 / mean;
            (sd / mean <= ANCHOR_MAX_CV && (MIN_BPM..=MAX_BPM).contains(&bpm)).then_some(bpm)
        })
        .collect()
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
        let of = |chans: &[&[f64]]| -> Result<Vec<ChannelSpectra>, SignalError> {
            if n_windows == 0 {
                return Ok(Vec::new());
            }
            chans
                .iter()
                .map(|x| spectra(&x[..n], fs, window_s, step_s, n_windows))
                .collect()
        };
        let ppg_spectra: Vec<Vec<Vec<f64>>> = of(ppg)?.into_iter().map(|(s, _)| s).collect();
        let (acc_spectra, acc_energy): (Vec<_>, Vec<_>) = of(acc)?.into_iter().unzip();
        let mut energy = vec![0.0; n_windows];
        for axis in &acc_energy {
            for (e, a) in energy.iter_mut().zip(axis) {
                *e += a;
            }
        }
        let anchors = if acc.is_empty() || n_windows == 0 {
            vec![None; n_windows]
        } else {
            still_window_anchors(&ppg[0][..n], &energy, fs, window_s, step_s)
        };
        Ok(Self {
            ppg: ppg_spectra,
            acc: acc_spectra,
            anchors,
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

    /// The rate (bpm) where the accelerometer's spectrum of window `k` peaks (the largest of the
    /// axes' normalised spectra), and the share of the axes' pulse-band power there; `None`
    /// without accelerometer channels.
    pub fn motion_peak_bpm(&self, k: usize) -> Option<f64> {
        let first = self.acc.first()?;
        let n_bins = first.get(k)?.len();
        (0..n_bins)
            .max_by(|&x, &y| {
                let a = self.acc.iter().map(|s| s[k][x]).fold(0.0, f64::max);
                let b = self.acc.iter().map(|s| s[k][y]).fold(0.0, f64::max);
                a.total_cmp(&b)
            })
            .map(bpm_of)
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

    /// The heart rate of every window ([`WindowSpectra::follow_checked`]'s windows).
    pub fn follow(&self, settings: &TrackerSettings) -> Vec<HrWindow> {
        self.follow_checked(settings).windows
    }

    /// The heart rate of every window: the path through the windows' motion-attenuated spectra
    /// that maximises the summed log power of its rates minus [`TrackerSettings::change_cost_per_bpm`]
    /// for every bpm it moves, moving at most [`TrackerSettings::max_step_bpm`] per window (Viterbi
    /// decoding, Viterbi 1967, over the whole recording). Every window gets a rate: the path goes
    /// through windows where the pulse is not visible.
    ///
    /// Two checks guard against a track that follows something other than the pulse for a whole
    /// recording. Where the arm is still and the pulse peaks are regular, their rate anchors the
    /// path (a rate near it earns [`ANCHOR_EARN`] more): the pulse is re-acquired from the peaks
    /// wherever they can be trusted. And when the path sits on the accelerometer's dominant rate,
    /// its double or its half in at least [`LOCK_SHARE`] of the moving windows, it has locked onto
    /// the arm's rhythm (which the accelerometer sees at its fundamental while the PPG may show a
    /// harmonic): it is followed again with those lines barred, and [`Track::unconfirmed`] says
    /// when even that path stays on them. On the 12 SPC 2015 recordings the first path is on the
    /// motion in at most 5 % of the windows, so neither check changes their figures much; they
    /// are for the wearer whose pulse the spectrum alone loses.
    pub fn follow_checked(&self, settings: &TrackerSettings) -> Track {
        let n = self.len();
        if n == 0 {
            return Track {
                windows: Vec::new(),
                motion_lock_share: 0.0,
                rerouted: false,
                anchored_windows: 0,
            };
        }
        let motion: Vec<Option<f64>> = (0..n)
            .map(|k| {
                if self.anchors[k].is_some() {
                    None
                } else {
                    self.motion_peak_bpm(k)
                }
            })
            .collect();
        let moving = self
            .anchors
            .iter()
            .zip(&motion)
            .filter(|(a, m)| a.is_none() && m.is_some())
            .count();
        let lock_share = |path: &[usize]| -> f64 {
            let on = path
                .iter()
                .zip(&motion)
                .filter(|(b, m)| m.is_some_and(|m| on_motion(bpm_of(**b), m)))
                .count();
            if moving == 0 {
                0.0
            } else {
                on as f64 / moving as f64
            }
        };
        let first = self.viterbi(settings, &[]);
        let first_share = lock_share(&first);
        let (path, share, rerouted) = if first_share >= LOCK_SHARE {
            let second = self.viterbi(settings, &motion);
            let power = second
                .iter()
                .enumerate()
                .map(|(k, &b)| self.clean(k, settings.motion_weight)[b])
                .sum::<f64>()
                / n as f64;
            if power >= MIN_REROUTED_POWER {
                let share = lock_share(&second);
                (second, share, true)
            } else {
                // Nothing but the motion lines: no other pulse to follow.
                (first, first_share, false)
            }
        } else {
            (first, first_share, false)
        };
        let windows = path
            .into_iter()
            .enumerate()
            .map(|(k, b)| {
                let start_s = k as f64 * self.step_s;
                HrWindow {
                    start_s,
                    end_s: start_s + self.window_s,
                    bpm: Some(bpm_of(b)),
                }
            })
            .collect();
        Track {
            windows,
            motion_lock_share: share,
            rerouted,
            anchored_windows: self.anchors.iter().flatten().count(),
        }
    }

    /// The best path's bins; `barred[k]`, when given, is the motion rate whose lines (itself, its
    /// double and its half, each as wide as the main lobe of the window's Hann taper: two DFT bins
    /// either side, 15 bpm for 8 s) window `k` may not take.
    fn viterbi(&self, settings: &TrackerSettings, barred: &[Option<f64>]) -> Vec<usize> {
        let n = self.len();
        let lobe_bpm = 2.0 * 60.0 / self.window_s;
        let n_bins = self.ppg[0][0].len();
        let reach = (settings.max_step_bpm / GRID_BPM).floor().max(0.0) as usize;
        let step_cost = settings.change_cost_per_bpm * GRID_BPM;
        let earn_row = |k: usize| -> Vec<f64> {
            let clean = self.clean(k, settings.motion_weight);
            let anchor = self.anchors[k];
            let bar = barred.get(k).copied().flatten();
            clean
                .into_iter()
                .enumerate()
                .map(|(b, p)| {
                    let bpm = bpm_of(b);
                    if bar.is_some_and(|m| near_motion(bpm, m, lobe_bpm)) {
                        return POWER_FLOOR.ln();
                    }
                    let bonus = anchor
                        .filter(|a| (bpm - a).abs() <= ANCHOR_BPM)
                        .map_or(0.0, |_| ANCHOR_EARN);
                    (p + POWER_FLOOR).ln() + bonus
                })
                .collect()
        };
        let mut score = earn_row(0);
        let mut back: Vec<Vec<u16>> = Vec::with_capacity(n);
        back.push(vec![0; n_bins]);
        for k in 1..n {
            let earn = earn_row(k);
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
                next[b] = best + earn[b];
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
        path
    }
}

/// Whether `bpm` is within [`MOTION_LINE_BPM`] of the motion rate `m`, its double or its half.
fn on_motion(bpm: f64, m: f64) -> bool {
    near_motion(bpm, m, MOTION_LINE_BPM)
}

/// Whether `bpm` is within `width` of the motion rate `m`, its double or its half.
fn near_motion(bpm: f64, m: f64, width: f64) -> bool {
    [1.0, 2.0, 0.5].iter().any(|k| (bpm - k * m).abs() <= width)
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

    /// A pulse at 80 bpm with an arm swing the accelerometer sees at 65/min and the PPG shows at
    /// twice that, 130/min, twice as strong as the pulse; `rest_s` of stillness first.
    fn arm_swing(rest_s: f64) -> (Vec<f64>, Vec<f64>) {
        let fs = 125.0;
        let n = (120.0 * fs) as usize;
        let moving = |i: usize| f64::from(u8::from(i as f64 / fs >= rest_s));
        let pulse = tone(fs, n, 80.0 / 60.0, 1.0);
        let swing = tone(fs, n, 130.0 / 60.0, 2.0);
        let arm = tone(fs, n, 65.0 / 60.0, 1.0);
        let ppg = (0..n).map(|i| pulse[i] + moving(i) * swing[i]).collect();
        let hum = tone(fs, n, 200.0 / 60.0, 1e-3);
        let acc = (0..n).map(|i| moving(i) * arm[i] + hum[i]).collect();
        (ppg, acc)
    }

    #[test]
    fn a_track_locked_onto_the_arm_swing_is_rerouted_to_the_pulse() {
        let (ppg, acc) = arm_swing(0.0);
        let fs = SamplingRate::new(125.0).unwrap();
        let spectra = WindowSpectra::compute(&[&ppg], &[&acc], fs, 8.0, 2.0).unwrap();
        let track = spectra.follow_checked(&TrackerSettings::default());
        assert!(track.rerouted, "{track:?}");
        assert!(!track.unconfirmed());
        assert!(track.motion_lock_share < 0.1, "{}", track.motion_lock_share);
        let off: Vec<f64> = track
            .windows
            .iter()
            .map(|w| (w.bpm.unwrap() - 80.0).abs())
            .collect();
        assert!(off.iter().all(|&e| e <= 1.0), "{off:?}");
    }

    #[test]
    fn still_windows_with_regular_peaks_anchor_the_track() {
        let (ppg, acc) = arm_swing(30.0);
        let fs = SamplingRate::new(125.0).unwrap();
        let spectra = WindowSpectra::compute(&[&ppg], &[&acc], fs, 8.0, 2.0).unwrap();
        let track = spectra.follow_checked(&TrackerSettings::default());
        // The windows wholly inside the 30 s of stillness: (30 - 8) / 2 + 1.
        assert_eq!(track.anchored_windows, 12);
        assert!(
            track
                .windows
                .iter()
                .all(|w| (w.bpm.unwrap() - 80.0).abs() <= 1.0),
            "{:?}",
            track.windows
        );
    }

    #[test]
    fn a_track_that_stays_on_the_motion_is_unconfirmed() {
        // The only line in the PPG is the arm's: barred, nothing else is left to follow.
        let fs = 125.0;
        let n = (60.0 * fs) as usize;
        let ppg = tone(fs, n, 130.0 / 60.0, 1.0);
        let acc = tone(fs, n, 130.0 / 60.0, 1.0);
        let rate = SamplingRate::new(fs).unwrap();
        let spectra = WindowSpectra::compute(&[&ppg], &[&acc], rate, 8.0, 2.0).unwrap();
        let settings = TrackerSettings {
            motion_weight: 0.0,
            ..TrackerSettings::default()
        };
        let track = spectra.follow_checked(&settings);
        assert!(!track.rerouted);
        assert!(track.unconfirmed(), "{track:?}");
        assert!((track.windows[0].bpm.unwrap() - 130.0).abs() <= 1.0);
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
