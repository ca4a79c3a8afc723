//! Accounts on our own server: sign up, sign in, sign out, and who am I.
//!
//! Replaces the prototype's hosted identity service (spec §1, §7). Passwords are hashed with
//! Argon2id off the async executor; a session is a random token in an HttpOnly cookie whose hash
//! is stored; failed sign-ins are rate limited per account and per client address. The error texts
//! are the spec's (§5, §8), exactly. A signed-in account can change its display name and its
//! password; a password change ends every other session of the account. Two-factor sign-in
//! (TOTP) is in [`two_factor`]; email verification and password reset links in [`email_links`],
//! sent by [`mail`].

pub mod admin;
pub mod email;
pub mod email_links;
pub mod mail;
pub mod mail_texts;
pub mod password;
pub mod rate_limit;
pub mod session;
pub mod store;
pub mod totp;
pub mod two_factor;

use axum::{
    extract::State,
    http::{header, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Router,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    platform::db::{ms_to_rfc3339, now_ms},
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};
use email::Email;
use session::CurrentUser;
use store::UserRow;

/// The message for a taken email (spec §8, exactly).
pub const EMAIL_TAKEN: &str = "An account with this email already exists.";
/// The message for a wrong password or an unknown email: one text for both, so that accounts
/// cannot be enumerated (spec §8, exactly).
pub const INVALID_CREDENTIALS: &str = "Invalid email or password. Please try again.";
/// The message for a disabled account.
pub const ACCOUNT_DISABLED: &str = "This account is disabled.";
/// Longest accepted display name at signup, in characters.
pub const MAX_NAME_LEN: usize = 200;
/// Longest display name the profile accepts, in characters.
pub const MAX_DISPLAY_NAME_LEN: usize = 100;
/// The message for an empty display name.
pub const DISPLAY_NAME_REQUIRED: &str = "Display name is required.";
/// The message for an overlong display name.
pub const DISPLAY_NAME_TOO_LONG: &str = "Display name must be at most 100 characters.";
/// The message for a wrong current password on a password change.
pub const WRONG_CURRENT_PASSWORD: &str = "Current password is incorrect.";

/// The routes of this module, mounted under `/api/auth`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/signup", post(signup))
        .route("/login", post(login))
        .route("/logout", post(logout))
        .route("/me", get(me).patch(update_me))
        .route("/password", post(change_password))
        .merge(two_factor::router())
        .merge(email_links::router())
}

/// What a person is in Cardio.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A doctor or clinic staff member: manages patients and screenings.
    Doctor,
    /// A patient: sees results a doctor shares.
    User,
}

impl Role {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Doctor => "doctor",
            Self::User => "user",
        }
    }

    fn from_stored(text: &str) -> Self {
        if text == "user" {
            Self::User
        } else {
            Self::Doctor
        }
    }
}

/// An account as the API shows it (spec §3 user profile fields). Never carries the password hash.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_excessive_bools)] // independent flags of an account, as the API shows them
pub struct User {
    /// The account's id.
    pub uid: String,
    /// The email, lower-case.
    pub email: String,
    /// The full name given at signup (empty string when none was given).
    pub display_name: String,
    /// The role chosen at signup.
    pub role: Role,
    /// RFC 3339 time of creation.
    pub created_at: String,
    /// RFC 3339 time of the last change.
    pub updated_at: String,
    /// RFC 3339 time of the last sign-in.
    pub last_login_at: Option<String>,
    /// Whether the account may sign in.
    pub is_active: bool,
    /// Whether the email address has been verified (by the link of `POST /api/auth/verify-email`).
    pub email_verified: bool,
    /// Whether two-factor sign-in (TOTP) is on.
    pub two_factor_enabled: bool,
    /// Whether the account is an administrator: it alone may see and change the server-wide
    /// settings (Data Encryption, Auto Backup, backups, storage figures).
    pub is_admin: bool,
}

