//! `cardio backup` and `cardio restore DIR` as a user runs them: a backup lands under the data
//! folder's backups/, restore refuses a non-empty folder and a missing key, and a malformed
//! CARDIO_DATA_KEY stops the command with a clear message.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "cardio-cli-backup-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cardio(args: &[&str], data_dir: &Path, key: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cardio"));
    command
        .args(args)
        .env(
            "DATABASE_URL",
            format!("sqlite://{}/cardio.db", data_dir.display()),
        )
        .env("CARDIO_DATA_DIR", data_dir)
        .env_remove("CARDIO_BACKUP_KEEP")
        .env_remove("RUST_BACKTRACE");
    match key {
        Some(key) => command.env("CARDIO_DATA_KEY", key),
        None => command.env_remove("CARDIO_DATA_KEY"),
    };
    command.output().unwrap()
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Creates the data folder's database with an account and an analysis whose file is `sha`.
fn name_in_an_analysis(data_dir: &Path, sha: &str) {
    let url = format!("sqlite://{}/cardio.db", data_dir.display());
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let db = cardio_server::platform::db::Db::connect(&url).await.unwrap();
        sqlx::query(
            "INSERT INTO users (id, email, password_hash, role, created_at, updated_at) \
             VALUES ('u1', 'ana@clinic.test', 'x', 'doctor', 0, 0)",
        )
        .execute(&db.pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO analyses (id, user_id, modality, file_name, file_sha256, file_size, label, \
             prediction, confidence, risk_score, result_json, model_id, model_version, created_at) \
             VALUES ('a1', 'u1', 'ecg', 'ecg.csv', $1, 19, 'normal', 'Normal', 0.9, 0.1, '{}', \
             'm', '1', 0)",
        )
        .bind(sha)
        .execute(&db.pool)
        .await
        .unwrap();
        db.pool.close().await;
    });
}

#[test]
fn a_backup_is_restored_into_an_empty_folder_and_never_over_data() {
    // Arrange: a data folder with a database and one encrypted blob, under a configured key.
    let root = temp_dir();
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let key = "11".repeat(32);
    let store = cardio_server::platform::blobs::BlobStore::with_key(
        &data,
        Some(cardio_server::platform::blobs::DataKey::parse(&key).unwrap()),
    );
    let sha = store.put(b"time,ECG\n0.000,0.1\n").unwrap();
    // An analysis names it (a backup holds only named files, not orphans).
    name_in_an_analysis(&data, &sha);

    // Act: two backups, keeping one.
    let first = cardio(&["backup"], &data, Some(&key));
    assert!(first.status.success(), "{}", text(&first));
    let second = cardio(&["backup", "--keep", "1"], &data, Some(&key));
    assert!(second.status.success(), "{}", text(&second));

    // Assert: one backup folder, with its manifest.
    let backups: Vec<PathBuf> = std::fs::read_dir(data.join("backups"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(backups.len(), 1, "{backups:?}");
    let backup = backups[0].to_string_lossy().into_owned();
    assert!(backups[0].join("manifest.json").is_file());

    // Refused: the original (non-empty) folder; no key; a malformed key.
    let refused = cardio(&["restore", &backup], &data, Some(&key));
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("is not empty"),
        "{}",
        text(&refused)
    );
    let target = root.join("restored");
    let refused = cardio(&["restore", &backup], &target, None);
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("CARDIO_DATA_KEY"),
        "{}",
        text(&refused)
    );
    let refused = cardio(&["restore", &backup], &target, Some("not-a-key"));
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("64 hexadecimal characters or the base64 of 32 bytes"),
        "{}",
        text(&refused)
    );

    // Restored with the key: the blob reads back.
    let restored = cardio(&["restore", &backup], &target, Some(&key));
    assert!(restored.status.success(), "{}", text(&restored));
    assert!(text(&restored).contains("1 files"), "{}", text(&restored));
    let copy = cardio_server::platform::blobs::BlobStore::with_key(
        &target,
        Some(cardio_server::platform::blobs::DataKey::parse(&key).unwrap()),
    );
    assert_eq!(copy.get(&sha).unwrap(), b"time,ECG\n0.000,0.1\n");
    assert!(target.join("cardio.db").is_file());
    std::fs::remove_dir_all(&root).unwrap();
}
