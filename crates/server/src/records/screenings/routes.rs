//! The screening endpoints: start a draft for a patient, read one, list a patient's, and complete
//! one with its combined result (every write audited).

use axum::{
    extract::State,
    http::StatusCode,
    routing::{get, post},
    Router,
};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    store::{self, Screening},
    SCREENING_NOT_FOUND,
};
use crate::{
    accounts::auth::{session::CurrentDoctor, ClientAddr},
    platform::{
        audit::{self, Action},
        db::now_ms,
        error::{ApiError, ErrorBody},
        extract::{Json, Path},
        state::AppState,
    },
    records::{
        analyses,
        combine::{self, CombinedResult},
        patients::{self, PATIENT_NOT_FOUND},
    },
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/screenings", post(create))
        .route("/screenings/{id}", get(read))
        .route("/screenings/{id}/combine", post(combine))
        .route("/patients/{id}/screenings", get(list_for_patient))
}

/// Request to start a screening.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewScreening {
    /// One of the signed-in doctor's patients.
    pub patient_id: String,
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
    let now = now_ms();
    let id = store::insert_draft(&mut tx, &request.patient_id, doctor.id(), now).await?;
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
    let row = store::find_row(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::Internal("screening vanished after insert".into()))?;
    let screening = store::assemble(&mut tx, row, doctor.id()).await?;
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
    let row = store::find_row(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(SCREENING_NOT_FOUND.into()))?;
    let patient_id = row.patient_id.clone();
    let screening = store::assemble(&mut tx, row, doctor.id()).await?;
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
    Ok(Json(
        store::of_patient(&mut conn, &patient_id, doctor.id()).await?,
    ))
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
    let screening = store::find_row(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(SCREENING_NOT_FOUND.into()))?;
    let found = analyses::store::of_screening(&mut tx, doctor.id(), &id).await?;
    let combined = combine::combine_analyses(&id, &found)?;
    store::mark_completed(&mut tx, &id, doctor.id(), now_ms()).await?;
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
