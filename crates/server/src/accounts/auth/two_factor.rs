//! Two-factor sign-in: enrolment from the profile (setup, confirm with a code, ten recovery codes),
//! the code step of a sign-in, and turning it off with the password and a code.
//!
//! A correct password of an account with two-factor sign-in on does not start a session: the login
//! answers `{"twoFactorRequired": true, "challenge": ...}` and `POST /api/auth/login/totp` with that
//! challenge and a code (or an unused recovery code) does. Wrong codes count as failed sign-ins of
//! the account and the client address ([`super::rate_limit`]); enabling and disabling are audited.
//! Codes come from [`super::totp`]; a code's time step is remembered so it cannot be used twice.

use axum::{
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::post,
    Router,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    rate_limit,
    session::{self, CurrentUser},
    store, totp, ClientAddr, User,
};
use crate::{
    platform::audit,
    platform::db::Db,
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};

/// How long a sign-in challenge stays valid.
pub const CHALLENGE_TTL_MS: i64 = 5 * 60 * 1000;
/// The message for a wrong, reused or malformed code.
pub const INVALID_CODE: &str = "Invalid authentication code.";
/// The message for an unknown or expired sign-in challenge.
pub const CHALLENGE_EXPIRED: &str = "Your sign-in has expired. Please sign in again.";
/// The message for a setup or confirmation while two-factor sign-in is already on.
pub const ALREADY_ON: &str = "Two-factor sign-in is already on.";
/// The message for a confirmation without a setup first.
pub const NOT_SET_UP: &str = "Start two-factor setup first.";
/// The message for disabling while two-factor sign-in is off.
pub const NOT_ON: &str = "Two-factor sign-in is not on.";

/// The routes of this module, mounted under `/api/auth`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/totp/setup", post(setup))
        .route("/totp/enable", post(enable))
        .route("/totp/disable", post(disable))
        .route("/login/totp", post(login_with_code))
}

/// A new, not yet confirmed secret.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TotpSetup {
    /// The secret in base32, for typing into an authenticator app.
    pub secret: String,
    /// The `otpauth://totp/...` URI (issuer Cardio, account the email): the QR code's content.
    pub otpauth_uri: String,
}

/// A code from the authenticator app.
#[derive(Deserialize, ToSchema)]
pub struct TotpCode {
    /// Six digits.
    pub code: String,
}

/// The recovery codes of a new enrolment, shown once.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecoveryCodes {
    /// Ten one-time codes; each signs in once in place of an app code.
    pub recovery_codes: Vec<String>,
}

/// Turning two-factor sign-in off.
#[derive(Deserialize, ToSchema)]
pub struct TotpDisable {
    /// The account's password.
    pub password: String,
    /// A code from the app, or an unused recovery code.
    pub code: String,
}

/// The answer to a correct password of an account with two-factor sign-in: no session yet.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorChallenge {
    /// Always true: a code is needed.
    pub two_factor_required: bool,
    /// Pass this to `POST /api/auth/login/totp` within five minutes.
    pub challenge: String,
}

/// What `POST /api/auth/login` answers: the account (session started) or a challenge.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum LoginResponse {
    /// Signed in; the session cookie is set.
    SignedIn(User),
    /// The password was right; a code is needed.
    TwoFactorRequired(TwoFactorChallenge),
}

/// The code step of a sign-in.
#[derive(Deserialize, ToSchema)]
pub struct LoginCodeRequest {
    /// The challenge from `POST /api/auth/login`.
    pub challenge: String,
    /// Six digits from the app, or an unused recovery code.
    pub code: String,
}

