//! Accounts and sessions: every message and status of the foundation issue, cookie flags, the saved
//! role, expiry, logout and rate limiting.

use axum::http::StatusCode;
use serde_json::json;
use sqlx::Row;

use crate::helpers::{tick, Backend, TestApp};

crate::backend_tests!(
    signup_creates_a_doctor_and_signs_it_in,
    signup_saves_the_user_role,
    signup_sets_an_httponly_lax_session_cookie,
    signup_rejects_a_taken_email_whatever_its_case,
    signup_rejects_a_malformed_email,
    signup_rejects_a_short_password,
    signup_and_password_change_refuse_a_common_password,
    signup_rejects_an_unknown_role_and_missing_fields,
    login_with_a_wrong_password_or_unknown_email_gets_one_message,
    login_updates_last_login_and_updated_at,
    responses_never_carry_the_password_or_its_hash,
    me_without_a_session_is_unauthorized,
    logout_deletes_the_session,
    an_expired_session_is_refused,
    only_the_hash_of_the_token_is_stored,
    five_failures_lock_the_account_for_a_while,
    many_failures_from_one_address_lock_that_address,
    a_disabled_account_cannot_sign_in,
    cross_origin_login_and_signup_are_refused,
    oversized_bodies_are_refused,
);

pub async fn signup_creates_a_doctor_and_signs_it_in(mut app: TestApp) {
    let response = app
        .signup("Ana Ruiz", "Ana@Clinic.test", "secret-pass", "doctor")
        .await;

    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let user = response.json();
    assert_eq!(user["email"], "ana@clinic.test");
    assert_eq!(user["displayName"], "Ana Ruiz");
    assert_eq!(user["role"], "doctor");
    assert_eq!(user["isActive"], true);
    assert!(user["uid"].as_str().unwrap().len() >= 32);
    assert_eq!(user["createdAt"], user["updatedAt"]);
    assert_eq!(user["lastLoginAt"], user["createdAt"]);
    let me = app.me().await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.json()["uid"], user["uid"]);
}

pub async fn signup_saves_the_user_role(mut app: TestApp) {
    let response = app
        .signup("Pat Lee", "pat@home.test", "secret-pass", "user")
        .await;
    assert_eq!(response.status, StatusCode::CREATED);

    app.logout().await;
    let login = app.login("pat@home.test", "secret-pass").await;

    assert_eq!(login.status, StatusCode::OK);
    assert_eq!(login.json()["role"], "user");
    assert_eq!(app.me().await.json()["role"], "user");
}

pub async fn signup_sets_an_httponly_lax_session_cookie(mut app: TestApp) {
    let response = app
        .signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;

    let cookie = response.set_cookie().expect("a session cookie");
    assert!(cookie.starts_with("cardio_session="), "{cookie}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=43200"] {
        assert!(cookie.contains(flag), "{flag} missing in {cookie}");
    }
    assert!(
        !cookie.contains("Secure"),
        "Secure must be opt-in: {cookie}"
    );
    let token = cookie
        .split(';')
        .next()
        .unwrap()
        .trim_start_matches("cardio_session=");
    assert!(token.len() >= 43, "256-bit token expected, got {token}");
}

pub async fn signup_rejects_a_taken_email_whatever_its_case(mut app: TestApp) {
    app.signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;

    let again = app
        .signup("Other", "  ANA@clinic.TEST ", "other-pass", "user")
        .await;

    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.detail(), "An account with this email already exists.");
}

pub async fn signup_rejects_a_malformed_email(mut app: TestApp) {
    for email in ["not-an-email", "a@b", "@clinic.test", "a b@clinic.test"] {
        let response = app.signup("Ana", email, "secret-pass", "doctor").await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{email}");
        assert_eq!(response.detail(), "Invalid email address.");
    }
    assert!(app.cookie.is_none(), "no session for a refused signup");
}

pub async fn signup_rejects_a_short_password(mut app: TestApp) {
    let response = app
        .signup("Ana", "ana@clinic.test", "12345", "doctor")
        .await;

    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "Password must be at least 6 characters");
    let login = app.login("ana@clinic.test", "12345").await;
    assert_eq!(
        login.status,
        StatusCode::UNAUTHORIZED,
        "no account was created"
    );
}

