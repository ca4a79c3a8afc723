//! PPG heart rate in 8-s windows every 2 s against a reference, on BIDMC and IEEE SPC 2015.
//!
//! Both parts run `cardio_signal::ppg::analyze` (Elgendi et al. 2013 systolic peaks, sub-sample
//! refined) over the whole recording and take the windowed rate of
//! `cardio_signal::ppg::heart_rate_windows` (median inter-beat interval; a window is left empty when
//! its beats are too few or too irregular).
//!
//! - **BIDMC** (Pimentel et al. 2017): PLETH against the monitor's PULSE (1 Hz); a window's
//!   reference is the mean PULSE over `[start, end)`, windows without a valid PULSE are skipped, and
//!   windows our detector leaves empty are counted (coverage) but not scored.
//! - **IEEE SPC 2015** (Zhang, Pi and Liu 2015, TROIKA): wrist PPG while running; `BPM0[i]` is the
//!   ECG-derived rate of window `i` (`[2i, 2i + 8)` s). Each of PPG1 and PPG2 is scored over the
//!   windows it gives a rate for; the *combined* estimate is the mean of the channels that give a
//!   rate in a window, and when neither does, the previous window's estimate (so that, as in the
//!   challenge, every window is scored); these use no motion compensation. The motion-compensated
//!   tracker of `cardio_signal::motion` (both PPG channels, the three accelerometer axes) is scored
//!   beside them by **leave one recording out**: for each recording, the settings of
//!   [`motion_grid`] chosen on the other eleven ([`robust_choice`]: the lowest worst-recording MAE)
//!   are used on it, so no setting is fitted to the recording it is scored on.
//! - **IEEE SPC 2015, the extra recording** (`Extra_TrainingData`, `DATA_S04_T01` with its
//!   `BPM_S04_T01`): never used to choose anything; scored with the settings chosen on all twelve
//!   training recordings, as an outside check of the tracker.

use std::path::{Path, PathBuf};

use cardio_formats::mat;
use cardio_signal::motion::{TrackerSettings, WindowSpectra};
use cardio_signal::{ppg, SamplingRate};
use serde::Serialize;

use super::{dataset_dir, files_ending, percent, AbsError, EvalError};

/// The tracker settings the leave-one-recording-out choice considers.
pub fn motion_grid() -> Vec<TrackerSettings> {
    let mut out = Vec::new();
    for motion_weight in [0.6, 0.8, 0.9, 1.0] {
        for change_cost_per_bpm in [0.05, 0.1, 0.2] {
            for max_step_bpm in [4.0, 6.0, 10.0] {
                out.push(TrackerSettings {
                    motion_weight,
                    change_cost_per_bpm,
                    max_step_bpm,
                });
            }
        }
    }
    out
}

/// Window length, seconds.
pub const WINDOW_S: f64 = 8.0;
/// Window step, seconds.
pub const STEP_S: f64 = 2.0;
/// Sampling rate of the IEEE SPC 2015 recordings (the files do not store it).
pub const IEEE_RATE_HZ: f64 = 125.0;

/// Windowed heart rate (bpm or `None` per window) of one PPG channel.
///
/// # Errors
/// As `cardio_signal::ppg::analyze` (non-finite samples, too short, invalid rate).
pub fn windowed_rate(
    x: &[f64],
    fs_hz: f64,
) -> Result<Vec<Option<f64>>, cardio_signal::SignalError> {
    let fs = SamplingRate::new(fs_hz)?;
    let result = ppg::analyze(x, fs)?;
    let duration = x.len() as f64 / fs_hz;
    Ok(
        ppg::heart_rate_windows(&result.peak_times_s, duration, WINDOW_S, STEP_S)
            .into_iter()
            .map(|w| w.bpm)
            .collect(),
    )
}

