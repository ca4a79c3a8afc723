//! # cardio-models: validated screening models
//!
//! Features built on `cardio-signal`, the trained parameters (committed, small, versioned),
//! inference, training and evaluation code, and a model card per model under `cards/`.
//! Everything here is deterministic: fixed seeds, no hidden state.
//!
//! [`analysis`] runs the signal pipeline of `cardio-signal` over a recording read by
//! `cardio-formats` (what `cardio analyze` prints). [`eval`] validates that pipeline against public
//! reference datasets (what `cardio eval signal` prints). [`clinical`] is the clinical risk model
//! (`cardio train|eval|predict clinical`, card `cards/clinical.md`). [`ecg_rhythm`] classifies the
//! rhythm of one ECG lead as normal, AF, other or noisy (card `cards/ecg-rhythm.md`); [`pcg_model`]
//! classifies heart sounds as normal, abnormal or unsure (card `cards/pcg.md`); [`ppg_rhythm`] gives
//! heart rate, signal quality and rhythm from a pulse recording (card `cards/ppg.md`). [`gbdt`] is
//! the gradient boosting they share, [`prediction`] their common result, [`waveform`] what the
//! viewers draw of a recording. [`Modality`] names what a
//! model can
//! serve:
//!
//! ```
//! use cardio_models::Modality;
//!
//! assert_eq!(Modality::Ecg.label(), "ECG");
//! ```

pub mod analysis;
pub mod clinical;
pub mod ecg_lead;
pub mod ecg_rhythm;
pub mod eval;
pub mod gate;
pub mod gbdt;
pub mod pcg_model;
pub mod ppg_rhythm;
pub mod prediction;
pub mod waveform;

/// The kinds of input a screening model reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modality {
    /// The seven clinical parameters of the intake form.
    Clinical,
    /// Electrocardiogram.
    Ecg,
    /// Phonocardiogram (heart sounds).
    Pcg,
    /// Photoplethysmogram (pulse).
    Ppg,
}

impl Modality {
    /// The label the user interface shows for the modality.
    pub fn label(self) -> &'static str {
        match self {
            Self::Clinical => "Clinical",
            Self::Ecg => "ECG",
            Self::Pcg => "PCG",
            Self::Ppg => "PPG",
        }
    }
}
