//! Unit tests of the WFDB reader.

use super::*;

fn pack_212(values: &[i32]) -> Vec<u8> {
    let mut out = Vec::new();
    for pair in values.chunks(2) {
        let a = pair[0] & 0xfff;
        let b = pair.get(1).copied().unwrap_or(0) & 0xfff;
        out.push((a & 0xff) as u8);
        out.push((((a >> 8) & 0x0f) | ((b >> 4) & 0xf0)) as u8);
        if pair.len() == 2 {
            out.push((b & 0xff) as u8);
        }
    }
    out
}

fn record(header: &str, files: &[(&str, Vec<u8>)]) -> Result<Recording, FormatError> {
    read_record(header.as_bytes(), |name| {
        files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b.clone())
            .ok_or_else(|| FormatError::Unsupported(format!("no file {name}")))
    })
}

#[test]
fn parses_the_record_and_signal_lines_of_mitdb_100() {
    let text = "100 2 360 650000\n100.dat 212 200 11 1024 995 -22131 0 MLII\n\
                100.dat 212 200 11 1024 1011 20052 0 V5\n# 69 M 1085 1629 x1\n";
    let h = parse_header(text).unwrap();
    assert_eq!(h.record_name, "100");
    assert_eq!(h.sampling_rate_hz, 360.0);
    assert_eq!(h.n_samples, Some(650_000));
    assert_eq!(h.signals.len(), 2);
    let s = &h.signals[0];
    assert_eq!(
        (s.format, s.adc_gain, s.baseline, s.adc_zero),
        (212, 200.0, 1024, 1024)
    );
    assert_eq!(
        (s.initial_value, s.checksum, s.block_size),
        (Some(995), Some(-22131), Some(0))
    );
    assert_eq!((s.description.as_str(), s.units.as_str()), ("MLII", "mV"));
    assert_eq!(h.comments, vec!["69 M 1085 1629 x1"]);
}

#[test]
fn parses_offsets_baselines_units_and_multiword_descriptions() {
    let text = "A00001 1 300 9000 05:05:15 1/05/2000\n\
                A00001.mat 16x1:2+24 1000(-3)/uV 16 0 -127 0 0 ECG lead I\n";
    let h = parse_header(text).unwrap();
    let s = &h.signals[0];
    assert_eq!((s.byte_offset, s.skew, s.samples_per_frame), (24, 2, 1));
    assert_eq!(
        (s.adc_gain, s.baseline, s.units.as_str()),
        (1000.0, -3, "uV")
    );
    assert_eq!(s.description, "ECG lead I");
    assert_eq!(
        start_time(h.base_time.as_deref(), h.base_date.as_deref()).as_deref(),
        Some("2000-05-01T05:05:15")
    );
}

#[test]
fn a_header_with_fewer_signal_lines_than_announced_is_invalid() {
    let err = parse_header("r 3 250\nr.dat 16\n").unwrap_err();
    assert!(err.to_string().contains("3 signals"), "{err}");
}

#[test]
fn multi_segment_records_are_refused_clearly() {
    let err = parse_header("r/2 1 250 100\n").unwrap_err();
    assert!(err.to_string().contains("multi-segment"));
}

#[test]
fn reads_interleaved_format_212_with_gain_and_baseline() {
    // Two signals, frames (1024+200, 1024-100), (1024, 0), (-2048 invalid, 1000).
    let digital = [1224, 924, 1024, 0, -2048, 1000];
    let header = "r 2 360 3\nr.dat 212 200 12 1024 0 0 0 MLII\nr.dat 212 100(0)/mV 12 0 0 0 0 V5\n";
    let rec = record(header, &[("r.dat", pack_212(&digital))]).unwrap();
    assert_eq!(rec.sampling_rate_hz, 360.0);
    let a = &rec.channels[0].samples;
    assert_eq!(&a[..2], &[1.0, 0.0]);
    assert!(a[2].is_nan(), "the invalid-sample code becomes NaN");
    assert_eq!(rec.channels[1].samples, vec![9.24, 0.0, 10.0]);
    assert_eq!(rec.channels[1].name, "V5");
}

