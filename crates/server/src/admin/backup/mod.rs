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
    path::{Path, PathBuf},
    time::Duration,
};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::platform::{
    blobs::{KeyError, KEY_FILE},
    db::Backend,
    error::ApiError,
};

mod restore;
pub mod routes;
mod snapshot;

pub use restore::restore;
pub use routes::{auto_backup_task, router, run_if_due};
pub use snapshot::create;

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
/// The answer when the blobs live in a bucket: this server's backups copy a local folder.
pub const BUCKET_BACKUPS: &str = "The recordings are in an S3 bucket: back them up with the bucket's versioning or by copying them to a second bucket (cardio blobs migrate --to), and the database with its own tools; this server does not make backups of them.";

/// Why a backup or a restore failed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database is PostgreSQL.
    #[error("{POSTGRES_BACKUPS}")]
    Postgres,
    /// The blobs live in a bucket.
    #[error("{BUCKET_BACKUPS}")]
    Bucket,
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
            BackupError::Bucket => Self::Conflict(BUCKET_BACKUPS.into()),
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
