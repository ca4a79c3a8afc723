//! What the Settings page's Data & Storage and About sections show: `GET /api/system/storage`
//! (administrators only: the database's size, the blob store's size and file count, the data folder, which
//! is a server setting) and `GET /api/release-notes` (public: the release notes this server was
//! built with, `CHANGELOG.md`).

use std::path::Path;

use axum::{
    extract::State,
    http::{header, HeaderValue},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    accounts::auth::session::CurrentAdmin,
    platform::db::Backend,
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};

/// The release notes, compiled in.
pub const RELEASE_NOTES: &str = include_str!("../../../../CHANGELOG.md");

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/system/storage", get(storage))
        .route("/release-notes", get(release_notes))
}

/// Storage figures.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StorageUsage {
    /// Bytes the database takes (SQLite: its pages; PostgreSQL: `pg_database_size`).
    pub database_bytes: i64,
    /// Bytes of the stored recordings and uploads.
    pub blob_bytes: u64,
    /// How many files the blob store holds.
    pub blob_files: u64,
    /// The data folder (changed with `--data-dir` / `CARDIO_DATA_DIR`, not from the browser).
    pub data_dir: String,
    /// `sqlite` or `postgres`.
    pub database: String,
    /// The bucket the recordings are kept in (`--blob-url`, `CARDIO_BLOB_URL`); null when they
    /// are under the data folder.
    pub blob_store: Option<String>,
}

/// Sums the sizes of the files under `dir` (missing folder: nothing).
fn folder_size(dir: &Path) -> (u64, u64) {
    let mut bytes = 0;
    let mut files = 0;
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                pending.push(entry.path());
            } else if meta.is_file() {
                bytes += meta.len();
                files += 1;
            }
        }
    }
    (bytes, files)
}

/// The database's and the blob store's sizes, and the data folder.
#[utoipa::path(
    get, path = "/api/system/storage", operation_id = "get_storage_usage", tag = "health",
    responses(
        (status = 200, description = "Sizes from the database and the data folder", body = StorageUsage),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Not an administrator", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn storage(
    State(state): State<AppState>,
    _admin: CurrentAdmin,
) -> Result<Json<StorageUsage>, ApiError> {
    let sql = match state.db.backend {
        Backend::Sqlite => {
            "SELECT p.page_count * s.page_size FROM pragma_page_count() p, pragma_page_size() s"
        }
        Backend::Postgres => "SELECT pg_database_size(current_database())",
    };
    let database_bytes: i64 = sqlx::query_scalar(sql).fetch_one(&state.db.pool).await?;
    let data_dir = state.config.data_dir.clone();
    let blobs = state.blobs.clone();
    let blob_store = blobs.remote().map(|remote| remote.url().to_owned());
    let (blob_bytes, blob_files) = tokio::task::spawn_blocking(move || match blobs.remote() {
        Some(remote) => {
            let listed = remote.list()?;
            Ok::<_, ApiError>((listed.iter().map(|o| o.size).sum(), listed.len() as u64))
        }
        None => Ok(folder_size(blobs.root())),
    })
    .await??;
    Ok(Json(StorageUsage {
        database_bytes,
        blob_bytes,
        blob_files,
        data_dir: data_dir.display().to_string(),
        database: state.db.backend.name().into(),
        blob_store,
    }))
}

/// The release notes of this server (Markdown).
#[utoipa::path(
    get, path = "/api/release-notes", operation_id = "get_release_notes", tag = "health",
    responses((status = 200, description = "CHANGELOG.md", content_type = "text/markdown", body = String))
)]
pub async fn release_notes() -> Response {
    let mut response = RELEASE_NOTES.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/markdown; charset=utf-8"),
    );
    response
}
