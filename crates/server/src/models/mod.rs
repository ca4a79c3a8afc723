//! The screening models the prediction endpoints serve, loaded once when the server starts.
//!
//! Each model's committed parameters are compiled into `cardio-models` and parsed on first use;
//! [`ModelRegistry::load`] does that at start so that a broken parameter file is known before the
//! first request, and an endpoint whose model failed answers 503 ("Model not loaded. Please check
//! backend server.") instead of failing on every call.
//!
//! `GET /api/models` lists each model's validated headline figures (public: the welcome page shows
//! them instead of marketing claims).

pub mod registry;

use axum::{extract::State, routing::get, Router};

pub use registry::{Metric, ModelRegistry, ModelSummary, SignalModel};

use crate::{extract::Json, state::AppState};

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
