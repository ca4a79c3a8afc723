//! Sealing and opening a blob with AES-256-GCM (NIST SP 800-38D): the file header, a fresh
//! 96-bit nonce per blob, and the header and name as additional authenticated data.

use aes_gcm::{
    aead::{Aead, AeadCore, KeyInit, OsRng, Payload},
    Aes256Gcm, Nonce,
};

use super::{BlobError, DataKey};

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

/// The additional authenticated data: the header and the blob's name.
pub(super) fn aad(sha256: &str) -> Vec<u8> {
    let mut aad = Vec::with_capacity(MAGIC.len() + 1 + sha256.len());
    aad.extend_from_slice(&MAGIC);
    aad.push(FORMAT_VERSION);
    aad.extend_from_slice(sha256.to_ascii_lowercase().as_bytes());
    aad
}

/// Encrypts `plain` into the stored format (AES-256-GCM, SP 800-38D, random 96-bit nonce).
pub(super) fn seal(key: &DataKey, sha256: &str, plain: &[u8]) -> Vec<u8> {
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
pub(super) fn open(key: &DataKey, sha256: &str, stored: &[u8]) -> Result<Vec<u8>, BlobError> {
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
