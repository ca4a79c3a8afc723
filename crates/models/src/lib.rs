//! # cardio-models: validated screening models, what ships
//!
//! Features built on `cardio-signal`, the trained parameters (committed, small, versioned, compiled
//! in), inference, the plausibility gate in front of the signal models, and a model card per model
//! under `cards/`. Deterministic, and no training code: the dataset loaders, the training that
//! writes `params/` and the validation behind every figure of the cards are in `cardio-lab`, which
//! the server never links.
//!
//! [`analysis`] runs the signal pipeline of `cardio-signal` over a recording read by
//! `cardio-formats` (what `cardio analyze` prints). [`clinical`] is the clinical risk model (card
//! `cards/clinical.md`). [`ecg_rhythm`] classifies the rhythm of one ECG lead as normal, AF, other
//! or noisy (card `cards/ecg-rhythm.md`); [`pcg_model`] classifies heart sounds as normal, abnormal
//! or unsure (card `cards/pcg.md`); [`ppg_rhythm`] gives heart rate, signal quality and rhythm from
//! a pulse recording (card `cards/ppg.md`); [`gate`] judges whether a recording is a plausible
//! heart signal at all (card `cards/gate.md`). [`gbdt`] is the gradient boosting they share,
//! [`prediction`] their common result, [`waveform`] what the viewers draw of a recording, [`rng`]
//! the one seeded generator. [`Modality`] names what a model can serve:
//!
//! ```
//! use cardio_models::Modality;
//!
//! assert_eq!(Modality::Ecg.label(), "ECG");
//! ```

pub mod accel;
pub mod analysis;
pub mod catalogue;
pub mod clinical;
pub mod consistency;
pub mod conv1d;
pub mod ecg12;
pub mod ecg_lead;
pub mod ecg_rhythm;
pub mod gate;
pub mod gbdt;
pub mod murmur;
pub mod pcg_model;
pub mod ppg_rhythm;
pub mod prediction;
pub mod rng;
pub mod spectrum;
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
