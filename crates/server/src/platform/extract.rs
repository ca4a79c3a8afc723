//! Request extractors whose rejections become [`ApiError`]s, so that a malformed body, query
//! string or path gets the same `{"detail": ...}` shape as every other error (axum's own answer
//! plain text).

use axum::{
    extract::{rejection::JsonRejection, FromRequest, FromRequestParts, Request},
    http::request::Parts,
    response::{IntoResponse, Response},
};
use serde::{de::DeserializeOwned, Serialize};

use crate::platform::error::ApiError;

/// JSON body extractor and response; a bad body is a 422 naming what is wrong.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<S, T> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(json_rejection_to_error(&rejection)),
        }
    }
}

fn json_rejection_to_error(rejection: &JsonRejection) -> ApiError {
    if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::PayloadTooLarge;
    }
    match rejection {
        JsonRejection::JsonDataError(err) => {
            // serde's message names the field ("missing field `email`") without echoing values.
            let source =
                std::error::Error::source(err).map_or_else(|| err.body_text(), ToString::to_string);
            ApiError::Validation(format!("Invalid request body: {source}"))
        }
        JsonRejection::JsonSyntaxError(_) => {
            ApiError::Validation("Invalid request body: malformed JSON.".into())
        }
        JsonRejection::MissingJsonContentType(_) => ApiError::Validation(
            "Invalid request body: expected Content-Type: application/json.".into(),
        ),
        _ => ApiError::Validation("Invalid request body.".into()),
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// Query-string extractor; a query string that does not parse is a 400 naming what is wrong
/// (for example `limit=9223372036854775808`, which does not fit its field).
#[derive(Debug, Clone, Copy, Default)]
pub struct Query<T>(pub T);

impl<S, T> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| Self(value))
            .map_err(|rejection| {
                ApiError::BadRequest(format!("Invalid query string: {}", source_text(&rejection)))
            })
    }
}

/// A query type whose endpoint answers a query string that does not parse with a sentence of its
/// own (what its fields must be) rather than the parser's text.
pub trait QueryRules {
    /// The 422's text, e.g. "from and to must be milliseconds since 1970.".
    const INVALID: &'static str;
}

/// Query-string extractor for a [`QueryRules`] type: a query string that does not parse is a 422
/// with the type's sentence.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuledQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for RuledQuery<T>
where
    T: DeserializeOwned + QueryRules,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| Self(value))
            .map_err(|_| ApiError::Validation(T::INVALID.into()))
    }
}

/// Path-parameter extractor; a path segment that does not parse is a 400.
#[derive(Debug, Clone, Copy, Default)]
pub struct Path<T>(pub T);

impl<S, T> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| Self(value))
            .map_err(|rejection| {
                ApiError::BadRequest(format!("Invalid path: {}", source_text(&rejection)))
            })
    }
}

/// The innermost cause of a rejection (serde's message, without axum's prefix).
fn source_text(rejection: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = rejection;
    while let Some(inner) = cause.source() {
        cause = inner;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::{body::Body, routing::get, Router};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    #[derive(serde::Deserialize)]
    struct Page {
        #[allow(dead_code)]
        limit: i64,
    }

    async fn answer(router: Router, uri: &str) -> (u16, String) {
        let response = router
            .oneshot(Request::builder().uri(uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn a_query_string_that_does_not_parse_is_a_json_400() {
        let router = Router::new().route("/", get(|Query(_): Query<Page>| async { "ok" }));
        let (status, body) = answer(router, "/?limit=9223372036854775808").await;
        assert_eq!(status, 400);
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        let detail = json["detail"].as_str().unwrap();
        assert!(detail.starts_with("Invalid query string: "), "{detail}");
    }

    #[tokio::test]
    async fn a_path_that_does_not_parse_is_a_json_400() {
        let router = Router::new().route("/{n}", get(|Path(_): Path<u8>| async { "ok" }));
        let (status, body) = answer(router, "/300").await;
        assert_eq!(status, 400);
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(json["detail"]
            .as_str()
            .unwrap()
            .starts_with("Invalid path: "));
    }
}
