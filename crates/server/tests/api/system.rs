//! The Settings page's storage figures (`GET /api/system/storage`) and the release notes.

use axum::http::StatusCode;

use crate::{
    helpers::{Part, TestApp},
    predict::{csv_recording, with_echo},
};

crate::backend_tests!(
    storage_counts_the_blob_store_and_the_database,
    the_release_notes_are_served_to_anyone,
);

pub async fn storage_counts_the_blob_store_and_the_database(mut app: TestApp) {
    with_echo(&mut app);
    assert_eq!(
        app.get("/api/system/storage").await.status,
        StatusCode::UNAUTHORIZED
    );
    app.signed_in_doctor().await;
    let before = app.get("/api/system/storage").await.json();
    assert_eq!(before["blob_files"], 0);
    assert!(before["blob_store"].is_null(), "under the data folder");
    assert_eq!(before["blob_bytes"], 0);
    assert!(before["database_bytes"].as_i64().unwrap() > 0);
    assert_eq!(
        before["data_dir"],
        app.config.data_dir.display().to_string().as_str()
    );
    let (first, second) = (csv_recording(3.0), csv_recording(4.0));
    for (name, bytes) in [("a.csv", first.clone()), ("b.csv", second.clone())] {
        let response = app
            .upload(
                "/api/predict/ecg/upload",
                &[Part::file(name, Some("text/csv"), bytes)],
            )
            .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    }
    let after = app.get("/api/system/storage").await.json();
    assert_eq!(after["blob_files"], 2);
    // Encrypted at rest by default: each file carries the header, nonce and tag.
    let overhead = cardio_server::platform::blobs::ENCRYPTION_OVERHEAD;
    assert_eq!(
        after["blob_bytes"],
        first.len() + second.len() + 2 * overhead
    );
    app.logout().await;
    let email = format!("user-{}@example.com", uuid::Uuid::new_v4().simple());
    app.signup("Pat Doe", &email, "secret-pass", "user").await;
    assert_eq!(
        app.get("/api/system/storage").await.status,
        StatusCode::FORBIDDEN
    );
}

pub async fn the_release_notes_are_served_to_anyone(mut app: TestApp) {
    let response = app.get("/api/release-notes").await;
    assert_eq!(response.status, StatusCode::OK);
    assert!(
        response.text.starts_with("# Release notes\n"),
        "{}",
        response.text
    );
    assert!(response
        .text
        .contains(&format!("## {}", env!("CARGO_PKG_VERSION"))));
}
