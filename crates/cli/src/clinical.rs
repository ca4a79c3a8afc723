//! `cardio train clinical`, `cardio eval clinical` and `cardio predict clinical`: the clinical risk
//! model of `cardio_models::clinical` (trained and validated by `cardio_lab::clinical`) from the
//! command line.
//!
//! - `train clinical [--datasets DIR] [--out FILE]` reruns the validation, refits the model on
//!   Cleveland and rewrites `crates/models/params/clinical.json` (deterministic: fixed seed, constant
//!   training date), then prints the validation table.
//! - `eval clinical [--datasets DIR] [--format table|json]` prints the model card's validation table
//!   (`json`: the whole report, headed by the four AUROCs of the card).
//! - `predict clinical FILE.csv [--format csv|json]` reads the seven snake_case columns and any of
//!   the six optional ones (empty cell = missing) and prints `row,label,prediction,confidence,risk_score`. A row that cannot be scored gets
//!   an empty label and its error on stderr; the other rows continue and the exit status is 1.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use cardio_lab::clinical::validation;
use cardio_models::clinical::{self, ClinicalInput};
use clap::{Args, Subcommand, ValueEnum};

use crate::datasets::default_root;

/// Flags of `cardio train clinical`.
#[derive(Args)]
pub struct TrainClinicalArgs {
    /// Folder of the unpacked datasets [default: $CARDIO_DATASETS, else ~/.cache/cardio-datasets].
    #[arg(long)]
    datasets: Option<PathBuf>,
    /// Where to write the parameters [default: crates/models/params/clinical.json of this checkout].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Flags of `cardio eval clinical`.
#[derive(Args)]
pub struct EvalClinicalArgs {
    /// Folder of the unpacked datasets [default: $CARDIO_DATASETS, else ~/.cache/cardio-datasets].
    #[arg(long)]
    datasets: Option<PathBuf>,
    /// `table` (the model card's table) or `json` (the whole report; its first keys are
    /// `cv_auroc_seven`, `cv_auroc_seven_plus_sex`, `cv_auroc_all`, `external_auroc_hungary`).
    #[arg(long, value_enum, default_value_t = crate::gate::Format::Table)]
    format: crate::gate::Format,
    /// The same as `--format json`.
    #[arg(long, hide = true)]
    json: bool,
}

/// Flags of `cardio predict`.
#[derive(Args)]
pub struct PredictArgs {
    #[command(subcommand)]
    model: PredictModel,
}

#[derive(Subcommand)]
enum PredictModel {
    /// Score a CSV of the seven clinical parameters (one patient per row).
    Clinical(PredictClinicalArgs),
    /// ECG rhythm: normal, af, other, noisy.
    Ecg(crate::predict::PredictSignalArgs),
    /// Heart sounds: normal, abnormal, unsure.
    Pcg(crate::predict::PredictSignalArgs),
    /// Pulse rhythm: normal, af, irregular, noisy.
    Ppg(crate::predict::PredictSignalArgs),
    /// Heart murmur per patient: present, absent, unknown, with sites, timing and grade.
    Murmur(crate::murmur::PredictMurmurArgs),
}

#[derive(Args)]
struct PredictClinicalArgs {
    /// CSV with the columns age, chest_pain_type, cholesterol, fasting_blood_sugar,
    /// exercise_induced_angina, vessels_colored_by_flourosopy, thalassemia, and optionally sex
    /// (male|female), resting_blood_pressure, resting_ecg, max_heart_rate, st_depression,
    /// st_slope (empty cell = missing).
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    format: Format,
}

/// Output format of `cardio predict`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `row,label,prediction,confidence,risk_score`.
    Csv,
    /// One JSON array of full results.
    Json,
}

/// The input columns: the model's fields ([`clinical::FIELDS`]), the first [`REQUIRED`] required.
const REQUIRED: usize = 7;

/// Runs `cardio train clinical`.
pub fn train(args: &TrainClinicalArgs) -> anyhow::Result<()> {
    let root = args.datasets.clone().unwrap_or_else(default_root);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(clinical::PARAMS_PATH));
    let (params, report) =
        cardio_lab::clinical::train(&root).context("training the clinical model")?;
    std::fs::write(&out, clinical::params_json(&params))
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("{}", validation::table(&report));
    println!("wrote {}", out.display());
    Ok(())
}

/// Runs `cardio eval clinical`.
pub fn eval(args: &EvalClinicalArgs) -> anyhow::Result<bool> {
    let root = args.datasets.clone().unwrap_or_else(default_root);
    let report = validation::evaluate(&root)?;
    if args.json || args.format == crate::gate::Format::Json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", validation::table(&report));
    }
    Ok(true)
}

/// Runs `cardio predict ...`; `Ok(false)` when some row could not be scored.
pub fn predict(args: &PredictArgs) -> anyhow::Result<bool> {
    use crate::predict::{run, Kind};
    let args = match &args.model {
        PredictModel::Clinical(args) => args,
        PredictModel::Ecg(args) => return run(Kind::Ecg, args),
        PredictModel::Pcg(args) => return run(Kind::Pcg, args),
        PredictModel::Ppg(args) => return run(Kind::Ppg, args),
        PredictModel::Murmur(args) => return crate::murmur::predict(args),
    };
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let rows = parse_csv(&text)?;
    let mut ok = true;
    let mut csv = String::from("row,label,prediction,confidence,risk_score\n");
    let mut json = Vec::new();
    for (row, input) in rows {
        match input.and_then(|i| clinical::predict(&i).map_err(|e| e.to_string())) {
            Ok(p) => {
                let _ = writeln!(
                    csv,
                    "{row},{},{},{:.4},{:.4}",
                    p.label.code(),
                    p.prediction,
                    p.confidence,
                    p.risk_score
                );
                // Whole results are kept only for JSON output (about 18 kB a row as values).
                if args.format == Format::Json {
                    let mut value = serde_json::to_value(&p)?;
                    if let Some(obj) = value.as_object_mut() {
                        obj.insert("row".into(), row.into());
                    }
                    json.push(value);
                }
            }
            Err(err) => {
                ok = false;
                eprintln!("cardio predict clinical: row {row}: {err}");
                let _ = writeln!(csv, "{row},,,,");
                json.push(serde_json::json!({ "row": row, "label": "", "error": err }));
            }
        }
    }
    match args.format {
        Format::Csv => print!("{csv}"),
        Format::Json => println!("{}", serde_json::to_string_pretty(&json)?),
    }
    Ok(ok)
}

