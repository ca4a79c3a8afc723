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
//! The 256-bit key is [`DataKey`]: `CARDIO_DATA_KEY` (parsed by the CLI into
//! [`crate::platform::config::Config::data_key`]) or else the key file [`KEY_FILE`] in the data folder,
//! created with mode 0600 on first need. Backups never contain the key (see [`crate::admin::backup`]).

use std::{
    fmt,
    io::Write,
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use aes_gcm::{
    aead::{Aead, AeadCore, KeyInit, OsRng, Payload},
    Aes256Gcm, Nonce,
};
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The first bytes of an encrypted blob (PNG-style: a high byte and CR LF, so no text file and no
/// recording format begins with it).
pub const MAGIC: [u8; 8] = [0x89, b'C', b'B', b'L', b'O', b'B', 0x0d, 0x0a];
/// The format version written after [`MAGIC`].
pub const FORMAT_VERSION: u8 = 1;
/// Bytes of the GCM nonce (96 bits, SP 800-38D's recommended IV length).
pub const NONCE_LEN: usize = 12;
/// Bytes of the GCM authentication tag (128 bits).
pub const TAG_LEN: usize = 16;
/// How many bytes an encrypted blob takes beyond its plain content.
pub const ENCRYPTION_OVERHEAD: usize = MAGIC.len() + 1 + NONCE_LEN + TAG_LEN;
/// The key file's name inside the data folder.
pub const KEY_FILE: &str = "data.key";

/// A 256-bit data key. Its `Debug` never shows the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct DataKey([u8; 32]);

impl fmt::Debug for DataKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DataKey(fingerprint {})", self.fingerprint())
    }
}

impl DataKey {
    /// A new random key.
    pub fn generate() -> Self {
        Self(Aes256Gcm::generate_key(&mut OsRng).into())
    }

    /// Parses 64 hex digits or the base64 of 32 bytes (surrounding whitespace ignored).
    ///
    /// # Errors
    /// [`KeyError::Malformed`] for anything else.
    pub fn parse(text: &str) -> Result<Self, KeyError> {
        let text = text.trim();
        if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            let mut key = [0u8; 32];
            for (i, byte) in key.iter_mut().enumerate() {
                *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16)
                    .map_err(|_| KeyError::Malformed)?;
            }
            return Ok(Self(key));
        }
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_err(|_| KeyError::Malformed)?;
        let key: [u8; 32] = bytes.try_into().map_err(|_| KeyError::Malformed)?;
        Ok(Self(key))
    }

    /// A short public identifier of the key (16 hex digits of a domain-separated SHA-256), what a
    /// backup's manifest records; it does not reveal the key.
    pub fn fingerprint(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(b"cardio-data-key-fingerprint\0");
        hasher.update(self.0);
        to_hex(&hasher.finalize()[..8])
    }

    fn to_hex(&self) -> String {
        to_hex(&self.0)
    }
}

/// Why the data key is not usable.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// `CARDIO_DATA_KEY` or the key file is not a key.
    #[error("the data key must be 64 hexadecimal characters or the base64 of 32 bytes")]
    Malformed,
    /// An encrypted blob was read but there is no key.
    #[error("no data key: set CARDIO_DATA_KEY or put the key file {KEY_FILE} in the data folder")]
    Missing,
    /// The key file could not be read or created.
    #[error("cannot read or create the data key file {path}: {source}")]
    File {
        /// The key file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

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
}

