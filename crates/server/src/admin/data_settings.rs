//! `GET /api/system/data-settings` and `PUT /api/system/data-settings`: the Settings page's
//! server-wide Data & Storage switches, Data Encryption and Auto Backup (both on by default).
//!
//! There is one blob store and one backup schedule per server, so these live in the one-row
//! `server_settings` table rather than in each user's preferences; only administrators read or
//! change them (anyone else gets 403) and every change is written to the audit trail, its record
//! naming the new values, where the other administrators' notifications pick it up. Turning encryption
//! off makes [`blob_writer`] store new blobs in clear; what was stored before stays as it is and
//! readable (see [`crate::platform::blobs`]).

use axum::{extract::State, routing::get, Router};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

use crate::{
    accounts::auth::{session::CurrentAdmin, ClientAddr},
    platform::audit::{self, Action},
    platform::blobs::BlobStore,
    platform::db::{ms_to_rfc3339, now_ms, Db},
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/system/data-settings", get(read).put(save))
}

/// The server-wide Data & Storage settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DataSettings {
    /// New blobs are encrypted at rest (AES-256-GCM) when on; stored in clear when off.
    pub encrypt_blobs: bool,
    /// A SQLite backup is made daily when on (nothing happens on PostgreSQL).
    pub auto_backup: bool,
}

impl Default for DataSettings {
    fn default() -> Self {
        Self {
            encrypt_blobs: true,
            auto_backup: true,
        }
    }
}

impl DataSettings {
    /// How the audit trail names a change: the new values, e.g.
    /// `encrypt_blobs=off;auto_backup=on`.
    pub fn audit_record(&self) -> String {
        let word = |on: bool| if on { "on" } else { "off" };
        format!(
            "encrypt_blobs={};auto_backup={}",
            word(self.encrypt_blobs),
            word(self.auto_backup)
        )
    }
}

/// The settings as the page shows them, with where the data key comes from.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DataSettingsView {
    /// New blobs are encrypted at rest when on.
    pub encrypt_blobs: bool,
    /// Daily SQLite backups when on.
    pub auto_backup: bool,
    /// `environment` (`CARDIO_DATA_KEY`) or `key_file` (the data folder's key file).
    pub key_source: String,
    /// A short public fingerprint of the data key (never the key); null while no key exists yet.
    pub key_fingerprint: Option<String>,
    /// When an administrator last changed them (RFC 3339), null if never.
    pub updated_at: Option<String>,
}

/// The stored settings (the defaults if the row is somehow missing).
///
/// # Errors
/// A database failure.
pub async fn load(db: &Db) -> Result<(DataSettings, Option<i64>), sqlx::Error> {
    let row = sqlx::query(
        "SELECT encrypt_blobs, auto_backup, updated_at FROM server_settings WHERE id = 1",
    )
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else {
        return Ok((DataSettings::default(), None));
    };
    Ok((
        DataSettings {
            encrypt_blobs: row.try_get::<i64, _>(0)? != 0,
            auto_backup: row.try_get::<i64, _>(1)? != 0,
        },
        row.try_get::<Option<i64>, _>(2)?,
    ))
}

/// The blob store to write new blobs with: the server's, encrypting or not as the stored setting
/// says (read at each write, so every server instance sharing the database agrees).
///
/// # Errors
/// A database failure.
pub async fn blob_writer(state: &AppState) -> Result<BlobStore, ApiError> {
    let (settings, _) = load(&state.db).await?;
    Ok(state.blobs.clone().with_encryption(settings.encrypt_blobs))
}

async fn view(state: &AppState) -> Result<DataSettingsView, ApiError> {
    let (settings, updated_at) = load(&state.db).await?;
    let blobs = state.blobs.clone();
    let fingerprint = tokio::task::spawn_blocking(move || blobs.key_fingerprint())
        .await?
        .map_err(|e| ApiError::Internal(format!("data key: {e}")))?;
    Ok(DataSettingsView {
        encrypt_blobs: settings.encrypt_blobs,
        auto_backup: settings.auto_backup,
        key_source: if state.config.data_key.is_some() {
            "environment"
        } else {
            "key_file"
        }
        .into(),
        key_fingerprint: fingerprint,
        updated_at: updated_at.map(ms_to_rfc3339),
    })
}

/// The server-wide Data Encryption and Auto Backup settings.
#[utoipa::path(
    get, path = "/api/system/data-settings", operation_id = "get_data_settings", tag = "health",
    responses(
        (status = 200, description = "The settings and the data key's source", body = DataSettingsView),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Not an administrator", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read(
    State(state): State<AppState>,
    _admin: CurrentAdmin,
) -> Result<Json<DataSettingsView>, ApiError> {
    Ok(Json(view(&state).await?))
}

/// Changes the server-wide Data Encryption and Auto Backup settings (audited).
#[utoipa::path(
    put, path = "/api/system/data-settings", operation_id = "save_data_settings", tag = "health",
    request_body = DataSettings,
    responses(
        (status = 200, description = "The saved settings", body = DataSettingsView),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Not an administrator, or a request from another origin", body = ErrorBody),
        (status = 422, description = "A field is missing or not a boolean", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn save(
    State(state): State<AppState>,
    admin: CurrentAdmin,
    ClientAddr(client): ClientAddr,
    Json(input): Json<DataSettings>,
) -> Result<Json<DataSettingsView>, ApiError> {
    let mut tx = state.db.begin().await?;
    sqlx::query(
        "UPDATE server_settings SET encrypt_blobs = $1, auto_backup = $2, updated_at = $3, \
             updated_by = $4 WHERE id = 1",
    )
    .bind(i64::from(input.encrypt_blobs))
    .bind(i64::from(input.auto_backup))
    .bind(now_ms())
    .bind(admin.id())
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: admin.id(),
            action: Action::Update,
            entity: "data_settings",
            entity_id: &input.audit_record(),
            patient_id: None,
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    tracing::info!(
        encrypt_blobs = input.encrypt_blobs,
        auto_backup = input.auto_backup,
        "data settings saved"
    );
    Ok(Json(view(&state).await?))
}
