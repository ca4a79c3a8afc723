//! `cardio analyze` end to end: a file on disk in, JSON on stdout; errors on stderr with exit code 2.

use std::{fmt::Write, path::PathBuf, process::Command};

fn temp_file(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardio-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

/// A CSV with a time column and a PPG-like pulse at 72 bpm sampled at 50 Hz.
fn pulse_csv() -> String {
    let fs = 50.0;
    let mut csv = String::from("Time [s], PLETH\n");
    for i in 0..(fs as usize * 40) {
        let t = i as f64 / fs;
        let phase = (t * 72.0 / 60.0).fract();
        let value =
            (-(phase - 0.3).powi(2) / 0.01).exp() + 0.3 * (-(phase - 0.6).powi(2) / 0.02).exp();
        writeln!(csv, "{t:.3},{value:.5}").unwrap();
    }
    csv
}

fn cardio(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cardio"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn analyses_a_csv_pulse_and_prints_json() {
    let path = temp_file("pulse.csv", &pulse_csv());

    let out = cardio(&[
        "analyze",
        path.to_str().unwrap(),
        "--hr-window",
        "8",
        "--hr-step",
        "2",
    ]);

    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["kind"], "ppg");
    assert_eq!(json["channel"], "PLETH");
    assert_eq!(json["sampling_rate_hz"], 50.0);
    assert!((json["duration_s"].as_f64().unwrap() - 40.0).abs() < 0.05);
    assert!(
        (json["heart_rate_bpm"].as_f64().unwrap() - 72.0).abs() < 2.0,
        "{json}"
    );
    assert!(json["quality"]["usable"].as_bool().unwrap(), "{json}");
    let series = json["hr_series"].as_array().unwrap();
    assert_eq!(series[0]["start_s"], 0.0);
    assert_eq!(series[0]["end_s"], 8.0);
    for key in ["beats_s", "hrv"] {
        assert!(json.get(key).is_some(), "{key} missing");
    }
}

#[test]
fn a_single_column_needs_a_sampling_rate() {
    let path = temp_file("column.txt", "0.1\n0.2\n0.3\n0.2\n");

    let out = cardio(&["analyze", path.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--sampling-rate"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn garbage_is_refused_with_the_list_of_formats() {
    let path = temp_file("noise.bin", "\u{1}\u{2}garbage\u{0}\u{0}");

    let out = cardio(&["analyze", path.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("cardio analyze: cannot read"),
        "{stderr}"
    );
    assert!(stderr.contains("WFDB"), "{stderr}");
}
