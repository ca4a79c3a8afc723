//! Two-factor sign-in (issue 9, part 2): enrolment, the code step of a sign-in, recovery codes,
//! rate limiting of wrong codes, turning it off. Codes are computed by `totp-rs` (a maintained
//! implementation) from the `otpauth://` URI the server hands out, as an authenticator app would.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};
use totp_rs::TOTP;

use crate::helpers::TestApp;

crate::backend_tests!(
    enrolling_turns_two_factor_on_and_sign_in_then_asks_for_a_code,
    a_wrong_code_does_not_confirm_the_enrolment,
    an_app_code_signs_in_once,
    a_recovery_code_signs_in_once,
    wrong_codes_are_rate_limited_like_passwords,
    an_expired_challenge_is_refused,
    disabling_needs_the_password_and_a_code,
    setup_is_refused_while_two_factor_is_on,
);

const PASSWORD: &str = "secret-pass";

/// The authenticator app's view of a setup answer.
fn app_from(setup: &Value) -> TOTP {
    TOTP::from_url(setup["otpauthUri"].as_str().unwrap()).expect("a valid otpauth URI")
}

/// The app's code at the server's time, `offset_steps` time steps away.
fn code(app: &TestApp, totp: &TOTP, offset_steps: i64) -> String {
    let secs = app.clock.now_ms() / 1000 + offset_steps * 30;
    totp.generate(u64::try_from(secs).unwrap())
}

/// Signs up a doctor and turns two-factor sign-in on; returns the email, the app and the
/// recovery codes. The enrolment used the current step's code.
async fn enrolled_doctor(app: &mut TestApp) -> (String, TOTP, Vec<String>) {
    let email = app.signed_in_doctor().await;
    let setup = app.post("/api/auth/totp/setup", json!({})).await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.text);
    let totp = app_from(&setup.json());
    let code = code(app, &totp, 0);
    let enabled = app
        .post("/api/auth/totp/enable", json!({ "code": code }))
        .await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
    let codes = enabled.json()["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    (email, totp, codes)
}

/// Signs out and sends the password; returns the challenge.
async fn password_step(app: &mut TestApp, email: &str) -> String {
    app.logout().await;
    let response = app.login(email, PASSWORD).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    assert!(
        response.set_cookie().is_none(),
        "no session before the code"
    );
    let body = response.json();
    assert_eq!(body["twoFactorRequired"], true);
    body["challenge"].as_str().unwrap().to_owned()
}

async fn code_step(app: &mut TestApp, challenge: &str, code: &str) -> crate::helpers::TestResponse {
    app.post(
        "/api/auth/login/totp",
        json!({ "challenge": challenge, "code": code }),
    )
    .await
}

pub async fn enrolling_turns_two_factor_on_and_sign_in_then_asks_for_a_code(mut app: TestApp) {
    let email = app.signed_in_doctor().await;
    assert_eq!(app.me().await.json()["twoFactorEnabled"], false);

    let setup = app.post("/api/auth/totp/setup", json!({})).await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.text);
    let body = setup.json();
    let secret = body["secret"].as_str().unwrap();
    assert_eq!(secret.len(), 32, "160 bits in base32");
    let uri = body["otpauthUri"].as_str().unwrap();
    let account = email.replace('@', "%40");
    assert!(
        uri.starts_with(&format!("otpauth://totp/Cardio:{account}?secret={secret}")),
        "{uri}"
    );
    assert!(uri.contains("issuer=Cardio"), "{uri}");
    let totp = app_from(&body);
    assert_eq!(totp.get_secret_base32(), secret);

    let enabled = app
        .post(
            "/api/auth/totp/enable",
            json!({ "code": code(&app, &totp, 0) }),
        )
        .await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
    let codes: Vec<String> = enabled.json()["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(codes.len(), 10);
    assert_eq!(
        codes.iter().collect::<std::collections::HashSet<_>>().len(),
        10
    );
    assert_eq!(app.me().await.json()["twoFactorEnabled"], true);
    assert!(app
        .audit_actions()
        .await
        .contains(&"update two_factor_on".to_owned()));
    let stored: Vec<String> = sqlx::query_scalar("SELECT code_hash FROM totp_recovery_codes")
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(stored.len(), 10);
    assert!(stored.iter().all(|hash| !codes.contains(hash)));

    let challenge = password_step(&mut app, &email).await;
    assert_eq!(app.me().await.status, StatusCode::UNAUTHORIZED);
    // The enrolment used this step's code; the app's next code is within the accepted window.
    let code_now = code(&app, &totp, 1);
    let signed_in = code_step(&mut app, &challenge, &code_now).await;

    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
    assert!(signed_in.set_cookie().is_some());
    assert_eq!(signed_in.json()["email"], email.as_str());
    assert_eq!(app.me().await.status, StatusCode::OK);
}

pub async fn a_wrong_code_does_not_confirm_the_enrolment(mut app: TestApp) {
    app.signed_in_doctor().await;
    let before = app
        .post("/api/auth/totp/enable", json!({ "code": "123456" }))
        .await;
    assert_eq!(before.status, StatusCode::CONFLICT, "no setup yet");
    let setup = app.post("/api/auth/totp/setup", json!({})).await;
    let totp = app_from(&setup.json());
    let wrong = if code(&app, &totp, 0) == "000000" {
        "111111"
    } else {
        "000000"
    };

    let response = app
        .post("/api/auth/totp/enable", json!({ "code": wrong }))
        .await;

    assert_eq!(response.status, StatusCode::FORBIDDEN);
    assert_eq!(response.detail(), "Invalid authentication code.");
    assert_eq!(app.me().await.json()["twoFactorEnabled"], false);
    // Two steps away is outside the window.
    let far = app
        .post(
            "/api/auth/totp/enable",
            json!({ "code": code(&app, &totp, 2) }),
        )
        .await;
    assert_eq!(far.status, StatusCode::FORBIDDEN);
}

