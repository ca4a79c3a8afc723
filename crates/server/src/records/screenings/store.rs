//! Screenings as stored: the row, the screening as the pages read it (patient, clinical entry,
//! combined result and murmur over the auscultation sites computed afresh, newest review) and the
//! queries, always scoped to the doctor.

use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, AnyConnection, Row};
use utoipa::ToSchema;

use crate::{
    platform::{db::ms_to_rfc3339, error::ApiError, ids},
    records::{
        analyses::{self, store::Analysis},
        clinical::{self, store::ClinicalRecord},
        combine::{self, CombinedResult},
        murmur::{self, MurmurResult},
        patients::{self, fields::Gender, PATIENT_NOT_FOUND},
    },
};

/// Who a screening is for: what the workflow pages show in their header.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatientSummary {
    /// Patient id.
    pub id: String,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// `YYYY-MM-DD`.
    pub date_of_birth: String,
    /// Gender.
    pub gender: Gender,
}

/// A screening session.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Screening {
    /// Screening id (carried in the workflow URLs).
    pub id: String,
    /// The patient.
    pub patient: PatientSummary,
    /// `draft` until the workflow completes (`POST /api/screenings/{id}/combine`), then
    /// `completed`.
    pub status: String,
    /// The clinical parameters entered for it, once entered.
    pub clinical: Option<ClinicalRecord>,
    /// The combined result of a completed screening, computed from its current analyses on every
    /// read (so it includes a modality added or replaced after completion); none for a draft.
    pub combined: Option<CombinedResult>,
    /// The heart-murmur verdict over the auscultation sites recorded so far (draft or completed),
    /// computed on every read; none without a heart-sound result that carries one.
    pub murmur: Option<MurmurResult>,
    /// The current sign-off of the combined result; none while the review is pending.
    pub review: Option<crate::records::reviews::store::Review>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// A screening row, before its parts are joined in.
pub struct ScreeningRow {
    /// Screening id.
    pub id: String,
    /// Patient id.
    pub patient_id: String,
    /// Status.
    pub status: String,
    /// The attached clinical entry.
    pub clinical_record_id: Option<String>,
    /// Milliseconds.
    pub created_at: i64,
    /// Milliseconds.
    pub updated_at: i64,
}

fn row_to_screening_row(row: &AnyRow) -> Result<ScreeningRow, sqlx::Error> {
    Ok(ScreeningRow {
        id: row.try_get("id")?,
        patient_id: row.try_get("patient_id")?,
        status: row.try_get("status")?,
        clinical_record_id: row.try_get("clinical_record_id")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

const COLUMNS: &str = "id, patient_id, status, clinical_record_id, created_at, updated_at";

/// The status of a screening whose results were combined.
pub const COMPLETED: &str = "completed";

/// One screening of the doctor's.
pub async fn find_row(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
) -> Result<Option<ScreeningRow>, ApiError> {
    let sql = format!("SELECT {COLUMNS} FROM screenings WHERE id = $1 AND doctor_id = $2");
    let row = sqlx::query(&sql)
        .bind(id)
        .bind(doctor_id)
        .fetch_optional(conn)
        .await?;
    Ok(row.as_ref().map(row_to_screening_row).transpose()?)
}

/// One of the doctor's screenings with its patient, clinical entry, combined result and review.
///
/// # Errors
/// A database error.
pub async fn read_one(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
) -> Result<Option<Screening>, ApiError> {
    match find_row(conn, id, doctor_id).await? {
        Some(row) => Ok(Some(assemble(conn, row, doctor_id).await?)),
        None => Ok(None),
    }
}

/// Points a screening at a clinical entry.
pub async fn attach_clinical(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
    clinical_id: &str,
    now: i64,
) -> Result<(), ApiError> {
    sqlx::query(
        "UPDATE screenings SET clinical_record_id = $3, updated_at = $4 WHERE id = $1 AND doctor_id = $2",
    )
    .bind(id)
    .bind(doctor_id)
    .bind(clinical_id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// The screening as the pages read it, from its row.
pub async fn assemble(
    conn: &mut AnyConnection,
    row: ScreeningRow,
    doctor_id: &str,
) -> Result<Screening, ApiError> {
    let patient = patients::store::find(conn, &row.patient_id, doctor_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    let clinical = match &row.clinical_record_id {
        Some(id) => clinical::store::find(conn, id, doctor_id).await?,
        None => None,
    };
    let found = analyses::store::of_screening(conn, doctor_id, &row.id).await?;
    let combined = if row.status == COMPLETED {
        combined_of(&row.id, &found)?
    } else {
        None
    };
    // A combined result already carries it.
    let murmur = match &combined {
        Some(c) => c.murmur.clone(),
        None => murmur::over_sites(&found),
    };
    let review = crate::records::reviews::store::latest(
        conn,
        crate::records::reviews::store::Target::Screening,
        &row.id,
    )
    .await?;
    Ok(Screening {
        id: row.id,
        patient: PatientSummary {
            id: patient.id,
            first_name: patient.first_name,
            last_name: patient.last_name,
            date_of_birth: patient.date_of_birth,
            gender: patient.gender,
        },
        status: row.status,
        clinical,
        combined,
        murmur,
        review,
        created_at: ms_to_rfc3339(row.created_at),
        updated_at: ms_to_rfc3339(row.updated_at),
    })
}

/// The combined result of the screening's current analyses (`found`, newest first); `None` when
/// none could be judged.
fn combined_of(id: &str, found: &[Analysis]) -> Result<Option<CombinedResult>, ApiError> {
    match combine::combine_analyses(id, found) {
        Ok(combined) => Ok(Some(combined)),
        Err(ApiError::Validation(_)) => Ok(None),
        Err(other) => Err(other),
    }
}

/// The screenings of one of the doctor's patients, newest first (the caller has checked the patient
/// is the doctor's).
///
/// # Errors
/// A database error.
pub async fn of_patient(
    conn: &mut AnyConnection,
    patient_id: &str,
    doctor_id: &str,
) -> Result<Vec<Screening>, ApiError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM screenings WHERE patient_id = $1 AND doctor_id = $2 \
         ORDER BY created_at DESC, id DESC"
    );
    let rows = sqlx::query(&sql)
        .bind(patient_id)
        .bind(doctor_id)
        .fetch_all(&mut *conn)
        .await?;
    let mut screenings = Vec::with_capacity(rows.len());
    for row in &rows {
        let row = row_to_screening_row(row)?;
        screenings.push(assemble(conn, row, doctor_id).await?);
    }
    Ok(screenings)
}

/// Starts a draft screening of a patient at `now` (ms); returns its id.
///
/// # Errors
/// A database error.
pub async fn insert_draft(
    conn: &mut AnyConnection,
    patient_id: &str,
    doctor_id: &str,
    now: i64,
) -> Result<String, sqlx::Error> {
    let id = ids::new();
    sqlx::query(
        "INSERT INTO screenings (id, patient_id, doctor_id, status, created_at, updated_at) \
         VALUES ($1, $2, $3, 'draft', $4, $4)",
    )
    .bind(&id)
    .bind(patient_id)
    .bind(doctor_id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(id)
}

/// Marks a screening completed at `now` (ms).
///
/// # Errors
/// A database error.
pub async fn mark_completed(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE screenings SET status = $3, updated_at = $4 WHERE id = $1 AND doctor_id = $2",
    )
    .bind(id)
    .bind(doctor_id)
    .bind(COMPLETED)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}
