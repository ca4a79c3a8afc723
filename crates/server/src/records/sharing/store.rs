//! Shares as stored: the share and its status, an invitation and a shared result as the patient's
//! account sees them, and the queries on the shares (a record's current share, an account's active
//! ones).

use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, AnyConnection, Row};
use utoipa::ToSchema;

use super::SHARED_AT_THE_SAME_TIME;
use crate::{
    platform::{db::ms_to_rfc3339, error::ApiError},
    records::analyses::store::{Analysis, Modality},
};

/// Where a share stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ShareStatus {
    /// Sent, not accepted yet.
    Invited,
    /// Accepted: the account sees the shared results.
    Active,
    /// Ended by the doctor.
    Revoked,
}

impl ShareStatus {
    fn parse(text: &str) -> Self {
        match text {
            "active" => Self::Active,
            "revoked" => Self::Revoked,
            _ => Self::Invited,
        }
    }
}

/// A patient record's share, as the doctor sees it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Share {
    /// Share id.
    pub id: String,
    /// The patient record.
    pub patient_id: String,
    /// The invited address (lower case).
    pub email: String,
    /// Invited, active or revoked.
    pub status: ShareStatus,
    /// Every result is shared (otherwise only reviewed ones).
    pub share_all: bool,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339, once accepted.
    pub accepted_at: Option<String>,
    /// RFC 3339, once revoked.
    pub revoked_at: Option<String>,
}

/// An open invitation, as the invited account sees it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    /// Share id (accept with it).
    pub id: String,
    /// The inviting doctor's display name.
    pub doctor_name: String,
    /// The first name on the record, so the person can tell it is theirs.
    pub patient_first_name: String,
    /// RFC 3339.
    pub created_at: String,
}

/// One shared result, as the patient sees it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SharedResult {
    /// Analysis id.
    pub id: String,
    /// Which test.
    pub modality: Modality,
    /// RFC 3339.
    pub created_at: String,
    /// `normal`, `abnormal` or `inconclusive` (the page words it plainly).
    pub finding: String,
    /// The model's wording of the result.
    pub prediction: String,
    /// The model's label code (the web app shows its finding in the reader's language).
    pub label: String,
    /// Heart rate measured by the test, beats per minute.
    pub heart_rate_bpm: Option<f64>,
    /// The doctor signed the result off.
    pub reviewed: bool,
    /// The doctor agreed with the automatic finding (`null` before review).
    pub doctor_agreed: Option<bool>,
    /// RFC 3339 of the review.
    pub reviewed_at: Option<String>,
    /// An ECG's interpretation as the doctor confirmed it (never Cardio's unconfirmed one).
    pub interpretation: Option<Vec<crate::records::reviews::store::ConfirmedStatement>>,
    /// The doctor who shared it.
    pub doctor_name: String,
    /// The PDF report of the result.
    pub report_url: String,
}

/// A share from its row (read with [`SHARE_COLUMNS`]).
pub fn share_from_row(row: &AnyRow) -> Result<Share, ApiError> {
    Ok(Share {
        id: row.try_get("id")?,
        patient_id: row.try_get("patient_id")?,
        email: row.try_get("email")?,
        status: ShareStatus::parse(&row.try_get::<String, _>("status")?),
        share_all: row.try_get::<i64, _>("share_all")? == 1,
        created_at: ms_to_rfc3339(row.try_get("created_at")?),
        accepted_at: row
            .try_get::<Option<i64>, _>("accepted_at")?
            .map(ms_to_rfc3339),
        revoked_at: row
            .try_get::<Option<i64>, _>("revoked_at")?
            .map(ms_to_rfc3339),
    })
}

/// The columns [`share_from_row`] reads.
pub const SHARE_COLUMNS: &str =
    "id, patient_id, email, status, share_all, created_at, accepted_at, revoked_at";

