//! In-app notifications: what the Settings page's notification toggles switch on and off.
//!
//! `GET /api/notifications` derives a doctor's notifications from stored data, newest first, each
//! kind only while its toggle is on:
//! - **Test Results** (default on): a result that needs review — each of the doctor's analyses of
//!   the last [`WINDOW_DAYS`] days without a review (it leaves the list once signed off);
//! - **Patient Updates** (default off): a patient viewed the results the doctor shared — one entry
//!   per patient and day (from the audit trail of the patient's reads);
//! - **Device Alerts** (default on): the warnings of the doctor's connection log (a device that
//!   stopped, a port error, a pushed file that could not be read).
//!
//! - **Server settings** (administrators only, always on): another administrator changed a
//!   server-wide setting, made a backup, or an account was made or stopped being an administrator
//!   (from the audit trail of the last [`WINDOW_DAYS`] days).
//!
//! Nothing is stored per notification: `POST /api/notifications/seen` keeps the moment the user
//! marked them read, and an entry is unread when it is newer. A `user` (patient) account has no
//! notifications here: its home lists what was shared with it.

use axum::{extract::State, http::StatusCode, routing::get, Router};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

use crate::{
    accounts::auth::session::CurrentUser, accounts::settings, platform::db::ms_to_rfc3339,
    platform::error::ApiError, platform::extract::Json, platform::state::AppState,
};

/// How far back results awaiting review are listed.
pub const WINDOW_DAYS: i64 = 30;
/// At most this many entries of each kind.
pub const PER_KIND: i64 = 20;
const DAY_MS: i64 = 24 * 3600 * 1000;

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/notifications", get(feed))
        .route("/notifications/seen", axum::routing::post(mark_seen))
}

/// What a notification is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NotificationKind {
    /// A result awaits the doctor's review (toggle: test results).
    ReviewNeeded,
    /// A patient viewed the results shared with them (toggle: patient updates).
    SharedViewed,
    /// A warning of the connection log (toggle: device alerts).
    DeviceAlert,
    /// Another administrator changed a server-wide setting or made a backup, or the
    /// administrators changed (administrators only).
    AdminChange,
}

/// One notification.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    /// Stable id (kind and source), for lists.
    pub id: String,
    /// What it is about.
    pub kind: NotificationKind,
    /// RFC 3339.
    pub at: String,
    /// Newer than the user's last "mark as read".
    pub unread: bool,
    /// The analysis to review (review_needed).
    pub analysis_id: Option<String>,
    /// `ecg`, `pcg`, `ppg` or `clinical` (review_needed).
    pub modality: Option<String>,
    /// The patient concerned, when there is one.
    pub patient_id: Option<String>,
    /// The patient's name.
    pub patient_name: Option<String>,
    /// The device (device_alert).
    pub device: Option<String>,
    /// The log event code (device_alert), e.g. `serial_lost`; what changed (admin_change):
    /// `data_settings`, `backup`, `administrator_granted` or `administrator_revoked`.
    pub event: Option<String>,
    /// Who made the change (admin_change): the account's e-mail address; for
    /// `administrator_granted` / `administrator_revoked`, the account concerned.
    pub actor: Option<String>,
    /// The log entry's detail text (device_alert); the new values (admin_change of
    /// `data_settings`, e.g. `encrypt_blobs=off;auto_backup=on`) or the backup's name.
    pub detail: Option<String>,
}

/// The signed-in user's notifications.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct NotificationFeed {
    /// How many are unread.
    pub unread: usize,
    /// Newest first.
    pub items: Vec<Notification>,
}