pub async fn signup_rejects_an_unknown_role_and_missing_fields(mut app: TestApp) {
    let bad_role = app
        .signup("Ana", "ana@clinic.test", "secret-pass", "admin")
        .await;
    assert_eq!(bad_role.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad_role.detail().contains("unknown variant `admin`"),
        "{}",
        bad_role.detail()
    );

    let missing = app
        .post(
            "/api/auth/signup",
            json!({"full_name": "Ana", "password": "secret-pass", "role": "doctor"}),
        )
        .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        missing
            .detail()
            .starts_with("Invalid request body: missing field `email`"),
        "{}",
        missing.detail()
    );

    let garbage = app
        .request_with(
            axum::http::Method::POST,
            "/api/auth/login",
            None,
            &[("content-type", "application/json")],
        )
        .await;
    assert_eq!(garbage.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(garbage.detail(), "Invalid request body: malformed JSON.");
}

pub async fn login_with_a_wrong_password_or_unknown_email_gets_one_message(mut app: TestApp) {
    app.signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    app.logout().await;

    let wrong_password = app.login("ana@clinic.test", "wrong-pass").await;
    let unknown_email = app.login("nobody@clinic.test", "secret-pass").await;

    for response in [&wrong_password, &unknown_email] {
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            response.detail(),
            "Invalid email or password. Please try again."
        );
        assert!(response.set_cookie().is_none());
    }
}

pub async fn login_updates_last_login_and_updated_at(mut app: TestApp) {
    let created = app
        .signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await
        .json();
    app.logout().await;
    tick().await;

    let login = app.login("ANA@clinic.test", "secret-pass").await;

    assert_eq!(login.status, StatusCode::OK);
    let user = login.json();
    assert_eq!(user["createdAt"], created["createdAt"]);
    assert!(
        user["lastLoginAt"].as_str() > created["lastLoginAt"].as_str(),
        "{user}"
    );
    assert_eq!(user["updatedAt"], user["lastLoginAt"]);
}

pub async fn responses_never_carry_the_password_or_its_hash(mut app: TestApp) {
    let signup = app
        .signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    let login = app.login("ana@clinic.test", "secret-pass").await;
    let me = app.me().await;

    let stored: String = sqlx::query_scalar("SELECT password_hash FROM users")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert!(stored.starts_with("$argon2id$"));
    for response in [signup, login, me] {
        assert!(!response.text.contains("secret-pass"), "{}", response.text);
        assert!(!response.text.contains("argon2"), "{}", response.text);
        assert!(!response.text.contains(&stored), "{}", response.text);
        assert!(response.json().get("password_hash").is_none());
        assert!(response.json().get("passwordHash").is_none());
    }
}

pub async fn me_without_a_session_is_unauthorized(mut app: TestApp) {
    let response = app.me().await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    assert_eq!(response.detail(), "Not authenticated.");

    app.cookie = Some("cardio_session=forged-token".into());
    let forged = app.me().await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
}

pub async fn logout_deletes_the_session(mut app: TestApp) {
    app.signed_in_doctor().await;
    let stolen_cookie = app.cookie.clone();

    let response = app.logout().await;

    assert_eq!(response.status, StatusCode::NO_CONTENT);
    let cleared = response.set_cookie().unwrap();
    assert!(
        cleared.contains("Max-Age=0") && cleared.contains("HttpOnly"),
        "{cleared}"
    );
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(sessions, 0);
    app.cookie = stolen_cookie;
    assert_eq!(
        app.me().await.status,
        StatusCode::UNAUTHORIZED,
        "the old cookie is dead"
    );
}

pub async fn an_expired_session_is_refused(mut app: TestApp) {
    app.signed_in_doctor().await;
    assert_eq!(app.me().await.status, StatusCode::OK);

    sqlx::query("UPDATE sessions SET expires_at = $1")
        .bind(cardio_server::platform::db::now_ms() - 1)
        .execute(&app.db.pool)
        .await
        .unwrap();

    let response = app.me().await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    assert_eq!(response.detail(), "Not authenticated.");
}

pub async fn only_the_hash_of_the_token_is_stored(mut app: TestApp) {
    app.signed_in_doctor().await;
    let token = app
        .cookie
        .clone()
        .unwrap()
        .trim_start_matches("cardio_session=")
        .to_owned();

    let row = sqlx::query("SELECT token_hash, expires_at, created_at FROM sessions")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let stored: String = row.get("token_hash");
    assert_ne!(stored, token);
    assert_eq!(
        stored,
        cardio_server::accounts::auth::session::token_hash(&token)
    );
    let lifetime: i64 = row.get::<i64, _>("expires_at") - row.get::<i64, _>("created_at");
    assert_eq!(lifetime, 12 * 3600 * 1000);
}

