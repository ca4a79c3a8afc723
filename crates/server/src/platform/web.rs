//! Serves the built web app: files from the web folder, and `index.html` for every other path so
//! that client-side routes survive a reload.

use std::path::Path;

use axum::{
    http::{header, HeaderValue, StatusCode},
    response::{Html, IntoResponse},
    Router,
};
use tower_http::{
    services::{ServeDir, ServeFile},
    set_header::SetResponseHeaderLayer,
};

/// A router that serves `web_dir`, falling back to its `index.html`, or a plain page saying the
/// web app is not built.
pub fn router(web_dir: &Path) -> Router {
    let index = web_dir.join("index.html");
    if !index.is_file() {
        return Router::new().fallback(|| async {
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Html("<!doctype html><title>Cardio</title><p>The web app is not built. Run <code>make build</code> (or set CARDIO_WEB_DIR).</p>"),
            )
                .into_response()
        });
    }
    let files = ServeDir::new(web_dir).fallback(ServeFile::new(index));
    Router::new()
        .fallback_service(files)
        // index.html must be revalidated so a new release is picked up; hashed assets can be cached.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        ))
}
