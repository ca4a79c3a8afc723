//! Profile (issue 9): the verified flag, activity figures, editing the display name and changing
//! the password (which ends every other session of the account).

use axum::http::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{clinical_form, patient_form, TestApp};

crate::backend_tests!(
    a_new_account_is_not_verified,
    edits_the_display_name_trimmed,
    a_display_name_over_100_characters_is_refused,
    an_empty_display_name_is_refused,
    activity_counts_only_the_users_own_data,
    a_wrong_current_password_is_refused_and_rate_limited,
    a_short_new_password_is_refused_with_the_spec_text,
    changing_the_password_ends_the_other_sessions_only,
    profile_endpoints_need_a_session,
);

const PASSWORD: &str = "secret-pass";

pub async fn a_new_account_is_not_verified(mut app: TestApp) {
    app.signed_in_doctor().await;

    let me = app.me().await.json();

    assert_eq!(me["emailVerified"], false);
}

pub async fn edits_the_display_name_trimmed(mut app: TestApp) {
    app.signed_in_doctor().await;

    let response = app
        .patch(
            "/api/auth/me",
            json!({"display_name": "  Dr. Ana María Ruiz  "}),
        )
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    assert_eq!(response.json()["displayName"], "Dr. Ana María Ruiz");
    assert_eq!(app.me().await.json()["displayName"], "Dr. Ana María Ruiz");
}

pub async fn a_display_name_over_100_characters_is_refused(mut app: TestApp) {
    app.signed_in_doctor().await;

    let exactly_100 = app
        .patch("/api/auth/me", json!({"display_name": "é".repeat(100)}))
        .await;
    let response = app
        .patch("/api/auth/me", json!({"display_name": "a".repeat(101)}))
        .await;

    assert_eq!(exactly_100.status, StatusCode::OK, "{}", exactly_100.text);
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "Display name must be at most 100 characters."
    );
    assert_eq!(app.me().await.json()["displayName"], "é".repeat(100));
}

pub async fn an_empty_display_name_is_refused(mut app: TestApp) {
    app.signed_in_doctor().await;

    let blank = app
        .patch("/api/auth/me", json!({"display_name": "   "}))
        .await;
    let missing = app.patch("/api/auth/me", json!({})).await;

    assert_eq!(blank.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(blank.detail(), "Display name is required.");
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        missing.detail().contains("display_name"),
        "{}",
        missing.detail()
    );
    assert_eq!(app.me().await.json()["displayName"], "Ana Ruiz");
}

pub async fn activity_counts_only_the_users_own_data(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    app.post("/api/screenings", json!({"patient_id": patient}))
        .await;
    let predicted = app.post("/api/predict/clinical", clinical_form()).await;
    assert_eq!(predicted.status, StatusCode::OK, "{}", predicted.text);
    let analysis = predicted.json()["analysis_id"].as_str().unwrap().to_owned();
    for _ in 0..2 {
        let reviewed = app
            .post(
                &format!("/api/analyses/{analysis}/reviews"),
                json!({"agreement": "agree"}),
            )
            .await;
        assert_eq!(reviewed.status, StatusCode::CREATED);
    }
    let mine = app.get("/api/profile/activity").await;
    app.logout().await;

    app.signed_in_doctor().await;
    let other = app.get("/api/profile/activity").await;

    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
    assert_eq!(
        mine.json(),
        json!({"patients": 1, "screenings": 1, "analyses": 1, "reviews": 2})
    );
    assert_eq!(
        other.json(),
        json!({"patients": 0, "screenings": 0, "analyses": 0, "reviews": 0})
    );
}

pub async fn a_wrong_current_password_is_refused_and_rate_limited(mut app: TestApp) {
    let email = app.signed_in_doctor().await;

    let wrong = app
        .post(
            "/api/auth/password",
            json!({"current_password": "not-it", "new_password": "new-secret"}),
        )
        .await;
    for _ in 0..4 {
        app.post(
            "/api/auth/password",
            json!({"current_password": "not-it", "new_password": "new-secret"}),
        )
        .await;
    }
    let locked = app
        .post(
            "/api/auth/password",
            json!({"current_password": PASSWORD, "new_password": "new-secret"}),
        )
        .await;

    assert_eq!(wrong.status, StatusCode::FORBIDDEN);
    assert_eq!(wrong.detail(), "Current password is incorrect.");
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        locked.detail(),
        "Too many failed attempts. Please try again later."
    );
    // The same limiter guards sign-in, and the old password is still the one.
    app.logout().await;
    assert_eq!(
        app.login(&email, PASSWORD).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

pub async fn a_short_new_password_is_refused_with_the_spec_text(mut app: TestApp) {
    let email = app.signed_in_doctor().await;

    let response = app
        .post(
            "/api/auth/password",
            json!({"current_password": PASSWORD, "new_password": "12345"}),
        )
        .await;

    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "Password must be at least 6 characters");
    app.logout().await;
    assert_eq!(app.login(&email, PASSWORD).await.status, StatusCode::OK);
}

pub async fn changing_the_password_ends_the_other_sessions_only(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    let first_session = app.cookie.clone();
    app.cookie = None;
    assert_eq!(app.login(&email, PASSWORD).await.status, StatusCode::OK);
    let other_session = app.cookie.clone();
    app.cookie = first_session.clone();

    let response = app
        .post(
            "/api/auth/password",
            json!({"current_password": PASSWORD, "new_password": "brand-new-1"}),
        )
        .await;

    assert_eq!(response.status, StatusCode::NO_CONTENT, "{}", response.text);
    assert_eq!(app.me().await.status, StatusCode::OK, "this session stays");
    app.cookie = other_session;
    let other = app.me().await;
    assert_eq!(other.status, StatusCode::UNAUTHORIZED);
    assert_eq!(other.detail(), "Not authenticated.");
    app.cookie = None;
    let old = app.login(&email, PASSWORD).await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    assert_eq!(old.detail(), "Invalid email or password. Please try again.");
    assert_eq!(
        app.login(&email, "brand-new-1").await.status,
        StatusCode::OK
    );
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE email = $1")
        .bind(&email)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert!(hash.starts_with("$argon2id$") && !hash.contains("brand-new-1"));
    assert!(!crate::helpers::captured_logs().contains("brand-new-1"));
}

pub async fn profile_endpoints_need_a_session(mut app: TestApp) {
    let attempts = [
        (
            Method::PATCH,
            "/api/auth/me",
            Some(json!({"display_name": "X"})),
        ),
        (
            Method::POST,
            "/api/auth/password",
            Some(json!({"current_password": PASSWORD, "new_password": "new-secret"})),
        ),
        (Method::GET, "/api/profile/activity", None),
        (Method::GET, "/api/settings", None),
        (Method::PUT, "/api/settings", Some(json!({}))),
    ];
    for (method, path, body) in attempts {
        let response = app.request(method.clone(), path, body).await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED, "{method} {path}");
        assert_eq!(response.detail(), "Not authenticated.", "{method} {path}");
    }
}