impl From<&UserRow> for User {
    fn from(row: &UserRow) -> Self {
        Self {
            uid: row.id.clone(),
            email: row.email.clone(),
            display_name: row.display_name.clone(),
            role: Role::from_stored(&row.role),
            created_at: ms_to_rfc3339(row.created_at),
            updated_at: ms_to_rfc3339(row.updated_at),
            last_login_at: row.last_login_at.map(ms_to_rfc3339),
            is_active: row.is_active,
            email_verified: row.email_verified,
            two_factor_enabled: row.totp_enabled,
            is_admin: row.is_admin,
        }
    }
}

/// Sign-up form.
#[derive(Deserialize, ToSchema)]
pub struct SignupRequest {
    /// Full name; may be empty.
    #[serde(default)]
    pub full_name: String,
    /// Email address.
    pub email: String,
    /// Password, at least 6 characters.
    pub password: String,
    /// `doctor` or `user`.
    pub role: Role,
}

/// Sign-in form.
#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    /// Email address.
    pub email: String,
    /// Password.
    pub password: String,
}

/// Profile changes (`PATCH /api/auth/me`).
#[derive(Deserialize, ToSchema)]
pub struct ProfileUpdate {
    /// The new display name: 1 to 100 characters once trimmed.
    pub display_name: String,
}

/// Password change form.
#[derive(Deserialize, ToSchema)]
pub struct PasswordChange {
    /// The password in use now.
    pub current_password: String,
    /// The new password, at least 6 characters.
    pub new_password: String,
}

pub use crate::platform::client_addr::ClientAddr;

