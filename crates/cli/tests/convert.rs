//! `cardio convert` on a GE MUSE XML example, to EDF+, WFDB and CSV with the built binary; each
//! output is read back with our readers and, through `$TEST_PEER_PYTHON` (set by `make test`, see
//! `make peer-readers`), with wfdb-python and pyEDFlib: the same lead names, rate and samples within
//! the format's quantisation step.

use std::path::Path;
use std::process::Command;

use cardio_formats::Recording;

/// The largest |value| of a channel and its EDF range (0 included, as NaN is written as 0).
fn extent(samples: &[f64]) -> (f64, f64) {
    let finite = samples.iter().copied().filter(|v| v.is_finite());
    let largest = finite.clone().fold(0.0f64, |m, v| m.max(v.abs()));
    let (lo, hi) = finite.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (largest, (hi - lo).max(1.0))
}

/// Asserts that `got` (per lead, NaN where missing) matches `source` within `step(lead)`; with
/// `nan_as_zero` a missing source sample must read as 0 (EDF), else as NaN.
fn assert_close(
    what: &str,
    source: &Recording,
    got: &[Vec<f64>],
    step: impl Fn(&[f64]) -> f64,
    nan_as_zero: bool,
) {
    assert_eq!(got.len(), source.channels.len(), "{what}");
    for (channel, values) in source.channels.iter().zip(got) {
        let tolerance = step(&channel.samples) + 1e-9;
        assert!(
            values.len() >= channel.samples.len(),
            "{what} {}",
            channel.name
        );
        for (i, (x, y)) in channel.samples.iter().zip(values).enumerate() {
            match (x.is_nan(), nan_as_zero) {
                (true, false) => assert!(y.is_nan(), "{what} {} [{i}]: {y}", channel.name),
                (true, true) => assert!(y.abs() <= tolerance, "{what} {} [{i}]: {y}", channel.name),
                _ => assert!(
                    (x - y).abs() <= tolerance,
                    "{what} {} [{i}]: {x} against {y} (step {tolerance})",
                    channel.name
                ),
            }
        }
    }
}

fn wfdb_step(samples: &[f64]) -> f64 {
    extent(samples).0 / 29_000.0
}

fn edf_step(samples: &[f64]) -> f64 {
    extent(samples).1 * 1.03 / 65535.0
}

fn json_samples(value: &serde_json::Value) -> Vec<Vec<f64>> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|lead| {
            lead.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap_or(f64::NAN))
                .collect()
        })
        .collect()
}

fn convert(input: &Path, output: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_cardio"))
        .arg("convert")
        .arg(input)
        .arg(output)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cardio convert {}: {}",
        output.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_muse_ecg_converts_to_edf_wfdb_and_csv_that_read_back_here_and_in_peer_readers() {
    let Some(input) = cardio_testkit::dataset_file("ecg_documents/ge-muse-example.xml") else {
        return;
    };
    let source = cardio_formats::read_path(&input).unwrap();
    assert!(source.channels.iter().all(|c| c.unit == "mV"));
    let names: Vec<String> = source.channels.iter().map(|c| c.name.clone()).collect();
    let dir = std::env::temp_dir().join(format!("cardio-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (edf, hea, csv) = (
        dir.join("muse.edf"),
        dir.join("muse.hea"),
        dir.join("muse.csv"),
    );
    for output in [&edf, &hea, &csv] {
        convert(&input, output);
    }
    assert!(dir.join("muse.dat").is_file());

    for (path, step, nan_as_zero) in [
        (&edf, edf_step as fn(&[f64]) -> f64, true),
        (&hea, wfdb_step, false),
        (&csv, |_: &[f64]| 1e-9, false),
    ] {
        let back = cardio_formats::read_path(path).unwrap();
        let what = path.display().to_string();
        let back_names: Vec<String> = back.channels.iter().map(|c| c.name.clone()).collect();
        assert_eq!(back_names, names, "{what}");
        assert!(
            (back.sampling_rate_hz - source.sampling_rate_hz).abs() < 1e-6,
            "{what}"
        );
        let samples: Vec<Vec<f64>> = back.channels.iter().map(|c| c.samples.clone()).collect();
        assert_close(&what, &source, &samples, step, nan_as_zero);
    }

    let Some(python) = cardio_testkit::peer_python() else {
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peer_readers/read_back.py");
    let out = Command::new(python)
        .arg(script)
        .arg(&hea)
        .arg(&edf)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let peer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (reader, step, nan_as_zero) in [
        ("wfdb", wfdb_step as fn(&[f64]) -> f64, false),
        ("edf", edf_step, true),
    ] {
        let seen = &peer[reader];
        let seen_names: Vec<String> = serde_json::from_value(seen["names"].clone()).unwrap();
        assert_eq!(seen_names, names, "{reader}");
        assert!(
            (seen["rate"].as_f64().unwrap() - source.sampling_rate_hz).abs() < 1e-6,
            "{reader}: {}",
            seen["rate"]
        );
        let units: Vec<String> = serde_json::from_value(seen["units"].clone()).unwrap();
        assert!(units.iter().all(|u| u == "mV"), "{reader}: {units:?}");
        assert_close(
            reader,
            &source,
            &json_samples(&seen["samples"]),
            step,
            nan_as_zero,
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
