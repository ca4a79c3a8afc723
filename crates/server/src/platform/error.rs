//! The one API error type and its mapping to HTTP responses.
//!
//! Every handler returns `Result<_, ApiError>`. Each variant documents its status; the body is
//! always `{"detail": "...", "code": "...", "params": {...}}`: the English sentence, and its code
//! and parameters from the one table of error sentences ([`super::error_codes`]) that the web app
//! shows in the reader's language. Server-side failures are logged with their cause and answered
//! with a generic text, never with internals.

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use serde::Serialize;
use utoipa::ToSchema;

/// The answer when a model is not loaded (spec §8, "Backend predictions").
pub const MODEL_NOT_LOADED: &str = "Model not loaded. Please check backend server.";
/// The answer when a stored file fails its integrity check (see [`crate::platform::blobs`]).
pub const STORED_FILE_TAMPERED: &str = "The stored file failed its integrity check: it was altered on disk or encrypted with another data key, and is not served.";
/// The answer when a stored file is not in the blob store (an instance with a store of its own
/// beside others that share the database, or a file removed by hand).
pub const STORED_FILE_MISSING: &str = "The recording's stored file is not in this server's blob store: instances that share a database must share one blob store (CARDIO_BLOB_URL).";
/// The answer when the S3-compatible blob store does not answer.
pub const BLOB_STORE_UNAVAILABLE: &str =
    "The recording store is not answering. Please try again in a moment.";

/// The answer when the data folder's recording store cannot be written (read-only, or not
/// permitted): nothing of the request was saved.
pub const STORE_NOT_WRITABLE: &str = "The recording store cannot be written (its folder is read-only or not permitted), so nothing was saved. Please tell the server's administrator.";
/// The answer when the disk of the recording store is full.
pub const STORE_FULL: &str =
    "The recording store is full, so nothing was saved. Please tell the server's administrator.";

/// The body of every error response.
#[derive(Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct ErrorBody {
    /// A sentence the user can read (English).
    pub detail: String,
    /// The sentence's code in the table of error sentences (`unlisted` when it has none).
    pub code: String,
    /// The values of the sentence's holes: text, a number, `{"term": key}` (a phrase of the
    /// table) or `{"code", "params"}` (a sentence of the table inside this one).
    #[schema(value_type = Object)]
    pub params: serde_json::Map<String, serde_json::Value>,
}

impl ErrorBody {
    /// The body of an English sentence, with its code and parameters.
    pub fn new(detail: String) -> Self {
        let (code, params) = super::error_codes::code_of(&detail);
        Self {
            detail,
            code,
            params,
        }
    }
}

/// The error responses many endpoints share, for their OpenAPI description: written once here and
/// named in `#[utoipa::path(responses(...))]` beside the endpoint's own (e.g. `DoctorOnly`).
pub mod documented {
    use std::collections::BTreeMap;

    use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
    use utoipa::IntoResponses;

    /// What the 401 of a signed-in endpoint says.
    pub const NOT_AUTHENTICATED: &str = "Not authenticated.";
    /// What the 403 of a doctor-only endpoint says.
    pub const NOT_A_DOCTOR: &str = "Not a doctor account";

    /// An error response with `description` and an [`super::ErrorBody`].
    fn error(description: &str) -> RefOr<Response> {
        let body = ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("ErrorBody")))
            .build();
        ResponseBuilder::new()
            .description(description)
            .content("application/json", body)
            .build()
            .into()
    }

    /// 401: the endpoint needs a signed-in account.
    pub struct Unauthenticated;

    impl IntoResponses for Unauthenticated {
        fn responses() -> BTreeMap<String, RefOr<Response>> {
            BTreeMap::from([("401".to_string(), error(NOT_AUTHENTICATED))])
        }
    }

    /// 401 and 403: the endpoint needs a signed-in doctor.
    pub struct DoctorOnly;

    impl IntoResponses for DoctorOnly {
        fn responses() -> BTreeMap<String, RefOr<Response>> {
            BTreeMap::from([
                ("401".to_string(), error(NOT_AUTHENTICATED)),
                ("403".to_string(), error(NOT_A_DOCTOR)),
            ])
        }
    }
}

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request itself is malformed (a query string or path that does not parse).
    #[error("{0}")]
    BadRequest(String),
    /// 422: the input breaks a rule; the text names it.
    #[error("{0}")]
    Validation(String),
    /// 401: not signed in, or the credentials are wrong.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: signed in but not allowed, or a cross-origin request.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such thing for this user (also what another user's record looks like).
    #[error("{0}")]
    NotFound(String),
    /// 409: the request conflicts with stored data (e.g. a taken email).
    #[error("{0}")]
    Conflict(String),
    /// 413: the request body is over the size limit.
    #[error("Request body is too large.")]
    PayloadTooLarge,
    /// 413: an uploaded file is over the upload limit; the text gives the limit.
    #[error("{0}")]
    FileTooLarge(String),
    /// 415: an upload is not of a type the endpoint reads; the text says what is accepted.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 503: the model an endpoint needs could not be loaded at start.
    #[error("{MODEL_NOT_LOADED}")]
    ModelNotLoaded,
    /// 429: too many attempts.
    #[error("{0}")]
    TooManyRequests(String),
    /// 503: a dependency (the database) is not answering.
    #[error("Service unavailable.")]
    Unavailable,
    /// 500: a stored file failed its integrity check (GCM tag or SHA-256); never served.
    #[error("{STORED_FILE_TAMPERED}")]
    StoredFileTampered,
    /// 500: a stored file named by a row is not in the blob store.
    #[error("{STORED_FILE_MISSING}")]
    StoredFileMissing,
    /// 503: the S3-compatible blob store did not answer (its cause is logged).
    #[error("{BLOB_STORE_UNAVAILABLE}")]
    BlobStoreUnavailable,
    /// 503: the recording store cannot be written (read-only file system, or permission denied;
    /// the cause is logged).
    #[error("{STORE_NOT_WRITABLE}")]
    StoreNotWritable,
    /// 507: the recording store's disk (or quota) is full (the cause is logged).
    #[error("{STORE_FULL}")]
    StoreFull,
    /// 500: a bug or an unexpected failure; the cause is logged, not shown.
    #[error("Internal server error.")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PayloadTooLarge | Self::FileTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable
            | Self::ModelNotLoaded
            | Self::BlobStoreUnavailable
            | Self::StoreNotWritable => StatusCode::SERVICE_UNAVAILABLE,
            Self::StoreFull => StatusCode::INSUFFICIENT_STORAGE,
            Self::Internal(_) | Self::StoredFileTampered | Self::StoredFileMissing => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        match err {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => Self::Unavailable,
            other => Self::Internal(format!("database: {other}")),
        }
    }
}

