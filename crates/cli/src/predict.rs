//! `cardio predict ecg|pcg|ppg FILE... [--sampling-rate HZ] [--format csv|json] [--jobs N]`: batch
//! predictions with the same models the server serves, files read and scored in parallel.
//!
//! The CSV output is exactly `file,label,prediction,confidence,risk_score`, one row per file in the
//! order given. A file that cannot be read or judged gets a row with an empty label and its error
//! on stderr; the others continue, and the exit status is 1.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
};

use anyhow::anyhow;
use cardio_formats::{FormatError, ReadOptions, Recording};
use cardio_models::prediction::Prediction;
use cardio_server::recordings::registry::{ModelRegistry, SignalModel};
use clap::{Args, ValueEnum};

/// Flags of `cardio predict ecg|pcg|ppg`.
#[derive(Args)]
pub struct PredictSignalArgs {
    /// Recordings to score (a WFDB record is given by its .hea).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Sampling rate of bare value files (CSV/TXT without a time column).
    #[arg(long)]
    sampling_rate: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    format: Format,
    /// Files scored at once [default: the number of CPUs].
    #[arg(long)]
    jobs: Option<usize>,
}

/// Output format of `cardio predict`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `file,label,prediction,confidence,risk_score`.
    Csv,
    /// One JSON array of full results.
    Json,
}

/// Which signal model.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// ECG rhythm.
    Ecg,
    /// Heart sounds.
    Pcg,
    /// Pulse.
    Ppg,
}

/// The model of `kind`, loaded as the server loads it.
fn model(kind: Kind) -> anyhow::Result<Arc<dyn SignalModel>> {
    let registry = ModelRegistry::load();
    let loaded = match kind {
        Kind::Ecg => registry.ecg,
        Kind::Pcg => registry.pcg,
        Kind::Ppg => registry.ppg,
    };
    loaded.map_err(|e| anyhow!("model not loaded: {e}"))
}

/// Reads a recording file; a file whose rate cannot be known is told which flag gives it.
///
/// # Errors
/// The reader's error.
pub fn read_recording(path: &Path, options: &ReadOptions) -> anyhow::Result<Recording> {
    cardio_formats::read_path_with(path, options).map_err(|err| match err {
        FormatError::NoSamplingRate(_) => anyhow!("{err}: pass --sampling-rate"),
        other => other.into(),
    })
}

/// Reads and scores one file.
pub fn predict_file(
    model: &dyn SignalModel,
    path: &Path,
    options: &ReadOptions,
) -> anyhow::Result<Prediction> {
    let recording = read_recording(path, options)?;
    Ok(model.predict(&recording)?)
}

/// Scores `files` on `jobs` threads; results in input order.
pub fn predict_all(
    model: &dyn SignalModel,
    files: &[PathBuf],
    options: &ReadOptions,
    jobs: usize,
) -> Vec<anyhow::Result<Prediction>> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, anyhow::Result<Prediction>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.clamp(1, files.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = files.get(i) else { break };
                        done.push((i, predict_file(model, path, options)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Runs `cardio predict ecg|pcg|ppg`; `Ok(false)` when some file failed.
pub fn run(kind: Kind, args: &PredictSignalArgs) -> anyhow::Result<bool> {
    let model = model(kind)?;
    let options = ReadOptions {
        sampling_rate_hz: args.sampling_rate,
    };
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let results = predict_all(model.as_ref(), &args.files, &options, jobs);
    let mut all_ok = true;
    let mut out = String::new();
    let mut json = Vec::new();
    if args.format == Format::Csv {
        out.push_str("file,label,prediction,confidence,risk_score\n");
    }
    for (path, result) in args.files.iter().zip(results) {
        let name = path.display().to_string();
        match result {
            Ok(p) => match args.format {
                Format::Csv => {
                    let _ = writeln!(
                        out,
                        "{},{},{},{:.4},{:.4}",
                        csv_field(&name),
                        p.label,
                        csv_field(&p.prediction),
                        p.confidence,
                        p.risk_score
                    );
                }
                Format::Json => json.push(serde_json::json!({
                    "file": name,
                    "label": p.label,
                    "prediction": p.prediction,
                    "confidence": p.confidence,
                    "risk_score": p.risk_score,
                    "recommendations": p.recommendations,
                    "details": p.details,
                })),
            },
            Err(err) => {
                all_ok = false;
                eprintln!("{name}: {err:#}");
                match args.format {
                    Format::Csv => {
                        let _ = writeln!(out, "{},,,,", csv_field(&name));
                    }
                    Format::Json => json.push(serde_json::json!({
                        "file": name,
                        "label": "",
                        "error": format!("{err:#}"),
                    })),
                }
            }
        }
    }
    if args.format == Format::Json {
        out = serde_json::to_string_pretty(&json)?;
        out.push('\n');
    }
    print!("{out}");
    Ok(all_ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("Normal sinus rhythm"), "Normal sinus rhythm");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
