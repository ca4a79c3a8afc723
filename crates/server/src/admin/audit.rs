//! `GET /api/audit`: the signed-in user's own audit trail, newest first (the rows are written by
//! [`crate::platform::audit`]).

use axum::{extract::State, routing::get, Router};
use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, Row};
use utoipa::{IntoParams, ToSchema};

use crate::platform::extract::Query;
use crate::{
    accounts::auth::session::CurrentUser, platform::audit::Action, platform::db::ms_to_rfc3339,
    platform::error::ApiError, platform::extract::Json, platform::state::AppState,
};

/// Default and largest page of `GET /api/audit`.
pub const DEFAULT_LIMIT: i64 = 50;
/// Largest page of `GET /api/audit`.
pub const MAX_LIMIT: i64 = 500;

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/audit", get(list))
}

/// One row of the trail as the API shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    /// Row id.
    pub id: i64,
    /// What was done.
    pub action: Action,
    /// Kind of record.
    pub entity: String,
    /// Which record.
    pub entity_id: String,
    /// Whose data, when it concerns a patient.
    pub patient_id: Option<String>,
    /// The patient's name, when it concerns one of the user's patients.
    pub patient_name: Option<String>,
    /// Client address.
    pub client_addr: String,
    /// RFC 3339 time.
    pub at: String,
}

/// Query of `GET /api/audit`.
#[derive(Debug, Deserialize, IntoParams)]
pub struct AuditQuery {
    /// How many rows, newest first (1 to 500, default 50).
    pub limit: Option<i64>,
}

/// The signed-in user's own audit trail, newest first.
#[utoipa::path(
    get, path = "/api/audit", operation_id = "list_audit_entries", tag = "audit", params(AuditQuery),
    responses(
        (status = 200, description = "The trail, newest first", body = [AuditEntry]),
        crate::platform::error::documented::Unauthenticated,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
    Query(query): Query<AuditQuery>,
) -> Result<Json<Vec<AuditEntry>>, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    let rows = sqlx::query(
        "SELECT a.id, a.action, a.entity, a.entity_id, a.patient_id, a.client_addr, a.at, \
                p.first_name, p.last_name \
         FROM audit_log a LEFT JOIN patients p ON p.id = a.patient_id AND p.doctor_id = a.user_id \
         WHERE a.user_id = $1 ORDER BY a.at DESC, a.id DESC LIMIT $2",
    )
    .bind(&current.user.id)
    .bind(limit)
    .fetch_all(&state.db.pool)
    .await?;
    let entries = rows
        .iter()
        .map(entry_from_row)
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(Json(entries))
}

fn entry_from_row(row: &AnyRow) -> Result<AuditEntry, sqlx::Error> {
    let first: Option<String> = row.try_get("first_name")?;
    let last: Option<String> = row.try_get("last_name")?;
    Ok(AuditEntry {
        id: row.try_get("id")?,
        action: Action::from_stored(&row.try_get::<String, _>("action")?),
        entity: row.try_get("entity")?,
        entity_id: row.try_get("entity_id")?,
        patient_id: row.try_get("patient_id")?,
        patient_name: first.zip(last).map(|(f, l)| format!("{f} {l}")),
        client_addr: row.try_get("client_addr")?,
        at: ms_to_rfc3339(row.try_get("at")?),
    })
}
