//! `cardio blobs migrate --to s3://bucket/prefix [--from s3://... | --data-dir DIR]`: copies every
//! blob of a store (the data folder's by default, or another bucket) into a bucket, as stored (the
//! sealed bytes are moved, not re-encrypted), after checking the source copy (decrypted with the
//! data key, its SHA-256 equal to its name: a damaged file is reported, not spread), then reads
//! each back from the bucket and checks it the same way. Blobs already in the
//! bucket with the same size are not sent again, and are checked all the same. The bucket's key
//! marker is written (or checked) first, so a bucket written with another key is refused before
//! anything is copied.

use std::path::PathBuf;

use anyhow::Context;
use cardio_server::platform::blobs::{remote::Remote, BlobStore};

/// `cardio blobs ...`.
#[derive(clap::Args)]
pub struct BlobsArgs {
    #[command(subcommand)]
    command: BlobsCommand,
}

#[derive(clap::Subcommand)]
enum BlobsCommand {
    /// Copy a blob store into an S3-compatible bucket and verify every hash there.
    Migrate(MigrateArgs),
}

#[derive(clap::Args)]
struct MigrateArgs {
    /// The bucket to copy into: s3://bucket/prefix (with AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
    /// AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ALLOW_HTTP from the environment).
    #[arg(long)]
    to: String,
    /// Copy from this bucket instead of the data folder (a second bucket as a backup).
    #[arg(long)]
    from: Option<String>,
    /// The data folder whose blobs (and key file, without CARDIO_DATA_KEY) are copied.
    #[arg(long, env = "CARDIO_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
}

/// What a migration did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Migrated {
    /// Blobs sent.
    pub copied: u64,
    /// Blobs already in the bucket with the same size.
    pub present: u64,
    /// Bytes sent.
    pub bytes: u64,
    /// Blobs read back, decrypted and whose SHA-256 matched.
    pub verified: u64,
    /// Blobs that failed to copy or to verify, with why.
    pub failed: Vec<(String, String)>,
}

/// Runs `cardio blobs ...`; exits 1 when any blob failed.
pub fn run(args: BlobsArgs) -> anyhow::Result<bool> {
    match args.command {
        BlobsCommand::Migrate(args) => {
            let key = crate::backup::data_key_from_env()?;
            let from = BlobStore::with_key(&args.data_dir, key.clone());
            let from = match &args.from {
                Some(url) => from.with_remote(Remote::from_url(url)?),
                None => from,
            };
            let to =
                BlobStore::with_key(&args.data_dir, key).with_remote(Remote::from_url(&args.to)?);
            let source = args
                .from
                .clone()
                .unwrap_or_else(|| format!("{}", from.root().display()));
            let done = migrate(&from, &to)?;
            println!(
                "{} blobs from {source} to {}: {} copied ({} bytes), {} already there; {} verified \
                 (decrypted, SHA-256 equal to the name), {} failed",
                done.copied + done.present + done.failed.len() as u64,
                args.to,
                done.copied,
                done.bytes,
                done.present,
                done.verified,
                done.failed.len()
            );
            for (name, why) in &done.failed {
                eprintln!("{name}: {why}");
            }
            Ok(done.failed.is_empty())
        }
    }
}

/// Copies every blob of `from` into `to` (which must be a bucket) and verifies each there.
///
/// # Errors
/// `to` is not a bucket, cannot be reached, or was written with another data key; `from` cannot be
/// listed. A blob that fails alone is reported in [`Migrated::failed`].
pub fn migrate(from: &BlobStore, to: &BlobStore) -> anyhow::Result<Migrated> {
    let bucket = to
        .remote()
        .context("cardio blobs migrate copies into a bucket: --to s3://bucket/prefix")?;
    to.check_key()
        .context("the bucket cannot take these blobs")?;
    let names = from.names().context("cannot list the blobs to copy")?;
    let mut done = Migrated::default();
    for name in names {
        // The source copy must open and match its name first: a damaged file is reported, not
        // spread.
        if let Err(err) = from.get(&name) {
            done.failed
                .push((name, format!("the copy to migrate does not verify: {err}")));
            continue;
        }
        let stored = match from.get_stored(&name) {
            Ok(stored) => stored,
            Err(err) => {
                done.failed.push((name, format!("cannot read it: {err}")));
                continue;
            }
        };
        let size = stored.len() as u64;
        if to.stamp(&name).is_some_and(|(len, _)| len == size) {
            done.present += 1;
        } else if let Err(err) = bucket.put(&name, stored) {
            done.failed.push((name, format!("cannot write it: {err}")));
            continue;
        } else {
            done.copied += 1;
            done.bytes += size;
        }
        match to.get(&name) {
            Ok(_) => done.verified += 1,
            Err(err) => done.failed.push((name, format!("does not verify: {err}"))),
        }
    }
    Ok(done)
}
