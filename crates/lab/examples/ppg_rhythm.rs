//! Trains or evaluates the PPG rhythm model (`cards/ppg.md`).
//!
//! `cargo run --release -p cardio-lab --example ppg_rhythm -- train` writes
//! `params/ppg-rhythm.json` and prints the validation report; `-- eval` prints the report of the
//! committed model; `-- bidmc` prints only its BIDMC part. Datasets are read from
//! `$CARDIO_DATASETS`.

use std::path::PathBuf;
use std::process::ExitCode;

use cardio_lab::ppg_rhythm as ppg_lab;
use cardio_models::ppg_rhythm;

fn main() -> ExitCode {
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS to the folder holding cinc2017, mitdb and bidmc");
        return ExitCode::FAILURE;
    };
    let started = std::time::Instant::now();
    let result = match std::env::args().nth(1).as_deref() {
        Some("train") => ppg_lab::train(&root).and_then(|(params, report)| {
            std::fs::write(ppg_rhythm::PARAMS_PATH, ppg_rhythm::params_json(&params))
                .map_err(|e| ppg_rhythm::PpgRhythmError::Data(e.to_string()))?;
            eprintln!("wrote {}", ppg_rhythm::PARAMS_PATH);
            Ok(report)
        }),
        Some("eval") => ppg_lab::evaluate(&root),
        Some("bidmc") => ppg_rhythm::model()
            .map_err(|e| ppg_rhythm::PpgRhythmError::Params(e.to_string()))
            .and_then(|m| ppg_lab::validation::bidmc(m, &root))
            .map(|b| ppg_lab::Report {
                bidmc: Some(b),
                ..ppg_lab::Report::default()
            }),
        _ => {
            eprintln!("usage: ppg_rhythm train|eval|bidmc");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(report) => {
            println!("{report}");
            eprintln!("done in {:.1} s", started.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
