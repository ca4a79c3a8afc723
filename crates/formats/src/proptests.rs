//! Robustness: every parser is fed arbitrary bytes and mutated valid files and must return, never
//! panic. Each property runs a few hundred cases so that `cargo test` stays fast; raise
//! `PROPTEST_CASES` for a longer run (e.g. `PROPTEST_CASES=100000 cargo test -p cardio-formats
//! --release proptests`).

use proptest::prelude::*;

use crate::{
    aecg, audio, csv, dicom, edf, ishne, mat, muse, pdf, read_bytes, wfdb, Format, ReadOptions,
};

/// One edit to a valid file.
#[derive(Debug, Clone)]
enum Edit {
    /// Replace the byte at (position mod length).
    Set(usize, u8),
    /// Overwrite 4 bytes with an extreme 32-bit value.
    Extreme(usize, u32),
    /// Cut the file at (position mod length).
    Truncate(usize),
    /// Insert bytes at (position mod length).
    Insert(usize, Vec<u8>),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::Set(p, b)),
        2 => (any::<usize>(), prop_oneof![Just(0u32), Just(u32::MAX), Just(0x7fff_ffff), Just(0x8000_0000), any::<u32>()])
            .prop_map(|(p, v)| Edit::Extreme(p, v)),
        1 => any::<usize>().prop_map(Edit::Truncate),
        1 => (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..16)).prop_map(|(p, b)| Edit::Insert(p, b)),
    ]
}

fn mutate(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        if bytes.is_empty() {
            break;
        }
        let at = |p: usize, len: usize| p % len;
        match e {
            Edit::Set(p, b) => {
                let i = at(*p, bytes.len());
                bytes[i] = *b;
            }
            Edit::Extreme(p, v) => {
                let i = at(*p, bytes.len());
                for (k, b) in v.to_le_bytes().into_iter().enumerate() {
                    if let Some(slot) = bytes.get_mut(i + k) {
                        *slot = b;
                    }
                }
            }
            Edit::Truncate(p) => {
                let i = at(*p, bytes.len());
                bytes.truncate(i);
            }
            Edit::Insert(p, extra) => {
                let i = at(*p, bytes.len());
                bytes.splice(i..i, extra.iter().copied());
            }
        }
    }
    bytes
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec(edit(), 1..6)
}

fn valid_wfdb() -> (String, Vec<u8>) {
    let header = "rec 2 360 6 05:05:15 1/05/2000\nrec.dat 212 200 11 1024 995 0 0 MLII\n\
                  rec.dat 212 200(3)/uV 11 1024 1011 0 0 V5\n# comment\n"
        .to_string();
    (header, (0u8..18).collect())
}

fn valid_mat5() -> Vec<u8> {
    use std::io::Write;
    let plain = mat::tests::mat5_matrix("sig", 2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let inner = mat::tests::mat5_matrix("BPM0", 2, 1, &[70.0, 71.0]);
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&inner).unwrap();
    let z = enc.finish().unwrap();
    let mut compressed = 15u32.to_le_bytes().to_vec();
    compressed.extend(u32::try_from(z.len()).unwrap().to_le_bytes());
    compressed.extend(z);
    mat::tests::mat5_file(&[plain, compressed])
}

fn valid_edf() -> Vec<u8> {
    let spec = |label, per_record| edf::tests::Spec {
        label,
        unit: "mV",
        physical: (-5.0, 5.0),
        digital: (-2048, 2047),
        per_record,
    };
    edf::tests::edf(
        false,
        "EDF+C",
        "1",
        &[spec("ECG", 4), spec("Resp", 2), spec("EDF Annotations", 2)],
        &vec![vec![vec![1, 2, 3, 4], vec![5, 6], vec![0x142b, 0]]; 3],
    )
}

fn valid_wav() -> Vec<u8> {
    let data: Vec<u8> = (0..64i16).flat_map(|v| (v * 500).to_le_bytes()).collect();
    audio::tests::wav(1, 2, 1000, 16, &data)
}

const NAMES: [&str; 10] = [
    "x.hea", "x.atr", "x.mat", "x.edf", "x.csv", "x.wav", "x.mp3", "x.ecg", "x.dcm", "x",
];

