//! `GET /api/health`.

use axum::http::StatusCode;

use cardio_server::platform::lease;

use crate::helpers::{Backend, TestApp};

crate::backend_tests!(
    health_reports_ok_and_the_database,
    a_task_lease_has_one_holder_at_a_time_until_it_expires,
);

pub async fn health_reports_ok_and_the_database(mut app: TestApp) {
    let response = app.get("/api/health").await;

    assert_eq!(response.status, StatusCode::OK);
    let body = response.json();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    let expected = match app.backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    assert_eq!(body["database"], expected);
    // Tests run a debug build with no CARDIO_ENV.
    assert_eq!(body["environment"], "development");
    // The instance names itself (the same on every call) and where it keeps recordings.
    let instance = body["instance"].as_str().unwrap().to_owned();
    assert_eq!(instance.len(), 36, "{instance}");
    assert_eq!(app.get("/api/health").await.json()["instance"], instance);
    assert_eq!(body["blobs"], "local");
}

/// Two instances on one database (`a`, `b`): the daily backup or the orphan sweep runs on one only.
pub async fn a_task_lease_has_one_holder_at_a_time_until_it_expires(app: TestApp) {
    let db = &app.db;
    let ttl = 60_000;
    let t0 = 1_000_000;
    assert!(lease::try_acquire(db, "daily-backup", "a", t0, ttl)
        .await
        .unwrap());
    assert!(!lease::try_acquire(db, "daily-backup", "b", t0 + 1, ttl)
        .await
        .unwrap());
    // Another task is free; the holder renews its own.
    assert!(lease::try_acquire(db, "orphan-sweep", "b", t0 + 1, ttl)
        .await
        .unwrap());
    assert!(
        lease::try_acquire(db, "daily-backup", "a", t0 + 30_000, ttl)
            .await
            .unwrap()
    );
    // Renewed until t0 + 90 s: still a's at t0 + 80 s, b's once it lapses (a crashed holder).
    assert!(
        !lease::try_acquire(db, "daily-backup", "b", t0 + 80_000, ttl)
            .await
            .unwrap()
    );
    assert!(
        lease::try_acquire(db, "daily-backup", "b", t0 + 90_000, ttl)
            .await
            .unwrap()
    );
    assert!(
        !lease::try_acquire(db, "daily-backup", "a", t0 + 90_001, ttl)
            .await
            .unwrap()
    );
    // Given up, it is free at once; a release by a non-holder changes nothing.
    lease::release(db, "daily-backup", "a").await.unwrap();
    assert!(
        !lease::try_acquire(db, "daily-backup", "a", t0 + 90_002, ttl)
            .await
            .unwrap()
    );
    lease::release(db, "daily-backup", "b").await.unwrap();
    assert!(
        lease::try_acquire(db, "daily-backup", "a", t0 + 90_003, ttl)
            .await
            .unwrap()
    );
}