/// The reference of a window from a sparse series: the mean of the finite, positive values whose
/// times lie in `[start, end)`; `None` when there are none.
pub fn window_reference(times: &[f64], values: &[f64], start: f64, end: f64) -> Option<f64> {
    let (sum, n) = times
        .iter()
        .zip(values)
        .filter(|(t, v)| **t >= start && **t < end && v.is_finite() && **v > 0.0)
        .fold((0.0, 0usize), |(s, n), (_, v)| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// Combines two channels' window estimates: the mean of those present, else the last combined
/// estimate (`None` until the first estimate).
pub fn combine_channels(a: &[Option<f64>], b: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut last = None;
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            let now = match (x, y) {
                (Some(x), Some(y)) => Some(f64::midpoint(*x, *y)),
                (Some(v), None) | (None, Some(v)) => Some(*v),
                (None, None) => last,
            };
            last = now;
            now
        })
        .collect()
}

/// Scores window estimates against references (pairs up to the shorter): absolute errors over the
/// windows with an estimate, and how many windows had none.
pub fn score_windows(estimates: &[Option<f64>], references: &[f64]) -> (AbsError, usize) {
    let mut err = AbsError::default();
    let mut empty = 0;
    for (e, r) in estimates.iter().zip(references) {
        match e {
            Some(e) => err.add(*e, *r),
            None => empty += 1,
        }
    }
    (err, empty)
}

/// One BIDMC record.
#[derive(Debug, Clone, Serialize)]
pub struct BidmcRow {
    /// `bidmc01` ...
    pub record: String,
    /// Windows with a reference.
    pub windows: usize,
    /// Of those, windows our detector left empty.
    pub empty: usize,
    /// MAE over the windows with a rate, bpm.
    pub mae_bpm: Option<f64>,
}

/// The BIDMC evaluation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BidmcReport {
    /// One row per record.
    pub rows: Vec<BidmcRow>,
    /// Windows with a reference, all records.
    pub windows: usize,
    /// Windows left empty.
    pub empty: usize,
    /// Windows with a rate, percent of the windows with a reference.
    pub coverage_pct: Option<f64>,
    /// MAE over every window with a rate (pooled), bpm.
    pub mae_bpm: Option<f64>,
    /// Mean of the per-record MAEs, bpm.
    pub mean_record_mae_bpm: Option<f64>,
}

/// The samples of the channel called `name`, or [`EvalError::Content`].
fn channel<'a>(
    rec: &'a cardio_formats::Recording,
    name: &str,
    path: &Path,
) -> Result<&'a [f64], EvalError> {
    rec.channel(name)
        .map(|c| c.samples.as_slice())
        .ok_or_else(|| EvalError::content(path, format!("no {name} column")))
}

/// The first time stamp of a BIDMC CSV (the first field of the first row of numbers).
///
/// `cardio-formats` turns the `Time [s]` column into the sampling rate and drops it, without keeping
/// where time starts; `bidmc_23_Numerics.csv` starts at -1 s, so the origin is read here.
fn first_time_stamp(path: &Path) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|l| l.split(',').next()?.trim().parse::<f64>().ok())
}

/// Evaluates every `bidmc_NN_Signals.csv` of `$root/bidmc/bidmc_csv` with its `_Numerics.csv`.
///
/// # Errors
/// [`EvalError::MissingDataset`] without the folder; a read, content or signal error of any record.
pub fn evaluate_bidmc(root: &Path) -> Result<BidmcReport, EvalError> {
    let dir = dataset_dir(root, "bidmc", "bidmc_csv")?;
    let mut report = BidmcReport::default();
    let mut pooled = AbsError::default();
    let mut record_maes = AbsError::default();
    for sig in files_ending(&dir, "_Signals.csv")? {
        let Some(stem) = sig
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix("_Signals.csv"))
        else {
            continue;
        };
        let num = dir.join(format!("{stem}_Numerics.csv"));
        let rec = cardio_formats::read_path(&sig).map_err(|e| EvalError::read(&sig, e))?;
        // BIDMC prints time stamps with 2-3 decimals; the nominal rate (125 Hz) is the rounded one.
        let fs_hz = rec.sampling_rate_hz.round();
        let pleth = channel(&rec, "PLETH", &sig)?;
        let numerics = cardio_formats::read_path(&num).map_err(|e| EvalError::read(&num, e))?;
        let pulse = channel(&numerics, "PULSE", &num)?;
        let t0 = first_time_stamp(&num).unwrap_or(0.0);
        let ntime: Vec<f64> = (0..pulse.len())
            .map(|i| t0 + i as f64 / numerics.sampling_rate_hz)
            .collect();

        let fs = SamplingRate::new(fs_hz).map_err(|e| EvalError::signal(&sig, e))?;
        let result = ppg::analyze(pleth, fs).map_err(|e| EvalError::signal(&sig, e))?;
        let duration = pleth.len() as f64 / fs_hz;
        let mut estimates = Vec::new();
        let mut references = Vec::new();
        for w in ppg::heart_rate_windows(&result.peak_times_s, duration, WINDOW_S, STEP_S) {
            if let Some(r) = window_reference(&ntime, pulse, w.start_s, w.end_s) {
                estimates.push(w.bpm);
                references.push(r);
            }
        }
        let (err, empty) = score_windows(&estimates, &references);
        let row = BidmcRow {
            record: stem.replace('_', ""),
            windows: references.len(),
            empty,
            mae_bpm: err.mae(),
        };
        if let Some(m) = row.mae_bpm {
            record_maes.add(m, 0.0);
        }
        pooled += err;
        report.windows += row.windows;
        report.empty += row.empty;
        report.rows.push(row);
    }
    report.coverage_pct = percent(report.windows - report.empty, report.windows);
    report.mae_bpm = pooled.mae();
    report.mean_record_mae_bpm = record_maes.mae();
    Ok(report)
}

