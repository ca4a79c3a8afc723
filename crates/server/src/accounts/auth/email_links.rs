//! Email verification and password reset: links with single-use, expiring tokens sent by
//! [`super::mail`].
//!
//! A token is `<selector>.<verifier>`: the selector (public, it names the message in the log) finds
//! the row, only the SHA-256 of the verifier (the secret part) is stored. Verification links last
//! 24 hours, reset links one hour, both against the server's clock, and each works once. A reset
//! request answers the same whether or not the account exists (no enumeration), sends in the
//! background (no timing difference) and is rate-limited per address and per client; a reset ends
//! every session of the account.

use axum::{extract::State, http::StatusCode, routing::post, Router};
use rand::{rngs::OsRng, RngCore};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    email::Email,
    mail::{self, Mail},
    mail_texts, password, rate_limit,
    session::{self, CurrentUser},
    store, ClientAddr,
};
use crate::{
    accounts::settings,
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};

/// How long a verification link works.
pub const VERIFY_TTL_MS: i64 = 24 * 60 * 60 * 1000;
/// How long a password-reset link works.
pub const RESET_TTL_MS: i64 = 60 * 60 * 1000;
/// The message for an unknown, used, expired or malformed token.
pub const INVALID_TOKEN: &str = "This link is invalid or has expired.";
/// The message when the verification mail could not be sent.
pub const MAIL_FAILED: &str = "Could not send the email. Please try again later.";
/// Path of the web app's verification page.
pub const VERIFY_PATH: &str = "/verify-email";
/// Path of the web app's reset page.
pub const RESET_PATH: &str = "/reset-password";

const VERIFY: &str = "verify_email";
const RESET: &str = "password_reset";

/// The routes of this module, mounted under `/api/auth`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/verify-email/request", post(request_verification))
        .route("/verify-email", post(verify_email))
        .route("/password-reset/request", post(request_reset))
        .route("/password-reset", post(reset_password))
}

/// A token from a link.
#[derive(Deserialize, ToSchema)]
pub struct TokenRequest {
    /// The `token` query parameter of the link.
    pub token: String,
}

/// A password-reset request.
#[derive(Deserialize, ToSchema)]
pub struct ResetRequest {
    /// The account's email address.
    pub email: String,
}

/// A new password from a reset link.
#[derive(Deserialize, ToSchema)]
pub struct PasswordReset {
    /// The `token` query parameter of the link.
    pub token: String,
    /// The new password, at least 6 characters.
    pub new_password: String,
}

/// A new token: what goes in the link, its selector, and what is stored.
struct NewToken {
    token: String,
    selector: String,
    verifier_hash: String,
}

fn new_token() -> NewToken {
    let mut selector = [0u8; 12];
    OsRng.fill_bytes(&mut selector);
    let selector = super::totp::to_hex(&selector);
    let verifier = session::new_token();
    NewToken {
        token: format!("{selector}.{verifier}"),
        verifier_hash: session::token_hash(&verifier),
        selector,
    }
}

/// Stores a token of `purpose` for `user_id`, valid `ttl_ms` from `now`.
async fn store_token(
    state: &AppState,
    user_id: &str,
    purpose: &str,
    now: i64,
    ttl_ms: i64,
) -> Result<NewToken, ApiError> {
    let token = new_token();
    sqlx::query(
        "INSERT INTO email_tokens (selector, verifier_hash, user_id, purpose, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&token.selector)
    .bind(&token.verifier_hash)
    .bind(user_id)
    .bind(purpose)
    .bind(now)
    .bind(now + ttl_ms)
    .execute(&state.db.writer)
    .await?;
    Ok(token)
}

/// The selector and account of a usable token of `purpose`, without using it up; `None` when the
/// token is unknown, of another purpose, used, expired or malformed.
async fn usable_token<'t>(
    conn: &mut sqlx::AnyConnection,
    token: &'t str,
    purpose: &str,
    now: i64,
) -> Result<Option<(&'t str, String)>, ApiError> {
    let Some((selector, verifier)) = token.trim().split_once('.') else {
        return Ok(None);
    };
    let row: Option<(String, String)> = sqlx::query_as(
        "SELECT verifier_hash, user_id FROM email_tokens \
         WHERE selector = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3",
    )
    .bind(selector)
    .bind(purpose)
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((stored_hash, user_id)) = row else {
        return Ok(None);
    };
    // Hashes of a 256-bit secret: comparing them leaks nothing useful about the verifier.
    Ok((stored_hash == session::token_hash(verifier)).then_some((selector, user_id)))
}

