//! Writing the audit trail: who created, read, updated or exported which patient's data, when and
//! from where. Every area writes its rows with [`record`], in the same transaction as the action
//! they record; `crate::admin::audit` reads the trail back.

use serde::{Deserialize, Serialize};
use sqlx::{Any, Transaction};
use utoipa::ToSchema;

use crate::platform::db::now_ms;

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

    pub(crate) fn from_stored(text: &str) -> Self {
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
pub async fn record(tx: &mut Transaction<'_, Any>, entry: &Entry<'_>) -> Result<(), sqlx::Error> {
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
