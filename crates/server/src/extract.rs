//! Request extractors whose rejections become [`ApiError`]s, so that a malformed body gets the
//! same `{"detail": ...}` shape as every other error.

use axum::{
    extract::{rejection::JsonRejection, FromRequest, Request},
    response::{IntoResponse, Response},
};
use serde::{de::DeserializeOwned, Serialize};

use crate::error::ApiError;

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
