//! The gate's examples: real recordings of the public datasets under `$CARDIO_DATASETS` and seeded
//! non-heart signals ([`cardio_models::gate::nonheart`]), each turned into the gate's features as
//! the models will see them (ECG in millivolts; PCG prepared by the heart-sound model at 1 kHz).
//!
//! | modality | real recordings (one example each unless said) | noise the dataset marks |
//! |---|---|---|
//! | ECG | CinC 2017 (N, A, O); MIT-BIH Arrhythmia (MLII, every 4th 30-s window); BIDMC (lead II, 60-s windows) | CinC 2017 `~` |
//! | PCG | CinC 2016, all 3240 recordings of sites a-f | — |
//! | PPG | BIDMC (PLETH, 60-s windows); Liu et al. 2022 (every 4th 10-s segment, all six rhythms); IEEE SPC 2015 (wrist, during exercise, 30-s windows) | — |

use std::path::{Path, PathBuf};

use cardio_formats::Recording;

use cardio_models::ecg_lead::{has_unit, mv_per_unit, pick_lead_by_name as pick_lead};
use cardio_models::gate::features::measure;
use cardio_models::gate::nonheart::{self, Kind, KINDS};
use cardio_models::gate::GateModality;
use cardio_models::pcg_model::features::prepare_channel;

use crate::parallel::par_map;

/// Seeds of the non-heart signals per kind.
pub const SEEDS_PER_KIND: u64 = 40;

/// One example.
#[derive(Debug, Clone)]
pub struct Example {
    /// The dataset (or `non-heart`).
    pub source: String,
    /// The group examples of one patient or recording share (folds never split a group).
    pub group: String,
    /// Whether it is a real recording the dataset does not mark as noise.
    pub real: bool,
    /// The kind of a non-heart signal.
    pub kind: Option<Kind>,
    /// The features (`None` when the example could not be measured).
    pub features: Option<Vec<f64>>,
}

/// Why examples could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum GateDataError {
    /// A dataset folder is missing.
    #[error("dataset not found: {0} (unpack the shared datasets into $CARDIO_DATASETS)")]
    Missing(String),
    /// A file cannot be read.
    #[error("cannot read {0}: {1}")]
    Read(String, String),
}

/// A job: read a file and cut it into examples.
type Job = Box<dyn Fn() -> Result<Vec<Example>, GateDataError> + Send + Sync>;

/// Runs the jobs on two threads ([`par_map`]), examples in job order.
fn run(jobs: &[Job]) -> Result<Vec<Example>, GateDataError> {
    let mut out = Vec::new();
    for examples in par_map(jobs, |job| job()) {
        out.extend(examples?);
    }
    Ok(out)
}

fn dir(root: &Path, sub: &str) -> Result<PathBuf, GateDataError> {
    let d = root.join(sub);
    if d.is_dir() {
        Ok(d)
    } else {
        Err(GateDataError::Missing(d.display().to_string()))
    }
}

fn read(path: &Path) -> Result<Recording, GateDataError> {
    cardio_formats::read_path(path)
        .map_err(|e| GateDataError::Read(path.display().to_string(), e.to_string()))
}

fn files(d: &Path, suffix: &str) -> Result<Vec<PathBuf>, GateDataError> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(d)
        .map_err(|e| GateDataError::Read(d.display().to_string(), e.to_string()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(suffix)))
        .collect();
    out.sort();
    Ok(out)
}

fn example(source: &str, group: &str, real: bool, features: Option<Vec<f64>>) -> Example {
    Example {
        source: source.into(),
        group: group.into(),
        real,
        kind: None,
        features,
    }
}

/// The features of a modality's raw samples as its model would pass them to the gate.
pub fn features_as_model(
    x: &[f64],
    fs_hz: f64,
    modality: GateModality,
    calibrated: bool,
) -> Option<Vec<f64>> {
    match modality {
        GateModality::Pcg => {
            let prepared = prepare_channel(x, fs_hz).ok()?;
            measure(
                &prepared,
                cardio_models::gate::features::PCG_HZ,
                modality,
                false,
            )
        }
        _ => measure(x, fs_hz, modality, calibrated),
    }
}

/// Windows of `len_s` seconds of `x`, every `every`-th one.
fn windows(x: &[f64], fs: f64, len_s: f64, every: usize) -> Vec<&[f64]> {
    let w = (len_s * fs) as usize;
    if w == 0 {
        return Vec::new();
    }
    x.chunks_exact(w).step_by(every.max(1)).collect()
}

/// Seeds of the speech-like kind for the heart-sound gate: CirCor's children were recorded while
/// they cried and talked, so the boundary between speech and a noisy heart sound needs more
/// examples than the other kinds (with 40, seeds 7097, 7193, 8038 and 8077 pass).
pub const PCG_SPEECH_SEEDS: u64 = 400;