/// 256 cases per property unless `PROPTEST_CASES` asks for more.
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 256;
    }
    config
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn read_bytes_never_panics_on_arbitrary_bytes(
        bytes in proptest::collection::vec(any::<u8>(), 0..2048),
        name in 0usize..NAMES.len(),
        rate in prop_oneof![Just(None), Just(Some(250.0)), Just(Some(0.0)), Just(Some(f64::NAN))],
    ) {
        let _ = read_bytes(&bytes, Some(NAMES[name]), &ReadOptions { sampling_rate_hz: rate });
        let _ = crate::detect(&bytes, None);
    }

    #[test]
    fn wfdb_records_never_panic_when_header_or_signal_file_is_mutated(
        header_edits in edits(), data_edits in edits(), mutate_header in any::<bool>(),
    ) {
        let (header, data) = valid_wfdb();
        let header = if mutate_header { mutate(header.into_bytes(), &header_edits) } else { header.into_bytes() };
        let data = mutate(data, &data_edits);
        let _ = wfdb::read_record(&header, |_| Ok(data.clone()));
    }

    #[test]
    fn wfdb_headers_never_panic_on_arbitrary_text(text in "[ -~\n#/():+x.é]{0,300}") {
        let _ = wfdb::parse_header(&text);
        let _ = wfdb::read_record(text.as_bytes(), |_| Ok(vec![1, 2, 3, 4, 5, 6]));
    }

    #[test]
    fn annotations_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        let _ = wfdb::read_annotations(&bytes);
    }

    #[test]
    fn mat_files_never_panic_when_mutated(e in edits(), level5 in any::<bool>()) {
        let base = if level5 {
            valid_mat5()
        } else {
            let data: Vec<u8> = [-127i16, 5, 300].iter().flat_map(|v| v.to_le_bytes()).collect();
            let mut m = mat::tests::mat4("val", 30, 1, 3, &data);
            m.extend(mat::tests::mat4("fs", 0, 1, 1, &300f64.to_le_bytes()));
            m
        };
        let bytes = mutate(base, &e);
        let _ = mat::read_matrices(&bytes);
        let _ = mat::read_recording(&bytes, &ReadOptions::default());
    }

    #[test]
    fn csv_never_panics_on_mutated_or_arbitrary_text(
        e in edits(), text in "[0-9a-z ,;\t.:\\-\"'\n\\[\\]()]{0,400}",
    ) {
        let base = b"Time [s], RESP, PLETH\n0,0.1,0.2\n0.008,0.3,0.4\n0.016,0.5,0.6\n".to_vec();
        let _ = csv::read(&mutate(base, &e), &ReadOptions::default());
        let _ = csv::read(text.as_bytes(), &ReadOptions { sampling_rate_hz: Some(100.0) });
    }

    #[test]
    fn apple_health_exports_never_panic_when_mutated(e in edits(), comma in any::<bool>()) {
        let mut base = csv::apple::tests::SAMPLE.to_string();
        if comma {
            base = base.replace("-145.098", "-145,098");
        }
        let _ = csv::read(&mutate(base.into_bytes(), &e), &ReadOptions::default());
    }

    #[test]
    fn edf_never_panics_when_mutated(e in edits(), bdf in any::<bool>()) {
        let mut bytes = valid_edf();
        if bdf {
            bytes[..8].copy_from_slice(b"\xffBIOSEMI");
        }
        let _ = edf::read(&mutate(bytes, &e));
    }

    #[test]
    fn audio_never_panics_when_mutated(e in edits(), which in 0usize..4) {
        let (base, format) = match which {
            0 => (valid_wav(), Format::Wav),
            1 => (include_bytes!("../tests/fixtures/tone_stereo.flac").to_vec(), Format::Flac),
            2 => (include_bytes!("../tests/fixtures/tone_mono.mp3").to_vec(), Format::Mp3),
            _ => (include_bytes!("../tests/fixtures/tone_mono.ogg").to_vec(), Format::Ogg),
        };
        let _ = audio::read(&mutate(base, &e), format);
    }

    #[test]
    fn ishne_never_panics_when_mutated(e in edits()) {
        let bytes = ishne::tests::ishne(&[(6, 2500), (11, 1000), (0, -5)], 200, &[1, -2, 3, 4, 5, 6, 7, 8, 9]);
        let _ = ishne::read(&mutate(bytes, &e));
    }

    #[test]
    fn streamed_records_never_panic_when_mutated(
        header_edits in edits(), data_edits in edits(), ishne_edits in edits(), edf_edits in edits(),
        from in 0usize..20, len in 0usize..20,
    ) {
        let dir = std::env::temp_dir().join(format!(
            "cardio-stream-fuzz-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let (header, data) = valid_wfdb();
        std::fs::write(dir.join("r.hea"), mutate(header.into_bytes(), &header_edits)).unwrap();
        std::fs::write(dir.join("rec.dat"), mutate(data, &data_edits)).unwrap();
        let bytes = ishne::tests::ishne(&[(6, 2500), (11, 1000), (0, -5)], 200, &[1, -2, 3, 4, 5, 6, 7, 8, 9]);
        std::fs::write(dir.join("h.ecg"), mutate(bytes, &ishne_edits)).unwrap();
        let spec = edf::tests::Spec {
            label: "ECG",
            unit: "mV",
            physical: (-5.0, 5.0),
            digital: (-2048, 2047),
            per_record: 3,
        };
        let records: Vec<Vec<Vec<i32>>> = (0..6).map(|r| vec![vec![r, -r, 2 * r]]).collect();
        let bytes = edf::tests::edf(false, "EDF+C", "1", &[spec], &records);
        std::fs::write(dir.join("d.edf"), mutate(bytes, &edf_edits)).unwrap();
        for file in ["r.hea", "h.ecg", "d.edf"] {
            if let Ok(Some(record)) = crate::open_path(&dir.join(file), 0.01) {
                for signal in &record.signals {
                    let _ = signal.read(from, from + len);
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn aecg_never_panics_when_mutated(e in edits()) {
        let _ = aecg::read(&mutate(aecg::tests::SAMPLE.as_bytes().to_vec(), &e));
    }

    #[test]
    fn muse_never_panics_when_mutated(e in edits()) {
        let _ = muse::read_document(&mutate(muse::tests::sample().into_bytes(), &e));
    }

    #[test]
    fn dicom_never_panics_when_mutated(e in edits(), implicit in any::<bool>()) {
        let mut base = dicom::tests::sample();
        if implicit {
            // The same data set read as implicit VR: every length is misread.
            let at = base.windows(19).position(|w| w == b"1.2.840.10008.1.2.1").unwrap();
            base[at + 17..at + 19].copy_from_slice(b"\0\0");
        }
        let _ = dicom::read_document(&mutate(base, &e));
    }

    #[test]
    fn pdf_never_panics_when_mutated(e in edits()) {
        let _ = pdf::read(&mutate(pdf::tests::sample_pdf(), &e));
    }

    #[test]
    fn pdf_never_panics_on_arbitrary_bytes_after_a_pdf_header(
        bytes in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        let mut file = b"%PDF-1.4\n".to_vec();
        file.extend_from_slice(&bytes);
        let _ = pdf::read(&file);
    }
}
