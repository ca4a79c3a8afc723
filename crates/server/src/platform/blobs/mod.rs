//! Content-addressed storage of uploaded recordings under the data folder, encrypted at rest.
//!
//! A file is stored once under `blobs/<first two hex digits>/<SHA-256 hex>`, written to a temporary
//! name and renamed into place once the row that names it is committed ([`PendingBlob`]), so a
//! crash never leaves half a file, or a file nobody names, under a final name, and two uploads of
//! the same bytes share one copy. The name is the SHA-256 of the **plain** bytes, so
//! deduplication and the hashes the database keeps do not depend on encryption. This module never
//! decides who may read a file (the analysis row that names it does).
//!
//! # Encryption at rest
//! New blobs are sealed with AES-256-GCM (NIST SP 800-38D) unless the server-wide "Data Encryption"
//! setting is off ([`BlobStore::with_encryption`]). An encrypted file is
//!
//! ```text
//! MAGIC (8 bytes: 89 'C' 'B' 'L' 'O' 'B' 0D 0A) | version (1 byte, 1) | nonce (12 bytes) | ciphertext | tag (16 bytes)
//! ```
//!
//! with a fresh random 96-bit nonce per blob (SP 800-38D §8.2.2, the RBG-based construction; with
//! one write per distinct content the 2^32 invocation bound is far away) and, as additional
//! authenticated data, the header and the blob's name, so a file moved under another name fails
//! too. A file without the magic is read as clear: blobs written before encryption existed, or
//! while it was off, stay readable. On every read the SHA-256 of the plain bytes must match the
//! name; a failed tag or a wrong hash is [`BlobError::Tampered`], and the bytes are never returned.
//!
//! # Where the files live
//! In the data folder by default, or in an S3-compatible bucket ([`remote`], `CARDIO_BLOB_URL=s3://bucket/prefix`)
//! when several instances share one database. Both hold the same sealed bytes under the same names;
//! the bucket has no temporary names (an object is written whole or not at all, before the row that
//! names it, and the orphan sweep removes one whose row never came), and a marker object names the
//! fingerprint of the data key its blobs are sealed with, so an instance given another key refuses to
//! start, naming both fingerprints.
//!
//! The 256-bit key is [`DataKey`]: `CARDIO_DATA_KEY` (parsed by the CLI into
//! [`crate::platform::config::Config::data_key`]) or else the key file [`KEY_FILE`] in the data folder,
//! created with mode 0600 on first need. Backups never contain the key (see [`crate::admin::backup`]).