pub async fn an_app_code_signs_in_once(mut app: TestApp) {
    let (email, totp, _) = enrolled_doctor(&mut app).await;
    app.clock.advance(Duration::from_secs(30));
    let code = code(&app, &totp, 0);

    let challenge = password_step(&mut app, &email).await;
    let first = code_step(&mut app, &challenge, &code).await;
    let challenge = password_step(&mut app, &email).await;
    let replay = code_step(&mut app, &challenge, &code).await;

    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(replay.status, StatusCode::UNAUTHORIZED);
    assert_eq!(replay.detail(), "Invalid authentication code.");
    assert!(replay.set_cookie().is_none());
    // The next step's code still works.
    let code_now = self::code(&app, &totp, 1);
    let next = code_step(&mut app, &challenge, &code_now).await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.text);
}

pub async fn a_recovery_code_signs_in_once(mut app: TestApp) {
    let (email, _, codes) = enrolled_doctor(&mut app).await;

    let challenge = password_step(&mut app, &email).await;
    let first = code_step(&mut app, &challenge, &codes[0]).await;
    let challenge = password_step(&mut app, &email).await;
    let again = code_step(&mut app, &challenge, &codes[0]).await;
    // Typed in capitals without the dash, another code works.
    let typed = codes[1].to_uppercase().replace('-', " ");
    let other = code_step(&mut app, &challenge, &typed).await;

    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
    assert_eq!(again.detail(), "Invalid authentication code.");
    assert_eq!(other.status, StatusCode::OK, "{}", other.text);
}

pub async fn wrong_codes_are_rate_limited_like_passwords(mut app: TestApp) {
    let (email, totp, _) = enrolled_doctor(&mut app).await;
    app.clock.advance(Duration::from_secs(30));
    let right = code(&app, &totp, 0);
    let wrong = if right == "000000" {
        "111111"
    } else {
        "000000"
    };

    let challenge = password_step(&mut app, &email).await;
    for _ in 0..3 {
        let response = code_step(&mut app, &challenge, wrong).await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    }
    // A right password does not wipe the count of wrong codes.
    let challenge = password_step(&mut app, &email).await;
    for _ in 0..2 {
        let response = code_step(&mut app, &challenge, "not-a-recovery-code").await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    }
    let blocked = code_step(&mut app, &challenge, &right).await;

    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        blocked.detail(),
        "Too many failed attempts. Please try again later."
    );
    assert!(blocked.set_cookie().is_none());
    // After the window, the right code works.
    app.clock.advance(Duration::from_secs(15 * 60 + 1));
    let challenge = password_step(&mut app, &email).await;
    let code_now = code(&app, &totp, 0);
    let later = code_step(&mut app, &challenge, &code_now).await;
    assert_eq!(later.status, StatusCode::OK, "{}", later.text);
}

pub async fn an_expired_challenge_is_refused(mut app: TestApp) {
    let (email, totp, _) = enrolled_doctor(&mut app).await;
    let challenge = password_step(&mut app, &email).await;
    app.clock.advance(Duration::from_secs(5 * 60 + 1));

    let code_now = code(&app, &totp, 0);
    let late = code_step(&mut app, &challenge, &code_now).await;
    let code_now = code(&app, &totp, 0);
    let forged = code_step(&mut app, "not-a-challenge", &code_now).await;

    assert_eq!(late.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        late.detail(),
        "Your sign-in has expired. Please sign in again."
    );
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.me().await.status, StatusCode::UNAUTHORIZED);
}

pub async fn disabling_needs_the_password_and_a_code(mut app: TestApp) {
    let (email, totp, _) = enrolled_doctor(&mut app).await;
    app.clock.advance(Duration::from_secs(30));
    let right = code(&app, &totp, 0);
    let wrong = if right == "000000" {
        "111111"
    } else {
        "000000"
    };

    let bad_password = app
        .post(
            "/api/auth/totp/disable",
            json!({ "password": "not-it", "code": right }),
        )
        .await;
    let bad_code = app
        .post(
            "/api/auth/totp/disable",
            json!({ "password": PASSWORD, "code": wrong }),
        )
        .await;
    assert_eq!(bad_password.status, StatusCode::FORBIDDEN);
    assert_eq!(bad_password.detail(), "Current password is incorrect.");
    assert_eq!(bad_code.status, StatusCode::FORBIDDEN);
    assert_eq!(bad_code.detail(), "Invalid authentication code.");
    assert_eq!(app.me().await.json()["twoFactorEnabled"], true);

    let disabled = app
        .post(
            "/api/auth/totp/disable",
            json!({ "password": PASSWORD, "code": right }),
        )
        .await;

    assert_eq!(disabled.status, StatusCode::NO_CONTENT, "{}", disabled.text);
    assert_eq!(app.me().await.json()["twoFactorEnabled"], false);
    let actions = app.audit_actions().await;
    let on = actions.iter().position(|a| a == "update two_factor_on");
    let off = actions.iter().position(|a| a == "update two_factor_off");
    assert!(on.is_some() && off > on, "{actions:?}");
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM totp_recovery_codes")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
    app.logout().await;
    let login = app.login(&email, PASSWORD).await;
    assert_eq!(login.status, StatusCode::OK);
    assert!(
        login.set_cookie().is_some(),
        "a password alone signs in again"
    );
}

pub async fn setup_is_refused_while_two_factor_is_on(mut app: TestApp) {
    enrolled_doctor(&mut app).await;

    let again = app.post("/api/auth/totp/setup", json!({})).await;

    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.detail(), "Two-factor sign-in is already on.");
}
