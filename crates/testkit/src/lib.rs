//! What Cardio's tests need from their surroundings, and what happens when it is missing: the
//! public datasets (`$CARDIO_DATASETS`, unpacked by `../shared/datasets/unpack`), a PostgreSQL
//! server (`$TEST_POSTGRES_URL`, set by the Makefile when one answers) and an S3-compatible server
//! (`$TEST_S3_SERVER`, installed by `make s3-server`); and the synthetic recordings tests upload
//! ([`signals`]).
//!
//! On a developer's machine a test whose precondition is missing says why on stderr and passes,
//! so the suite runs anywhere. Under CI (`CI=true`) it fails instead: a CI machine that lost its
//! database or its datasets must not pass by skipping the tests that need them.
//!
//! ```no_run
//! # fn main() {
//! let Some(root) = cardio_testkit::datasets(&["mitdb/100.hea"]) else {
//!     return; // skipped here; under CI=true the call above panics
//! };
//! assert!(root.join("mitdb/100.hea").is_file());
//! # }
//! ```

use std::path::PathBuf;

pub mod signals;

/// Whether the tests run under CI (`CI=true` or `CI=1`, as CI services set it).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The answer for a missing precondition: `None` after saying why on a developer's machine.
///
/// # Panics
/// Under CI, with the same reason.
pub fn missing<T>(why: &str) -> Option<T> {
    assert!(!under_ci(), "{why}: required when CI=true");
    eprintln!("skipped: {why}");
    None
}

/// The datasets folder (`$CARDIO_DATASETS`) when it is set and holds every path of `required`
/// (files or folders, relative to it); else see [`missing`].
///
/// # Panics
/// Under CI when a path is missing.
pub fn datasets(required: &[&str]) -> Option<PathBuf> {
    let Some(root) = std::env::var_os("CARDIO_DATASETS").map(PathBuf::from) else {
        return missing("CARDIO_DATASETS is not set (run ../shared/datasets/unpack and export the folder it prints)");
    };
    match required.iter().find(|p| !root.join(p).exists()) {
        Some(p) => missing(&format!("{} is not unpacked", root.join(p).display())),
        None => Some(root),
    }
}

/// One dataset file (`relative` to `$CARDIO_DATASETS`), or see [`missing`].
///
/// # Panics
/// Under CI when it is missing.
pub fn dataset_file(relative: &str) -> Option<PathBuf> {
    datasets(&[relative]).map(|root| root.join(relative))
}

/// Every regular file under `dir`, at any depth (a missing folder holds none).
pub fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            if entry.path().is_dir() {
                pending.push(entry.path());
            } else {
                found.push(entry.path());
            }
        }
    }
    found
}

/// The command of an S3-compatible server the two-instance test starts on a free port
/// (`$TEST_S3_SERVER`, set by the Makefile to the `moto_server` it installs), or see [`missing`].
///
/// # Panics
/// Under CI when it is not set or not a file.
pub fn s3_server() -> Option<PathBuf> {
    match std::env::var_os("TEST_S3_SERVER").map(PathBuf::from) {
        Some(path) if path.is_file() => Some(path),
        Some(path) => missing(&format!(
            "TEST_S3_SERVER names {}, which is not a file (make s3-server installs it)",
            path.display()
        )),
        None => missing(
            "TEST_S3_SERVER is not set (make s3-server installs an S3-compatible test server)",
        ),
    }
}

/// The Python of the venv holding the peer readers (wfdb-python, pyEDFlib) that the convert test
/// reads its output back with (`$TEST_PEER_PYTHON`, set by the Makefile to the venv `make
/// peer-readers` installs), or see [`missing`].
///
/// # Panics
/// Under CI when it is not set or not a file.
pub fn peer_python() -> Option<PathBuf> {
    match std::env::var_os("TEST_PEER_PYTHON").map(PathBuf::from) {
        Some(path) if path.is_file() => Some(path),
        Some(path) => missing(&format!(
            "TEST_PEER_PYTHON names {}, which is not a file (make peer-readers installs it)",
            path.display()
        )),
        None => missing(
            "TEST_PEER_PYTHON is not set (make peer-readers installs wfdb-python and pyEDFlib)",
        ),
    }
}

/// The PostgreSQL server the API tests make their throwaway databases on
/// (`$TEST_POSTGRES_URL`), or see [`missing`].
///
/// # Panics
/// Under CI when it is not set.
pub fn postgres_url() -> Option<String> {
    match std::env::var("TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => missing("TEST_POSTGRES_URL is not set (no PostgreSQL answered at 127.0.0.1:5432)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One test, so that no other test of this crate sees the variables it sets.
    #[test]
    fn a_missing_precondition_skips_here_and_fails_under_ci() {
        let saved = (std::env::var_os("CI"), std::env::var_os("CARDIO_DATASETS"));
        std::env::remove_var("CARDIO_DATASETS");
        std::env::set_var("CI", "false");
        assert_eq!(datasets(&["mitdb"]), None);

        std::env::set_var("CI", "true");
        let err = std::panic::catch_unwind(|| datasets(&["mitdb"])).unwrap_err();
        let text = err.downcast_ref::<String>().unwrap();
        assert!(text.starts_with("CARDIO_DATASETS is not set"), "{text}");
        assert!(text.ends_with(": required when CI=true"), "{text}");

        let dir = std::env::temp_dir().join(format!("cardio-testkit-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("mitdb")).unwrap();
        std::env::set_var("CARDIO_DATASETS", &dir);
        assert_eq!(datasets(&["mitdb"]), Some(dir.clone()));
        let err = std::panic::catch_unwind(|| dataset_file("cinc2016/a0001.wav")).unwrap_err();
        let text = err.downcast_ref::<String>().unwrap();
        assert!(
            text.contains("cinc2016/a0001.wav is not unpacked"),
            "{text}"
        );
        std::fs::remove_dir_all(&dir).unwrap();

        for (name, value) in [("CI", saved.0), ("CARDIO_DATASETS", saved.1)] {
            match value {
                Some(v) => std::env::set_var(name, v),
                None => std::env::remove_var(name),
            }
        }
    }
}
