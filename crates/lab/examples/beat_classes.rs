//! Trains the N / S / V beat classifier of long ECGs on MIT-BIH DS1 (de Chazal et al. 2004) and
//! scores it on DS2, or scores the committed one.
//!
//! ```text
//! cargo run --release -p cardio-lab --example beat_classes -- train  # writes params/beat-classes.json
//! cargo run --release -p cardio-lab --example beat_classes -- cv     # 4-fold grouped CV inside DS1
//! cargo run --release -p cardio-lab --example beat_classes -- eval   # the committed model on DS2
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cardio_lab::beat_classes::{
    classify, load, score, train, train_with, Counts, RecordBeats, DS1, DS2, WEIGHT_POWER,
};
use cardio_models::ecg_rhythm::holter::classes::{classifier, Classifier};

fn records(dir: &Path, names: &[&str]) -> Result<Vec<RecordBeats>, String> {
    names
        .iter()
        .map(|n| load(dir, n).map_err(|e| e.to_string()))
        .collect()
}

fn report(label: &str, model: &Classifier, recs: &[&RecordBeats]) {
    let mut total = Counts::default();
    for r in recs {
        let c = score(&r.reference, &r.matches, &classify(model, r));
        for k in 0..3 {
            total.s[k] += c.s[k];
            total.v[k] += c.v[k];
        }
        println!("{label} {} S tp/fn/fp {:?} V {:?}", r.name, c.s, c.v);
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / (a + b).max(1) as f64;
    println!(
        "{label}: V Se {:.1} +P {:.1}; S Se {:.1} +P {:.1}",
        pct(total.v[0], total.v[1]),
        pct(total.v[0], total.v[2]),
        pct(total.s[0], total.s[1]),
        pct(total.s[0], total.s[2]),
    );
}

fn main() -> ExitCode {
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS to the unpacked datasets");
        return ExitCode::FAILURE;
    };
    let dir = root.join("mitdb");
    let mode = std::env::args().nth(1).unwrap_or_else(|| "eval".into());
    let run = || -> Result<(), String> {
        match mode.as_str() {
            "train" => {
                let ds1 = records(&dir, &DS1)?;
                let params = train(&ds1.iter().collect::<Vec<_>>());
                let mut json = serde_json::to_string(&params).map_err(|e| e.to_string())?;
                json.push('\n');
                let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../models/params/beat-classes.json");
                std::fs::write(&path, json).map_err(|e| e.to_string())?;
                eprintln!("wrote {}", path.display());
                let model = Classifier::new(params);
                report(
                    "DS2",
                    &model,
                    &records(&dir, &DS2)?.iter().collect::<Vec<_>>(),
                );
            }
            "cv" => {
                let ds1 = records(&dir, &DS1)?;
                for fold in 0..4 {
                    let test: Vec<&RecordBeats> = ds1
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i % 4 == fold)
                        .map(|(_, r)| r)
                        .collect();
                    let trainset: Vec<&RecordBeats> = ds1
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i % 4 != fold)
                        .map(|(_, r)| r)
                        .collect();
                    let power = std::env::args()
                        .nth(2)
                        .and_then(|p| p.parse().ok())
                        .unwrap_or(WEIGHT_POWER);
                    let model = Classifier::new(train_with(&trainset, power));
                    report(&format!("fold{fold}"), &model, &test);
                }
            }
            _ => {
                let model = classifier().ok_or("the committed parameters do not fit")?;
                report(
                    "DS2",
                    model,
                    &records(&dir, &DS2)?.iter().collect::<Vec<_>>(),
                );
            }
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
