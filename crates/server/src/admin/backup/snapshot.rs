//! Taking a backup: the database by `VACUUM INTO`, the blobs it names, the manifest, assembled under
//! a `.partial-` name and renamed when complete (one backup at a time).

use std::{io::Read, path::Path};

use sha2::{Digest, Sha256};
use sqlx::{sqlite::SqliteConnectOptions, ConnectOptions, Connection};

use super::{
    backups_dir, io_error, prune, BackupError, BackupSummary, Counts, Manifest, ManifestFile,
    DATABASE_FILE, MANIFEST, MANIFEST_FORMAT,
};
use crate::{
    platform::blobs::BlobStore,
    platform::db::{ms_to_rfc3339, Backend, Db},
};

/// One backup at a time per process (the API, the daily task).
static BACKUP_LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Makes a backup of a SQLite database and the blob store of `blobs` into
/// `<data_dir>/backups/<UTC time of now_ms>/`, then keeps only the newest `keep` (at least one).
///
/// # Errors
/// [`BackupError::Postgres`] on PostgreSQL; database and I/O errors.
pub async fn create(
    db: &Db,
    data_dir: &Path,
    blobs: &BlobStore,
    now_ms: i64,
    keep: usize,
) -> Result<BackupSummary, BackupError> {
    if db.backend != Backend::Sqlite {
        return Err(BackupError::Postgres);
    }
    if blobs.remote().is_some() {
        return Err(BackupError::Bucket);
    }
    let _one_at_a_time = BACKUP_LOCK.lock().await;
    let dir = backups_dir(data_dir);
    std::fs::create_dir_all(&dir).map_err(io_error(format!("cannot create {}", dir.display())))?;
    let id = unique_name(&dir, now_ms);
    let staging = dir.join(format!(".partial-{id}"));
    std::fs::create_dir_all(&staging)
        .map_err(io_error(format!("cannot create {}", staging.display())))?;
    let made = async {
        // 1. The database: VACUUM INTO writes a consistent copy while others keep writing.
        let db_copy = staging.join(DATABASE_FILE);
        sqlx::query("VACUUM INTO $1")
            .bind(db_copy.to_string_lossy().into_owned())
            .execute(&db.pool)
            .await?;
        let mut counts = count_rows(&db_copy).await?;
        // Only the files the copied database names: an orphan (see `crate::admin::orphans`) is not
        // part of the data.
        let referenced = referenced_in(&db_copy).await?;
        // 2. The blobs (after the database: every blob it names exists already), the hashes and
        // the manifest, on the blocking pool.
        let blob_root = blobs.root().to_path_buf();
        let fingerprint = {
            let blobs = blobs.clone();
            tokio::task::spawn_blocking(move || blobs.key_fingerprint())
                .await
                .map_err(|e| BackupError::Manifest(format!("blocking task: {e}")))??
        };
        let staging_dir = staging.clone();
        tokio::task::spawn_blocking(move || {
            let (files, encrypted_blobs, blob_count) =
                copy_files(&blob_root, &staging_dir, &referenced)?;
            counts.blobs = blob_count;
            let manifest = Manifest {
                format: MANIFEST_FORMAT,
                created_at: ms_to_rfc3339(now_ms),
                created_at_ms: now_ms,
                cardio_version: env!("CARGO_PKG_VERSION").into(),
                database: Backend::Sqlite.name().into(),
                counts,
                key_fingerprint: fingerprint,
                encrypted_blobs,
                files,
            };
            let text = serde_json::to_string_pretty(&manifest)
                .map_err(|e| BackupError::Manifest(e.to_string()))?;
            let path = staging_dir.join(MANIFEST);
            std::fs::write(&path, text)
                .map_err(io_error(format!("cannot write {}", path.display())))?;
            Ok::<_, BackupError>(manifest)
        })
        .await
        .map_err(|e| BackupError::Manifest(format!("blocking task: {e}")))?
    }
    .await;
    let manifest = match made {
        Ok(manifest) => manifest,
        Err(err) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(err);
        }
    };
    let final_dir = dir.join(&id);
    std::fs::rename(&staging, &final_dir)
        .map_err(io_error(format!("cannot rename {}", staging.display())))?;
    prune(data_dir, keep)?;
    tracing::info!(backup = %id, size_bytes = manifest.size_bytes(), "backup made");
    Ok(BackupSummary::new(id, &manifest))
}

