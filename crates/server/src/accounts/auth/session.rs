//! Sessions: a random 256-bit token in an HttpOnly cookie; only its SHA-256 is stored.
//!
//! [`CurrentUser`] is the extractor every signed-in route takes: it reads the cookie, looks up an
//! unexpired session of an active account, and answers 401 otherwise. It also enforces the
//! account's idle timeout (its Session Timeout setting): a session unused for longer is deleted and
//! refused; a session in use has its last-use time refreshed, at most once a minute. Only a
//! person's actions count as use: a request the web app makes on its own (background polling of
//! notifications, devices, the connection log) says so with [`BACKGROUND_HEADER`] and is answered
//! without extending the session, so an open tab no longer keeps it alive for ever.

use axum::{
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderMap, HeaderValue},
};
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use std::time::Duration;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::store::{self, UserRow};
use crate::{platform::error::ApiError, platform::state::AppState};

/// How long a session may stay unused (spec §9 options: 15 min, 30 min, 1 hour, Never).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum SessionTimeout {
    /// 15 minutes.
    #[serde(rename = "15m")]
    Minutes15,
    /// 30 minutes (the default).
    #[serde(rename = "30m")]
    Minutes30,
    /// 1 hour.
    #[serde(rename = "1h")]
    Hour1,
    /// No idle timeout: only the absolute session lifetime applies.
    #[serde(rename = "never")]
    Never,
}

impl SessionTimeout {
    /// The default for accounts that never chose one.
    pub const DEFAULT: Self = Self::Minutes30;

    /// The stored and sent form (`15m`, `30m`, `1h`, `never`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Minutes15 => "15m",
            Self::Minutes30 => "30m",
            Self::Hour1 => "1h",
            Self::Never => "never",
        }
    }

    /// Reads a stored or sent value.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "15m" => Some(Self::Minutes15),
            "30m" => Some(Self::Minutes30),
            "1h" => Some(Self::Hour1),
            "never" => Some(Self::Never),
            _ => None,
        }
    }

    /// How long a session may stay unused, or `None` for no idle limit.
    pub fn idle_limit(self) -> Option<Duration> {
        match self {
            Self::Minutes15 => Some(Duration::from_mins(15)),
            Self::Minutes30 => Some(Duration::from_mins(30)),
            Self::Hour1 => Some(Duration::from_hours(1)),
            Self::Never => None,
        }
    }
}

/// Name of the session cookie.
pub const COOKIE_NAME: &str = "cardio_session";
/// The message for a request without a valid session.
pub const NOT_AUTHENTICATED: &str = "Not authenticated.";
/// The message for a request on a session that passed its idle timeout (the session is ended).
pub const SESSION_IDLE: &str = "You were signed out after a period of inactivity.";
/// How stale a session's last-use time may get before a request writes it again: a session in
/// steady use costs one write a minute, not one per request.
pub const LAST_SEEN_RESOLUTION_MS: i64 = 60 * 1000;

/// The request header (value `1`) that marks a request the web app made on its own, not for a
/// person's action: it does not count as activity for the idle timeout.
pub const BACKGROUND_HEADER: &str = "x-cardio-background";

/// Whether the request says it is background polling ([`BACKGROUND_HEADER`]).
pub fn is_background(headers: &HeaderMap) -> bool {
    headers
        .get(BACKGROUND_HEADER)
        .is_some_and(|v| v.as_bytes() == b"1")
}

/// A new random session token (32 bytes from the OS generator, base64url).
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The stored form of a token: SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    use std::fmt::Write;
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().fold(String::with_capacity(64), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

/// The `Set-Cookie` value that hands a session to the browser.
pub fn session_cookie(token: &str, max_age_secs: u64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let value = format!(
        "{COOKIE_NAME}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age_secs}{secure}"
    );
    HeaderValue::from_str(&value).expect("token is base64url, a valid header value")
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clearing_cookie(secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE_NAME}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}"
    ))
    .expect("static cookie is a valid header value")
}

/// The session token from the request's cookies, if any.
pub fn token_from_headers(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == COOKIE_NAME && !value.is_empty())
        .map(|(_, value)| value.to_owned())
}