/// One IEEE SPC 2015 recording.
#[derive(Debug, Clone, Serialize)]
pub struct IeeeRow {
    /// `DATA_01_TYPE01` ...
    pub recording: String,
    /// Windows with a reference.
    pub windows: usize,
    /// PPG1: MAE over its windows with a rate, bpm.
    pub ppg1_mae_bpm: Option<f64>,
    /// PPG1: windows left empty.
    pub ppg1_empty: usize,
    /// PPG2: MAE over its windows with a rate, bpm.
    pub ppg2_mae_bpm: Option<f64>,
    /// PPG2: windows left empty.
    pub ppg2_empty: usize,
    /// Combined estimate: MAE, bpm.
    pub combined_mae_bpm: Option<f64>,
    /// Combined estimate: windows without any estimate (before the first one).
    pub combined_empty: usize,
    /// Motion-compensated tracker, leave one recording out: MAE over every window, bpm.
    pub motion_loro_mae_bpm: Option<f64>,
    /// The settings chosen on the other recordings: motion weight, change cost per bpm, largest
    /// step (bpm).
    pub motion_settings: (f64, f64, f64),
}

/// One recording outside the twelve the tracker's settings are chosen on.
#[derive(Debug, Clone, Serialize)]
pub struct ExternalRow {
    /// `DATA_S04_T01` ...
    pub recording: String,
    /// Windows with a reference.
    pub windows: usize,
    /// Motion-compensated tracker with the settings chosen on all twelve: MAE, bpm.
    pub motion_mae_bpm: Option<f64>,
    /// Its largest error in one window, bpm.
    pub motion_worst_window_bpm: Option<f64>,
    /// Windows more than 10 bpm off.
    pub motion_windows_over_10_bpm: usize,
}

/// The IEEE SPC 2015 evaluation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct IeeeReport {
    /// One row per recording.
    pub rows: Vec<IeeeRow>,
    /// The extra recordings (`Extra_TrainingData`), never tuned on: one row each.
    pub external: Vec<ExternalRow>,
    /// Their pooled MAE, bpm.
    pub external_mae_bpm: Option<f64>,
    /// Windows with a reference, all recordings.
    pub windows: usize,
    /// PPG1 pooled MAE, bpm.
    pub ppg1_mae_bpm: Option<f64>,
    /// PPG1 coverage, percent of windows.
    pub ppg1_coverage_pct: Option<f64>,
    /// PPG2 pooled MAE, bpm.
    pub ppg2_mae_bpm: Option<f64>,
    /// PPG2 coverage, percent of windows.
    pub ppg2_coverage_pct: Option<f64>,
    /// Combined estimate pooled MAE over all windows, bpm (the headline figure).
    pub combined_mae_bpm: Option<f64>,
    /// Combined estimate: mean of the per-recording MAEs, bpm (how TROIKA's 2.34 is averaged).
    pub combined_mean_recording_mae_bpm: Option<f64>,
    /// Combined estimate coverage, percent of windows.
    pub combined_coverage_pct: Option<f64>,
    /// Motion-compensated tracker (`cardio_signal::motion`, uses the accelerometer), leave one
    /// recording out: pooled MAE over every window, bpm (the headline wrist figure).
    pub motion_loro_mae_bpm: Option<f64>,
    /// The same, mean of the per-recording MAEs, bpm.
    pub motion_loro_mean_recording_mae_bpm: Option<f64>,
    /// The tracker with the product's settings (`TrackerSettings::default`, the grid's choice on
    /// all twelve recordings: not a held-out figure), pooled MAE, bpm.
    pub motion_default_mae_bpm: Option<f64>,
    /// The grid's choice on all twelve recordings: motion weight, change cost per bpm, largest step.
    pub motion_chosen_on_all: (f64, f64, f64),
}