/// The answer to a storage fault the operator must fix (a read-only or full disk), if `io` is one.
fn storage_fault(io: &std::io::Error) -> Option<ApiError> {
    use std::io::ErrorKind;
    let fault = match io.kind() {
        ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => ApiError::StoreNotWritable,
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => ApiError::StoreFull,
        _ => return None,
    };
    tracing::error!(error = %io, "the recording store cannot be written");
    Some(fault)
}

impl From<crate::platform::blobs::BlobError> for ApiError {
    fn from(err: crate::platform::blobs::BlobError) -> Self {
        use crate::platform::blobs::{BlobError, KeyError};
        let io = match &err {
            BlobError::Io(io) | BlobError::Key(KeyError::File { source: io, .. }) => Some(io),
            _ => None,
        };
        if let Some(fault) = io.and_then(storage_fault) {
            return fault;
        }
        match err {
            crate::platform::blobs::BlobError::Tampered { sha256 } => {
                tracing::error!(%sha256, "stored file failed its integrity check; not served");
                Self::StoredFileTampered
            }
            crate::platform::blobs::BlobError::Io(io)
                if io.kind() == std::io::ErrorKind::NotFound =>
            {
                tracing::error!("a stored file named by a row is not in the blob store");
                Self::StoredFileMissing
            }
            crate::platform::blobs::BlobError::Remote(cause) => {
                tracing::error!(%cause, "the blob store did not answer");
                Self::BlobStoreUnavailable
            }
            other => Self::Internal(format!("blob store: {other}")),
        }
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(err: tokio::task::JoinError) -> Self {
        Self::Internal(format!("blocking task: {err}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Self::Internal(cause) = &self {
            tracing::error!(%cause, "request failed");
        }
        let body = ErrorBody::new(self.to_string());
        (self.status(), Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_hide_their_cause() {
        let err = ApiError::Internal("database: secret table exploded".into());
        assert_eq!(err.to_string(), "Internal server error.");
        assert_eq!(err.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn statuses_match_the_variants() {
        assert_eq!(ApiError::BadRequest(String::new()).status(), 400);
        assert_eq!(ApiError::Validation(String::new()).status(), 422);
        assert_eq!(ApiError::Unauthorized(String::new()).status(), 401);
        assert_eq!(ApiError::Conflict(String::new()).status(), 409);
        assert_eq!(ApiError::TooManyRequests(String::new()).status(), 429);
        assert_eq!(ApiError::NotFound(String::new()).status(), 404);
        assert_eq!(ApiError::FileTooLarge(String::new()).status(), 413);
        assert_eq!(ApiError::UnsupportedMediaType(String::new()).status(), 415);
        assert_eq!(ApiError::ModelNotLoaded.status(), 503);
        assert_eq!(ApiError::StoredFileTampered.status(), 500);
        assert_eq!(
            ApiError::from(crate::platform::blobs::BlobError::Tampered {
                sha256: "ab".into()
            })
            .to_string(),
            STORED_FILE_TAMPERED
        );
        let missing = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let err = ApiError::from(crate::platform::blobs::BlobError::Io(missing));
        assert_eq!(
            (err.status(), err.to_string()),
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                STORED_FILE_MISSING.to_owned()
            )
        );
        let err = ApiError::from(crate::platform::blobs::BlobError::Remote(
            "timed out".into(),
        ));
        assert_eq!(
            (err.status(), err.to_string()),
            (
                StatusCode::SERVICE_UNAVAILABLE,
                BLOB_STORE_UNAVAILABLE.to_owned()
            )
        );
        for (kind, status, detail) in [
            (
                std::io::ErrorKind::ReadOnlyFilesystem,
                StatusCode::SERVICE_UNAVAILABLE,
                STORE_NOT_WRITABLE,
            ),
            (
                std::io::ErrorKind::PermissionDenied,
                StatusCode::SERVICE_UNAVAILABLE,
                STORE_NOT_WRITABLE,
            ),
            (
                std::io::ErrorKind::StorageFull,
                StatusCode::INSUFFICIENT_STORAGE,
                STORE_FULL,
            ),
        ] {
            let err = ApiError::from(crate::platform::blobs::BlobError::Io(kind.into()));
            assert_eq!((err.status(), err.to_string()), (status, detail.to_owned()));
        }
        assert_eq!(
            ApiError::ModelNotLoaded.to_string(),
            "Model not loaded. Please check backend server."
        );
    }
}
