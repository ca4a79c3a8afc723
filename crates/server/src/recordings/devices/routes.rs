//! The device endpoints (`/api/devices...`): the doctor's registry of network devices and their
//! tokens, the devices' heartbeat and recording pushes, the inbox of pushed recordings and their
//! attachment to a screening, and the connection log.

use axum::{
    extract::{multipart::MultipartRejection, DefaultBodyLimit, Multipart, State},
    http::StatusCode,
    routing::{get, patch, post},
    Router,
};

use super::log::{self, LogEntry, LogType, NewLogEntry};
use super::store::{self, DeviceRow, RecordingRow};
use super::{
    device_name, is_online, new_device_token, to_view, AttachRequest, AuthenticatedDevice,
    DevicePush, DeviceRecording, DeviceRename, DeviceStatus, HeartbeatAck, InboxQuery, LogQuery,
    NetworkDevice, NewDevice, RegisteredDevice, DEVICE_NOT_FOUND, MAX_RECORDINGS, ONLINE_WINDOW_MS,
    RECORDING_NOT_FOUND,
};
use crate::{
    accounts::auth::{
        session::{token_hash, CurrentDoctor},
        ClientAddr,
    },
    platform::audit::{self, Action},
    platform::db::ms_to_rfc3339,
    platform::error::{ApiError, ErrorBody},
    platform::extract::{Json, Path, Query},
    platform::state::AppState,
    recordings::predict::{self, upload},
    records::analyses::{self, store::Modality},
    records::screenings::{self, SCREENING_NOT_FOUND},
};
use cardio_models::murmur::site::Site;

/// Room for the multipart framing on top of the file limit (as for uploads).
const MULTIPART_OVERHEAD: usize = 64 * 1024;

/// The routes of this module, mounted under `/api`; pushed recordings get `max_upload_bytes`.
pub fn router(max_upload_bytes: usize) -> Router<AppState> {
    let push = Router::new()
        .route("/devices/recordings", post(push_recording).get(inbox))
        .layer(DefaultBodyLimit::max(
            max_upload_bytes.saturating_add(MULTIPART_OVERHEAD),
        ));
    Router::new()
        .route("/devices", get(list).post(register))
        .route("/devices/{id}", patch(rename).delete(revoke))
        .route("/devices/{id}/token", post(rotate_token))
        .route("/devices/heartbeat", post(heartbeat))
        .route("/devices/recordings/{id}/attach", post(attach))
        .route("/devices/log", get(read_log).post(write_log))
        .merge(push)
}

