//! Memory stays bounded whatever is uploaded (issue 17 part 2): a decompression bomb is refused
//! before it is inflated, and leaves nothing stored.

use std::io::Write;

use axum::http::StatusCode;

use crate::helpers::{Part, TestApp};

crate::backend_tests!(
    a_mat_file_that_inflates_far_past_its_size_is_refused_and_leaves_nothing,
    a_mat_file_declaring_more_than_a_decode_may_take_is_refused_before_decoding,
);

fn tag(kind: u32, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend(kind.to_le_bytes());
    out.extend(u32::try_from(data.len()).unwrap().to_le_bytes());
    out.extend(data);
    while out.len() % 8 != 0 {
        out.push(0);
    }
    out
}

/// A level 5 MAT file holding one compressed matrix element whose stream has only `body` (the
/// array's start) while its tag declares `body` plus `declared_data` bytes, so nothing is inflated.
fn mat_compressed_head(body: &[u8], declared_data: u32) -> Vec<u8> {
    let mut head = tag(14, body);
    head[4..8].copy_from_slice(&(u32::try_from(body.len()).unwrap() + declared_data).to_le_bytes());
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&head).unwrap();
    let z = z.finish().unwrap();
    let mut file = b"MATLAB 5.0 MAT-file".to_vec();
    file.resize(124, b' ');
    file.extend([0, 1, b'I', b'M']);
    file.extend(15u32.to_le_bytes());
    file.extend(u32::try_from(z.len()).unwrap().to_le_bytes());
    file.extend(z);
    file
}

/// A MAT v5 file: `fs` = 500 and one compressed int8 row of `n` zeros (about 1000:1).
fn mat_bomb(n: u32) -> Vec<u8> {
    let matrix = |class: u8, cols: u32, name: &[u8], kind: u32, data: &[u8]| {
        let mut body = tag(6, &[class, 0, 0, 0, 0, 0, 0, 0]);
        body.extend(tag(5, &[1u32.to_le_bytes(), cols.to_le_bytes()].concat()));
        body.extend(tag(1, name));
        body.extend(tag(kind, data));
        tag(14, &body)
    };
    let mut file = b"MATLAB 5.0 MAT-file".to_vec();
    file.resize(124, b' ');
    file.extend([0, 1, b'I', b'M']);
    file.extend(matrix(6, 1, b"fs", 9, &500f64.to_le_bytes()));
    let zeros = matrix(8, n, b"val", 1, &vec![0u8; n as usize]);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&zeros).unwrap();
    let z = z.finish().unwrap();
    file.extend(15u32.to_le_bytes());
    file.extend(u32::try_from(z.len()).unwrap().to_le_bytes());
    file.extend(z);
    file
}

pub async fn a_mat_file_that_inflates_far_past_its_size_is_refused_and_leaves_nothing(
    mut app: TestApp,
) {
    app.signed_in_doctor().await;
    let bomb = mat_bomb(64 << 20);
    assert!(bomb.len() < 200_000, "{}", bomb.len());

    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file("bomb.mat", None, bomb)],
        )
        .await;

    assert_eq!(
        response.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        response.text
    );
    assert!(
        response
            .detail()
            .starts_with("Cannot read the file: compressed data inflating past"),
        "{}",
        response.detail()
    );
    assert_eq!(app.get("/api/analyses").await.json(), serde_json::json!([]));
    let stored = std::fs::read_dir(app.config.data_dir.join("blobs")).map_or(0, Iterator::count);
    assert_eq!(stored, 0, "nothing written");
}

/// Issue 37 §3: a 5.1 MB MAT file of 67 M doubles took 1.88 GB to decode, while the gate charged
/// it its budget (512 MiB). A file whose header declares 67 M doubles in a compressed array (the
/// stream holds only the array's start) and is padded to 4.3 MB (so the readers' per-byte limit
/// would let it inflate) is refused from its declared sizes, before anything is inflated.
pub async fn a_mat_file_declaring_more_than_a_decode_may_take_is_refused_before_decoding(
    mut app: TestApp,
) {
    app.signed_in_doctor().await;
    let mut body = tag(6, &[6, 0, 0, 0, 0, 0, 0, 0]);
    body.extend(tag(
        5,
        &[1u32.to_le_bytes(), 67_000_000u32.to_le_bytes()].concat(),
    ));
    body.extend(tag(1, b"val"));
    let mut file = mat_compressed_head(&body, 536_000_000);
    file.extend(tag(2, &vec![0u8; 4_300_000]));

    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file("big.mat", None, file)],
        )
        .await;

    assert_eq!(
        response.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        response.text
    );
    assert_eq!(
        response.detail(),
        "Cannot read the file: it declares 67000000 values, which would take 2057 MB of memory, \
         more than the 1024 MB one recording may use."
    );
}

/// A level 5 MAT file whose compressed array declares `leads` x `samples` int16 values (the
/// stream holds only the array's start, so nothing is inflated), padded to `len` bytes: what the
/// gate reads of a compressed Holter of that size.
fn mat_declaring_int16(leads: u32, samples: u32, len: usize) -> Vec<u8> {
    let data_bytes = 2 * leads * samples;
    let mut body = tag(6, &[10, 0, 0, 0, 0, 0, 0, 0]);
    body.extend(tag(
        5,
        &[leads.to_le_bytes(), samples.to_le_bytes()].concat(),
    ));
    body.extend(tag(1, b"val"));
    body.extend(3u32.to_le_bytes());
    body.extend(data_bytes.to_le_bytes());
    let mut file = mat_compressed_head(&body, data_bytes);
    let pad = len - file.len() - 8;
    file.extend(tag(2, &vec![0u8; pad]));
    file
}

/// 24 hours of 3 leads at 200 Hz.
const DAY_OF_3_LEADS: u32 = 200 * 86_400;

/// Issue 41 §4: a compressed 24-hour Holter (3 leads at 200 Hz, 30 MB, 52 M values, 1.4 GB to
/// decode) is taken by the gate; before, every decode was capped at 1 GiB.
#[test]
fn the_gate_takes_a_24_hour_holter() {
    let file = mat_declaring_int16(3, DAY_OF_3_LEADS, 30 << 20);

    let need = cardio_server::recordings::decode::need_bytes(&[&file]).unwrap();

    assert!(need > 1 << 30, "{need}");
}

/// A header declaring ten times as much in a file of the same size is refused by the gate, with
/// the sentence that says how much it would take.
#[test]
fn the_gate_refuses_a_header_declaring_ten_days() {
    let file = mat_declaring_int16(3, 10 * DAY_OF_3_LEADS, 30 << 20);

    let err = cardio_server::recordings::decode::need_bytes(&[&file]).unwrap_err();

    assert_eq!(err.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        err.to_string(),
        "Cannot read the file: it declares 518400000 values, which would take 12945 MB of \
         memory, more than the 1920 MB one recording may use."
    );
}
