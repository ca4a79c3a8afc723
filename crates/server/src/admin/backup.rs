//! Backups of a SQLite installation: the database and the blob store, online and consistent, into
//! `<data dir>/backups/<UTC timestamp>/`, and the restore of one into an empty data folder.
//!
//! Made by `POST /api/system/backups` (administrators only, audited), by `cardio backup`, and once a day by
//! [`auto_backup_task`] while the Auto Backup setting is on ([`crate::admin::data_settings`]). A backup is
//!
//! ```text
//! backups/2026-11-23T15-26-33.123Z/
//!   cardio.db        the database, written by SQLite's `VACUUM INTO` (a transactionally consistent
//!                    copy taken while the server keeps serving)
//!   blobs/ab/ab12…   every blob file as stored (encrypted or clear), hard-linked when the backups
//!                    folder is on the same file system (blobs are immutable), copied otherwise
//!   manifest.json    time, server version, row counts, the data key's fingerprint and the size and
//!                    SHA-256 of every file
//! ```
//!
//! The database is copied first and the blobs second: a blob is always written before the row that
//! names it, so every blob the copied database refers to is already there. It is assembled under a
//! `.partial-` name and renamed when complete, so a listed backup is never half written. Only the
//! newest [`crate::platform::config::Config::backup_keep`] are kept.
//!
//! **The data key is not in a backup.** A backup holds the encrypted blobs, and keeping the key beside
//! them would make encryption at rest pointless for anyone who gets the backup. The manifest records
//! the key's fingerprint instead, and [`restore`] refuses, naming both fingerprints, when the key it is
//! given (`CARDIO_DATA_KEY` or the key file put into the new data folder) is not the backup's. Keep the
//! key (`data.key` in the data folder, or the `CARDIO_DATA_KEY` value) somewhere else, safely.
//!
//! With PostgreSQL the server makes no backups: they are the database operator's job (`pg_dump`,
//! continuous archiving); the API says so and the daily task does nothing.

use std::{
    io::Read,
    path::{Path, PathBuf},
    time::Duration,
};

use axum::{extract::State, http::StatusCode, routing::get, Router};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::{sqlite::SqliteConnectOptions, ConnectOptions, Connection};
use utoipa::ToSchema;

use crate::{
    accounts::auth::{session::CurrentAdmin, ClientAddr},
    platform::audit::{self, Action},
    platform::blobs::{BlobStore, DataKey, KeyError, KEY_FILE},
    platform::db::{ms_to_rfc3339, Backend, Db},
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};

/// The folder, inside the data folder, that holds the backups.
pub const BACKUPS_DIR: &str = "backups";
/// The manifest's file name inside a backup.
pub const MANIFEST: &str = "manifest.json";
/// The database copy's file name inside a backup.
pub const DATABASE_FILE: &str = "cardio.db";
/// The manifest format this server writes and reads.
pub const MANIFEST_FORMAT: u32 = 1;
/// How old the newest backup may get before the daily task makes another.
pub const AUTO_BACKUP_INTERVAL: Duration = Duration::from_hours(24);
/// How often the daily task looks whether a backup is due.
pub const AUTO_BACKUP_CHECK: Duration = Duration::from_mins(10);
/// What the API answers on PostgreSQL.
pub const POSTGRES_BACKUPS: &str = "Backups of a PostgreSQL database are the database operator's job (for example with pg_dump); this server does not make them.";

/// Why a backup or a restore failed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database is PostgreSQL.
    #[error("{POSTGRES_BACKUPS}")]
    Postgres,
    /// A restore target that is not a SQLite URL.
    #[error("restore writes a SQLite database: DATABASE_URL must be sqlite://PATH")]
    NotSqlite,
    /// A database error.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// A file operation failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done, with the path.
        context: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The folder is not a backup, or its manifest is unreadable or of another format.
    #[error("not a usable backup: {0}")]
    Manifest(String),
    /// A file of the backup is missing or does not match the manifest.
    #[error("the backup is damaged: {0}")]
    Damaged(String),
    /// The restore target holds data.
    #[error("the data folder {} is not empty: restore only into an empty data folder (it may hold just the key file {KEY_FILE}); move its contents away first", .0.display())]
    NotEmpty(PathBuf),
    /// The restore target's database file exists.
    #[error("the database file {} already exists: restore only into a new database", .0.display())]
    DatabaseExists(PathBuf),
    /// The backup has encrypted blobs and no key was given.
    #[error("this backup's files are encrypted with the data key whose fingerprint is {0}: set CARDIO_DATA_KEY to that key or put its key file {KEY_FILE} into the empty data folder (backups never contain the key)")]
    KeyNeeded(String),
    /// The key given is not the backup's.
    #[error("the data key configured (fingerprint {configured}) is not the key of this backup (fingerprint {backup}): restore with the backup's key")]
    KeyMismatch {
        /// The fingerprint of the key given.
        configured: String,
        /// The fingerprint in the manifest.
        backup: String,
    },
    /// The data key file is unusable.
    #[error(transparent)]
    Key(#[from] KeyError),
}

