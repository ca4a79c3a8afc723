//! Reads the tiny committed audio fixtures (FLAC, OGG/Vorbis, MP3) written by
//! `tests/fixtures/make_audio_fixtures.py`: 0.25 s at 8 kHz, 440 Hz at amplitude 0.5 (left / mono),
//! 220 Hz at 0.25 (right).

use std::path::PathBuf;

use cardio_formats::{detect, read_path, Format};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn peak(samples: &[f64]) -> f64 {
    samples.iter().fold(0.0, |m, v| m.max(v.abs()))
}

#[test]
fn a_stereo_flac_gives_the_mix_and_both_channels_exactly() {
    let path = fixture("tone_stereo.flac");
    assert_eq!(
        detect(&std::fs::read(&path).unwrap(), None),
        Some(Format::Flac)
    );
    let rec = read_path(&path).unwrap();
    assert_eq!(rec.sampling_rate_hz, 8000.0);
    let names: Vec<&str> = rec.channels.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["mix", "left", "right"]);
    assert!(rec.channels.iter().all(|c| c.samples.len() == 2000));
    // libsndfile's 16-bit values, as soundfile reads them back.
    assert_eq!(
        &rec.channels[1].samples[..3],
        &[0.0, 0.169_372_558_593_75, 0.318_725_585_937_5]
    );
    assert_eq!(&rec.channels[2].samples[..2], &[0.0, 0.042_968_75]);
    assert_eq!(
        rec.channels[0].samples[1],
        f64::midpoint(0.169_372_558_593_75, 0.042_968_75)
    );
}

#[test]
fn an_ogg_vorbis_file_decodes_to_the_tone() {
    let path = fixture("tone_mono.ogg");
    assert_eq!(
        detect(&std::fs::read(&path).unwrap(), None),
        Some(Format::Ogg)
    );
    let rec = read_path(&path).unwrap();
    assert_eq!(rec.sampling_rate_hz, 8000.0);
    assert_eq!(rec.channels.len(), 1);
    let s = &rec.channels[0].samples;
    assert!((1900..=2100).contains(&s.len()), "{}", s.len());
    assert!((peak(s) - 0.5).abs() < 0.05, "{}", peak(s));
}

#[test]
fn an_mp3_file_decodes_to_the_tone() {
    let path = fixture("tone_mono.mp3");
    assert_eq!(
        detect(&std::fs::read(&path).unwrap(), Some("tone_mono.mp3")),
        Some(Format::Mp3)
    );
    let rec = read_path(&path).unwrap();
    assert_eq!(rec.sampling_rate_hz, 8000.0);
    let s = &rec.channels[0].samples;
    // MP3 adds encoder delay and padding of up to a few frames of 576 samples.
    assert!((1900..=4500).contains(&s.len()), "{}", s.len());
    assert!((peak(s) - 0.5).abs() < 0.1, "{}", peak(s));
}

#[test]
fn an_edf_plus_file_written_by_pyedflib_reads_like_pyedflib_reads_it() {
    let path = fixture("ecg_plus.edf");
    assert_eq!(
        detect(&std::fs::read(&path).unwrap(), None),
        Some(Format::Edf)
    );
    let rec = read_path(&path).unwrap();
    assert_eq!(rec.sampling_rate_hz, 100.0);
    assert_eq!(
        rec.channels.len(),
        1,
        "Resp (10 Hz) and the annotations are left out"
    );
    assert_eq!(
        (rec.channels[0].name.as_str(), rec.channels[0].unit.as_str()),
        ("ECG II", "mV")
    );
    assert_eq!(rec.metadata["skipped_signals"], "Resp (10 Hz)");
    assert_eq!(rec.start.as_deref(), Some("2024-02-29T08:30:15"));
    let s = &rec.channels[0].samples;
    assert_eq!(s.len(), 300);
    // pyedflib `EdfReader.readSignal(0)[[0, 1, 2, 150, 299]]`.
    let expected = [
        0.0,
        0.150_914_029_358_806_13,
        0.299_996_948_149_052_4,
        -1.901_913_510_544_145,
        -1.049_989_318_521_683_3,
    ];
    for (i, e) in [0, 1, 2, 150, 299].into_iter().zip(expected) {
        assert!((s[i] - e).abs() < 1e-9, "sample {i}: {} vs {e}", s[i]);
    }
}
