//! Email verification and password reset (issue 9, part 4): without SMTP, messages land in
//! `<data dir>/outbox/` as .eml files; tokens are single use and expire (the test moves the clock);
//! a reset request answers the same for unknown addresses; the log names a message by its token's
//! public part and never holds the secret part.

use std::{path::PathBuf, time::Duration};

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::{captured_logs, patient_form, TestApp};

crate::backend_tests!(
    sign_up_sends_one_verification_message,
    verification_messages_asked_for_are_limited_per_account,
    a_verification_link_verifies_the_email_once,
    a_verification_link_expires_after_a_day,
    a_reset_link_sets_a_new_password_once_and_ends_every_session,
    a_reset_link_expires_after_an_hour,
    a_reset_request_does_not_tell_whether_the_account_exists,
    reset_requests_are_rate_limited,
    made_up_reset_tokens_are_limited_per_address,
    a_reset_ends_a_half_finished_two_factor_sign_in,
    messages_are_written_in_the_senders_language,
);

const PASSWORD: &str = "secret-pass";

fn outbox(app: &TestApp) -> PathBuf {
    app.config.data_dir.join("outbox")
}

/// The outbox files whose name contains `kind`, oldest first.
fn messages(app: &TestApp, kind: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(outbox(app)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(kind))
        .collect();
    files.sort();
    files
}