/// Uses up a token of `purpose` inside `tx`: the account it belongs to, or `None` when the token is
/// unknown, of another purpose, used, expired or malformed.
async fn consume_token(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    token: &str,
    purpose: &str,
    now: i64,
) -> Result<Option<String>, ApiError> {
    let Some((selector, user_id)) = usable_token(tx, token, purpose, now).await? else {
        return Ok(None);
    };
    let used =
        sqlx::query("UPDATE email_tokens SET used_at = $1 WHERE selector = $2 AND used_at IS NULL")
            .bind(now)
            .bind(selector)
            .execute(&mut **tx)
            .await?
            .rows_affected();
    Ok((used == 1).then_some(user_id))
}

/// Sends `user` a link that verifies its email address (valid 24 hours), in its language: at
/// sign-up, and again on request.
///
/// # Errors
/// 500 [`MAIL_FAILED`] when the message could not be sent (the cause is logged).
pub async fn send_verification(state: &AppState, user: &store::UserRow) -> Result<(), ApiError> {
    let now = state.clock.now_ms();
    let token = store_token(state, &user.id, VERIFY, now, VERIFY_TTL_MS).await?;
    let link = format!(
        "{}{VERIFY_PATH}?token={}",
        mail::public_base(&state.config),
        token.token
    );
    let texts = mail_texts::of(settings::load(&state.db, &user.id).await?.language);
    let message = Mail {
        to: &user.email,
        subject: texts.verify_subject,
        text: texts.verify_body.replace("{link}", &link),
        kind: "verify-email",
        selector: &token.selector,
    };
    if let Err(err) = mail::send(&state.config, &message).await {
        tracing::error!(user_id = %user.id, error = %err, "verification mail not sent");
        return Err(ApiError::Internal(MAIL_FAILED.into()));
    }
    tracing::info!(user_id = %user.id, token = %token.selector, "verification link sent");
    Ok(())
}

