//! The sharing endpoints: a doctor invites, reads and revokes the share of a patient record; the
//! patient's own account lists its invitations, accepts one, and reads the shared results and their
//! PDF reports. Every step is audited.

use axum::{
    extract::State,
    http::StatusCode,
    response::Response,
    routing::{get, post},
    Router,
};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

use super::{
    store::{self, Invitation, Share, SharedResult},
    EMAIL_NEEDED, INVITATION_NOT_FOUND, NOT_SHARED, PATIENTS_ONLY, SHARED_AT_THE_SAME_TIME,
    VERIFY_EMAIL_FIRST,
};
use crate::{
    accounts::{
        auth::{
            email::Email,
            mail::{self, Mail},
            mail_texts,
            session::{CurrentDoctor, CurrentUser},
            ClientAddr,
        },
        settings::{self, Language},
    },
    exports::pdf,
    platform::{
        audit::{self, Action},
        db::{ms_to_rfc3339, now_ms},
        error::{ApiError, ErrorBody},
        extract::{Json, Path},
        state::AppState,
    },
    records::{
        analyses::{self, ANALYSIS_NOT_FOUND},
        patients::{self, PATIENT_NOT_FOUND},
        reports::Finding,
    },
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/patients/{id}/share",
            get(current_share).post(invite).delete(revoke),
        )
        .route("/shared/invitations", get(invitations))
        .route("/shared/invitations/{id}/accept", post(accept))
        .route("/shared/results", get(results))
        .route("/shared/analyses/{id}/report.pdf", get(shared_report))
}

/// The doctor's view of a record's sharing: the current share, if any.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ShareState {
    /// The newest share that is not revoked; `null` when nothing is shared.
    pub current: Option<Share>,
}

/// An invitation to share.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareForm {
    /// The patient's address; defaults to the email of the patient record.
    #[serde(default)]
    pub email: Option<String>,
    /// Share every result, not only reviewed ones (default false).
    #[serde(default)]
    pub share_all: bool,
}

/// A `user`-role account (the `/api/shared` endpoints); a doctor gets 403.
fn patient_account(current: &CurrentUser) -> Result<&str, ApiError> {
    if current.user.role == "user" {
        Ok(&current.user.id)
    } else {
        Err(ApiError::Forbidden(PATIENTS_ONLY.into()))
    }
}