/// The newest share of one of the doctor's patients that is not revoked.
pub async fn current_of(
    conn: &mut AnyConnection,
    patient_id: &str,
    doctor_id: &str,
) -> Result<Option<Share>, ApiError> {
    let row = sqlx::query(&format!(
        "SELECT {SHARE_COLUMNS} FROM patient_shares \
         WHERE patient_id = $1 AND doctor_id = $2 AND status <> 'revoked' \
         ORDER BY created_at DESC, id DESC LIMIT 1"
    ))
    .bind(patient_id)
    .bind(doctor_id)
    .fetch_optional(&mut *conn)
    .await?;
    row.as_ref().map(share_from_row).transpose()
}

/// Revokes a share that is still open (the row stays, as the record of what was shared when);
/// `false` when it was revoked already. Conditional, so that on PostgreSQL a revoke and an accept
/// of the same share at the same time end in one consistent state: the accept waits for the
/// revoke's row lock and then finds no invitation (see [`accept`]), or the revoke waits for the
/// accept and then revokes the active share.
pub async fn end_share(conn: &mut AnyConnection, id: &str, now: i64) -> Result<bool, ApiError> {
    let done = sqlx::query(
        "UPDATE patient_shares SET status = 'revoked', revoked_at = $1 \
         WHERE id = $2 AND status <> 'revoked'",
    )
    .bind(now)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Accepts the invitation `id` addressed to `email` for the account `user_id`; `false` when it
/// is not (or no longer) an open invitation to that address, e.g. revoked a moment before.
pub async fn accept(
    conn: &mut AnyConnection,
    id: &str,
    email: &str,
    user_id: &str,
    now: i64,
) -> Result<bool, ApiError> {
    let done = sqlx::query(
        "UPDATE patient_shares SET status = 'active', user_id = $1, accepted_at = $2 \
         WHERE id = $3 AND email = $4 AND status = 'invited'",
    )
    .bind(user_id)
    .bind(now)
    .bind(id)
    .bind(email)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Writes a new invitation. A record has at most one open share (the partial unique index of
/// migration 0017): an invitation written at the same time as another for the same record is
/// [`SHARED_AT_THE_SAME_TIME`] (409).
pub async fn insert_invitation(
    conn: &mut AnyConnection,
    patient_id: &str,
    doctor_id: &str,
    email: &str,
    share_all: bool,
    now: i64,
) -> Result<String, ApiError> {
    let id = crate::platform::ids::new();
    let written = sqlx::query(
        "INSERT INTO patient_shares (id, patient_id, doctor_id, email, status, share_all, \
         created_at) VALUES ($1, $2, $3, $4, 'invited', $5, $6)",
    )
    .bind(&id)
    .bind(patient_id)
    .bind(doctor_id)
    .bind(email)
    .bind(i64::from(share_all))
    .bind(now)
    .execute(&mut *conn)
    .await;
    match written {
        Ok(_) => Ok(id),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            Err(ApiError::Conflict(SHARED_AT_THE_SAME_TIME.into()))
        }
        Err(e) => Err(e.into()),
    }
}

/// Changes what an open share shows; `false` when it was revoked meanwhile.
pub async fn set_share_all(
    conn: &mut AnyConnection,
    id: &str,
    share_all: bool,
) -> Result<bool, ApiError> {
    let done = sqlx::query(
        "UPDATE patient_shares SET share_all = $1 WHERE id = $2 AND status <> 'revoked'",
    )
    .bind(i64::from(share_all))
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The active shares of an account: (doctor id, doctor name, patient id, share all).
pub async fn active_shares(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Vec<(String, String, String, bool)>, ApiError> {
    let rows = sqlx::query(
        "SELECT s.doctor_id, u.display_name, s.patient_id, s.share_all FROM patient_shares s \
         JOIN users u ON u.id = s.doctor_id WHERE s.user_id = $1 AND s.status = 'active' \
         ORDER BY s.accepted_at, s.id",
    )
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("doctor_id")?,
                r.try_get("display_name")?,
                r.try_get("patient_id")?,
                r.try_get::<i64, _>("share_all")? == 1,
            ))
        })
        .collect()
}

/// Whether a result is shared under a share's rule.
pub fn is_shared(analysis: &Analysis, share_all: bool) -> bool {
    share_all || analysis.review.is_some()
}
