//! Network devices (spec §2, "Device Management", made real): a doctor registers a device (name,
//! type ECG/PCG/PPG) and gets a token shown once; the device pushes recordings with
//! `POST /api/devices/recordings` and heartbeats with `POST /api/devices/heartbeat`, both with
//! `Authorization: Bearer <token>`. A device is online while its last heartbeat (or recording) is
//! recent by the server's [`crate::platform::clock`].
//!
//! A pushed recording goes through the same path as a recording upload ([`crate::recordings::predict`]): the
//! formats crate reads it, the device type's model analyses it, the file lands in the blob store and
//! the result is stored as an analysis of the owning doctor (audited). It then waits in the doctor's
//! inbox (`GET /api/devices/recordings`) until it is attached to a screening, which gives the
//! analysis its patient and screening.
//!
//! Tokens are 256 random bits; only their SHA-256 is stored. Rotating replaces the hash (the old
//! token stops working at once); revoking keeps the row so that its recordings still name it.
//! Every registry route is a doctor's and filters by owner: another doctor's device is a 404.
//! Everything that happens is written to the user's [`log`].

pub mod log;
pub mod routes;
pub mod store;

pub use routes::{active_count, router};

use axum::{
    extract::FromRequestParts,
    http::{header, request::Parts},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use self::store::DeviceRow;
use crate::{
    accounts::auth::session::{new_token, token_hash},
    platform::db::ms_to_rfc3339,
    platform::error::ApiError,
    platform::state::AppState,
    records::analyses::{store::Analysis, store::Modality},
};

/// The 404 text for a device that is not the doctor's (or does not exist, or was revoked).
pub const DEVICE_NOT_FOUND: &str = "Device not found.";
/// The 404 text for a pushed recording that is not the doctor's.
pub const RECORDING_NOT_FOUND: &str = "Recording not found.";
/// The 401 text for a request without a device token.
pub const MISSING_TOKEN: &str = "Missing device token: send Authorization: Bearer <token>.";
/// The 401 text for an unknown, rotated or revoked device token.
pub const INVALID_TOKEN: &str = "Invalid or revoked device token.";
/// A device is online while its last heartbeat is at most this old (devices beat every 30 s).
pub const ONLINE_WINDOW_MS: i64 = 90_000;
/// Longest device name.
pub const MAX_NAME_CHARS: usize = 80;
/// What a device token starts with (so that one found in a file or a log is recognisable).
pub const TOKEN_PREFIX: &str = "cdv_";
/// Most recordings one inbox call returns.
pub const MAX_RECORDINGS: i64 = 200;

/// What a network device records (spec §3: type PCG, PPG or ECG).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum DeviceType {
    /// Electrocardiogram.
    Ecg,
    /// Heart sounds.
    Pcg,
    /// Pulse.
    Ppg,
}

impl DeviceType {
    /// The stored code.
    pub fn code(self) -> &'static str {
        match self {
            Self::Ecg => "ecg",
            Self::Pcg => "pcg",
            Self::Ppg => "ppg",
        }
    }

    /// From the stored code.
    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "ecg" => Some(Self::Ecg),
            "pcg" => Some(Self::Pcg),
            "ppg" => Some(Self::Ppg),
            _ => None,
        }
    }

    /// The analysis modality of its recordings.
    pub fn modality(self) -> Modality {
        match self {
            Self::Ecg => Modality::Ecg,
            Self::Pcg => Modality::Pcg,
            Self::Ppg => Modality::Ppg,
        }
    }
}

/// Online or offline, from the last heartbeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeviceStatus {
    /// A heartbeat or recording arrived within the last 90 seconds.
    Online,
    /// None did.
    Offline,
}

/// A registered network device.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NetworkDevice {
    /// Device id.
    pub id: String,
    /// The name the doctor gave it.
    pub name: String,
    /// ECG, PCG or PPG.
    #[serde(rename = "type")]
    pub kind: DeviceType,
    /// Online or offline.
    pub status: DeviceStatus,
    /// The address it last connected from.
    pub address: Option<String>,
    /// Its last heartbeat or recording, RFC 3339.
    pub last_seen_at: Option<String>,
    /// RFC 3339.
    pub created_at: String,
}

/// A device with its token: the only time the token is shown.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RegisteredDevice {
    /// The device.
    pub device: NetworkDevice,
    /// The bearer token for `POST /api/devices/recordings` and the heartbeat. Shown once.
    pub token: String,
}

/// A new device.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewDevice {
    /// 1-80 characters.
    pub name: String,
    /// ECG, PCG or PPG.
    #[serde(rename = "type")]
    pub kind: DeviceType,
}

/// A new name.
#[derive(Debug, Deserialize, ToSchema)]
pub struct DeviceRename {
    /// 1-80 characters.
    pub name: String,
}

