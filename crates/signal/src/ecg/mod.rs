//! ECG: cleaning, QRS detection with adaptive thresholds, search-back, refractory and T-wave /
//! baseline-shift rejection, R-peak refinement and simple beat delineation (QRS onset/offset,
//! width, P-wave presence).
//!
//! Plan once ([`EcgAnalyzer::new`], [`QrsDetector::new`]) and process many recordings;
//! [`analyze`] is the one-call form.
//!
//! ```
//! use cardio_signal::{ecg, SamplingRate};
//!
//! let fs = SamplingRate::new(360.0).unwrap();
//! // A synthetic ECG: narrow Gaussian "R waves" once a second on a slow baseline.
//! let x: Vec<f64> = (0..3600 * 3)
//!     .map(|i| {
//!         let t = i as f64 / 360.0;
//!         let d = (t % 1.0) - 0.5;
//!         (-(d * d) / (2.0 * 0.01f64.powi(2))).exp() + 0.3 * (0.2 * t).sin()
//!     })
//!     .collect();
//! let result = ecg::analyze(&x, fs, ecg::Powerline::Hz50).unwrap();
//! assert!(result.r_peaks.len().abs_diff(30) <= 1);
//! ```

use crate::filter::{Band, Sos};
use crate::{SamplingRate, SignalError};

mod delineate;
mod qrs;

pub use delineate::{
    delineate, global_fiducials, Beat, Delineation, GlobalFiducials, Thresholds, WaveDelineator,
    Waves, MAX_LEADS,
};
pub use qrs::{refine_r_peaks, QrsDetector};

/// Mains frequency to notch out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Powerline {
    /// 50 Hz mains (Europe, most of Asia and Africa).
    Hz50,
    /// 60 Hz mains (the Americas, parts of Asia).
    Hz60,
    /// No notch.
    None,
}

impl Powerline {
    fn hz(self) -> Option<f64> {
        match self {
            Self::Hz50 => Some(50.0),
            Self::Hz60 => Some(60.0),
            Self::None => None,
        }
    }
}

fn check_finite(x: &[f64]) -> Result<(), SignalError> {
    if x.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(SignalError::NonFinite)
    }
}

/// Cleans an ECG: zero-phase 0.5 Hz 5th-order Butterworth high-pass (baseline wander) then a
/// zero-phase powerline notch (Q = 30) when the mains frequency is below Nyquist.
///
/// Makowski, D. et al. (2021), "NeuroKit2: A Python toolbox for neurophysiological signal
/// processing", *Behavior Research Methods* 53, 1689-1696 (`ecg_clean` default high-pass);
/// notch after Orfanidis (1996), see [`Sos::notch`].
///
/// # Errors
/// [`SignalError::NonFinite`] for NaN/inf samples, [`SignalError::TooShort`] when the signal is
/// shorter than the filters' padding (about 0.1 s).
pub fn clean(x: &[f64], fs: SamplingRate, powerline: Powerline) -> Result<Vec<f64>, SignalError> {
    check_finite(x)?;
    cleaning_filter(fs, powerline)?.filtfilt(x)
}

fn cleaning_filter(fs: SamplingRate, powerline: Powerline) -> Result<Sos, SignalError> {
    let mut sos = Sos::butterworth(5, Band::HighPass(0.5), fs)?;
    if let Some(f0) = powerline.hz() {
        if f0 < fs.hz() / 2.0 * 0.98 {
            sos = sos.then(&Sos::notch(f0, 30.0, fs)?);
        }
    }
    Ok(sos)
}

/// Everything [`analyze`] finds in one ECG.
#[derive(Debug, Clone, PartialEq)]
pub struct EcgAnalysis {
    /// The cleaned signal (same length as the input).
    pub cleaned: Vec<f64>,
    /// R-peak sample indices.
    pub r_peaks: Vec<usize>,
    /// Per-beat delineation.
    pub beats: Vec<Beat>,
    /// Mean heart rate from the median RR interval, beats per minute (`None` under two beats).
    pub heart_rate_bpm: Option<f64>,
    /// Signal quality of the cleaned signal (see [`crate::quality::ecg`]).
    pub quality: crate::quality::Quality,
}

