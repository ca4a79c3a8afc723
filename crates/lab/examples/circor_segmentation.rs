//! How well `cardio_signal::pcg::segment` finds the S1 and S2 the CirCor DigiScope experts
//! annotated: per sound, Se, +P and F1 pooled over recordings and averaged over them, with 95 %
//! bootstrap CIs over children, the recordings that could not be scored and why, and the run time
//! ([`cardio_lab::circor::segmentation::evaluate`]).
//!
//! ```text
//! cargo run --release -p cardio-lab --example circor_segmentation                  # whole set
//! cargo run --release -p cardio-lab --example circor_segmentation -- DIR --format json
//! ```
//!
//! `DIR` defaults to `$CARDIO_DATASETS/circor/training_data`.

use std::path::PathBuf;
use std::process::ExitCode;

use cardio_lab::circor;

const USAGE: &str = "usage: circor_segmentation [DIR] [--format table|json]";

fn main() -> ExitCode {
    let mut dir: Option<PathBuf> = None;
    let mut json = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => match args.next().as_deref() {
                Some("json") => json = true,
                Some("table") => json = false,
                _ => {
                    eprintln!("{USAGE}");
                    return ExitCode::FAILURE;
                }
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if dir.is_none() && !arg.starts_with('-') => dir = Some(PathBuf::from(arg)),
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::FAILURE;
            }
        }
    }
    let Some(dir) = dir.or_else(|| {
        std::env::var_os("CARDIO_DATASETS").map(|root| PathBuf::from(root).join(circor::FOLDER))
    }) else {
        eprintln!("set CARDIO_DATASETS to the datasets folder, or name a folder\n{USAGE}");
        return ExitCode::FAILURE;
    };
    match circor::segmentation::evaluate(&dir) {
        Ok(report) if json => match serde_json::to_string_pretty(&report) {
            Ok(text) => {
                println!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
