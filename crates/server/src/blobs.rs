//! Content-addressed storage of uploaded recordings under the data folder.
//!
//! A file is stored once under `blobs/<first two hex digits>/<SHA-256 hex>`, written to a temporary
//! name and renamed into place, so a crash never leaves half a file under a final name and two
//! uploads of the same bytes share one copy. The database keeps the hash; this module never
//! decides who may read a file (the analysis row that names it does).

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use sha2::{Digest, Sha256};

/// The store rooted at a folder.
#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
}

impl BlobStore {
    /// A store under `data_dir/blobs`.
    pub fn new(data_dir: &Path) -> Self {
        Self {
            root: data_dir.join("blobs"),
        }
    }

    /// The folder the blobs live under.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The lower-case hex SHA-256 of `bytes`.
    pub fn hash(bytes: &[u8]) -> String {
        let digest = Sha256::digest(bytes);
        let mut hex = String::with_capacity(64);
        for byte in digest {
            use std::fmt::Write as _;
            let _ = write!(hex, "{byte:02x}");
        }
        hex
    }

    /// Where the file of a hash lives.
    pub fn path_of(&self, sha256: &str) -> PathBuf {
        self.root.join(&sha256[..2.min(sha256.len())]).join(sha256)
    }

    /// Stores `bytes` (blocking I/O) and returns their hash.
    ///
    /// # Errors
    /// An I/O error creating the folder or writing the file.
    pub fn put(&self, bytes: &[u8]) -> std::io::Result<String> {
        let sha256 = Self::hash(bytes);
        let path = self.path_of(&sha256);
        if path.exists() {
            return Ok(sha256);
        }
        let dir = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(dir)?;
        let tmp = dir.join(format!(".{sha256}.{}.tmp", uuid::Uuid::new_v4()));
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, &path)?;
        Ok(sha256)
    }

    /// Reads a stored file back (blocking I/O).
    ///
    /// # Errors
    /// An I/O error, e.g. when no file has that hash.
    pub fn get(&self, sha256: &str) -> std::io::Result<Vec<u8>> {
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a SHA-256 hex digest",
            ));
        }
        std::fs::read(self.path_of(sha256))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_once_under_the_hash_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("cardio-blobs-{}", uuid::Uuid::new_v4()));
        let store = BlobStore::new(&dir);
        let a = store.put(b"abc").unwrap();
        assert_eq!(
            a,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(store.put(b"abc").unwrap(), a);
        assert_eq!(store.get(&a).unwrap(), b"abc");
        assert!(dir.join("blobs/ba").join(&a).is_file());
        let files = std::fs::read_dir(dir.join("blobs/ba")).unwrap().count();
        assert_eq!(files, 1, "no temporary file is left behind");
        assert!(store.get("../../etc/passwd").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