/// The named matrix of a MAT-file, or an error naming the file.
fn matrix(path: &Path, name: &str) -> Result<mat::Matrix, EvalError> {
    let bytes = std::fs::read(path).map_err(|source| {
        EvalError::read(
            path,
            cardio_formats::FormatError::Io {
                path: path.display().to_string(),
                reason: source,
            },
        )
    })?;
    mat::find_matrix(&bytes, name)
        .map_err(|e| EvalError::read(path, e))?
        .ok_or_else(|| EvalError::content(path, format!("no matrix {name}")))
}

/// The spectra of a recording's two PPG channels and three accelerometer axes (`sig` rows 1-5).
fn recording_spectra(path: &Path, sig: &mat::Matrix) -> Result<WindowSpectra, EvalError> {
    let rows: Vec<Vec<f64>> = (1..6)
        .map(|i| {
            sig.row(i)
                .ok_or_else(|| EvalError::content(path, format!("sig has no row {i}")))
        })
        .collect::<Result<_, _>>()?;
    let fs = SamplingRate::new(IEEE_RATE_HZ).map_err(|e| EvalError::signal(path, e))?;
    WindowSpectra::compute(
        &[&rows[0], &rows[1]],
        &[&rows[2], &rows[3], &rows[4]],
        fs,
        WINDOW_S,
        STEP_S,
    )
    .map_err(|e| EvalError::signal(path, e))
}

/// The extra recordings (`DATA_*.mat` with `BPM_*.mat` in `Extra_TrainingData`), scored with
/// `settings`; none when the folder is absent.
///
/// # Errors
/// A read, content or signal error of any file.
pub fn evaluate_external(
    root: &Path,
    settings: &TrackerSettings,
) -> Result<Vec<(ExternalRow, AbsError)>, EvalError> {
    let Ok(dir) = dataset_dir(root, "ieee_spc2015", "Extra_TrainingData") else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for path in files_ending(&dir, ".mat")? {
        let Some(stem) = path.file_stem().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(name) = stem.strip_prefix("DATA_") else {
            continue;
        };
        let references = matrix(&dir.join(format!("BPM_{name}.mat")), "BPM0")?.data;
        let spectra = recording_spectra(&path, &matrix(&path, "sig")?)?;
        let mut error = AbsError::default();
        let (mut worst, mut over) = (None::<f64>, 0);
        for (w, r) in spectra.follow(settings).iter().zip(&references) {
            let estimate = w.bpm.unwrap_or(f64::NAN);
            error.add(estimate, *r);
            let off = (estimate - r).abs();
            worst = Some(worst.map_or(off, |x| x.max(off)));
            over += usize::from(off > 10.0);
        }
        out.push((
            ExternalRow {
                recording: stem.to_owned(),
                windows: spectra.len().min(references.len()),
                motion_mae_bpm: error.mae(),
                motion_worst_window_bpm: worst,
                motion_windows_over_10_bpm: over,
            },
            error,
        ));
    }
    Ok(out)
}