/// Cleans, detects, refines and delineates an ECG in one call.
///
/// Chains [`clean`] (Makowski et al. 2021), [`QrsDetector::detect`] (Hamilton 2002; Pan &
/// Tompkins 1985), [`delineate`] (Laguna et al. 1994) and [`crate::quality::ecg`] (Orphanidou
/// et al. 2015).
///
/// # Errors
/// As [`clean`] and [`QrsDetector::detect`].
pub fn analyze(
    x: &[f64],
    fs: SamplingRate,
    powerline: Powerline,
) -> Result<EcgAnalysis, SignalError> {
    EcgAnalyzer::new(fs, powerline)?.analyze(x)
}

/// A planned ECG analysis for one sampling rate and mains frequency: design the filters once,
/// analyse many recordings.
#[derive(Debug, Clone)]
pub struct EcgAnalyzer {
    fs: SamplingRate,
    cleaning: Sos,
    detector: QrsDetector,
}

impl EcgAnalyzer {
    /// Plans the cleaning filters ([`clean`]) and the QRS detector ([`QrsDetector::new`]).
    ///
    /// Makowski et al. (2021); Hamilton (2002), see [`clean`] and [`QrsDetector`].
    ///
    /// # Errors
    /// As [`QrsDetector::new`] and [`Sos::butterworth`].
    pub fn new(fs: SamplingRate, powerline: Powerline) -> Result<Self, SignalError> {
        Ok(Self {
            fs,
            cleaning: cleaning_filter(fs, powerline)?,
            detector: QrsDetector::new(fs)?,
        })
    }

    /// Cleans and detects one ECG, without the delineation and the quality of [`EcgAnalyzer::analyze`]:
    /// the cleaned signal and the R peaks, the same as `analyze`'s, for a caller that needs only
    /// the beats (a day-long Holter lead, where delineating every beat would cost more than
    /// finding it).
    ///
    /// Makowski et al. (2021) and Hamilton (2002), see [`clean`] and [`QrsDetector`].
    ///
    /// # Errors
    /// As [`clean`] and [`QrsDetector::detect`].
    pub fn detect(&self, x: &[f64]) -> Result<(Vec<f64>, Vec<usize>), SignalError> {
        check_finite(x)?;
        let mut cleaned = vec![0.0; x.len()];
        let mut scratch = Vec::new();
        self.cleaning.filtfilt_into(x, &mut cleaned, &mut scratch)?;
        let r_peaks = self.detector.detect_with(&cleaned, &mut scratch)?;
        Ok((cleaned, r_peaks))
    }