pub async fn five_failures_lock_the_account_for_a_while(mut app: TestApp) {
    app.signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    app.logout().await;

    for _ in 0..5 {
        assert_eq!(
            app.login("ana@clinic.test", "wrong-pass").await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    // From another address too: the limit is per account.
    app.client_addr = "198.51.100.9:5000".parse().unwrap();
    let locked = app.login("ana@clinic.test", "secret-pass").await;

    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        locked.detail(),
        "Too many failed attempts. Please try again later."
    );
    assert!(locked.set_cookie().is_none());

    // Once the failures are older than the window, the right password works again.
    app.clock.advance(std::time::Duration::from_mins(16));
    assert_eq!(
        app.login("ana@clinic.test", "secret-pass").await.status,
        StatusCode::OK
    );
}

pub async fn many_failures_from_one_address_lock_that_address(mut app: TestApp) {
    app.signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    app.logout().await;

    for i in 0..20 {
        let response = app
            .login(&format!("guess{i}@clinic.test"), "whatever")
            .await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    }
    let locked = app.login("ana@clinic.test", "secret-pass").await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        locked.detail(),
        "Too many failed attempts. Please try again later."
    );

    app.client_addr = "198.51.100.9:5000".parse().unwrap();
    assert_eq!(
        app.login("ana@clinic.test", "secret-pass").await.status,
        StatusCode::OK
    );
}

pub async fn a_disabled_account_cannot_sign_in(mut app: TestApp) {
    app.signed_in_doctor().await;
    let email = app.me().await.json()["email"].as_str().unwrap().to_owned();
    sqlx::query("UPDATE users SET is_active = 0")
        .execute(&app.db.pool)
        .await
        .unwrap();

    assert_eq!(
        app.me().await.status,
        StatusCode::UNAUTHORIZED,
        "open sessions end"
    );
    let login = app.login(&email, "secret-pass").await;
    assert_eq!(login.status, StatusCode::FORBIDDEN);
    assert_eq!(login.detail(), "This account is disabled.");
}

pub async fn cross_origin_login_and_signup_are_refused(mut app: TestApp) {
    app.origin = Some("https://evil.example".into());
    let signup = app
        .signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    let login = app.login("ana@clinic.test", "secret-pass").await;
    // The same host and port under another scheme is another origin.
    app.origin = Some("https://127.0.0.1:8080".into());
    let other_scheme = app
        .signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    for response in [&signup, &login, &other_scheme] {
        assert_eq!(response.status, StatusCode::FORBIDDEN);
        assert_eq!(response.detail(), "Cross-origin request rejected.");
    }

    app.origin = Some("http://127.0.0.1:8080".into());
    let same_origin = app
        .signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    assert_eq!(same_origin.status, StatusCode::CREATED);
}

pub async fn oversized_bodies_are_refused(mut app: TestApp) {
    let huge = "x".repeat(100 * 1024);
    let response = app
        .signup(&huge, "ana@clinic.test", "secret-pass", "doctor")
        .await;
    assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(response.detail(), "Request body is too large.");
}

#[tokio::test]
async fn the_cookie_is_secure_when_configured() {
    let config = cardio_server::platform::config::Config {
        secure_cookies: true,
        ..Default::default()
    };
    let mut app = TestApp::spawn(Backend::Sqlite, config).await.unwrap();
    let response = app
        .signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    assert!(response.set_cookie().unwrap().ends_with("; Secure"));
    assert!(app
        .logout()
        .await
        .set_cookie()
        .unwrap()
        .ends_with("; Secure"));
    app.cleanup_handle().run().await;
}

pub async fn signup_and_password_change_refuse_a_common_password(mut app: TestApp) {
    let refused = app
        .signup("Ana", "ana@clinic.test", "Password", "doctor")
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.detail(),
        "This password is one of the most commonly used and easily guessed. Please choose another."
    );
    assert!(refused.set_cookie().is_none());

    app.signup("Ana", "ana@clinic.test", "secret-pass", "doctor")
        .await;
    let change = app
        .post(
            "/api/auth/password",
            serde_json::json!({"current_password": "secret-pass", "new_password": "qwerty123"}),
        )
        .await;
    assert_eq!(change.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        change.detail(),
        cardio_server::accounts::auth::password::PASSWORD_TOO_COMMON
    );
}
