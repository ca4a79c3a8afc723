//! `cardio admin grant|revoke|list` as an operator runs them, on the same database as `serve`.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "cardio-cli-admin-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn database_url(dir: &Path) -> String {
    format!("sqlite://{}/cardio.db", dir.display())
}

fn admin(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardio"))
        .arg("admin")
        .args(args)
        .env("DATABASE_URL", database_url(dir))
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Two doctors, the first the administrator (as the first account of an installation is).
fn two_doctors(dir: &Path) {
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let db = cardio_server::platform::db::Db::connect(&database_url(dir))
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO users (id, email, password_hash, role, is_admin, created_at, updated_at) \
             VALUES ('u1', 'ana@clinic.test', 'x', 'doctor', 1, 1, 1), \
             ('u2', 'bea@clinic.test', 'x', 'doctor', 0, 2, 2)",
        )
        .execute(&db.pool)
        .await
        .unwrap();
        db.pool.close().await;
    });
}

#[test]
fn grants_lists_and_revokes_but_never_the_last_administrator() {
    let dir = temp_dir();
    two_doctors(&dir);

    let granted = admin(&dir, &["grant", "Bea@Clinic.test"]);
    let again = admin(&dir, &["grant", "bea@clinic.test"]);
    let listed = admin(&dir, &["list"]);
    let revoked = admin(&dir, &["revoke", "ana@clinic.test"]);
    let not_one = admin(&dir, &["revoke", "ana@clinic.test"]);
    let last = admin(&dir, &["revoke", "bea@clinic.test"]);
    let unknown = admin(&dir, &["grant", "nobody@clinic.test"]);

    assert!(granted.status.success(), "{}", stderr(&granted));
    assert_eq!(
        stdout(&granted),
        "bea@clinic.test is now an administrator\n"
    );
    assert_eq!(
        stdout(&again),
        "bea@clinic.test was already an administrator\n"
    );
    assert_eq!(
        stdout(&listed),
        "ana@clinic.test\tdoctor\nbea@clinic.test\tdoctor\n"
    );
    assert_eq!(
        stdout(&revoked),
        "ana@clinic.test is no longer an administrator\n"
    );
    assert_eq!(
        stdout(&not_one),
        "ana@clinic.test was not an administrator\n"
    );
    assert!(!last.status.success());
    assert_eq!(
        stderr(&last).trim(),
        "Error: bea@clinic.test is the last administrator; grant another account first"
    );
    assert!(!unknown.status.success());
    assert_eq!(
        stderr(&unknown).trim(),
        "Error: no account with the e-mail address nobody@clinic.test"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