/// The seeded non-heart examples of a modality.
pub fn non_heart(modality: GateModality, seeds: u64) -> Vec<Example> {
    let jobs: Vec<Job> = KINDS
        .iter()
        .flat_map(|&kind| {
            let n = if modality == GateModality::Pcg && kind == Kind::SpeechLike && seeds > 0 {
                seeds.max(PCG_SPEECH_SEEDS)
            } else {
                seeds
            };
            (0..n).map(move |seed| {
                Box::new(move || {
                    let g = nonheart::generate(kind, modality, seed);
                    Ok(vec![Example {
                        source: "non-heart".into(),
                        group: format!("{}-{seed}", g.kind.name()),
                        real: false,
                        kind: Some(kind),
                        // Half of them with a declared unit, half as bare numbers.
                        features: features_as_model(&g.samples, g.fs_hz, modality, seed % 2 == 0),
                    }])
                }) as Job
            })
        })
        .collect();
    run(&jobs).unwrap_or_default()
}

/// The real examples of a modality (see the module table).
///
/// # Errors
/// [`GateDataError`] when a dataset is missing or a file cannot be read.
pub fn real(root: &Path, modality: GateModality) -> Result<Vec<Example>, GateDataError> {
    let jobs = match modality {
        GateModality::Ecg => ecg_jobs(root)?,
        GateModality::Pcg => {
            let mut jobs = pcg_jobs(root)?;
            jobs.extend(circor_jobs(root)?);
            jobs
        }
        GateModality::Ppg => ppg_jobs(root)?,
    };
    run(&jobs)
}

/// The heart-sound examples of CinC 2016 alone with the seeded non-heart signals: the gate the
/// heart-sound model's validation judges CinC 2016 by (out of fold), which must not need CirCor.
///
/// # Errors
/// As [`real`].
pub fn load_cinc2016_gate(root: &Path) -> Result<Vec<Example>, GateDataError> {
    let mut all = run(&pcg_jobs(root)?)?;
    all.extend(non_heart(GateModality::Pcg, SEEDS_PER_KIND));
    Ok(all)
}

/// Every CirCor recording (`circor/training_data`, laid out as `circor_sample`), grouped by
/// patient.
fn circor_jobs(root: &Path) -> Result<Vec<Job>, GateDataError> {
    let folder = dir(root, "circor/training_data")?;
    let mut jobs: Vec<Job> = Vec::new();
    for wav in files(&folder, ".wav")? {
        jobs.push(Box::new(move || {
            let rec = read(&wav)?;
            let name = wav.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
            let patient = name.split('_').next().unwrap_or(name);
            let f = rec.channels.first().and_then(|c| {
                features_as_model(&c.samples, rec.sampling_rate_hz, GateModality::Pcg, false)
            });
            Ok(vec![example(
                "CirCor",
                &format!("circor-{patient}"),
                true,
                f,
            )])
        }));
    }
    Ok(jobs)
}

fn ecg_jobs(root: &Path) -> Result<Vec<Job>, GateDataError> {
    let mut jobs: Vec<Job> = Vec::new();
    let cinc = dir(root, "cinc2017/training2017")?;
    let reference = std::fs::read_to_string(cinc.join("REFERENCE.csv"))
        .map_err(|e| GateDataError::Read("cinc2017 REFERENCE.csv".into(), e.to_string()))?;
    for line in reference.lines() {
        let Some((name, label)) = line.trim().split_once(',') else {
            continue;
        };
        let (name, noisy) = (name.to_string(), label.trim() == "~");
        let path = cinc.join(format!("{name}.hea"));
        jobs.push(Box::new(move || {
            let rec = read(&path)?;
            let f = pick_lead(&rec).and_then(|i| {
                let c = &rec.channels[i];
                let mv: Vec<f64> = c.samples.iter().map(|v| v * mv_per_unit(c)).collect();
                measure(&mv, rec.sampling_rate_hz, GateModality::Ecg, has_unit(c))
            });
            Ok(vec![example("CinC 2017", &name, !noisy, f)])
        }));
    }
    let mitdb = dir(root, "mitdb")?;
    for hea in files(&mitdb, ".hea")? {
        jobs.push(Box::new(move || {
            let rec = read(&hea)?;
            let name = hea.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
            let Some(i) = pick_lead(&rec) else {
                return Ok(Vec::new());
            };
            let c = &rec.channels[i];
            let mv: Vec<f64> = c.samples.iter().map(|v| v * mv_per_unit(c)).collect();
            Ok(windows(&mv, rec.sampling_rate_hz, 30.0, 4)
                .into_iter()
                .map(|w| {
                    let f = measure(w, rec.sampling_rate_hz, GateModality::Ecg, has_unit(c));
                    example("MIT-BIH Arrhythmia", name, true, f)
                })
                .collect())
        }));
    }
    jobs.extend(bidmc_jobs(root, "II", GateModality::Ecg)?);
    Ok(jobs)
}

