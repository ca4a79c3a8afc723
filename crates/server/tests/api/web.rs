//! The web app host: client-side routes fall back to `index.html`, unknown API paths are JSON 404s,
//! and the committed OpenAPI document (the source of the web client) matches the server.

use axum::http::StatusCode;

use crate::helpers::TestApp;

crate::backend_tests!(
    client_routes_fall_back_to_the_web_app,
    unknown_api_paths_are_json_404s
);

pub async fn client_routes_fall_back_to_the_web_app(mut app: TestApp) {
    for path in ["/", "/patients", "/sensor-pcg?screening=abc"] {
        let response = app.get(path).await;
        assert_eq!(response.status, StatusCode::OK, "{path}");
        assert!(
            response.text.contains("cardio-test-index"),
            "{path}: {}",
            response.text
        );
    }
}

pub async fn unknown_api_paths_are_json_404s(mut app: TestApp) {
    let response = app.get("/api/no-such-thing").await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Not found.");
}

#[test]
fn the_committed_openapi_document_is_current() {
    let committed_path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/src/api/generated/openapi.json"
    );
    let committed = std::fs::read_to_string(committed_path).unwrap_or_default();
    assert!(
        committed == cardio_server::openapi::json(),
        "web/src/api/generated/openapi.json is stale: run `make gen-client`"
    );
}
