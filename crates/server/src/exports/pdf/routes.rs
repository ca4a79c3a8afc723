//! `GET /api/analyses/{id}/report.pdf` and `GET /api/screenings/{id}/report.pdf`: gather, render on
//! the blocking pool, audit the download as an export, answer the file.

use axum::{
    extract::State,
    http::{header, HeaderValue},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};

use super::data::{analysis_data, screening_data, ReportData};
use super::render::render;
use super::PdfFile;
use crate::platform::extract::Path;
use crate::{
    accounts::auth::{
        session::{CurrentDoctor, CurrentUser},
        ClientAddr,
    },
    accounts::settings::{self},
    platform::audit::{self, Action},
    platform::error::{ApiError, ErrorBody},
    platform::state::AppState,
    recordings::stored::Recordings,
    records::analyses::ANALYSIS_NOT_FOUND,
    records::screenings::SCREENING_NOT_FOUND,
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/analyses/{id}/report.pdf", get(analysis_report))
        .route("/screenings/{id}/report.pdf", get(screening_report))
}

/// A PDF download: `Content-Type: application/pdf` and an attachment file name.
pub(crate) fn pdf_response(bytes: Vec<u8>, file_name: &str) -> Result<Response, ApiError> {
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\""))
        .map_err(|e| ApiError::Internal(format!("bad file name: {e}")))?;
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/pdf"),
    );
    headers.insert(header::CONTENT_DISPOSITION, disposition);
    Ok(response)
}

pub(crate) async fn generate(state: &AppState, data: ReportData) -> Result<Vec<u8>, ApiError> {
    let recordings = Recordings::of(state);
    tokio::task::spawn_blocking(move || render(&data, &recordings)).await?
}

/// The PDF report of one of the signed-in user's analyses.
#[utoipa::path(
    get, path = "/api/analyses/{id}/report.pdf", operation_id = "analysis_report_pdf", tag = "reports",
    params(("id" = String, Path, description = "Analysis id")),
    responses(
        (status = 200, description = "The report (attachment)", content_type = "application/pdf", body = PdfFile),
        crate::platform::error::documented::Unauthenticated,
        (status = 404, description = "Analysis not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn analysis_report(
    State(state): State<AppState>,
    user: CurrentUser,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let user_id = user.user.id.as_str();
    let language = settings::load(&state.db, user_id).await?.language;
    let mut tx = state.db.begin().await?;
    let data = analysis_data(&mut tx, &id, user_id, language, &user.user.display_name)
        .await?
        .ok_or_else(|| ApiError::NotFound(ANALYSIS_NOT_FOUND.into()))?;
    let patient_id = data.analyses.first().and_then(|a| a.patient_id.clone());
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id,
            action: Action::Export,
            entity: "analysis_report_pdf",
            entity_id: &id,
            patient_id: patient_id.as_deref(),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    let bytes = generate(&state, data).await?;
    pdf_response(bytes, &format!("cardio-analysis-{id}.pdf"))
}

/// The PDF report of one of the signed-in doctor's screenings: every modality's newest result and
/// the combined one.
#[utoipa::path(
    get, path = "/api/screenings/{id}/report.pdf", operation_id = "screening_report_pdf", tag = "reports",
    params(("id" = String, Path, description = "Screening id")),
    responses(
        (status = 200, description = "The report (attachment)", content_type = "application/pdf", body = PdfFile),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Screening not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn screening_report(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let language = settings::load(&state.db, doctor.id()).await?.language;
    let mut tx = state.db.begin().await?;
    let (data, patient_id) = screening_data(
        &mut tx,
        &id,
        doctor.id(),
        language,
        &doctor.0.user.display_name,
    )
    .await?
    .ok_or_else(|| ApiError::NotFound(SCREENING_NOT_FOUND.into()))?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Export,
            entity: "screening_report_pdf",
            entity_id: &id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    let bytes = generate(&state, data).await?;
    pdf_response(bytes, &format!("cardio-screening-{id}.pdf"))
}
