//! Heart rate and rhythm on BIDMC through the predict path: each record's PLETH, whole and in
//! 10-s recordings, against the monitor's PULSE.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use cardio_models::ppg_rhythm::{Model, PpgRhythmError};

/// `a / n`, NaN when `n` is 0 (a mean over no recording).
fn ratio_f(a: f64, n: usize) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        a / n as f64
    }
}

/// Heart rate and labels on BIDMC through the predict path.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BidmcSpan {
    /// `whole` (each record, 8 min) or `10 s`.
    pub span: String,
    /// Sampling rate of the PLETH given to the model: 125 Hz as recorded, or resampled to 100 Hz.
    pub rate_hz: f64,
    /// Recordings predicted.
    pub recordings: usize,
    /// Refused as unusable.
    pub unusable: usize,
    /// Labelled noisy.
    pub noisy: usize,
    /// Labelled normal / af / irregular.
    pub labels: BTreeMap<String, usize>,
    /// Recordings with a rhythm label and a reference PULSE, scored.
    pub scored: usize,
    /// Heart-rate MAE over the scored recordings, bpm.
    pub hr_mae_bpm: f64,
    /// Share of scored recordings within 5 bpm.
    pub within_5_bpm: f64,
    /// Mean time of one prediction (release build when run with `--release`), ms.
    pub ms_per_recording: f64,
}

/// The BIDMC evaluation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BidmcReport {
    /// Records.
    pub records: usize,
    /// Whole records and 10-s cuts.
    pub spans: Vec<BidmcSpan>,
}

/// The BIDMC heart-rate check through [`Model::predict`] (see the module docs).
///
/// # Errors
/// [`PpgRhythmError::MissingDataset`] without `$root/bidmc/bidmc_csv`; [`PpgRhythmError::Data`] for
/// an unreadable file.
pub fn bidmc(model: &Model, root: &Path) -> Result<BidmcReport, PpgRhythmError> {
    let dir = root.join("bidmc").join("bidmc_csv");
    if !dir.is_dir() {
        return Err(PpgRhythmError::MissingDataset {
            path: dir.display().to_string(),
        });
    }
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with("_Signals.csv"))
        })
        .collect();
    files.sort();
    let mut report = BidmcReport::default();
    let mut spans: Vec<(BidmcSpan, f64, f64)> = [125.0, 100.0]
        .iter()
        .flat_map(|&rate_hz| {
            ["whole", "10 s"].map(|span| {
                (
                    BidmcSpan {
                        span: span.into(),
                        rate_hz,
                        ..BidmcSpan::default()
                    },
                    0.0,
                    0.0,
                )
            })
        })
        .collect();
    let to_100 = cardio_signal::resample::Resampler::between(125.0, 100.0)
        .map_err(|e| PpgRhythmError::Data(e.to_string()))?;
    let read = |p: &Path| {
        cardio_formats::read_path(p)
            .map_err(|e| PpgRhythmError::Data(format!("{}: {e}", p.display())))
    };
    for sig in files {
        let Some(stem) = sig
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix("_Signals.csv"))
            .map(str::to_owned)
        else {
            continue;
        };
        let mut rec = read(&sig)?;
        rec.sampling_rate_hz = rec.sampling_rate_hz.round();
        let num_path = dir.join(format!("{stem}_Numerics.csv"));
        let numerics = read(&num_path)?;
        let Some(pulse) = numerics.channel("PULSE") else {
            continue;
        };
        let t0 = std::fs::read_to_string(&num_path)
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.split(',').next()?.trim().parse::<f64>().ok())
            })
            .unwrap_or(0.0);
        let times: Vec<f64> = (0..pulse.samples.len())
            .map(|i| t0 + i as f64 / numerics.sampling_rate_hz)
            .collect();
        let reference =
            |a: f64, b: f64| crate::eval::ppg_hr::window_reference(&times, &pulse.samples, a, b);
        report.records += 1;
        let fs = rec.sampling_rate_hz;
        let duration = rec.duration_seconds();
        let mut cuts: Vec<(usize, f64, f64)> = Vec::new();
        for rate in 0..2 {
            cuts.push((2 * rate, 0.0, duration));
            let mut k = 0.0;
            while (k + 1.0) * 10.0 <= duration + 1e-9 {
                cuts.push((2 * rate + 1, k * 10.0, (k + 1.0) * 10.0));
                k += 1.0;
            }
        }
        let Some(pleth) = rec.channel("PLETH").cloned() else {
            continue;
        };
        let pleth_100 = to_100.process(&pleth.samples);
        for (which, a, b) in cuts {
            let recording = if which == 0 {
                rec.clone()
            } else {
                let (samples, hz) = if which < 2 {
                    (&pleth.samples, fs)
                } else {
                    (&pleth_100, 100.0)
                };
                let s0 = (a * hz).round() as usize;
                let s1 = ((b * hz).round() as usize).min(samples.len());
                cardio_formats::Recording {
                    channels: vec![cardio_formats::Channel {
                        name: pleth.name.clone(),
                        unit: pleth.unit.clone(),
                        samples: samples[s0.min(s1)..s1].to_vec(),
                    }],
                    sampling_rate_hz: hz,
                    start: None,
                    metadata: BTreeMap::new(),
                    device_interpretation: None,
                }
            };
            let started = Instant::now();
            let result = model.predict(&recording);
            let elapsed = started.elapsed().as_secs_f64() * 1000.0;
            let (span, err_sum, within) = &mut spans[which];
            span.recordings += 1;
            span.ms_per_recording += elapsed;
            match result {
                Err(_) => span.unusable += 1,
                Ok(p) if p.label == "noisy" => span.noisy += 1,
                Ok(p) => {
                    *span.labels.entry(p.label.clone()).or_default() += 1;
                    let hr = p
                        .details
                        .get("heart_rate_bpm")
                        .and_then(serde_json::Value::as_f64);
                    if let (Some(hr), Some(r)) = (hr, reference(a, b)) {
                        span.scored += 1;
                        *err_sum += (hr - r).abs();
                        if (hr - r).abs() <= 5.0 {
                            *within += 1.0;
                        }
                    }
                }
            }
        }
    }
    for (mut span, err, within) in spans {
        span.hr_mae_bpm = ratio_f(err, span.scored);
        span.within_5_bpm = ratio_f(within, span.scored);
        span.ms_per_recording = ratio_f(span.ms_per_recording, span.recordings);
        report.spans.push(span);
    }
    Ok(report)
}