#[test]
fn reads_formats_16_61_80_24_and_32() {
    let values: [i32; 4] = [-300, 0, 5, 100];
    let le16: Vec<u8> = values
        .iter()
        .flat_map(|&v| (v as i16).to_le_bytes())
        .collect();
    let be16: Vec<u8> = values
        .iter()
        .flat_map(|&v| (v as i16).to_be_bytes())
        .collect();
    let b80: Vec<u8> = [-100i32, 0, 5, 100]
        .iter()
        .map(|&v| (v + 128) as u8)
        .collect();
    let b24: Vec<u8> = values
        .iter()
        .flat_map(|&v| v.to_le_bytes()[..3].to_vec())
        .collect();
    let b32: Vec<u8> = values
        .iter()
        .flat_map(|&v| (v * 1000).to_le_bytes())
        .collect();
    for (fmt, bytes, expected) in [
        ("16", le16, vec![-3.0, 0.0, 0.05, 1.0]),
        ("61", be16, vec![-3.0, 0.0, 0.05, 1.0]),
        ("80", b80, vec![-1.0, 0.0, 0.05, 1.0]),
        ("24", b24, vec![-3.0, 0.0, 0.05, 1.0]),
        ("32", b32, vec![-3000.0, 0.0, 50.0, 1000.0]),
    ] {
        let header = format!("r 1 100 4\nr.dat {fmt} 100 16 0 0 0 0 x\n");
        let rec = record(&header, &[("r.dat", bytes)]).unwrap();
        assert_eq!(rec.channels[0].samples, expected, "format {fmt}");
    }
}

#[test]
fn signals_in_separate_files_and_byte_offsets_are_honoured() {
    let a: Vec<u8> = [9u8, 9]
        .into_iter()
        .chain([1i16, 2].iter().flat_map(|v| v.to_le_bytes()))
        .collect();
    let b: Vec<u8> = [3i16, 4].iter().flat_map(|v| v.to_le_bytes()).collect();
    let header = "r 2 10\na.dat 16+2 1 16 0 0 0 0 A\nb.dat 16 1 16 0 0 0 0 B\n";
    let rec = record(header, &[("a.dat", a), ("b.dat", b)]).unwrap();
    assert_eq!(rec.channels[0].samples, vec![1.0, 2.0]);
    assert_eq!(rec.channels[1].samples, vec![3.0, 4.0]);
}

#[test]
fn a_signal_file_shorter_than_claimed_is_reported_as_truncated() {
    let header = "r 1 100 1000\nr.dat 16 200 16 0 0 0 0 x\n";
    let err = record(header, &[("r.dat", vec![0; 10])]).unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
}

#[test]
fn an_unknown_signal_format_names_the_formats_that_work() {
    let err = record("r 1 100\nr.dat 310 200\n", &[("r.dat", vec![0; 10])]).unwrap_err();
    assert!(err.to_string().contains("310"), "{err}");
}