/// The store rooted at a folder.
#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
    data_dir: PathBuf,
    /// A key given by configuration (`CARDIO_DATA_KEY`); otherwise the key file is used.
    configured: Option<DataKey>,
    /// The key once resolved, shared by clones.
    resolved: Arc<OnceLock<DataKey>>,
    encrypt: bool,
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
        }
    }

    /// Like [`BlobStore::with_key`], resolving the key now (creating the key file when there is
    /// none), so that a start fails early and clearly.
    ///
    /// # Errors
    /// [`KeyError`] when the key file cannot be read, is malformed or cannot be created.
    pub fn open(data_dir: &Path, key: Option<DataKey>) -> Result<Self, KeyError> {
        let store = Self::with_key(data_dir, key);
        store.key(true)?;
        Ok(store)
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
        let stored = std::fs::read(self.path_of(sha256))?;
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

/// Reads the key file, or creates it (mode 0600, written under a temporary name and linked into
/// place, so a concurrent reader never sees half a key) when `create`.
fn load_key_file(path: &Path, create: bool) -> Result<DataKey, KeyError> {
    let file_error = |source| KeyError::File {
        path: path.to_path_buf(),
        source,
    };
    match std::fs::read_to_string(path) {
        Ok(text) => return DataKey::parse(&text),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound && create => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Err(KeyError::Missing),
        Err(err) => return Err(file_error(err)),
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(file_error)?;
    let tmp = dir.join(format!(".{KEY_FILE}.{}.tmp", uuid::Uuid::new_v4()));
    let key = DataKey::generate();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&tmp).and_then(|mut file| {
        file.write_all(format!("{}\n", key.to_hex()).as_bytes())?;
        file.sync_all()
    });
    let linked = written.and_then(|()| std::fs::hard_link(&tmp, path));
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(key),
        // Another process created it first: use theirs.
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
            DataKey::parse(&std::fs::read_to_string(path).map_err(file_error)?)
        }
        Err(err) => Err(file_error(err)),
    }
}

/// The additional authenticated data: the header and the blob's name.
fn aad(sha256: &str) -> Vec<u8> {
    let mut aad = Vec::with_capacity(MAGIC.len() + 1 + sha256.len());
    aad.extend_from_slice(&MAGIC);
    aad.push(FORMAT_VERSION);
    aad.extend_from_slice(sha256.to_ascii_lowercase().as_bytes());
    aad
}

/// Encrypts `plain` into the stored format (AES-256-GCM, SP 800-38D, random 96-bit nonce).
fn seal(key: &DataKey, sha256: &str, plain: &[u8]) -> Vec<u8> {
    let cipher = Aes256Gcm::new(&key.0.into());
    let nonce = Aes256Gcm::generate_nonce(&mut OsRng);
    let aad = aad(sha256);
    let ciphertext = cipher
        .encrypt(
            &nonce,
            Payload {
                msg: plain,
                aad: &aad,
            },
        )
        .expect("AES-GCM encryption of an in-memory buffer cannot fail");
    let mut out = Vec::with_capacity(plain.len() + ENCRYPTION_OVERHEAD);
    out.extend_from_slice(&MAGIC);
    out.push(FORMAT_VERSION);
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&ciphertext);
    out
}

