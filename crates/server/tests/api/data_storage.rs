//! Data & Storage (issue 9 parts 5 and 6): blobs encrypted at rest, the Data Encryption and Auto
//! Backup settings, backups and their restore into an empty data folder.

use std::{fmt::Write as _, time::Duration};

use axum::http::{Method, StatusCode};
use cardio_server::{
    admin::backup::{self, POSTGRES_BACKUPS},
    platform::blobs::{BlobStore, DataKey, KEY_FILE, MAGIC},
    platform::db::Db,
    platform::error::STORED_FILE_TAMPERED,
    AppState,
};
use serde_json::{json, Value};

use crate::{
    helpers::{merge, patient_form, Backend, Part, TestApp},
    predict::{csv_recording, echo_models, with_echo},
};

crate::backend_tests!(
    an_encrypted_blob_holds_none_of_its_plain_bytes_and_a_flipped_byte_is_refused,
    clear_blobs_written_with_encryption_off_stay_readable_after_turning_it_on,
    a_user_gets_403_on_the_backup_and_encryption_endpoints,
    data_settings_default_on_and_changes_are_audited,
    backups_on_postgresql_are_the_operators_job,
    the_daily_backup_follows_the_servers_clock_and_keeps_the_newest,
    backup_then_restore_into_an_empty_data_folder_gives_back_identical_data,
    orphans_are_swept_after_a_day_and_never_backed_up,
    an_unwritable_recording_store_answers_503_with_its_reason,
);

/// Issue 37 §3: a read-only data folder answered an upload "Internal server error." (500).
pub async fn an_unwritable_recording_store_answers_503_with_its_reason(mut app: TestApp) {
    // A blob folder in which nothing can be created, for root too (a mode of 0555 does not stop
    // root): a link to sysfs, where creating a folder is refused.
    if !std::path::Path::new("/sys/fs").is_dir() {
        eprintln!("skipped: no /sys/fs to make an unwritable folder with");
        return;
    }
    with_echo(&mut app);
    app.signed_in_doctor().await;
    std::fs::create_dir_all(&app.config.data_dir).unwrap();
    std::os::unix::fs::symlink("/sys/fs", app.config.data_dir.join("blobs")).unwrap();

    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file("ecg.csv", Some("text/csv"), csv_recording(4.0))],
        )
        .await;

    assert_eq!(
        response.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        response.text
    );
    assert_eq!(
        response.detail(),
        "The recording store cannot be written (its folder is read-only or not permitted), so \
         nothing was saved. Please tell the server's administrator."
    );
    assert_eq!(app.get("/api/analyses").await.json(), json!([]));
}

/// Uploads an ECG CSV for the signed-in doctor and returns its analysis (JSON) and blob hash.
async fn upload(app: &mut TestApp, name: &str, bytes: Vec<u8>) -> (Value, String) {
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(name, Some("text/csv"), bytes)],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let list = app.get("/api/analyses").await.json();
    let analysis = list
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["fileName"] == name)
        .unwrap()
        .clone();
    let sha = analysis["fileSha256"].as_str().unwrap().to_owned();
    (analysis, sha)
}

