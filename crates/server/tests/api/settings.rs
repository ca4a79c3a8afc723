//! Settings saved per user (issue 9): defaults, round trip, validation, isolation, and the session
//! timeout enforced as an idle timeout, with the server's clock moved forward instead of sleeping.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::TestApp;

crate::backend_tests!(
    a_new_user_gets_the_specs_defaults,
    settings_round_trip,
    every_invalid_field_is_a_422_naming_it,
    one_users_settings_never_reach_another,
    a_session_idle_past_the_chosen_timeout_is_refused_and_deleted,
    each_use_within_the_timeout_keeps_the_session_alive,
    background_polling_does_not_keep_an_idle_session_alive,
    the_default_timeout_is_30_minutes,
    never_leaves_only_the_absolute_session_lifetime,
);

fn saved() -> Value {
    json!({
        "theme": "dark", "language": "es", "notifyTestResults": false,
        "notifyDeviceAlerts": true, "notifyPatientUpdates": true, "sessionTimeout": "15m",
    })
}

async fn set_timeout(app: &mut TestApp, timeout: &str) {
    let mut body = saved();
    body["sessionTimeout"] = json!(timeout);
    let response = app.request(Method::PUT, "/api/settings", Some(body)).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
}

fn minutes(n: u64) -> Duration {
    Duration::from_mins(n)
}

pub async fn a_new_user_gets_the_specs_defaults(mut app: TestApp) {
    app.signed_in_doctor().await;

    let response = app.get("/api/settings").await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    assert_eq!(
        response.json(),
        json!({
            "theme": "auto", "language": "en", "notifyTestResults": true,
            "notifyDeviceAlerts": true, "notifyPatientUpdates": false, "sessionTimeout": "30m",
            "updatedAt": null,
        })
    );
}

pub async fn settings_round_trip(mut app: TestApp) {
    app.signed_in_doctor().await;

    let put = app
        .request(Method::PUT, "/api/settings", Some(saved()))
        .await;
    let got = app.get("/api/settings").await.json();

    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    for (key, value) in saved().as_object().unwrap() {
        assert_eq!(&got[key], value, "{key}");
        assert_eq!(&put.json()[key], value, "{key}");
    }
    assert!(got["updatedAt"].as_str().unwrap().ends_with('Z'));
    let mut changed = saved();
    changed["theme"] = json!("light");
    changed["language"] = json!("fr");
    app.request(Method::PUT, "/api/settings", Some(changed))
        .await;
    let again = app.get("/api/settings").await.json();
    assert_eq!(again["theme"], "light");
    assert_eq!(again["language"], "fr");
}

pub async fn every_invalid_field_is_a_422_naming_it(mut app: TestApp) {
    app.signed_in_doctor().await;
    let cases = [
        ("theme", json!("blue"), "Theme must be light, dark or auto."),
        ("theme", Value::Null, "Theme must be light, dark or auto."),
        ("language", json!("de"), "Language must be en, es or fr."),
        (
            "notifyTestResults",
            json!("yes"),
            "notifyTestResults must be true or false.",
        ),
        (
            "notifyDeviceAlerts",
            json!(1),
            "notifyDeviceAlerts must be true or false.",
        ),
        (
            "notifyPatientUpdates",
            Value::Null,
            "notifyPatientUpdates must be true or false.",
        ),
        (
            "sessionTimeout",
            json!("2h"),
            "Session timeout must be 15m, 30m, 1h or never.",
        ),
    ];
    for (field, value, message) in cases {
        let mut body = saved();
        body[field] = value;

        let response = app.request(Method::PUT, "/api/settings", Some(body)).await;

        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        assert_eq!(response.detail(), message, "{field}");
    }
    let mut missing = saved();
    missing.as_object_mut().unwrap().remove("language");
    let response = app
        .request(Method::PUT, "/api/settings", Some(missing))
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "Language must be en, es or fr.");
    let mut unknown = saved();
    unknown["fontSize"] = json!(12);
    let response = app
        .request(Method::PUT, "/api/settings", Some(unknown))
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        response.detail().contains("fontSize"),
        "{}",
        response.detail()
    );
    assert_eq!(
        app.get("/api/settings").await.json()["updatedAt"],
        Value::Null
    );
}

