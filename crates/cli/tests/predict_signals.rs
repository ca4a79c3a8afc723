//! `cardio predict ecg|pcg|ppg` end to end: files on disk in, the exact CSV (or JSON) on stdout, one
//! row per file in the order given; a file that cannot be read or judged gets an empty label, its
//! error on stderr and exit status 1, and the other files are still scored.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    process::{Command, Output},
};

const HEADER: &str = "file,label,prediction,confidence,risk_score";

/// A fresh folder for one test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardio-predict-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cardio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardio"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fingertip-like pulse at 72 bpm, 30 s, with the beat-to-beat variation of breathing (±3 bpm
/// at 15 breaths a minute) and a little sensor noise, as real pulses have: values only (`bare`),
/// or with a time column.
fn pulse(fs: f64, bare: bool) -> String {
    let mut out = if bare {
        String::new()
    } else {
        String::from("time_s,ppg\n")
    };
    let mut noise: u32 = 2024;
    for i in 0..(fs as usize * 30) {
        let t = i as f64 / fs;
        let tau = 2.0 * std::f64::consts::PI;
        // Phase of a rate of 72 + 3 sin(2 pi 0.25 t) beats a minute.
        let beats = (72.0 * t - 3.0 / (tau * 0.25) * ((tau * 0.25 * t).cos() - 1.0)) / 60.0;
        let phase = beats.fract();
        noise = noise.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let jitter = f64::from(noise >> 16) / 65_536.0 - 0.5;
        let value = (-(phase - 0.3).powi(2) / 0.01).exp()
            + 0.3 * (-(phase - 0.6).powi(2) / 0.02).exp()
            + 0.02 * jitter;
        if bare {
            writeln!(out, "{value:.5}").unwrap();
        } else {
            writeln!(out, "{t:.4},{value:.5}").unwrap();
        }
    }
    out
}

/// A 30-s single-lead ECG at 300 Hz (P, QRS, T at 75 bpm, a little baseline noise) written as a
/// WFDB record (`name.hea` + `name.dat`, format 16, 1000 adu/mV); returns the header's path.
fn wfdb_ecg(dir: &Path, name: &str) -> PathBuf {
    let fs = 300.0;
    let n = 9000;
    let mut dat = Vec::with_capacity(n * 2);
    let mut noise: u32 = 12345;
    for i in 0..n {
        let t = i as f64 / fs;
        let phase = (t * 75.0 / 60.0).fract() * 0.8; // seconds into the 0.8-s beat
        let wave = |centre: f64, width: f64, height: f64| {
            height * (-(phase - centre).powi(2) / (2.0 * width * width)).exp()
        };
        noise = noise.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let jitter = f64::from((noise >> 16) & 0x7fff) / 32768.0 - 0.5;
        let mv = wave(0.10, 0.020, 0.15) - wave(0.185, 0.006, 0.10) + wave(0.20, 0.008, 1.2)
            - wave(0.215, 0.006, 0.25)
            + wave(0.42, 0.040, 0.30)
            + 0.02 * jitter;
        let adu = (mv * 1000.0).round() as i16;
        dat.extend_from_slice(&adu.to_le_bytes());
    }
    std::fs::write(dir.join(format!("{name}.dat")), dat).unwrap();
    let header = dir.join(format!("{name}.hea"));
    std::fs::write(
        &header,
        format!("{name} 1 300 {n}\n{name}.dat 16 1000 16 0 0 0 0 II\n"),
    )
    .unwrap();
    header
}

/// `n` WFDB ECG records in `dir`; their header paths.
fn wfdb_ecgs(dir: &Path, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| wfdb_ecg(dir, &format!("r{i}")).to_str().unwrap().to_owned())
        .collect()
}