/// A recording a device pushed, with the analysis it became.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceRecording {
    /// Recording id.
    pub id: String,
    /// The device that pushed it.
    pub device_id: String,
    /// That device's name.
    pub device_name: String,
    /// That device's type.
    pub device_type: DeviceType,
    /// The file's name as the device sent it.
    pub file_name: String,
    /// RFC 3339.
    pub received_at: String,
    /// RFC 3339, once attached to a screening.
    pub attached_at: Option<String>,
    /// The stored analysis (patient and screening once attached).
    pub analysis: Analysis,
}

/// What a heartbeat answers.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HeartbeatAck {
    /// The device's id.
    pub device_id: String,
    /// Always `online`.
    pub status: DeviceStatus,
    /// Seconds between heartbeats that keep the device online.
    pub interval_s: u32,
}

/// Which screening a pushed recording belongs to.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AttachRequest {
    /// One of the doctor's screenings.
    pub screening_id: String,
    /// Heart sounds: where on the chest the recording was taken (`AV`, `PV`, `TV`, `MV`); without
    /// it, the site the device sent (if any) is kept.
    #[serde(default)]
    pub site: Option<String>,
}

/// Query of the inbox.
#[derive(Debug, Deserialize, IntoParams)]
pub struct InboxQuery {
    /// Only this device's recordings.
    pub device_id: Option<String>,
    /// At most this many (default 50, at most 200).
    pub limit: Option<i64>,
}

/// Query of the connection log.
#[derive(Debug, Deserialize, IntoParams)]
pub struct LogQuery {
    /// At most this many entries (default 50, at most 200).
    pub limit: Option<i64>,
}

/// The multipart form a device pushes, for the OpenAPI document.
#[derive(ToSchema)]
#[allow(dead_code)] // documents the multipart fields; never constructed
pub struct DevicePush {
    /// The recording, in any format the server reads for the device's type.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// Samples per second, for a bare list of values.
    sampling_rate: Option<f64>,
}

/// The device a request's bearer token belongs to (not revoked).
pub struct AuthenticatedDevice(pub DeviceRow);

impl FromRequestParts<AppState> for AuthenticatedDevice {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| ApiError::Unauthorized(MISSING_TOKEN.into()))?;
        let device = store::by_token_hash(&state.db.pool, &token_hash(token))
            .await?
            .filter(|d| d.revoked_at.is_none())
            .ok_or_else(|| ApiError::Unauthorized(INVALID_TOKEN.into()))?;
        Ok(Self(device))
    }
}

fn is_online(device: &DeviceRow, now_ms: i64) -> bool {
    device
        .last_seen_at
        .is_some_and(|seen| now_ms - seen <= ONLINE_WINDOW_MS)
}

fn to_view(device: &DeviceRow, now_ms: i64) -> NetworkDevice {
    NetworkDevice {
        id: device.id.clone(),
        name: device.name.clone(),
        kind: device.kind,
        status: if is_online(device, now_ms) {
            DeviceStatus::Online
        } else {
            DeviceStatus::Offline
        },
        address: device.last_addr.clone(),
        last_seen_at: device.last_seen_at.map(ms_to_rfc3339),
        created_at: ms_to_rfc3339(device.created_at),
    }
}

fn device_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::Validation("Give the device a name.".into()));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::Validation(format!(
            "The device name is longer than {MAX_NAME_CHARS} characters."
        )));
    }
    Ok(name.to_owned())
}

fn new_device_token() -> String {
    format!("{TOKEN_PREFIX}{}", new_token())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(last_seen_at: Option<i64>) -> DeviceRow {
        DeviceRow {
            id: "d".into(),
            user_id: "u".into(),
            name: "n".into(),
            kind: DeviceType::Ecg,
            created_at: 0,
            revoked_at: None,
            last_seen_at,
            last_addr: None,
        }
    }

    #[test]
    fn a_device_is_online_only_while_its_heartbeat_is_recent() {
        assert!(!is_online(&device(None), 1_000_000));
        assert!(is_online(
            &device(Some(1_000_000 - ONLINE_WINDOW_MS)),
            1_000_000
        ));
        assert!(!is_online(
            &device(Some(1_000_000 - ONLINE_WINDOW_MS - 1)),
            1_000_000
        ));
    }

    #[test]
    fn device_names_are_trimmed_and_bounded() {
        assert_eq!(device_name("  Holter 1 ").unwrap(), "Holter 1");
        assert_eq!(device_name("   ").unwrap_err().status(), 422);
        assert_eq!(device_name(&"x".repeat(81)).unwrap_err().status(), 422);
    }

    #[test]
    fn tokens_are_prefixed_and_unique() {
        let a = new_device_token();
        assert!(a.starts_with(TOKEN_PREFIX));
        assert_ne!(a, new_device_token());
    }
}
