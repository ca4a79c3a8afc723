//! `GET /api/analyses` (the signed-in user's own, newest first, filtered) and
//! `GET /api/analyses/{id}` (one, audited).

use axum::{extract::State, routing::get, Router};
use serde::Deserialize;
use utoipa::IntoParams;

use super::{
    store::{self, Analysis, Modality},
    ANALYSIS_NOT_FOUND, MAX_LIMIT,
};
use crate::{
    accounts::auth::{session::CurrentUser, ClientAddr},
    platform::{
        error::{ApiError, ErrorBody},
        extract::{Json, Path},
        state::AppState,
    },
    records::patients::{self, PATIENT_NOT_FOUND},
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/analyses", get(list))
        .route("/analyses/{id}", get(read))
}

/// Filters of the list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AnalysesQuery {
    /// Only this modality: `clinical`, `ecg`, `pcg` or `ppg`.
    #[serde(rename = "type")]
    pub modality: Option<Modality>,
    /// Only this patient's (one of the user's patients).
    pub patient_id: Option<String>,
    /// Only this screening's (one of the user's screenings).
    pub screening_id: Option<String>,
    /// At most this many (default and maximum 500).
    pub limit: Option<i64>,
}

impl crate::platform::extract::QueryRules for AnalysesQuery {
    const INVALID: &'static str = "type must be one of clinical, ecg, pcg, ppg; limit a number.";
}

/// The signed-in user's own analyses, newest first.
#[utoipa::path(
    get, path = "/api/analyses", operation_id = "list_analyses", tag = "analyses",
    params(AnalysesQuery),
    responses(
        (status = 200, description = "Newest first", body = [Analysis]),
        (status = 401, description = "Not signed in.", body = ErrorBody),
        (status = 404, description = "Patient not found.", body = ErrorBody),
        (status = 422, description = "Bad filter.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn list(
    State(state): State<AppState>,
    user: CurrentUser,
    crate::platform::extract::RuledQuery(query): crate::platform::extract::RuledQuery<
        AnalysesQuery,
    >,
) -> Result<Json<Vec<Analysis>>, ApiError> {
    let limit = query.limit.unwrap_or(MAX_LIMIT).clamp(1, MAX_LIMIT);
    let user_id = user.user.id.as_str();
    let mut conn = state.db.pool.acquire().await?;
    if let Some(patient_id) = &query.patient_id {
        if patients::store::find(&mut conn, patient_id, user_id)
            .await?
            .is_none()
        {
            return Err(ApiError::NotFound(PATIENT_NOT_FOUND.into()));
        }
    }
    let analyses = store::list(
        &mut conn,
        user_id,
        query.modality,
        query.patient_id.as_deref(),
        query.screening_id.as_deref(),
        limit,
    )
    .await?;
    Ok(Json(analyses))
}

/// One of the signed-in user's analyses.
#[utoipa::path(
    get, path = "/api/analyses/{id}", operation_id = "get_analysis", tag = "analyses",
    params(("id" = String, Path, description = "Analysis id")),
    responses(
        (status = 200, description = "The analysis", body = Analysis),
        (status = 401, description = "Not signed in.", body = ErrorBody),
        (status = 404, description = "Analysis not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read(
    State(state): State<AppState>,
    user: CurrentUser,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
) -> Result<Json<Analysis>, ApiError> {
    let user_id = user.user.id.as_str();
    let mut tx = state.db.begin().await?;
    let analysis = store::find(&mut tx, &id, user_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(ANALYSIS_NOT_FOUND.into()))?;
    store::audit_read(&mut tx, user_id, &client, &analysis, "analysis").await?;
    tx.commit().await?;
    Ok(Json(analysis))
}