/// How one of the doctor's patient records is shared.
#[utoipa::path(
    get, path = "/api/patients/{id}/share", operation_id = "get_patient_share", tag = "sharing",
    params(("id" = String, Path, description = "Patient id")),
    responses(
        (status = 200, description = "The current share, or null", body = ShareState),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Patient not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn current_share(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Path(patient_id): Path<String>,
) -> Result<Json<ShareState>, ApiError> {
    let mut conn = state.db.pool.acquire().await?;
    patients::store::find(&mut conn, &patient_id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    let current = store::current_of(&mut conn, &patient_id, doctor.id()).await?;
    Ok(Json(ShareState { current }))
}

/// Invites the patient's address to see the record's results, or changes what is shared.
///
/// The same address keeps its share (only `share_all` changes); another address replaces it (the
/// old share is revoked).
#[utoipa::path(
    post, path = "/api/patients/{id}/share", operation_id = "share_patient_results", tag = "sharing",
    params(("id" = String, Path, description = "Patient id")),
    request_body = ShareForm,
    responses(
        (status = 200, description = "The share", body = Share),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Patient not found.", body = ErrorBody),
        (status = 409, description = "This patient's results were shared from another request at the same time. Reload the page to see the current share.", body = ErrorBody),
        (status = 422, description = "Invalid email address. / Enter the patient's email address to share results.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn invite(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(patient_id): Path<String>,
    Json(form): Json<ShareForm>,
) -> Result<Json<Share>, ApiError> {
    let mut tx = state.db.begin().await?;
    let patient = patients::store::find(&mut tx, &patient_id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    let raw = form
        .email
        .filter(|e| !e.trim().is_empty())
        .or(patient.email)
        .ok_or_else(|| ApiError::Validation(EMAIL_NEEDED.into()))?;
    let email = Email::parse(&raw).map_err(|m| ApiError::Validation(m.into()))?;
    let now = now_ms();
    let current = store::current_of(&mut tx, &patient_id, doctor.id()).await?;
    let mut invited = false;
    let id = match current {
        Some(share) if share.email == email.as_str() => {
            if !store::set_share_all(&mut tx, &share.id, form.share_all).await? {
                return Err(ApiError::Conflict(SHARED_AT_THE_SAME_TIME.into()));
            }
            share.id
        }
        other => {
            if let Some(old) = other {
                store::end_share(&mut tx, &old.id, now).await?;
            }
            invited = true;
            store::insert_invitation(
                &mut tx,
                &patient_id,
                doctor.id(),
                email.as_str(),
                form.share_all,
                now,
            )
            .await?
        }
    };
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Update,
            entity: "patient_share",
            entity_id: &id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    let share = store::current_of(&mut tx, &patient_id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::Internal("the share just written is gone".into()))?;
    tx.commit().await?;
    if invited {
        let language = settings::load(&state.db, doctor.id()).await?.language;
        send_invitation(&state, &share, &doctor.0.user.display_name, language).await;
    }
    Ok(Json(share))
}

/// Tells the invited address where to see the results (SMTP, or the outbox folder). The share
/// stands even when the message cannot be sent: the person sees the invitation once signed in.
async fn send_invitation(state: &AppState, share: &Share, doctor_name: &str, language: Language) {
    let base = mail::public_base(&state.config);
    let texts = mail_texts::of(language);
    let text = texts
        .invite_body
        .replace("{doctor}", doctor_name)
        .replace("{base}", &base);
    let selector = share.id.get(..8).unwrap_or(&share.id);
    let message = Mail {
        to: &share.email,
        subject: texts.invite_subject,
        text,
        kind: "share-invitation",
        selector,
    };
    if let Err(err) = mail::send(&state.config, &message).await {
        tracing::warn!(share = %selector, error = %err, "share invitation mail not sent");
    }
}

/// Ends the sharing of one of the doctor's patient records.
#[utoipa::path(
    delete, path = "/api/patients/{id}/share", operation_id = "revoke_patient_share", tag = "sharing",
    params(("id" = String, Path, description = "Patient id")),
    responses(
        (status = 204, description = "Revoked"),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Patient not found. / This patient's results are not shared.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn revoke(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(patient_id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let mut tx = state.db.begin().await?;
    patients::store::find(&mut tx, &patient_id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    let share = store::current_of(&mut tx, &patient_id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(NOT_SHARED.into()))?;
    // Revoked meanwhile by another request: nothing is shared any more.
    if !store::end_share(&mut tx, &share.id, now_ms()).await? {
        return Err(ApiError::NotFound(NOT_SHARED.into()));
    }
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Update,
            entity: "patient_share_revoked",
            entity_id: &share.id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The open invitations addressed to the signed-in patient account's email, once it is verified
/// (none before).
#[utoipa::path(
    get, path = "/api/shared/invitations", operation_id = "list_share_invitations", tag = "sharing",
    responses(
        (status = 200, description = "Newest first; empty until the account's address is verified", body = [Invitation]),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Only patient accounts can see shared results.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn invitations(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Vec<Invitation>>, ApiError> {
    patient_account(&current)?;
    // Anyone can sign up with any address: an invitation names the doctor and the patient's first
    // name, so only a proven owner of the address sees it.
    if !current.user.email_verified {
        return Ok(Json(Vec::new()));
    }
    let rows = sqlx::query(
        "SELECT s.id, s.created_at, u.display_name, p.first_name FROM patient_shares s \
         JOIN users u ON u.id = s.doctor_id JOIN patients p ON p.id = s.patient_id \
         WHERE s.email = $1 AND s.status = 'invited' ORDER BY s.created_at DESC, s.id DESC",
    )
    .bind(&current.user.email)
    .fetch_all(&state.db.pool)
    .await?;
    let mut found = Vec::with_capacity(rows.len());
    for row in &rows {
        found.push(Invitation {
            id: row.try_get("id")?,
            doctor_name: row.try_get("display_name")?,
            patient_first_name: row.try_get("first_name")?,
            created_at: ms_to_rfc3339(row.try_get("created_at")?),
        });
    }
    Ok(Json(found))
}

/// Accepts an invitation addressed to the signed-in patient account's (verified) email.
#[utoipa::path(
    post, path = "/api/shared/invitations/{id}/accept", operation_id = "accept_share_invitation", tag = "sharing",
    params(("id" = String, Path, description = "Invitation (share) id")),
    responses(
        (status = 204, description = "Accepted"),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Only patient accounts can see shared results. / Verify your email address before accepting a shared record.", body = ErrorBody),
        (status = 404, description = "Invitation not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn accept(
    State(state): State<AppState>,
    current: CurrentUser,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let user_id = patient_account(&current)?;
    let mut tx = state.db.begin().await?;
    let row = sqlx::query(
        "SELECT patient_id FROM patient_shares WHERE id = $1 AND email = $2 AND status = 'invited'",
    )
    .bind(&id)
    .bind(&current.user.email)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| ApiError::NotFound(INVITATION_NOT_FOUND.into()))?;
    // Anyone can sign up with any address: only a proven owner of it may see the record.
    if !current.user.email_verified {
        return Err(ApiError::Forbidden(VERIFY_EMAIL_FIRST.into()));
    }
    let patient_id: String = row.try_get("patient_id")?;
    // Only an invitation still open: one revoked since it was read above is not found.
    if !store::accept(&mut tx, &id, &current.user.email, user_id, now_ms()).await? {
        return Err(ApiError::NotFound(INVITATION_NOT_FOUND.into()));
    }
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id,
            action: Action::Update,
            entity: "patient_share_accepted",
            entity_id: &id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What the doctors shared with the signed-in patient account, newest first.
#[utoipa::path(
    get, path = "/api/shared/results", operation_id = "list_shared_results", tag = "sharing",
    responses(
        (status = 200, description = "Newest first", body = [SharedResult]),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Only patient accounts can see shared results.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn results(
    State(state): State<AppState>,
    current: CurrentUser,
    ClientAddr(client): ClientAddr,
) -> Result<Json<Vec<SharedResult>>, ApiError> {
    let user_id = patient_account(&current)?;
    let mut tx = state.db.begin().await?;
    let mut shared = Vec::new();
    for (doctor_id, doctor_name, patient_id, share_all) in
        store::active_shares(&mut tx, user_id).await?
    {
        let found = analyses::store::of_patient(&mut tx, &doctor_id, &patient_id).await?;
        for a in found.into_iter().filter(|a| store::is_shared(a, share_all)) {
            let finding = match Finding::of(&a.result.label) {
                Finding::Normal => "normal",
                Finding::Abnormal => "abnormal",
                Finding::Inconclusive => "inconclusive",
            };
            shared.push(SharedResult {
                report_url: format!("/api/shared/analyses/{}/report.pdf", a.id),
                heart_rate_bpm: a
                    .result
                    .details
                    .get("heart_rate_bpm")
                    .and_then(serde_json::Value::as_f64),
                doctor_agreed: a
                    .review
                    .as_ref()
                    .map(|r| r.agreement == crate::records::reviews::store::Agreement::Agree),
                reviewed_at: a.review.as_ref().map(|r| r.created_at.clone()),
                interpretation: a.review.as_ref().and_then(|r| r.interpretation.clone()),
                reviewed: a.review.is_some(),
                finding: finding.into(),
                prediction: a.result.prediction.clone(),
                label: a.result.label.clone(),
                modality: a.modality,
                created_at: a.created_at.clone(),
                doctor_name: doctor_name.clone(),
                id: a.id,
            });
        }
        audit::record(
            &mut tx,
            &audit::Entry {
                user_id,
                action: Action::Read,
                entity: "shared_results",
                entity_id: &patient_id,
                patient_id: Some(&patient_id),
                client_addr: &client,
            },
        )
        .await?;
    }
    tx.commit().await?;
    shared.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    Ok(Json(shared))
}

/// The PDF report of a result shared with the signed-in patient account.
#[utoipa::path(
    get, path = "/api/shared/analyses/{id}/report.pdf", operation_id = "shared_report_pdf", tag = "sharing",
    params(("id" = String, Path, description = "Analysis id")),
    responses(
        (status = 200, description = "The report (attachment)", content_type = "application/pdf", body = pdf::PdfFile),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Only patient accounts can see shared results.", body = ErrorBody),
        (status = 404, description = "Analysis not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn shared_report(
    State(state): State<AppState>,
    current: CurrentUser,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let user_id = patient_account(&current)?;
    let language = settings::load(&state.db, user_id).await?.language;
    let mut tx = state.db.begin().await?;
    let mut data = None;
    for (doctor_id, doctor_name, patient_id, share_all) in
        store::active_shares(&mut tx, user_id).await?
    {
        let Some(found) =
            pdf::data::analysis_data(&mut tx, &id, &doctor_id, language, &doctor_name).await?
        else {
            continue;
        };
        let shared = found.analyses.first().is_some_and(|a| {
            a.patient_id.as_deref() == Some(patient_id.as_str()) && store::is_shared(a, share_all)
        });
        if shared {
            data = Some((found, patient_id));
            break;
        }
    }
    let (data, patient_id) = data.ok_or_else(|| ApiError::NotFound(ANALYSIS_NOT_FOUND.into()))?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id,
            action: Action::Export,
            entity: "shared_report_pdf",
            entity_id: &id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    let bytes = pdf::routes::generate(&state, data).await?;
    pdf::routes::pdf_response(bytes, &format!("cardio-result-{id}.pdf"))
}
