//! # cardio-signal: pure digital signal processing for cardiac signals
//!
//! This crate holds the DSP that every analysis rests on: filter design and zero-phase filtering,
//! resampling, ECG cleaning and QRS detection, PPG peak detection, PCG envelope and S1/S2
//! segmentation, heart-rate variability and signal quality.
//!
//! It does no I/O and nothing async: slices of `f32`/`f64` samples go in, plain structs come out.
//! Reading files is the job of `cardio-formats`; models built on these features live in
//! `cardio-models`.
//!
//! The methods arrive with the signal-core issue; for now the crate offers the one type that every
//! caller needs, a validated sampling rate:
//!
//! ```
//! use cardio_signal::SamplingRate;
//!
//! let fs = SamplingRate::new(360.0).unwrap();
//! assert_eq!(fs.hz(), 360.0);
//! assert!(SamplingRate::new(0.0).is_err());
//! ```

/// Why a signal could not be processed.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SignalError {
    /// A sampling rate must be a finite number above zero.
    #[error("sampling rate must be a finite number above zero, got {0}")]
    InvalidSamplingRate(f64),
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