/// Sends the signed-in account a link that verifies its email address (valid 24 hours).
#[utoipa::path(
    post, path = "/api/auth/verify-email/request", operation_id = "request_email_verification", tag = "auth",
    responses(
        (status = 202, description = "A verification link was sent (or the address is already verified)"),
        crate::platform::error::documented::Unauthenticated,
        (status = 429, description = "Several links were sent already. Please check your inbox, or try again in 15 minutes.", body = ErrorBody),
        (status = 500, description = "Could not send the email. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn request_verification(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<StatusCode, ApiError> {
    if !current.user.email_verified {
        rate_limit::reserve_verification_mail(&state.db, &current.user.id, state.clock.now_ms())
            .await?;
        send_verification(&state, &current.user).await?;
    }
    Ok(StatusCode::ACCEPTED)
}

/// Marks the email address of the token's account as verified. Needs no session: the link may be
/// opened in another browser.
#[utoipa::path(
    post, path = "/api/auth/verify-email", operation_id = "verify_email", tag = "auth",
    request_body = TokenRequest,
    responses(
        (status = 204, description = "The email address is verified"),
        (status = 403, description = "Request from another origin", body = ErrorBody),
        (status = 422, description = "This link is invalid or has expired.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn verify_email(
    State(state): State<AppState>,
    Json(req): Json<TokenRequest>,
) -> Result<StatusCode, ApiError> {
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    let Some(user_id) = consume_token(&mut tx, &req.token, VERIFY, now).await? else {
        return Err(ApiError::Validation(INVALID_TOKEN.into()));
    };
    sqlx::query("UPDATE users SET email_verified = 1, updated_at = $1 WHERE id = $2")
        .bind(now)
        .bind(&user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(user_id = %user_id, "email address verified");
    Ok(StatusCode::NO_CONTENT)
}

/// Sends a password-reset link (valid one hour) when an active account has this email. Answers the
/// same either way.
#[utoipa::path(
    post, path = "/api/auth/password-reset/request", operation_id = "request_password_reset", tag = "auth",
    request_body = ResetRequest,
    responses(
        (status = 202, description = "If an account exists for the address, a reset link is on its way (the same answer either way)"),
        (status = 403, description = "Request from another origin", body = ErrorBody),
        (status = 429, description = "Too many failed attempts. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn request_reset(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    Json(req): Json<ResetRequest>,
) -> Result<StatusCode, ApiError> {
    let now = state.clock.now_ms();
    let email = Email::parse(&req.email).map_or_else(
        |_| req.email.trim().to_lowercase(),
        |e| e.as_str().to_owned(),
    );
    // Every request counts, found or not, under keys of their own (reset requests do not lock
    // sign-in, and sign-in failures do not block a reset).
    let (email_key, client_key) = (format!("reset:{email}"), format!("reset:{client}"));
    rate_limit::reserve(&state.db, &email_key, &client_key, now).await?;
    rate_limit::record_failure(&state.db, &email_key, &client_key, now).await?;
    let user = store::find_by_email(&state.db, &email).await?;
    let Some(user) = user.filter(|u| u.is_active) else {
        tracing::info!("password reset requested for no account");
        return Ok(StatusCode::ACCEPTED);
    };
    let token = store_token(&state, &user.id, RESET, now, RESET_TTL_MS).await?;
    let link = format!(
        "{}{RESET_PATH}?token={}",
        mail::public_base(&state.config),
        token.token
    );
    tracing::info!(user_id = %user.id, token = %token.selector, "password reset requested");
    // Sent in the background, so that the answer takes as long for an unknown address.
    let texts = mail_texts::of(settings::load(&state.db, &user.id).await?.language);
    tokio::spawn(async move {
        let message = Mail {
            to: &user.email,
            subject: texts.reset_subject,
            text: texts.reset_body.replace("{link}", &link),
            kind: "password-reset",
            selector: &token.selector,
        };
        if let Err(err) = mail::send(&state.config, &message).await {
            tracing::error!(user_id = %user.id, error = %err, "password reset mail not sent");
        }
    });
    Ok(StatusCode::ACCEPTED)
}

/// Sets a new password with a reset link's token, and ends every session of the account.
#[utoipa::path(
    post, path = "/api/auth/password-reset", operation_id = "reset_password", tag = "auth",
    request_body = PasswordReset,
    responses(
        (status = 204, description = "Password changed; every session of the account ended"),
        (status = 403, description = "Request from another origin", body = ErrorBody),
        (status = 422, description = "Password must be at least 6 characters / This link is invalid or has expired.", body = ErrorBody),
        (status = 429, description = "Too many failed attempts. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn reset_password(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    Json(req): Json<PasswordReset>,
) -> Result<StatusCode, ApiError> {
    // The rule first: a short password does not use up the link.
    password::check_new_password(&req.new_password)?;
    let now = state.clock.now_ms();
    // Limited per address, and the token checked before the new password is hashed: a made-up
    // token costs a lookup, not an Argon2 hash.
    rate_limit::reserve_reset(&state.db, &client, now).await?;
    let mut conn = state.db.pool.acquire().await?;
    if usable_token(&mut conn, &req.token, RESET, now)
        .await?
        .is_none()
    {
        return Err(ApiError::Validation(INVALID_TOKEN.into()));
    }
    drop(conn);
    let new_hash = password::hash(req.new_password).await?;
    let mut tx = state.db.begin().await?;
    let Some(user_id) = consume_token(&mut tx, &req.token, RESET, now).await? else {
        return Err(ApiError::Validation(INVALID_TOKEN.into()));
    };
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(&new_hash)
        .bind(now)
        .bind(&user_id)
        .execute(&mut *tx)
        .await?;
    let ended = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(&user_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    // Half-finished two-factor sign-ins started with the old password end too.
    sqlx::query("DELETE FROM login_challenges WHERE user_id = $1")
        .bind(&user_id)
        .execute(&mut *tx)
        .await?;
    // Other reset links of the account stop working too.
    sqlx::query(
        "UPDATE email_tokens SET used_at = $1 WHERE user_id = $2 AND purpose = $3 AND used_at IS NULL",
    )
    .bind(now)
    .bind(&user_id)
    .bind(RESET)
    .execute(&mut *tx)
    .await?;
    let email: String = sqlx::query_scalar("SELECT email FROM users WHERE id = $1")
        .bind(&user_id)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    rate_limit::clear_account(&state.db, &email).await?;
    tracing::info!(user_id = %user_id, ended, "password reset");
    Ok(StatusCode::NO_CONTENT)
}
