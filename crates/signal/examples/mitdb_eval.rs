//! QRS detection accuracy on the MIT-BIH Arrhythmia Database (channel 0 of every record).
//!
//! Reads WFDB format 212 and `.atr` annotations with a tiny self-contained reader (evaluation
//! tooling only; `cardio-formats` is the product reader), runs `cardio_signal::ecg`, and matches
//! detections to reference beats (N L R B A a J S V r F e j n E / f Q) within 150 ms.
//!
//! ```text
//! cargo run --release -p cardio-signal --example mitdb_eval -- [MITDB_DIR]
//! ```
//! `MITDB_DIR` defaults to `$CARDIO_DATASETS/mitdb`, then `/root/.cache/cardio-datasets/mitdb`.
//! `MITDB_RECORD=100` restricts to one record, `MITDB_REPEAT=20` repeats each analysis for
//! timing, `MITDB_DEBUG=105` lists the missed and extra beats of one record.

#![allow(clippy::many_single_char_names)]

use cardio_signal::ecg::{self, Powerline};
use cardio_signal::SamplingRate;
use std::path::{Path, PathBuf};

const PACED: [&str; 4] = ["102", "104", "107", "217"];

/// Annotation codes that are beats: N L R a V F J A S E j / Q B e n f r.
fn is_beat(code: u16) -> bool {
    matches!(code, 1..=13 | 25 | 34 | 35 | 38 | 41)
}

struct Record {
    fs: f64,
    signal: Vec<f64>,
}

fn read_record(dir: &Path, name: &str) -> Record {
    let hea = std::fs::read_to_string(dir.join(format!("{name}.hea"))).expect("header");
    let mut lines = hea.lines().filter(|l| !l.starts_with('#'));
    let first: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let nsig: usize = first[1].parse().unwrap();
    let fs: f64 = first[2].split('/').next().unwrap().parse().unwrap();
    let sig0: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(sig0[1], "212", "only format 212 is read here");
    let gain: f64 = sig0[2]
        .split(['(', '/'])
        .next()
        .unwrap()
        .parse()
        .unwrap_or(200.0);
    let zero: f64 = sig0[4].parse().unwrap_or(0.0);
    let bytes = std::fs::read(dir.join(sig0[0])).expect("signal file");
    let mut samples = Vec::with_capacity(bytes.len() * 2 / 3);
    for c in bytes.chunks_exact(3) {
        let s0 = i16::from(c[0]) | (i16::from(c[1] & 0x0F) << 8);
        let s1 = i16::from(c[2]) | (i16::from(c[1] & 0xF0) << 4);
        let ext = |v: i16| if v & 0x800 != 0 { v - 0x1000 } else { v };
        samples.push(ext(s0));
        samples.push(ext(s1));
    }
    let signal = samples
        .iter()
        .step_by(nsig)
        .map(|&d| (f64::from(d) - zero) / gain)
        .collect();
    Record { fs, signal }
}

/// Reference beats and the ventricular flutter/fibrillation episodes (`[` .. `]`), which ANSI/AAMI
/// EC57 excludes from beat-by-beat QRS comparison.
fn read_beats(dir: &Path, name: &str) -> (Vec<usize>, Vec<(usize, usize)>, Vec<u16>) {
    let bytes = std::fs::read(dir.join(format!("{name}.atr"))).expect("annotations");
    let mut out = Vec::new();
    let mut codes = Vec::new();
    let mut vf = Vec::new();
    let mut vf_on: Option<usize> = None;
    let mut t: i64 = 0;
    let mut i = 0;
    while i + 1 < bytes.len() {
        let w = u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        i += 2;
        let a = w >> 10;
        let v = i64::from(w & 0x3FF);
        match a {
            0 if v == 0 => break,
            59 => {
                let hi = i64::from(u16::from_le_bytes([bytes[i], bytes[i + 1]]));
                let lo = i64::from(u16::from_le_bytes([bytes[i + 2], bytes[i + 3]]));
                t += (hi << 16) | lo;
                i += 4;
            }
            63 => i += (v as usize + 1) & !1,
            60..=62 => {}
            code => {
                t += v;
                if is_beat(code) {
                    out.push(t as usize);
                    codes.push(code);
                } else if code == 32 {
                    vf_on = Some(t as usize);
                } else if code == 33 {
                    if let Some(on) = vf_on.take() {
                        vf.push((on, t as usize));
                    }
                }
            }
        }
    }
    if let Some(on) = vf_on {
        vf.push((on, usize::MAX));
    }
    (out, vf, codes)
}

/// (true positives, false negatives, false positives) with a `tol`-sample window.
fn score(reference: &[usize], detected: &[usize], tol: usize) -> (usize, usize, usize) {
    let mut used = vec![false; detected.len()];
    let mut tp = 0;
    let mut j = 0;
    for &r in reference {
        while j < detected.len() && detected[j] + tol < r {
            j += 1;
        }
        let mut best: Option<usize> = None;
        let mut k = j;
        while k < detected.len() && detected[k] <= r + tol {
            if !used[k] && best.is_none_or(|b| detected[k].abs_diff(r) < detected[b].abs_diff(r)) {
                best = Some(k);
            }
            k += 1;
        }
        if let Some(b) = best {
            used[b] = true;
            tp += 1;
        }
    }
    (tp, reference.len() - tp, detected.len() - tp)
}

/// CPU time (user + system) of this process so far, seconds, from `/proc/self/stat` (Linux; 0
/// elsewhere). Wall time on a shared machine includes waiting for a core; CPU time does not.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the ")" that closes the command name: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // 100 ticks per second (USER_HZ) on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

