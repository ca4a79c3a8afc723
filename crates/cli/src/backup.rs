//! `cardio backup` and `cardio restore DIR`: the SQLite backups of [`cardio_server::admin::backup`] from the
//! command line, with the same database URL, data folder and data key as `cardio serve`.
//!
//! The data key is never part of a backup: restoring encrypted files needs the same
//! `CARDIO_DATA_KEY`, or the old key file (`data.key`) put into the new, otherwise empty, data folder.

use std::path::PathBuf;

use anyhow::Context;
use cardio_server::{
    admin::backup,
    platform::blobs::{BlobStore, DataKey},
    platform::config::{DEFAULT_BACKUP_KEEP, DEFAULT_DATABASE_URL},
    platform::db::Db,
};

/// Flags of `cardio backup`.
#[derive(clap::Args)]
pub struct BackupArgs {
    /// sqlite://PATH (PostgreSQL databases are backed up by their operator, e.g. with pg_dump).
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    database_url: String,
    /// The data folder (blobs; backups go to its backups/ folder).
    #[arg(long, env = "CARDIO_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// How many backups to keep (the newest); older ones are removed.
    #[arg(long, env = "CARDIO_BACKUP_KEEP", default_value_t = DEFAULT_BACKUP_KEEP)]
    keep: usize,
}

/// Flags of `cardio restore`.
#[derive(clap::Args)]
pub struct RestoreArgs {
    /// The backup folder (`<data dir>/backups/<UTC time>`).
    dir: PathBuf,
    /// Where the database is restored: sqlite://PATH, a file that must not exist yet.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    database_url: String,
    /// The data folder to restore into; it must be empty (or hold only the key file).
    #[arg(long, env = "CARDIO_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
}

/// `CARDIO_DATA_KEY`, parsed (a clear error when malformed), or `None` when unset.
pub fn data_key_from_env() -> anyhow::Result<Option<DataKey>> {
    match std::env::var("CARDIO_DATA_KEY") {
        Ok(text) if !text.trim().is_empty() => DataKey::parse(&text)
            .map(Some)
            .context("CARDIO_DATA_KEY is malformed"),
        _ => Ok(None),
    }
}

/// Makes a backup and prints where it went.
pub async fn backup(args: BackupArgs) -> anyhow::Result<()> {
    let key = data_key_from_env()?;
    if !args.database_url.starts_with("sqlite:") {
        anyhow::bail!("{}", backup::POSTGRES_BACKUPS);
    }
    let db = Db::connect(&args.database_url)
        .await
        .context("cannot open the database")?;
    let blobs = BlobStore::with_key(&args.data_dir, key);
    let summary = backup::create(
        &db,
        &args.data_dir,
        &blobs,
        cardio_server::platform::db::now_ms(),
        args.keep,
    )
    .await
    .context("backup failed")?;
    db.pool.close().await;
    println!(
        "backup {} written to {} ({} bytes; {} patients, {} analyses, {} files)",
        summary.id,
        backup::backups_dir(&args.data_dir)
            .join(&summary.id)
            .display(),
        summary.size_bytes,
        summary.counts.patients,
        summary.counts.analyses,
        summary.counts.blobs
    );
    Ok(())
}

/// Restores a backup and prints what came back.
pub async fn restore(args: RestoreArgs) -> anyhow::Result<()> {
    let key = data_key_from_env()?;
    let manifest = backup::restore(&args.dir, &args.data_dir, &args.database_url, key)
        .await
        .context("restore refused")?;
    println!(
        "restored the backup of {} into {}: {} patients, {} analyses, {} files",
        manifest.created_at,
        args.data_dir.display(),
        manifest.counts.patients,
        manifest.counts.analyses,
        manifest.counts.blobs
    );
    Ok(())
}