/// Evaluates every `DATA_xx_TYPEyy.mat` of `$root/ieee_spc2015/Training_data` against its
/// `_BPMtrace.mat`, and the extra recordings with the settings chosen on those.
///
/// # Errors
/// [`EvalError::MissingDataset`] without the folder; a read, content or signal error of any file.
pub fn evaluate_ieee(root: &Path) -> Result<IeeeReport, EvalError> {
    let dir = dataset_dir(root, "ieee_spc2015", "Training_data")?;
    let recordings: Vec<PathBuf> = files_ending(&dir, ".mat")?
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("DATA_") && !n.ends_with("_BPMtrace.mat"))
        })
        .collect();
    let mut report = IeeeReport::default();
    let (mut e1, mut e2, mut ec) = (
        AbsError::default(),
        AbsError::default(),
        AbsError::default(),
    );
    let (mut empty1, mut empty2, mut empty_c) = (0, 0, 0);
    let mut recording_maes = AbsError::default();
    let grid = motion_grid();
    let mut per_recording: Vec<Vec<AbsError>> = Vec::new();
    for path in recordings {
        let stem = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let trace = dir.join(format!("{stem}_BPMtrace.mat"));
        let sig = matrix(&path, "sig")?;
        let bpm0 = matrix(&trace, "BPM0")?.data;
        let row_of = |i: usize, what: &str| {
            sig.row(i)
                .ok_or_else(|| EvalError::content(&path, format!("sig has no {what} row")))
        };
        let ppg1 = row_of(1, "PPG1")?;
        let ppg2 = row_of(2, "PPG2")?;
        let w1 = windowed_rate(&ppg1, IEEE_RATE_HZ).map_err(|e| EvalError::signal(&path, e))?;
        let w2 = windowed_rate(&ppg2, IEEE_RATE_HZ).map_err(|e| EvalError::signal(&path, e))?;
        let combined = combine_channels(&w1, &w2);
        let n = bpm0.len().min(combined.len());
        let references = &bpm0[..n];
        let (r1, m1) = score_windows(&w1, references);
        let (r2, m2) = score_windows(&w2, references);
        let (rc, mc) = score_windows(&combined, references);
        if let Some(m) = rc.mae() {
            recording_maes.add(m, 0.0);
        }
        let spectra = recording_spectra(&path, &sig)?;
        let errors: Vec<AbsError> = grid
            .iter()
            .map(|settings| {
                let mut e = AbsError::default();
                for (w, r) in spectra.follow(settings).iter().zip(references) {
                    e.add(w.bpm.unwrap_or(f64::NAN), *r);
                }
                e
            })
            .collect();
        per_recording.push(errors);
        e1 += r1;
        e2 += r2;
        ec += rc;
        empty1 += m1;
        empty2 += m2;
        empty_c += mc;
        report.windows += n;
        report.rows.push(IeeeRow {
            recording: stem,
            windows: n,
            ppg1_mae_bpm: r1.mae(),
            ppg1_empty: m1,
            ppg2_mae_bpm: r2.mae(),
            ppg2_empty: m2,
            combined_mae_bpm: rc.mae(),
            combined_empty: mc,
            motion_loro_mae_bpm: None,
            motion_settings: (f64::NAN, f64::NAN, f64::NAN),
        });
    }
    let w = report.windows;
    report.ppg1_mae_bpm = e1.mae();
    report.ppg1_coverage_pct = percent(w - empty1, w);
    report.ppg2_mae_bpm = e2.mae();
    report.ppg2_coverage_pct = percent(w - empty2, w);
    report.combined_mae_bpm = ec.mae();
    report.combined_mean_recording_mae_bpm = recording_maes.mae();
    report.combined_coverage_pct = percent(w - empty_c, w);
    let (mut pooled, mut means) = (AbsError::default(), AbsError::default());
    for (i, row) in report.rows.iter_mut().enumerate() {
        let others: Vec<&Vec<AbsError>> = per_recording
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, e)| e)
            .collect();
        let best = robust_choice(&others, grid.len());
        let e = per_recording[i][best];
        row.motion_loro_mae_bpm = e.mae();
        let g = grid[best];
        row.motion_settings = (g.motion_weight, g.change_cost_per_bpm, g.max_step_bpm);
        pooled += e;
        if let Some(m) = e.mae() {
            means.add(m, 0.0);
        }
    }
    report.motion_loro_mae_bpm = pooled.mae();
    report.motion_loro_mean_recording_mae_bpm = means.mae();
    let default = grid
        .iter()
        .position(|g| *g == TrackerSettings::default())
        .unwrap_or(0);
    let mut all = AbsError::default();
    for errors in &per_recording {
        all += errors[default];
    }
    report.motion_default_mae_bpm = all.mae();
    let all: Vec<&Vec<AbsError>> = per_recording.iter().collect();
    let g = grid[robust_choice(&all, grid.len())];
    report.motion_chosen_on_all = (g.motion_weight, g.change_cost_per_bpm, g.max_step_bpm);
    let mut pooled = AbsError::default();
    for (row, error) in evaluate_external(root, &g)? {
        pooled += error;
        report.external.push(row);
    }
    report.external_mae_bpm = pooled.mae();
    Ok(report)
}

