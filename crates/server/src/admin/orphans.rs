//! The orphan sweep: blob files that no analysis names, left by an upload that did not finish.
//!
//! An upload writes its files under temporary names (`.<sha256>.<random>.tmp`, synced), commits
//! the analysis row that names them, and only then renames them into place
//! ([`crate::platform::blobs::PendingBlob`]), so an acknowledged upload always has both. A server killed in
//! between leaves temporary files: the sweep moves those whose analysis was committed into place
//! (nothing acknowledged is lost) and removes the others once older than [`TEMP_AGE`] (no request
//! lives that long). Blob files no analysis names (from before this scheme, or whose analysis is
//! gone) are removed once older than [`ORPHAN_AGE`]. It runs at every start, six minutes later (for
//! the temporary files of uploads a crash cut short just before the start) and then daily, under a
//! short lease ([`LEASE_TTL`]) that keeps instances from sweeping at the same time, and logs what it
//! did. Backups skip the same files ([`crate::admin::backup`]).

use std::{
    collections::HashSet,
    hash::BuildHasher,
    path::Path,
    time::{Duration, SystemTime},
};

use crate::{
    platform::db::Db, platform::lease, platform::state::AppState,
    records::analyses::store::StoredFile,
};

/// How old an unreferenced file must be before the sweep removes it.
pub const ORPHAN_AGE: Duration = Duration::from_hours(24);
/// How old a temporary file nobody names must be before the sweep removes it: far longer than
/// any request may take (`crate::REQUEST_TIMEOUT`, 30 s), so it never belongs to an upload in
/// flight.
pub const TEMP_AGE: Duration = Duration::from_mins(5);
/// How often the sweep runs after the one at start.
pub const SWEEP_EVERY: Duration = Duration::from_hours(24);

/// What one sweep removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Blob files no analysis names.
    pub orphans: u64,
    /// Temporary files of writes that never finished.
    pub temporary: u64,
    /// Temporary files whose analysis was committed, moved into place.
    pub recovered: u64,
}

