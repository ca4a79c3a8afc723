//! Time-based one-time passwords (TOTP, RFC 6238) as ordinary authenticator apps make them: HMAC-SHA1,
//! 30-second steps, 6 digits, a 160-bit secret shown as base32 and as an `otpauth://` URI (the QR
//! code's content), plus the one-time recovery codes given at enrolment.
//!
//! A code is accepted for the current step and one step either side (clock drift); the caller keeps
//! the matched step and refuses codes of that step or earlier ones afterwards (no replay).
//!
//! The codes and the base32 key come from `totp-rs`, the comparison in constant time from `subtle`;
//! what is written here is the step bookkeeping, the URI and the recovery codes.
//!
//! ```
//! use cardio_server::accounts::auth::totp;
//! let secret = b"12345678901234567890";
//! // RFC 6238, appendix B: T = 59 s gives 94287082 (8 digits); our 6-digit code is its tail.
//! assert_eq!(totp::code_at(secret, 59 / 30), "287082");
//! ```

use rand::{rngs::OsRng, Rng, RngCore};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use totp_rs::{Algorithm, TOTP};

/// Length of a time step in seconds.
pub const STEP_SECS: i64 = 30;
/// Digits of a code.
pub const DIGITS: u32 = 6;
/// Bytes of a new secret (160 bits, RFC 4226's recommendation).
pub const SECRET_BYTES: usize = 20;
/// The issuer an authenticator app shows next to the account.
pub const ISSUER: &str = "Cardio";
/// How many recovery codes an enrolment gives.
pub const RECOVERY_CODES: usize = 10;

/// A new random secret.
pub fn new_secret() -> Vec<u8> {
    let mut bytes = vec![0u8; SECRET_BYTES];
    OsRng.fill_bytes(&mut bytes);
    bytes
}

/// The RFC 6238 generator of a secret (SHA-1, [`DIGITS`] digits, [`STEP_SECS`]-second steps).
fn generator(secret: &[u8]) -> TOTP {
    TOTP::new_unchecked(
        Algorithm::SHA1,
        DIGITS as usize,
        1,
        STEP_SECS.unsigned_abs(),
        secret.to_vec(),
        Some(ISSUER.to_string()),
        String::new(),
    )
}

/// The time step that contains `unix_ms`.
pub fn step_at(unix_ms: i64) -> i64 {
    unix_ms.div_euclid(1000).div_euclid(STEP_SECS)
}

/// The 6-digit code of time step `step`, zero-padded.
pub fn code_at(secret: &[u8], step: i64) -> String {
    let counter = u64::try_from(step).unwrap_or(0);
    generator(secret).generate(counter * STEP_SECS.unsigned_abs())
}

/// The step (current, previous or next) whose code is `code`, if any. Compares in constant time.
pub fn matching_step(secret: &[u8], code: &str, unix_ms: i64) -> Option<i64> {
    let code = code.trim();
    if code.len() != DIGITS as usize || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let now = step_at(unix_ms);
    let mut found = None;
    for step in [now - 1, now, now + 1] {
        let same: bool = code_at(secret, step)
            .as_bytes()
            .ct_eq(code.as_bytes())
            .into();
        if same && found.is_none() {
            found = Some(step);
        }
    }
    found
}

/// Whether `text` looks like a TOTP code (6 digits) rather than a recovery code.
pub fn is_code_shaped(text: &str) -> bool {
    let text = text.trim();
    text.len() == DIGITS as usize && text.bytes().all(|b| b.is_ascii_digit())
}

/// RFC 4648 base32 without padding, as authenticator apps expect the manual key.
pub fn base32(bytes: &[u8]) -> String {
    generator(bytes).get_secret_base32()
}

/// Hex of bytes (how the secret is stored).
pub fn to_hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

/// Bytes of a hex string; `None` when it is not hex.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
fn percent_encode(text: &str) -> String {
    use std::fmt::Write;
    text.bytes()
        .fold(String::with_capacity(text.len()), |mut out, b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                out.push(char::from(b));
            } else {
                let _ = write!(out, "%{b:02X}");
            }
            out
        })
}

/// The `otpauth://` URI of a secret for `account` (the email), issuer Cardio (Key Uri Format).
pub fn otpauth_uri(secret: &[u8], account: &str) -> String {
    format!(
        "otpauth://totp/{issuer}:{account}?secret={secret}&issuer={issuer}&algorithm=SHA1&digits={DIGITS}&period={STEP_SECS}",
        issuer = percent_encode(ISSUER),
        account = percent_encode(account),
        secret = base32(secret),
    )
}

