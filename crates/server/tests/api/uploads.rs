//! Uploads of a day (issue 41 §4): a 24-hour Holter is 50-250 MB, so a recording upload of up to
//! 256 MiB passes the size check, streamed to disk as it arrives; one byte more is 413. The bodies
//! here are generated chunk by chunk as they are sent, never built whole.

use axum::{
    body::{Body, Bytes},
    extract::ConnectInfo,
    http::{header, Method, Request, StatusCode},
};
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::{helpers::TestApp, predict::echo_models};

crate::backend_tests!(
    a_recording_over_the_old_50_mb_limit_passes_the_size_check,
    a_recording_over_256_mb_is_413_naming_the_limit,
);

const MIB: usize = 1024 * 1024;
const BOUNDARY: &str = "----cardio-day-upload-boundary";

/// POSTs one `file` field of `len` bytes of `byte` as multipart, sent in 1 MiB chunks; returns the
/// status and the body's `detail`.
async fn upload_generated(
    app: &TestApp,
    path: &str,
    file_name: &str,
    len: usize,
    byte: u8,
) -> (StatusCode, String) {
    let head = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; \
         filename=\"{file_name}\"\r\n\r\n"
    );
    let tail = format!("\r\n--{BOUNDARY}--\r\n");
    let chunk = Bytes::from(vec![byte; MIB]);
    let mut parts = vec![Bytes::from(head)];
    parts.extend((0..len / MIB).map(|_| chunk.clone()));
    parts.push(chunk.slice(..len % MIB));
    parts.push(Bytes::from(tail));
    let stream = tokio_stream::iter(parts.into_iter().map(Ok::<_, std::io::Error>));
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::HOST, "127.0.0.1:8080")
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .header(header::COOKIE, app.cookie.clone().unwrap_or_default())
        .body(Body::from_stream(stream))
        .unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(app.client_addr));
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let json: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    (
        status,
        json["detail"].as_str().unwrap_or_default().to_owned(),
    )
}

/// What is left in the spool folder (nothing, once an upload is answered).
fn spooled(app: &TestApp) -> usize {
    std::fs::read_dir(app.config.data_dir.join("spool")).map_or(0, Iterator::count)
}

/// Before issue 41 §4 this was 413 "the limit is 50 MB"; now it is read, and 60 MB of 0xFF
/// named `.ecg` is no ISHNE file (422).
pub async fn a_recording_over_the_old_50_mb_limit_passes_the_size_check(mut app: TestApp) {
    app.rebuild(app.config.clone(), echo_models());
    app.signed_in_doctor().await;

    let (status, detail) =
        upload_generated(&app, "/api/predict/ecg/upload", "day.ecg", 60 * MIB, 0xFF).await;

    assert_ne!(status, StatusCode::PAYLOAD_TOO_LARGE, "{detail}");
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{detail}");
    assert!(detail.starts_with("Cannot read the file"), "{detail}");
    assert_eq!(spooled(&app), 0, "the spooled file is removed");
}

pub async fn a_recording_over_256_mb_is_413_naming_the_limit(mut app: TestApp) {
    app.rebuild(app.config.clone(), echo_models());
    app.signed_in_doctor().await;

    let (status, detail) = upload_generated(
        &app,
        "/api/predict/ecg/upload",
        "two.ecg",
        256 * MIB + 1,
        0xFF,
    )
    .await;

    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{detail}");
    assert_eq!(detail, "File too large: the limit is 256 MB.");
    assert_eq!(spooled(&app), 0, "the partial file is removed");
}