fn rows(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

#[test]
fn scores_every_file_in_order_and_gives_a_failed_file_an_empty_label() {
    let dir = temp_dir("order");
    let first = wfdb_ecg(&dir, "first");
    let missing = dir.join("missing.hea");
    let second = wfdb_ecg(&dir, "second");
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, "").unwrap();
    let files = [&first, &missing, &second, &empty].map(|p| p.to_str().unwrap().to_owned());

    let out = cardio(&["predict", "ecg", &files[0], &files[1], &files[2], &files[3]]);

    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().next(), Some(HEADER));
    let rows = rows(&stdout);
    assert_eq!(rows.len(), 4, "{stdout}");
    for (row, file) in rows.iter().zip(&files) {
        assert_eq!(&row[0], file);
    }
    // The WFDB records (given by their .hea) are scored with a label of the ECG model's codes.
    for row in [&rows[0], &rows[2]] {
        assert_eq!(row.len(), 5, "{row:?}");
        assert!(
            ["normal", "af", "other", "noisy"].contains(&row[1].as_str()),
            "{row:?}"
        );
        assert!(!row[2].is_empty());
        for number in &row[3..] {
            let value: f64 = number.parse().unwrap();
            assert!((0.0..=1.0).contains(&value), "{row:?}");
        }
    }
    assert_eq!(
        rows[0][1], "normal",
        "a clean regular synthetic ECG: {stdout}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[2], format!("{},,,,", files[1]));
    assert_eq!(lines[4], format!("{},,,,", files[3]));
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with(&format!("{}: cannot read {}: ", files[1], files[1])));
    // The operating system's reason once, not twice.
    assert_eq!(lines[0].matches("os error").count(), 1, "{stderr}");
    assert_eq!(
        lines[1],
        format!("{}: invalid CSV/TXT file: no rows of numbers", files[3])
    );
}

#[test]
fn parallel_jobs_print_the_same_rows_as_one() {
    let files = wfdb_ecgs(&temp_dir("jobs"), 6);
    let mut args = vec!["predict", "ecg"];
    args.extend(files.iter().map(String::as_str));

    let one = cardio(&[&args[..], &["--jobs", "1"]].concat());
    let three = cardio(&[&args[..], &["--jobs", "3"]].concat());

    assert!(one.status.success(), "{}", text(&one.stderr));
    assert_eq!(text(&one.stdout), text(&three.stdout));
    assert_eq!(text(&one.stdout).lines().count(), 7);
}

#[test]
fn shards_concatenate_to_one_run_and_never_share_a_file() {
    let files = wfdb_ecgs(&temp_dir("shards"), 7);
    let mut args = vec!["predict", "ecg"];
    args.extend(files.iter().map(String::as_str));
    let one = cardio(&args);
    assert!(one.status.success(), "{}", text(&one.stderr));

    let mut joined = String::new();
    let mut seen: Vec<String> = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let out = cardio(&[&args[..], &["--shard", &shard]].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        // The header only on shard 0; each row is a file of this shard alone.
        assert_eq!(stdout.starts_with(HEADER), k == 0, "{stdout}");
        for line in stdout.lines().filter(|l| *l != HEADER) {
            let file = line.split(',').next().unwrap().to_owned();
            assert!(!seen.contains(&file), "{file} in two shards");
            seen.push(file);
        }
        joined.push_str(&stdout);
    }
    assert_eq!(joined, text(&one.stdout));
    assert_eq!(seen, files);

    let refused = cardio(&[&args[..], &["--shard", "3/3"]].concat());
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr)
            .contains("--shard takes K/N with 0 <= K < N (for example 3/10), not \"3/3\""),
        "{}",
        text(&refused.stderr)
    );
}