    /// Cleans, detects, refines, delineates and rates the quality of one ECG.
    ///
    /// Chains [`clean`] (Makowski et al. 2021), [`QrsDetector::detect`] (Hamilton 2002; Pan &
    /// Tompkins 1985), [`delineate`] (Laguna et al. 1994) and [`crate::quality::ecg`]
    /// (Orphanidou et al. 2015).
    ///
    /// # Errors
    /// As [`clean`] and [`QrsDetector::detect`].
    pub fn analyze(&self, x: &[f64]) -> Result<EcgAnalysis, SignalError> {
        let fs = self.fs;
        let (cleaned, r_peaks) = self.detect(x)?;
        let beats = delineate(&cleaned, &r_peaks, fs);
        let mut rr: Vec<f64> = r_peaks
            .windows(2)
            .map(|w| (w[1] - w[0]) as f64 / fs.hz())
            .collect();
        let heart_rate_bpm = if rr.is_empty() {
            None
        } else {
            rr.sort_unstable_by(f64::total_cmp);
            Some(60.0 / rr[rr.len() / 2])
        };
        let quality = crate::quality::ecg(&cleaned, fs, &r_peaks);
        Ok(EcgAnalysis {
            cleaned,
            r_peaks,
            beats,
            heart_rate_bpm,
            quality,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::qrs::held_peaks;
    use super::*;

    fn synthetic(fs: f64, seconds: f64, rr: &[f64]) -> (Vec<f64>, Vec<usize>) {
        let n = (fs * seconds) as usize;
        let mut x = vec![0.0; n];
        let mut t = 0.5;
        let mut truth = Vec::new();
        let mut k = 0;
        while t < seconds - 0.5 {
            let c = (t * fs) as usize;
            truth.push(c);
            for (i, v) in x.iter_mut().enumerate() {
                let d = (i as f64 - c as f64) / fs;
                *v += (-(d * d) / (2.0 * 0.012_f64.powi(2))).exp()
                    + 0.25 * (-((d - 0.25) * (d - 0.25)) / (2.0 * 0.04_f64.powi(2))).exp()
                    + 0.1 * (-((d + 0.18) * (d + 0.18)) / (2.0 * 0.02_f64.powi(2))).exp();
            }
            t += rr[k % rr.len()];
            k += 1;
        }
        (x, truth)
    }

    #[test]
    fn finds_every_beat_of_a_synthetic_ecg_with_wander_and_mains() {
        let fs = 360.0;
        let (mut x, truth) = synthetic(fs, 30.0, &[0.8, 0.75, 0.9, 0.6, 1.1]);
        for (i, v) in x.iter_mut().enumerate() {
            let t = i as f64 / fs;
            *v += 0.8 * (2.0 * std::f64::consts::PI * 0.15 * t).sin()
                + 0.05 * (2.0 * std::f64::consts::PI * 50.0 * t).sin();
        }
        let a = analyze(&x, SamplingRate::new(fs).unwrap(), Powerline::Hz50).unwrap();
        assert_eq!(a.r_peaks.len(), truth.len());
        for (p, t) in a.r_peaks.iter().zip(&truth) {
            assert!(p.abs_diff(*t) <= 3, "{p} vs {t}");
        }
        let hr = a.heart_rate_bpm.unwrap();
        assert!((60.0..90.0).contains(&hr), "{hr}");
        assert!(a.quality.usable, "{:?}", a.quality);
        assert!(a.beats.iter().filter(|b| b.p_wave).count() > truth.len() / 2);
        for b in &a.beats {
            assert!((0.02..0.2).contains(&b.qrs_width_s), "{b:?}");
        }
    }

    #[test]
    fn detect_finds_the_beats_and_the_cleaned_signal_of_analyze() {
        let fs = 360.0;
        let (mut x, _) = synthetic(fs, 20.0, &[0.8, 0.7, 1.0]);
        for (i, v) in x.iter_mut().enumerate() {
            *v += 0.5 * (2.0 * std::f64::consts::PI * 0.2 * i as f64 / fs).sin();
        }
        let analyzer = EcgAnalyzer::new(SamplingRate::new(fs).unwrap(), Powerline::None).unwrap();

        let (cleaned, r_peaks) = analyzer.detect(&x).unwrap();

        let a = analyzer.analyze(&x).unwrap();
        assert_eq!(r_peaks, a.r_peaks);
        assert_eq!(cleaned, a.cleaned);
    }

    #[test]
    fn a_flat_line_has_no_beats() {
        let fs = SamplingRate::new(250.0).unwrap();
        let a = analyze(&vec![0.0; 2500], fs, Powerline::Hz60).unwrap();
        assert!(a.r_peaks.is_empty());
    }

    #[test]
    fn rejects_non_finite_and_too_short_signals() {
        let fs = SamplingRate::new(250.0).unwrap();
        assert_eq!(
            analyze(&[f64::NAN; 1000], fs, Powerline::None).unwrap_err(),
            SignalError::NonFinite
        );
        assert!(analyze(&[0.0; 10], fs, Powerline::None).is_err());
    }

    #[test]
    fn held_peaks_keep_only_the_largest_within_the_hold() {
        let mut x = vec![0.0; 100];
        x[10] = 1.0;
        x[15] = 2.0;
        x[50] = 1.0;
        assert_eq!(held_peaks(&x, 20), vec![15, 50]);
    }
}