/// Ten new recovery codes, `xxxxx-xxxxx` from an alphabet without look-alikes (about 50 bits each).
pub fn new_recovery_codes() -> Vec<String> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = OsRng;
    (0..RECOVERY_CODES)
        .map(|_| {
            let mut code = String::with_capacity(11);
            for i in 0..10 {
                if i == 5 {
                    code.push('-');
                }
                code.push(char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]));
            }
            code
        })
        .collect()
}

/// The stored form of a recovery code: SHA-256 hex of the code without spaces or dashes, lower-case
/// (so `ABCDE-12345`, `abcde12345` and `abcde 12345` are the same code).
pub fn recovery_code_hash(code: &str) -> String {
    let normalised: String = code
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    to_hex(&Sha256::digest(normalised.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RFC_SECRET: &[u8] = b"12345678901234567890";

    /// RFC 6238 appendix B, the SHA-1 column: (time in seconds, 8-digit TOTP).
    const RFC_6238_SHA1: [(i64, &str); 6] = [
        (59, "94287082"),
        (1_111_111_109, "07081804"),
        (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"),
        (2_000_000_000, "69279037"),
        (20_000_000_000, "65353130"),
    ];

    #[test]
    fn matches_the_rfc_6238_test_vectors() {
        for (secs, expected) in RFC_6238_SHA1 {
            let step = step_at(secs * 1000);
            let eight = TOTP::new_unchecked(
                Algorithm::SHA1,
                8,
                1,
                30,
                RFC_SECRET.to_vec(),
                None,
                String::new(),
            )
            .generate(secs.unsigned_abs());
            assert_eq!(eight, expected, "T = {secs}");
            assert_eq!(code_at(RFC_SECRET, step), expected[2..], "T = {secs}");
        }
    }

    #[test]
    fn matches_the_rfc_4226_hotp_values() {
        // RFC 4226 appendix D.
        let expected = [
            755_224, 287_082, 359_152, 969_429, 338_314, 254_676, 287_922, 162_583, 399_871,
            520_489,
        ];
        // A TOTP code is the HOTP value of the step number.
        for (counter, value) in expected.into_iter().enumerate() {
            assert_eq!(
                code_at(RFC_SECRET, i64::try_from(counter).unwrap()),
                format!("{value:06}")
            );
        }
    }

    #[test]
    fn accepts_one_step_either_side_and_no_further() {
        let now_ms = 1_234_567_890_000;
        let now = step_at(now_ms);
        for delta in [-1, 0, 1] {
            let code = code_at(RFC_SECRET, now + delta);
            assert_eq!(matching_step(RFC_SECRET, &code, now_ms), Some(now + delta));
        }
        for delta in [-2, 2] {
            let code = code_at(RFC_SECRET, now + delta);
            assert_eq!(matching_step(RFC_SECRET, &code, now_ms), None);
        }
        assert_eq!(matching_step(RFC_SECRET, "12345", now_ms), None);
        assert_eq!(matching_step(RFC_SECRET, "abcdef", now_ms), None);
    }

    #[test]
    fn base32_follows_rfc_4648() {
        // RFC 4648 §10 (without padding).
        assert_eq!(base32(b""), "");
        assert_eq!(base32(b"f"), "MY");
        assert_eq!(base32(b"fo"), "MZXQ");
        assert_eq!(base32(b"foo"), "MZXW6");
        assert_eq!(base32(b"foob"), "MZXW6YQ");
        assert_eq!(base32(b"fooba"), "MZXW6YTB");
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI");
        assert_eq!(base32(RFC_SECRET), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    }

    #[test]
    fn the_uri_names_the_issuer_and_the_account() {
        let uri = otpauth_uri(RFC_SECRET, "ana+1@clinic.test");
        assert_eq!(
            uri,
            "otpauth://totp/Cardio:ana%2B1%40clinic.test?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\
             &issuer=Cardio&algorithm=SHA1&digits=6&period=30"
        );
    }

    #[test]
    fn hex_round_trips() {
        let secret = new_secret();
        assert_eq!(secret.len(), SECRET_BYTES);
        assert_eq!(from_hex(&to_hex(&secret)).unwrap(), secret);
        assert_eq!(from_hex("zz"), None);
    }

    #[test]
    fn recovery_codes_are_ten_distinct_and_hash_the_same_however_typed() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), 10);
        let unique: std::collections::HashSet<_> = codes.iter().collect();
        assert_eq!(unique.len(), 10);
        let code = &codes[0];
        assert_eq!(code.len(), 11);
        let typed = format!(" {} ", code.to_uppercase().replace('-', " "));
        assert_eq!(recovery_code_hash(code), recovery_code_hash(&typed));
        assert_ne!(recovery_code_hash(code), recovery_code_hash(&codes[1]));
        assert!(!is_code_shaped(code));
        assert!(is_code_shaped(" 123456 "));
    }
}