#[test]
fn a_bare_pulse_file_needs_its_rate_and_is_scored_with_it() {
    let dir = temp_dir("rate");
    let bare = dir.join("pulse.txt");
    std::fs::write(&bare, pulse(50.0, true)).unwrap();
    let timed = dir.join("timed.csv");
    std::fs::write(&timed, pulse(50.0, false)).unwrap();
    let (bare, timed) = (bare.to_str().unwrap(), timed.to_str().unwrap());

    let without = cardio(&["predict", "ppg", bare, timed]);
    let with = cardio(&["predict", "ppg", bare, "--sampling-rate", "50"]);

    assert_eq!(without.status.code(), Some(1));
    assert_eq!(
        text(&without.stderr).trim_end(),
        format!(
            "{bare}: CSV has no time column and no sampling rate was given: pass --sampling-rate"
        )
    );
    let rows_without = rows(&text(&without.stdout));
    assert_eq!(rows_without[0][1], "");
    assert_eq!(rows_without[1][1], "normal", "{rows_without:?}");
    assert!(with.status.success(), "{}", text(&with.stderr));
    let rows_with = rows(&text(&with.stdout));
    assert_eq!(rows_with[0][1], "normal", "{rows_with:?}");
    assert_eq!(rows_with[0][2], "Regular pulse rhythm");
}