/// Starts enrolment: a new secret, replacing any unconfirmed one.
#[utoipa::path(
    post, path = "/api/auth/totp/setup", operation_id = "totp_setup", tag = "auth",
    responses(
        (status = 200, description = "A new secret and its otpauth URI", body = TotpSetup),
        crate::platform::error::documented::Unauthenticated,
        (status = 409, description = "Two-factor sign-in is already on.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn setup(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<TotpSetup>, ApiError> {
    if current.user.totp_enabled {
        return Err(ApiError::Conflict(ALREADY_ON.into()));
    }
    let secret = totp::new_secret();
    let mut tx = state.db.begin().await?;
    sqlx::query("DELETE FROM user_totp WHERE user_id = $1 AND enabled = 0")
        .bind(&current.user.id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO user_totp (user_id, secret_hex, enabled, created_at) VALUES ($1, $2, 0, $3)",
    )
    .bind(&current.user.id)
    .bind(totp::to_hex(&secret))
    .bind(state.clock.now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(user_id = %current.user.id, "two-factor setup started");
    Ok(Json(TotpSetup {
        secret: totp::base32(&secret),
        otpauth_uri: totp::otpauth_uri(&secret, &current.user.email),
    }))
}

/// Confirms enrolment with a code from the app and returns ten recovery codes (shown once).
#[utoipa::path(
    post, path = "/api/auth/totp/enable", operation_id = "totp_enable", tag = "auth",
    request_body = TotpCode,
    responses(
        (status = 200, description = "Two-factor sign-in is on; the recovery codes, shown once", body = RecoveryCodes),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Invalid authentication code. (or a request from another origin)", body = ErrorBody),
        (status = 409, description = "Already on, or no setup started", body = ErrorBody),
        (status = 429, description = "Too many failed attempts. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn enable(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    current: CurrentUser,
    Json(req): Json<TotpCode>,
) -> Result<Json<RecoveryCodes>, ApiError> {
    let user = &current.user;
    if user.totp_enabled {
        return Err(ApiError::Conflict(ALREADY_ON.into()));
    }
    let secret = secret_of(&state.db, &user.id, false)
        .await?
        .ok_or_else(|| ApiError::Conflict(NOT_SET_UP.into()))?;
    let now = state.clock.now_ms();
    rate_limit::reserve(&state.db, &user.email, &client, now).await?;
    let Some(step) = totp::matching_step(&secret, &req.code, now) else {
        rate_limit::record_failure(&state.db, &user.email, &client, now).await?;
        tracing::info!(user_id = %user.id, "two-factor confirmation refused: wrong code");
        return Err(ApiError::Forbidden(INVALID_CODE.into()));
    };
    let codes = totp::new_recovery_codes();
    let mut tx = state.db.begin().await?;
    let updated = sqlx::query(
        "UPDATE user_totp SET enabled = 1, enabled_at = $1, last_step = $2 \
         WHERE user_id = $3 AND enabled = 0",
    )
    .bind(now)
    .bind(step)
    .bind(&user.id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if updated != 1 {
        return Err(ApiError::Conflict(NOT_SET_UP.into()));
    }
    sqlx::query("DELETE FROM totp_recovery_codes WHERE user_id = $1")
        .bind(&user.id)
        .execute(&mut *tx)
        .await?;
    for code in &codes {
        sqlx::query("INSERT INTO totp_recovery_codes (user_id, code_hash) VALUES ($1, $2)")
            .bind(&user.id)
            .bind(totp::recovery_code_hash(code))
            .execute(&mut *tx)
            .await?;
    }
    audit_change(&mut tx, &user.id, "two_factor_on", &client).await?;
    tx.commit().await?;
    rate_limit::clear_account(&state.db, &user.email).await?;
    tracing::info!(user_id = %user.id, "two-factor sign-in turned on");
    Ok(Json(RecoveryCodes {
        recovery_codes: codes,
    }))
}

/// Turns two-factor sign-in off; needs the password and a code (or a recovery code).
#[utoipa::path(
    post, path = "/api/auth/totp/disable", operation_id = "totp_disable", tag = "auth",
    request_body = TotpDisable,
    responses(
        (status = 204, description = "Two-factor sign-in is off; the secret and recovery codes are deleted"),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Current password is incorrect. / Invalid authentication code.", body = ErrorBody),
        (status = 409, description = "Two-factor sign-in is not on.", body = ErrorBody),
        (status = 429, description = "Too many failed attempts. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn disable(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    current: CurrentUser,
    Json(req): Json<TotpDisable>,
) -> Result<StatusCode, ApiError> {
    let user = &current.user;
    if !user.totp_enabled {
        return Err(ApiError::Conflict(NOT_ON.into()));
    }
    let now = state.clock.now_ms();
    super::confirm_password(&state, user, req.password, &client, now).await?;
    if !check_second_factor(&state.db, &user.id, &req.code, now).await? {
        rate_limit::record_failure(&state.db, &user.email, &client, now).await?;
        tracing::info!(user_id = %user.id, "two-factor disable refused: wrong code");
        return Err(ApiError::Forbidden(INVALID_CODE.into()));
    }
    let mut tx = state.db.begin().await?;
    sqlx::query("DELETE FROM totp_recovery_codes WHERE user_id = $1")
        .bind(&user.id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM user_totp WHERE user_id = $1")
        .bind(&user.id)
        .execute(&mut *tx)
        .await?;
    audit_change(&mut tx, &user.id, "two_factor_off", &client).await?;
    tx.commit().await?;
    rate_limit::clear_account(&state.db, &user.email).await?;
    tracing::info!(user_id = %user.id, "two-factor sign-in turned off");
    Ok(StatusCode::NO_CONTENT)
}

/// The code step of a sign-in: a valid challenge and a right code start the session.
#[utoipa::path(
    post, path = "/api/auth/login/totp", operation_id = "login_totp", tag = "auth",
    request_body = LoginCodeRequest,
    responses(
        (status = 200, description = "Signed in; sets the session cookie", body = User),
        (status = 401, description = "Invalid authentication code. / Your sign-in has expired. Please sign in again.", body = ErrorBody),
        (status = 403, description = "Request from another origin", body = ErrorBody),
        (status = 429, description = "Too many failed attempts. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn login_with_code(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    Json(req): Json<LoginCodeRequest>,
) -> Result<Response, ApiError> {
    let now = state.clock.now_ms();
    let challenge_hash = session::token_hash(req.challenge.trim());
    let user_id: Option<String> = sqlx::query_scalar(
        "SELECT user_id FROM login_challenges WHERE token_hash = $1 AND expires_at > $2",
    )
    .bind(&challenge_hash)
    .bind(now)
    .fetch_optional(&state.db.pool)
    .await?;
    let user = match user_id {
        Some(id) => store::find_by_id(&state.db, &id).await?,
        None => None,
    };
    let Some(user) = user.filter(|u| u.is_active && u.totp_enabled) else {
        return Err(ApiError::Unauthorized(CHALLENGE_EXPIRED.into()));
    };
    rate_limit::reserve(&state.db, &user.email, &client, now).await?;
    if !check_second_factor(&state.db, &user.id, &req.code, now).await? {
        rate_limit::record_failure(&state.db, &user.email, &client, now).await?;
        tracing::info!(user_id = %user.id, "sign-in code refused");
        return Err(ApiError::Unauthorized(INVALID_CODE.into()));
    }
    sqlx::query("DELETE FROM login_challenges WHERE token_hash = $1 OR expires_at <= $2")
        .bind(&challenge_hash)
        .bind(now)
        .execute(&state.db.writer)
        .await?;
    rate_limit::clear_account(&state.db, &user.email).await?;
    store::touch_login(&state.db, &user.id, now).await?;
    store::delete_expired_sessions(&state.db, now).await?;
    let user = store::find_by_id(&state.db, &user.id)
        .await?
        .ok_or_else(|| ApiError::Internal("account vanished during sign-in".into()))?;
    tracing::info!(user_id = %user.id, "signed in with a second factor");
    super::start_session(&state, &user, StatusCode::OK).await
}

/// Stores a new sign-in challenge for `user_id` and returns the answer that carries it.
pub async fn start_challenge(state: &AppState, user_id: &str) -> Result<Response, ApiError> {
    let token = session::new_token();
    let now = state.clock.now_ms();
    sqlx::query(
        "INSERT INTO login_challenges (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(session::token_hash(&token))
    .bind(user_id)
    .bind(now)
    .bind(now + CHALLENGE_TTL_MS)
    .execute(&state.db.writer)
    .await?;
    tracing::info!(user_id = %user_id, "password accepted; second factor required");
    Ok((
        StatusCode::OK,
        Json(LoginResponse::TwoFactorRequired(TwoFactorChallenge {
            two_factor_required: true,
            challenge: token,
        })),
    )
        .into_response())
}

/// The secret of the account's enrolment: confirmed (`enabled`) or pending.
async fn secret_of(db: &Db, user_id: &str, enabled: bool) -> Result<Option<Vec<u8>>, ApiError> {
    let hex: Option<String> =
        sqlx::query_scalar("SELECT secret_hex FROM user_totp WHERE user_id = $1 AND enabled = $2")
            .bind(user_id)
            .bind(i64::from(enabled))
            .fetch_optional(&db.pool)
            .await?;
    Ok(hex.as_deref().and_then(totp::from_hex))
}

/// Whether `code` is a current app code not used before (its step is then remembered) or an unused
/// recovery code (it is then used up).
async fn check_second_factor(
    db: &Db,
    user_id: &str,
    code: &str,
    now: i64,
) -> Result<bool, ApiError> {
    if totp::is_code_shaped(code) {
        let Some(secret) = secret_of(db, user_id, true).await? else {
            return Ok(false);
        };
        let Some(step) = totp::matching_step(&secret, code, now) else {
            return Ok(false);
        };
        // Only a step later than the last accepted one: a code is good once.
        let updated = sqlx::query(
            "UPDATE user_totp SET last_step = $1 \
             WHERE user_id = $2 AND enabled = 1 AND (last_step IS NULL OR last_step < $1)",
        )
        .bind(step)
        .bind(user_id)
        .execute(&db.writer)
        .await?
        .rows_affected();
        return Ok(updated == 1);
    }
    if code.trim().is_empty() {
        return Ok(false);
    }
    let used = sqlx::query(
        "UPDATE totp_recovery_codes SET used_at = $1 \
         WHERE user_id = $2 AND code_hash = $3 AND used_at IS NULL",
    )
    .bind(now)
    .bind(user_id)
    .bind(totp::recovery_code_hash(code))
    .execute(&db.writer)
    .await?
    .rows_affected();
    if used > 0 {
        tracing::info!(user_id = %user_id, "recovery code used");
    }
    Ok(used > 0)
}

async fn audit_change(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    user_id: &str,
    entity: &str,
    client: &str,
) -> Result<(), ApiError> {
    audit::record(
        tx,
        &audit::Entry {
            user_id,
            action: audit::Action::Update,
            entity,
            entity_id: user_id,
            patient_id: None,
            client_addr: client,
        },
    )
    .await?;
    Ok(())
}