fn bidmc_jobs(
    root: &Path,
    channel: &'static str,
    modality: GateModality,
) -> Result<Vec<Job>, GateDataError> {
    let bidmc = dir(root, "bidmc/bidmc_csv")?;
    Ok(files(&bidmc, "_Signals.csv")?
        .into_iter()
        .map(|path| {
            Box::new(move || {
                let rec = read(&path)?;
                let name = path
                    .file_name()
                    .and_then(|s| s.to_str())
                    .unwrap_or("?")
                    .replace("_Signals.csv", "");
                let fs = rec.sampling_rate_hz.round();
                let Some(c) = rec.channel(channel) else {
                    return Ok(Vec::new());
                };
                Ok(windows(&c.samples, fs, 60.0, 1)
                    .into_iter()
                    .map(|w| {
                        let f = if w.iter().all(|v| v.is_finite()) {
                            measure(w, fs, modality, has_unit(c))
                        } else {
                            None
                        };
                        example("BIDMC", &name, true, f)
                    })
                    .collect())
            }) as Job
        })
        .collect())
}

fn pcg_jobs(root: &Path) -> Result<Vec<Job>, GateDataError> {
    let mut jobs: Vec<Job> = Vec::new();
    let mut folders = Vec::new();
    for site in ["a", "b", "c", "d", "e", "f"] {
        folders.push(dir(root, &format!("cinc2016/training-{site}"))?);
    }
    folders.push(dir(root, "cinc2016_site_e_rest/training-e")?);
    for folder in folders {
        for wav in files(&folder, ".wav")? {
            jobs.push(Box::new(move || {
                let rec = read(&wav)?;
                let name = wav.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
                let f = rec.channels.first().and_then(|c| {
                    features_as_model(&c.samples, rec.sampling_rate_hz, GateModality::Pcg, false)
                });
                Ok(vec![example("CinC 2016", name, true, f)])
            }));
        }
    }
    Ok(jobs)
}

fn ppg_jobs(root: &Path) -> Result<Vec<Job>, GateDataError> {
    let mut jobs = bidmc_jobs(root, "PLETH", GateModality::Ppg)?;
    let liu = dir(root, "ppg_arrhythmia_liu2022")?;
    for mat in files(&liu, ".mat")? {
        jobs.push(Box::new(move || {
            let bytes = std::fs::read(&mat)
                .map_err(|e| GateDataError::Read(mat.display().to_string(), e.to_string()))?;
            let m = cardio_formats::mat::find_matrix(&bytes, "ppgseg")
                .map_err(|e| GateDataError::Read(mat.display().to_string(), e.to_string()))?
                .ok_or_else(|| {
                    GateDataError::Read(mat.display().to_string(), "no ppgseg".into())
                })?;
            let name = mat.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
            Ok((0..m.rows)
                .step_by(4)
                .filter_map(|r| m.row(r))
                .map(|seg| {
                    let f = measure(&seg, 100.0, GateModality::Ppg, false);
                    example("Liu 2022", name, true, f)
                })
                .collect())
        }));
    }
    let spc = dir(root, "ieee_spc2015/Training_data")?;
    for mat in files(&spc, ".mat")? {
        if mat.to_str().is_some_and(|s| s.contains("BPM")) {
            continue;
        }
        jobs.push(Box::new(move || {
            let options = cardio_formats::ReadOptions {
                sampling_rate_hz: Some(125.0),
            };
            let rec = cardio_formats::read_path_with(&mat, &options)
                .map_err(|e| GateDataError::Read(mat.display().to_string(), e.to_string()))?;
            let name = mat.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
            // Channels: ECG, two PPG, three accelerometer axes; 125 Hz.
            let Some(c) = rec.channels.get(1) else {
                return Ok(Vec::new());
            };
            Ok(windows(&c.samples, 125.0, 30.0, 1)
                .into_iter()
                .map(|w| {
                    example(
                        "IEEE SPC 2015",
                        name,
                        true,
                        measure(w, 125.0, GateModality::Ppg, false),
                    )
                })
                .collect())
        }));
    }
    Ok(jobs)
}

/// Real and non-heart examples of a modality.
///
/// # Errors
/// As [`real`].
pub fn load(root: &Path, modality: GateModality) -> Result<Vec<Example>, GateDataError> {
    let mut all = real(root, modality)?;
    all.extend(non_heart(modality, SEEDS_PER_KIND));
    Ok(all)
}
