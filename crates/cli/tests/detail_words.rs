//! Every detail a model writes reads in Spanish and French: each key of every result's `details`
//! (at any depth) has a label in the web app's catalogues (`results.detailLabels`), and every
//! sentence among the values (notes, quality reasons, the heart-rate source) is read by the models'
//! catalogue (`cardio_models::catalogue::reason`, which the web app and the PDF reports share).
//! The results come from `cardio predict` on real recordings of every modality (a clean and a noisy
//! ECG, AF, a whole 30-min Holter record, heart sounds that are periodic and not, a fingertip and a wrist pulse with its
//! accelerometer) and on clinical rows, so a new key or note a model starts to write fails here.

use std::{collections::BTreeSet, path::Path, process::Command};

use cardio_models::catalogue::{reason, Language};
use serde_json::Value;

/// Detail keys whose values are names (a lead, a model id), never sentences.
const NAME_KEYS: [&str; 6] = ["channel", "model", "input", "id", "version", "submodel"];

fn predict(modality: &str, files: &[&Path]) -> Vec<Value> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cardio"));
    command.args(["predict", modality, "--format", "json"]);
    command.args(files);
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{modality}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    match serde_json::from_slice(&output.stdout).unwrap() {
        Value::Array(results) => results,
        other => panic!("{modality}: not an array: {other}"),
    }
}

/// Every key under `value`, and every (key, sentence) pair of a string value with a space.
fn walk(
    value: &Value,
    parent: &str,
    keys: &mut BTreeSet<String>,
    texts: &mut Vec<(String, String)>,
) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                keys.insert(key.clone());
                walk(inner, key, keys, texts);
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| walk(item, parent, keys, texts)),
        Value::String(text) if text.contains(' ') && !NAME_KEYS.contains(&parent) => {
            texts.push((parent.to_owned(), text.clone()));
        }
        _ => {}
    }
}

fn web_labels(language: &str) -> serde_json::Map<String, Value> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../web/src/i18n/{language}.json"));
    let catalogue: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    catalogue["results"]["detailLabels"]
        .as_object()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn every_detail_key_and_note_of_every_model_reads_in_spanish_and_french() {
    let files = [
        "cinc2017/training2017/A00001.hea",
        "cinc2017/training2017/A00004.hea",
        "cinc2017/training2017/A00022.hea",
        "cinc2016/training-a/a0001.wav",
        "cinc2016/training-a/a0007.wav",
        "bidmc/bidmc_csv/bidmc_01_Signals.csv",
        "ieee_spc2015/Training_data/DATA_01_TYPE01.mat",
        "mitdb/208.hea",
        "mitdb/208.dat",
        "mitdb/208.atr",
    ];
    let Some(root) = cardio_testkit::datasets(&files) else {
        return;
    };
    let path = |i: usize| root.join(files[i]);
    let clinical =
        std::env::temp_dir().join(format!("cardio-detail-words-{}.csv", std::process::id()));
    std::fs::write(
        &clinical,
        "age,chest_pain_type,cholesterol,fasting_blood_sugar,exercise_induced_angina,vessels_colored_by_flourosopy,thalassemia\n\
         63,3,286,100,1,2,2\n55,3,,,1,,\n",
    )
    .unwrap();
    let mut results = predict("ecg", &[&path(0), &path(1), &path(2)]);
    results.extend(predict("pcg", &[&path(3), &path(4)]));
    results.extend(predict("ppg", &[&path(5), &path(6)]));
    results.extend(predict("clinical", &[&clinical]));
    // A whole 30-min record with ventricular ectopy: the long-record keys (episodes, beat
    // classes, hourly table, HRV).
    results.extend(predict("ecg", &[&path(7)]));
    let _ = std::fs::remove_file(&clinical);
    assert_eq!(results.len(), 10);

    let mut keys = BTreeSet::new();
    let mut texts = Vec::new();
    for result in &results {
        walk(&result["details"], "details", &mut keys, &mut texts);
    }
    // The recordings were chosen to make the notes appear: these must be among what is checked.
    for key in [
        "heart_rate_source",
        "accel_channels",
        "window_results",
        "timing_note",
        "beat_counts",
        "v_couplets",
        "hourly",
    ] {
        assert!(keys.contains(key), "no {key} among {keys:?}");
    }

    let english = web_labels("en");
    for language in ["es", "fr"] {
        let labels = web_labels(language);
        let missing: Vec<&String> = keys.iter().filter(|k| !labels.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{language}: no label for {missing:?}");
        let missing_en: Vec<&String> = keys.iter().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing_en.is_empty(), "en: no label for {missing_en:?}");
        let catalogue = Language::from_code(language).unwrap();
        for (key, text) in &texts {
            assert_ne!(
                &reason(catalogue, text),
                text,
                "{language}: the {key} note is not in the models' catalogue"
            );
        }
    }
}
