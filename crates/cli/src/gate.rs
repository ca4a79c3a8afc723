//! `cardio train gate` and `cardio eval gate`: the plausibility gates that stand in front of the
//! ECG, PCG and PPG models (`cardio_models::gate`; trained and validated by `cardio_lab::gate`).
//! Training rewrites `crates/models/params/gate-<modality>.json` from real recordings of
//! `$CARDIO_DATASETS` and seeded non-heart signals (deterministic); evaluation prints the
//! cross-validated false-rejection and false-acceptance rates the model cards report, as tables or
//! (`--format json`) one JSON object.

use std::path::PathBuf;

use anyhow::Context;
use cardio_lab::gate::{data, validation};
use cardio_models::gate::{self, GateModality};
use clap::{Args, ValueEnum};

use crate::datasets::default_root;

/// Which gate.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Which {
    /// The ECG gate.
    Ecg,
    /// The heart-sound gate.
    Pcg,
    /// The pulse gate.
    Ppg,
}

impl From<Which> for GateModality {
    fn from(w: Which) -> Self {
        match w {
            Which::Ecg => Self::Ecg,
            Which::Pcg => Self::Pcg,
            Which::Ppg => Self::Ppg,
        }
    }
}

/// Output of `cardio eval gate`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The model cards' tables.
    Table,
    /// One JSON object, a report per modality.
    Json,
}

/// Flags of `cardio train gate` and `cardio eval gate`.
#[derive(Args)]
pub struct GateArgs {
    /// Folder of the unpacked datasets [default: $CARDIO_DATASETS, else ~/.cache/cardio-datasets].
    #[arg(long)]
    datasets: Option<PathBuf>,
    /// Only these modalities (comma-separated) [default: all three].
    #[arg(long, value_enum, value_delimiter = ',')]
    modality: Vec<Which>,
    /// Output format (eval only).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

fn modalities(args: &GateArgs) -> Vec<GateModality> {
    if args.modality.is_empty() {
        GateModality::ALL.to_vec()
    } else {
        args.modality.iter().map(|w| (*w).into()).collect()
    }
}

/// Runs `cardio train gate`: validates, refits and rewrites each gate's parameters.
pub fn train(args: &GateArgs) -> anyhow::Result<()> {
    let root = args.datasets.clone().unwrap_or_else(default_root);
    for m in modalities(args) {
        let examples =
            data::load(&root, m).with_context(|| format!("loading the {} examples", m.code()))?;
        let (params, report) = validation::train(&examples, m);
        let mut json = serde_json::to_string_pretty(&params)?;
        json.push('\n');
        let out = gate::params_path(m);
        std::fs::write(&out, json).with_context(|| format!("cannot write {}", out.display()))?;
        println!("{}", report.table());
        println!("wrote {}", out.display());
    }
    Ok(())
}

/// Runs `cardio eval gate`.
pub fn eval(args: &GateArgs) -> anyhow::Result<bool> {
    let root = args.datasets.clone().unwrap_or_else(default_root);
    let mut all = serde_json::Map::new();
    for m in modalities(args) {
        let examples =
            data::load(&root, m).with_context(|| format!("loading the {} examples", m.code()))?;
        let report = validation::validate(&examples, m);
        match args.format {
            Format::Table => println!("{}", report.table()),
            Format::Json => {
                all.insert(m.code().into(), serde_json::to_value(&report)?);
            }
        }
    }
    if args.format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    Ok(true)
}
