//! Reviews as stored: the types, the newest review of an analysis or a screening (to join into
//! their own queries), a target's history and a new review. Reviews are never updated in place.
//!
//! The review of an ECG result may carry the interpretation the doctor confirms (issue 40): the
//! statements they keep from Cardio's, those they add from the table, and their own words. The
//! current review's interpretation is the ECG's confirmed one, with its reviewer and time; earlier
//! reviews keep the versions it replaced.

use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, AnyConnection, Row};
use utoipa::ToSchema;

use crate::platform::{
    db::{ms_to_rfc3339, now_ms},
    ids,
};

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

/// One statement of a confirmed ECG interpretation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ConfirmedStatement {
    /// The code in Cardio's table of ECG statements; `null` for the doctor's own words.
    pub code: Option<String>,
    /// The table's English text for a code, or the doctor's own words as written.
    pub text: String,
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
    /// For an ECG result, the interpretation the reviewer confirmed, in order; `null` when this
    /// review confirms none (another kind of result, or an ECG signed off without its statements).
    #[serde(default)]
    pub interpretation: Option<Vec<ConfirmedStatement>>,
    /// RFC 3339.
    pub created_at: String,
}

/// A review's columns under the `review_` prefix, or `None` when the row has no review (a LEFT JOIN
/// that found none).
pub(crate) fn review_from_prefixed(row: &AnyRow) -> Result<Option<Review>, sqlx::Error> {
    let id: Option<String> = row.try_get("review_id")?;
    let Some(id) = id else { return Ok(None) };
    let agreement: String = row.try_get("review_agreement")?;
    let reviewer_name: Option<String> = row.try_get("review_reviewer_name")?;
    let interpretation: Option<String> = row.try_get("review_interpretation")?;
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
        // Written by `insert` only; a value that does not read back is a defect shown as none.
        interpretation: interpretation.and_then(|json| serde_json::from_str(&json).ok()),
        created_at: ms_to_rfc3339(row.try_get("review_created_at")?),
    }))
}

/// The SQL columns (prefixed `review_`) of the newest review of the row aliased `owner` of type
/// `target`, to add to a SELECT with [`latest_review_join`].
pub(crate) const LATEST_REVIEW_COLUMNS: &str =
    "r.id AS review_id, r.reviewer_id AS review_reviewer_id, ru.display_name AS review_reviewer_name, \
     r.agreement AS review_agreement, r.comment AS review_comment, \
     r.interpretation AS review_interpretation, r.created_at AS review_created_at";

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
pub async fn history(
    conn: &mut AnyConnection,
    target: Target,
    target_id: &str,
) -> Result<Vec<Review>, sqlx::Error> {
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
) -> Result<Option<Review>, sqlx::Error> {
    Ok(history(conn, target, target_id).await?.into_iter().next())
}

/// What a new review says.
pub struct NewReview<'a> {
    /// Agreed or disagreed with the finding.
    pub agreement: Agreement,
    /// The comment, trimmed.
    pub comment: &'a str,
    /// The confirmed ECG interpretation, if any.
    pub interpretation: Option<&'a [ConfirmedStatement]>,
}

/// Adds a review of `target_id` by `reviewer_id`, dated strictly after the review it supersedes
/// (so the order never depends on the id); returns its id and time (ms).
///
/// # Errors
/// A database error.
pub async fn insert(
    conn: &mut AnyConnection,
    reviewer_id: &str,
    target: Target,
    target_id: &str,
    review: &NewReview<'_>,
) -> Result<(String, i64), sqlx::Error> {
    let interpretation = review
        .interpretation
        .map(|s| serde_json::to_string(s).unwrap_or_else(|_| "[]".to_owned()));
    let latest: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(created_at) FROM reviews WHERE target_type = $1 AND target_id = $2",
    )
    .bind(target.as_str())
    .bind(target_id)
    .fetch_one(&mut *conn)
    .await?;
    let created_at = latest.map_or(now_ms(), |t| now_ms().max(t + 1));
    let id = ids::new();
    sqlx::query(
        "INSERT INTO reviews (id, reviewer_id, target_type, target_id, agreement, comment, \
         interpretation, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&id)
    .bind(reviewer_id)
    .bind(target.as_str())
    .bind(target_id)
    .bind(review.agreement.as_str())
    .bind(review.comment)
    .bind(interpretation)
    .bind(created_at)
    .execute(conn)
    .await?;
    Ok((id, created_at))
}
