//! PPG (photoplethysmogram): cleaning, systolic peak detection and windowed heart rate, robust
//! down to 25-30 Hz camera signals (sub-sample peak timing by parabolic interpolation).
//!
//! ```
//! use cardio_signal::{ppg, SamplingRate};
//!
//! let fs = SamplingRate::new(30.0).unwrap();
//! // 72 bpm pulse wave sampled at a camera's 30 Hz.
//! let x: Vec<f64> = (0..30 * 20)
//!     .map(|i| {
//!         let t = i as f64 / 30.0;
//!         (2.0 * std::f64::consts::PI * 1.2 * t).sin()
//!             + 0.4 * (4.0 * std::f64::consts::PI * 1.2 * t).sin()
//!     })
//!     .collect();
//! let peaks = ppg::PeakDetector::new(fs).unwrap().detect(&x).unwrap();
//! assert!(peaks.len().abs_diff(24) <= 1);
//! ```

use crate::filter::{Band, Sos};
use crate::{SamplingRate, SignalError};

/// Cleans a PPG with a zero-phase 2nd-order Butterworth band-pass 0.5-8 Hz (the upper edge is
/// lowered to 0.45·fs for low camera rates).
///
/// Elgendi, M., Norton, I., Brearley, M., Abbott, D., Schuurmans, D. (2013), "Systolic peak
/// detection in acceleration photoplethysmograms measured from emergency responders in tropical
/// conditions", *PLoS ONE* 8(10), e76585.
///
/// # Errors
/// [`SignalError::NonFinite`]; [`SignalError::TooShort`] under the filter's padding;
/// [`SignalError::InvalidParameter`] when `fs` is below 2 Hz.
pub fn clean(x: &[f64], fs: SamplingRate) -> Result<Vec<f64>, SignalError> {
    bandpass(fs)?.filtfilt(x)
}

fn bandpass(fs: SamplingRate) -> Result<Sos, SignalError> {
    if fs.hz() < 2.0 {
        return Err(SignalError::InvalidParameter(format!(
            "PPG needs at least 2 Hz, got {} Hz",
            fs.hz()
        )));
    }
    let hi = 8.0_f64.min(0.45 * fs.hz());
    Sos::butterworth(2, Band::BandPass(0.5, hi), fs)
}

/// A planned systolic-peak detector for one sampling rate (Elgendi et al. 2013).
#[derive(Debug, Clone)]
pub struct PeakDetector {
    fs: f64,
    bandpass: Sos,
}

fn moving_average(x: &[f64], w: usize) -> Vec<f64> {
    let n = x.len();
    let mut prefix = vec![0.0; n + 1];
    for i in 0..n {
        prefix[i + 1] = prefix[i] + x[i];
    }
    let half = w / 2;
    (0..n)
        .map(|i| {
            let s = i.saturating_sub(half);
            let e = (i + w - half).min(n);
            (prefix[e] - prefix[s]) / (e - s) as f64
        })
        .collect()
}

impl PeakDetector {
    /// Plans the detector for `fs`.
    ///
    /// Elgendi et al. (2013), *PLoS ONE* 8(10), e76585.
    ///
    /// # Errors
    /// [`SignalError::InvalidParameter`] when `fs` is below 2 Hz.
    pub fn new(fs: SamplingRate) -> Result<Self, SignalError> {
        Ok(Self {
            fs: fs.hz(),
            bandpass: bandpass(fs)?,
        })
    }

    /// Detects systolic peaks in a raw PPG and returns their sample indices.
    ///
    /// Elgendi et al. (2013): band-pass 0.5-8 Hz, keep the positive part squared, a 111 ms
    /// moving average (systolic peak) against a 667 ms one (beat) plus 2% of the mean; blocks of
    /// interest at least 111 ms wide hold one peak each, the most prominent maximum of the
    /// filtered signal; peaks closer than 300 ms to the previous one are dropped (as NeuroKit2's
    /// `ppg_findpeaks`, Makowski et al. 2021).
    ///
    /// # Errors
    /// [`SignalError::NonFinite`]; [`SignalError::TooShort`] under the filter's padding.
    pub fn detect(&self, ppg: &[f64]) -> Result<Vec<usize>, SignalError> {
        if ppg.iter().any(|v| !v.is_finite()) {
            return Err(SignalError::NonFinite);
        }
        let filtered = self.bandpass.filtfilt(ppg)?;
        Ok(self.detect_filtered(&filtered))
    }

