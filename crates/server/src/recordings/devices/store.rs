//! The SQL of the device registry: devices (by owner, by token hash), their pushed recordings.

use sqlx::{any::AnyRow, Any, AnyConnection, Row, Transaction};

use super::DeviceType;
use crate::platform::error::ApiError;

/// A stored device.
#[derive(Debug, Clone)]
pub struct DeviceRow {
    /// Device id.
    pub id: String,
    /// The owning doctor.
    pub user_id: String,
    /// The name the doctor gave it.
    pub name: String,
    /// What it records.
    pub kind: DeviceType,
    /// Milliseconds.
    pub created_at: i64,
    /// Milliseconds; revoked devices are refused.
    pub revoked_at: Option<i64>,
    /// The last heartbeat or recording, milliseconds.
    pub last_seen_at: Option<i64>,
    /// The address it last connected from.
    pub last_addr: Option<String>,
}

const COLUMNS: &str = "id, user_id, name, kind, created_at, revoked_at, last_seen_at, last_addr";

fn row_to_device(row: &AnyRow) -> Result<DeviceRow, sqlx::Error> {
    let kind: String = row.try_get("kind")?;
    Ok(DeviceRow {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        name: row.try_get("name")?,
        kind: DeviceType::parse(&kind).unwrap_or(DeviceType::Ecg),
        created_at: row.try_get("created_at")?,
        revoked_at: row.try_get("revoked_at")?,
        last_seen_at: row.try_get("last_seen_at")?,
        last_addr: row.try_get("last_addr")?,
    })
}

/// Inserts a device.
///
/// # Errors
/// A database error.
pub async fn insert(
    tx: &mut Transaction<'_, Any>,
    device: &DeviceRow,
    token_hash: &str,
) -> Result<(), ApiError> {
    sqlx::query(
        "INSERT INTO devices (id, user_id, name, kind, token_hash, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&device.id)
    .bind(&device.user_id)
    .bind(&device.name)
    .bind(device.kind.code())
    .bind(token_hash)
    .bind(device.created_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The user's devices that are not revoked, oldest first.
///
/// # Errors
/// A database error.
pub async fn list(conn: &mut AnyConnection, user_id: &str) -> Result<Vec<DeviceRow>, ApiError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM devices WHERE user_id = $1 AND revoked_at IS NULL \
         ORDER BY created_at, id"
    );
    let rows = sqlx::query(&sql).bind(user_id).fetch_all(conn).await?;
    Ok(rows.iter().map(row_to_device).collect::<Result<_, _>>()?)
}

/// One of the user's devices that is not revoked.
///
/// # Errors
/// A database error.
pub async fn find(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
) -> Result<Option<DeviceRow>, ApiError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM devices WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL"
    );
    let row = sqlx::query(&sql)
        .bind(id)
        .bind(user_id)
        .fetch_optional(conn)
        .await?;
    Ok(row.as_ref().map(row_to_device).transpose()?)
}

/// The device a token hash belongs to (revoked ones too: the caller refuses them).
///
/// # Errors
/// A database error.
pub async fn by_token_hash(
    pool: &sqlx::AnyPool,
    token_hash: &str,
) -> Result<Option<DeviceRow>, ApiError> {
    let sql = format!("SELECT {COLUMNS} FROM devices WHERE token_hash = $1");
    let row = sqlx::query(&sql)
        .bind(token_hash)
        .fetch_optional(pool)
        .await?;
    Ok(row.as_ref().map(row_to_device).transpose()?)
}

/// How many of the user's devices were seen since `since_ms` (the dashboard's "devices active").
///
/// # Errors
/// A database error.
pub async fn count_online(
    pool: &sqlx::AnyPool,
    user_id: &str,
    since_ms: i64,
) -> Result<i64, ApiError> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM devices WHERE user_id = $1 AND revoked_at IS NULL \
         AND last_seen_at IS NOT NULL AND last_seen_at >= $2",
    )
    .bind(user_id)
    .bind(since_ms)
    .fetch_one(pool)
    .await?)
}