#[test]
fn json_output_has_full_results_and_an_error_for_a_file_that_is_not_audio() {
    let dir = temp_dir("json");
    let fake = dir.join("fake.wav");
    std::fs::write(&fake, "this is not a recording").unwrap();
    let timed = dir.join("timed.csv");
    std::fs::write(&timed, pulse(50.0, false)).unwrap();

    let pcg = cardio(&["predict", "pcg", fake.to_str().unwrap(), "--format", "json"]);
    let ppg = cardio(&[
        "predict",
        "ppg",
        timed.to_str().unwrap(),
        "--format",
        "json",
    ]);

    assert_eq!(pcg.status.code(), Some(1));
    let failed: serde_json::Value = serde_json::from_slice(&pcg.stdout).unwrap();
    assert_eq!(failed[0]["file"], fake.to_str().unwrap());
    assert_eq!(failed[0]["label"], "");
    assert!(
        failed[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid WAV file"),
        "{failed}"
    );
    assert!(ppg.status.success(), "{}", text(&ppg.stderr));
    let scored: serde_json::Value = serde_json::from_slice(&ppg.stdout).unwrap();
    assert_eq!(scored[0]["label"], "normal");
    assert!(scored[0]["recommendations"].as_array().unwrap().len() >= 2);
    assert!(
        (scored[0]["details"]["heart_rate_bpm"].as_f64().unwrap() - 72.0).abs() < 2.0,
        "{scored}"
    );
    assert!(scored[0]["details"]["model"]["id"].is_string(), "{scored}");
}

#[test]
fn signals_that_are_not_a_heart_are_never_given_a_finding() {
    use cardio_models::gate::{nonheart, GateModality};
    let dir = temp_dir("nonheart");
    // Every kind, one seed the committed gates were not trained on, as CSV files with a time column.
    for (modality, command, refused) in [
        (GateModality::Ecg, "ecg", "noisy"),
        (GateModality::Pcg, "pcg", "unsure"),
        (GateModality::Ppg, "ppg", "noisy"),
    ] {
        let mut files = Vec::new();
        for kind in nonheart::KINDS {
            let g = nonheart::generate(kind, modality, 8_000);
            let mut csv = String::from("time_s,signal\n");
            for (i, v) in g.samples.iter().enumerate() {
                writeln!(csv, "{:.6},{v}", i as f64 / g.fs_hz).unwrap();
            }
            let path = dir.join(format!("{command}-{}.csv", kind.name().replace(' ', "-")));
            std::fs::write(&path, csv).unwrap();
            files.push(path.to_str().unwrap().to_owned());
        }
        let args: Vec<&str> = ["predict", command]
            .into_iter()
            .chain(files.iter().map(String::as_str))
            .collect();
        let out = cardio(&args);
        for row in rows(&text(&out.stdout)) {
            // Refused outright (empty label, reason on stderr) or judged too poor: never a finding.
            assert!(
                row[1].is_empty() || row[1] == refused,
                "{command}: {row:?}\n{}",
                text(&out.stderr)
            );
        }
        assert_eq!(rows(&text(&out.stdout)).len(), nonheart::KINDS.len());
    }
}

#[test]
fn real_ten_second_pulse_segments_get_their_rhythm_from_one_column_csvs() {
    // One patient of Liu et al. 2022 with sinus rhythm and an AF episode: each 10-s segment at
    // 100 Hz as a bare one-column CSV, as the published segments are (scaled 0..1).
    let Some(path) = cardio_testkit::dataset_file("ppg_arrhythmia_liu2022/MPA_190124211244.mat")
    else {
        return;
    };
    let matrices = cardio_formats::mat::read_matrices(&std::fs::read(path).unwrap()).unwrap();
    let get = |n: &str| matrices.iter().find(|m| m.name == n).unwrap();
    let (seg, labels) = (get("ppgseg"), get("labels"));
    let dir = temp_dir("liu");
    let mut files = Vec::new();
    for (code, want) in [(0.0, "normal"), (5.0, "af")] {
        let rows: Vec<usize> = (0..seg.rows)
            .filter(|&i| labels.data[i] == code)
            .take(15)
            .collect();
        for i in rows {
            let mut csv = String::new();
            for v in seg.row(i).unwrap() {
                writeln!(csv, "{:.6}", v / 65535.0).unwrap();
            }
            let file = dir.join(format!("seg{i:04}.csv"));
            std::fs::write(&file, csv).unwrap();
            files.push((file.to_str().unwrap().to_owned(), want));
        }
    }
    let mut args = vec!["predict", "ppg", "--sampling-rate", "100"];
    args.extend(files.iter().map(|(f, _)| f.as_str()));

    let out = cardio(&args);

    assert!(out.status.success(), "{}", text(&out.stderr));
    let got = rows(&text(&out.stdout));
    assert_eq!(got.len(), files.len());
    let agree = |want: &str| {
        files
            .iter()
            .zip(&got)
            .filter(|((_, w), _)| *w == want)
            .map(|((f, _), row)| {
                assert_eq!(&row[0], f);
                usize::from(row[1] == want)
            })
            .sum::<usize>()
    };
    assert!(agree("normal") >= 14, "{got:?}");
    assert!(agree("af") >= 11, "{got:?}");
}

#[test]
fn every_ecg_document_is_analysed_with_its_measurements() {
    // ecg_documents: cart and app PDFs (the CardioSoft page holds 5 s per lead), GE MUSE XML,
    // DICOM, Apple Health CSV (both decimal styles) and the Kardia EDFs.
    let names = [
        "apple-health-ecg-en.csv",
        "apple-health-ecg-pt.csv",
        "cardiosoft-testmann.pdf",
        "dicom-waveform-ecg.dcm",
        "ge-muse-example.xml",
        "ge-muse-fictitious.pdf",
        "kardiamobile-1l-ecg.edf",
        "kardiamobile-1l-ecg.pdf",
        "kardiamobile-6l-ecg.edf",
        "kardiamobile-6l-ecg.pdf",
    ];
    let wanted: Vec<String> = names.iter().map(|n| format!("ecg_documents/{n}")).collect();
    let wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
    let Some(root) = cardio_testkit::datasets(&wanted) else {
        return;
    };
    let paths: Vec<String> = wanted
        .iter()
        .map(|w| root.join(w).to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["predict", "ecg", "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    let out = cardio(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let results: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results.len(), names.len());
    for (name, r) in names.iter().zip(&results) {
        assert!(
            ["normal", "af", "other"].contains(&r["label"].as_str().unwrap_or_default()),
            "{name}: {r}"
        );
        let d = &r["details"];
        assert!(
            d["measurements"]["heart_rate_bpm"].is_number(),
            "{name}: {d}"
        );
        let leads = d["leads_used"].as_array().unwrap().len();
        let expected = if name.contains("1l") || name.contains("apple") {
            1
        } else if name.contains("6l") {
            6
        } else {
            12
        };
        assert_eq!(leads, expected, "{name}");
    }
}