    /// [`PeakDetector::detect`] on an already band-passed signal (see [`clean`]).
    ///
    /// Elgendi et al. (2013), *PLoS ONE* 8(10), e76585.
    pub fn detect_filtered(&self, filtered: &[f64]) -> Vec<usize> {
        let fs = self.fs;
        let sq: Vec<f64> = filtered.iter().map(|v| v.max(0.0).powi(2)).collect();
        let w1 = ((0.111 * fs).round() as usize).max(1);
        let w2 = ((0.667 * fs).round() as usize).max(w1 + 1);
        let ma_peak = moving_average(&sq, w1);
        let ma_beat = moving_average(&sq, w2);
        let alpha = 0.02 * sq.iter().sum::<f64>() / sq.len().max(1) as f64;
        let min_delay = (0.3 * fs).round() as usize;
        let mut peaks: Vec<usize> = Vec::new();
        let n = filtered.len();
        let mut i = 0;
        while i < n {
            if ma_peak[i] > ma_beat[i] + alpha {
                let beg = i;
                while i < n && ma_peak[i] > ma_beat[i] + alpha {
                    i += 1;
                }
                let end = i;
                if end - beg < w1 {
                    continue;
                }
                // The highest interior local maximum (most prominent in practice); the block's
                // maximum when none is interior.
                let mut best: Option<usize> = None;
                for k in beg.max(1)..end.min(n - 1) {
                    if filtered[k] > filtered[k - 1]
                        && filtered[k] >= filtered[k + 1]
                        && best.is_none_or(|b| filtered[k] > filtered[b])
                    {
                        best = Some(k);
                    }
                }
                if let Some(p) = best {
                    if peaks.last().is_none_or(|&l| p - l > min_delay) {
                        peaks.push(p);
                    }
                }
            } else {
                i += 1;
            }
        }
        peaks
    }
}

/// Sub-sample peak times in seconds by fitting a parabola through each peak and its neighbours
/// in `x` (the signal the peaks were found in).
///
/// Jacobsen, E., Kootsookos, P. (2007), "Fast, accurate frequency estimators", *IEEE Signal
/// Processing Magazine* 24(3), 123-125 (parabolic peak interpolation).
pub fn refine_peak_times(x: &[f64], peaks: &[usize], fs: SamplingRate) -> Vec<f64> {
    peaks
        .iter()
        .map(|&p| {
            let mut t = p as f64;
            if p > 0 && p + 1 < x.len() {
                let (a, b, c) = (x[p - 1], x[p], x[p + 1]);
                let d = a - 2.0 * b + c;
                if d < 0.0 {
                    t += (0.5 * (a - c) / d).clamp(-0.5, 0.5);
                }
            }
            t / fs.hz()
        })
        .collect()
}

/// Heart rate over one window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HrWindow {
    /// Window start, seconds.
    pub start_s: f64,
    /// Window end, seconds.
    pub end_s: f64,
    /// 60 / median inter-beat interval in the window; `None` with fewer than two intervals or
    /// when the intervals are implausible (outside 30-240 bpm) or too irregular.
    pub bpm: Option<f64>,
}

/// Heart rate in sliding windows from beat times (seconds): every `step_s` a window of
/// `window_s`, using intervals whose both beats lie in the window. A window is left empty when
/// fewer than two intervals fall in it, the median is outside 30-240 bpm, or more than half the
/// intervals differ from the median by over 30% (a sign of missed or extra beats).
///
/// Windowed median inter-beat interval as in Elgendi et al. (2013); the consistency rule follows
/// Orphanidou, C. et al. (2015), "Signal-quality indices for the electrocardiogram and
/// photoplethysmogram: derivation and applications to wireless monitoring", *IEEE J. Biomed.
/// Health Inform.* 19(3), 832-838.
pub fn heart_rate_windows(
    beat_times_s: &[f64],
    duration_s: f64,
    window_s: f64,
    step_s: f64,
) -> Vec<HrWindow> {
    let mut out = Vec::new();
    if !(window_s > 0.0 && step_s > 0.0) {
        return out;
    }
    let mut ibis: Vec<f64> = Vec::new();
    let mut k = 0u32;
    loop {
        let start = f64::from(k) * step_s;
        let end = start + window_s;
        if end > duration_s + 1e-9 {
            break;
        }
        ibis.clear();
        let lo = beat_times_s.partition_point(|&t| t < start);
        let hi = beat_times_s.partition_point(|&t| t <= end);
        if hi > lo + 1 {
            ibis.extend(beat_times_s[lo..hi].windows(2).map(|w| w[1] - w[0]));
        }
        let bpm = if ibis.len() >= 2 {
            let mut s = ibis.clone();
            s.sort_unstable_by(f64::total_cmp);
            let med = s[s.len() / 2];
            let off = ibis.iter().filter(|v| (*v - med).abs() > 0.3 * med).count();
            let bpm = 60.0 / med;
            ((30.0..=240.0).contains(&bpm) && off * 2 <= ibis.len()).then_some(bpm)
        } else {
            None
        };
        out.push(HrWindow {
            start_s: start,
            end_s: end,
            bpm,
        });
        k += 1;
    }
    out
}

