//! `GET /api/dashboard`: the home page's figures, computed from the signed-in doctor's stored data
//! (the prototype showed hard-coded samples).

use axum::{extract::State, routing::get, Router};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::platform::extract::Query;
use crate::{
    accounts::auth::session::CurrentDoctor, platform::db::now_ms, platform::error::ApiError,
    platform::extract::Json, platform::state::AppState, recordings::devices, records::patients,
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/dashboard", get(summary))
}

/// The home page's figures.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    /// How many patients the doctor has.
    pub total_patients: i64,
    /// Screenings started since `since` (the start of the doctor's day).
    pub screenings_today: i64,
    /// ECG, PCG and PPG analyses run since `since`.
    pub tests_today: i64,
    /// Analyses since `since` whose recording could not be judged (`unsure`, `noisy`): they need a
    /// clinician's look or a new recording.
    pub needs_review_today: i64,
    /// Recordings' analyses and completed screenings (of any day) the doctor has not signed off yet.
    pub pending_reviews: i64,
    /// The doctor's network devices online now (a heartbeat within the last 90 seconds).
    pub devices_active: i64,
}

/// Query of `GET /api/dashboard`.
#[derive(Debug, Deserialize, IntoParams)]
pub struct DashboardQuery {
    /// Start of "today" in the client's time zone, milliseconds since the epoch (default: 24 hours
    /// ago).
    pub since: Option<i64>,
}

/// The signed-in doctor's figures for the home page.
#[utoipa::path(
    get, path = "/api/dashboard", operation_id = "get_dashboard", tag = "patients", params(DashboardQuery),
    responses(
        (status = 200, description = "Figures from stored data", body = Dashboard),
        crate::platform::error::documented::DoctorOnly,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn summary(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Query(query): Query<DashboardQuery>,
) -> Result<Json<Dashboard>, ApiError> {
    let since = query.since.unwrap_or_else(|| now_ms() - 24 * 3600 * 1000);
    let total_patients = patients::store::count(&state.db, doctor.id()).await?;
    let screenings_today: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM screenings WHERE doctor_id = $1 AND created_at >= $2",
    )
    .bind(doctor.id())
    .bind(since)
    .fetch_one(&state.db.pool)
    .await?;
    let tests_today: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM analyses WHERE user_id = $1 AND created_at >= $2 \
         AND modality <> 'clinical'",
    )
    .bind(doctor.id())
    .bind(since)
    .fetch_one(&state.db.pool)
    .await?;
    let needs_review_today: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM analyses WHERE user_id = $1 AND created_at >= $2 \
         AND label IN ('unsure', 'noisy')",
    )
    .bind(doctor.id())
    .bind(since)
    .fetch_one(&state.db.pool)
    .await?;
    let pending_reviews: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM analyses a WHERE a.user_id = $1 AND a.modality <> 'clinical' \
           AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.target_type = 'analysis' AND r.target_id = a.id)) \
         + (SELECT COUNT(*) FROM screenings s WHERE s.doctor_id = $1 AND s.status = 'completed' \
           AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.target_type = 'screening' AND r.target_id = s.id))",
    )
    .bind(doctor.id())
    .fetch_one(&state.db.pool)
    .await?;
    let devices_active = devices::active_count(&state, doctor.id()).await?;
    Ok(Json(Dashboard {
        total_patients,
        screenings_today,
        tests_today,
        needs_review_today,
        pending_reviews,
        devices_active,
    }))
}
