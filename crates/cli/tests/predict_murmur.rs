//! `cardio predict murmur PATH...` end to end on `circor_sample`: a folder of one patient's
//! recordings and a single recording each give one row of exactly
//! `patient,verdict,probability,sites,timing,grade`; the sites are those of the patient's recordings
//! whose murmur probability reaches the threshold, read from the file names; the JSON gives every
//! recording; a folder without recordings is an error row, a sentence on stderr and exit status 1.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const HEADER: &str = "patient,verdict,probability,sites,timing,grade";

fn cardio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardio"))
        .args(args)
        .output()
        .unwrap()
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardio-murmur-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A folder holding the sample patient's recordings (and, to be ignored, its header and
/// segmentation files).
fn patient_folder(sample: &Path, id: &str, test: &str) -> PathBuf {
    let dir = temp_dir(test).join(id);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(sample).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with(&format!("{id}_")) {
            std::fs::copy(&path, dir.join(&name)).unwrap();
        }
    }
    dir
}

#[test]
fn a_patient_folder_and_a_single_recording_give_one_row_each() {
    let Some(root) = cardio_testkit::datasets(&["circor_sample/training_data"]) else {
        return;
    };
    let sample = root.join("circor_sample/training_data");
    // 85133: a murmur heard at all four sites (AV, PV, TV, MV).
    let folder = patient_folder(&sample, "85133", "folder");
    let single = sample.join("85133_MV.wav");
    let out = cardio(&[
        "predict",
        "murmur",
        folder.to_str().unwrap(),
        single.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], HEADER);
    assert_eq!(lines.len(), 3, "{stdout}");
    for (line, name) in lines[1..].iter().zip([&folder, &single]) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 6, "{line}");
        assert_eq!(cells[0], name.to_str().unwrap());
        assert!(
            ["present", "absent", "unknown"].contains(&cells[1]),
            "{line}"
        );
        let p: f64 = cells[2].parse().unwrap();
        assert!((0.0..=1.0).contains(&p), "{line}");
        for site in cells[3].split('+').filter(|s| !s.is_empty()) {
            assert!(["AV", "PV", "TV", "MV", "Phc"].contains(&site), "{line}");
        }
        if cells[1] == "present" {
            assert!(!cells[3].is_empty(), "a murmur heard somewhere: {line}");
            assert!(
                ["early-systolic", "mid-systolic", "holosystolic"].contains(&cells[4]),
                "{line}"
            );
            assert!(["I/VI", "II/VI", "III/VI"].contains(&cells[5]), "{line}");
        } else {
            assert_eq!(&cells[3..], ["", "", ""], "{line}");
        }
    }
    // The single recording is the patient with one site: its site is MV when a murmur is heard.
    let single_cells: Vec<&str> = lines[2].split(',').collect();
    if single_cells[1] == "present" {
        assert_eq!(single_cells[3], "MV");
    }

    // The JSON: the same verdict, with each of the four recordings and its site.
    let out = cardio(&[
        "predict",
        "murmur",
        "--format",
        "json",
        folder.to_str().unwrap(),
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let patient = &json[0];
    assert_eq!(patient["verdict"], lines[1].split(',').nth(1).unwrap());
    let recs = patient["recordings"].as_array().unwrap();
    let sites: Vec<&str> = recs.iter().map(|r| r["site"].as_str().unwrap()).collect();
    assert_eq!(sites, ["AV", "MV", "PV", "TV"]);
    for r in recs {
        if let Some(p) = r.get("probabilities") {
            let sum: f64 = ["absent", "present", "unknown"]
                .iter()
                .map(|k| p[k].as_f64().unwrap())
                .sum();
            assert!((sum - 1.0).abs() < 1e-9, "{r}");
        } else {
            assert!(r["error"].is_string(), "{r}");
        }
    }
}

#[test]
fn a_path_that_does_not_exist_is_an_error_row_and_exit_status_one() {
    let missing = temp_dir("missing").join("no-such-patient");
    let out = cardio(&["predict", "murmur", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{HEADER}\n{},,,,,\n", missing.to_str().unwrap())
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim(),
        format!("{}: no such file or folder", missing.display())
    );
}

#[test]
fn a_recording_that_cannot_be_read_leaves_its_patient_unknown_and_says_why() {
    let dir = temp_dir("corrupt").join("patient");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p_AV.wav"), b"RIFF not a wave file").unwrap();
    let out = cardio(&["predict", "murmur", dir.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{HEADER}\n{},unknown,,,,\n", dir.to_str().unwrap())
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&format!("{}: not read: ", dir.join("p_AV.wav").display())),
        "{stderr}"
    );
}

#[test]
fn a_folder_without_recordings_is_an_error_row_and_exit_status_one() {
    let empty = temp_dir("empty");
    std::fs::write(empty.join("notes.txt"), "no sound here").unwrap();
    let out = cardio(&["predict", "murmur", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        format!("{HEADER}\n{},,,,,\n", empty.to_str().unwrap())
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            ": no heart-sound recording (WAV, MP3, M4A, OGG, FLAC, MAT or EDF) in this folder"
        ),
        "{stderr}"
    );
}
