//! The review endpoints: a doctor signs off an analysis or a screening they own, and reads its
//! review history; every review is audited.
//!
//! Signing off an ECG result, the doctor confirms its interpretation (issue 40): Cardio's
//! statements kept, others added from the statements table, their own words. A sign-off that
//! names no interpretation keeps the one confirmed before, so the current review always holds the
//! confirmed version; a changed one is audited as an edit of the ECG's interpretation.

use axum::{extract::State, http::StatusCode, routing::get, Router};
use serde::Deserialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::store::{self, Agreement, ConfirmedStatement, NewReview, Review, Target};
use crate::{
    accounts::auth::{
        session::{CurrentDoctor, CurrentUser},
        ClientAddr,
    },
    platform::audit::{self, Action},
    platform::{
        db::ms_to_rfc3339,
        error::{ApiError, ErrorBody},
        extract::{Json, Path},
        state::AppState,
    },
    records::{
        analyses::{self, store::Modality, ANALYSIS_NOT_FOUND},
        screenings::{self, SCREENING_NOT_FOUND},
    },
};

/// Longest comment, in characters.
pub const MAX_COMMENT_CHARS: usize = 2000;

/// The 422 text for a longer comment.
pub const COMMENT_TOO_LONG: &str = "The comment is too long: at most 2000 characters.";

/// The 422 text for a screening sign-off that names an analysis of another screening.
pub const NOT_THIS_SCREENINGS: &str =
    "Only this screening's own results can be signed off with it.";

/// The 422 text for an analysis sign-off that names other analyses.
pub const ONLY_SCREENINGS_SETTLE: &str =
    "Only a screening's sign-off signs off other results with it.";

/// The 422 text for a disagreement without a reason.
pub const DISAGREE_NEEDS_COMMENT: &str =
    "Say why you disagree with the model's finding in the comment.";

/// Most statements one confirmed interpretation holds.
pub const MAX_STATEMENTS: usize = 30;

/// Longest statement in the doctor's own words, in characters.
pub const MAX_STATEMENT_CHARS: usize = 200;

/// The 422 text for an interpretation on a result that is not an ECG.
pub const ONLY_ECG_INTERPRETATION: &str = "Only an ECG result's sign-off confirms ECG statements.";

/// The 422 text for a confirmed interpretation without a statement.
pub const INTERPRETATION_EMPTY: &str =
    "Confirm at least one ECG statement, or write one in your own words.";

/// The 422 text for more than [`MAX_STATEMENTS`] statements.
pub const INTERPRETATION_TOO_LONG: &str = "At most 30 ECG statements can be confirmed.";

/// The 422 text for a statement in the doctor's words that is empty or too long.
pub const OWN_STATEMENT_LENGTH: &str =
    "An ECG statement in your own words takes 1 to 200 characters.";

/// The 422 text for a code the statements table does not hold (`{code}` is the code sent).
pub fn unknown_statement(code: &str) -> String {
    format!("This ECG statement is not in the list: {code}.")
}

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/analyses/{id}/reviews",
            get(analysis_history).post(review_analysis),
        )
        .route(
            "/screenings/{id}/reviews",
            get(screening_history).post(review_screening),
        )
}

/// A new review.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReviewForm {
    /// `agree` or `disagree`.
    pub agreement: Agreement,
    /// Up to 2000 characters; required when disagreeing.
    #[serde(default)]
    pub comment: String,
    /// For a screening: the ids of its own analyses that the doctor signs off with it, each as
    /// agreed (its finding stands), each with a review of its own; empty by default.
    #[serde(default)]
    pub settle_analyses: Vec<String>,
    /// For an ECG result: the interpretation the doctor confirms, in order (at most 30
    /// statements). Omitted, the interpretation confirmed before stays.
    #[serde(default)]
    pub interpretation: Option<Vec<StatementChoice>>,
}

/// One statement of the interpretation a doctor confirms: a code of the statements table
/// (`GET /api/ecg/statements`), or their own words in `text`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct StatementChoice {
    /// A code of the statements table.
    #[serde(default)]
    pub code: Option<String>,
    /// The doctor's own words (1 to 200 characters), when no code is given.
    #[serde(default)]
    pub text: Option<String>,
}

fn check_form(form: &ReviewForm) -> Result<String, ApiError> {
    let comment = form.comment.trim().to_owned();
    if comment.chars().count() > MAX_COMMENT_CHARS {
        return Err(ApiError::Validation(COMMENT_TOO_LONG.into()));
    }
    if form.agreement == Agreement::Disagree && comment.is_empty() {
        return Err(ApiError::Validation(DISAGREE_NEEDS_COMMENT.into()));
    }
    Ok(comment)
}