impl From<BackupError> for ApiError {
    fn from(err: BackupError) -> Self {
        match err {
            BackupError::Postgres => Self::Conflict(POSTGRES_BACKUPS.into()),
            other => Self::Internal(format!("backup: {other}")),
        }
    }
}

fn io_error(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> BackupError {
    let context = context.into();
    move |source| BackupError::Io { context, source }
}

/// Row counts of a backup's database.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Counts {
    /// Accounts.
    pub users: i64,
    /// Patients.
    pub patients: i64,
    /// Screening sessions.
    pub screenings: i64,
    /// Analyses (predictions).
    pub analyses: i64,
    /// Blob files.
    pub blobs: i64,
}

/// One file of a backup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    /// Path inside the backup folder, `/`-separated.
    pub path: String,
    /// Bytes.
    pub size: u64,
    /// Lower-case hex SHA-256 of the file as stored.
    pub sha256: String,
}

/// `manifest.json`: what a backup holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_FORMAT`].
    pub format: u32,
    /// When it was made (RFC 3339, UTC).
    pub created_at: String,
    /// The same, in milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    /// The version of the server that made it.
    pub cardio_version: String,
    /// `sqlite`.
    pub database: String,
    /// Rows of the copied database and blob files.
    pub counts: Counts,
    /// The data key's fingerprint (never the key); null when no key existed.
    pub key_fingerprint: Option<String>,
    /// How many blob files are encrypted (restoring them needs the key).
    pub encrypted_blobs: u64,
    /// Every file but the manifest.
    pub files: Vec<ManifestFile>,
}

impl Manifest {
    /// Bytes of the backup's files.
    pub fn size_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }
}

/// One backup as the Manage list shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BackupSummary {
    /// The backup's folder name under `backups/` (its UTC time).
    pub id: String,
    /// When it was made (RFC 3339, UTC).
    pub created_at: String,
    /// Bytes of its files.
    pub size_bytes: u64,
    /// What it holds.
    pub counts: Counts,
    /// How many of its blob files are encrypted.
    pub encrypted_blobs: u64,
}

impl BackupSummary {
    fn new(id: String, manifest: &Manifest) -> Self {
        Self {
            id,
            created_at: manifest.created_at.clone(),
            size_bytes: manifest.size_bytes(),
            counts: manifest.counts.clone(),
            encrypted_blobs: manifest.encrypted_blobs,
        }
    }
}

/// `GET /api/system/backups`: the backups and how they are made.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BackupList {
    /// `sqlite` or `postgres`.
    pub database: String,
    /// Whether this server makes backups (SQLite only).
    pub supported: bool,
    /// On PostgreSQL, [`POSTGRES_BACKUPS`]; otherwise null.
    pub note: Option<String>,
    /// Whether the daily backup is on.
    pub auto_backup: bool,
    /// How many backups are kept.
    pub keep: usize,
    /// The newest backup's time (RFC 3339), null if none.
    pub last_backup_at: Option<String>,
    /// The folder backups are written to.
    pub backups_dir: String,
    /// Newest first.
    pub backups: Vec<BackupSummary>,
}

/// The backups folder of a data folder.
pub fn backups_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(BACKUPS_DIR)
}

/// The backups under `data_dir`, newest first (folders without a readable manifest are skipped).
///
/// # Errors
/// An I/O error listing the folder (a missing folder is no backups).
pub fn list(data_dir: &Path) -> Result<Vec<(String, Manifest)>, BackupError> {
    let dir = backups_dir(data_dir);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(io_error(format!("cannot list {}", dir.display()))(err)),
    };
    let mut backups = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !entry.path().is_dir() {
            continue;
        }
        if let Ok(manifest) = read_manifest(&entry.path()) {
            backups.push((name, manifest));
        }
    }
    backups.sort_by(|a, b| (b.1.created_at_ms, &b.0).cmp(&(a.1.created_at_ms, &a.0)));
    Ok(backups)
}