/// The signed-in user of a request.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    /// The account.
    pub user: UserRow,
    /// Hash of the session token that authenticated this request.
    pub session_hash: String,
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = token_from_headers(&parts.headers)
            .ok_or_else(|| ApiError::Unauthorized(NOT_AUTHENTICATED.into()))?;
        let session_hash = token_hash(&token);
        let now = state.clock.now_ms();
        let session = store::session(&state.db, &session_hash, now)
            .await?
            .ok_or_else(|| ApiError::Unauthorized(NOT_AUTHENTICATED.into()))?;
        let timeout = session
            .session_timeout
            .as_deref()
            .and_then(SessionTimeout::parse)
            .unwrap_or(SessionTimeout::DEFAULT);
        let idle = now - session.last_seen_at;
        if is_idle_too_long(idle, timeout) {
            store::delete_session(&state.db, &session_hash).await?;
            tracing::info!(user_id = %session.user.id, "session ended after idle timeout");
            return Err(ApiError::Unauthorized(SESSION_IDLE.into()));
        }
        if idle >= LAST_SEEN_RESOLUTION_MS && !is_background(&parts.headers) {
            store::touch_session(&state.db, &session_hash, now).await?;
        }
        Ok(Self {
            user: session.user,
            session_hash,
        })
    }
}

/// Whether a session unused for `idle_ms` has passed the idle `timeout`.
fn is_idle_too_long(idle_ms: i64, timeout: SessionTimeout) -> bool {
    timeout
        .idle_limit()
        .is_some_and(|limit| idle_ms > i64::try_from(limit.as_millis()).unwrap_or(i64::MAX))
}

/// The message for a `user`-role account on a doctor endpoint.
pub const DOCTORS_ONLY: &str = "Only healthcare professionals can access patient records.";

/// A signed-in account with the `doctor` role; any other role gets 403.
#[derive(Debug, Clone)]
pub struct CurrentDoctor(pub CurrentUser);

impl CurrentDoctor {
    /// The doctor's user id, the owner key of every patient query.
    pub fn id(&self) -> &str {
        &self.0.user.id
    }
}

impl FromRequestParts<AppState> for CurrentDoctor {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        if current.user.role != "doctor" {
            return Err(ApiError::Forbidden(DOCTORS_ONLY.into()));
        }
        Ok(Self(current))
    }
}

/// The message for an account that is not an administrator on a server-wide setting.
pub const ADMINS_ONLY: &str =
    "Only an administrator can see or change server-wide settings (data encryption, backups and storage).";

/// A signed-in administrator (see [`super::admin`]); any other account gets 403 [`ADMINS_ONLY`].
#[derive(Debug, Clone)]
pub struct CurrentAdmin(pub CurrentUser);

impl CurrentAdmin {
    /// The administrator's user id.
    pub fn id(&self) -> &str {
        &self.0.user.id
    }
}

impl FromRequestParts<AppState> for CurrentAdmin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        if !current.user.is_admin {
            return Err(ApiError::Forbidden(ADMINS_ONLY.into()));
        }
        Ok(Self(current))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_256_bits_and_unique() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert_eq!(URL_SAFE_NO_PAD.decode(&a).unwrap().len(), 32);
    }

    #[test]
    fn the_stored_hash_is_sha256_hex_not_the_token() {
        let token = new_token();
        let hashed = token_hash(&token);
        assert_eq!(hashed.len(), 64);
        assert_ne!(hashed, token);
        assert_eq!(hashed, token_hash(&token));
    }

    #[test]
    fn cookie_has_the_required_flags() {
        let cookie = session_cookie("abc", 60, false);
        let text = cookie.to_str().unwrap();
        assert_eq!(
            text,
            "cardio_session=abc; HttpOnly; SameSite=Lax; Path=/; Max-Age=60"
        );
        assert!(session_cookie("abc", 60, true)
            .to_str()
            .unwrap()
            .ends_with("; Secure"));
    }

    #[test]
    fn the_idle_timeout_counts_from_the_last_use() {
        let fifteen = 15 * 60 * 1000;
        assert!(!is_idle_too_long(fifteen, SessionTimeout::Minutes15));
        assert!(is_idle_too_long(fifteen + 1, SessionTimeout::Minutes15));
        assert!(!is_idle_too_long(fifteen + 1, SessionTimeout::Minutes30));
        assert!(!is_idle_too_long(i64::MAX / 2, SessionTimeout::Never));
    }

    #[test]
    fn finds_the_token_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; cardio_session=tok; b=2"),
        );
        assert_eq!(token_from_headers(&headers).as_deref(), Some("tok"));
        headers.insert(header::COOKIE, HeaderValue::from_static("cardio_session="));
        assert_eq!(token_from_headers(&headers), None);
    }
}