/// Decrypts the stored format; a failed tag (altered bytes, another key) is [`BlobError::Tampered`].
fn open(key: &DataKey, sha256: &str, stored: &[u8]) -> Result<Vec<u8>, BlobError> {
    let tampered = || BlobError::Tampered {
        sha256: sha256.to_owned(),
    };
    let header = MAGIC.len() + 1;
    if stored.len() < header + NONCE_LEN + TAG_LEN {
        return Err(tampered());
    }
    let version = stored[MAGIC.len()];
    if version != FORMAT_VERSION {
        return Err(BlobError::UnknownVersion {
            sha256: sha256.to_owned(),
            version,
        });
    }
    let nonce = Nonce::from_slice(&stored[header..header + NONCE_LEN]);
    let cipher = Aes256Gcm::new(&key.0.into());
    let aad = aad(sha256);
    cipher
        .decrypt(
            nonce,
            Payload {
                msg: &stored[header + NONCE_LEN..],
                aad: &aad,
            },
        )
        .map_err(|_| tampered())
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
mod tests {
    use super::*;

    fn temp_dir() -> PathBuf {
        std::env::temp_dir().join(format!("cardio-blobs-{}", uuid::Uuid::new_v4()))
    }

    const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    #[test]
    fn stores_once_under_the_hash_and_reads_back() {
        let dir = temp_dir();
        let store = BlobStore::new(&dir);
        let a = store.put(b"abc").unwrap();
        assert_eq!(a, ABC);
        assert_eq!(store.put(b"abc").unwrap(), a);
        assert_eq!(store.get(&a).unwrap(), b"abc");
        assert!(dir.join("blobs/ba").join(&a).is_file());
        let files = std::fs::read_dir(dir.join("blobs/ba")).unwrap().count();
        assert_eq!(files, 1, "no temporary file is left behind");
        assert!(matches!(
            store.get("../../etc/passwd"),
            Err(BlobError::BadName)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn files_under(dir: &Path) -> Vec<String> {
        let mut names = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(folder) = pending.pop() {
            for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
                if entry.path().is_dir() {
                    pending.push(entry.path());
                } else {
                    names.push(entry.file_name().to_string_lossy().into_owned());
                }
            }
        }
        names
    }

    #[test]
    fn a_pending_blob_is_only_a_temporary_file_until_committed() {
        let dir = temp_dir();
        let store = BlobStore::new(&dir);
        let pending = store.put_pending(b"ecg,1,2,3").unwrap();
        let sha = pending.sha256().to_owned();
        let names = files_under(store.root());
        assert_eq!(names.len(), 1);
        assert_eq!(temp_file_hash(&names[0]), Some(sha.as_str()));
        assert!(store.get(&sha).is_err(), "not readable under its hash yet");

        pending.commit().unwrap();

        assert_eq!(store.get(&sha).unwrap(), b"ecg,1,2,3");
        assert_eq!(files_under(store.root()), vec![sha]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_pending_blob_dropped_uncommitted_leaves_nothing() {
        let dir = temp_dir();
        let store = BlobStore::new(&dir);
        let kept = store.put(b"already stored").unwrap();
        drop(
            store
                .put_pending(b"an upload whose analysis was refused")
                .unwrap(),
        );
        // Bytes already stored stay when a second upload of them is dropped.
        drop(store.put_pending(b"already stored").unwrap());

        assert_eq!(files_under(store.root()), vec![kept]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn temporary_names_carry_their_hash() {
        let sha = "ab".repeat(32);
        assert_eq!(temp_file_hash(&temp_name(&sha)), Some(sha.as_str()));
        assert_eq!(temp_file_hash(&sha), None);
        assert_eq!(temp_file_hash(".key.x.tmp"), None);
    }

    #[test]
    fn an_encrypted_blob_has_the_header_and_none_of_its_plain_bytes() {
        let dir = temp_dir();
        let store = BlobStore::new(&dir);
        let plain: Vec<u8> = b"lead II, 0.125 mV; ".repeat(50);
        let sha = store.put(&plain).unwrap();
        let stored = std::fs::read(store.path_of(&sha)).unwrap();
        assert_eq!(&stored[..8], &MAGIC);
        assert_eq!(stored[8], FORMAT_VERSION);
        assert_eq!(stored.len(), plain.len() + ENCRYPTION_OVERHEAD);
        assert!(!stored.windows(16).any(|w| w == &plain[..16]));
        assert_eq!(store.get(&sha).unwrap(), plain);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn two_stores_of_the_same_bytes_use_different_nonces() {
        let (a, b) = (temp_dir(), temp_dir());
        let key = DataKey::generate();
        let first = BlobStore::with_key(&a, Some(key.clone()));
        let second = BlobStore::with_key(&b, Some(key));
        let sha = first.put(b"same bytes").unwrap();
        second.put(b"same bytes").unwrap();
        let one = std::fs::read(first.path_of(&sha)).unwrap();
        let two = std::fs::read(second.path_of(&sha)).unwrap();
        assert_ne!(one[9..21], two[9..21], "nonces differ");
        assert_ne!(one, two);
        std::fs::remove_dir_all(&a).unwrap();
        std::fs::remove_dir_all(&b).unwrap();
    }

    #[test]
    fn any_flipped_byte_of_an_encrypted_blob_is_refused() {
        let dir = temp_dir();
        let store = BlobStore::new(&dir);
        let sha = store.put(b"a short ECG").unwrap();
        let path = store.path_of(&sha);
        let original = std::fs::read(&path).unwrap();
        // Every byte after the magic: the version (unknown version), the nonce, the ciphertext and
        // the tag (a failed tag).
        for at in MAGIC.len()..original.len() {
            let mut altered = original.clone();
            altered[at] ^= 0x01;
            std::fs::write(&path, &altered).unwrap();
            let err = store.get(&sha).unwrap_err();
            assert!(
                matches!(
                    err,
                    BlobError::Tampered { .. } | BlobError::UnknownVersion { .. }
                ),
                "byte {at}: {err:?}"
            );
        }
        std::fs::write(&path, &original[..20]).unwrap();
        assert!(matches!(store.get(&sha), Err(BlobError::Tampered { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_blob_moved_under_another_name_is_refused() {
        let dir = temp_dir();
        let store = BlobStore::new(&dir);
        let a = store.put(b"first").unwrap();
        let b = store.put(b"second").unwrap();
        std::fs::copy(store.path_of(&a), store.path_of(&b)).unwrap();
        assert!(matches!(store.get(&b), Err(BlobError::Tampered { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clear_blobs_stay_readable_and_are_checked_against_their_name() {
        let dir = temp_dir();
        let clear = BlobStore::new(&dir).with_encryption(false);
        let sha = clear.put(b"abc").unwrap();
        assert_eq!(std::fs::read(clear.path_of(&sha)).unwrap(), b"abc");
        let encrypting = BlobStore::new(&dir);
        assert_eq!(encrypting.get(&sha).unwrap(), b"abc");
        std::fs::write(clear.path_of(&sha), b"abd").unwrap();
        assert!(matches!(
            encrypting.get(&sha),
            Err(BlobError::Tampered { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn plain_bytes_that_look_encrypted_are_encrypted_anyway() {
        let dir = temp_dir();
        let store = BlobStore::new(&dir).with_encryption(false);
        let mut tricky = MAGIC.to_vec();
        tricky.extend_from_slice(&[1; 40]);
        let sha = store.put(&tricky).unwrap();
        assert_eq!(
            std::fs::read(store.path_of(&sha)).unwrap().len(),
            tricky.len() + ENCRYPTION_OVERHEAD
        );
        assert_eq!(store.get(&sha).unwrap(), tricky);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn another_key_cannot_read_a_blob() {
        let dir = temp_dir();
        let store = BlobStore::with_key(&dir, Some(DataKey::generate()));
        let sha = store.put(b"abc").unwrap();
        let other = BlobStore::with_key(&dir, Some(DataKey::generate()));
        assert!(matches!(other.get(&sha), Err(BlobError::Tampered { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_key_file_is_created_once_with_mode_0600() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir();
        let store = BlobStore::open(&dir, None).unwrap();
        let path = dir.join(KEY_FILE);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let text = std::fs::read_to_string(&path).unwrap();
        let again = BlobStore::open(&dir, None).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert_eq!(
            store.key_fingerprint().unwrap(),
            again.key_fingerprint().unwrap()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_key_file_is_created_to_tell_a_fingerprint() {
        let dir = temp_dir();
        let store = BlobStore::new(&dir);
        assert_eq!(store.key_fingerprint().unwrap(), None);
        assert!(!dir.join(KEY_FILE).exists());
    }

    #[test]
    fn keys_parse_from_hex_or_base64_and_nothing_else() {
        let hex = "00".repeat(31) + "ff";
        let key = DataKey::parse(&format!("  {hex}\n")).unwrap();
        let b64 = base64::engine::general_purpose::STANDARD.encode(key.0);
        assert_eq!(DataKey::parse(&b64).unwrap(), key);
        for bad in ["", "abc", &"0".repeat(63), &"g".repeat(64), "AAAA"] {
            assert!(
                matches!(DataKey::parse(bad), Err(KeyError::Malformed)),
                "{bad}"
            );
        }
        assert!(!format!("{key:?}").contains(&hex));
        assert_eq!(key.fingerprint().len(), 16);
    }

    #[test]
    fn a_malformed_key_file_is_a_clear_error() {
        let dir = temp_dir();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(KEY_FILE), "not a key").unwrap();
        let err = BlobStore::open(&dir, None).unwrap_err();
        assert!(err.to_string().contains("64 hexadecimal"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
