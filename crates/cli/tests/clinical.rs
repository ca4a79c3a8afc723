//! `cardio predict clinical` end to end: a CSV of the seven parameters in, one scored row out per
//! patient, in the exact CSV format (and as JSON).

use std::{
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