pub async fn one_users_settings_never_reach_another(mut app: TestApp) {
    app.signed_in_doctor().await;
    app.request(Method::PUT, "/api/settings", Some(saved()))
        .await;
    app.logout().await;

    app.signed_in_doctor().await;
    let other = app.get("/api/settings").await.json();

    assert_eq!(other["theme"], "auto");
    assert_eq!(other["language"], "en");
    assert_eq!(other["sessionTimeout"], "30m");
    assert_eq!(other["updatedAt"], Value::Null);
    // The first user's 15-minute timeout does not apply to this one.
    app.clock.advance(minutes(20));
    assert_eq!(app.me().await.status, StatusCode::OK);
}

pub async fn a_session_idle_past_the_chosen_timeout_is_refused_and_deleted(mut app: TestApp) {
    app.signed_in_doctor().await;
    set_timeout(&mut app, "15m").await;

    app.clock.advance(minutes(15) + Duration::from_secs(1));
    let response = app.me().await;

    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        response.detail(),
        "You were signed out after a period of inactivity."
    );
    // The session is gone: the next request is simply signed out.
    assert_eq!(app.me().await.detail(), "Not authenticated.");
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(sessions, 0, "the idle session is deleted");
}

pub async fn each_use_within_the_timeout_keeps_the_session_alive(mut app: TestApp) {
    app.signed_in_doctor().await;
    set_timeout(&mut app, "1h").await;

    app.clock.advance(minutes(50));
    let first = app.me().await;
    app.clock.advance(minutes(50));
    let second = app.get("/api/settings").await;
    app.clock.advance(minutes(61));
    let third = app.me().await;

    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(
        second.status,
        StatusCode::OK,
        "100 minutes in, but used 50 minutes ago"
    );
    assert_eq!(third.status, StatusCode::UNAUTHORIZED);
}

pub async fn background_polling_does_not_keep_an_idle_session_alive(mut app: TestApp) {
    app.signed_in_doctor().await;
    set_timeout(&mut app, "15m").await;
    let background = [("X-Cardio-Background", "1")];

    // An open tab polls the notifications every few minutes; nobody touches it.
    let mut polls = Vec::new();
    for _ in 0..7 {
        app.clock.advance(minutes(2));
        let response = app
            .request_with(Method::GET, "/api/notifications", None, &background)
            .await;
        polls.push(response.status);
    }
    app.clock.advance(minutes(2));
    let after_sixteen_minutes = app
        .request_with(Method::GET, "/api/notifications", None, &background)
        .await;

    assert!(polls.iter().all(|s| *s == StatusCode::OK), "{polls:?}");
    assert_eq!(after_sixteen_minutes.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        after_sixteen_minutes.detail(),
        "You were signed out after a period of inactivity."
    );
    // The same requests made by a person keep it alive.
    app.signed_in_doctor().await;
    set_timeout(&mut app, "15m").await;
    for _ in 0..8 {
        app.clock.advance(minutes(2));
        assert_eq!(app.get("/api/notifications").await.status, StatusCode::OK);
    }
}

pub async fn the_default_timeout_is_30_minutes(mut app: TestApp) {
    app.signed_in_doctor().await;

    app.clock.advance(minutes(29));
    let within = app.me().await;
    app.clock.advance(minutes(31));
    let after = app.me().await;

    assert_eq!(within.status, StatusCode::OK);
    assert_eq!(after.status, StatusCode::UNAUTHORIZED);
}

pub async fn never_leaves_only_the_absolute_session_lifetime(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    set_timeout(&mut app, "never").await;

    app.clock.advance(minutes(11 * 60));
    let idle_for_eleven_hours = app.me().await;
    app.clock.advance(minutes(61));
    let past_the_lifetime = app.me().await;

    assert_eq!(idle_for_eleven_hours.status, StatusCode::OK);
    assert_eq!(past_the_lifetime.status, StatusCode::UNAUTHORIZED);
    // Signing in again gives a fresh session on the same clock.
    assert_eq!(
        app.login(&email, "secret-pass").await.status,
        StatusCode::OK
    );
    assert_eq!(app.me().await.status, StatusCode::OK);
}
