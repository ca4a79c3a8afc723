//! Tests of the blob store: storing, deduplication, pending writes, encryption and tamper checks.

use base64::Engine as _;

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

/// The names of the files under `dir`.
fn files_under(dir: &Path) -> Vec<String> {
    cardio_testkit::files_under(dir)
        .iter()
        .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
        .collect()
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

/// A store with one sealed recording, opened with `key` (`None`: the key file).
fn store_with_a_recording(key: Option<DataKey>) -> (PathBuf, BlobStore) {
    let dir = temp_dir();
    let store = BlobStore::open(&dir, key).unwrap();
    store.put(b"a recording").unwrap();
    (dir, store)
}

#[test]
fn another_data_key_is_refused_at_start_with_what_to_do() {
    let key = DataKey::generate();
    let (dir, store) = store_with_a_recording(Some(key.clone()));
    let other = DataKey::generate();

    let refused = BlobStore::open(&dir, Some(other.clone())).unwrap_err();

    assert_eq!(
        refused.to_string(),
        format!(
            "this server's data key (fingerprint {}) is not the key the recordings in {} are \
             sealed with (fingerprint {}): start it with that key, as CARDIO_DATA_KEY or as the \
             key file data.key in the data folder",
            other.fingerprint(),
            store.root().display(),
            key.fingerprint()
        )
    );
    assert!(BlobStore::open(&dir, Some(key)).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_deleted_key_file_is_not_replaced_while_recordings_exist() {
    let (dir, store) = store_with_a_recording(None);
    let fingerprint = store.key_fingerprint().unwrap().unwrap();
    let kept = std::fs::read(dir.join(KEY_FILE)).unwrap();
    std::fs::remove_file(dir.join(KEY_FILE)).unwrap();

    let refused = BlobStore::open(&dir, None).unwrap_err();

    assert_eq!(
        refused.to_string(),
        format!(
            "the data key file {} is missing, but {} holds recordings sealed with a data key \
             (fingerprint {fingerprint}): put that key file back, or set CARDIO_DATA_KEY to that \
             key; no new key is made, as the recordings could not be read with it",
            dir.join(KEY_FILE).display(),
            store.root().display()
        )
    );
    assert!(!dir.join(KEY_FILE).exists(), "no new key made");
    std::fs::write(dir.join(KEY_FILE), kept).unwrap();
    assert!(BlobStore::open(&dir, None).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_store_from_before_the_marker_is_checked_against_its_recordings() {
    let key = DataKey::generate();
    let dir = temp_dir();
    BlobStore::with_key(&dir, Some(key.clone()))
        .put(b"sealed before markers existed")
        .unwrap();
    let other = DataKey::generate();
    let refused = BlobStore::open(&dir, Some(other)).unwrap_err().to_string();
    assert!(refused.contains("(fingerprint not recorded)"), "{refused}");
    // The right key opens it, and the marker is written from then on.
    BlobStore::open(&dir, Some(key)).unwrap();
    assert!(dir.join("blobs").join(remote::MARKER).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