/// Creates an account with the chosen role, signs it in, and sends it a link that verifies its
/// email address.
#[utoipa::path(
    post, path = "/api/auth/signup", operation_id = "signup", tag = "auth",
    request_body = SignupRequest,
    responses(
        (status = 201, description = "Account created and signed in; sets the session cookie", body = User),
        (status = 403, description = "Request from another origin", body = ErrorBody),
        (status = 409, description = "An account with this email already exists.", body = ErrorBody),
        (status = 422, description = "Invalid email address, short password or bad body", body = ErrorBody),
        (status = 429, description = "Too many accounts were created from this network. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn signup(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    Json(req): Json<SignupRequest>,
) -> Result<Response, ApiError> {
    let email = Email::parse(&req.email).map_err(|m| ApiError::Validation(m.into()))?;
    password::check_new_password(&req.password)?;
    let display_name = req.full_name.trim();
    if display_name.chars().count() > MAX_NAME_LEN {
        return Err(ApiError::Validation(format!(
            "Full name must be at most {MAX_NAME_LEN} characters"
        )));
    }
    if store::find_by_email(&state.db, email.as_str())
        .await?
        .is_some()
    {
        return Err(ApiError::Conflict(EMAIL_TAKEN.into()));
    }
    let now = state.clock.now_ms();
    rate_limit::reserve_signup(&state.db, &client, state.config.signups_per_hour, now).await?;
    let password_hash = password::hash(req.password).await?;
    let new = store::NewUser {
        email: email.as_str(),
        display_name,
        password_hash: &password_hash,
        role: req.role.as_str(),
    };
    let user = store::insert_user(&state.db, &new, now)
        .await?
        .ok_or_else(|| ApiError::Conflict(EMAIL_TAKEN.into()))?;
    tracing::info!(user_id = %user.id, role = %user.role, "account created");
    // The verification link goes out in the background: a slow mail server does not hold up the
    // sign-up, and a failure (logged) leaves "Send the link again" to the user.
    let (background, account) = (state.clone(), user.clone());
    tokio::spawn(async move {
        let _ = email_links::send_verification(&background, &account).await;
    });
    start_session(&state, &user, StatusCode::CREATED).await
}

/// Signs in with email and password.
#[utoipa::path(
    post, path = "/api/auth/login", operation_id = "login", tag = "auth",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in (the account, and the session cookie is set), or, for an account with two-factor sign-in, `{\"twoFactorRequired\": true, \"challenge\": ...}` and no cookie: then `POST /api/auth/login/totp`", body = two_factor::LoginResponse),
        (status = 401, description = "Invalid email or password. Please try again.", body = ErrorBody),
        (status = 403, description = "Disabled account or request from another origin", body = ErrorBody),
        (status = 422, description = "Bad body", body = ErrorBody),
        (status = 429, description = "Too many failed attempts. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn login(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    Json(req): Json<LoginRequest>,
) -> Result<Response, ApiError> {
    let now = state.clock.now_ms();
    // An address that is not even an email cannot match an account; it still counts as a failure.
    let email_key = Email::parse(&req.email).map_or_else(
        |_| req.email.trim().to_lowercase(),
        |e| e.as_str().to_owned(),
    );
    rate_limit::reserve(&state.db, &email_key, &client, now).await?;
    let user = store::find_by_email(&state.db, &email_key).await?;
    let stored_hash = user.as_ref().map(|u| u.password_hash.clone());
    let valid = password::verify(req.password, stored_hash).await?;
    let Some(user) = user.filter(|_| valid) else {
        rate_limit::record_failure(&state.db, &email_key, &client, now).await?;
        tracing::info!("sign-in failed");
        return Err(ApiError::Unauthorized(INVALID_CREDENTIALS.into()));
    };
    if !user.is_active {
        return Err(ApiError::Forbidden(ACCOUNT_DISABLED.into()));
    }
    if user.totp_enabled {
        // No session yet, and the account's failures stay counted until the code step succeeds.
        rate_limit::release(&state.db, &email_key).await?;
        return two_factor::start_challenge(&state, &user.id).await;
    }
    rate_limit::clear_account(&state.db, &email_key).await?;
    store::touch_login(&state.db, &user.id, now).await?;
    store::delete_expired_sessions(&state.db, now).await?;
    let user = store::find_by_id(&state.db, &user.id)
        .await?
        .ok_or_else(|| ApiError::Internal("account vanished during sign-in".into()))?;
    tracing::info!(user_id = %user.id, "signed in");
    start_session(&state, &user, StatusCode::OK).await
}

/// Signs out: deletes the session and clears the cookie. Succeeds without a session too.
#[utoipa::path(
    post, path = "/api/auth/logout", operation_id = "logout", tag = "auth",
    responses((status = 204, description = "Signed out; the cookie is cleared"))
)]
#[tracing::instrument(skip_all)]
pub async fn logout(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(token) = session::token_from_headers(&headers) {
        store::delete_session(&state.db, &session::token_hash(&token)).await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(
            header::SET_COOKIE,
            session::clearing_cookie(state.config.secure_cookies),
        )],
    )
        .into_response())
}