/// Prints missed beats and false detections (times in seconds) of one record.
fn list_errors(reference: &[usize], detected: &[usize], tol: usize, fs: f64) {
    let near = |set: &[usize], p: usize| {
        let k = set.partition_point(|&v| v + tol < p);
        set.get(k).is_some_and(|&v| v <= p + tol)
    };
    let missed: Vec<String> = reference
        .iter()
        .filter(|&&r| !near(detected, r))
        .map(|&r| format!("{:.2}", r as f64 / fs))
        .collect();
    let extra: Vec<String> = detected
        .iter()
        .filter(|&&d| !near(reference, d))
        .map(|&d| format!("{:.2}", d as f64 / fs))
        .collect();
    println!("missed: {}", missed.join(" "));
    println!("extra: {}", extra.join(" "));
}

fn main() {
    let dir: PathBuf = std::env::args().nth(1).map_or_else(
        || {
            std::env::var("CARDIO_DATASETS").map_or_else(
                |_| PathBuf::from("/root/.cache/cardio-datasets/mitdb"),
                |d| Path::new(&d).join("mitdb"),
            )
        },
        PathBuf::from,
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("MIT-BIH directory")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "atr").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    // MITDB_RECORD=100 evaluates one record; MITDB_REPEAT=N repeats each analysis N times for
    // steadier timings.
    if let Ok(only) = std::env::var("MITDB_RECORD") {
        names.retain(|n| *n == only);
    }
    let repeat: usize = std::env::var("MITDB_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut totals = [[0usize; 3]; 2];
    let mut seconds = 0.0;
    let mut elapsed = 0.0;
    let mut vf_excluded = 0;
    let mut cpu = 0.0;
    let mut widths: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut p_waves = [0usize; 2];
    println!("record  beats     TP    FN    FP    Se%     +P%  ms/min");
    for name in &names {
        let rec = read_record(&dir, name);
        let (reference, vf, codes) = read_beats(&dir, name);
        let fs = SamplingRate::new(rec.fs).unwrap();
        let cpu0 = cpu_seconds();
        let start = std::time::Instant::now();
        let mut result = ecg::analyze(&rec.signal, fs, Powerline::Hz60).expect("analysis");
        for _ in 1..repeat {
            result = ecg::analyze(&rec.signal, fs, Powerline::Hz60).expect("analysis");
        }
        let took = start.elapsed().as_secs_f64() / repeat as f64;
        cpu += (cpu_seconds() - cpu0) / repeat as f64;
        elapsed += took;
        let rec_ms_per_min = 1000.0 * took / (rec.signal.len() as f64 / rec.fs / 60.0);
        seconds += rec.signal.len() as f64 / rec.fs;
        let (tp, fn_, fp_all) = score(&reference, &result.r_peaks, (0.15 * rec.fs) as usize);
        // Detections inside VF/VFL episodes (no reference beats there) are not counted (EC57).
        let in_vf = result
            .r_peaks
            .iter()
            .filter(|&&p| vf.iter().any(|&(a, b)| p >= a && p <= b))
            .count();
        let fp = fp_all - in_vf.min(fp_all);
        vf_excluded += in_vf;
        // Delineation sanity: QRS width and P-wave presence of detections matched to normal (N)
        // and ventricular (V) reference beats.
        let tol = (0.15 * rec.fs) as usize;
        for b in &result.beats {
            let k = reference.partition_point(|&r| r + tol < b.r_peak);
            if let Some(&r) = reference.get(k) {
                if r <= b.r_peak + tol {
                    let g = match codes[k] {
                        1 => 0,
                        5 => 1,
                        _ => continue,
                    };
                    widths[g].push(b.qrs_width_s);
                    p_waves[g] += usize::from(b.p_wave);
                }
            }
        }
        if std::env::var("MITDB_DEBUG").is_ok_and(|d| d == *name) {
            list_errors(
                &reference,
                &result.r_peaks,
                (0.15 * rec.fs) as usize,
                rec.fs,
            );
        }
        let paced = PACED.contains(&name.as_str());
        let g = usize::from(paced);
        totals[g][0] += tp;
        totals[g][1] += fn_;
        totals[g][2] += fp;
        println!(
            "{name}{}  {:6} {:6} {:5} {:5} {:7.3} {:7.3} {rec_ms_per_min:7.2}",
            if paced { "p" } else { " " },
            reference.len(),
            tp,
            fn_,
            fp,
            100.0 * tp as f64 / (tp + fn_) as f64,
            100.0 * tp as f64 / (tp + fp).max(1) as f64
        );
    }
    for (g, label) in [(0, "non-paced"), (1, "paced")] {
        let [tp, fn_, fp] = totals[g];
        println!(
            "{label:10} TP {tp} FN {fn_} FP {fp}  Se {:.3}%  +P {:.3}%",
            100.0 * tp as f64 / (tp + fn_).max(1) as f64,
            100.0 * tp as f64 / (tp + fp).max(1) as f64
        );
    }
    for (g, label) in [(0, "N"), (1, "V")] {
        let w = &mut widths[g];
        w.sort_by(f64::total_cmp);
        println!(
            "{label} beats: {} matched, median QRS width {:.0} ms (IQR {:.0}-{:.0}), P wave found in {:.1}%",
            w.len(),
            1000.0 * w[w.len() / 2],
            1000.0 * w[w.len() / 4],
            1000.0 * w[3 * w.len() / 4],
            100.0 * p_waves[g] as f64 / w.len() as f64
        );
    }
    println!("detections inside VF/VFL episodes, not counted as false positives: {vf_excluded}");
    println!(
        "analysis time {:.1} s wall, {:.1} s CPU for {:.0} min of signal: {:.3} ms per minute wall, {:.3} CPU",
        elapsed,
        cpu,
        seconds / 60.0,
        1000.0 * elapsed / (seconds / 60.0),
        1000.0 * cpu / (seconds / 60.0)
    );
}