#[test]
fn the_checksum_is_verified() {
    let bytes: Vec<u8> = [1i16, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect();
    let ok = record(
        "r 1 10 3\nr.dat 16 1 16 0 1 6 0 x\n",
        &[("r.dat", bytes.clone())],
    )
    .unwrap();
    assert!(!ok.metadata.contains_key("checksum_mismatch"));
    let bad = record("r 1 10 3\nr.dat 16 1 16 0 1 7 0 x\n", &[("r.dat", bytes)]).unwrap();
    assert_eq!(bad.metadata["checksum_mismatch"], "0");
}

#[test]
fn a_non_finite_gain_is_refused() {
    let bytes = [0u8, 1, 0, 2, 0, 3];
    for gain in ["nan", "inf", "-inf"] {
        let err = record(
            &format!("r 1 10 3\nr.dat 16 {gain} 16 0 0 0 0 II\n"),
            &[("r.dat", bytes.to_vec())],
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("the ADC gain must be a finite number"),
            "{err}"
        );
    }
}

#[test]
fn detects_headers_but_not_numeric_tables() {
    assert!(looks_like_header("100 2 360 650000\n100.dat 212 200 11 1024 995 -22131 0 MLII\n100.dat 212 200 11 1024 1011 20052 0 V5\n"));
    assert!(!looks_like_header("1 2\n3 4\n5 6\n"));
    assert!(!looks_like_header("0.1 0.2 0.3\n0.4 0.5 0.6\n"));
    assert!(!looks_like_header("time,ecg\n0,1\n"));
}

#[test]
fn decodes_mit_annotations_with_skip_num_chn_and_aux() {
    let word = |code: u16, value: u16| (code << 10 | value).to_le_bytes();
    let mut bytes = Vec::new();
    bytes.extend(word(28, 18)); // + at 18
    bytes.extend(word(63, 3)); // AUX "(N"
    bytes.extend(b"(N\0\0");
    bytes.extend(word(1, 59)); // N at 77
    bytes.extend(word(59, 0)); // SKIP 100000
    bytes.extend([0x01, 0x00, 0xa0, 0x86]); // 0x000186a0, high word first
    bytes.extend(word(5, 3)); // V at 100080
    bytes.extend(word(62, 1)); // chan 1
    bytes.extend(word(60, 2)); // num 2
    bytes.extend(word(61, 4)); // sub 4
    bytes.extend(word(1, 1)); // N at 100081, keeps chan and num
    bytes.extend([0, 0]);
    let anns = read_annotations(&bytes).unwrap();
    let got: Vec<(u64, &str)> = anns.iter().map(|a| (a.sample, a.symbol.as_str())).collect();
    assert_eq!(
        got,
        vec![(18, "+"), (77, "N"), (100_080, "V"), (100_081, "N")]
    );
    assert_eq!(anns[0].aux.as_deref(), Some("(N"));
    assert_eq!((anns[2].channel, anns[2].num, anns[2].subtype), (1, 2, 4));
    assert_eq!((anns[3].channel, anns[3].num, anns[3].subtype), (1, 2, 0));
}

#[test]
fn a_truncated_aux_field_is_an_error() {
    let word = |code: u16, value: u16| (code << 10 | value).to_le_bytes();
    let mut bytes = Vec::from(word(1, 5));
    bytes.extend(word(63, 40));
    bytes.extend(b"abc");
    assert!(read_annotations(&bytes).is_err());
}

#[test]
fn symbols_follow_ecgcodes() {
    let symbols: Vec<String> = [1, 5, 12, 28, 41, 42]
        .into_iter()
        .map(symbol_for_code)
        .collect();
    assert_eq!(symbols, ["N", "V", "/", "+", "r", "[42]"]);
}

/// Writes `files` into a new folder under the system's temporary folder and returns the header's
/// path there.
fn on_disk(tag: &str, header: &str, files: &[(&str, Vec<u8>)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cardio-wfdb-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let path = dir.join("r.hea");
    std::fs::write(&path, header).unwrap();
    path
}

/// Whether two sample vectors are equal to the bit (NaN where the other has NaN).
fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

#[test]
fn a_record_read_a_stretch_at_a_time_gives_the_samples_of_a_whole_read() {
    // A pseudo-random walk of 12-bit values with an invalid sample now and then.
    let n_frames = 997;
    let value = |i: usize, modulo: i32| -> i32 {
        let v = ((i as u64 * 7919 + 17) % u64::from(modulo.unsigned_abs())) as i32 - modulo / 2;
        if i % 101 == 50 {
            -2048
        } else {
            v
        }
    };
    let frames212: Vec<i32> = (0..n_frames * 3).map(|i| value(i, 4000)).collect();
    let le16: Vec<u8> = [0u8, 0, 0]
        .into_iter()
        .chain(
            (0..n_frames * 2)
                .flat_map(|i| i16::try_from(value(i, 60000)).unwrap_or(0).to_le_bytes()),
        )
        .collect();
    let b24: Vec<u8> = (0..n_frames)
        .flat_map(|i| (value(i, 1 << 20)).to_le_bytes()[..3].to_vec())
        .collect();
    let b80: Vec<u8> = (0..n_frames).map(|i| (i * 37 % 256) as u8).collect();
    let b32: Vec<u8> = (0..n_frames)
        .flat_map(|i| (value(i, 1 << 30)).to_le_bytes())
        .collect();
    let be16: Vec<u8> = (0..n_frames)
        .flat_map(|i| i16::try_from(value(i, 60000)).unwrap_or(0).to_be_bytes())
        .collect();
    let header = format!(
        "r 10 250 {n_frames}\n\
         a.dat 212 200 12 0 0 0 0 I\n\
         a.dat 212 100 12 7 0 0 0 II\n\
         a.dat 212 200 12 -3 0 0 0 V1\n\
         b.dat 16:3+3 1000(2)/uV 16 0 0 0 0 V2\n\
         b.dat 16+3 50 16 0 0 0 0 V3\n\
         c.dat 24 20000 24 0 0 0 0 V4\n\
         d.dat 80 10 8 0 0 0 0 V5\n\
         e.dat 32 1000000 32 0 0 0 0 V6\n\
         f.dat 61 200 16 0 0 0 0 X\n\
         g.dat 212:5 200 12 0 0 0 0 Y\n"
    );
    let g: Vec<i32> = (0..n_frames).map(|i| value(i + 5, 4000)).collect();
    let files = [
        ("a.dat", pack_212(&frames212)),
        ("b.dat", le16),
        ("c.dat", b24),
        ("d.dat", b80),
        ("e.dat", b32),
        ("f.dat", be16),
        ("g.dat", pack_212(&g)),
    ];
    let whole = record(&header, &files).unwrap();
    let path = on_disk("stretch", &header, &files);
    let streamed = open_record(&path, 1.0).unwrap().unwrap();
    // No longer than the seconds asked for: nothing to stream, read it whole.
    assert!(open_record(&path, 4.0).unwrap().is_none());
    assert_eq!(streamed.n_frames, n_frames);
    assert_eq!(streamed.signals.len(), 10);
    for (i, (signal, channel)) in streamed.signals.iter().zip(&whole.channels).enumerate() {
        let head = &streamed.head.channels[i];
        assert_eq!((&head.name, &head.unit), (&channel.name, &channel.unit));
        assert!(
            same(&head.samples, &channel.samples[..250]),
            "head of signal {i}"
        );
        assert_eq!(signal.len(), n_frames);
        for (a, b) in [
            (0, n_frames),
            (1, 2),
            (3, 500),
            (499, 997),
            (996, 997),
            (10, 9999),
        ] {
            let got = signal.read(a, b).unwrap();
            assert!(
                same(&got, &channel.samples[a..b.min(n_frames)]),
                "signal {i}, frames {a}..{b}"
            );
        }
        assert!(signal.read(997, 1000).unwrap().is_empty());
    }
    let mut metadata = whole.metadata.clone();
    metadata.remove("checksum_mismatch");
    assert_eq!(streamed.head.metadata, metadata);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_streamed_record_is_refused_as_a_whole_read_is() {
    let path = on_disk(
        "short",
        "r 1 100 1000\nr.dat 16 200 16 0 0 0 0 x\n",
        &[("r.dat", vec![0; 10])],
    );
    let err = open_record(&path, 10.0).unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
    std::fs::write(
        path.parent().unwrap().join("r.hea"),
        "r 1 100\n../r.dat 16\n",
    )
    .unwrap();
    let err = open_record(&path, 10.0).unwrap_err();
    assert!(err.to_string().contains("not a plain file name"), "{err}");
    std::fs::write(
        path.parent().unwrap().join("r.hea"),
        "r 1 100\nmissing.dat 16\n",
    )
    .unwrap();
    let err = open_record(&path, 10.0).unwrap_err();
    assert!(err.to_string().contains("missing.dat"), "{err}");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
