//! Cross-site request forgery defence for state-changing API requests.
//!
//! The session cookie is `SameSite=Lax`, which already keeps it off cross-site POSTs; this layer
//! also refuses such requests outright (login CSRF needs no cookie). A request is cross-origin when
//! its `Origin` header names another origin than the one it was sent to: another host or port
//! than the `Host` header, or another scheme than the server's own (`https` when the cookie is
//! `Secure`, else `http`), unless it is the configured public URL's origin or an allowed origin;
//! or, without `Origin`, when the browser's `Sec-Fetch-Site` says `cross-site`. Non-browser
//! clients send neither header and pass.

use axum::{
    extract::{Request, State},
    http::{header, HeaderMap, Method},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::{platform::error::ApiError, platform::state::AppState};

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
    let scheme = if state.config.secure_cookies {
        "https"
    } else {
        "http"
    };
    let public = state.config.mail.public_url.as_deref().map(origin_of);
    let allowed: Vec<&str> = state
        .config
        .allowed_origins
        .iter()
        .map(String::as_str)
        .chain(public)
        .collect();
    if unsafe_method && is_cross_origin(request.headers(), &allowed, scheme) {
        tracing::warn!("cross-origin request rejected");
        return ApiError::Forbidden(CROSS_ORIGIN_REJECTED.into()).into_response();
    }
    next.run(request).await
}

/// The origin (`scheme://host[:port]`) of a URL such as the configured public URL.
fn origin_of(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    url[after_scheme..]
        .find('/')
        .map_or(url, |end| &url[..after_scheme + end])
}

/// Whether the headers show a request from another origin than `own_scheme://<Host>` and the
/// `allowed` origins.
pub fn is_cross_origin(headers: &HeaderMap, allowed: &[&str], own_scheme: &str) -> bool {
    let header_text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    match header_text(header::ORIGIN) {
        Some(origin) => {
            if allowed
                .iter()
                .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
            {
                return false;
            }
            let parts = origin.split_once("://");
            let host = header_text(header::HOST);
            match (parts, host) {
                (Some((scheme, o)), Some(h)) => {
                    !(scheme.eq_ignore_ascii_case(own_scheme) && o.eq_ignore_ascii_case(h))
                }
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
        assert!(!is_cross_origin(&h, &[], "http"));
    }

    #[test]
    fn another_scheme_on_the_same_host_is_refused() {
        let h = headers(&[
            ("origin", "https://127.0.0.1:8080"),
            ("host", "127.0.0.1:8080"),
        ]);
        assert!(is_cross_origin(&h, &[], "http"));
        assert!(!is_cross_origin(&h, &[], "https"));
        let plain = headers(&[("origin", "http://cardio.test"), ("host", "cardio.test")]);
        assert!(is_cross_origin(&plain, &[], "https"));
        // Behind a TLS proxy the public URL names the origin people use.
        assert!(!is_cross_origin(
            &h,
            &[origin_of("https://127.0.0.1:8080/app/")],
            "http"
        ));
    }

    #[test]
    fn another_origin_is_refused_unless_allowed() {
        let h = headers(&[
            ("origin", "https://evil.example"),
            ("host", "127.0.0.1:8080"),
        ]);
        assert!(is_cross_origin(&h, &[], "http"));
        assert!(!is_cross_origin(&h, &["https://evil.example/"], "http"));
    }

    #[test]
    fn null_origin_is_refused() {
        let h = headers(&[("origin", "null"), ("host", "127.0.0.1:8080")]);
        assert!(is_cross_origin(&h, &[], "http"));
    }

    #[test]
    fn without_origin_the_fetch_site_decides() {
        assert!(is_cross_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            &[],
            "http"
        ));
        assert!(!is_cross_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            &[],
            "http"
        ));
        assert!(!is_cross_origin(&headers(&[]), &[], "http"));
    }
}
