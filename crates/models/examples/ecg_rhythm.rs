//! Trains, evaluates and times the ECG rhythm model on `$CARDIO_DATASETS/cinc2017`.
//!
//! ```text
//! cargo run --release -p cardio-models --example ecg_rhythm -- train   # write params, print report
//! cargo run --release -p cardio-models --example ecg_rhythm -- eval    # print report
//! cargo run --release -p cardio-models --example ecg_rhythm -- bench [N]  # ms per record, 1 thread
//! cargo run --release -p cardio-models --example ecg_rhythm -- quick   # plain CV, first setting only
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cardio_models::ecg_rhythm::{self, data};

fn main() -> ExitCode {
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS to the folder holding cinc2017/");
        return ExitCode::FAILURE;
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("train") => match ecg_rhythm::train(&root) {
            Ok((params, report)) => {
                let json = ecg_rhythm::params_json(&params);
                if let Err(e) = std::fs::write(ecg_rhythm::PARAMS_PATH, &json) {
                    eprintln!("cannot write {}: {e}", ecg_rhythm::PARAMS_PATH);
                    return ExitCode::FAILURE;
                }
                println!("{report}");
                println!("wrote {} ({} bytes)", ecg_rhythm::PARAMS_PATH, json.len());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Some("eval") => match ecg_rhythm::evaluate(&root) {
            Ok(report) => {
                println!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Some("quick") => match data::load(&root) {
            Ok(table) => {
                let cfg = ecg_rhythm::candidate_configs()[0].clone();
                println!("{}", ecg_rhythm::validation::evaluate_fixed(&table, &cfg));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Some("bench") => bench(
            &root,
            args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1000),
        ),
        _ => {
            eprintln!("usage: ecg_rhythm train|eval|quick|bench [N]");
            ExitCode::FAILURE
        }
    }
}

/// Reads the first `n` records into memory, then times `predict` (features + trees) on one thread.
fn bench(root: &std::path::Path, n: usize) -> ExitCode {
    let model = match ecg_rhythm::model() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let labels = match data::load_labels(root) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let recs: Vec<_> = labels
        .iter()
        .take(n)
        .filter_map(|l| {
            cardio_formats::read_path(&data::folder(root).join(format!("{}.hea", l.name))).ok()
        })
        .collect();
    let seconds: f64 = recs
        .iter()
        .map(cardio_formats::Recording::duration_seconds)
        .sum();
    // Warm-up, then the timed pass.
    for r in recs.iter().take(20) {
        let _ = model.predict(r);
    }
    let start = Instant::now();
    let mut ok = 0usize;
    for r in &recs {
        ok += usize::from(model.predict(r).is_ok());
    }
    let total = start.elapsed().as_secs_f64();
    let per = 1000.0 * total / recs.len().max(1) as f64;
    let per30 = 1000.0 * total / (seconds / 30.0).max(1e-9);
    println!(
        "{} records ({ok} predicted), {:.0} s of ECG: {per:.2} ms per record, {per30:.2} ms per 30 s of ECG, one thread ({:.0} records of 30 s per second per core)",
        recs.len(),
        seconds,
        1000.0 / per30
    );
    ExitCode::SUCCESS
}
