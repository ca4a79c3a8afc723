//! # cardio-formats: every cardiac signal file read into one `Recording`
//!
//! Readers for WFDB, MATLAB v4/v5, EDF/EDF+/BDF, CSV/TXT, audio (WAV, FLAC, MP3, OGG), HL7 aECG and
//! ISHNE turn bytes into a [`Recording`]: channels with a name, a unit and samples in physical units,
//! a sampling rate, and the start time and metadata when the file has them. The format is detected
//! from the content first and the extension second. Readers never panic and never allocate without
//! bound on any input; they return a [`FormatError`] instead.
//!
//! The readers arrive with the signal-core issue; this module fixes the shape they fill:
//!
//! ```
//! use cardio_formats::{Channel, Recording};
//!
//! let rec = Recording {
//!     channels: vec![Channel { name: "II".into(), unit: "mV".into(), samples: vec![0.0, 0.1] }],
//!     sampling_rate_hz: 360.0,
//! };
//! assert_eq!(rec.duration_seconds(), 2.0 / 360.0);
//! ```

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The content matches no format this crate reads.
    #[error("unsupported file format: {0}")]
    Unsupported(String),
}

/// One signal channel in physical units.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// The channel's label as the file names it (e.g. "II", "PLETH").
    pub name: String,
    /// The physical unit of `samples` (e.g. "mV").
    pub unit: String,
    /// The samples, in `unit`.
    pub samples: Vec<f64>,
}

/// A recording: one or more channels sampled at one rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// The channels, all of the same rate.
    pub channels: Vec<Channel>,
    /// Samples per second of every channel.
    pub sampling_rate_hz: f64,
}

impl Recording {
    /// Length of the longest channel, in seconds.
    pub fn duration_seconds(&self) -> f64 {
        let longest = self
            .channels
            .iter()
            .map(|c| c.samples.len())
            .max()
            .unwrap_or(0);
        longest as f64 / self.sampling_rate_hz
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_recording_lasts_zero_seconds() {
        let rec = Recording {
            channels: vec![],
            sampling_rate_hz: 250.0,
        };
        assert_eq!(rec.duration_seconds(), 0.0);
    }
}
