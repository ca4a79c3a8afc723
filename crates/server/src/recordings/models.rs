//! `GET /api/models` lists each model's validated headline figures (public: the welcome page shows
//! them instead of marketing claims).

use axum::{extract::State, routing::get, Router};

use super::registry::ModelSummary;

use crate::{platform::extract::Json, platform::state::AppState};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/models", get(list))
}

/// The loaded models and their validated figures. Public: the welcome page shows them.
#[utoipa::path(
    get, path = "/api/models", operation_id = "list_models", tag = "predict",
    responses((status = 200, description = "Loaded models, clinical first", body = [ModelSummary]))
)]
pub async fn list(State(state): State<AppState>) -> Json<Vec<ModelSummary>> {
    Json(state.models.summaries())
}
