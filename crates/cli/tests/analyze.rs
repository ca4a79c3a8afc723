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

/// A wrist CSV at 50 Hz for 40 s: a pulse at 90 bpm under an arm swing at 150 /min that is stronger
/// in the PPG than the pulse, with the swing in the accelerometer columns.
fn wrist_csv(accel_names: [&str; 3]) -> String {
    let fs = 50.0;
    let mut csv = format!(
        "time_s,ppg,{},{},{}\n",
        accel_names[0], accel_names[1], accel_names[2]
    );
    let tau = 2.0 * std::f64::consts::PI;
    for i in 0..(fs as usize * 40) {
        let t = i as f64 / fs;
        let swing = (tau * 2.5 * t).sin();
        let ppg = (tau * 1.5 * t).sin() + 1.5 * swing;
        writeln!(
            csv,
            "{t:.3},{ppg:.5},{:.5},{:.5},0",
            swing,
            0.4 * (tau * 2.5 * t).cos()
        )
        .unwrap();
    }
    csv
}

#[test]
fn a_wrist_csv_with_accelerometer_columns_gets_the_motion_compensated_rate() {
    let named = temp_file("wrist.csv", &wrist_csv(["acc_x", "acc_y", "acc_z"]));
    let unnamed = temp_file("wrist-unnamed.csv", &wrist_csv(["m1", "m2", "m3"]));
    let run = |path: &PathBuf, extra: &[&str]| {
        let mut args = vec![
            "analyze",
            path.to_str().unwrap(),
            "--kind",
            "ppg",
            "--channel",
            "ppg",
            "--hr-window",
            "8",
            "--hr-step",
            "2",
        ];
        args.extend(extra);
        let out = cardio(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };

    let found = run(&named, &[]);
    let given = run(&unnamed, &["--accel", "m1,2,m3"]);
    let without = run(&unnamed, &[]);

    assert_eq!(
        found["accel_channels"],
        serde_json::json!(["acc_x", "acc_y", "acc_z"])
    );
    assert_eq!(
        given["accel_channels"],
        serde_json::json!(["m1", "m2", "m3"])
    );
    for json in [&found, &given] {
        assert!(
            (json["heart_rate_bpm"].as_f64().unwrap() - 90.0).abs() <= 1.0,
            "{json}"
        );
        let series = json["hr_series"].as_array().unwrap();
        assert_eq!(series.len(), 17);
        assert!(series
            .iter()
            .all(|w| (w["bpm"].as_f64().unwrap() - 90.0).abs() <= 1.0));
    }
    assert!(without.get("accel_channels").is_none(), "{without}");
    assert!(
        (without["heart_rate_bpm"].as_f64().unwrap() - 90.0).abs() > 5.0,
        "peak detection alone follows the swing: {without}"
    );
}

#[test]
fn a_twelve_lead_record_gets_every_leads_beats_the_measurements_and_the_statements() {
    // The MUSE example: GE 12SL printed rate 56, PR 330 ms, QRS 94 ms (ecg_documents SOURCE.md).
    let Some(path) = cardio_testkit::dataset_file("ecg_documents/ge-muse-example.xml") else {
        return;
    };
    let out = cardio(&["analyze", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let leads = json["leads"].as_array().unwrap();
    let names: Vec<&str> = leads.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6"]
    );
    let keys = [
        "p_on", "p_peak", "p_off", "qrs_on", "r_peak", "qrs_off", "t_on", "t_peak", "t_off",
    ];
    for lead in leads {
        let beats = lead["beats"].as_array().unwrap();
        assert!(beats.len() >= 8, "{lead}");
        for beat in beats {
            for key in keys {
                assert!(beat.get(key).is_some(), "no {key} in {beat}");
            }
            // Seconds from the record's start, in the order of the waves.
            let (on, r, off) = (&beat["qrs_on"], &beat["r_peak"], &beat["qrs_off"]);
            if let (Some(on), Some(r), Some(off)) = (on.as_f64(), r.as_f64(), off.as_f64()) {
                assert!(on <= r && r <= off && off < 10.0, "{beat}");
            }
        }
    }
    let m = &json["measurements"];
    assert!(
        (m["heart_rate_bpm"].as_f64().unwrap() - 56.0).abs() <= 2.0,
        "{m}"
    );
    assert!((m["pr_ms"].as_f64().unwrap() - 330.0).abs() <= 10.0, "{m}");
    assert!((m["qrs_ms"].as_f64().unwrap() - 94.0).abs() <= 10.0, "{m}");
    let codes: Vec<&str> = json["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"first_degree_av_block"), "{codes:?}");
    assert!(codes.contains(&"sinus_bradycardia"), "{codes:?}");
    let block = json["statements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["code"] == "first_degree_av_block")
        .unwrap();
    assert_eq!(block["text"], "1st-degree AV block");
    assert!(
        block["values"].as_str().unwrap().starts_with("PR 3"),
        "{block}"
    );
}
