//! PCG sanity on the PhysioNet/CinC 2016 training recordings: for each recording, the heart rate
//! from the detected S1 sounds (60 / median S1-S1 interval) against the envelope-autocorrelation
//! estimate, and the share of recordings judged usable.
//!
//! ```text
//! cargo run --release -p cardio-signal --example pcg_eval -- [CINC2016_DIR]
//! ```
//! The directory defaults to `$CARDIO_DATASETS/cinc2016`, then
//! `/root/.cache/cardio-datasets/cinc2016`; every `training-*/*.wav` (16-bit PCM mono) is read.

use cardio_signal::{pcg, SamplingRate};
use std::path::{Path, PathBuf};

/// A minimal 16-bit PCM mono WAV reader (evaluation only).
fn read_wav(path: &Path) -> Option<(f64, Vec<f64>)> {
    let b = std::fs::read(path).ok()?;
    if b.len() < 12 || &b[0..4] != b"RIFF" || &b[8..12] != b"WAVE" {
        return None;
    }
    let mut i = 12;
    let mut rate = 0u32;
    let mut bits = 0u16;
    let mut channels = 0u16;
    while i + 8 <= b.len() {
        let id = &b[i..i + 4];
        let len = u32::from_le_bytes([b[i + 4], b[i + 5], b[i + 6], b[i + 7]]) as usize;
        let body = &b[i + 8..(i + 8 + len).min(b.len())];
        if id == b"fmt " && body.len() >= 16 {
            channels = u16::from_le_bytes([body[2], body[3]]);
            rate = u32::from_le_bytes([body[4], body[5], body[6], body[7]]);
            bits = u16::from_le_bytes([body[14], body[15]]);
        } else if id == b"data" {
            if bits != 16 || channels != 1 {
                return None;
            }
            let x = body
                .chunks_exact(2)
                .map(|c| f64::from(i16::from_le_bytes([c[0], c[1]])) / 32768.0)
                .collect();
            return Some((f64::from(rate), x));
        }
        i += 8 + len + (len & 1);
    }
    None
}

fn main() {
    let dir: PathBuf = std::env::args().nth(1).map_or_else(
        || {
            std::env::var("CARDIO_DATASETS").map_or_else(
                |_| PathBuf::from("/root/.cache/cardio-datasets/cinc2016"),
                |d| Path::new(&d).join("cinc2016"),
            )
        },
        PathBuf::from,
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("cinc2016 directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .flat_map(|d| {
            std::fs::read_dir(d)
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "wav"))
                .collect::<Vec<_>>()
        })
        .collect();
    files.sort();
    let (mut n, mut usable, mut agree, mut compared) = (0usize, 0usize, 0usize, 0usize);
    let mut abs_diff = Vec::new();
    let mut failed = 0usize;
    for f in &files {
        let Some((rate, x)) = read_wav(f) else {
            failed += 1;
            continue;
        };
        let fs = SamplingRate::new(rate).unwrap();
        let Ok(seg) = pcg::segment(&x, fs) else {
            failed += 1;
            continue;
        };
        n += 1;
        if !seg.quality.usable {
            continue;
        }
        usable += 1;
        let mut ii: Vec<f64> = seg.s1_s.windows(2).map(|w| w[1] - w[0]).collect();
        if ii.is_empty() {
            // Usable but fewer than two S1 found: counted as a disagreement.
            compared += 1;
            continue;
        }
        ii.sort_by(f64::total_cmp);
        let hr_s1 = 60.0 / ii[ii.len() / 2];
        if let Some(hr_ac) = seg.heart_rate_bpm {
            compared += 1;
            let d = (hr_s1 - hr_ac).abs();
            abs_diff.push(d);
            if d <= 0.1 * hr_ac {
                agree += 1;
            }
        }
    }
    abs_diff.sort_by(f64::total_cmp);
    let mae = abs_diff.iter().sum::<f64>() / abs_diff.len().max(1) as f64;
    let with_s1 = abs_diff.len();
    println!(
        "{n} recordings analysed ({failed} unreadable); usable {usable} ({:.1}%)",
        100.0 * usable as f64 / n.max(1) as f64
    );
    println!(
        "usable recordings: S1-based HR within 10% of the autocorrelation HR in {agree}/{compared} ({:.1}%); over the {with_s1} with two or more S1: MAE {mae:.2} bpm, median |diff| {:.2} bpm",
        100.0 * agree as f64 / compared.max(1) as f64,
        abs_diff.get(abs_diff.len() / 2).copied().unwrap_or(f64::NAN)
    );
}
