//! Trains, evaluates and times the ECG rhythm model on `$CARDIO_DATASETS/cinc2017`.
//!
//! ```text
//! cargo run --release -p cardio-lab --example ecg_rhythm -- train   # write params, print report
//! cargo run --release -p cardio-lab --example ecg_rhythm -- eval    # print report
//! cargo run --release -p cardio-lab --example ecg_rhythm -- bench [N]  # ms per record, 1 thread
//! cargo run --release -p cardio-lab --example ecg_rhythm -- quick   # plain CV, first setting only
//! cargo run --release -p cardio-lab --example ecg_rhythm -- external  # MIT-BIH 60-s windows
//! cargo run --release -p cardio-lab --example ecg_rhythm -- bench-file PATH  # one file
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cardio_lab::ecg_rhythm::{self as ecg_lab, data};
use cardio_models::ecg_rhythm;

fn main() -> ExitCode {
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS to the folder holding cinc2017/");
        return ExitCode::FAILURE;
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("train") => match ecg_lab::train(&root) {
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
        Some("eval") => match ecg_lab::evaluate(&root) {
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
                let cfg = ecg_lab::candidate_configs()[0].clone();
                println!("{}", ecg_lab::validation::evaluate_fixed(&table, &cfg));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Some("external") => match ecg_rhythm::model()
            .map_err(|e| e.to_string())
            .and_then(|m| ecg_lab::external::mitdb(&root, m).map_err(|e| e.to_string()))
        {
            Ok(r) => {
                println!("{r}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Some("bench-file") => args.get(1).map_or_else(
            || {
                eprintln!("usage: ecg_rhythm bench-file PATH");
                ExitCode::FAILURE
            },
            |path| bench_file(std::path::Path::new(path)),
        ),
        Some("bench") => bench(
            &root,
            args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1000),
        ),
        _ => {
            eprintln!("usage: ecg_rhythm train|eval|external|quick|bench [N]|bench-file PATH");
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

/// Reads one file, then times `predict` on it (median of 21 runs) and prints the result.
fn bench_file(path: &std::path::Path) -> ExitCode {
    let model = match ecg_rhythm::model() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let rec = match cardio_formats::read_path(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..21 {
        let start = Instant::now();
        last = Some(model.predict(&rec));
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_unstable_by(f64::total_cmp);
    println!(
        "{}: {:.0} s at {} Hz, {} channels; predict median {:.2} ms",
        path.display(),
        rec.duration_seconds(),
        rec.sampling_rate_hz,
        rec.channels.len(),
        times[times.len() / 2]
    );
    match last {
        Some(Ok(p)) => println!(
            "{} ({}), confidence {:.2}, channel {}",
            p.prediction, p.label, p.confidence, p.details["channel"]
        ),
        Some(Err(e)) => println!("{e}"),
        None => {}
    }
    ExitCode::SUCCESS
}