async fn set_data_settings(app: &mut TestApp, encrypt: bool, auto_backup: bool) -> Value {
    let response = app
        .request(
            Method::PUT,
            "/api/system/data-settings",
            Some(json!({"encrypt_blobs": encrypt, "auto_backup": auto_backup})),
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json()
}

async fn waveform(app: &mut TestApp, analysis: &Value) -> crate::helpers::TestResponse {
    let id = analysis["id"].as_str().unwrap();
    app.get(&format!("/api/analyses/{id}/waveform")).await
}

/// A distinctive recording: a CSV whose values no other test writes.
fn distinctive_csv() -> Vec<u8> {
    let mut text = String::from("time,ECG\n");
    for i in 0..1500 {
        let t = f64::from(i) / 250.0;
        let _ = writeln!(text, "{t:.3},{:.6}", (t * 7.3).sin() * 0.8123 + 0.0417);
    }
    text.into_bytes()
}

pub async fn an_encrypted_blob_holds_none_of_its_plain_bytes_and_a_flipped_byte_is_refused(
    mut app: TestApp,
) {
    // Arrange
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let plain = distinctive_csv();
    // Act
    let (analysis, sha) = upload(&mut app, "holter.csv", plain.clone()).await;
    // Assert: on disk, the header and none of the plain bytes (no 24-byte window of them).
    let path = BlobStore::new(&app.config.data_dir).path_of(&sha);
    let stored = std::fs::read(&path).unwrap();
    assert!(stored.starts_with(&MAGIC));
    for window in plain.windows(24).step_by(7) {
        assert!(
            !stored.windows(24).any(|w| w == window),
            "plain bytes found on disk"
        );
    }
    assert!(!stored.windows(9).any(|w| w == b"time,ECG\n"));
    // It is served decrypted.
    assert_eq!(waveform(&mut app, &analysis).await.status, StatusCode::OK);
    assert_eq!(
        BlobStore::new(&app.config.data_dir).get(&sha).unwrap(),
        plain
    );
    // A flipped byte in the middle of the ciphertext is refused with its message, never served.
    let mut altered = stored.clone();
    let middle = altered.len() / 2;
    altered[middle] ^= 0x20;
    std::fs::write(&path, &altered).unwrap();
    let response = waveform(&mut app, &analysis).await;
    assert_eq!(response.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(response.detail(), STORED_FILE_TAMPERED);
    assert!(!response.text.contains("0.0417"));
    assert!(crate::helpers::captured_logs().contains("failed its integrity check"));
    // A flipped byte of the tag too.
    let mut altered = stored;
    let last = altered.len() - 1;
    altered[last] ^= 0x01;
    std::fs::write(&path, &altered).unwrap();
    assert_eq!(
        waveform(&mut app, &analysis).await.detail(),
        STORED_FILE_TAMPERED
    );
}

pub async fn clear_blobs_written_with_encryption_off_stay_readable_after_turning_it_on(
    mut app: TestApp,
) {
    // Arrange: encryption off, one upload.
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let saved = set_data_settings(&mut app, false, true).await;
    assert_eq!(saved["encrypt_blobs"], false);
    let clear = csv_recording(5.0);
    let (clear_analysis, clear_sha) = upload(&mut app, "clear.csv", clear.clone()).await;
    let store = BlobStore::new(&app.config.data_dir);
    assert_eq!(std::fs::read(store.path_of(&clear_sha)).unwrap(), clear);
    // Act: encryption back on, another upload.
    set_data_settings(&mut app, true, true).await;
    let sealed = csv_recording(6.5);
    let (_, sealed_sha) = upload(&mut app, "sealed.csv", sealed.clone()).await;
    // Assert: the old clear blob is still read; the new one is encrypted.
    assert_eq!(
        waveform(&mut app, &clear_analysis).await.status,
        StatusCode::OK
    );
    assert_eq!(store.get(&clear_sha).unwrap(), clear);
    let on_disk = std::fs::read(store.path_of(&sealed_sha)).unwrap();
    assert!(on_disk.starts_with(&MAGIC));
    assert_eq!(store.get(&sealed_sha).unwrap(), sealed);
    // A clear blob altered on disk is refused too (its SHA-256 no longer matches its name).
    let mut altered = clear.clone();
    altered[20] ^= 0x01;
    std::fs::write(store.path_of(&clear_sha), &altered).unwrap();
    assert_eq!(
        waveform(&mut app, &clear_analysis).await.detail(),
        STORED_FILE_TAMPERED
    );
}

pub async fn a_user_gets_403_on_the_backup_and_encryption_endpoints(mut app: TestApp) {
    for (method, path) in [
        (Method::GET, "/api/system/data-settings"),
        (Method::GET, "/api/system/backups"),
        (Method::POST, "/api/system/backups"),
    ] {
        let response = app.request(method, path, None).await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    // The installation's first account (the administrator) is a doctor's.
    app.signed_in_doctor().await;
    app.logout().await;
    let email = format!("user-{}@example.com", uuid::Uuid::new_v4().simple());
    app.signup("Pat Doe", &email, "secret-pass", "user").await;
    let body = json!({"encrypt_blobs": false, "auto_backup": false});
    for (method, path, body) in [
        (Method::GET, "/api/system/data-settings", None),
        (Method::PUT, "/api/system/data-settings", Some(body)),
        (Method::GET, "/api/system/backups", None),
        (Method::POST, "/api/system/backups", None),
    ] {
        let response = app.request(method, path, body).await;
        assert_eq!(response.status, StatusCode::FORBIDDEN, "{path}");
    }
    assert!(backup::list(&app.config.data_dir).unwrap().is_empty());
    // Nothing changed.
    let (settings, _) = cardio_server::admin::data_settings::load(&app.db)
        .await
        .unwrap();
    assert!(settings.encrypt_blobs && settings.auto_backup);
}

pub async fn data_settings_default_on_and_changes_are_audited(mut app: TestApp) {
    app.signed_in_doctor().await;
    let settings = app.get("/api/system/data-settings").await.json();
    assert_eq!(settings["encrypt_blobs"], true);
    assert_eq!(settings["auto_backup"], true);
    assert_eq!(settings["key_source"], "key_file");
    assert_eq!(settings["updated_at"], Value::Null);
    let saved = set_data_settings(&mut app, false, false).await;
    assert_eq!(saved["encrypt_blobs"], false);
    assert_eq!(saved["auto_backup"], false);
    assert!(saved["updated_at"].is_string());
    // Server-wide: another administrator sees the change.
    app.logout().await;
    let other = app.signed_in_doctor().await;
    cardio_server::accounts::auth::admin::grant(&app.db, &other, 1)
        .await
        .unwrap();
    let seen = app.get("/api/system/data-settings").await.json();
    assert_eq!(seen["encrypt_blobs"], false);
    let response = app
        .request(
            Method::PUT,
            "/api/system/data-settings",
            Some(json!({"encrypt_blobs": "yes"})),
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    set_data_settings(&mut app, true, true).await;
    assert_eq!(
        app.audit_actions().await,
        vec!["update administrator_granted", "update data_settings"]
    );
}

pub async fn backups_on_postgresql_are_the_operators_job(mut app: TestApp) {
    app.signed_in_doctor().await;
    let list = app.get("/api/system/backups").await.json();
    let made = app.request(Method::POST, "/api/system/backups", None).await;
    match app.backend {
        Backend::Postgres => {
            assert_eq!(list["database"], "postgres");
            assert_eq!(list["supported"], false);
            assert_eq!(list["auto_backup"], false);
            assert_eq!(list["note"], POSTGRES_BACKUPS);
            assert_eq!(list["backups"], json!([]));
            assert_eq!(made.status, StatusCode::CONFLICT);
            assert_eq!(made.detail(), POSTGRES_BACKUPS);
            assert!(POSTGRES_BACKUPS.contains("pg_dump"));
            assert!(!app.config.data_dir.join("backups").exists());
        }
        Backend::Sqlite => {
            assert_eq!(list["database"], "sqlite");
            assert_eq!(list["supported"], true);
            assert_eq!(list["note"], Value::Null);
            assert_eq!(list["last_backup_at"], Value::Null);
            assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        }
    }
}

pub async fn the_daily_backup_follows_the_servers_clock_and_keeps_the_newest(mut app: TestApp) {
    // Arrange: the server's state over the test's database and clock, keeping 2 backups.
    let admin = app.signed_in_doctor().await;
    let mut config = app.config.clone();
    config.backup_keep = 2;
    let mut state = AppState::new(app.db.clone(), config);
    state.clock = app.clock.clone();
    let day = Duration::from_hours(24);
    // Act and assert.
    let first = backup::run_if_due(&state).await.unwrap();
    if app.backend == Backend::Postgres {
        assert!(first.is_none(), "no backups on PostgreSQL");
        app.clock.advance(day);
        assert!(backup::run_if_due(&state).await.unwrap().is_none());
        return;
    }
    let first = first.expect("the first check makes one");
    assert!(
        backup::run_if_due(&state).await.unwrap().is_none(),
        "not due"
    );
    app.clock.advance(Duration::from_hours(23));
    assert!(backup::run_if_due(&state).await.unwrap().is_none(), "23 h");
    app.clock.advance(Duration::from_hours(2));
    let second = backup::run_if_due(&state).await.unwrap().expect("25 h");
    app.clock.advance(day);
    let third = backup::run_if_due(&state).await.unwrap().expect("49 h");
    let kept: Vec<String> = backup::list(&app.config.data_dir)
        .unwrap()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(kept, vec![third.id.clone(), second.id.clone()]);
    assert!(!app.config.data_dir.join("backups").join(&first.id).exists());
    // Two days passed on the server's clock: the session timed out.
    app.login(&admin, "secret-pass").await;
    let list = app.get("/api/system/backups").await.json();
    assert_eq!(list["keep"], 7, "the API's state keeps the default");
    assert_eq!(list["last_backup_at"], third.created_at.as_str());
    assert_eq!(list["backups"].as_array().unwrap().len(), 2);
    // Turned off: nothing more, however long it waits.
    set_data_settings(&mut app, true, false).await;
    app.clock.advance(day * 3);
    assert!(backup::run_if_due(&state).await.unwrap().is_none());
    app.login(&admin, "secret-pass").await;
    assert_eq!(
        app.get("/api/system/backups").await.json()["auto_backup"],
        false
    );
}

pub async fn backup_then_restore_into_an_empty_data_folder_gives_back_identical_data(
    mut app: TestApp,
) {
    if app.backend == Backend::Postgres {
        return; // PostgreSQL backups are the operator's (see the test above).
    }
    // Arrange: patients, a screening, analyses, an encrypted and a clear blob.
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    app.create_patient(merge(
        patient_form(),
        json!({"firstName": "Jon", "lastName": "Ode"}),
    ))
    .await;
    let (sealed_analysis, sealed_sha) = upload(&mut app, "sealed.csv", distinctive_csv()).await;
    set_data_settings(&mut app, false, true).await;
    let (_, clear_sha) = upload(&mut app, "clear.csv", csv_recording(4.0)).await;
    let patients = app.get("/api/patients").await.json();
    let analyses = app.get("/api/analyses").await.json();
    let one_patient = app.get(&format!("/api/patients/{patient}")).await.json();
    let original = BlobStore::new(&app.config.data_dir);
    let blobs = [
        original.get(&sealed_sha).unwrap(),
        original.get(&clear_sha).unwrap(),
    ];
    // Act: a backup through the API.
    let made = app.request(Method::POST, "/api/system/backups", None).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let made = made.json();
    let id = made["id"].as_str().unwrap().to_owned();
    assert_eq!(made["counts"]["patients"], 2);
    assert_eq!(made["counts"]["analyses"], 2);
    assert_eq!(made["counts"]["blobs"], 2);
    assert_eq!(made["encrypted_blobs"], 1);
    let list = app.get("/api/system/backups").await.json();
    assert_eq!(list["backups"][0]["id"], id.as_str());
    assert!(list["backups"][0]["size_bytes"].as_u64().unwrap() > 0);
    assert!(app
        .audit_actions()
        .await
        .contains(&"export backup".to_owned()));
    let backup_dir = app.config.data_dir.join("backups").join(&id);
    let manifest = backup::read_manifest(&backup_dir).unwrap();
    assert_eq!(
        manifest.key_fingerprint,
        original.key_fingerprint().unwrap()
    );
    assert!(
        !backup_dir.join(KEY_FILE).exists()
            && !manifest.files.iter().any(|f| f.path.contains("key")),
        "the key is not in the backup"
    );

    // Refused: a non-empty data folder, no key, another key, a damaged file.
    let target = app
        .config
        .data_dir
        .join(format!("restored-{}", uuid::Uuid::new_v4().simple()));
    let url = format!("sqlite://{}/cardio.db", target.display());
    let refused = backup::restore(&backup_dir, &app.config.data_dir, &url, None)
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("is not empty"), "{refused}");
    let refused = backup::restore(&backup_dir, &target, &url, None)
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("CARDIO_DATA_KEY"), "{refused}");
    let refused = backup::restore(&backup_dir, &target, &url, Some(DataKey::generate()))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("is not the key of this backup"),
        "{refused}"
    );
    let db_copy = backup_dir.join("cardio.db");
    let pristine = std::fs::read(&db_copy).unwrap();
    let mut damaged = pristine.clone();
    damaged[200] ^= 0x01;
    std::fs::write(&db_copy, &damaged).unwrap();
    std::fs::create_dir_all(&target).unwrap();
    std::fs::copy(app.config.data_dir.join(KEY_FILE), target.join(KEY_FILE)).unwrap();
    let refused = backup::restore(&backup_dir, &target, &url, None)
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("does not match the manifest"), "{refused}");
    std::fs::write(&db_copy, &pristine).unwrap();
    assert_eq!(
        std::fs::read_dir(&target).unwrap().count(),
        1,
        "nothing copied"
    );

    // Act: restore into the empty folder holding only the key file.
    let restored = backup::restore(&backup_dir, &target, &url, None)
        .await
        .unwrap();
    assert_eq!(restored.counts, manifest.counts);

    // Assert: a server on the restored folder gives back the same data and files.
    let db = Db::connect(&url).await.unwrap();
    app.db = db.clone();
    let mut config = app.config.clone();
    config.data_dir = target.clone();
    config.database_url = url;
    app.rebuild(config, echo_models());
    assert_eq!(app.get("/api/patients").await.json(), patients);
    assert_eq!(app.get("/api/analyses").await.json(), analyses);
    assert_eq!(
        app.get(&format!("/api/patients/{patient}")).await.json(),
        one_patient
    );
    assert_eq!(
        waveform(&mut app, &sealed_analysis).await.status,
        StatusCode::OK
    );
    let copy = BlobStore::new(&target);
    assert_eq!(copy.get(&sealed_sha).unwrap(), blobs[0]);
    assert_eq!(copy.get(&clear_sha).unwrap(), blobs[1]);
    assert_eq!(
        std::fs::read(copy.path_of(&sealed_sha)).unwrap(),
        std::fs::read(original.path_of(&sealed_sha)).unwrap()
    );
    db.pool.close().await;
}

