//! The audit trail: who created, read, updated or exported which patient's data, when and from
//! where. Rows are written in the same transaction as the action they record; `GET /api/audit`
//! returns the signed-in user's own trail, newest first.

use axum::{extract::State, routing::get, Router};
use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, Any, Row, Transaction};
use utoipa::{IntoParams, ToSchema};

use crate::extract::Query;
use crate::{
    auth::session::CurrentUser,
    db::{ms_to_rfc3339, now_ms},
    error::ApiError,
    extract::Json,
    state::AppState,
};

/// Default and largest page of `GET /api/audit`.
pub const DEFAULT_LIMIT: i64 = 50;
/// Largest page of `GET /api/audit`.
pub const MAX_LIMIT: i64 = 500;

/// What was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// A record was created.
    Create,
    /// A record was read.
    Read,
    /// A record was changed.
    Update,
    /// Data left the system (reports, exports).
    Export,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Self::Create => "create",
            Self::Read => "read",
            Self::Update => "update",
            Self::Export => "export",
        }
    }

    fn from_stored(text: &str) -> Self {
        match text {
            "create" => Self::Create,
            "update" => Self::Update,
            "export" => Self::Export,
            _ => Self::Read,
        }
    }
}

/// One action to record.
pub struct Entry<'a> {
    /// Who.
    pub user_id: &'a str,
    /// What.
    pub action: Action,
    /// Kind of record: `patient`, `clinical`, `screening`, ...
    pub entity: &'a str,
    /// Which record.
    pub entity_id: &'a str,
    /// Whose data.
    pub patient_id: Option<&'a str>,
    /// From which address.
    pub client_addr: &'a str,
}

/// Writes an audit row inside the caller's transaction.
pub async fn record(tx: &mut Transaction<'_, Any>, entry: &Entry<'_>) -> Result<(), ApiError> {
    sqlx::query(
        "INSERT INTO audit_log (user_id, action, entity, entity_id, patient_id, client_addr, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(entry.user_id)
    .bind(entry.action.as_str())
    .bind(entry.entity)
    .bind(entry.entity_id)
    .bind(entry.patient_id)
    .bind(entry.client_addr)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

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
        crate::error::documented::Unauthenticated,
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
