//! `cardio predict murmur PATH... [--format csv|json]`: the murmur verdict of each patient, from a
//! folder of one patient's heart-sound recordings (one per auscultation site, the site read from
//! the file name: `..._AV.wav`, `..._PV_2.wav`, `..._TV`, `..._MV`, `..._Phc`) or from a single
//! recording (a patient with one site). `cardio train murmur` refits the committed parameters and
//! `cardio eval murmur` cross-validates them on CirCor (`cardio_lab::circor::murmur`).
//!
//! Each recording is read as `cardio predict pcg` reads it: a recording the heart-sound model cannot
//! judge (its quality gate) or that cannot be read counts as unread (the reason on stderr), and a
//! patient with no read recording is `unknown`; a path that does not exist, or a folder without a
//! recording, is an error row and exit status 1. The CSV is `patient,verdict,probability,sites,timing,grade`, `sites` the sites where
//! a murmur is heard (`+`-joined, the probability of a murmur at the verdict's threshold or above);
//! the JSON adds every recording's site, probabilities and why it was not read.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, ValueEnum};
use serde_json::json;

use cardio_models::murmur::{self, site::Site, Reading};
use cardio_models::pcg_model::{self, features};

/// Flags of `cardio predict murmur`.
#[derive(Args)]
pub struct PredictMurmurArgs {
    /// Patients: a folder of one patient's recordings, or one recording.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    format: Format,
}

/// Output format of `cardio predict murmur`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `patient,verdict,probability,sites,timing,grade`.
    Csv,
    /// One JSON array, with each recording.
    Json,
}

/// Flags of `cardio train murmur`.
#[derive(Args)]
pub struct TrainMurmurArgs {
    /// Folder of the unpacked datasets [default: $CARDIO_DATASETS, else ~/.cache/cardio-datasets].
    #[arg(long)]
    datasets: Option<PathBuf>,
    /// Where to write the parameters [default: crates/models/params/murmur.json].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The site in a recording's file name (`50782_MV_2.wav` -> `MV`; any of the murmur model's sites,
/// CirCor's spelling, in any case), or `None`.
pub fn site_of(path: &Path) -> Option<&'static str> {
    let stem = path.file_stem()?.to_str()?;
    stem.split(['_', '-', ' ', '.']).find_map(|part| {
        Site::ALL
            .iter()
            .map(|s| s.label())
            .find(|s| s.eq_ignore_ascii_case(part))
    })
}

/// Whether a folder entry is a recording to read (not a segmentation, header or text file).
fn is_recording(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    matches!(
        ext.as_deref(),
        Some("wav" | "mp3" | "m4a" | "ogg" | "flac" | "mat" | "edf")
    )
}

