//! The connection log: each user's device events, newest first (spec §2, "Connection Log", with
//! its success / info / warning types).
//!
//! The server writes the network devices' events (registered, token rotated, revoked, online,
//! recording received or refused, attached); the browser reports its serial ports' events
//! (connected, disconnected, errors, test data) through `POST /api/devices/log`. Entries carry an
//! event code and the device's name; the page words them in the user's language.

use serde::{Deserialize, Serialize};
use sqlx::{Any, Row, Transaction};
use utoipa::ToSchema;

use crate::{platform::db::ms_to_rfc3339, platform::error::ApiError};

/// Most entries one call returns.
pub const MAX_LIMIT: i64 = 200;
/// Longest device name or detail kept in an entry.
pub const MAX_TEXT: usize = 200;

/// The spec's three kinds of log message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LogType {
    /// Something worked (connected, recording received).
    Success,
    /// Something happened (disconnected, token rotated).
    Info,
    /// Something went wrong (an error, a refused recording, a lost connection).
    Warning,
}

impl LogType {
    fn as_str(self) -> &'static str {
        match self {
            Self::Success => "success",
            Self::Info => "info",
            Self::Warning => "warning",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "success" => Self::Success,
            "warning" => Self::Warning,
            _ => Self::Info,
        }
    }
}

/// Events the browser may report about its serial ports (the server writes the others).
pub const CLIENT_EVENTS: &[&str] = &[
    "serial_connected",
    "serial_disconnected",
    "serial_error",
    "serial_test_data",
];

/// One log entry.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LogEntry {
    /// When, RFC 3339.
    pub time: String,
    /// success, info or warning.
    #[serde(rename = "type")]
    pub kind: LogType,
    /// What happened: `device_registered`, `token_rotated`, `device_revoked`, `device_online`,
    /// `device_offline` (a silence, logged when the device is heard again; detail: its seconds),
    /// `recording_received`, `recording_refused`, `recording_attached`, `serial_connected`,
    /// `serial_disconnected`, `serial_error`, `serial_test_data`.
    pub event: String,
    /// The device's name (a network device) or port label (a serial port).
    pub device: String,
    /// More about it (an error text, a baud rate, a file name); may be empty.
    pub detail: String,
}

/// A browser's report of a serial port event.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewLogEntry {
    /// success, info or warning.
    #[serde(rename = "type")]
    pub kind: LogType,
    /// One of `serial_connected`, `serial_disconnected`, `serial_error`, `serial_test_data`.
    pub event: String,
    /// The port's label.
    #[serde(default)]
    pub device: String,
    /// More about it.
    #[serde(default)]
    pub detail: String,
}

fn clip(text: &str) -> String {
    text.chars().take(MAX_TEXT).collect()
}

/// Writes an entry in the caller's transaction.
///
/// # Errors
/// A database error.
pub async fn write(
    tx: &mut Transaction<'_, Any>,
    user_id: &str,
    at_ms: i64,
    kind: LogType,
    event: &str,
    device: &str,
    detail: &str,
) -> Result<(), ApiError> {
    sqlx::query(
        "INSERT INTO device_log (user_id, created_at, level, event, device, detail) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(user_id)
    .bind(at_ms)
    .bind(kind.as_str())
    .bind(event)
    .bind(clip(device))
    .bind(clip(detail))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The user's latest `limit` entries, newest first.
///
/// # Errors
/// A database error.
pub async fn latest(
    pool: &sqlx::AnyPool,
    user_id: &str,
    limit: i64,
) -> Result<Vec<LogEntry>, ApiError> {
    let rows = sqlx::query(
        "SELECT created_at, level, event, device, detail FROM device_log \
         WHERE user_id = $1 ORDER BY seq DESC LIMIT $2",
    )
    .bind(user_id)
    .bind(limit.clamp(1, MAX_LIMIT))
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(LogEntry {
                time: ms_to_rfc3339(row.try_get("created_at")?),
                kind: LogType::parse(&row.try_get::<String, _>("level")?),
                event: row.try_get("event")?,
                device: row.try_get("device")?,
                detail: row.try_get("detail")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}
