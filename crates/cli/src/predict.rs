//! `cardio predict ecg|pcg|ppg FILE... [--sampling-rate HZ] [--format csv|json] [--jobs N]
//! [--shard K/N]`: batch predictions with the same models the server serves, files read and scored
//! in parallel.
//!
//! The CSV output is exactly `file,label,prediction,confidence,risk_score`, one row per file in the
//! order given. A file that cannot be read or judged gets a row with an empty label and its error
//! on stderr; the others continue, and the exit status is 1.
//!
//! Inputs are paths or `s3://` objects and prefixes ([`crate::inputs`]). `--shard K/N` scores only
//! the K-th of N consecutive, near-equal blocks of the inputs (in the order given, a prefix's
//! recordings in key order), with the CSV header on shard 0 only: N machines (a Slurm array job, a Kubernetes indexed
//! Job) each run one shard with no coordinator, and the shards' outputs concatenated in K order are
//! byte for byte the output of one run.

use std::{
    fmt::Write as _,
    path::PathBuf,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
};

use anyhow::anyhow;
use cardio_formats::ReadOptions;
use cardio_models::{ecg_rhythm, prediction::Prediction};
use cardio_server::recordings::registry::{ModelRegistry, SignalModel};

use crate::inputs::Input;
use clap::{Args, ValueEnum};

/// Flags of `cardio predict ecg|pcg|ppg`.
#[derive(Args)]
pub struct PredictSignalArgs {
    /// Recordings to score (a WFDB record is given by its .hea): paths, or s3://bucket/key and
    /// s3://bucket/prefix/ (every recording under it) with the AWS_* variables.
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
    /// Score only shard K of N (K from 0 to N-1), e.g. `--shard $SLURM_ARRAY_TASK_ID/10`.
    #[arg(long, value_parser = parse_shard, value_name = "K/N")]
    shard: Option<Shard>,
}

/// One of N deterministic shares of the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, 0-based.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

impl Shard {
    /// The K-th of N consecutive blocks of `items` (sizes differ by at most one; every item is in
    /// exactly one block, in order).
    pub fn of<T>(self, items: &[T]) -> &[T] {
        let start = self.index * items.len() / self.count;
        let end = (self.index + 1) * items.len() / self.count;
        &items[start..end]
    }
}

/// Parses `K/N` with `0 <= K < N`.
///
/// # Errors
/// The text says what a shard looks like.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let wrong = || format!("--shard takes K/N with 0 <= K < N (for example 3/10), not {text:?}");
    let (k, n) = text.split_once('/').ok_or_else(wrong)?;
    let index: usize = k.trim().parse().map_err(|_| wrong())?;
    let count: usize = n.trim().parse().map_err(|_| wrong())?;
    if count == 0 || index >= count {
        return Err(wrong());
    }
    Ok(Shard { index, count })
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

/// Reads and scores one input. A WFDB record, ISHNE or EDF/BDF file on disk longer than what the
/// model reads at its start is read from its files a stretch at a time when the model can (the
/// ECG rhythm model: a day-long Holter record is never held whole); everything else is read whole.
pub fn predict_input(
    model: &dyn SignalModel,
    input: &Input,
    options: &ReadOptions,
) -> anyhow::Result<Prediction> {
    if let Input::Local(path) = input {
        // A record that cannot be opened this way is read whole, which says what is wrong.
        if let Ok(Some(record)) = cardio_formats::open_path(path, ecg_rhythm::HEAD_S) {
            if let Some(result) = model.predict_streamed(&record) {
                return Ok(result?);
            }
        }
    }
    let recording = input.read(options)?;
    Ok(model.predict(&recording)?)
}

/// Scores `inputs` on `jobs` threads; results in input order.
pub fn predict_all(
    model: &dyn SignalModel,
    inputs: &[Input],
    options: &ReadOptions,
    jobs: usize,
) -> Vec<anyhow::Result<Prediction>> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, anyhow::Result<Prediction>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.clamp(1, inputs.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(input) = inputs.get(i) else { break };
                        done.push((i, predict_input(model, input, options)));
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
    let inputs = crate::inputs::resolve(&args.files)?;
    let inputs = args.shard.map_or(&inputs[..], |shard| shard.of(&inputs));
    let results = predict_all(model.as_ref(), inputs, &options, jobs);
    let mut all_ok = true;
    let mut out = String::new();
    let mut json = Vec::new();
    if args.format == Format::Csv && args.shard.is_none_or(|s| s.index == 0) {
        out.push_str("file,label,prediction,confidence,risk_score\n");
    }
    for (input, result) in inputs.iter().zip(results) {
        let name = input.name();
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
                    "advice": p.advice,
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
    fn shards_are_disjoint_complete_and_in_order() {
        for len in [0usize, 1, 2, 7, 10, 11, 100] {
            let items: Vec<usize> = (0..len).collect();
            for count in [1usize, 2, 3, 4, 10, 13] {
                let mut joined = Vec::new();
                for index in 0..count {
                    let part = Shard { index, count }.of(&items);
                    assert!(part.len() <= len / count + 1, "{len} {count}");
                    joined.extend_from_slice(part);
                }
                assert_eq!(joined, items, "{len} items in {count} shards");
            }
        }
    }

    #[test]
    fn a_shard_is_k_of_n() {
        assert_eq!(
            parse_shard("3/10"),
            Ok(Shard {
                index: 3,
                count: 10
            })
        );
        assert_eq!(parse_shard("0/1"), Ok(Shard { index: 0, count: 1 }));
        for bad in ["10/10", "1/0", "3", "-1/4", "a/b", ""] {
            let err = parse_shard(bad).unwrap_err();
            assert!(
                err.starts_with("--shard takes K/N with 0 <= K < N"),
                "{err}"
            );
        }
    }

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("Normal sinus rhythm"), "Normal sinus rhythm");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
