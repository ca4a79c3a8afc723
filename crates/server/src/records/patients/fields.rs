//! Validation of the patient form (spec §5): required fields, a real date of birth not in the
//! future, gender, phone and email formats, length limits. Each error names the field.

use serde::{Deserialize, Serialize};
use time::{macros::format_description, Date, OffsetDateTime};
use utoipa::ToSchema;

use crate::{accounts::auth::email::Email, platform::error::ApiError};

/// Longest name, in characters.
pub const MAX_NAME_LEN: usize = 100;
/// Longest free-text field (history, medications, ...), in characters.
pub const MAX_TEXT_LEN: usize = 5000;
/// Longest short field (phone, city, ...), in characters.
pub const MAX_SHORT_LEN: usize = 200;

/// Gender as the intake form offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Gender {
    /// Male.
    Male,
    /// Female.
    Female,
    /// Other.
    Other,
}

impl Gender {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Male => "male",
            Self::Female => "female",
            Self::Other => "other",
        }
    }

    /// Parses the stored or submitted text.
    ///
    /// # Errors
    /// A 422 naming the field when the text is not one of the three.
    pub fn parse(text: &str) -> Result<Self, ApiError> {
        match text.trim().to_lowercase().as_str() {
            "male" => Ok(Self::Male),
            "female" => Ok(Self::Female),
            "other" => Ok(Self::Other),
            "" => Err(invalid("Gender is required.")),
            _ => Err(invalid("Gender must be male, female or other.")),
        }
    }
}

/// Patient status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Under care (the status at creation).
    Active,
    /// No longer under care.
    Inactive,
}

impl Status {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Inactive => "inactive",
        }
    }

    /// Parses the stored text (anything unknown reads as inactive).
    pub fn from_stored(text: &str) -> Self {
        if text == "active" {
            Self::Active
        } else {
            Self::Inactive
        }
    }
}

fn invalid(message: &str) -> ApiError {
    ApiError::Validation(message.to_owned())
}

/// A required text field: trimmed, non-empty, at most `max` characters.
///
/// # Errors
/// "{label} is required." or "{label} must be at most {max} characters."
pub fn required(label: &str, value: &str, max: usize) -> Result<String, ApiError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(ApiError::Validation(format!("{label} is required.")));
    }
    limited(label, value, max).map(ToOwned::to_owned)
}

/// An optional text field: `None` when absent or blank (stored only when filled).
///
/// # Errors
/// "{label} must be at most {max} characters."
pub fn optional(label: &str, value: Option<&str>, max: usize) -> Result<Option<String>, ApiError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(value) => limited(label, value, max).map(|v| Some(v.to_owned())),
    }
}

fn limited<'a>(label: &str, value: &'a str, max: usize) -> Result<&'a str, ApiError> {
    if value.chars().count() > max {
        return Err(ApiError::Validation(format!(
            "{label} must be at most {max} characters."
        )));
    }
    if value
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        return Err(ApiError::Validation(format!(
            "{label} contains invalid characters."
        )));
    }
    Ok(value)
}

/// A date of birth: `YYYY-MM-DD`, a real calendar date, not in the future, not before 1900.
///
/// # Errors
/// A 422 naming the field.
pub fn date_of_birth(value: &str, today: Date) -> Result<String, ApiError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(invalid("Date of birth is required."));
    }
    let date = Date::parse(value, format_description!("[year]-[month]-[day]"))
        .map_err(|_| invalid("Date of birth must be a real date (YYYY-MM-DD)."))?;
    if date > today {
        return Err(invalid("Date of birth cannot be in the future."));
    }
    if date.year() < 1900 {
        return Err(invalid("Date of birth must be in 1900 or later."));
    }
    Ok(value.to_owned())
}

/// Today's date in UTC.
pub fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

/// Fewest digits of a phone number (a short emergency or internal number has three).
pub const PHONE_MIN_DIGITS: usize = 3;
/// Most digits of a phone number (E.164 allows 15; extensions and prefixes need a few more).
pub const PHONE_MAX_DIGITS: usize = 20;

