//! `GET /api/settings` and `PUT /api/settings`: each user's preferences, saved on the server
//! (spec §2 Settings): theme, language, the three notification toggles and the session timeout.
//!
//! Until a user saves, the defaults are answered with `updatedAt: null`, so the browser can keep
//! the theme and language it already had. The session timeout is enforced as an idle timeout by
//! the session extractor ([`crate::accounts::auth::session::CurrentUser`]).

use axum::{extract::State, routing::get, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{any::AnyRow, Row};
use utoipa::ToSchema;

pub use crate::accounts::auth::session::SessionTimeout;
use crate::{
    accounts::auth::session::CurrentUser,
    platform::db::{ms_to_rfc3339, now_ms, Db},
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};

/// The message for a bad theme.
pub const INVALID_THEME: &str = "Theme must be light, dark or auto.";
/// The message for a bad language.
pub const INVALID_LANGUAGE: &str = "Language must be en, es or fr.";
/// The message for a bad session timeout.
pub const INVALID_SESSION_TIMEOUT: &str = "Session timeout must be 15m, 30m, 1h or never.";

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/settings", get(read).put(save))
}

/// Colour theme; `auto` follows the system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Light colours.
    Light,
    /// Dark colours.
    Dark,
    /// The operating system's choice.
    Auto,
}

impl Theme {
    fn as_str(self) -> &'static str {
        match self {
            Self::Light => "light",
            Self::Dark => "dark",
            Self::Auto => "auto",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text {
            "light" => Some(Self::Light),
            "dark" => Some(Self::Dark),
            "auto" => Some(Self::Auto),
            _ => None,
        }
    }
}

/// Interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English.
    En,
    /// Spanish.
    Es,
    /// French.
    Fr,
}

impl Language {
    fn as_str(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Es => "es",
            Self::Fr => "fr",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text {
            "en" => Some(Self::En),
            "es" => Some(Self::Es),
            "fr" => Some(Self::Fr),
            _ => None,
        }
    }
}

/// A user's preferences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// Colour theme.
    pub theme: Theme,
    /// Interface language.
    pub language: Language,
    /// Notify when test results are ready (default on).
    pub notify_test_results: bool,
    /// Notify about device alerts (default on).
    pub notify_device_alerts: bool,
    /// Notify about patient updates (default off).
    pub notify_patient_updates: bool,
    /// Idle timeout of the user's sessions.
    pub session_timeout: SessionTimeout,
    /// RFC 3339 time of the last save; `null` until the user first saves (the defaults apply).
    #[serde(default)]
    pub updated_at: Option<String>,
}

impl Default for Settings {
    /// The spec's defaults: test results and device alerts on, patient updates off.
    fn default() -> Self {
        Self {
            theme: Theme::Auto,
            language: Language::En,
            notify_test_results: true,
            notify_device_alerts: true,
            notify_patient_updates: false,
            session_timeout: SessionTimeout::DEFAULT,
            updated_at: None,
        }
    }
}

/// The body of `PUT /api/settings` as sent: every field is checked by hand so that a bad one gets
/// a message naming it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SettingsInput {
    theme: Option<Value>,
    language: Option<Value>,
    notify_test_results: Option<Value>,
    notify_device_alerts: Option<Value>,
    notify_patient_updates: Option<Value>,
    session_timeout: Option<Value>,
    // Sent back as read; ignored.
    #[allow(dead_code)]
    updated_at: Option<Value>,
}

fn text_field<T>(
    value: Option<&Value>,
    parse: fn(&str) -> Option<T>,
    message: &str,
) -> Result<T, ApiError> {
    value
        .and_then(Value::as_str)
        .and_then(parse)
        .ok_or_else(|| ApiError::Validation(message.into()))
}

fn bool_field(value: Option<&Value>, name: &str) -> Result<bool, ApiError> {
    value
        .and_then(Value::as_bool)
        .ok_or_else(|| ApiError::Validation(format!("{name} must be true or false.")))
}

impl SettingsInput {
    fn parse(self) -> Result<Settings, ApiError> {
        Ok(Settings {
            theme: text_field(self.theme.as_ref(), Theme::parse, INVALID_THEME)?,
            language: text_field(self.language.as_ref(), Language::parse, INVALID_LANGUAGE)?,
            notify_test_results: bool_field(
                self.notify_test_results.as_ref(),
                "notifyTestResults",
            )?,
            notify_device_alerts: bool_field(
                self.notify_device_alerts.as_ref(),
                "notifyDeviceAlerts",
            )?,
            notify_patient_updates: bool_field(
                self.notify_patient_updates.as_ref(),
                "notifyPatientUpdates",
            )?,
            session_timeout: text_field(
                self.session_timeout.as_ref(),
                SessionTimeout::parse,
                INVALID_SESSION_TIMEOUT,
            )?,
            updated_at: None,
        })
    }
}

