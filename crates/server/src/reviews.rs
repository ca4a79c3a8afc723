//! A doctor's sign-off of an analysis or a screening: the review state goes from pending (no review)
//! to reviewed (who, when, agreed or disagreed with the model's finding, a comment).
//!
//! Reviews are never edited in place: a new review supersedes the previous one, which stays in the
//! history (`GET .../reviews`, newest first). Only the doctor who owns the analysis or screening
//! reviews it (another doctor gets 404, a `user` account 403); every review is audited.

use axum::{extract::State, http::StatusCode, routing::get, Router};
use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, AnyConnection, Row};
use utoipa::ToSchema;

use crate::extract::Path;
use crate::{
    analyses::{self, ANALYSIS_NOT_FOUND},
    audit::{self, Action},
    auth::{
        session::{CurrentDoctor, CurrentUser},
        ClientAddr,
    },
    db::{ms_to_rfc3339, now_ms},
    error::{ApiError, ErrorBody},
    extract::Json,
    screenings::{self, SCREENING_NOT_FOUND},
    state::AppState,
};

/// Longest comment, in characters.
pub const MAX_COMMENT_CHARS: usize = 2000;
/// The 422 text for a longer comment.
pub const COMMENT_TOO_LONG: &str = "The comment is too long: at most 2000 characters.";
/// The 422 text for a disagreement without a reason.
pub const DISAGREE_NEEDS_COMMENT: &str =
    "Say why you disagree with the model's finding in the comment.";

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

/// The reviewer's verdict on the model's finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Agreement {
    /// The finding stands.
    Agree,
    /// The reviewer reads the recording or the parameters otherwise (the comment says how).
    Disagree,
}

impl Agreement {
    fn as_str(self) -> &'static str {
        match self {
            Self::Agree => "agree",
            Self::Disagree => "disagree",
        }
    }
}

/// What was reviewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// One model result.
    Analysis,
    /// A screening's combined result.
    Screening,
}

impl Target {
    fn as_str(self) -> &'static str {
        match self {
            Self::Analysis => "analysis",
            Self::Screening => "screening",
        }
    }
}

/// A sign-off.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    /// Review id.
    pub id: String,
    /// The reviewing doctor.
    pub reviewer_id: String,
    /// That doctor's display name.
    pub reviewer_name: String,
    /// Agreed or disagreed with the model's finding.
    pub agreement: Agreement,
    /// The reviewer's comment (may be empty when agreeing).
    pub comment: String,
    /// RFC 3339.
    pub created_at: String,
}

/// A new review.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReviewForm {
    /// `agree` or `disagree`.
    pub agreement: Agreement,
    /// Up to 2000 characters; required when disagreeing.
    #[serde(default)]
    pub comment: String,
}

/// A review's columns under the `review_` prefix, or `None` when the row has no review (a LEFT JOIN
/// that found none).
pub(crate) fn review_from_prefixed(row: &AnyRow) -> Result<Option<Review>, sqlx::Error> {
    let id: Option<String> = row.try_get("review_id")?;
    let Some(id) = id else { return Ok(None) };
    let agreement: String = row.try_get("review_agreement")?;
    let reviewer_name: Option<String> = row.try_get("review_reviewer_name")?;
    Ok(Some(Review {
        id,
        reviewer_id: row.try_get("review_reviewer_id")?,
        reviewer_name: reviewer_name.unwrap_or_default(),
        agreement: if agreement == "disagree" {
            Agreement::Disagree
        } else {
            Agreement::Agree
        },
        comment: row.try_get("review_comment")?,
        created_at: ms_to_rfc3339(row.try_get("review_created_at")?),
    }))
}

/// The SQL columns (prefixed `review_`) of the newest review of the row aliased `owner` of type
/// `target`, to add to a SELECT with [`latest_review_join`].
pub(crate) const LATEST_REVIEW_COLUMNS: &str =
    "r.id AS review_id, r.reviewer_id AS review_reviewer_id, ru.display_name AS review_reviewer_name, \
     r.agreement AS review_agreement, r.comment AS review_comment, r.created_at AS review_created_at";