/// The doctor's network devices (revoked ones are gone), with their online state.
#[utoipa::path(
    get, path = "/api/devices", operation_id = "list_devices", tag = "devices",
    responses(
        (status = 200, description = "The doctor's devices, oldest first", body = Vec<NetworkDevice>),
        crate::platform::error::documented::DoctorOnly,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn list(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
) -> Result<Json<Vec<NetworkDevice>>, ApiError> {
    let mut conn = state.db.pool.acquire().await?;
    let now = state.clock.now_ms();
    let devices = store::list(&mut conn, doctor.id()).await?;
    Ok(Json(devices.iter().map(|d| to_view(d, now)).collect()))
}

/// Registers a device and shows its token once.
#[utoipa::path(
    post, path = "/api/devices", operation_id = "register_device", tag = "devices",
    request_body = NewDevice,
    responses(
        (status = 201, description = "Registered; the token is shown only now", body = RegisteredDevice),
        crate::platform::error::documented::DoctorOnly,
        (status = 422, description = "No name, or too long.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn register(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Json(request): Json<NewDevice>,
) -> Result<(StatusCode, Json<RegisteredDevice>), ApiError> {
    let name = device_name(&request.name)?;
    let now = state.clock.now_ms();
    let device = DeviceRow {
        id: crate::platform::ids::new(),
        user_id: doctor.id().to_owned(),
        name,
        kind: request.kind,
        created_at: now,
        revoked_at: None,
        last_seen_at: None,
        last_addr: None,
    };
    let token = new_device_token();
    let mut tx = state.db.begin().await?;
    store::insert(&mut tx, &device, &token_hash(&token)).await?;
    log::write(
        &mut tx,
        doctor.id(),
        now,
        LogType::Info,
        "device_registered",
        &device.name,
        device.kind.code(),
    )
    .await?;
    tx.commit().await?;
    tracing::info!(device_id = %device.id, "device registered");
    Ok((
        StatusCode::CREATED,
        Json(RegisteredDevice {
            device: to_view(&device, now),
            token,
        }),
    ))
}

async fn own_device(state: &AppState, id: &str, user_id: &str) -> Result<DeviceRow, ApiError> {
    let mut conn = state.db.pool.acquire().await?;
    store::find(&mut conn, id, user_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(DEVICE_NOT_FOUND.into()))
}

/// Renames a device.
#[utoipa::path(
    patch, path = "/api/devices/{id}", operation_id = "rename_device", tag = "devices",
    params(("id" = String, Path, description = "Device id")),
    request_body = DeviceRename,
    responses(
        (status = 200, description = "Renamed", body = NetworkDevice),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Device not found.", body = ErrorBody),
        (status = 422, description = "No name, or too long.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn rename(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Path(id): Path<String>,
    Json(request): Json<DeviceRename>,
) -> Result<Json<NetworkDevice>, ApiError> {
    let name = device_name(&request.name)?;
    let mut device = own_device(&state, &id, doctor.id()).await?;
    let mut tx = state.db.begin().await?;
    sqlx::query("UPDATE devices SET name = $1 WHERE id = $2 AND user_id = $3")
        .bind(&name)
        .bind(&id)
        .bind(doctor.id())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    device.name = name;
    Ok(Json(to_view(&device, state.clock.now_ms())))
}

/// Gives a device a new token; the old one is refused from now on.
#[utoipa::path(
    post, path = "/api/devices/{id}/token", operation_id = "rotate_device_token", tag = "devices",
    params(("id" = String, Path, description = "Device id")),
    responses(
        (status = 200, description = "The new token, shown only now", body = RegisteredDevice),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Device not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn rotate_token(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Path(id): Path<String>,
) -> Result<Json<RegisteredDevice>, ApiError> {
    let device = own_device(&state, &id, doctor.id()).await?;
    let token = new_device_token();
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    sqlx::query("UPDATE devices SET token_hash = $1 WHERE id = $2 AND user_id = $3")
        .bind(token_hash(&token))
        .bind(&id)
        .bind(doctor.id())
        .execute(&mut *tx)
        .await?;
    log::write(
        &mut tx,
        doctor.id(),
        now,
        LogType::Info,
        "token_rotated",
        &device.name,
        "",
    )
    .await?;
    tx.commit().await?;
    Ok(Json(RegisteredDevice {
        device: to_view(&device, now),
        token,
    }))
}

/// Revokes a device: its token is refused and it leaves the list (its recordings stay).
#[utoipa::path(
    delete, path = "/api/devices/{id}", operation_id = "revoke_device", tag = "devices",
    params(("id" = String, Path, description = "Device id")),
    responses(
        (status = 204, description = "Revoked"),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Device not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn revoke(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let device = own_device(&state, &id, doctor.id()).await?;
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    sqlx::query("UPDATE devices SET revoked_at = $1 WHERE id = $2 AND user_id = $3")
        .bind(now)
        .bind(&id)
        .bind(doctor.id())
        .execute(&mut *tx)
        .await?;
    log::write(
        &mut tx,
        doctor.id(),
        now,
        LogType::Warning,
        "device_revoked",
        &device.name,
        "",
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A device says it is alive (every 30 seconds keeps it online).
#[utoipa::path(
    post, path = "/api/devices/heartbeat", operation_id = "device_heartbeat", tag = "devices",
    responses(
        (status = 200, description = "Noted", body = HeartbeatAck),
        (status = 401, description = "Missing, unknown, rotated or revoked device token.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn heartbeat(
    State(state): State<AppState>,
    AuthenticatedDevice(device): AuthenticatedDevice,
    ClientAddr(client): ClientAddr,
) -> Result<Json<HeartbeatAck>, ApiError> {
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    store::touch(&mut tx, &device.id, now, &client).await?;
    if !is_online(&device, now) {
        if let Some(seen) = device.last_seen_at {
            // The silence was a lost connection. No task watches the clock, so it is logged when
            // the device is heard again, with how long it lasted (seconds).
            log::write(
                &mut tx,
                &device.user_id,
                now,
                LogType::Warning,
                "device_offline",
                &device.name,
                &((now - seen) / 1000).to_string(),
            )
            .await?;
        }
        log::write(
            &mut tx,
            &device.user_id,
            now,
            LogType::Success,
            "device_online",
            &device.name,
            "",
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Json(HeartbeatAck {
        device_id: device.id,
        status: DeviceStatus::Online,
        interval_s: 30,
    }))
}

async fn recording_view(
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
    row: RecordingRow,
) -> Result<DeviceRecording, ApiError> {
    let analysis = analyses::store::find(conn, &row.analysis_id, user_id)
        .await?
        .ok_or_else(|| ApiError::Internal("pushed recording without its analysis".into()))?;
    Ok(DeviceRecording {
        id: row.id,
        device_id: row.device_id,
        device_name: row.device_name,
        device_type: row.device_kind,
        file_name: row.file_name,
        received_at: ms_to_rfc3339(row.received_at),
        attached_at: row.attached_at.map(ms_to_rfc3339),
        analysis,
    })
}

/// A device pushes a recording (multipart, field `file`, optional `sampling_rate`): it is read,
/// analysed by the device type's model and stored in the owning doctor's inbox.
#[utoipa::path(
    post, path = "/api/devices/recordings", operation_id = "push_device_recording", tag = "devices",
    request_body(content = DevicePush, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Received and analysed", body = DeviceRecording),
        (status = 401, description = "Missing, unknown, rotated or revoked device token.", body = ErrorBody),
        (status = 413, description = "File too large.", body = ErrorBody),
        (status = 415, description = "Not a file of the device's type.", body = ErrorBody),
        (status = 422, description = "No file, unreadable file, too short or unusable quality.", body = ErrorBody),
        (status = 503, description = "Model not loaded. Please check backend server.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn push_recording(
    State(state): State<AppState>,
    AuthenticatedDevice(device): AuthenticatedDevice,
    ClientAddr(client): ClientAddr,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<(StatusCode, Json<DeviceRecording>), ApiError> {
    let outcome = receive(&state, &device, &client, multipart).await;
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    store::touch(&mut tx, &device.id, now, &client).await?;
    let recording = match outcome {
        Ok((file_name, result)) => {
            let recording = RecordingRow {
                id: crate::platform::ids::new(),
                device_id: device.id.clone(),
                device_name: device.name.clone(),
                device_kind: device.kind,
                analysis_id: result.analysis_id.clone(),
                file_name,
                received_at: now,
                attached_at: None,
            };
            store::insert_recording(&mut tx, &device.user_id, &recording).await?;
            log::write(
                &mut tx,
                &device.user_id,
                now,
                LogType::Success,
                "recording_received",
                &device.name,
                &result.prediction,
            )
            .await?;
            recording
        }
        Err(err) => {
            log::write(
                &mut tx,
                &device.user_id,
                now,
                LogType::Warning,
                "recording_refused",
                &device.name,
                &err.to_string(),
            )
            .await?;
            tx.commit().await?;
            return Err(err);
        }
    };
    tx.commit().await?;
    let mut conn = state.db.pool.acquire().await?;
    let view = recording_view(&mut conn, &device.user_id, recording).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

async fn receive(
    state: &AppState,
    device: &DeviceRow,
    client: &str,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<(String, analyses::store::PredictionResult), ApiError> {
    let modality = device.kind.modality();
    let model = predict::model_for(state, modality)?;
    let multipart = multipart.map_err(|_| {
        ApiError::UnsupportedMediaType(
            "Send the recording as multipart/form-data in a field named file.".into(),
        )
    })?;
    let received = upload::read(
        multipart,
        state.config.max_upload_bytes,
        &state.config.data_dir,
    )
    .await?;
    received.check(modality)?;
    let mut upload = received.load().await?;
    // A device files into the inbox; the doctor chooses the patient when attaching.
    upload.patient_id = None;
    upload.screening_id = None;
    let file_name = upload.display_name();
    let result =
        predict::analyse_upload(state, &device.user_id, client, upload, modality, model).await?;
    Ok((file_name, result))
}

/// The doctor's pushed recordings, newest first.
#[utoipa::path(
    get, path = "/api/devices/recordings", operation_id = "list_device_recordings", tag = "devices",
    params(InboxQuery),
    responses(
        (status = 200, description = "Newest first", body = Vec<DeviceRecording>),
        crate::platform::error::documented::DoctorOnly,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn inbox(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Query(query): Query<InboxQuery>,
) -> Result<Json<Vec<DeviceRecording>>, ApiError> {
    let limit = query.limit.unwrap_or(50).clamp(1, MAX_RECORDINGS);
    let mut conn = state.db.pool.acquire().await?;
    let rows = store::recordings(&mut conn, doctor.id(), query.device_id.as_deref(), limit).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(recording_view(&mut conn, doctor.id(), row).await?);
    }
    Ok(Json(out))
}

/// Attaches a pushed recording to one of the doctor's screenings: its analysis becomes that
/// screening's (and its patient's).
#[utoipa::path(
    post, path = "/api/devices/recordings/{id}/attach", operation_id = "attach_device_recording", tag = "devices",
    params(("id" = String, Path, description = "Recording id")),
    request_body = AttachRequest,
    responses(
        (status = 200, description = "Attached", body = DeviceRecording),
        crate::platform::error::documented::DoctorOnly,
        (status = 404, description = "Recording or screening not found.", body = ErrorBody),
        (status = 409, description = "Already attached.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn attach(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
    Json(request): Json<AttachRequest>,
) -> Result<Json<DeviceRecording>, ApiError> {
    let user_id = doctor.id();
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    let recording = store::recording(&mut tx, &id, user_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(RECORDING_NOT_FOUND.into()))?;
    if recording.attached_at.is_some() {
        return Err(ApiError::Conflict(
            "This recording is already attached to a screening.".into(),
        ));
    }
    let site = match request.site.as_deref() {
        None => None,
        Some(_) if recording.device_kind.modality() != Modality::Pcg => {
            return Err(ApiError::Validation(upload::SITE_FOR_HEART_SOUNDS.into()));
        }
        Some(text) => Some(
            Site::valve(text).ok_or_else(|| ApiError::Validation(upload::unknown_site(text)))?,
        ),
    };
    let screening = screenings::store::find_row(&mut tx, &request.screening_id, user_id)
        .await?
        .ok_or_else(|| ApiError::NotFound(SCREENING_NOT_FOUND.into()))?;
    sqlx::query(
        "UPDATE analyses SET patient_id = $1, screening_id = $2, site = COALESCE($3, site) \
         WHERE id = $4 AND user_id = $5",
    )
    .bind(&screening.patient_id)
    .bind(&screening.id)
    .bind(site.map(Site::label))
    .bind(&recording.analysis_id)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE device_recordings SET attached_at = $1 WHERE id = $2 AND user_id = $3")
        .bind(now)
        .bind(&id)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id,
            action: Action::Update,
            entity: "analysis",
            entity_id: &recording.analysis_id,
            patient_id: Some(&screening.patient_id),
            client_addr: &client,
        },
    )
    .await?;
    log::write(
        &mut tx,
        user_id,
        now,
        LogType::Info,
        "recording_attached",
        &recording.device_name,
        &recording.file_name,
    )
    .await?;
    let attached = RecordingRow {
        attached_at: Some(now),
        ..recording
    };
    let view = recording_view(&mut tx, user_id, attached).await?;
    tx.commit().await?;
    Ok(Json(view))
}

/// The signed-in user's connection log, newest first.
#[utoipa::path(
    get, path = "/api/devices/log", operation_id = "device_log", tag = "devices",
    params(LogQuery),
    responses(
        (status = 200, description = "Newest first", body = Vec<LogEntry>),
        crate::platform::error::documented::DoctorOnly,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read_log(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Query(query): Query<LogQuery>,
) -> Result<Json<Vec<LogEntry>>, ApiError> {
    let entries = log::latest(&state.db.pool, doctor.id(), query.limit.unwrap_or(50)).await?;
    Ok(Json(entries))
}

/// The browser reports a serial port event for the log.
#[utoipa::path(
    post, path = "/api/devices/log", operation_id = "write_device_log", tag = "devices",
    request_body = NewLogEntry,
    responses(
        (status = 204, description = "Logged"),
        crate::platform::error::documented::DoctorOnly,
        (status = 422, description = "Not a serial port event.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn write_log(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Json(entry): Json<NewLogEntry>,
) -> Result<StatusCode, ApiError> {
    if !log::CLIENT_EVENTS.contains(&entry.event.as_str()) {
        return Err(ApiError::Validation(format!(
            "event must be one of {}.",
            log::CLIENT_EVENTS.join(", ")
        )));
    }
    let mut tx = state.db.begin().await?;
    log::write(
        &mut tx,
        doctor.id(),
        state.clock.now_ms(),
        entry.kind,
        &entry.event,
        &entry.device,
        &entry.detail,
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// How many of the doctor's network devices are online now (the dashboard's "devices active").
///
/// # Errors
/// A database error.
pub async fn active_count(state: &AppState, user_id: &str) -> Result<i64, ApiError> {
    store::count_online(
        &state.db.pool,
        user_id,
        state.clock.now_ms() - ONLINE_WINDOW_MS,
    )
    .await
}