/// The signed-in user's notifications, newest first, per their notification settings.
#[utoipa::path(
    get, path = "/api/notifications", operation_id = "list_notifications", tag = "notifications",
    responses(
        (status = 200, description = "Newest first", body = NotificationFeed),
        crate::platform::error::documented::Unauthenticated,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn feed(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<NotificationFeed>, ApiError> {
    let user_id = current.user.id.as_str();
    if current.user.role != "doctor" && !current.user.is_admin {
        return Ok(Json(NotificationFeed {
            unread: 0,
            items: Vec::new(),
        }));
    }
    let wanted = settings::load(&state.db, user_id).await?;
    let is_doctor = current.user.role == "doctor";
    let mut conn = state.db.pool.acquire().await?;
    let seen: i64 = sqlx::query("SELECT seen_at FROM notification_marks WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?
        .map(|row| row.try_get("seen_at"))
        .transpose()?
        .unwrap_or(0);
    // (time in ms, notification)
    let mut items: Vec<(i64, Notification)> = Vec::new();
    let blank = |id: String, kind: NotificationKind, at: i64| Notification {
        id,
        kind,
        at: ms_to_rfc3339(at),
        unread: at > seen,
        analysis_id: None,
        modality: None,
        patient_id: None,
        patient_name: None,
        device: None,
        event: None,
        actor: None,
        detail: None,
    };

    if current.user.is_admin {
        let rows = sqlx::query(
            "SELECT l.id, l.at, l.entity, l.entity_id, u.email FROM audit_log l \
             JOIN users u ON u.id = l.user_id \
             WHERE l.user_id <> $1 AND l.at >= $2 AND l.entity IN \
             ('data_settings', 'backup', 'administrator_granted', 'administrator_revoked') \
             ORDER BY l.at DESC, l.id DESC LIMIT $3",
        )
        .bind(user_id)
        .bind(state.clock.now_ms() - WINDOW_DAYS * DAY_MS)
        .bind(PER_KIND)
        .fetch_all(&mut *conn)
        .await?;
        for row in &rows {
            let at: i64 = row.try_get("at")?;
            let seq: i64 = row.try_get("id")?;
            let entity: String = row.try_get("entity")?;
            let mut n = blank(format!("admin-{seq}"), NotificationKind::AdminChange, at);
            n.actor = Some(row.try_get("email")?);
            // A grant or revoke (made on the command line) is recorded as the account's own, so
            // `actor` names the account concerned and there is no detail.
            if !entity.starts_with("administrator_") {
                n.detail = Some(row.try_get("entity_id")?);
            }
            n.event = Some(entity);
            items.push((at, n));
        }
    }

    if is_doctor && wanted.notify_test_results {
        let rows = sqlx::query(
            "SELECT a.id, a.modality, a.created_at, a.patient_id, \
             p.first_name || ' ' || p.last_name AS patient_name \
             FROM analyses a LEFT JOIN patients p ON p.id = a.patient_id AND p.doctor_id = a.user_id \
             WHERE a.user_id = $1 AND a.created_at >= $2 AND NOT EXISTS \
             (SELECT 1 FROM reviews r WHERE r.target_type = 'analysis' AND r.target_id = a.id) \
             ORDER BY a.created_at DESC, a.id DESC LIMIT $3",
        )
        .bind(user_id)
        .bind(state.clock.now_ms() - WINDOW_DAYS * DAY_MS)
        .bind(PER_KIND)
        .fetch_all(&mut *conn)
        .await?;
        for row in &rows {
            let at: i64 = row.try_get("created_at")?;
            let id: String = row.try_get("id")?;
            let mut n = blank(format!("review-{id}"), NotificationKind::ReviewNeeded, at);
            n.analysis_id = Some(id);
            n.modality = Some(row.try_get("modality")?);
            n.patient_id = row.try_get("patient_id")?;
            n.patient_name = row.try_get("patient_name")?;
            items.push((at, n));
        }
    }

    if is_doctor && wanted.notify_patient_updates {
        let rows = sqlx::query(
            "SELECT p.id, p.first_name || ' ' || p.last_name AS patient_name, \
             l.at / $2 AS day, MAX(l.at) AS at \
             FROM audit_log l JOIN patients p ON p.id = l.patient_id \
             WHERE p.doctor_id = $1 AND l.user_id <> $1 \
             AND l.entity IN ('shared_results', 'shared_report_pdf') \
             GROUP BY p.id, p.first_name, p.last_name, l.at / $2 ORDER BY 4 DESC LIMIT $3",
        )
        .bind(user_id)
        .bind(DAY_MS)
        .bind(PER_KIND)
        .fetch_all(&mut *conn)
        .await?;
        for row in &rows {
            let at: i64 = row.try_get("at")?;
            let patient: String = row.try_get("id")?;
            let day: i64 = row.try_get("day")?;
            let mut n = blank(
                format!("viewed-{patient}-{day}"),
                NotificationKind::SharedViewed,
                at,
            );
            n.patient_id = Some(patient);
            n.patient_name = row.try_get("patient_name")?;
            items.push((at, n));
        }
    }

    if is_doctor && wanted.notify_device_alerts {
        let rows = sqlx::query(
            "SELECT seq, created_at, event, device, detail FROM device_log \
             WHERE user_id = $1 AND level = 'warning' ORDER BY seq DESC LIMIT $2",
        )
        .bind(user_id)
        .bind(PER_KIND)
        .fetch_all(&mut *conn)
        .await?;
        for row in &rows {
            let at: i64 = row.try_get("created_at")?;
            let seq: i64 = row.try_get("seq")?;
            let mut n = blank(format!("device-{seq}"), NotificationKind::DeviceAlert, at);
            n.device = Some(row.try_get("device")?);
            n.event = Some(row.try_get("event")?);
            n.detail = Some(row.try_get("detail")?);
            items.push((at, n));
        }
    }

    items.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.id.cmp(&a.1.id)));
    let items: Vec<Notification> = items.into_iter().map(|(_, n)| n).collect();
    Ok(Json(NotificationFeed {
        unread: items.iter().filter(|n| n.unread).count(),
        items,
    }))
}

/// Marks every notification up to now as read.
#[utoipa::path(
    post, path = "/api/notifications/seen", operation_id = "mark_notifications_seen", tag = "notifications",
    responses(
        (status = 204, description = "Marked"),
        crate::platform::error::documented::Unauthenticated,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn mark_seen(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<StatusCode, ApiError> {
    let now = state.clock.now_ms();
    sqlx::query(
        "INSERT INTO notification_marks (user_id, seen_at) VALUES ($1, $2) \
         ON CONFLICT (user_id) DO UPDATE SET seen_at = excluded.seen_at",
    )
    .bind(&current.user.id)
    .bind(now)
    .execute(&state.db.writer)
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