/// The LEFT JOINs that bring in the newest review of `alias.id` (a table of `target`'s type).
pub(crate) fn latest_review_join(target: Target, alias: &str) -> String {
    format!(
        "LEFT JOIN reviews r ON r.id = (SELECT r2.id FROM reviews r2 WHERE r2.target_type = '{}' \
         AND r2.target_id = {alias}.id ORDER BY r2.created_at DESC, r2.id DESC LIMIT 1) \
         LEFT JOIN users ru ON ru.id = r.reviewer_id",
        target.as_str()
    )
}

/// Every review of a target, newest first.
async fn history(
    conn: &mut AnyConnection,
    target: Target,
    target_id: &str,
) -> Result<Vec<Review>, ApiError> {
    let rows = sqlx::query(&format!(
        "SELECT {LATEST_REVIEW_COLUMNS} FROM reviews r LEFT JOIN users ru ON ru.id = r.reviewer_id \
         WHERE r.target_type = $1 AND r.target_id = $2 ORDER BY r.created_at DESC, r.id DESC"
    ))
    .bind(target.as_str())
    .bind(target_id)
    .fetch_all(conn)
    .await?;
    let mut reviews = Vec::with_capacity(rows.len());
    for row in &rows {
        if let Some(review) = review_from_prefixed(row)? {
            reviews.push(review);
        }
    }
    Ok(reviews)
}

/// The current (newest) review of a target, if any.
///
/// # Errors
/// A database error.
pub async fn latest(
    conn: &mut AnyConnection,
    target: Target,
    target_id: &str,
) -> Result<Option<Review>, ApiError> {
    Ok(history(conn, target, target_id).await?.into_iter().next())
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

/// Who owns a target and which patient it is for; `None` when it is not the doctor's.
async fn owned_target(
    conn: &mut AnyConnection,
    target: Target,
    id: &str,
    doctor_id: &str,
) -> Result<Option<Option<String>>, ApiError> {
    Ok(match target {
        Target::Analysis => analyses::find(conn, id, doctor_id)
            .await?
            .map(|a| a.patient_id),
        Target::Screening => screenings::find_row(conn, id, doctor_id)
            .await?
            .map(|s| Some(s.patient_id)),
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
    let mut tx = state.db.begin().await?;
    let patient_id = owned_target(&mut tx, target, target_id, doctor.id())
        .await?
        .ok_or_else(|| not_found(target))?;
    // Strictly after the review it supersedes, so the order never depends on the id.
    let latest: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(created_at) FROM reviews WHERE target_type = $1 AND target_id = $2",
    )
    .bind(target.as_str())
    .bind(target_id)
    .fetch_one(&mut *tx)
    .await?;
    let created_at = latest.map_or(now_ms(), |t| now_ms().max(t + 1));
    let id = crate::record_id::new();
    sqlx::query(
        "INSERT INTO reviews (id, reviewer_id, target_type, target_id, agreement, comment, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&id)
    .bind(doctor.id())
    .bind(target.as_str())
    .bind(target_id)
    .bind(form.agreement.as_str())
    .bind(&comment)
    .bind(created_at)
    .execute(&mut *tx)
    .await?;
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
        created_at: ms_to_rfc3339(created_at),
    })
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
    history(&mut conn, target, target_id).await
}

/// Signs off one of the signed-in doctor's analyses (a new review supersedes the previous one).
#[utoipa::path(
    post, path = "/api/analyses/{id}/reviews", operation_id = "review_analysis", tag = "reviews",
    params(("id" = String, Path, description = "Analysis id")), request_body = ReviewForm,
    responses(
        (status = 201, description = "The review, now the analysis's current one", body = Review),
        crate::error::documented::DoctorOnly,
        (status = 404, description = "Analysis not found.", body = ErrorBody),
        (status = 422, description = "Comment too long, or a disagreement without one", body = ErrorBody),
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
        crate::error::documented::Unauthenticated,
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

/// Signs off one of the signed-in doctor's screenings (its combined result).
#[utoipa::path(
    post, path = "/api/screenings/{id}/reviews", operation_id = "review_screening", tag = "reviews",
    params(("id" = String, Path, description = "Screening id")), request_body = ReviewForm,
    responses(
        (status = 201, description = "The review, now the screening's current one", body = Review),
        crate::error::documented::DoctorOnly,
        (status = 404, description = "Screening not found.", body = ErrorBody),
        (status = 422, description = "Comment too long, or a disagreement without one", body = ErrorBody),
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
        crate::error::documented::Unauthenticated,
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