/// A phone number: digits with optional `+`, spaces, dots, dashes and parentheses;
/// [`PHONE_MIN_DIGITS`] to [`PHONE_MAX_DIGITS`] digits. The error says what is wrong: a character
/// that has no place in a phone number, or too few or too many digits.
///
/// # Errors
/// A 422 naming the field (`label` is "Phone" or "Emergency phone").
pub fn phone(label: &str, value: &str) -> Result<String, ApiError> {
    let value = required(label, value, MAX_SHORT_LEN)?;
    let allowed = value
        .chars()
        .all(|c| c.is_ascii_digit() || " +-.()/".contains(c));
    let digits = value.chars().filter(char::is_ascii_digit).count();
    if !allowed {
        return Err(ApiError::Validation(format!(
            "{label} must be a phone number (digits, spaces, + - . ( ))."
        )));
    }
    if digits < PHONE_MIN_DIGITS {
        return Err(ApiError::Validation(format!(
            "{label} is too short: a phone number has at least {PHONE_MIN_DIGITS} digits."
        )));
    }
    if digits > PHONE_MAX_DIGITS {
        return Err(ApiError::Validation(format!(
            "{label} is too long: a phone number has at most {PHONE_MAX_DIGITS} digits."
        )));
    }
    Ok(value)
}

/// An optional email: `None` when blank, else it must be a valid address.
///
/// # Errors
/// "Invalid email address." (spec §8).
pub fn optional_email(value: Option<&str>) -> Result<Option<String>, ApiError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(value) => Email::parse(value)
            .map(|e| Some(e.as_str().to_owned()))
            .map_err(invalid),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn dates_must_be_real_and_not_in_the_future() {
        let today = date!(2026 - 11 - 22);
        assert_eq!(date_of_birth("1980-02-29", today).unwrap(), "1980-02-29");
        assert_eq!(date_of_birth("2026-11-22", today).unwrap(), "2026-11-22");
        for (bad, message) in [
            ("", "Date of birth is required."),
            (
                "1981-02-29",
                "Date of birth must be a real date (YYYY-MM-DD).",
            ),
            (
                "22/11/1980",
                "Date of birth must be a real date (YYYY-MM-DD).",
            ),
            ("2026-11-23", "Date of birth cannot be in the future."),
            ("1899-12-31", "Date of birth must be in 1900 or later."),
        ] {
            assert_eq!(
                date_of_birth(bad, today).unwrap_err().to_string(),
                message,
                "{bad}"
            );
        }
    }

    #[test]
    fn phones_accept_common_punctuation_only() {
        assert_eq!(
            phone("Phone", " +34 (91) 555-12.34 ").unwrap(),
            "+34 (91) 555-12.34"
        );
        assert_eq!(
            phone("Phone", "call me").unwrap_err().to_string(),
            "Phone must be a phone number (digits, spaces, + - . ( ))."
        );
        for short in ["1", "12", "+1 2"] {
            assert_eq!(
                phone("Phone", short).unwrap_err().to_string(),
                "Phone is too short: a phone number has at least 3 digits.",
                "{short}"
            );
        }
        assert_eq!(phone("Phone", "112").unwrap(), "112");
        assert_eq!(
            phone("Emergency phone", &"1".repeat(21))
                .unwrap_err()
                .to_string(),
            "Emergency phone is too long: a phone number has at most 20 digits."
        );
        assert_eq!(
            phone("Phone", "").unwrap_err().to_string(),
            "Phone is required."
        );
    }

    #[test]
    fn optional_fields_are_none_when_blank() {
        assert_eq!(optional("City", Some("   "), 10).unwrap(), None);
        assert_eq!(optional("City", None, 10).unwrap(), None);
        assert_eq!(
            optional("City", Some(" Lyon "), 10).unwrap().as_deref(),
            Some("Lyon")
        );
        assert!(optional("City", Some("x".repeat(11).as_str()), 10).is_err());
    }

    #[test]
    fn gender_is_one_of_three() {
        assert_eq!(Gender::parse("Female").unwrap(), Gender::Female);
        assert_eq!(
            Gender::parse("unknown").unwrap_err().to_string(),
            "Gender must be male, female or other."
        );
    }
}
