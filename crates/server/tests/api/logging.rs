//! Logs never carry a password, its hash, a session token or an email.

use std::{
    io::Write,
    sync::{Arc, Mutex},
};

use crate::helpers::{Backend, TestApp};

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn no_password_hash_token_or_email_in_any_log_line() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let mut app = TestApp::spawn(Backend::Sqlite, cardio_server::config::Config::default())
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

    let logs = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("account created"),
        "logging was captured: {logs}"
    );
    assert!(logs.contains("signed in"));
    for secret in [
        "pw-never-logged",
        "wrong-pass-never-logged",
        &hash,
        "$argon2id$",
        token.trim_start_matches("cardio_session="),
        "ana.log@clinic.test",
        "Ana Ruiz",
    ] {
        assert!(!logs.contains(secret), "{secret} appears in the logs");
    }
}