/// The statements as stored: each code's English text from the table, the doctor's words
/// trimmed, a code named twice kept once.
fn confirmed(choices: &[StatementChoice]) -> Result<Vec<ConfirmedStatement>, ApiError> {
    if choices.is_empty() {
        return Err(ApiError::Validation(INTERPRETATION_EMPTY.into()));
    }
    if choices.len() > MAX_STATEMENTS {
        return Err(ApiError::Validation(INTERPRETATION_TOO_LONG.into()));
    }
    let mut out: Vec<ConfirmedStatement> = Vec::with_capacity(choices.len());
    for choice in choices {
        let statement = match (&choice.code, &choice.text) {
            (Some(code), _) => {
                let def = cardio_models::ecg12::statements::def(code)
                    .ok_or_else(|| ApiError::Validation(unknown_statement(code)))?;
                ConfirmedStatement {
                    code: Some(def.code.to_owned()),
                    text: def.text.to_owned(),
                }
            }
            (None, text) => {
                let text = text.as_deref().unwrap_or("").trim();
                if text.is_empty() || text.chars().count() > MAX_STATEMENT_CHARS {
                    return Err(ApiError::Validation(OWN_STATEMENT_LENGTH.into()));
                }
                ConfirmedStatement {
                    code: None,
                    text: text.to_owned(),
                }
            }
        };
        if statement.code.is_none() || !out.iter().any(|s| s.code == statement.code) {
            out.push(statement);
        }
    }
    Ok(out)
}

/// A target the doctor owns: the patient it is for, and whether it is an ECG result.
struct Owned {
    patient_id: Option<String>,
    ecg: bool,
}

/// The target when it is the doctor's; `None` otherwise.
async fn owned_target(
    conn: &mut AnyConnection,
    target: Target,
    id: &str,
    doctor_id: &str,
) -> Result<Option<Owned>, ApiError> {
    Ok(match target {
        Target::Analysis => analyses::store::find(conn, id, doctor_id)
            .await?
            .map(|a| Owned {
                patient_id: a.patient_id,
                ecg: a.modality == Modality::Ecg,
            }),
        Target::Screening => screenings::store::find_row(conn, id, doctor_id)
            .await?
            .map(|s| Owned {
                patient_id: Some(s.patient_id),
                ecg: false,
            }),
    })
}

fn not_found(target: Target) -> ApiError {
    ApiError::NotFound(
        match target {
            Target::Analysis => ANALYSIS_NOT_FOUND,
            Target::Screening => SCREENING_NOT_FOUND,
        }
        .into(),
    )
}

async fn add_review(
    state: &AppState,
    doctor: &CurrentDoctor,
    client: &str,
    target: Target,
    target_id: &str,
    form: &ReviewForm,
) -> Result<Review, ApiError> {
    let comment = check_form(form)?;
    let chosen = form.interpretation.as_deref().map(confirmed).transpose()?;
    let mut tx = state.db.begin().await?;
    let owned = owned_target(&mut tx, target, target_id, doctor.id())
        .await?
        .ok_or_else(|| not_found(target))?;
    if chosen.is_some() && !owned.ecg {
        return Err(ApiError::Validation(ONLY_ECG_INTERPRETATION.into()));
    }
    let patient_id = owned.patient_id;
    let settled = settled_analyses(&mut tx, target, target_id, doctor.id(), form).await?;
    let before = if owned.ecg {
        store::latest(&mut tx, target, target_id)
            .await?
            .and_then(|r| r.interpretation)
    } else {
        None
    };
    let interpretation = chosen.or_else(|| before.clone());
    let (id, created_at) = store::insert(
        &mut tx,
        doctor.id(),
        target,
        target_id,
        &NewReview {
            agreement: form.agreement,
            comment: &comment,
            interpretation: interpretation.as_deref(),
        },
    )
    .await?;
    if interpretation != before {
        audit::record(
            &mut tx,
            &audit::Entry {
                user_id: doctor.id(),
                action: if before.is_some() {
                    Action::Update
                } else {
                    Action::Create
                },
                entity: "ecg_interpretation",
                entity_id: target_id,
                patient_id: patient_id.as_deref(),
                client_addr: client,
            },
        )
        .await?;
    }
    for analysis_id in &settled {
        store::insert(
            &mut tx,
            doctor.id(),
            Target::Analysis,
            analysis_id,
            &NewReview {
                agreement: Agreement::Agree,
                comment: "",
                interpretation: None,
            },
        )
        .await?;
        audit::record(
            &mut tx,
            &audit::Entry {
                user_id: doctor.id(),
                action: Action::Create,
                entity: "analysis_review",
                entity_id: analysis_id,
                patient_id: patient_id.as_deref(),
                client_addr: client,
            },
        )
        .await?;
    }
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Create,
            entity: match target {
                Target::Analysis => "analysis_review",
                Target::Screening => "screening_review",
            },
            entity_id: target_id,
            patient_id: patient_id.as_deref(),
            client_addr: client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Review {
        id,
        reviewer_id: doctor.id().to_owned(),
        reviewer_name: doctor.0.user.display_name.clone(),
        agreement: form.agreement,
        comment,
        interpretation,
        created_at: ms_to_rfc3339(created_at),
    })
}

