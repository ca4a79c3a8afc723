//! Sessions: a random 256-bit token in an HttpOnly cookie; only its SHA-256 is stored.
//!
//! [`CurrentUser`] is the extractor every signed-in route takes: it reads the cookie, looks up an
//! unexpired session of an active account, and answers 401 otherwise.

use axum::{
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderMap, HeaderValue},
};
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use rand::RngCore;
use sha2::{Digest, Sha256};

use super::store::{self, UserRow};
use crate::{error::ApiError, state::AppState};

/// Name of the session cookie.
pub const COOKIE_NAME: &str = "cardio_session";
/// The message for a request without a valid session.
pub const NOT_AUTHENTICATED: &str = "Not authenticated.";

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
        let user = store::user_for_session(&state.db, &session_hash)
            .await?
            .ok_or_else(|| ApiError::Unauthorized(NOT_AUTHENTICATED.into()))?;
        Ok(Self { user, session_hash })
    }
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
