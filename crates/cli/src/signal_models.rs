//! `cardio train ecg|pcg|ppg` and `cardio eval ecg|pcg|ppg`: refit a signal model's committed
//! parameters from `$CARDIO_DATASETS` (deterministic: fixed seeds, constant training date) and print
//! its model card's validation table (`--format json`: the whole report as JSON). The work is
//! `cardio_lab`'s; the parameters' format and path are `cardio_models`'.

use std::path::{Path, PathBuf};

use anyhow::Context;
use cardio_lab::{ecg_rhythm as ecg_lab, pcg_model as pcg_lab, ppg_rhythm as ppg_lab};
use cardio_models::{ecg_rhythm, pcg_model, ppg_rhythm};
use clap::Args;

use crate::datasets::default_root;
use crate::gate::Format;

/// Flags of `cardio train ecg|pcg|ppg`.
#[derive(Args)]
pub struct TrainSignalArgs {
    /// Folder of the unpacked datasets [default: $CARDIO_DATASETS, else ~/.cache/cardio-datasets].
    #[arg(long)]
    datasets: Option<PathBuf>,
    /// Where to write the parameters [default: the model's file under crates/models/params/].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Flags of `cardio eval ecg|pcg|ppg`.
#[derive(Args)]
pub struct EvalSignalArgs {
    /// Folder of the unpacked datasets [default: $CARDIO_DATASETS, else ~/.cache/cardio-datasets].
    #[arg(long)]
    datasets: Option<PathBuf>,
    /// Output format: the model card's tables, or the whole report as one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

/// Which signal model.
#[derive(Clone, Copy)]
pub enum SignalModel {
    /// `ecg-rhythm-gbdt`.
    Ecg,
    /// `pcg-gbdt`.
    Pcg,
    /// `ppg-rhythm-gbdt`.
    Ppg,
}

type Trained = (String, String);

fn train_model(model: SignalModel, root: &Path) -> anyhow::Result<Trained> {
    Ok(match model {
        SignalModel::Ecg => {
            let (params, report) = ecg_lab::train(root).context("training the ECG model")?;
            (ecg_rhythm::params_json(&params), report.to_string())
        }
        SignalModel::Pcg => {
            let (params, report) = pcg_lab::train(root).context("training the PCG model")?;
            (pcg_model::params_json(&params), report.to_string())
        }
        SignalModel::Ppg => {
            let (params, report) = ppg_lab::train(root).context("training the PPG model")?;
            (ppg_rhythm::params_json(&params), report.to_string())
        }
    })
}

/// The report as the card's tables or as JSON.
fn render<R: std::fmt::Display + serde::Serialize>(
    report: &R,
    format: Format,
) -> anyhow::Result<String> {
    Ok(match format {
        Format::Table => report.to_string(),
        Format::Json => serde_json::to_string_pretty(report)?,
    })
}

fn eval_model(model: SignalModel, root: &Path, format: Format) -> anyhow::Result<String> {
    match model {
        SignalModel::Ecg => render(
            &ecg_lab::evaluate(root).context("validating the ECG model")?,
            format,
        ),
        SignalModel::Pcg => render(
            &pcg_lab::evaluate(root).context("validating the PCG model")?,
            format,
        ),
        SignalModel::Ppg => render(
            &ppg_lab::evaluate(root).context("validating the PPG model")?,
            format,
        ),
    }
}

fn params_path(model: SignalModel) -> &'static str {
    match model {
        SignalModel::Ecg => ecg_rhythm::PARAMS_PATH,
        SignalModel::Pcg => pcg_model::PARAMS_PATH,
        SignalModel::Ppg => ppg_rhythm::PARAMS_PATH,
    }
}

/// Runs `cardio train <model>`.
pub fn train(model: SignalModel, args: &TrainSignalArgs) -> anyhow::Result<()> {
    let root = args.datasets.clone().unwrap_or_else(default_root);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(params_path(model)));
    let (json, table) = train_model(model, &root)?;
    std::fs::write(&out, json).with_context(|| format!("cannot write {}", out.display()))?;
    println!("{table}");
    println!("wrote {}", out.display());
    Ok(())
}

/// Runs `cardio eval <model>`.
pub fn eval(model: SignalModel, args: &EvalSignalArgs) -> anyhow::Result<bool> {
    let root = args.datasets.clone().unwrap_or_else(default_root);
    println!("{}", eval_model(model, &root, args.format)?);
    Ok(true)
}
