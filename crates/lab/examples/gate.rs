//! Trains or evaluates the plausibility gates on `$CARDIO_DATASETS` and seeded non-heart signals.
//!
//! ```text
//! cargo run --release -p cardio-lab --example gate -- train [ecg|pcg|ppg]  # writes params, prints report
//! cargo run --release -p cardio-lab --example gate -- eval [ecg|pcg|ppg]   # prints the report
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use cardio_lab::gate::{data, validation};
use cardio_models::gate::{self, GateModality};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS to the unpacked datasets");
        return ExitCode::FAILURE;
    };
    let mode = args.first().map_or("eval", String::as_str);
    let which: Vec<GateModality> = match args.get(1).map(String::as_str) {
        Some("ecg") => vec![GateModality::Ecg],
        Some("pcg") => vec![GateModality::Pcg],
        Some("ppg") => vec![GateModality::Ppg],
        _ => GateModality::ALL.to_vec(),
    };
    for m in which {
        let t = std::time::Instant::now();
        let examples = match data::load(&root, m) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        eprintln!(
            "{}: {} examples measured in {:.0} s",
            m.code(),
            examples.len(),
            t.elapsed().as_secs_f64()
        );
        if mode == "train" {
            let (params, report) = validation::train(&examples, m);
            let mut json = serde_json::to_string_pretty(&params).unwrap_or_default();
            json.push('\n');
            if let Err(e) = std::fs::write(gate::params_path(m), json) {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
            print!("{}", report.table());
        } else {
            print!("{}", validation::validate(&examples, m).table());
        }
    }
    ExitCode::SUCCESS
}
