//! Screening sessions, kept on the server so that the workflow survives a reload.
//!
//! The prototype passed intake → clinical → PCG → PPG → ECG state through navigation, and a reload
//! lost it. Here `POST /api/screenings` creates a draft for a patient; the workflow pages carry its
//! id in the URL (`/clinical-data?screening=ID`), the clinical step attaches its parameters, and
//! later steps attach recordings and results.
//!
//! `POST /api/screenings/{id}/combine` completes a screening. A completed screening's combined
//! result is not stored: it is computed from the screening's current analyses whenever the
//! screening is read ([`crate::records::combine::combine_analyses`]), so a modality added or replaced after
//! completion (a pulse recorded later, a second ECG) is in the very next read, never stale. (The
//! `combined_json` column of migration 0004, which kept a copy, is no longer written or read.)

use axum::{
    extract::State,
    http::StatusCode,
    routing::{get, post},
    Router,
};
use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, AnyConnection, Row};
use utoipa::ToSchema;

use crate::platform::extract::Path;
use crate::{
    accounts::auth::{session::CurrentDoctor, ClientAddr},
    platform::audit::{self, Action},
    platform::db::{ms_to_rfc3339, now_ms},
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
    records::analyses,
    records::clinical::{self, store::ClinicalRecord},
    records::combine::{self, CombinedResult},
    records::patients::{self, fields::Gender, PATIENT_NOT_FOUND},
};

/// The message for a screening that does not exist for this doctor.
pub const SCREENING_NOT_FOUND: &str = "Screening not found.";

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/screenings", post(create))
        .route("/screenings/{id}", get(read))
        .route("/screenings/{id}/combine", post(combine))
        .route("/patients/{id}/screenings", get(list_for_patient))
}

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
    /// The current sign-off of the combined result; none while the review is pending.
    pub review: Option<crate::records::reviews::store::Review>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// Request to start a screening.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewScreening {
    /// One of the signed-in doctor's patients.
    pub patient_id: String,
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

async fn assemble(
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
    let combined = if row.status == COMPLETED {
        combined_now(conn, &row.id, doctor_id).await?
    } else {
        None
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
        review,
        created_at: ms_to_rfc3339(row.created_at),
        updated_at: ms_to_rfc3339(row.updated_at),
    })
}

/// The combined result of the screening's current analyses; `None` when none could be judged.
async fn combined_now(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
) -> Result<Option<CombinedResult>, ApiError> {
    let found = analyses::store::of_screening(conn, doctor_id, id).await?;
    match combine::combine_analyses(id, &found) {
        Ok(combined) => Ok(Some(combined)),
        Err(ApiError::Validation(_)) => Ok(None),
        Err(other) => Err(other),
    }
}

/// Starts a draft screening for one of the signed-in doctor's patients.
#[utoipa::path(
    post, path = "/api/screenings", operation_id = "create_screening", tag = "screenings", request_body = NewScreening,
    responses(
        (status = 201, description = "The new draft", body = Screening),
        (status = 404, description = "Patient not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Json(request): Json<NewScreening>,
) -> Result<(StatusCode, Json<Screening>), ApiError> {
    let mut tx = state.db.begin().await?;
    if patients::store::find(&mut tx, &request.patient_id, doctor.id())
        .await?
        .is_none()
    {
        return Err(ApiError::NotFound(PATIENT_NOT_FOUND.into()));
    }
    let id = crate::platform::ids::new();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO screenings (id, patient_id, doctor_id, status, created_at, updated_at) \
         VALUES ($1, $2, $3, 'draft', $4, $4)",
    )
    .bind(&id)
    .bind(&request.patient_id)
    .bind(doctor.id())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    patients::store::touch_visit(&mut tx, &request.patient_id, doctor.id(), now).await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Create,
            entity: "screening",
            entity_id: &id,
            patient_id: Some(&request.patient_id),
            client_addr: &client,
        },
    )
    .await?;
    let row = find_row(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::Internal("screening vanished after insert".into()))?;
    let screening = assemble(&mut tx, row, doctor.id()).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(screening)))
}

/// One of the signed-in doctor's screenings, with its patient and clinical parameters.
#[utoipa::path(
    get, path = "/api/screenings/{id}", operation_id = "get_screening", tag = "screenings",
    params(("id" = String, Path, description = "Screening id")),
    responses(
        (status = 200, description = "The screening", body = Screening),
        (status = 404, description = "Screening not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
) -> Result<Json<Screening>, ApiError> {
    let mut tx = state.db.begin().await?;
    let row = find_row(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(SCREENING_NOT_FOUND.into()))?;
    let patient_id = row.patient_id.clone();
    let screening = assemble(&mut tx, row, doctor.id()).await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Read,
            entity: "screening",
            entity_id: &id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Json(screening))
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

/// The screenings of one of the signed-in doctor's patients, newest first.
#[utoipa::path(
    get, path = "/api/patients/{id}/screenings", operation_id = "list_patient_screenings", tag = "screenings",
    params(("id" = String, Path, description = "Patient id")),
    responses(
        (status = 200, description = "Newest first", body = [Screening]),
        (status = 404, description = "Patient not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn list_for_patient(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Path(patient_id): Path<String>,
) -> Result<Json<Vec<Screening>>, ApiError> {
    let mut conn = state.db.pool.acquire().await?;
    if patients::store::find(&mut conn, &patient_id, doctor.id())
        .await?
        .is_none()
    {
        return Err(ApiError::NotFound(PATIENT_NOT_FOUND.into()));
    }
    Ok(Json(of_patient(&mut conn, &patient_id, doctor.id()).await?))
}

/// Combines the screening's results and marks it completed. The answer is the combination of its
/// current analyses, the same that every later read of the screening computes afresh.
#[utoipa::path(
    post, path = "/api/screenings/{id}/combine", operation_id = "combine_screening", tag = "screenings",
    params(("id" = String, Path, description = "Screening id")),
    responses(
        (status = 200, description = "The combined result of the screening's current analyses (recomputed on every read of the screening)", body = CombinedResult),
        crate::platform::error::documented::Unauthenticated,
        (status = 404, description = "Screening not found.", body = ErrorBody),
        (status = 422, description = "Nothing to combine: run at least one model for this screening first.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn combine(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
) -> Result<Json<CombinedResult>, ApiError> {
    let mut tx = state.db.begin().await?;
    let screening = find_row(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(SCREENING_NOT_FOUND.into()))?;
    let found = analyses::store::of_screening(&mut tx, doctor.id(), &id).await?;
    let combined = combine::combine_analyses(&id, &found)?;
    sqlx::query(
        "UPDATE screenings SET status = $3, updated_at = $4 WHERE id = $1 AND doctor_id = $2",
    )
    .bind(&id)
    .bind(doctor.id())
    .bind(COMPLETED)
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Update,
            entity: "screening",
            entity_id: &id,
            patient_id: Some(&screening.patient_id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Json(combined))
}
