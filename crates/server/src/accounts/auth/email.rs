//! `Email`: an address that has passed our format check, trimmed and lower-cased.

use std::fmt;

/// The message for an address that fails the check (spec §8, exactly).
pub const INVALID_EMAIL: &str = "Invalid email address.";

/// A syntactically valid email address, normalised (trimmed, lower-case) so that comparisons are
/// case-insensitive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// Checks and normalises an address: one `@`, a non-empty local part, a domain with a dot and
    /// no empty labels, no whitespace or control characters, at most 254 characters (RFC 5321).
    ///
    /// # Errors
    /// [`INVALID_EMAIL`] when the address fails any of these rules.
    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        let email = raw.trim().to_lowercase();
        if email.is_empty() || email.len() > 254 {
            return Err(INVALID_EMAIL);
        }
        if email.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(INVALID_EMAIL);
        }
        let Some((local, domain)) = email.split_once('@') else {
            return Err(INVALID_EMAIL);
        };
        let domain_ok = domain.contains('.')
            && !domain.contains('@')
            && domain
                .split('.')
                .all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'));
        if local.is_empty() || local.len() > 64 || !domain_ok {
            return Err(INVALID_EMAIL);
        }
        Ok(Self(email))
    }

    /// The normalised address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_normalises_ordinary_addresses() {
        assert_eq!(
            Email::parse("  Ana.Ruiz@Clinic.ES ").unwrap().as_str(),
            "ana.ruiz@clinic.es"
        );
        assert!(Email::parse("a+tag@sub.example.org").is_ok());
    }

    #[test]
    fn rejects_malformed_addresses() {
        for bad in [
            "",
            "plain",
            "@example.com",
            "a@",
            "a@b",
            "a@@b.com",
            "a@b..com",
            "a b@c.com",
            "a@.com",
            "a@b.com.",
            "a@-b.com",
        ] {
            assert_eq!(
                Email::parse(bad),
                Err(INVALID_EMAIL),
                "{bad:?} should be rejected"
            );
        }
    }

    #[test]
    fn rejects_overlong_addresses() {
        let long = format!("{}@example.com", "a".repeat(250));
        assert!(Email::parse(&long).is_err());
    }
}