/// The analyses a screening's sign-off settles: the form's ids, once each, every one an analysis
/// of that screening (422 otherwise, and for an analysis's own sign-off naming any).
async fn settled_analyses(
    conn: &mut AnyConnection,
    target: Target,
    target_id: &str,
    doctor_id: &str,
    form: &ReviewForm,
) -> Result<Vec<String>, ApiError> {
    if form.settle_analyses.is_empty() {
        return Ok(Vec::new());
    }
    if target == Target::Analysis {
        return Err(ApiError::Validation(ONLY_SCREENINGS_SETTLE.into()));
    }
    let own = analyses::store::of_screening(conn, doctor_id, target_id).await?;
    let mut settled: Vec<String> = Vec::new();
    for id in &form.settle_analyses {
        if !own.iter().any(|a| &a.id == id) {
            return Err(ApiError::Validation(NOT_THIS_SCREENINGS.into()));
        }
        if !settled.contains(id) {
            settled.push(id.clone());
        }
    }
    Ok(settled)
}

async fn list(
    state: &AppState,
    user: &CurrentUser,
    target: Target,
    target_id: &str,
) -> Result<Vec<Review>, ApiError> {
    let mut conn = state.db.pool.acquire().await?;
    if owned_target(&mut conn, target, target_id, &user.user.id)
        .await?
        .is_none()
    {
        return Err(not_found(target));
    }
    Ok(store::history(&mut conn, target, target_id).await?)
}

/// Signs off one of the signed-in doctor's analyses (a new review supersedes the previous one).
#[utoipa::path(
    post, path = "/api/analyses/{id}/reviews", operation_id = "review_analysis", tag = "reviews",
    params(("id" = String, Path, description = "Analysis id")), request_body = ReviewForm,
    responses(
        (status = 201, description = "The review, now the analysis's current one", body = Review),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Analysis not found.", body = ErrorBody),
        (status = 422, description = "Comment too long, a disagreement without one, or an ECG interpretation that is empty, too long, names an unknown statement or is not for an ECG", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn review_analysis(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
    Json(form): Json<ReviewForm>,
) -> Result<(StatusCode, Json<Review>), ApiError> {
    let review = add_review(&state, &doctor, &client, Target::Analysis, &id, &form).await?;
    Ok((StatusCode::CREATED, Json(review)))
}

/// Every review of one of the user's analyses, newest first (the first is the current one).
#[utoipa::path(
    get, path = "/api/analyses/{id}/reviews", operation_id = "list_analysis_reviews", tag = "reviews",
    params(("id" = String, Path, description = "Analysis id")),
    responses(
        (status = 200, description = "Newest first", body = [Review]),
        crate::platform::error::documented::Unauthenticated,
        (status = 404, description = "Analysis not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn analysis_history(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<Vec<Review>>, ApiError> {
    list(&state, &user, Target::Analysis, &id).await.map(Json)
}

/// Signs off one of the signed-in doctor's screenings (its combined result), and with it those of
/// its analyses the doctor names in `settle_analyses` (each signed off as agreed).
#[utoipa::path(
    post, path = "/api/screenings/{id}/reviews", operation_id = "review_screening", tag = "reviews",
    params(("id" = String, Path, description = "Screening id")), request_body = ReviewForm,
    responses(
        (status = 201, description = "The review, now the screening's current one", body = Review),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Screening not found.", body = ErrorBody),
        (status = 422, description = "Comment too long, a disagreement without one, or an analysis of another screening to settle", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn review_screening(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
    Json(form): Json<ReviewForm>,
) -> Result<(StatusCode, Json<Review>), ApiError> {
    let review = add_review(&state, &doctor, &client, Target::Screening, &id, &form).await?;
    Ok((StatusCode::CREATED, Json(review)))
}

/// Every review of one of the doctor's screenings, newest first.
#[utoipa::path(
    get, path = "/api/screenings/{id}/reviews", operation_id = "list_screening_reviews", tag = "reviews",
    params(("id" = String, Path, description = "Screening id")),
    responses(
        (status = 200, description = "Newest first", body = [Review]),
        crate::platform::error::documented::Unauthenticated,
        (status = 404, description = "Screening not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn screening_history(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<Vec<Review>>, ApiError> {
    list(&state, &user, Target::Screening, &id).await.map(Json)
}
