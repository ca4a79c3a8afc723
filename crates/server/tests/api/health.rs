//! `GET /api/health`.

use axum::http::StatusCode;

use crate::helpers::{Backend, TestApp};

crate::backend_tests!(health_reports_ok_and_the_database);

pub async fn health_reports_ok_and_the_database(mut app: TestApp) {
    let response = app.get("/api/health").await;

    assert_eq!(response.status, StatusCode::OK);
    let body = response.json();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    let expected = match app.backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    assert_eq!(body["database"], expected);
    // Tests run a debug build with no CARDIO_ENV.
    assert_eq!(body["environment"], "development");
}