/// Records a heartbeat or a recording: the time and the address.
///
/// # Errors
/// A database error.
pub async fn touch(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    at_ms: i64,
    addr: &str,
) -> Result<(), ApiError> {
    sqlx::query("UPDATE devices SET last_seen_at = $1, last_addr = $2 WHERE id = $3")
        .bind(at_ms)
        .bind(addr)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A pushed recording as stored.
#[derive(Debug, Clone)]
pub struct RecordingRow {
    /// Recording id.
    pub id: String,
    /// The device that pushed it.
    pub device_id: String,
    /// That device's name.
    pub device_name: String,
    /// That device's type.
    pub device_kind: DeviceType,
    /// The analysis it became.
    pub analysis_id: String,
    /// The file's name.
    pub file_name: String,
    /// Milliseconds.
    pub received_at: i64,
    /// Milliseconds, once attached to a screening.
    pub attached_at: Option<i64>,
}

const RECORDING_SELECT: &str = "SELECT r.id, r.device_id, d.name AS device_name, \
     d.kind AS device_kind, r.analysis_id, r.file_name, r.received_at, r.attached_at \
     FROM device_recordings r JOIN devices d ON d.id = r.device_id AND d.user_id = r.user_id";

fn row_to_recording(row: &AnyRow) -> Result<RecordingRow, sqlx::Error> {
    let kind: String = row.try_get("device_kind")?;
    Ok(RecordingRow {
        id: row.try_get("id")?,
        device_id: row.try_get("device_id")?,
        device_name: row.try_get("device_name")?,
        device_kind: DeviceType::parse(&kind).unwrap_or(DeviceType::Ecg),
        analysis_id: row.try_get("analysis_id")?,
        file_name: row.try_get("file_name")?,
        received_at: row.try_get("received_at")?,
        attached_at: row.try_get("attached_at")?,
    })
}

/// Inserts a pushed recording.
///
/// # Errors
/// A database error.
pub async fn insert_recording(
    tx: &mut Transaction<'_, Any>,
    user_id: &str,
    recording: &RecordingRow,
) -> Result<(), ApiError> {
    sqlx::query(
        "INSERT INTO device_recordings (id, device_id, user_id, analysis_id, file_name, received_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&recording.id)
    .bind(&recording.device_id)
    .bind(user_id)
    .bind(&recording.analysis_id)
    .bind(&recording.file_name)
    .bind(recording.received_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The user's pushed recordings, newest first (optionally of one device).
///
/// # Errors
/// A database error.
pub async fn recordings(
    conn: &mut AnyConnection,
    user_id: &str,
    device_id: Option<&str>,
    limit: i64,
) -> Result<Vec<RecordingRow>, ApiError> {
    let of_device = if device_id.is_some() {
        "AND r.device_id = $3"
    } else {
        ""
    };
    let sql = format!(
        "{RECORDING_SELECT} WHERE r.user_id = $1 {of_device} \
         ORDER BY r.received_at DESC, r.id DESC LIMIT $2"
    );
    let mut query = sqlx::query(&sql).bind(user_id).bind(limit);
    if let Some(id) = device_id {
        query = query.bind(id);
    }
    let rows = query.fetch_all(conn).await?;
    Ok(rows
        .iter()
        .map(row_to_recording)
        .collect::<Result<_, _>>()?)
}

/// One of the user's pushed recordings.
///
/// # Errors
/// A database error.
pub async fn recording(
    conn: &mut AnyConnection,
    id: &str,
    user_id: &str,
) -> Result<Option<RecordingRow>, ApiError> {
    let sql = format!("{RECORDING_SELECT} WHERE r.id = $1 AND r.user_id = $2");
    let row = sqlx::query(&sql)
        .bind(id)
        .bind(user_id)
        .fetch_optional(conn)
        .await?;
    Ok(row.as_ref().map(row_to_recording).transpose()?)
}
