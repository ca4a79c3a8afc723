//! `cardio train <model>`: refits a model's committed parameters from `$CARDIO_DATASETS` (each
//! model's own module does the work; this one only dispatches).

use clap::{Args, Subcommand};

use crate::signal_models::{self, SignalModel};

/// Flags of `cardio train`.
#[derive(Args)]
pub struct TrainArgs {
    #[command(subcommand)]
    model: TrainModel,
}

#[derive(Subcommand)]
enum TrainModel {
    /// Refit the clinical model on UCI Cleveland and rewrite its committed parameters.
    Clinical(crate::clinical::TrainClinicalArgs),
    /// Refit the ECG rhythm model on CinC 2017 and rewrite its committed parameters.
    Ecg(crate::signal_models::TrainSignalArgs),
    /// Refit the heart-sound model on CinC 2016 and rewrite its committed parameters.
    Pcg(crate::signal_models::TrainSignalArgs),
    /// Refit the PPG rhythm model on CinC 2017 and MIT-BIH intervals and rewrite its parameters.
    Ppg(crate::signal_models::TrainSignalArgs),
    /// Refit the murmur model on CirCor and rewrite its committed parameters.
    Murmur(crate::murmur::TrainMurmurArgs),
    /// Refit the plausibility gates (real recordings against seeded non-heart signals).
    Gate(crate::gate::GateArgs),
}

/// Runs `cardio train ...`.
pub fn run(args: &TrainArgs) -> anyhow::Result<()> {
    match &args.model {
        TrainModel::Clinical(args) => crate::clinical::train(args),
        TrainModel::Ecg(args) => signal_models::train(SignalModel::Ecg, args),
        TrainModel::Pcg(args) => signal_models::train(SignalModel::Pcg, args),
        TrainModel::Ppg(args) => signal_models::train(SignalModel::Ppg, args),
        TrainModel::Murmur(args) => crate::murmur::train(args),
        TrainModel::Gate(args) => crate::gate::train(args),
    }
}
