//! `GET /api/profile/activity`: the profile page's activity figures, counted from the signed-in
//! user's stored data (the prototype showed fixed samples).

use axum::{extract::State, routing::get, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    accounts::auth::session::CurrentUser, platform::error::ApiError, platform::extract::Json,
    platform::state::AppState,
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/profile/activity", get(activity))
}

/// What the user has done in Cardio.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileActivity {
    /// Patients the user registered.
    pub patients: i64,
    /// Screening sessions the user started.
    pub screenings: i64,
    /// Predictions the user ran (clinical, ECG, PCG, PPG).
    pub analyses: i64,
    /// Sign-offs the user gave (each review counts, superseded ones too).
    pub reviews: i64,
}

/// The signed-in user's activity figures.
#[utoipa::path(
    get, path = "/api/profile/activity", operation_id = "get_profile_activity", tag = "auth",
    responses(
        (status = 200, description = "Counts from stored data", body = ProfileActivity),
        crate::platform::error::documented::Unauthenticated,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn activity(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<ProfileActivity>, ApiError> {
    let id = current.user.id.as_str();
    let count = |sql: &'static str| {
        let pool = state.db.pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .bind(id)
                .fetch_one(&pool)
                .await
        }
    };
    Ok(Json(ProfileActivity {
        patients: count("SELECT COUNT(*) FROM patients WHERE doctor_id = $1").await?,
        screenings: count("SELECT COUNT(*) FROM screenings WHERE doctor_id = $1").await?,
        analyses: count("SELECT COUNT(*) FROM analyses WHERE user_id = $1").await?,
        reviews: count("SELECT COUNT(*) FROM reviews WHERE reviewer_id = $1").await?,
    }))
}