/// Waits (mail is sent in the background) for the `n`-th message of `kind` and returns its text.
async fn nth_message(app: &TestApp, kind: &str, n: usize) -> String {
    for _ in 0..200 {
        if let Some(path) = messages(app, kind).get(n - 1) {
            let text = std::fs::read_to_string(path).unwrap();
            if text.contains("token=") {
                return text;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no message {n} of kind {kind} in {}", outbox(app).display());
}

/// The link in a message, and its token.
fn link_in(message: &str) -> (String, String) {
    let link = message
        .split_whitespace()
        .find(|word| word.starts_with("http") && word.contains("token="))
        .unwrap_or_else(|| panic!("no link in {message}"))
        .to_owned();
    let token = link.split_once("token=").unwrap().1.to_owned();
    (link, token)
}

pub async fn sign_up_sends_one_verification_message(mut app: TestApp) {
    let signup = app
        .signup("Pat Doe", "pat@home.test", PASSWORD, "user")
        .await;
    assert_eq!(signup.status, StatusCode::CREATED, "{}", signup.text);

    let message = nth_message(&app, "verify-email", 1).await;
    assert!(message.contains("To: pat@home.test"), "{message}");
    assert!(message.contains("Subject: Verify your email address for Cardio"));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(messages(&app, "verify-email").len(), 1);
}

/// Waits for the sign-up's verification message, then asks for another and returns its text.
async fn requested_verification(app: &mut TestApp) -> String {
    nth_message(app, "verify-email", 1).await;
    let seen = messages(app, "verify-email");
    let requested = app.post("/api/auth/verify-email/request", json!({})).await;
    assert_eq!(requested.status, StatusCode::ACCEPTED, "{}", requested.text);
    let path = messages(app, "verify-email")
        .into_iter()
        .find(|path| !seen.contains(path))
        .expect("a second verification message");
    std::fs::read_to_string(path).unwrap()
}

pub async fn verification_messages_asked_for_are_limited_per_account(mut app: TestApp) {
    app.signed_in_doctor().await;
    nth_message(&app, "verify-email", 1).await;
    for _ in 0..5 {
        let requested = app.post("/api/auth/verify-email/request", json!({})).await;
        assert_eq!(requested.status, StatusCode::ACCEPTED, "{}", requested.text);
    }
    let refused = app.post("/api/auth/verify-email/request", json!({})).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    assert_eq!(
        refused.detail(),
        "Several links were sent already. Please check your inbox, or try again in 15 minutes."
    );
    assert_eq!(refused.json()["code"], "too_many_verification_mails");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(messages(&app, "verify-email").len(), 6);
}

pub async fn a_verification_link_verifies_the_email_once(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    assert_eq!(app.me().await.json()["emailVerified"], false);

    let message = requested_verification(&mut app).await;
    assert!(message.contains(&format!("To: {email}")), "{message}");
    assert!(message.contains("Subject: Verify your email address for Cardio"));
    let (link, token) = link_in(&message);
    assert!(
        link.starts_with("http://127.0.0.1:8080/verify-email?token="),
        "{link}"
    );
    let (selector, secret) = token.split_once('.').unwrap();
    let logs = captured_logs();
    assert!(logs.contains(selector), "the log names the message");
    assert!(
        !logs.contains(secret),
        "the log never holds the secret part"
    );
    let stored: String = sqlx::query_scalar("SELECT verifier_hash FROM email_tokens")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_ne!(stored, secret);

    let verified = app
        .post("/api/auth/verify-email", json!({ "token": token }))
        .await;
    let again = app
        .post("/api/auth/verify-email", json!({ "token": token }))
        .await;

    assert_eq!(verified.status, StatusCode::NO_CONTENT, "{}", verified.text);
    assert_eq!(app.me().await.json()["emailVerified"], true);
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(again.detail(), "This link is invalid or has expired.");
    assert!(!captured_logs().contains(secret));
}

pub async fn a_verification_link_expires_after_a_day(mut app: TestApp) {
    app.signed_in_doctor().await;
    let (_, token) = link_in(&nth_message(&app, "verify-email", 1).await);
    let forged = format!("{}.{}", token.split_once('.').unwrap().0, "x".repeat(43));

    app.clock.advance(Duration::from_secs(24 * 3600 + 1));
    let late = app
        .post("/api/auth/verify-email", json!({ "token": token }))
        .await;
    let wrong = app
        .post("/api/auth/verify-email", json!({ "token": forged }))
        .await;

    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(late.detail(), "This link is invalid or has expired.");
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    let verified: i64 = sqlx::query_scalar("SELECT email_verified FROM users")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(verified, 0);
}

pub async fn a_reset_link_sets_a_new_password_once_and_ends_every_session(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    let requested = app
        .post(
            "/api/auth/password-reset/request",
            json!({ "email": email.to_uppercase() }),
        )
        .await;
    assert_eq!(requested.status, StatusCode::ACCEPTED, "{}", requested.text);
    let message = nth_message(&app, "password-reset", 1).await;
    assert!(message.contains(&format!("To: {email}")), "{message}");
    let (link, token) = link_in(&message);
    assert!(
        link.starts_with("http://127.0.0.1:8080/reset-password?token="),
        "{link}"
    );
    let secret = token.split_once('.').unwrap().1.to_owned();

    let short = app
        .post(
            "/api/auth/password-reset",
            json!({ "token": token, "new_password": "abc" }),
        )
        .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(short.detail(), "Password must be at least 6 characters");

    let reset = app
        .post(
            "/api/auth/password-reset",
            json!({ "token": token, "new_password": "new-secret-1" }),
        )
        .await;
    assert_eq!(reset.status, StatusCode::NO_CONTENT, "{}", reset.text);
    assert_eq!(
        app.me().await.status,
        StatusCode::UNAUTHORIZED,
        "sessions ended"
    );
    assert_eq!(
        app.login(&email, PASSWORD).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.login(&email, "new-secret-1").await.status,
        StatusCode::OK
    );
    let reused = app
        .post(
            "/api/auth/password-reset",
            json!({ "token": token, "new_password": "another-one" }),
        )
        .await;
    assert_eq!(reused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reused.detail(), "This link is invalid or has expired.");
    assert!(!captured_logs().contains(&secret));
}

pub async fn a_reset_link_expires_after_an_hour(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    app.post(
        "/api/auth/password-reset/request",
        json!({ "email": email }),
    )
    .await;
    let (_, token) = link_in(&nth_message(&app, "password-reset", 1).await);

    app.clock.advance(Duration::from_secs(3600 + 1));
    let late = app
        .post(
            "/api/auth/password-reset",
            json!({ "token": token, "new_password": "new-secret-1" }),
        )
        .await;

    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(late.detail(), "This link is invalid or has expired.");
    app.logout().await;
    assert_eq!(app.login(&email, PASSWORD).await.status, StatusCode::OK);
}

pub async fn a_reset_request_does_not_tell_whether_the_account_exists(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    app.logout().await;

    let known = app
        .post(
            "/api/auth/password-reset/request",
            json!({ "email": email }),
        )
        .await;
    let unknown = app
        .post(
            "/api/auth/password-reset/request",
            json!({ "email": "nobody@clinic.test" }),
        )
        .await;

    assert_eq!(known.status, StatusCode::ACCEPTED);
    assert_eq!(unknown.status, known.status);
    assert_eq!(unknown.text, known.text);
    assert_eq!(unknown.set_cookie(), known.set_cookie());
    nth_message(&app, "password-reset", 1).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        messages(&app, "password-reset").len(),
        1,
        "no mail for nobody"
    );
}

pub async fn reset_requests_are_rate_limited(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    for address in [email.as_str(), "nobody@clinic.test"] {
        for _ in 0..5 {
            let response = app
                .post(
                    "/api/auth/password-reset/request",
                    json!({ "email": address }),
                )
                .await;
            assert_eq!(response.status, StatusCode::ACCEPTED);
        }
        let blocked = app
            .post(
                "/api/auth/password-reset/request",
                json!({ "email": address }),
            )
            .await;
        assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS, "{address}");
        assert_eq!(
            blocked.detail(),
            "Too many failed attempts. Please try again later."
        );
    }
    // Reset requests do not lock the account's sign-in.
    app.logout().await;
    assert_eq!(app.login(&email, PASSWORD).await.status, StatusCode::OK);
}

/// Issue 37 §3: every made-up token ran Argon2, without limit. Now the token is checked first and
/// ten tries per address in the window get the link's sentence; the next ones get 429.
pub async fn made_up_reset_tokens_are_limited_per_address(mut app: TestApp) {
    let guess = json!({ "token": "made-up.token", "new_password": "new-secret-1" });
    for _ in 0..10 {
        let response = app.post("/api/auth/password-reset", guess.clone()).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(response.detail(), "This link is invalid or has expired.");
    }
    let blocked = app.post("/api/auth/password-reset", guess.clone()).await;
    assert_eq!(
        blocked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        blocked.text
    );
    assert_eq!(
        blocked.detail(),
        "Too many failed attempts. Please try again later."
    );
    // Another address is not held back.
    let mut other = app.second_tab();
    other.client_addr = "198.51.100.9:5000".parse().unwrap();
    let response = other.post("/api/auth/password-reset", guess).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
}

pub async fn a_reset_ends_a_half_finished_two_factor_sign_in(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    let setup = app.post("/api/auth/totp/setup", json!({})).await.json();
    let totp = totp_rs::TOTP::from_url(setup["otpauthUri"].as_str().unwrap()).unwrap();
    let code_at = |app: &TestApp, steps: i64| {
        totp.generate(u64::try_from(app.clock.now_ms() / 1000 + steps * 30).unwrap())
    };
    let code = code_at(&app, 0);
    let enabled = app
        .post("/api/auth/totp/enable", json!({ "code": code }))
        .await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
    app.logout().await;
    let challenge = app.login(&email, PASSWORD).await.json()["challenge"]
        .as_str()
        .unwrap()
        .to_owned();

    app.post(
        "/api/auth/password-reset/request",
        json!({ "email": email }),
    )
    .await;
    let (_, token) = link_in(&nth_message(&app, "password-reset", 1).await);
    let reset = app
        .post(
            "/api/auth/password-reset",
            json!({ "token": token, "new_password": "new-secret-1" }),
        )
        .await;
    assert_eq!(reset.status, StatusCode::NO_CONTENT, "{}", reset.text);
    let code = code_at(&app, 1);
    let late = app
        .post(
            "/api/auth/login/totp",
            json!({ "challenge": challenge, "code": code }),
        )
        .await;

    assert_eq!(late.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        late.detail(),
        "Your sign-in has expired. Please sign in again."
    );
    // The reset does not bypass the second factor.
    let again = app.login(&email, "new-secret-1").await;
    assert_eq!(again.json()["twoFactorRequired"], true);
    assert!(again.set_cookie().is_none());
}

/// The body of a raw message, decoded from quoted-printable when it is (RFC 2045 6.7).
fn body_text(raw: &str) -> String {
    let (headers, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
    if !headers.contains("Content-Transfer-Encoding: quoted-printable") {
        return body.to_owned();
    }
    let joined = body.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            if let Ok(byte) = u8::from_str_radix(&joined[i + 1..i + 3], 16) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

pub async fn messages_are_written_in_the_senders_language(mut app: TestApp) {
    app.signed_in_doctor().await;
    app.set_language("es").await;
    let raw = requested_verification(&mut app).await;
    let body = body_text(&raw);
    assert!(
        body.contains("Confirme que esta es su dirección de correo para Cardio"),
        "{body}"
    );
    assert!(!body.contains("Please confirm"), "{body}");
    // The link survives the encoding whole.
    assert!(body.contains("/verify-email?token="), "{body}");
    // The subject is Spanish, its non-ASCII word an RFC 2047 encoded word.
    let subject = raw.lines().find(|l| l.starts_with("Subject: ")).unwrap();
    assert!(subject.starts_with("Subject: Verifique su "), "{subject}");
    assert!(subject.contains("=?utf-8?"), "{subject}");

    app.set_language("fr").await;
    let patient = app.create_patient(patient_form()).await;
    let share = app
        .post(
            &format!("/api/patients/{patient}/share"),
            json!({"email": "maria.lopez@example.com"}),
        )
        .await;
    assert_eq!(share.status, StatusCode::OK, "{}", share.text);
    let invitation = std::fs::read_to_string(&messages(&app, "share-invitation")[0]).unwrap();
    let body = body_text(&invitation);
    assert!(
        body.contains("Ana Ruiz a partagé des résultats de dépistage avec vous sur Cardio."),
        "{body}"
    );
    assert!(body.contains("/login"), "{body}");
}