/// Why a sweep failed.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The database could not be read.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The blob folder could not be listed.
    #[error("blob store: {0}")]
    Io(#[from] std::io::Error),
    /// The bucket could not be listed.
    #[error(transparent)]
    Bucket(#[from] crate::platform::blobs::BlobError),
    /// The blocking task failed.
    #[error("sweep task: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// The query of the files every analysis names: its main file's hash and its list of files.
pub const REFERENCED_SQL: &str = "SELECT file_sha256, files_json FROM analyses \
     WHERE file_sha256 IS NOT NULL OR files_json IS NOT NULL";

/// The hashes named by the rows of [`REFERENCED_SQL`].
pub fn collect(
    rows: impl IntoIterator<Item = (Option<String>, Option<String>)>,
) -> HashSet<String> {
    let mut hashes = HashSet::new();
    for (main, list) in rows {
        if let Some(sha) = main {
            hashes.insert(sha.to_ascii_lowercase());
        }
        if let Some(json) = list {
            // A malformed list names nothing we could keep; its main file is still kept above.
            let files: Vec<StoredFile> = serde_json::from_str(&json).unwrap_or_default();
            hashes.extend(files.into_iter().map(|f| f.sha256.to_ascii_lowercase()));
        }
    }
    hashes
}

/// The hashes every analysis of the database names (its main file and each of its files).
///
/// # Errors
/// A database failure.
pub async fn referenced(db: &Db) -> Result<HashSet<String>, sqlx::Error> {
    let rows: Vec<(Option<String>, Option<String>)> =
        sqlx::query_as(REFERENCED_SQL).fetch_all(&db.pool).await?;
    Ok(collect(rows))
}

/// Whether a file of the blob folder is kept: a blob some analysis names. Temporary files and
/// anything else are not.
pub fn is_referenced<S: BuildHasher>(name: &str, referenced: &HashSet<String, S>) -> bool {
    !name.starts_with('.') && referenced.contains(&name.to_ascii_lowercase())
}

/// Sweeps `root` (`blobs/<shard>/<file>`, blocking I/O): moves into place the temporary files of
/// a `referenced` hash whose final file is missing, removes the other temporary files changed
/// before `temp_cutoff` and the blob files not [`is_referenced`] changed before `orphan_cutoff`.
///
/// # Errors
/// The blob folder cannot be listed (a missing folder is nothing to sweep).
pub fn sweep_folder<S: BuildHasher>(
    root: &Path,
    referenced: &HashSet<String, S>,
    orphan_cutoff: SystemTime,
    temp_cutoff: SystemTime,
) -> Result<Swept, std::io::Error> {
    let mut swept = Swept::default();
    let shards = match std::fs::read_dir(root) {
        Ok(shards) => shards,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(swept),
        Err(err) => return Err(err),
    };
    for shard in shards.flatten() {
        if !shard.path().is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(shard.path())?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let older_than = |cutoff: SystemTime| meta.modified().is_ok_and(|at| at < cutoff);
            if let Some(sha256) = crate::platform::blobs::temp_file_hash(&name) {
                let sha256 = sha256.to_ascii_lowercase();
                let target = shard.path().join(&sha256);
                if referenced.contains(&sha256) && !target.exists() {
                    if std::fs::rename(entry.path(), &target).is_ok() {
                        swept.recovered += 1;
                    }
                } else if older_than(temp_cutoff) && std::fs::remove_file(entry.path()).is_ok() {
                    swept.temporary += 1;
                }
            } else if name.starts_with('.') {
                if older_than(temp_cutoff) && std::fs::remove_file(entry.path()).is_ok() {
                    swept.temporary += 1;
                }
            } else if !is_referenced(&name, referenced)
                && older_than(orphan_cutoff)
                && std::fs::remove_file(entry.path()).is_ok()
            {
                swept.orphans += 1;
            }
        }
    }
    Ok(swept)
}

/// Sweeps a bucket (blocking I/O): removes the blobs not [`is_referenced`] last written before
/// `orphan_cutoff`. A bucket has no temporary names: an upload writes its object whole before the
/// row that names it, so an object whose row never came is an orphan like any other.
///
/// # Errors
/// The bucket cannot be listed; a failed removal is left for the next sweep.
pub fn sweep_bucket<S: BuildHasher>(
    remote: &crate::platform::blobs::remote::Remote,
    referenced: &HashSet<String, S>,
    orphan_cutoff: SystemTime,
) -> Result<Swept, SweepError> {
    let mut swept = Swept::default();
    for object in remote.list()? {
        if !is_referenced(&object.name, referenced)
            && object.modified < orphan_cutoff
            && remote.delete(&object.name).is_ok()
        {
            swept.orphans += 1;
        }
    }
    Ok(swept)
}

/// One sweep of the server's blob store.
///
/// # Errors
/// See [`SweepError`].
pub async fn sweep(state: &AppState) -> Result<Swept, SweepError> {
    let referenced = referenced(&state.db).await?;
    let blobs = state.blobs.clone();
    let ago = |age| {
        SystemTime::now()
            .checked_sub(age)
            .unwrap_or(SystemTime::UNIX_EPOCH)
    };
    let (orphan_cutoff, temp_cutoff) = (ago(ORPHAN_AGE), ago(TEMP_AGE));
    let swept = tokio::task::spawn_blocking(move || match blobs.remote() {
        Some(remote) => sweep_bucket(remote, &referenced, orphan_cutoff),
        None => {
            sweep_folder(blobs.root(), &referenced, orphan_cutoff, temp_cutoff).map_err(Into::into)
        }
    })
    .await??;
    tracing::info!(
        orphans = swept.orphans,
        temporary = swept.temporary,
        recovered = swept.recovered,
        "orphan sweep: removed unreferenced blob files older than a day and stale temporary \
         files, moved committed ones into place"
    );
    Ok(swept)
}

/// The name of the sweep's lease ([`crate::platform::lease`]).
pub const SWEEP_LEASE: &str = "orphan-sweep";
/// How long the sweep's lease lasts unless renewed. The lease only keeps two instances from
/// sweeping at the same time: it is renewed while a sweep runs and given back when it ends (and
/// when the server stops), so an instance that dies mid-sweep holds the others back at most this
/// long. (It was twice [`SWEEP_EVERY`] and never given back: after a restart the new process, with
/// a new instance id, did not sweep for 48 hours.)
pub const LEASE_TTL: Duration = Duration::from_mins(2);
/// How often a running sweep renews its lease.
const LEASE_RENEW_EVERY: Duration = Duration::from_secs(30);

/// Takes (or renews) the sweep's lease for `state`'s instance, for [`LEASE_TTL`]; `false` when
/// another instance holds it.
///
/// # Errors
/// A database error.
pub async fn take_lease(state: &AppState) -> Result<bool, sqlx::Error> {
    let ttl_ms = i64::try_from(LEASE_TTL.as_millis()).unwrap_or(i64::MAX);
    lease::try_acquire(
        &state.db,
        SWEEP_LEASE,
        &state.instance_id,
        state.clock.now_ms(),
        ttl_ms,
    )
    .await
}

/// Gives the sweep's lease back, if `state`'s instance holds it (at the end of a sweep, and when
/// the server stops).
pub async fn release_lease(state: &AppState) {
    if let Err(err) = lease::release(&state.db, SWEEP_LEASE, &state.instance_id).await {
        tracing::warn!(%err, "orphan sweep lease not given back; it expires by itself");
    }
}

/// One sweep under the lease, renewed while the sweep runs and given back after it: `None` when
/// another instance holds the lease (it is sweeping now).
///
/// # Errors
/// See [`SweepError`].
pub async fn sweep_once(state: &AppState) -> Result<Option<Swept>, SweepError> {
    if !take_lease(state).await? {
        return Ok(None);
    }
    let renew = async {
        loop {
            tokio::time::sleep(LEASE_RENEW_EVERY).await;
            if let Err(err) = take_lease(state).await {
                tracing::warn!(%err, "orphan sweep lease not renewed");
            }
        }
    };
    let swept = tokio::select! {
        swept = sweep(state) => swept,
        () = renew => unreachable!("renewing never ends"),
    };
    release_lease(state).await;
    swept.map(Some)
}

/// Sweeps at every start, again once what a crash just before the start left is older than
/// [`TEMP_AGE`], and then every [`SWEEP_EVERY`], for as long as the server runs. When another
/// instance is sweeping, tries again once its lease must have ended.
pub async fn sweep_task(state: AppState) {
    let mut pause = TEMP_AGE + Duration::from_mins(1);
    loop {
        let wait = match sweep_once(&state).await {
            Ok(None) => LEASE_TTL,
            done => {
                if let Err(err) = done {
                    tracing::warn!(%err, "orphan sweep failed");
                }
                std::mem::replace(&mut pause, SWEEP_EVERY)
            }
        };
        tokio::time::sleep(wait).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn age(path: &Path, by: Duration) {
        let at = SystemTime::now() - by;
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(at)
            .unwrap();
    }

    /// Issue 37 §3: the lease of an instance that died held every other instance's sweep back
    /// for 48 hours.
    #[tokio::test]
    async fn a_lease_left_by_a_dead_instance_holds_the_sweep_back_only_briefly() {
        let dir = std::env::temp_dir().join(format!("cardio-lease-{}", uuid::Uuid::new_v4()));
        let url = format!("sqlite://{}/cardio.db", dir.display());
        let db = Db::connect(&url).await.unwrap();
        let config = crate::platform::config::Config {
            data_dir: dir.clone(),
            ..Default::default()
        };
        let state = || {
            let none = "not loaded".to_owned();
            let models = crate::recordings::registry::ModelRegistry {
                clinical: Err(none.clone()),
                ecg: Err(none.clone()),
                pcg: Err(none.clone()),
                ppg: Err(none),
            };
            AppState::with_models(db.clone(), config.clone(), models)
        };
        let dead = state();
        let mut restarted = state();
        restarted.clock = dead.clock.clone();

        // The old process took the lease (as its sweep does) and was killed.
        assert!(take_lease(&dead).await.unwrap());
        assert_eq!(sweep_once(&restarted).await.unwrap(), None);
        restarted.clock.advance(LEASE_TTL + Duration::from_secs(1));
        assert_eq!(
            sweep_once(&restarted).await.unwrap(),
            Some(Swept::default())
        );
        // Given back once the sweep ended: another instance may sweep at once.
        assert!(take_lease(&dead).await.unwrap());
        db.pool.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn removes_only_old_unreferenced_files_and_temporaries() {
        let dir = std::env::temp_dir().join(format!("cardio-sweep-{}", uuid::Uuid::new_v4()));
        let store = crate::platform::blobs::BlobStore::new(&dir);
        let kept = store.put(b"an analysis names me").unwrap();
        let orphan = store.put(b"nobody names me").unwrap();
        let young = store.put(b"an upload in flight").unwrap();
        let shard = store.path_of(&orphan).parent().unwrap().to_path_buf();
        let tmp = shard.join(format!(".{orphan}.x.tmp"));
        std::fs::write(&tmp, b"half").unwrap();
        let day_and_a_bit = ORPHAN_AGE + Duration::from_mins(1);
        for path in [store.path_of(&kept), store.path_of(&orphan), tmp.clone()] {
            age(&path, day_and_a_bit);
        }
        // A killed upload whose analysis was committed before the rename.
        let committed = store.put_pending(b"acknowledged, then killed").unwrap();
        let committed_sha = committed.sha256().to_owned();
        std::mem::forget(committed);
        let referenced: HashSet<String> =
            [kept.clone(), committed_sha.clone()].into_iter().collect();

        let swept = sweep_folder(
            store.root(),
            &referenced,
            SystemTime::now() - ORPHAN_AGE,
            SystemTime::now() - TEMP_AGE,
        )
        .unwrap();

        assert_eq!(
            swept,
            Swept {
                orphans: 1,
                temporary: 1,
                recovered: 1
            }
        );
        assert_eq!(
            store.get(&committed_sha).unwrap(),
            b"acknowledged, then killed"
        );
        assert!(store.path_of(&kept).exists());
        assert!(store.path_of(&young).exists(), "younger than a day");
        assert!(!store.path_of(&orphan).exists());
        assert!(!tmp.exists());
        let _ = std::fs::remove_dir_all(dir);
    }
}
