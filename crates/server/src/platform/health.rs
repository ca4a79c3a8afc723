//! `GET /api/health`: is the server up and does its database answer.

use axum::{extract::State, routing::get, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{platform::error::ApiError, platform::extract::Json, platform::state::AppState};

/// The server's version, from Cargo.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The build identifier, set by the build (`CARDIO_BUILD`), else `dev`.
pub const BUILD: &str = match option_env!("CARDIO_BUILD") {
    Some(build) => build,
    None => "dev",
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

/// Health report.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// Always `ok` when the server can answer and the database responds.
    pub status: String,
    /// Server version.
    pub version: String,
    /// Build identifier.
    pub build: String,
    /// `sqlite` or `postgres`.
    pub database: String,
    /// `CARDIO_ENV` when set, else `production` for a release build and `development` otherwise.
    pub environment: String,
    /// This instance's id (instances sharing one database each have their own).
    pub instance: String,
    /// Where recordings are stored: `local` (a folder under the data directory) or `s3` (a bucket
    /// of an S3-compatible store, `CARDIO_BLOB_URL`).
    pub blobs: String,
}

/// The environment the server says it runs in.
pub fn environment() -> String {
    std::env::var("CARDIO_ENV")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| {
            if cfg!(debug_assertions) {
                "development".into()
            } else {
                "production".into()
            }
        })
}

/// Reports that the server and its database are up.
#[utoipa::path(
    get, path = "/api/health", operation_id = "health", tag = "health",
    responses(
        (status = 200, description = "Server and database are up", body = Health),
        (status = 503, description = "The database does not answer", body = crate::platform::error::ErrorBody),
    )
)]
pub async fn health(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    state.db.ping().await.map_err(|_| ApiError::Unavailable)?;
    Ok(Json(Health {
        status: "ok".into(),
        version: VERSION.into(),
        build: BUILD.into(),
        database: state.db.backend.name().into(),
        environment: environment(),
        instance: state.instance_id.to_string(),
        blobs: state.blobs.backend_name().into(),
    }))
}