use std::{
    io::Write,
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use sha2::{Digest, Sha256};

mod key;
pub mod remote;
mod seal;

use key::load_key_file;
pub use key::{DataKey, KeyError, KEY_FILE};
use seal::{open, seal};
pub use seal::{ENCRYPTION_OVERHEAD, FORMAT_VERSION, MAGIC, NONCE_LEN, TAG_LEN};

/// Why a blob could not be stored or read.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    /// The name is not a SHA-256 hex digest.
    #[error("not a SHA-256 hex digest")]
    BadName,
    /// Reading or writing failed (also: no file has that hash).
    #[error("blob store I/O: {0}")]
    Io(#[from] std::io::Error),
    /// The GCM tag did not verify or the content's SHA-256 is not its name: the file was altered
    /// on disk (or sealed under another key). Its bytes are not returned.
    #[error("stored file {sha256} failed its integrity check")]
    Tampered {
        /// The blob's name.
        sha256: String,
    },
    /// An encrypted blob of a format version this server does not know.
    #[error("stored file {sha256} has unknown encryption format version {version}")]
    UnknownVersion {
        /// The blob's name.
        sha256: String,
        /// The version byte found.
        version: u8,
    },
    /// The data key is missing or unusable.
    #[error(transparent)]
    Key(#[from] KeyError),
    /// The S3-compatible store failed (unreachable, refused, timed out).
    #[error("blob store (S3): {0}")]
    Remote(String),
}

/// The store: a folder of the data directory, or a bucket ([`BlobStore::with_remote`]).
#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
    data_dir: PathBuf,
    /// A key given by configuration (`CARDIO_DATA_KEY`); otherwise the key file is used.
    configured: Option<DataKey>,
    /// The key once resolved, shared by clones.
    resolved: Arc<OnceLock<DataKey>>,
    encrypt: bool,
    /// The bucket, when the blobs live in one rather than under `root`.
    remote: Option<Arc<remote::Remote>>,
}

impl BlobStore {
    /// A store under `data_dir/blobs` keyed by the key file of `data_dir` (read or created when
    /// first needed), encrypting new blobs.
    pub fn new(data_dir: &Path) -> Self {
        Self::with_key(data_dir, None)
    }

    /// A store under `data_dir/blobs` with a configured key (`None`: the key file).
    pub fn with_key(data_dir: &Path, key: Option<DataKey>) -> Self {
        Self {
            root: data_dir.join("blobs"),
            data_dir: data_dir.to_path_buf(),
            configured: key,
            resolved: Arc::new(OnceLock::new()),
            encrypt: true,
            remote: None,
        }
    }

    /// This store with its blobs in `remote` instead of the data folder (the key file, when no key
    /// is configured, stays in the data folder).
    #[must_use]
    pub fn with_remote(mut self, remote: remote::Remote) -> Self {
        self.remote = Some(Arc::new(remote));
        self
    }

    /// Where the blobs live, as `GET /api/health` names it: `s3` (a bucket) or `local` (the data
    /// folder).
    pub fn backend_name(&self) -> &'static str {
        if self.remote.is_some() {
            "s3"
        } else {
            "local"
        }
    }

    /// The bucket, when the blobs live in one.
    pub fn remote(&self) -> Option<&remote::Remote> {
        self.remote.as_deref()
    }

    /// Like [`BlobStore::with_key`], resolving the key now (creating the key file when there is
    /// none and the store holds no sealed recording) and checking it against the store's marker
    /// ([`BlobStore::check_key`]), so that a start fails early and clearly.
    ///
    /// # Errors
    /// As [`BlobStore::check_key`].
    pub fn open(data_dir: &Path, key: Option<DataKey>) -> Result<Self, BlobError> {
        let store = Self::with_key(data_dir, key);
        store.check_key()?;
        Ok(store)
    }

    /// Checks that this store's key is the one its blobs are sealed with (blocking I/O), before
    /// the server takes requests. A marker names the fingerprint of that key: the object
    /// [`remote::MARKER`] in a bucket, the file of the same name in the local folder; a store
    /// without one gets this key's. A new key file is never made while the store holds sealed
    /// recordings (they, and every upload after, would be unreadable with it).
    ///
    /// # Errors
    /// [`BlobError::Key`] with [`KeyError::Mismatch`] (a bucket) or [`KeyError::StoreMismatch`]
    /// (the local folder) for another key, [`KeyError::Lost`] for a missing key file over sealed
    /// recordings, [`BlobError::Remote`] when the bucket cannot be reached, or a key that cannot
    /// be read or created.
    pub fn check_key(&self) -> Result<(), BlobError> {
        let Some(remote) = &self.remote else {
            return self.check_local_key();
        };
        if self.configured.is_none() && !self.key_file().exists() {
            if let Some(theirs) = remote.marker_fingerprint()? {
                return Err(KeyError::Lost {
                    key_file: self.key_file(),
                    store: remote.url().to_owned(),
                    theirs,
                }
                .into());
            }
        }
        let ours = self.key(true)?.fingerprint();
        match remote.marker_fingerprint()? {
            Some(theirs) if theirs == ours => Ok(()),
            Some(theirs) => Err(KeyError::Mismatch {
                ours,
                theirs,
                store: remote.url().to_owned(),
            }
            .into()),
            None => remote.write_marker(&ours).map_err(|err| match err {
                // S3 answers a write to a missing bucket with 404 (NoSuchBucket).
                BlobError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
                    BlobError::Remote(format!(
                        "the bucket of {} does not exist: create it first",
                        remote.url()
                    ))
                }
                other => other,
            }),
        }
    }

    /// [`BlobStore::check_key`] for the data folder.
    fn check_local_key(&self) -> Result<(), BlobError> {
        let marker = self.local_marker()?;
        let creating = self.configured.is_none() && !self.key_file().exists();
        let sealed = if creating || marker.is_none() {
            self.first_sealed()?
        } else {
            None
        };
        let store = self.root.display().to_string();
        let not_recorded = || "not recorded".to_owned();
        if creating && sealed.is_some() {
            return Err(KeyError::Lost {
                key_file: self.key_file(),
                store,
                theirs: marker.unwrap_or_else(not_recorded),
            }
            .into());
        }
        let ours = self.key(true)?.fingerprint();
        match marker {
            Some(theirs) if theirs == ours => return Ok(()),
            Some(theirs) if !creating => {
                return Err(KeyError::StoreMismatch {
                    ours,
                    theirs,
                    store,
                }
                .into())
            }
            _ => {}
        }
        // No marker yet (a store from before it, or a new one), or a new key over a store with no
        // sealed recording: what is sealed must open with this key.
        if let Some(sha256) = sealed {
            match self.get(&sha256) {
                Err(BlobError::Tampered { .. }) => {
                    return Err(KeyError::StoreMismatch {
                        ours,
                        theirs: not_recorded(),
                        store,
                    }
                    .into())
                }
                other => {
                    other?;
                }
            }
        }
        self.write_local_marker(&ours)
    }

    /// The key fingerprint the local marker file names, `None` when there is none.
    fn local_marker(&self) -> Result<Option<String>, BlobError> {
        let path = self.root.join(remote::MARKER);
        match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice::<remote::Marker>(&bytes)
                .map(|m| Some(m.key_fingerprint))
                .map_err(|e| {
                    BlobError::Io(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("{} is not readable: {e}", path.display()),
                    ))
                }),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// Writes the local marker file naming `fingerprint` (under a temporary name, then renamed).
    fn write_local_marker(&self, fingerprint: &str) -> Result<(), BlobError> {
        let text = serde_json::to_vec_pretty(&remote::Marker {
            key_fingerprint: fingerprint.to_owned(),
        })
        .expect("a marker serialises");
        std::fs::create_dir_all(&self.root)?;
        let tmp = self
            .root
            .join(format!(".{}.{}.tmp", remote::MARKER, uuid::Uuid::new_v4()));
        std::fs::write(&tmp, text)?;
        let renamed = std::fs::rename(&tmp, self.root.join(remote::MARKER));
        if renamed.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        Ok(renamed?)
    }

    /// The name of a sealed blob of the local folder, if there is one (reads headers only, and
    /// stops at the first).
    fn first_sealed(&self) -> Result<Option<String>, BlobError> {
        use std::io::Read as _;
        for name in self.names()? {
            let mut header = [0u8; MAGIC.len()];
            let mut file = std::fs::File::open(self.path_of(&name))?;
            if file.read_exact(&mut header).is_ok() && Self::is_encrypted(&header) {
                return Ok(Some(name));
            }
        }
        Ok(None)
    }

    /// This store, writing new blobs encrypted (`true`, the default) or in clear (`false`).
    #[must_use]
    pub fn with_encryption(mut self, encrypt: bool) -> Self {
        self.encrypt = encrypt;
        self
    }

    /// The folder the blobs live under.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The key file of this store's data folder.
    pub fn key_file(&self) -> PathBuf {
        self.data_dir.join(KEY_FILE)
    }

    /// The key's fingerprint when a key is configured or the key file exists (never creates one).
    ///
    /// # Errors
    /// [`KeyError`] when the key file is unreadable or malformed.
    pub fn key_fingerprint(&self) -> Result<Option<String>, KeyError> {
        match self.key(false) {
            Ok(key) => Ok(Some(key.fingerprint())),
            Err(KeyError::Missing) => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// The lower-case hex SHA-256 of `bytes`.
    pub fn hash(bytes: &[u8]) -> String {
        to_hex(&Sha256::digest(bytes))
    }

    /// Where the file of a hash lives.
    pub fn path_of(&self, sha256: &str) -> PathBuf {
        self.root.join(&sha256[..2.min(sha256.len())]).join(sha256)
    }

    /// Whether stored bytes are in the encrypted format (they begin with [`MAGIC`]).
    pub fn is_encrypted(stored: &[u8]) -> bool {
        stored.starts_with(&MAGIC)
    }

    /// Stores `bytes` (blocking I/O) and returns their hash: [`BlobStore::put_pending`] and
    /// [`PendingBlob::commit`] at once, for callers with no row to commit first.
    ///
    /// # Errors
    /// As [`BlobStore::put_pending`], or the rename failing.
    pub fn put(&self, bytes: &[u8]) -> Result<String, BlobError> {
        let pending = self.put_pending(bytes)?;
        let sha256 = pending.sha256().to_owned();
        pending.commit()?;
        Ok(sha256)
    }

    /// Writes `bytes` (blocking I/O) under a temporary name in their shard, synced to disk, and
    /// returns the [`PendingBlob`] to [`PendingBlob::commit`] once the row that names it is
    /// committed; dropped uncommitted, the temporary file is removed. So an upload that does not
    /// finish leaves nothing under a final name (a temporary file at worst, when the process is
    /// killed, which [`crate::admin::orphans`] removes, or moves into place when its row was committed).
    /// Encrypted unless this store was made with encryption off; plain bytes that happen to begin
    /// with [`MAGIC`] are encrypted anyway, so that reading them back is never ambiguous. Bytes
    /// already stored are not written again.
    ///
    /// # Errors
    /// I/O errors, or a key that cannot be read or created.
    pub fn put_pending(&self, bytes: &[u8]) -> Result<PendingBlob, BlobError> {
        let sha256 = Self::hash(bytes);
        if let Some(remote) = &self.remote {
            // Written whole under its name, before the row that names it; written again when it
            // is there already, which makes it young for the orphan sweep as a touch does locally.
            let content = if self.encrypt || Self::is_encrypted(bytes) {
                seal(self.key(true)?, &sha256, bytes)
            } else {
                bytes.to_vec()
            };
            remote.put(&sha256, content)?;
            return Ok(PendingBlob {
                sha256,
                path: PathBuf::new(),
                tmp: None,
            });
        }
        let path = self.path_of(&sha256);
        if path.exists() {
            // The stored copy is about to be named by a new row: make it young again, so the
            // orphan sweep (which removes only old unreferenced files) cannot take it meanwhile.
            if let Ok(file) = std::fs::File::options().write(true).open(&path) {
                let _ = file.set_modified(std::time::SystemTime::now());
            }
            return Ok(PendingBlob {
                sha256,
                path,
                tmp: None,
            });
        }
        let sealed;
        let content = if self.encrypt || Self::is_encrypted(bytes) {
            sealed = seal(self.key(true)?, &sha256, bytes);
            sealed.as_slice()
        } else {
            bytes
        };
        let dir = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(dir)?;
        let tmp = dir.join(temp_name(&sha256));
        let pending = PendingBlob {
            sha256,
            path,
            tmp: Some(tmp.clone()),
        };
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(content)?;
        file.sync_all()?;
        Ok(pending)
    }

    /// Reads a stored file back (blocking I/O): decrypted when it is encrypted, and checked
    /// against its name either way.
    ///
    /// # Errors
    /// [`BlobError::BadName`], an I/O error (e.g. no file has that hash), [`BlobError::Tampered`]
    /// when the file was altered, or a missing key for an encrypted file.
    pub fn get(&self, sha256: &str) -> Result<Vec<u8>, BlobError> {
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(BlobError::BadName);
        }
        let stored = match &self.remote {
            Some(remote) => remote.get(sha256)?,
            None => std::fs::read(self.path_of(sha256))?,
        };
        let plain = if Self::is_encrypted(&stored) {
            open(self.key(false)?, sha256, &stored)?
        } else {
            stored
        };
        if !Self::hash(&plain).eq_ignore_ascii_case(sha256) {
            return Err(BlobError::Tampered {
                sha256: sha256.to_owned(),
            });
        }
        Ok(plain)
    }

    /// The stored size and last change of a blob (blocking I/O), `None` when it is missing: what
    /// tells a cached decode that the file under a name changed.
    pub fn stamp(&self, sha256: &str) -> Option<(u64, std::time::SystemTime)> {
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        if let Some(remote) = &self.remote {
            return remote.stamp(sha256);
        }
        let meta = std::fs::metadata(self.path_of(sha256)).ok()?;
        Some((meta.len(), meta.modified().ok()?))
    }

    /// The names (SHA-256 hex) of every blob in the store (blocking I/O); temporary files and
    /// anything else are left out.
    ///
    /// # Errors
    /// The folder or the bucket cannot be listed (a missing folder holds nothing).
    pub fn names(&self) -> Result<Vec<String>, BlobError> {
        if let Some(remote) = &self.remote {
            return Ok(remote.list()?.into_iter().map(|o| o.name).collect());
        }
        let is_name = |n: &str| n.len() == 64 && n.bytes().all(|b| b.is_ascii_hexdigit());
        let mut names = Vec::new();
        let shards = match std::fs::read_dir(&self.root) {
            Ok(shards) => shards,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(names),
            Err(err) => return Err(err.into()),
        };
        for shard in shards.flatten() {
            if !shard.path().is_dir() {
                continue;
            }
            for entry in std::fs::read_dir(shard.path())?.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if is_name(&name) && entry.path().is_file() {
                    names.push(name);
                }
            }
        }
        names.sort_unstable();
        Ok(names)
    }

    /// A blob's bytes as stored (sealed or clear), unchecked (blocking I/O): what a copy to
    /// another store moves, to be checked there with [`BlobStore::get`].
    ///
    /// # Errors
    /// [`BlobError::BadName`], or the file cannot be read.
    pub fn get_stored(&self, sha256: &str) -> Result<Vec<u8>, BlobError> {
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(BlobError::BadName);
        }
        match &self.remote {
            Some(remote) => remote.get(sha256),
            None => Ok(std::fs::read(self.path_of(sha256))?),
        }
    }

    /// The key: the configured one, else the key file (created when `create` and missing).
    fn key(&self, create: bool) -> Result<&DataKey, KeyError> {
        if let Some(key) = self.resolved.get() {
            return Ok(key);
        }
        let key = match &self.configured {
            Some(key) => key.clone(),
            None => load_key_file(&self.key_file(), create)?,
        };
        let _ = self.resolved.set(key);
        Ok(self.resolved.get().expect("set just above"))
    }
}