/// The recordings of one patient path, in name order.
fn recordings(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if !path.exists() {
        anyhow::bail!("{}: no such file or folder", path.display());
    }
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("cannot read the folder {}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && is_recording(p))
        .collect();
    files.sort();
    if files.is_empty() {
        anyhow::bail!(
            "{}: no heart-sound recording (WAV, MP3, M4A, OGG, FLAC, MAT or EDF) in this folder",
            path.display()
        );
    }
    Ok(files)
}

/// One recording's reading, or why it was not read.
fn read_one(path: &Path) -> Result<Reading, String> {
    let rec = cardio_formats::read_path(path).map_err(|e| e.to_string())?;
    let prepared = features::prepare(&rec).map_err(|e| e.to_string())?;
    let extracted = features::extract(&prepared).map_err(|e| e.to_string())?;
    let pcg = pcg_model::model().map_err(|e| e.to_string())?;
    if let Some(reason) = pcg.murmur_unreadable(&extracted.measured) {
        return Err(format!("not judged: {reason}"));
    }
    murmur::model()
        .map_err(|e| e.to_string())?
        .read_prepared(&prepared, &extracted)
        .map_err(|e| e.to_string())
}

/// Runs `cardio predict murmur`; `Ok(false)` when a path could not be read at all.
pub fn predict(args: &PredictMurmurArgs) -> anyhow::Result<bool> {
    let model = murmur::model().map_err(|e| anyhow::anyhow!("model not loaded: {e}"))?;
    let threshold = model.params().thresholds.present;
    let mut all_ok = true;
    let mut csv = String::from("patient,verdict,probability,sites,timing,grade\n");
    let mut out = Vec::new();
    for path in &args.paths {
        let name = path.display().to_string();
        let files = match recordings(path) {
            Ok(f) => f,
            Err(e) => {
                all_ok = false;
                eprintln!("{e:#}");
                let _ = writeln!(csv, "{},,,,,", crate::predict::csv_field(&name));
                out.push(json!({"patient": name, "error": format!("{e:#}")}));
                continue;
            }
        };
        let readings: Vec<Result<Reading, String>> = files.iter().map(|f| read_one(f)).collect();
        for (f, r) in files.iter().zip(&readings) {
            if let Err(e) = r {
                eprintln!("{}: not read: {e}", f.display());
            }
        }
        let usable: Vec<Option<Reading>> =
            readings.iter().map(|r| r.as_ref().ok().cloned()).collect();
        let verdict = model.decide(&usable);
        let mut sites: Vec<&str> = Vec::new();
        for (f, r) in files.iter().zip(&readings) {
            if let Ok(r) = r {
                if r.probabilities[1] >= threshold {
                    let site = site_of(f).unwrap_or("?");
                    if !sites.contains(&site) {
                        sites.push(site);
                    }
                }
            }
        }
        let v = verdict.to_value();
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{}",
            crate::predict::csv_field(&name),
            verdict.verdict.as_str(),
            if verdict.probability.is_finite() {
                format!("{:.4}", verdict.probability)
            } else {
                String::new()
            },
            sites.join("+"),
            verdict.timing.map_or("", murmur::Timing::as_str),
            verdict.grade.map_or("", murmur::Grade::as_str),
        );
        let recs: Vec<serde_json::Value> = files
            .iter()
            .zip(&readings)
            .map(|(f, r)| match r {
                Ok(r) => json!({
                    "file": f.display().to_string(),
                    "site": site_of(f),
                    "probabilities": {
                        "absent": r.probabilities[0],
                        "present": r.probabilities[1],
                        "unknown": r.probabilities[2],
                    },
                }),
                Err(e) => json!({
                    "file": f.display().to_string(),
                    "site": site_of(f),
                    "error": e,
                }),
            })
            .collect();
        out.push(json!({
            "patient": name,
            "verdict": v["verdict"],
            "probability": v["probability"],
            "sites": sites,
            "timing": v["timing"],
            "grade": v["grade"],
            "recordings": recs,
        }));
    }
    match args.format {
        Format::Csv => print!("{csv}"),
        Format::Json => println!("{}", serde_json::to_string_pretty(&out)?),
    }
    Ok(all_ok)
}

/// Runs `cardio train murmur`.
pub fn train(args: &TrainMurmurArgs) -> anyhow::Result<()> {
    use cardio_lab::circor::{self, murmur as lab};
    let root = args
        .datasets
        .clone()
        .unwrap_or_else(crate::datasets::default_root);
    let dir = root.join(circor::FOLDER);
    let data = lab::load(&dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let (params, report) = lab::train(&data);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(murmur::PARAMS_PATH));
    std::fs::write(&out, murmur::params_json(&params))
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("{}", lab::table(&report));
    println!("wrote {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_is_read_from_the_file_name() {
        assert_eq!(site_of(Path::new("d/50782_MV_2.wav")), Some("MV"));
        assert_eq!(site_of(Path::new("85133_AV.wav")), Some("AV"));
        assert_eq!(site_of(Path::new("child-phc.wav")), Some("Phc"));
        assert_eq!(site_of(Path::new("recording.wav")), None);
        assert_eq!(site_of(Path::new("avocado.wav")), None);
    }
}
