//! The research side of the plausibility gate ([`cardio_models::gate`]): its examples (real
//! recordings of the public datasets against seeded non-heart signals) and the training and
//! grouped cross-validation behind `params/gate-<modality>.json` and the false-rejection and
//! false-acceptance rates of the model cards (`crates/models/cards/gate.md`).
//!
//! - [`data`]: the examples of one modality, as the gate's features.
//! - [`validation`]: the grouped 5-fold CV, the leave-one-kind-out check and the final fit.

pub mod data;
pub mod validation;