/// Everything [`analyze`] finds in one PPG.
#[derive(Debug, Clone, PartialEq)]
pub struct PpgAnalysis {
    /// The band-passed signal.
    pub cleaned: Vec<f64>,
    /// Systolic peak sample indices.
    pub peaks: Vec<usize>,
    /// Sub-sample systolic peak times, seconds.
    pub peak_times_s: Vec<f64>,
    /// 60 / median inter-beat interval, bpm (`None` under two beats).
    pub heart_rate_bpm: Option<f64>,
    /// Signal quality (see [`crate::quality::ppg`]).
    pub quality: crate::quality::Quality,
}

/// Cleans a PPG, finds its systolic peaks, their sub-sample times, the heart rate and the quality.
///
/// Chains [`clean`] and [`PeakDetector`] (Elgendi et al. 2013), [`refine_peak_times`] (Jacobsen
/// & Kootsookos 2007) and [`crate::quality::ppg`] (Orphanidou et al. 2015).
///
/// # Errors
/// As [`PeakDetector::new`] and [`PeakDetector::detect`].
pub fn analyze(x: &[f64], fs: SamplingRate) -> Result<PpgAnalysis, SignalError> {
    if x.iter().any(|v| !v.is_finite()) {
        return Err(SignalError::NonFinite);
    }
    let det = PeakDetector::new(fs)?;
    let cleaned = det.bandpass.filtfilt(x)?;
    let peaks = det.detect_filtered(&cleaned);
    let peak_times_s = refine_peak_times(&cleaned, &peaks, fs);
    let mut ibis: Vec<f64> = peak_times_s.windows(2).map(|w| w[1] - w[0]).collect();
    ibis.sort_unstable_by(f64::total_cmp);
    let heart_rate_bpm = (!ibis.is_empty()).then(|| 60.0 / ibis[ibis.len() / 2]);
    let quality = crate::quality::ppg(&cleaned, fs, &peaks);
    Ok(PpgAnalysis {
        cleaned,
        peaks,
        peak_times_s,
        heart_rate_bpm,
        quality,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pulse_wave(fs: f64, seconds: f64, bpm: f64, noise: f64) -> Vec<f64> {
        let mut s: u64 = 7;
        (0..(fs * seconds) as usize)
            .map(|i| {
                let t = i as f64 / fs;
                let ph = (t * bpm / 60.0).fract();
                // Systolic upstroke then a slower decay with a dicrotic bump.
                let v = (-((ph - 0.2) * (ph - 0.2)) / 0.004).exp()
                    + 0.3 * (-((ph - 0.5) * (ph - 0.5)) / 0.004).exp();
                s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let r = ((s >> 33) as f64 / f64::from(1u32 << 31)) - 0.5;
                v + noise * r + 0.5 * (0.1 * t).sin()
            })
            .collect()
    }

    #[test]
    fn detects_beats_at_camera_rate_and_gives_the_right_rate() {
        let fs = SamplingRate::new(30.0).unwrap();
        let x = pulse_wave(30.0, 60.0, 75.0, 0.1);
        let det = PeakDetector::new(fs).unwrap();
        let peaks = det.detect(&x).unwrap();
        assert!(peaks.len().abs_diff(75) <= 1, "{}", peaks.len());
        let times = refine_peak_times(&clean(&x, fs).unwrap(), &peaks, fs);
        let hr = heart_rate_windows(&times, 60.0, 8.0, 2.0);
        assert_eq!(hr.len(), 27);
        for w in &hr {
            let bpm = w.bpm.unwrap();
            assert!((bpm - 75.0).abs() < 2.0, "{w:?}");
        }
    }

    #[test]
    fn analysis_of_a_clean_pulse_is_usable_with_the_right_rate() {
        let fs = SamplingRate::new(125.0).unwrap();
        let a = analyze(&pulse_wave(125.0, 30.0, 66.0, 0.02), fs).unwrap();
        assert!((a.heart_rate_bpm.unwrap() - 66.0).abs() < 1.0);
        assert!(a.quality.usable, "{:?}", a.quality);
    }

    #[test]
    fn a_window_without_beats_has_no_rate() {
        let hr = heart_rate_windows(&[1.0, 2.0], 20.0, 8.0, 2.0);
        assert!(hr.iter().all(|w| w.bpm.is_none()));
    }

    #[test]
    fn rejects_too_low_rates() {
        assert!(PeakDetector::new(SamplingRate::new(1.0).unwrap()).is_err());
    }
}