/// The signed-in account.
#[utoipa::path(
    get, path = "/api/auth/me", operation_id = "get_me", tag = "auth",
    responses(
        (status = 200, description = "The signed-in account", body = User),
        crate::platform::error::documented::Unauthenticated,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn me(current: CurrentUser) -> Json<User> {
    Json(User::from(&current.user))
}

/// Changes the signed-in account's display name.
#[utoipa::path(
    patch, path = "/api/auth/me", operation_id = "update_me", tag = "auth",
    request_body = ProfileUpdate,
    responses(
        (status = 200, description = "The updated account", body = User),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Request from another origin", body = ErrorBody),
        (status = 422, description = "Display name is required. / Display name must be at most 100 characters.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn update_me(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(req): Json<ProfileUpdate>,
) -> Result<Json<User>, ApiError> {
    let display_name = parse_display_name(&req.display_name)?;
    store::update_display_name(&state.db, &current.user.id, display_name, now_ms()).await?;
    let user = store::find_by_id(&state.db, &current.user.id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized(session::NOT_AUTHENTICATED.into()))?;
    tracing::info!(user_id = %user.id, "display name changed");
    Ok(Json(User::from(&user)))
}

/// A display name, trimmed, 1 to [`MAX_DISPLAY_NAME_LEN`] characters.
fn parse_display_name(text: &str) -> Result<&str, ApiError> {
    let name = text.trim();
    if name.is_empty() {
        return Err(ApiError::Validation(DISPLAY_NAME_REQUIRED.into()));
    }
    if name.chars().count() > MAX_DISPLAY_NAME_LEN {
        return Err(ApiError::Validation(DISPLAY_NAME_TOO_LONG.into()));
    }
    Ok(name)
}

/// Changes the signed-in account's password and ends every other session of the account (this
/// one stays signed in). A wrong current password counts as a failed sign-in for rate limiting.
#[utoipa::path(
    post, path = "/api/auth/password", operation_id = "change_password", tag = "auth",
    request_body = PasswordChange,
    responses(
        (status = 204, description = "Password changed; other sessions ended"),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Current password is incorrect. (or a request from another origin)", body = ErrorBody),
        (status = 422, description = "Password must be at least 6 characters", body = ErrorBody),
        (status = 429, description = "Too many failed attempts. Please try again later.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn change_password(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    current: CurrentUser,
    Json(req): Json<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    password::check_new_password(&req.new_password)?;
    let now = state.clock.now_ms();
    let email = current.user.email.as_str();
    confirm_password(&state, &current.user, req.current_password, &client, now).await?;
    let new_hash = password::hash(req.new_password).await?;
    let ended = store::set_password_ending_other_sessions(
        &state.db,
        &current.user.id,
        &new_hash,
        &current.session_hash,
        now_ms(),
    )
    .await?;
    rate_limit::clear_account(&state.db, email).await?;
    tracing::info!(user_id = %current.user.id, ended, "password changed");
    Ok(StatusCode::NO_CONTENT)
}

/// Checks the signed-in account's current password before a sensitive change, rate limited like
/// sign-in: a wrong one counts as a failed attempt and gets [`WRONG_CURRENT_PASSWORD`] (403).
pub(crate) async fn confirm_password(
    state: &AppState,
    user: &UserRow,
    password: String,
    client: &str,
    now: i64,
) -> Result<(), ApiError> {
    rate_limit::reserve(&state.db, &user.email, client, now).await?;
    if password::verify(password, Some(user.password_hash.clone())).await? {
        rate_limit::release(&state.db, &user.email).await?;
        return Ok(());
    }
    rate_limit::record_failure(&state.db, &user.email, client, now).await?;
    tracing::info!(user_id = %user.id, "refused: wrong current password");
    Err(ApiError::Forbidden(WRONG_CURRENT_PASSWORD.into()))
}

pub(crate) async fn start_session(
    state: &AppState,
    user: &UserRow,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let token = session::new_token();
    let now = state.clock.now_ms();
    let ttl = state.config.session_ttl;
    let expires_at = now + i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX / 2);
    store::create_session(
        &state.db,
        &session::token_hash(&token),
        &user.id,
        now,
        expires_at,
    )
    .await?;
    let cookie = session::session_cookie(&token, ttl.as_secs(), state.config.secure_cookies);
    Ok((
        status,
        [(header::SET_COOKIE, cookie)],
        Json(User::from(user)),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_are_trimmed_and_bounded() {
        assert_eq!(parse_display_name("  Ana Ruiz ").unwrap(), "Ana Ruiz");
        assert_eq!(
            parse_display_name("   ").unwrap_err().to_string(),
            DISPLAY_NAME_REQUIRED
        );
        assert!(parse_display_name(&"é".repeat(100)).is_ok());
        assert_eq!(
            parse_display_name(&"é".repeat(101))
                .unwrap_err()
                .to_string(),
            DISPLAY_NAME_TOO_LONG
        );
    }
}
