//! Logs never carry a password, its hash, a session token or an email.
//!
//! Every test of this binary logs at TRACE into one in-memory capture (see
//! [`crate::helpers::captured_logs`]), so this test checks what all of them logged, not only its own
//! requests.

use crate::helpers::{captured_logs, Backend, TestApp};

#[tokio::test]
async fn no_password_hash_token_or_email_in_any_log_line() {
    let mut app = TestApp::spawn(
        Backend::Sqlite,
        cardio_server::platform::config::Config::default(),
    )
    .await
    .unwrap();
    app.signup(
        "Ana Ruiz",
        "ana.log@clinic.test",
        "pw-never-logged",
        "doctor",
    )
    .await;
    let token = app.cookie.clone().unwrap();
    app.logout().await;
    app.login("ana.log@clinic.test", "wrong-pass-never-logged")
        .await;
    app.login("ana.log@clinic.test", "pw-never-logged").await;
    app.me().await;
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM users")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    app.cleanup_handle().run().await;

    let logs = captured_logs();
    assert!(
        logs.contains("account created"),
        "logging was captured: {logs}"
    );
    assert!(logs.contains("signed in"));
    assert!(logs.contains("sign-in failed"));
    for secret in [
        "pw-never-logged",
        "wrong-pass-never-logged",
        "secret-pass",
        &hash,
        "$argon2id$",
        token.trim_start_matches("cardio_session="),
        "ana.log@clinic.test",
        "@clinic.test",
        "Ana Ruiz",
    ] {
        assert!(!logs.contains(secret), "{secret} appears in the logs");
    }
}
