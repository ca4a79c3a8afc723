//! The GE MUSE XML export under `CARDIO_DATASETS/ecg_documents` (a MUSE 9.0.10 resting ECG),
//! checked against the figures the document itself holds (see the folder's SOURCE.md).
//!
//! Skips (prints why and passes) when the file is missing, fails under `CI=true`.

use cardio_formats::{detect, muse, read_bytes, Format, ReadOptions};

fn example() -> Option<Vec<u8>> {
    let path = cardio_testkit::dataset_file("ecg_documents/ge-muse-example.xml")?;
    Some(std::fs::read(path).unwrap())
}

#[test]
fn the_muse_example_is_recognised_before_hl7_aecg_and_read_as_twelve_leads() {
    let Some(bytes) = example() else {
        return;
    };
    assert_eq!(
        detect(&bytes, Some("ge-muse-example.xml")),
        Some(Format::MuseXml)
    );

    let rec = read_bytes(&bytes, Some("ge-muse-example.xml"), &ReadOptions::default()).unwrap();

    let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6"]
    );
    assert_eq!(rec.sampling_rate_hz, 500.0);
    assert!(rec
        .channels
        .iter()
        .all(|c| c.samples.len() == 5000 && c.unit == "mV"));
    assert_eq!(rec.duration_seconds(), 10.0);
    assert_eq!(rec.start.as_deref(), Some("2020-09-22T09:03:32"));
    assert_eq!(rec.metadata["acquisition_device"], "MAC55");
    // The stored int16 values (I: 22 22 22 22 20, II: 30 30 30 30 27, V2 starts at 110) times
    // 4.88 µV per bit; the limb leads derived from them.
    let first = |name: &str| rec.channel(name).unwrap().samples[..5].to_vec();
    let expect = |name: &str, digits: [f64; 5]| {
        for (got, d) in first(name).iter().zip(digits) {
            assert!((got - d * 0.00488).abs() < 1e-12, "{name}: {got} vs {d}");
        }
    };
    expect("I", [22.0, 22.0, 22.0, 22.0, 20.0]);
    expect("II", [30.0, 30.0, 30.0, 30.0, 27.0]);
    expect("III", [8.0, 8.0, 8.0, 8.0, 7.0]);
    expect("aVR", [-26.0, -26.0, -26.0, -26.0, -23.5]);
    expect("aVL", [7.0, 7.0, 7.0, 7.0, 6.5]);
    expect("aVF", [19.0, 19.0, 19.0, 19.0, 17.0]);
    expect("V2", [110.0, 110.0, 110.0, 110.0, 107.0]);
    let i = rec.channel("I").unwrap();
    assert!((i.samples[1000] - 18.0 * 0.00488).abs() < 1e-12);
}

#[test]
fn the_muse_example_carries_the_carts_measurements_and_statements() {
    let Some(bytes) = example() else {
        return;
    };

    let rec = muse::read(&bytes).unwrap();

    let device = rec.device_interpretation.unwrap();
    assert_eq!(device.source, "GE MUSE 9.0.10.18530, 12SL 239");
    assert_eq!(
        device.statements,
        [
            "Sinus bradycardia with sinus arrhythmia with 1st degree A-V block",
            "Otherwise normal ECG"
        ]
    );
    let measured: Vec<(&str, f64)> = device
        .measurements
        .iter()
        .map(|m| (m.key.as_str(), m.value))
        .collect();
    assert_eq!(
        measured,
        [
            ("heart_rate_bpm", 56.0),
            ("atrial_rate_bpm", 56.0),
            ("pr_ms", 330.0),
            ("qrs_ms", 94.0),
            ("qt_ms", 434.0),
            ("qtc_ms", 418.0),
            ("p_axis_deg", 6.0),
            ("qrs_axis_deg", -22.0),
            ("t_axis_deg", 2.0),
        ]
    );
    assert_eq!(
        rec.metadata["overreader_statements"],
        "Confirmed by Garg, Ruchira M.D."
    );
    assert_eq!(rec.metadata["status"], "CONFIRMED");
}

#[test]
fn the_muse_example_has_a_median_beat_of_1_2_seconds_per_lead() {
    let Some(bytes) = example() else {
        return;
    };

    let doc = muse::read_document(&bytes).unwrap();

    let median = doc.median.unwrap();
    assert_eq!(median.sampling_rate_hz, 500.0);
    assert_eq!(median.channels.len(), 12);
    assert!(median.channels.iter().all(|c| c.samples.len() == 600));
    assert_eq!(median.duration_seconds(), 1.2);
    assert_eq!(median.metadata["waveform"], "Median");
    let i = median.channel("I").unwrap();
    assert!((i.samples[0] - 7.0 * 0.00488).abs() < 1e-12);
    assert_eq!(doc.rhythm.metadata["waveform"], "Rhythm");
}
