//! PPG heart rate on BIDMC (PLETH vs the monitor's PULSE): 8-s windows every 2 s, MAE in bpm.
//!
//! ```text
//! cargo run --release -p cardio-signal --example bidmc_eval -- [BIDMC_CSV_DIR]
//! ```
//! The directory defaults to `$CARDIO_DATASETS/bidmc/bidmc_csv`, then
//! `/root/.cache/cardio-datasets/bidmc/bidmc_csv`. The reference for a window is the mean PULSE
//! (1 Hz) over the window; windows where the reference is missing or zero are skipped, and
//! windows our detector leaves empty are counted separately (coverage).
//!
//! `BIDMC_RATE=30` first resamples PLETH (125 Hz) to 30 Hz with [`Resampler`] to check the
//! detector at camera rates.

use cardio_signal::resample::Resampler;
use cardio_signal::{ppg, SamplingRate};
use std::path::{Path, PathBuf};

/// Reads a CSV with a header; returns the header names (trimmed) and the rows (NaN where empty).
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).expect("csv");
    let mut lines = text.lines();
    let header = lines
        .next()
        .unwrap()
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let rows = lines
        .map(|l| {
            l.split(',')
                .map(|v| v.trim().parse().unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    (header, rows)
}

fn column(header: &[String], rows: &[Vec<f64>], name: &str) -> Vec<f64> {
    let k = header.iter().position(|h| h == name).expect("column");
    rows.iter()
        .map(|r| r.get(k).copied().unwrap_or(f64::NAN))
        .collect()
}

fn main() {
    let dir: PathBuf = std::env::args().nth(1).map_or_else(
        || {
            std::env::var("CARDIO_DATASETS").map_or_else(
                |_| PathBuf::from("/root/.cache/cardio-datasets/bidmc/bidmc_csv"),
                |d| Path::new(&d).join("bidmc").join("bidmc_csv"),
            )
        },
        PathBuf::from,
    );
    let (mut abs_sum, mut count, mut empty, mut total_windows) = (0.0, 0usize, 0usize, 0usize);
    println!("record  windows  empty  MAE(bpm)");
    for r in 1..=53 {
        let sig = dir.join(format!("bidmc_{r:02}_Signals.csv"));
        let num = dir.join(format!("bidmc_{r:02}_Numerics.csv"));
        if !sig.exists() {
            continue;
        }
        let (h, rows) = read_csv(&sig);
        let time = column(&h, &rows, "Time [s]");
        let pleth = column(&h, &rows, "PLETH");
        let mut fs_hz = ((time.len() - 1) as f64 / (time[time.len() - 1] - time[0])).round();
        let mut pleth = pleth;
        if let Some(rate) = std::env::var("BIDMC_RATE")
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
        {
            pleth = Resampler::between(fs_hz, rate).unwrap().process(&pleth);
            fs_hz = rate;
        }
        let fs = SamplingRate::new(fs_hz).unwrap();
        let (hn, nrows) = read_csv(&num);
        let ntime = column(&hn, &nrows, "Time [s]");
        let pulse = column(&hn, &nrows, "PULSE");

        let det = ppg::PeakDetector::new(fs).unwrap();
        let cleaned = ppg::clean(&pleth, fs).unwrap();
        let peaks = det.detect_filtered(&cleaned);
        let times = ppg::refine_peak_times(&cleaned, &peaks, fs);
        let duration = pleth.len() as f64 / fs_hz;
        let windows = ppg::heart_rate_windows(&times, duration, 8.0, 2.0);
        let (mut rec_sum, mut rec_n, mut rec_empty) = (0.0, 0usize, 0usize);
        for w in &windows {
            let refs: Vec<f64> = ntime
                .iter()
                .zip(&pulse)
                .filter(|(t, p)| **t >= w.start_s && **t < w.end_s && p.is_finite() && **p > 0.0)
                .map(|(_, p)| *p)
                .collect();
            if refs.is_empty() {
                continue;
            }
            let reference = refs.iter().sum::<f64>() / refs.len() as f64;
            total_windows += 1;
            match w.bpm {
                Some(bpm) => {
                    rec_sum += (bpm - reference).abs();
                    rec_n += 1;
                }
                None => rec_empty += 1,
            }
        }
        println!(
            "bidmc{r:02}  {:7}  {:5}  {:8.3}",
            rec_n + rec_empty,
            rec_empty,
            rec_sum / rec_n.max(1) as f64
        );
        abs_sum += rec_sum;
        count += rec_n;
        empty += rec_empty;
    }
    println!(
        "all: {count} windows with a rate, {empty} left empty of {total_windows} ({:.2}% coverage); MAE {:.3} bpm",
        100.0 * count as f64 / total_windows.max(1) as f64,
        abs_sum / count.max(1) as f64
    );
}
