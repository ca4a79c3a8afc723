//! The murmur model's cross-validation on CirCor (`cardio_lab::circor::murmur`), for development:
//! the same report as `cardio eval murmur`, with the features kept in a cache file between runs
//! (`--cache FILE`: read when it matches the recordings and feature names, else written);
//! `--write` also fits the committed parameters (`cardio train murmur` does the same);
//! `--first SECONDS` calls each held-out patient on the first seconds of every recording only (the
//! models fitted as always): what short clinic recordings would give; `--crops S1,S2` trains on
//! other first seconds of every recording beside the whole ones (`--crops none`: whole recordings
//! only; default `murmur::TRAIN_CROPS_S`, 2.5 and 4 s).
//!
//! ```text
//! CARDIO_DATASETS=... cargo run --release -p cardio-lab --example circor_murmur -- [--cache FILE] [--first S] [--crops S1,S2|none]
//! ```

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cardio_lab::circor::{self, murmur};
use cardio_models::murmur::features::feature_names;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let cache = args
        .iter()
        .position(|a| a == "--cache")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from);
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS");
        return ExitCode::FAILURE;
    };
    let dir = root.join(circor::FOLDER);
    let started = Instant::now();
    let names = feature_names();
    let data = match cache
        .as_ref()
        .and_then(|c| read_cache(c, &dir, names.len()))
    {
        Some(d) => d,
        None => match murmur::load_whole(&dir) {
            Ok(d) => {
                if let Some(c) = &cache {
                    write_cache(c, &d);
                }
                d
            }
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let crops: Vec<f64> = args
        .iter()
        .position(|a| a == "--crops")
        .and_then(|i| args.get(i + 1))
        .map_or(murmur::TRAIN_CROPS_S.to_vec(), |s| {
            s.split(',').filter_map(|v| v.parse().ok()).collect()
        });
    let data = match murmur::with_crops(data, &dir, &crops) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "features: {:.1} s ({} crops)",
        started.elapsed().as_secs_f64(),
        data.crops.len()
    );
    let t = Instant::now();
    let first: Option<f64> = args
        .iter()
        .position(|a| a == "--first")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok());
    let report = if let Some(seconds) = first {
        let short = match murmur::load_first(&dir, seconds) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        eprintln!("the first {seconds} s of every recording: features read");
        let (calls, folds) = murmur::cross_validate_on(&data, &short);
        murmur::report(&short, &calls, &folds)
    } else if args.iter().any(|a| a == "--write") {
        let (params, report) = murmur::train(&data);
        let path = cardio_models::murmur::PARAMS_PATH;
        if let Err(e) = std::fs::write(path, cardio_models::murmur::params_json(&params)) {
            eprintln!("cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
        eprintln!("wrote {path}");
        report
    } else {
        let (calls, folds) = murmur::cross_validate(&data);
        murmur::report(&data, &calls, &folds)
    };
    eprintln!("cv: {:.1} s", t.elapsed().as_secs_f64());
    println!("{}", murmur::table(&report));
    ExitCode::SUCCESS
}

/// The cache: one line per recording, `ok` and the values, or `err` and the reason.
fn write_cache(path: &PathBuf, d: &murmur::Data) {
    let mut s = String::new();
    for r in &d.recs {
        match &r.features {
            Ok(f) => {
                s.push_str("ok");
                for v in f {
                    let _ = write!(s, " {v:e}");
                }
            }
            Err(e) => {
                s.push_str("err ");
                s.push_str(&e.replace('\n', " "));
            }
        }
        s.push('\n');
    }
    if let Err(e) = std::fs::write(path, s) {
        eprintln!("cache not written: {e}");
    }
}

fn read_cache(path: &PathBuf, dir: &std::path::Path, n_features: usize) -> Option<murmur::Data> {
    let text = std::fs::read_to_string(path).ok()?;
    let patients = circor::read_patients(dir).ok()?;
    let groups = circor::group_keys(&patients);
    let refs: Vec<(usize, circor::Site)> = patients
        .iter()
        .enumerate()
        .flat_map(|(p, pat)| pat.recordings.iter().map(move |r| (p, r.site)))
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != refs.len() {
        return None;
    }
    let mut recs = Vec::new();
    for (line, (patient, site)) in lines.iter().zip(refs) {
        let features = if let Some(rest) = line.strip_prefix("ok") {
            let v: Vec<f64> = rest
                .split_whitespace()
                .map(|x| x.parse().unwrap_or(f64::NAN))
                .collect();
            if v.len() != n_features {
                return None;
            }
            Ok(v)
        } else {
            Err(line.trim_start_matches("err ").to_string())
        };
        recs.push(murmur::Rec {
            patient,
            site,
            features,
        });
    }
    Some(murmur::Data {
        patients,
        groups,
        recs,
        crops: Vec::new(),
    })
}
