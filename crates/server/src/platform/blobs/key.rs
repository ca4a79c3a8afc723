//! The data key: 256 bits from `CARDIO_DATA_KEY` or the key file in the data folder (created with
//! mode 0600 on first need), never logged.

use std::{
    fmt,
    io::Write,
    path::{Path, PathBuf},
};

use aes_gcm::{
    aead::{KeyInit, OsRng},
    Aes256Gcm,
};
use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::to_hex;

/// The key file's name inside the data folder.
pub const KEY_FILE: &str = "data.key";

/// A 256-bit data key. Its `Debug` never shows the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct DataKey(pub(super) [u8; 32]);

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
    /// The key is not the one a shared blob store's blobs are sealed with.
    #[error(
        "this instance's data key (fingerprint {ours}) is not the key the blob store {store} is \
         written with (fingerprint {theirs}): every instance that shares a store must be given \
         the same CARDIO_DATA_KEY"
    )]
    Mismatch {
        /// This instance's key's fingerprint.
        ours: String,
        /// The fingerprint the store's marker names.
        theirs: String,
        /// The store's URL.
        store: String,
    },
    /// The key is not the one the recordings of the local store are sealed with.
    #[error(
        "this server's data key (fingerprint {ours}) is not the key the recordings in {store} are \
         sealed with (fingerprint {theirs}): start it with that key, as CARDIO_DATA_KEY or as the \
         key file {KEY_FILE} in the data folder"
    )]
    StoreMismatch {
        /// This server's key's fingerprint.
        ours: String,
        /// The fingerprint the store's marker names (or "not recorded" for a store from before
        /// the marker whose recordings do not open with this key).
        theirs: String,
        /// The store's folder.
        store: String,
    },
    /// There is no key (neither configured nor in the key file) while the store holds recordings
    /// sealed with one: a new key would make them, and every upload after it, unreadable.
    #[error(
        "the data key file {key_file} is missing, but {store} holds recordings sealed with a data \
         key (fingerprint {theirs}): put that key file back, or set CARDIO_DATA_KEY to that key; \
         no new key is made, as the recordings could not be read with it",
        key_file = key_file.display()
    )]
    Lost {
        /// Where the key file should be.
        key_file: PathBuf,
        /// The store's folder.
        store: String,
        /// The fingerprint the store's marker names, or "not recorded".
        theirs: String,
    },
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

/// Reads the key file, or creates it (mode 0600, written under a temporary name and linked into
/// place, so a concurrent reader never sees half a key) when `create`.
pub(super) fn load_key_file(path: &Path, create: bool) -> Result<DataKey, KeyError> {
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
