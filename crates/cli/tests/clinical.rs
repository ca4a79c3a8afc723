//! `cardio predict clinical` end to end: a CSV of the seven parameters in, one scored row out per
//! patient, in the exact CSV format (and as JSON).

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    process::Command,
};

fn temp_file(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardio-cli-clinical-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

const INPUT: &str = "age,chest_pain_type,cholesterol,fasting_blood_sugar,exercise_induced_angina,vessels_colored_by_flourosopy,thalassemia\n\
                     63,3,286,100,1,2,2\n\
                     40,2,190,85,0,0,0\n\
                     55,3,,,1,,\n";

fn cardio(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cardio"))
        .args(args)
        .output()
        .unwrap()
}

/// `cardio predict clinical PATH --format json`.
fn predict_json(path: &Path) -> std::process::Output {
    cardio(&[
        "predict",
        "clinical",
        path.to_str().unwrap(),
        "--format",
        "json",
    ])
}

#[test]
fn predicts_a_csv_of_patients_in_the_exact_csv_format() {
    let path = temp_file("patients.csv", INPUT);

    let out = cardio(&["predict", "clinical", path.to_str().unwrap()]);

    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "row,label,prediction,confidence,risk_score");
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with("1,disease,"), "{}", lines[1]);
    assert!(lines[2].starts_with("2,no_disease,"), "{}", lines[2]);
    for line in &lines[1..] {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 5, "{line}");
        let confidence: f64 = cells[3].parse().unwrap();
        let risk: f64 = cells[4].parse().unwrap();
        assert!((0.5..=1.0).contains(&confidence) && (0.0..=1.0).contains(&risk));
    }
    // Same input, same output.
    let again = cardio(&["predict", "clinical", path.to_str().unwrap()]);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), stdout);
}

#[test]
fn json_output_carries_the_model_details() {
    let path = temp_file("patients-json.csv", INPUT);

    let out = predict_json(&path);

    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = value.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["label"], "disease");
    assert_eq!(rows[0]["model_id"], "clinical-lr");
    assert_eq!(rows[2]["submodel"], "reduced");
}

#[test]
fn a_bad_row_gets_an_empty_label_and_the_rest_continue() {
    let path = temp_file(
        "bad.csv",
        "age,chest_pain_type,cholesterol,fasting_blood_sugar,exercise_induced_angina,vessels_colored_by_flourosopy,thalassemia\n\
         63,7,286,100,1,2,2\n40,2,190,85,0,0,0\n",
    );

    let out = cardio(&["predict", "clinical", path.to_str().unwrap()]);

    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("\n1,,,,\n"), "{stdout}");
    assert!(stdout.contains("\n2,no_disease,"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("row 1"));

    // In JSON the bad row has an empty label too, as in `cardio predict ecg|pcg|ppg`.
    let out = predict_json(&path);
    assert_eq!(out.status.code(), Some(1));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows[0]["row"], 1);
    assert_eq!(rows[0]["label"], "");
    assert!(
        rows[0]["error"]
            .as_str()
            .unwrap()
            .contains("chest_pain_type"),
        "{rows}"
    );
    assert_eq!(rows[1]["label"], "no_disease");
}

/// A `processed.*.data` file of `n` made-up patients (14 UCI attributes): disease follows chest pain
/// a little and ST depression a lot, so a model that uses the optional attributes does better than
/// one that does not. Deterministic (a fixed linear congruential sequence).
fn synthetic_uci(n: usize, seed: u64) -> String {
    let mut state = seed;
    let mut next = move |k: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % k
    };
    let mut text = String::new();
    for i in 0..n {
        let disease = i % 2 == 0;
        let cp = if disease && next(3) > 0 {
            4
        } else {
            1 + next(4)
        };
        let oldpeak = if disease {
            1.0 + next(30) as f64 / 10.0
        } else {
            next(15) as f64 / 10.0
        };
        let slope = 1 + next(3);
        let _ = writeln!(
            text,
            "{},{},{cp},{},{},{},{},{},{},{oldpeak},{slope},{},{},{}",
            35 + next(40),
            next(2),
            100 + next(80),
            150 + next(200),
            next(2),
            next(3),
            90 + next(100),
            next(2),
            next(4),
            [3, 6, 7][next(3) as usize],
            if disease { 1 + next(4) } else { 0 },
        );
    }
    text
}

#[test]
fn eval_clinical_format_json_computes_the_four_headline_aurocs() {
    let root = std::env::temp_dir().join(format!("cardio-cli-uci-{}", std::process::id()));
    let dir = root.join("uci_heart");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("processed.cleveland.data"), synthetic_uci(80, 1)).unwrap();
    std::fs::write(dir.join("processed.hungarian.data"), synthetic_uci(60, 2)).unwrap();

    let out = cardio(&[
        "eval",
        "clinical",
        "--datasets",
        root.to_str().unwrap(),
        "--format",
        "json",
    ]);

    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let number = |key: &str| {
        report[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} is not a number"))
    };
    for key in [
        "cv_auroc_seven",
        "cv_auroc_seven_plus_sex",
        "cv_auroc_all",
        "external_auroc_hungary",
    ] {
        assert!((0.0..=1.0).contains(&number(key)), "{key}");
    }
    assert_eq!(
        number("cv_auroc_seven"),
        report["cv"]["auroc"].as_f64().unwrap()
    );
    assert_eq!(
        number("cv_auroc_all"),
        report["cv_all"]["auroc"].as_f64().unwrap()
    );
    assert_eq!(
        number("external_auroc_hungary"),
        report["external"][0]["auroc"].as_f64().unwrap()
    );
    assert_eq!(report["cv"]["rows"], 80);
    assert!(
        number("cv_auroc_all") > number("cv_auroc_seven") + 0.05,
        "ST depression carries the signal: all {} vs seven {}",
        number("cv_auroc_all"),
        number("cv_auroc_seven")
    );
    let _ = std::fs::remove_dir_all(&root);
}
