//! Restoring a backup into an empty data folder, after checking its files against the manifest and
//! the data key against the backup's fingerprint.

use std::path::Path;

use super::snapshot::{count_rows, hash_file};
use super::{
    io_error, read_manifest, sqlite_path, BackupError, Manifest, ManifestFile, DATABASE_FILE,
};
use crate::platform::blobs::{BlobStore, DataKey, KEY_FILE};

/// Restores the backup in `backup_dir` into an empty `data_dir` and a new SQLite database at
/// `database_url`, after checking every file against the manifest and the data key against the
/// manifest's fingerprint. `key` is the configured `CARDIO_DATA_KEY`; without one, the key file
/// put into `data_dir` is used. Returns the manifest restored.
///
/// # Errors
/// See [`BackupError`]: a non-SQLite URL, a non-empty data folder, an existing database file, a
/// damaged backup, a missing or different key.
pub async fn restore(
    backup_dir: &Path,
    data_dir: &Path,
    database_url: &str,
    key: Option<DataKey>,
) -> Result<Manifest, BackupError> {
    let db_path = sqlite_path(database_url)?;
    let manifest = read_manifest(backup_dir)?;
    // The target: nothing but, possibly, the key file.
    if let Ok(entries) = std::fs::read_dir(data_dir) {
        if entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy() != KEY_FILE)
        {
            return Err(BackupError::NotEmpty(data_dir.to_path_buf()));
        }
    }
    if db_path.exists() {
        return Err(BackupError::DatabaseExists(db_path));
    }
    // The key, before copying anything.
    let store = BlobStore::with_key(data_dir, key);
    if manifest.encrypted_blobs > 0 {
        let backup_fingerprint = manifest.key_fingerprint.clone().unwrap_or_default();
        match store.key_fingerprint()? {
            None => return Err(BackupError::KeyNeeded(backup_fingerprint)),
            Some(configured) if configured != backup_fingerprint => {
                return Err(BackupError::KeyMismatch {
                    configured,
                    backup: backup_fingerprint,
                })
            }
            Some(_) => {}
        }
    }
    let backup = backup_dir.to_path_buf();
    let target = data_dir.to_path_buf();
    let files = manifest.files.clone();
    let db_target = db_path.clone();
    tokio::task::spawn_blocking(move || copy_back(&backup, &files, &target, &db_target))
        .await
        .map_err(|e| BackupError::Manifest(format!("blocking task: {e}")))??;
    // The copy must hold what the manifest says.
    let mut counts = count_rows(&db_path).await?;
    counts.blobs = manifest.counts.blobs;
    if counts != manifest.counts {
        return Err(BackupError::Damaged(format!(
            "the database holds {counts:?}, the manifest says {:?}",
            manifest.counts
        )));
    }
    tracing::info!(created_at = %manifest.created_at, "backup restored");
    Ok(manifest)
}

/// Checks every file of the backup (size and SHA-256) and only then copies them into place.
fn copy_back(
    backup: &Path,
    files: &[ManifestFile],
    data_dir: &Path,
    db_path: &Path,
) -> Result<(), BackupError> {
    for file in files {
        let safe = !file.path.is_empty()
            && !file.path.starts_with('/')
            && file
                .path
                .split('/')
                .all(|part| !part.is_empty() && part != "." && part != "..");
        if !safe {
            return Err(BackupError::Damaged(format!(
                "the manifest names an unsafe path {}",
                file.path
            )));
        }
        if file.path != DATABASE_FILE && !file.path.starts_with("blobs/") {
            return Err(BackupError::Damaged(format!(
                "the manifest names an unexpected file {}",
                file.path
            )));
        }
        let (found, _) = hash_file(backup, &file.path)
            .map_err(|e| BackupError::Damaged(format!("{}: {e}", file.path)))?;
        if found.size != file.size || found.sha256 != file.sha256 {
            return Err(BackupError::Damaged(format!(
                "{} does not match the manifest",
                file.path
            )));
        }
    }
    if !files.iter().any(|f| f.path == DATABASE_FILE) {
        return Err(BackupError::Damaged(
            "the manifest lists no database".into(),
        ));
    }
    std::fs::create_dir_all(data_dir)
        .map_err(io_error(format!("cannot create {}", data_dir.display())))?;
    for file in files {
        let from = backup.join(&file.path);
        let to = if file.path == DATABASE_FILE {
            db_path.to_path_buf()
        } else {
            data_dir.join(&file.path)
        };
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .map_err(io_error(format!("cannot create {}", parent.display())))?;
        }
        let tmp = to.with_extension("restoring");
        std::fs::copy(&from, &tmp).map_err(io_error(format!("cannot copy {}", from.display())))?;
        std::fs::rename(&tmp, &to).map_err(io_error(format!("cannot write {}", to.display())))?;
    }
    Ok(())
}
