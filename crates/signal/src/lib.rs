//! # cardio-signal: pure digital signal processing for cardiac signals
//!
//! This crate holds the DSP that every analysis rests on: filter design and zero-phase filtering,
//! resampling, ECG cleaning and QRS detection, PPG peak detection, PCG envelope and S1/S2
//! segmentation, heart-rate variability and signal quality.
//!
//! It does no I/O and nothing async: `f64` slices go in, plain structs come out. Reading files is
//! the job of `cardio-formats`; models built on these features live in `cardio-models`.
//!
//! A tour:
//! - [`filter`]: Butterworth design to second-order sections, `sosfilt`/`sosfiltfilt` equal to
//!   SciPy's, powerline notch, baseline removal (high-pass or two-stage median).
//! - [`resample`]: rational polyphase resampling equal to SciPy's `resample_poly`.
//! - [`ecg`]: cleaning, QRS detection (Hamilton/Pan-Tompkins rules with search-back), R-peak
//!   refinement, delineation (QRS width, P-wave presence), [`ecg::analyze`] for all of it.
//! - [`ppg`]: cleaning, systolic peaks (Elgendi 2013), windowed heart rate.
//! - [`pcg`]: homomorphic envelope, heart rate, S1/S2 and cardiac cycles.
//! - [`motion`]: wrist heart rate during motion, the accelerometer as noise reference (TROIKA-like).
//! - [`hrv`]: time, frequency (Lomb-Scargle), non-linear and AF-irregularity measures.
//! - [`quality`]: usable/unusable with a reason, per modality.
//!
//! Filters and detectors are planned once and reused ([`filter::Sos`], [`ecg::QrsDetector`],
//! [`ppg::PeakDetector`], [`resample::Resampler`]). Every method's documentation cites its paper;
//! golden tests compare with SciPy and NeuroKit2 (`tests/golden/make_golden.py`).
//!
//! ```
//! use cardio_signal::{ecg, hrv, SamplingRate};
//!
//! let fs = SamplingRate::new(360.0).unwrap();
//! assert!(SamplingRate::new(0.0).is_err());
//! let x: Vec<f64> = (0..360 * 20)
//!     .map(|i| {
//!         let d = (i as f64 / 360.0) % 0.8 - 0.4;
//!         (-(d * d) / 2e-4).exp()
//!     })
//!     .collect();
//! let result = ecg::analyze(&x, fs, ecg::Powerline::Hz60).unwrap();
//! let rr = hrv::rr_from_peaks(&result.r_peaks, fs.hz());
//! let t = hrv::time_domain(&rr).unwrap();
//! assert!((t.mean_hr_bpm - 75.0).abs() < 1.0);
//! ```

// Signal-processing code follows the papers' notation (x, y, n, fs, ...).
#![allow(clippy::many_single_char_names)]

mod complex;
pub mod ecg;
pub mod filter;
pub mod hrv;
pub mod motion;
pub mod pcg;
pub mod ppg;
pub mod quality;
pub mod resample;
pub mod stats;

/// Why a signal could not be processed.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SignalError {
    /// A sampling rate must be a finite number above zero.
    #[error("sampling rate must be a finite number above zero, got {0}")]
    InvalidSamplingRate(f64),
    /// A design or analysis parameter is out of its valid range; the text says which and why.
    #[error("invalid parameter: {0}")]
    InvalidParameter(String),
    /// The signal has fewer samples than the method needs.
    #[error("signal too short: needs at least {needed} samples, got {got}")]
    TooShort {
        /// Samples needed.
        needed: usize,
        /// Samples given.
        got: usize,
    },
    /// The signal contains NaN or infinite samples.
    #[error("signal contains non-finite samples")]
    NonFinite,
}

/// A sampling rate in hertz, finite and above zero.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct SamplingRate(f64);

impl SamplingRate {
    /// Validates a sampling rate given in hertz.
    ///
    /// # Errors
    /// [`SignalError::InvalidSamplingRate`] when `hz` is not finite or not above zero.
    pub fn new(hz: f64) -> Result<Self, SignalError> {
        if hz.is_finite() && hz > 0.0 {
            Ok(Self(hz))
        } else {
            Err(SignalError::InvalidSamplingRate(hz))
        }
    }

    /// The rate in hertz.
    pub fn hz(self) -> f64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_zero_negative_and_non_finite_rates() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(SamplingRate::new(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn keeps_a_valid_rate() {
        assert_eq!(SamplingRate::new(250.0).unwrap().hz(), 250.0);
    }
}
