//! Cross-site request forgery defence for state-changing API requests.
//!
//! The session cookie is `SameSite=Lax`, which already keeps it off cross-site POSTs; this layer
//! also refuses such requests outright (login CSRF needs no cookie). A request is cross-origin when
//! its `Origin` header names another host than the one it was sent to (and is not configured as
//! allowed), or, without `Origin`, when the browser's `Sec-Fetch-Site` says `cross-site`.
//! Non-browser clients send neither header and pass.

use axum::{
    extract::{Request, State},
    http::{header, HeaderMap, Method},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::{error::ApiError, state::AppState};

/// The message for a refused cross-origin request.
pub const CROSS_ORIGIN_REJECTED: &str = "Cross-origin request rejected.";

/// Middleware: rejects cross-origin POST, PUT, PATCH and DELETE requests with 403.
pub async fn reject_cross_origin(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let unsafe_method = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if unsafe_method && is_cross_origin(request.headers(), &state.config.allowed_origins) {
        tracing::warn!("cross-origin request rejected");
        return ApiError::Forbidden(CROSS_ORIGIN_REJECTED.into()).into_response();
    }
    next.run(request).await
}

/// Whether the headers show a request from another origin.
pub fn is_cross_origin(headers: &HeaderMap, allowed: &[String]) -> bool {
    let header_text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    match header_text(header::ORIGIN) {
        Some(origin) => {
            if allowed.iter().any(|a| a.trim_end_matches('/') == origin) {
                return false;
            }
            let origin_host = origin.split_once("://").map(|(_, rest)| rest);
            let host = header_text(header::HOST);
            match (origin_host, host) {
                (Some(o), Some(h)) => !o.eq_ignore_ascii_case(h),
                // `Origin: null` (sandboxed frames, some redirects) or no Host: refuse.
                _ => true,
            }
        }
        None => header_text(header::HeaderName::from_static("sec-fetch-site"))
            .is_some_and(|site| site.eq_ignore_ascii_case("cross-site")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn same_origin_passes() {
        let h = headers(&[
            ("origin", "http://127.0.0.1:8080"),
            ("host", "127.0.0.1:8080"),
        ]);
        assert!(!is_cross_origin(&h, &[]));
    }

    #[test]
    fn another_origin_is_refused_unless_allowed() {
        let h = headers(&[
            ("origin", "https://evil.example"),
            ("host", "127.0.0.1:8080"),
        ]);
        assert!(is_cross_origin(&h, &[]));
        assert!(!is_cross_origin(&h, &["https://evil.example/".into()]));
    }

    #[test]
    fn null_origin_is_refused() {
        let h = headers(&[("origin", "null"), ("host", "127.0.0.1:8080")]);
        assert!(is_cross_origin(&h, &[]));
    }

    #[test]
    fn without_origin_the_fetch_site_decides() {
        assert!(is_cross_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            &[]
        ));
        assert!(!is_cross_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            &[]
        ));
        assert!(!is_cross_origin(&headers(&[]), &[]));
    }
}
