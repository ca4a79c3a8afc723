//! Trains or evaluates the heart-sound model on `$CARDIO_DATASETS/cinc2016` and times predictions.
//!
//! ```text
//! cargo run --release -p cardio-lab --example pcg_model -- train   # writes params, prints report
//! cargo run --release -p cardio-lab --example pcg_model -- eval    # prints the report
//! cargo run --release -p cardio-lab --example pcg_model -- time    # ms per 30-s recording
//! cargo run --release -p cardio-lab --example pcg_model -- sites   # site-shift experiments
//! cargo run --release -p cardio-lab --example pcg_model -- seventh-site  # CirCor as a 7th site
//! cargo run --release -p cardio-lab --example pcg_model -- dump DIR  # the network's training input
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cardio_formats::{Channel, Recording};
use cardio_lab::pcg_model as pcg_lab;
use cardio_models::pcg_model;
use cardio_signal::resample::Resampler;

/// Mean milliseconds per prediction of 30-s recordings of the first sites, at 1 kHz and at 44.1 kHz.
fn time(root: &std::path::Path) -> Result<(), String> {
    let model = pcg_model::model().map_err(|e| e.to_string())?;
    let records = pcg_lab::data::load(root).map_err(|e| e.to_string())?;
    let mut clips = Vec::new();
    for r in &records {
        let rec = cardio_formats::read_path(&r.path).map_err(|e| e.to_string())?;
        let x = &rec.channels[0].samples;
        if x.len() >= 30_000 {
            clips.push(x[..30_000].to_vec());
        }
        if clips.len() == 50 {
            break;
        }
    }
    let up = Resampler::new(441, 10).map_err(|e| e.to_string())?;
    for (rate, label) in [(1000.0, "1 kHz"), (44_100.0, "44.1 kHz")] {
        let recs: Vec<Recording> = clips
            .iter()
            .map(|x| Recording {
                channels: vec![Channel {
                    name: "pcg".into(),
                    unit: String::new(),
                    samples: if rate > 1000.0 {
                        up.process(x)
                    } else {
                        x.clone()
                    },
                }],
                sampling_rate_hz: rate,
                start: None,
                metadata: std::collections::BTreeMap::new(),
                device_interpretation: None,
            })
            .collect();
        let start = Instant::now();
        let mut labels = std::collections::BTreeMap::new();
        for rec in &recs {
            let p = model.predict(rec).map_err(|e| e.to_string())?;
            *labels.entry(p.label).or_insert(0) += 1;
        }
        let ms = start.elapsed().as_secs_f64() * 1000.0 / recs.len().max(1) as f64;
        println!(
            "{} recordings of 30 s at {label}: {ms:.1} ms per recording (one thread); labels {labels:?}",
            recs.len()
        );
    }
    // A 10-minute recording is cut to the analysed maximum.
    let long: Vec<f64> = clips.iter().take(20).flatten().copied().collect();
    let rec = Recording {
        channels: vec![Channel {
            name: "pcg".into(),
            unit: String::new(),
            samples: long,
        }],
        sampling_rate_hz: 1000.0,
        start: None,
        metadata: std::collections::BTreeMap::new(),
        device_interpretation: None,
    };
    let start = Instant::now();
    let p = model.predict(&rec).map_err(|e| e.to_string())?;
    println!(
        "one {:.0}-s recording at 1 kHz: {:.1} ms ({})",
        rec.duration_seconds(),
        start.elapsed().as_secs_f64() * 1000.0,
        p.label
    );
    Ok(())
}

/// The trees' leave-one-site-out trained with CirCor DigiScope as a seventh site: its recordings of
/// patients with a murmur at the sites where it is heard as abnormal, those of patients without one
/// as normal (the labelling of the cross-dataset check, `circor_cinc_model`), the recordings the
/// heart-sound model cannot judge left out.
fn seventh_site(root: &std::path::Path) -> Result<(), String> {
    let data = pcg_lab::dataset(root).map_err(|e| e.to_string())?;
    let circor = cardio_lab::circor::murmur::load_whole(&root.join(cardio_lab::circor::FOLDER))
        .map_err(|e| e.to_string())?;
    let width = pcg_model::features::feature_names().len();
    let present = cardio_models::murmur::decision::Verdict::Present.index();
    let absent = cardio_models::murmur::decision::Verdict::Absent.index();
    let extra: Vec<(Vec<f64>, bool)> = circor
        .recs
        .iter()
        .filter_map(|r| {
            let f = r.features.as_ref().ok()?;
            let label =
                cardio_lab::circor::murmur::presence_label(&circor.patients[r.patient], r.site)?;
            (label == present || label == absent).then(|| (f[..width].to_vec(), label == present))
        })
        .collect();
    println!("{}", pcg_lab::sites::with_seventh_site(&data, &extra));
    Ok(())
}

fn main() -> ExitCode {
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        eprintln!("set CARDIO_DATASETS to the datasets folder");
        return ExitCode::FAILURE;
    };
    let mode = std::env::args().nth(1).unwrap_or_else(|| "eval".into());
    let result = match mode.as_str() {
        "train" => pcg_lab::train(&root)
            .map_err(|e| e.to_string())
            .and_then(|(params, report)| {
                std::fs::write(pcg_model::PARAMS_PATH, pcg_model::params_json(&params))
                    .map_err(|e| e.to_string())?;
                println!("{report}");
                println!("wrote {}", pcg_model::PARAMS_PATH);
                Ok(())
            }),
        "eval" => pcg_lab::evaluate(&root)
            .map(|report| println!("{report}"))
            .map_err(|e| e.to_string()),
        "time" => time(&root),
        "seventh-site" => seventh_site(&root),
        "sites" => pcg_lab::dataset(&root)
            .map(|data| println!("{}", pcg_lab::sites::experiment(&data)))
            .map_err(|e| e.to_string()),
        "dump" => std::env::args()
            .nth(2)
            .ok_or_else(|| "dump needs an output folder".to_string())
            .and_then(|dir| {
                let records = pcg_lab::data::load(&root).map_err(|e| e.to_string())?;
                pcg_lab::spectra::dump(&records, std::path::Path::new(&dir))
                    .map_err(|e| e.to_string())
            }),
        other => Err(format!(
            "unknown mode {other}; use train, eval, time, sites, seventh-site or dump DIR"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