/// A folder name for `now_ms` (`2026-11-23T15-26-33.123Z`, sortable, no colons), with `-2`, `-3`…
/// when one of that name exists.
pub(super) fn unique_name(dir: &Path, now_ms: i64) -> String {
    let base = ms_to_rfc3339(now_ms).replace(':', "-");
    let mut name = base.clone();
    let mut n = 2;
    while dir.join(&name).exists() || dir.join(format!(".partial-{name}")).exists() {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

/// Counts the rows of a copied database, opened read-only.
pub(super) async fn count_rows(path: &Path) -> Result<Counts, BackupError> {
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await?;
    let mut found = [0i64; 4];
    for (n, table) in ["users", "patients", "screenings", "analyses"]
        .iter()
        .enumerate()
    {
        found[n] = sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&mut conn)
            .await?;
    }
    conn.close().await?;
    let [users, patients, screenings, analyses] = found;
    let counts = Counts {
        users,
        patients,
        screenings,
        analyses,
        blobs: 0,
    };
    Ok(counts)
}

/// The blob hashes the database copy at `path` names.
async fn referenced_in(path: &Path) -> Result<std::collections::HashSet<String>, BackupError> {
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await?;
    let rows: Vec<(Option<String>, Option<String>)> =
        sqlx::query_as(crate::admin::orphans::REFERENCED_SQL)
            .fetch_all(&mut conn)
            .await?;
    conn.close().await?;
    Ok(crate::admin::orphans::collect(rows))
}

/// Links (or copies) every blob file the database names into `staging/blobs/`, hashes it and
/// the database copy. Returns the manifest's files, how many blobs are encrypted and how many
/// there are.
fn copy_files(
    blob_root: &Path,
    staging: &Path,
    referenced: &std::collections::HashSet<String>,
) -> Result<(Vec<ManifestFile>, u64, i64), BackupError> {
    let mut files = vec![hash_file(staging, DATABASE_FILE)?.0];
    let (mut encrypted, mut count) = (0, 0);
    let shards = match std::fs::read_dir(blob_root) {
        Ok(shards) => shards.flatten().collect::<Vec<_>>(),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(err) => {
            return Err(io_error(format!("cannot list {}", blob_root.display()))(
                err,
            ))
        }
    };
    for shard in shards {
        let shard_name = shard.file_name().to_string_lossy().into_owned();
        if !shard.path().is_dir() || shard_name.starts_with('.') {
            continue;
        }
        let target_dir = staging.join("blobs").join(&shard_name);
        std::fs::create_dir_all(&target_dir)
            .map_err(io_error(format!("cannot create {}", target_dir.display())))?;
        let entries = std::fs::read_dir(shard.path())
            .map_err(io_error(format!("cannot list {}", shard.path().display())))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            // Temporary files of a write in progress start with a dot; orphans are named by
            // no analysis.
            if !crate::admin::orphans::is_referenced(&name, referenced) || !entry.path().is_file() {
                continue;
            }
            let target = target_dir.join(&name);
            if std::fs::hard_link(entry.path(), &target).is_err() {
                std::fs::copy(entry.path(), &target)
                    .map_err(io_error(format!("cannot copy {}", entry.path().display())))?;
            }
            let (file, is_encrypted) = hash_file(staging, &format!("blobs/{shard_name}/{name}"))?;
            files.push(file);
            count += 1;
            encrypted += u64::from(is_encrypted);
        }
    }
    Ok((files, encrypted, count))
}

/// The size and SHA-256 of `base/relative`, and whether it begins with the encryption magic.
pub(super) fn hash_file(base: &Path, relative: &str) -> Result<(ManifestFile, bool), BackupError> {
    let path = base.join(relative);
    let mut file =
        std::fs::File::open(&path).map_err(io_error(format!("cannot read {}", path.display())))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut size = 0u64;
    let mut head = Vec::new();
    loop {
        let n = file
            .read(&mut buffer)
            .map_err(io_error(format!("cannot read {}", path.display())))?;
        if n == 0 {
            break;
        }
        if head.len() < crate::platform::blobs::MAGIC.len() {
            head.extend_from_slice(&buffer[..n.min(crate::platform::blobs::MAGIC.len())]);
        }
        hasher.update(&buffer[..n]);
        size += n as u64;
    }
    let sha256 = crate::platform::blobs::to_hex(&hasher.finalize());
    Ok((
        ManifestFile {
            path: relative.to_owned(),
            size,
            sha256,
        },
        BlobStore::is_encrypted(&head),
    ))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::sqlite_path;
    use super::*;

    #[test]
    fn sqlite_paths_come_from_the_url() {
        assert_eq!(
            sqlite_path("sqlite://./data/cardio.db").unwrap(),
            PathBuf::from("./data/cardio.db")
        );
        assert_eq!(
            sqlite_path("sqlite:/tmp/x.db?mode=rwc").unwrap(),
            PathBuf::from("/tmp/x.db")
        );
        assert!(sqlite_path("postgres://h/db").is_err());
        assert!(sqlite_path("sqlite::memory:").is_err());
    }

    #[test]
    fn backup_names_sort_by_time_and_never_collide() {
        let dir = std::env::temp_dir().join(format!("cardio-backups-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = unique_name(&dir, 1_700_000_000_000);
        assert_eq!(first, "2023-11-14T22-13-20.000Z");
        std::fs::create_dir(dir.join(&first)).unwrap();
        assert_eq!(unique_name(&dir, 1_700_000_000_000), format!("{first}-2"));
        assert!(unique_name(&dir, 1_700_000_000_001) > first);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