/// Sets a file's modification time `by` into the past.
fn age(path: &std::path::Path, by: Duration) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - by)
        .unwrap();
}

pub async fn orphans_are_swept_after_a_day_and_never_backed_up(mut app: TestApp) {
    // Arrange: one real upload, one orphan (as a server killed between writing the file and
    // committing its analysis leaves), one temporary file of an interrupted write, all old.
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let (analysis, kept) = upload(&mut app, "a.csv", csv_recording(3.0)).await;
    let state = AppState::with_models(app.db.clone(), app.config.clone(), echo_models());
    let orphan = state.blobs.put(b"written, never committed").unwrap();
    let tmp = state
        .blobs
        .path_of(&orphan)
        .with_file_name(format!(".{orphan}.interrupted.tmp"));
    std::fs::write(&tmp, b"half a fi").unwrap();
    let two_days = Duration::from_hours(48);
    for path in [
        state.blobs.path_of(&kept),
        state.blobs.path_of(&orphan),
        tmp.clone(),
    ] {
        age(&path, two_days);
    }

    // Backups (SQLite) copy only what an analysis names.
    if app.backend == Backend::Sqlite {
        let made = backup::create(&app.db, &app.config.data_dir, &state.blobs, 1, 7)
            .await
            .unwrap();
        assert_eq!(made.counts.blobs, 1);
        let copied = backup::backups_dir(&app.config.data_dir)
            .join(&made.id)
            .join("blobs")
            .join(&orphan[..2])
            .join(&orphan);
        assert!(!copied.exists());
    }

    let swept = cardio_server::admin::orphans::sweep(&state).await.unwrap();

    assert_eq!(swept.orphans, 1);
    assert_eq!(swept.temporary, 1);
    assert!(!state.blobs.path_of(&orphan).exists());
    assert!(!tmp.exists());
    assert_eq!(waveform(&mut app, &analysis).await.status, StatusCode::OK);
    // Nothing left to sweep.
    assert_eq!(
        cardio_server::admin::orphans::sweep(&state).await.unwrap(),
        cardio_server::admin::orphans::Swept::default()
    );
}