/// The setting (index into each recording's errors, `0..settings`) whose worst recording MAE is the
/// lowest; ties go to the lower pooled MAE, then to the earlier setting. A tracker that loses the
/// pulse on one recording fails that wearer for minutes, so the choice guards the worst case
/// rather than the average (with the lowest pooled MAE instead, DATA_02 held out got settings that
/// lose its pulse as running starts: 23.7 bpm, 3.10 over all twelve).
pub fn robust_choice(recordings: &[&Vec<AbsError>], settings: usize) -> usize {
    let key = |g: usize| {
        let worst = recordings
            .iter()
            .map(|e| e[g].mae().unwrap_or(f64::INFINITY))
            .fold(0.0, f64::max);
        let mut pooled = AbsError::default();
        for e in recordings {
            pooled += e[g];
        }
        (worst, pooled.mae().unwrap_or(f64::INFINITY))
    };
    (0..settings)
        .min_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.0.total_cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_robust_choice_guards_the_worst_recording() {
        let errors = |pairs: &[(f64, f64)]| {
            pairs
                .iter()
                .map(|&(a, r)| {
                    let mut e = AbsError::default();
                    e.add(a, r);
                    e
                })
                .collect::<Vec<_>>()
        };
        // Setting 0 is best on average (0 + 10) but fails recording b; setting 1 is 4 on both.
        let a = errors(&[(0.0, 0.0), (4.0, 0.0), (4.0, 0.0)]);
        let b = errors(&[(10.0, 0.0), (4.0, 0.0), (5.0, 0.0)]);
        assert_eq!(robust_choice(&[&a, &b], 3), 1);
    }

    #[test]
    fn a_window_reference_is_the_mean_of_valid_values_in_a_half_open_interval() {
        let t = [0.0, 1.0, 2.0, 3.0, 4.0, 8.0];
        let v = [60.0, f64::NAN, 0.0, 70.0, 80.0, 1000.0];
        assert_eq!(window_reference(&t, &v, 0.0, 8.0), Some(70.0));
        assert_eq!(window_reference(&t, &v, 1.0, 3.0), None);
    }

    #[test]
    fn scoring_skips_empty_windows_and_counts_them() {
        let (err, empty) = score_windows(&[Some(60.0), None, Some(75.0)], &[62.0, 70.0, 70.0]);
        assert_eq!(empty, 1);
        assert_eq!(err.mae(), Some(3.5));
    }

    #[test]
    fn channels_combine_by_mean_and_hold_the_last_estimate() {
        let a = [None, Some(60.0), None, None, Some(90.0)];
        let b = [None, Some(70.0), Some(80.0), None, None];
        assert_eq!(
            combine_channels(&a, &b),
            vec![None, Some(65.0), Some(80.0), Some(80.0), Some(90.0)]
        );
    }

    #[test]
    fn a_regular_pulse_gives_its_rate_in_every_window() {
        let fs = 125.0;
        let x: Vec<f64> = (0..(30.0 * fs) as usize)
            .map(|i| (2.0 * std::f64::consts::PI * 1.5 * i as f64 / fs).sin())
            .collect();
        let w = windowed_rate(&x, fs).unwrap();
        assert_eq!(w.len(), 12);
        assert!(
            w.iter().all(|b| b.is_some_and(|b| (b - 90.0).abs() < 1.0)),
            "{w:?}"
        );
    }
}
