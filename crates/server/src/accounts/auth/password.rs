//! Password rules and Argon2id hashing, always run on the blocking pool.
//!
//! Argon2id with the `argon2` crate's defaults (19 MiB, 2 passes, 1 lane), the OWASP baseline;
//! the PHC string carries the parameters, so they can be raised later without breaking old hashes.
//!
//! At most one hash per core runs at once ([`HASHING`]): each takes 19 MiB, and without a bound
//! memory grew with the requests in flight (200 parallel sign-ups took the server to 7 GB).
//! Requests beyond it wait their turn, holding nothing but their small JSON body. (What a hash frees
//! goes back to the system because the `cardio` binary runs on mimalloc: with glibc's allocator,
//! 40 sign-ups one after another left 384 MB resident.)

use argon2::{
    password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
    Argon2,
};
use std::{
    collections::HashSet,
    sync::{LazyLock, OnceLock},
};
use tokio::sync::Semaphore;

use crate::platform::error::ApiError;

/// Minimum password length (spec §9).
pub const MIN_PASSWORD_LEN: usize = 6;
/// Upper bound, so that hashing cannot be used to burn CPU.
pub const MAX_PASSWORD_LEN: usize = 1024;
/// The message for a short password (spec §5, exactly).
pub const PASSWORD_TOO_SHORT: &str = "Password must be at least 6 characters";

/// The message for a password on the common-passwords list.
pub const PASSWORD_TOO_COMMON: &str =
    "This password is one of the most commonly used and easily guessed. Please choose another.";

/// The most common passwords (lower case), embedded from `common_passwords.txt` (its header names
/// the source; `scripts/common-passwords.sh` regenerates it).
static COMMON_PASSWORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("common_passwords.txt")
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
});

/// Whether `password` is on the common-passwords list, whatever its letter case.
pub fn is_common(password: &str) -> bool {
    COMMON_PASSWORDS.contains(password.to_lowercase().as_str())
}

/// Checks a new password against the length rules (counted in characters, not bytes) and the
/// common-passwords list.
///
/// # Errors
/// A 422 with [`PASSWORD_TOO_SHORT`], [`PASSWORD_TOO_COMMON`], or a message for an overlong
/// password.
pub fn check_new_password(password: &str) -> Result<(), ApiError> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_LEN {
        return Err(ApiError::Validation(PASSWORD_TOO_SHORT.into()));
    }
    if chars > MAX_PASSWORD_LEN {
        return Err(ApiError::Validation(format!(
            "Password must be at most {MAX_PASSWORD_LEN} characters"
        )));
    }
    if is_common(password) {
        return Err(ApiError::Validation(PASSWORD_TOO_COMMON.into()));
    }
    Ok(())
}

/// One permit per core: how many Argon2 computations may run at once.
pub static HASHING: LazyLock<Semaphore> = LazyLock::new(|| {
    Semaphore::new(std::thread::available_parallelism().map_or(2, std::num::NonZero::get))
});

/// Runs `work` on the blocking pool once a [`HASHING`] permit is free.
async fn with_permit<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let _permit = HASHING
        .acquire()
        .await
        .map_err(|_| ApiError::Internal("hashing semaphore closed".into()))?;
    Ok(tokio::task::spawn_blocking(work).await?)
}

/// Hashes a password with Argon2id on the blocking pool.
///
/// # Errors
/// [`ApiError::Internal`] if hashing fails (it does not for valid input).
pub async fn hash(password: String) -> Result<String, ApiError> {
    with_permit(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| ApiError::Internal(format!("argon2 hash: {e}")))
    })
    .await?
}

/// Verifies a password against a stored PHC string on the blocking pool. With no stored hash (an
/// unknown account) it verifies against a fixed dummy hash, so both cases take the same time.
///
/// # Errors
/// [`ApiError::Internal`] if the blocking task fails.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, ApiError> {
    let known = stored.is_some();
    let matches = with_permit(move || {
        let stored = stored.unwrap_or_else(|| dummy_hash().to_owned());
        PasswordHash::new(&stored).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
    })
    .await?;
    Ok(known && matches)
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(b"not a real password", &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enforces_the_six_character_minimum_in_characters() {
        assert!(check_new_password("12345").is_err());
        assert!(check_new_password("x2y4z6").is_ok());
        // Six characters, more than six bytes.
        assert!(check_new_password("ñandúé").is_ok());
        let err = check_new_password("abc").unwrap_err();
        assert_eq!(err.to_string(), PASSWORD_TOO_SHORT);
    }

    #[test]
    fn refuses_the_most_common_passwords_whatever_their_case() {
        assert!(
            COMMON_PASSWORDS.len() >= 10_000,
            "{}",
            COMMON_PASSWORDS.len()
        );
        for common in [
            "123456", "password", "Password", "QWERTY", "iloveyou", "football",
        ] {
            let err = check_new_password(common).unwrap_err();
            assert_eq!(err.to_string(), PASSWORD_TOO_COMMON, "{common}");
        }
        assert!(check_new_password("secret-pass").is_ok());
        assert!(check_new_password("correct horse battery").is_ok());
    }

    #[test]
    fn rejects_overlong_passwords() {
        assert!(check_new_password(&"x".repeat(MAX_PASSWORD_LEN + 1)).is_err());
    }

    #[tokio::test]
    async fn hashes_with_argon2id_and_verifies() {
        let hashed = hash("correct horse".into()).await.unwrap();
        assert!(hashed.starts_with("$argon2id$"));
        assert!(!hashed.contains("correct horse"));
        assert!(verify("correct horse".into(), Some(hashed.clone()))
            .await
            .unwrap());
        assert!(!verify("wrong".into(), Some(hashed)).await.unwrap());
        assert!(!verify("anything".into(), None).await.unwrap());
    }
}