/// Parses the input CSV: a header naming the seven columns and any of the optional ones (any order,
/// other columns ignored), then one patient per line. Returns `(1-based row, input or the reason it
/// is unusable)`.
pub fn parse_csv(text: &str) -> anyhow::Result<Vec<(usize, Result<ClinicalInput, String>)>> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .context("the CSV is empty")?
        .split(',')
        .map(|h| h.trim().trim_matches('"').to_ascii_lowercase())
        .collect();
    let mut index = [None; clinical::FIELDS.len()];
    for (k, (slot, name)) in index.iter_mut().zip(clinical::FIELDS).enumerate() {
        *slot = header.iter().position(|h| h == name);
        if k < REQUIRED && slot.is_none() {
            anyhow::bail!("the CSV has no column {name:?}");
        }
    }
    Ok(lines
        .enumerate()
        .map(|(i, line)| {
            let cells: Vec<&str> = line
                .split(',')
                .map(|c| c.trim().trim_matches('"'))
                .collect();
            (i + 1, parse_row(&cells, &index))
        })
        .collect())
}

fn parse_row(
    cells: &[&str],
    index: &[Option<usize>; clinical::FIELDS.len()],
) -> Result<ClinicalInput, String> {
    let name = |k: usize| clinical::FIELDS[k];
    let raw = |k: usize| index[k].and_then(|i| cells.get(i).copied()).unwrap_or("");
    let cell = |k: usize| -> Result<Option<f64>, String> {
        let raw = raw(k);
        if raw.is_empty() {
            return Ok(None);
        }
        raw.parse::<f64>()
            .map(Some)
            .map_err(|_| format!("{}: {raw:?} is not a number", name(k)))
    };
    let code = |k: usize| -> Result<Option<u8>, String> {
        match cell(k)? {
            None => Ok(None),
            Some(v) if v.fract() == 0.0 && (0.0..=255.0).contains(&v) => Ok(Some(v as u8)),
            Some(v) => Err(format!("{}: {v} is not a whole-number code", name(k))),
        }
    };
    let sex = match raw(7).to_ascii_lowercase().as_str() {
        "" => None,
        "male" | "m" | "1" => Some(clinical::Sex::Male),
        "female" | "f" | "0" => Some(clinical::Sex::Female),
        other => return Err(format!("sex: {other:?} is not male or female")),
    };
    Ok(ClinicalInput {
        age: cell(0)?.ok_or("age is required")?,
        chest_pain_type: code(1)?.ok_or("chest_pain_type is required")?,
        cholesterol: cell(2)?,
        fasting_blood_sugar: cell(3)?,
        exercise_induced_angina: code(4)?,
        vessels_colored_by_flourosopy: code(5)?,
        thalassemia: code(6)?,
        sex,
        resting_blood_pressure: cell(8)?,
        resting_ecg: code(9)?,
        max_heart_rate: cell(10)?,
        st_depression: cell(11)?,
        st_slope: code(12)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_columns_in_any_order_with_empty_cells_missing() {
        let text = "thalassemia,age,chest_pain_type,cholesterol,fasting_blood_sugar,exercise_induced_angina,vessels_colored_by_flourosopy\n\
                    2,63,3,,130,1,\n,50,x,200,90,0,0\n";

        let rows = parse_csv(text).unwrap();

        let first = rows[0].1.as_ref().unwrap();
        assert_eq!(first.age, 63.0);
        assert_eq!(first.thalassemia, Some(2));
        assert_eq!(first.cholesterol, None);
        assert_eq!(first.vessels_colored_by_flourosopy, None);
        assert!(rows[1].1.as_ref().unwrap_err().contains("chest_pain_type"));
    }

    #[test]
    fn optional_columns_are_read_when_present() {
        let text = "age,chest_pain_type,cholesterol,fasting_blood_sugar,exercise_induced_angina,vessels_colored_by_flourosopy,thalassemia,sex,st_slope,max_heart_rate\n\
                    63,3,286,100,1,2,2,female,1,108\n50,0,200,90,0,0,0,x,,\n";

        let rows = parse_csv(text).unwrap();

        let first = rows[0].1.as_ref().unwrap();
        assert_eq!(first.sex, Some(clinical::Sex::Female));
        assert_eq!(first.st_slope, Some(1));
        assert_eq!(first.max_heart_rate, Some(108.0));
        assert_eq!(first.resting_blood_pressure, None);
        assert_eq!(
            rows[1].1.as_ref().unwrap_err(),
            "sex: \"x\" is not male or female"
        );
    }

    #[test]
    fn a_missing_column_is_an_error() {
        assert!(parse_csv("age,chest_pain_type\n50,1\n").is_err());
    }
}
