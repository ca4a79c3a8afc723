//! Trains or validates the PPG rhythm model (`cards/ppg.md`) without the CLI.
//!
//! `cargo run --release -p cardio-lab --example ppg_rhythm -- cv` prints the patient-grouped CV
//! only; `-- train` writes `params/ppg-rhythm.json` and prints the whole report; `-- bidmc` prints
//! the BIDMC check of the committed model (heart rate, labels, time per prediction). Datasets are
//! read from `$CARDIO_DATASETS`.

use std::path::PathBuf;
use std::process::ExitCode;

use cardio_lab::ppg_rhythm as ppg_lab;
use cardio_models::ppg_rhythm;

fn main() -> ExitCode {
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS to the folder holding ppg_arrhythmia_liu2022");
        return ExitCode::FAILURE;
    };
    let started = std::time::Instant::now();
    let result = match std::env::args().nth(1).as_deref() {
        Some("cv") => ppg_lab::load_rows(&root).and_then(|rows| {
            eprintln!("features: {:.1} s", started.elapsed().as_secs_f64());
            ppg_lab::validation::validate(&rows).map(|r| r.to_string())
        }),
        Some("train") => ppg_lab::train(&root).and_then(|(params, report)| {
            std::fs::write(ppg_rhythm::PARAMS_PATH, ppg_rhythm::params_json(&params))
                .map_err(|e| ppg_rhythm::PpgRhythmError::Data(e.to_string()))?;
            eprintln!("wrote {}", ppg_rhythm::PARAMS_PATH);
            Ok(report.to_string())
        }),
        Some("bidmc") => ppg_rhythm::model()
            .map_err(|e| ppg_rhythm::PpgRhythmError::Params(e.to_string()))
            .and_then(|m| ppg_lab::validation::bidmc(m, &root))
            .map(|b| format!("{b:#?}")),
        _ => {
            eprintln!("usage: ppg_rhythm cv|train|bidmc");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(text) => {
            println!("{text}");
            eprintln!("{:.1} s", started.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
