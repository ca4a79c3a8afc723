//! The daily Auto Backup task and `GET`/`POST /api/system/backups` (administrators only, audited).

use axum::{extract::State, http::StatusCode, routing::get, Router};

use super::{
    backups_dir, create, list, BackupError, BackupList, BackupSummary, AUTO_BACKUP_CHECK,
    AUTO_BACKUP_INTERVAL, POSTGRES_BACKUPS,
};
use crate::{
    accounts::auth::{session::CurrentAdmin, ClientAddr},
    platform::audit::{self, Action},
    platform::db::Backend,
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::lease,
    platform::state::AppState,
};

/// Makes the daily backup when it is due: SQLite, Auto Backup on, and no backup younger than
/// [`AUTO_BACKUP_INTERVAL`] by the server's [`crate::platform::clock::Clock`]. Returns the backup made.
///
/// # Errors
/// Database and I/O errors.
pub async fn run_if_due(state: &AppState) -> Result<Option<BackupSummary>, BackupError> {
    if state.db.backend != Backend::Sqlite {
        return Ok(None);
    }
    let (settings, _) = crate::admin::data_settings::load(&state.db).await?;
    if !settings.auto_backup {
        return Ok(None);
    }
    let now = state.clock.now_ms();
    let data_dir = state.config.data_dir.clone();
    let newest = tokio::task::spawn_blocking(move || list(&data_dir))
        .await
        .map_err(|e| BackupError::Manifest(format!("blocking task: {e}")))??
        .first()
        .map(|(_, m)| m.created_at_ms);
    let interval = i64::try_from(AUTO_BACKUP_INTERVAL.as_millis()).unwrap_or(i64::MAX);
    if newest.is_some_and(|at| now - at < interval) {
        return Ok(None);
    }
    create(
        &state.db,
        &state.config.data_dir,
        &state.blobs,
        now,
        state.config.backup_keep,
    )
    .await
    .map(Some)
}

/// The daily backup: looks every [`AUTO_BACKUP_CHECK`] whether one is due ([`run_if_due`]).
/// Started by [`crate::Application::run_until_stopped`]; failures are logged and retried at the next
/// check.
pub async fn auto_backup_task(state: AppState) {
    let mut ticks = tokio::time::interval(AUTO_BACKUP_CHECK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is immediate; let the server settle first.
    ticks.tick().await;
    let lease_ms = i64::try_from(2 * AUTO_BACKUP_CHECK.as_millis()).unwrap_or(i64::MAX);
    loop {
        ticks.tick().await;
        // One instance at a time, however many share the database.
        match lease::try_acquire(
            &state.db,
            "daily-backup",
            &state.instance_id,
            state.clock.now_ms(),
            lease_ms,
        )
        .await
        {
            Ok(true) => {}
            Ok(false) => continue,
            Err(err) => {
                tracing::error!(error = %err, "backup lease not checked");
                continue;
            }
        }
        if let Err(err) = run_if_due(&state).await {
            tracing::error!(error = %err, "automatic backup failed");
        }
    }
}

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/system/backups", get(read).post(make))
}

/// The backups (newest first), whether Auto Backup is on and when the last one was made; on
/// PostgreSQL an empty list and the note that backups are the operator's job.
#[utoipa::path(
    get, path = "/api/system/backups", operation_id = "list_backups", tag = "health",
    responses(
        (status = 200, description = "The backups and how they are made", body = BackupList),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Not an administrator", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read(
    State(state): State<AppState>,
    _admin: CurrentAdmin,
) -> Result<Json<BackupList>, ApiError> {
    let (settings, _) = crate::admin::data_settings::load(&state.db).await?;
    let supported = state.db.backend == Backend::Sqlite;
    let data_dir = state.config.data_dir.clone();
    let backups = if supported {
        tokio::task::spawn_blocking(move || list(&data_dir)).await??
    } else {
        Vec::new()
    };
    let backups: Vec<BackupSummary> = backups
        .into_iter()
        .map(|(id, manifest)| BackupSummary::new(id, &manifest))
        .collect();
    Ok(Json(BackupList {
        database: state.db.backend.name().into(),
        supported,
        note: (!supported).then(|| POSTGRES_BACKUPS.to_owned()),
        auto_backup: settings.auto_backup && supported,
        keep: state.config.backup_keep.max(1),
        last_backup_at: backups.first().map(|b| b.created_at.clone()),
        backups_dir: backups_dir(&state.config.data_dir).display().to_string(),
        backups,
    }))
}

/// Makes a backup now (SQLite only; audited as an export).
#[utoipa::path(
    post, path = "/api/system/backups", operation_id = "create_backup", tag = "health",
    responses(
        (status = 201, description = "The backup made", body = BackupSummary),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Not an administrator, or a request from another origin", body = ErrorBody),
        (status = 409, description = "Backups of a PostgreSQL database are the database operator's job (for example with pg_dump); this server does not make them.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn make(
    State(state): State<AppState>,
    admin: CurrentAdmin,
    ClientAddr(client): ClientAddr,
) -> Result<(StatusCode, Json<BackupSummary>), ApiError> {
    let summary = create(
        &state.db,
        &state.config.data_dir,
        &state.blobs,
        state.clock.now_ms(),
        state.config.backup_keep,
    )
    .await?;
    let mut tx = state.db.begin().await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: admin.id(),
            action: Action::Export,
            entity: "backup",
            entity_id: &summary.id,
            patient_id: None,
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(summary)))
}
