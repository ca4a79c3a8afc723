//! # cardio-lab: what does not ship
//!
//! The research code behind the models of `cardio-models`: the dataset loaders (public datasets
//! unpacked under `$CARDIO_DATASETS`), the training that writes the committed parameters under
//! `crates/models/params/`, the validation that produces every figure of the model cards
//! (`crates/models/cards/`: folds, bootstrap CIs, metrics, all seeded with the one generator
//! [`cardio_models::rng::SplitMix64`]) and their reports. `cardio train|eval` use it; the server
//! never links it, so nothing here runs in the product.
//!
//! One module per model, mirroring `cardio-models`: [`ecg_rhythm`], [`pcg_model`], [`ppg_rhythm`],
//! [`gate`] and [`clinical`]; each has a `train` and an `evaluate` (or `validation::validate`)
//! entry point. [`eval`] validates the signal core of `cardio-signal` on public reference data
//! (what `cardio eval signal` prints). [`gbdt`] fits the boosted trees the models ship; [`resample`] holds the folds, bootstrap
//! draws and percentiles every validation uses. Everything is deterministic: fixed seeds, constant training
//! dates.

pub mod beat_classes;
pub mod circor;
pub mod clinical;
pub mod ecg12;
pub mod ecg_rhythm;
pub mod eval;
pub mod gate;
pub mod gbdt;
pub mod ludb;
pub mod parallel;
pub mod pcg_model;
pub mod ppg_rhythm;
pub mod resample;