/// A temporary file name in a shard: `.<sha256>.<random>.tmp` (the leading dot keeps it out of
/// listings of blobs; the hash lets the sweep recover it).
fn temp_name(sha256: &str) -> String {
    format!(".{sha256}.{}.tmp", uuid::Uuid::new_v4())
}

/// The hash a temporary file of [`temp_name`] was written for, if the name is one.
pub fn temp_file_hash(name: &str) -> Option<&str> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (sha256, _) = rest.split_once('.')?;
    (sha256.len() == 64 && sha256.bytes().all(|b| b.is_ascii_hexdigit())).then_some(sha256)
}

/// A blob written under a temporary name (see [`BlobStore::put_pending`]).
#[derive(Debug)]
#[must_use = "a pending blob is removed when dropped: commit it once its row is committed"]
pub struct PendingBlob {
    sha256: String,
    path: PathBuf,
    /// `None` when the bytes were stored already.
    tmp: Option<PathBuf>,
}

impl PendingBlob {
    /// The hash the blob will be stored under.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// Moves the blob under its hash (blocking I/O). Done by someone else already (another upload
    /// of the same bytes, or the sweep recovering it) is done.
    ///
    /// # Errors
    /// The rename failing while no file exists under the hash.
    pub fn commit(mut self) -> Result<(), BlobError> {
        let Some(tmp) = self.tmp.take() else {
            return Ok(());
        };
        if self.path.exists() {
            let _ = std::fs::remove_file(&tmp);
            return Ok(());
        }
        match std::fs::rename(&tmp, &self.path) {
            Ok(()) => Ok(()),
            Err(_) if self.path.exists() => Ok(()),
            Err(err) => Err(err.into()),
        }
    }
}

impl Drop for PendingBlob {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Lower-case hex of `bytes`.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut hex = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

#[cfg(test)]
mod tests;