/// The signed-in user's settings (the defaults until they first save).
#[utoipa::path(
    get, path = "/api/settings", operation_id = "get_settings", tag = "settings",
    responses(
        (status = 200, description = "The user's settings", body = Settings),
        crate::platform::error::documented::Unauthenticated,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Settings>, ApiError> {
    Ok(Json(load(&state.db, &current.user.id).await?))
}

/// Saves every setting of the signed-in user at once.
#[utoipa::path(
    put, path = "/api/settings", operation_id = "save_settings", tag = "settings",
    request_body = Settings,
    responses(
        (status = 200, description = "The saved settings", body = Settings),
        crate::platform::error::documented::Unauthenticated,
        (status = 403, description = "Request from another origin", body = ErrorBody),
        (status = 422, description = "A field is missing or has a value not offered", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn save(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(input): Json<SettingsInput>,
) -> Result<Json<Settings>, ApiError> {
    let settings = input.parse()?;
    let now = now_ms();
    sqlx::query(
        "INSERT INTO user_settings (user_id, theme, language, notify_test_results, \
             notify_device_alerts, notify_patient_updates, session_timeout, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme, language = excluded.language, \
             notify_test_results = excluded.notify_test_results, \
             notify_device_alerts = excluded.notify_device_alerts, \
             notify_patient_updates = excluded.notify_patient_updates, \
             session_timeout = excluded.session_timeout, updated_at = excluded.updated_at",
    )
    .bind(&current.user.id)
    .bind(settings.theme.as_str())
    .bind(settings.language.as_str())
    .bind(i64::from(settings.notify_test_results))
    .bind(i64::from(settings.notify_device_alerts))
    .bind(i64::from(settings.notify_patient_updates))
    .bind(settings.session_timeout.as_str())
    .bind(now)
    .execute(&state.db.writer)
    .await?;
    tracing::info!(user_id = %current.user.id, "settings saved");
    Ok(Json(Settings {
        updated_at: Some(ms_to_rfc3339(now)),
        ..settings
    }))
}

/// A user's stored settings, or the defaults.
///
/// # Errors
/// A database failure.
pub async fn load(db: &Db, user_id: &str) -> Result<Settings, ApiError> {
    let row = sqlx::query(
        "SELECT theme, language, notify_test_results, notify_device_alerts, \
             notify_patient_updates, session_timeout, updated_at \
         FROM user_settings WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row
        .as_ref()
        .map(settings_from_row)
        .transpose()?
        .unwrap_or_default())
}

fn settings_from_row(row: &AnyRow) -> Result<Settings, sqlx::Error> {
    let defaults = Settings::default();
    Ok(Settings {
        theme: Theme::parse(&row.try_get::<String, _>("theme")?).unwrap_or(defaults.theme),
        language: Language::parse(&row.try_get::<String, _>("language")?)
            .unwrap_or(defaults.language),
        notify_test_results: row.try_get::<i64, _>("notify_test_results")? == 1,
        notify_device_alerts: row.try_get::<i64, _>("notify_device_alerts")? == 1,
        notify_patient_updates: row.try_get::<i64, _>("notify_patient_updates")? == 1,
        session_timeout: SessionTimeout::parse(&row.try_get::<String, _>("session_timeout")?)
            .unwrap_or(defaults.session_timeout),
        updated_at: Some(ms_to_rfc3339(row.try_get("updated_at")?)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::Duration;

    fn input(value: Value) -> Result<Settings, ApiError> {
        serde_json::from_value::<SettingsInput>(value)
            .map_err(|e| ApiError::Validation(e.to_string()))?
            .parse()
    }

    fn valid() -> Value {
        json!({"theme": "dark", "language": "fr", "notifyTestResults": false,
               "notifyDeviceAlerts": true, "notifyPatientUpdates": true, "sessionTimeout": "1h"})
    }

    #[test]
    fn the_defaults_are_the_specs() {
        let d = Settings::default();
        assert!(d.notify_test_results && d.notify_device_alerts && !d.notify_patient_updates);
        assert_eq!(d.session_timeout, SessionTimeout::Minutes30);
        assert_eq!(d.updated_at, None);
    }

    #[test]
    fn parses_a_valid_body() {
        let s = input(valid()).unwrap();
        assert_eq!(s.theme, Theme::Dark);
        assert_eq!(s.language, Language::Fr);
        assert_eq!(s.session_timeout, SessionTimeout::Hour1);
        assert!(!s.notify_test_results && s.notify_patient_updates);
    }

    #[test]
    fn names_the_bad_field() {
        let mut body = valid();
        body["theme"] = json!("blue");
        assert_eq!(input(body).unwrap_err().to_string(), INVALID_THEME);
        let mut body = valid();
        body["sessionTimeout"] = json!(15);
        assert_eq!(
            input(body).unwrap_err().to_string(),
            INVALID_SESSION_TIMEOUT
        );
        let mut body = valid();
        body["notifyDeviceAlerts"] = json!("yes");
        assert_eq!(
            input(body).unwrap_err().to_string(),
            "notifyDeviceAlerts must be true or false."
        );
    }

    #[test]
    fn idle_limits_follow_the_options() {
        assert_eq!(
            SessionTimeout::Minutes15.idle_limit(),
            Some(Duration::from_mins(15))
        );
        assert_eq!(SessionTimeout::Never.idle_limit(), None);
        for t in ["15m", "30m", "1h", "never"] {
            assert_eq!(SessionTimeout::parse(t).unwrap().as_str(), t);
        }
    }
}