/// Reads and checks the format of a backup's manifest.
///
/// # Errors
/// [`BackupError::Manifest`] when it is missing, unreadable or of another format.
pub fn read_manifest(backup_dir: &Path) -> Result<Manifest, BackupError> {
    let path = backup_dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| BackupError::Manifest(format!("cannot read {}: {e}", path.display())))?;
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|e| BackupError::Manifest(format!("{}: {e}", path.display())))?;
    if manifest.format != MANIFEST_FORMAT {
        return Err(BackupError::Manifest(format!(
            "manifest format {} (this server reads {MANIFEST_FORMAT})",
            manifest.format
        )));
    }
    Ok(manifest)
}

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
fn unique_name(dir: &Path, now_ms: i64) -> String {
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
async fn count_rows(path: &Path) -> Result<Counts, BackupError> {
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
fn hash_file(base: &Path, relative: &str) -> Result<(ManifestFile, bool), BackupError> {
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

/// Removes all but the newest `keep` (at least one) backups.
///
/// # Errors
/// An I/O error listing or removing.
pub fn prune(data_dir: &Path, keep: usize) -> Result<(), BackupError> {
    let dir = backups_dir(data_dir);
    for (id, _) in list(data_dir)?.into_iter().skip(keep.max(1)) {
        let path = dir.join(&id);
        std::fs::remove_dir_all(&path)
            .map_err(io_error(format!("cannot remove {}", path.display())))?;
        tracing::info!(backup = %id, "old backup removed");
    }
    Ok(())
}

/// The file path of a `sqlite:` URL.
///
/// # Errors
/// [`BackupError::NotSqlite`] for other URLs or an in-memory database.
pub fn sqlite_path(database_url: &str) -> Result<PathBuf, BackupError> {
    if Backend::from_url(database_url).ok() != Some(Backend::Sqlite) {
        return Err(BackupError::NotSqlite);
    }
    let rest = database_url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let path = rest.split('?').next().unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        return Err(BackupError::NotSqlite);
    }
    Ok(PathBuf::from(path))
}

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

/// Makes the daily backup when it is due: SQLite, Auto Backup on, and no backup younger than
/// [`AUTO_BACKUP_INTERVAL`] by the server's [`crate::platform::clock::Clock`]. Returns the backup made.
///
/// # Errors
/// Database and I/O errors.
pub async fn run_if_due(state: &AppState) -> Result<Option<BackupSummary>, BackupError> {
    if state.db.backend != Backend::Sqlite {
        return Ok(None);
    }
    let (settings, _) = crate::admin::data_settings::load(&state.db).await?;
    if !settings.auto_backup {
        return Ok(None);
    }
    let now = state.clock.now_ms();
    let data_dir = state.config.data_dir.clone();
    let newest = tokio::task::spawn_blocking(move || list(&data_dir))
        .await
        .map_err(|e| BackupError::Manifest(format!("blocking task: {e}")))??
        .first()
        .map(|(_, m)| m.created_at_ms);
    let interval = i64::try_from(AUTO_BACKUP_INTERVAL.as_millis()).unwrap_or(i64::MAX);
    if newest.is_some_and(|at| now - at < interval) {
        return Ok(None);
    }
    create(
        &state.db,
        &state.config.data_dir,
        &state.blobs,
        now,
        state.config.backup_keep,
    )
    .await
    .map(Some)
}

/// The daily backup: looks every [`AUTO_BACKUP_CHECK`] whether one is due ([`run_if_due`]).
/// Started by [`crate::Application::run_until_stopped`]; failures are logged and retried at the next
/// check.
pub async fn auto_backup_task(state: AppState) {
    let mut ticks = tokio::time::interval(AUTO_BACKUP_CHECK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is immediate; let the server settle first.
    ticks.tick().await;
    loop {
        ticks.tick().await;
        if let Err(err) = run_if_due(&state).await {
            tracing::error!(error = %err, "automatic backup failed");
        }
    }
}

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/system/backups", get(read).post(make))
}

/// The backups (newest first), whether Auto Backup is on and when the last one was made; on
/// PostgreSQL an empty list and the note that backups are the operator's job.
#[utoipa::path(
    get, path = "/api/system/backups", operation_id = "list_backups", tag = "health",
    responses(
        (status = 200, description = "The backups and how they are made", body = BackupList),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Not an administrator", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read(
    State(state): State<AppState>,
    _admin: CurrentAdmin,
) -> Result<Json<BackupList>, ApiError> {
    let (settings, _) = crate::admin::data_settings::load(&state.db).await?;
    let supported = state.db.backend == Backend::Sqlite;
    let data_dir = state.config.data_dir.clone();
    let backups = if supported {
        tokio::task::spawn_blocking(move || list(&data_dir)).await??
    } else {
        Vec::new()
    };
    let backups: Vec<BackupSummary> = backups
        .into_iter()
        .map(|(id, manifest)| BackupSummary::new(id, &manifest))
        .collect();
    Ok(Json(BackupList {
        database: state.db.backend.name().into(),
        supported,
        note: (!supported).then(|| POSTGRES_BACKUPS.to_owned()),
        auto_backup: settings.auto_backup && supported,
        keep: state.config.backup_keep.max(1),
        last_backup_at: backups.first().map(|b| b.created_at.clone()),
        backups_dir: backups_dir(&state.config.data_dir).display().to_string(),
        backups,
    }))
}

/// Makes a backup now (SQLite only; audited as an export).
#[utoipa::path(
    post, path = "/api/system/backups", operation_id = "create_backup", tag = "health",
    responses(
        (status = 201, description = "The backup made", body = BackupSummary),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Not an administrator, or a request from another origin", body = ErrorBody),
        (status = 409, description = "Backups of a PostgreSQL database are the database operator's job (for example with pg_dump); this server does not make them.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn make(
    State(state): State<AppState>,
    admin: CurrentAdmin,
    ClientAddr(client): ClientAddr,
) -> Result<(StatusCode, Json<BackupSummary>), ApiError> {
    let summary = create(
        &state.db,
        &state.config.data_dir,
        &state.blobs,
        state.clock.now_ms(),
        state.config.backup_keep,
    )
    .await?;
    let mut tx = state.db.begin().await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: admin.id(),
            action: Action::Export,
            entity: "backup",
            entity_id: &summary.id,
            patient_id: None,
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(summary)))
}

#[cfg(test)]
mod tests {
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
