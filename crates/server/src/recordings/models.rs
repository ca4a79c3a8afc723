//! `GET /api/models` lists each model's validated headline figures (public: the welcome page shows
//! them instead of marketing claims); `GET /api/ecg/statements` lists the ECG interpretation
//! statements a doctor confirms or adds when signing off an ECG (the models' one table of them).

use axum::{extract::State, routing::get, Router};
use serde::Serialize;
use utoipa::ToSchema;

use super::registry::ModelSummary;

use crate::{platform::extract::Json, platform::state::AppState};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/models", get(list))
        .route("/ecg/statements", get(ecg_statements))
}

/// One ECG interpretation statement of the table.
#[derive(Debug, Serialize, ToSchema)]
pub struct EcgStatementOption {
    /// Stable code (the catalogue's text is `reasons.templates.e12_<code>`).
    pub code: &'static str,
    /// English text.
    pub text: &'static str,
    /// The criterion Cardio applies, in English.
    pub criterion: &'static str,
    /// SNOMED CT concept, where one exists.
    pub snomed: Option<&'static str>,
}

/// Every ECG interpretation statement, in the order they are printed. Public, like the models.
#[utoipa::path(
    get, path = "/api/ecg/statements", operation_id = "list_ecg_statements", tag = "predict",
    responses((status = 200, description = "The statements table", body = [EcgStatementOption]))
)]
pub async fn ecg_statements() -> Json<Vec<EcgStatementOption>> {
    Json(
        cardio_models::ecg12::STATEMENTS
            .iter()
            .map(|d| EcgStatementOption {
                code: d.code,
                text: d.text,
                criterion: d.criterion,
                snomed: d.snomed,
            })
            .collect(),
    )
}

/// The loaded models and their validated figures. Public: the welcome page shows them.
#[utoipa::path(
    get, path = "/api/models", operation_id = "list_models", tag = "predict",
    responses((status = 200, description = "Loaded models, clinical first", body = [ModelSummary]))
)]
pub async fn list(State(state): State<AppState>) -> Json<Vec<ModelSummary>> {
    Json(state.models.summaries())
}
