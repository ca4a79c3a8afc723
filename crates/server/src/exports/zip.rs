//! `GET /api/reports/export.zip?from=&to=`: Export All — one ZIP of a period's work, streamed.
//!
//! The archive holds `analyses.csv` (the CSV export's rows for the period), one PDF report per
//! analysis (`reports/analyses/<id>.pdf`) and per screening (`reports/screenings/<id>.pdf`), one
//! FHIR R4 bundle per patient those touch (`fhir/<patient id>.json`, everything stored for that
//! patient, as `GET /api/patients/{id}/fhir` gives it), and `manifest.json` (the period, the counts
//! and any item that could not be produced).
//!
//! It is streamed, never built in memory: a blocking task renders one entry at a time into a ZIP
//! writer without seeking (sizes in data descriptors), whose output goes out in 64 KiB chunks
//! through a channel of a few chunks. When the client is slower, the channel is full and rendering
//! waits; when the client goes away, rendering stops. So the memory held is one entry and a few
//! chunks, whatever the number of analyses. An entry that cannot be produced (a report that fails
//! to render) is listed in the manifest instead of breaking the download, since the status line
//! has already been sent.
//!
//! Only the signed-in doctor's records are read; the export is audited once per patient it
//! contains (and once for the archive).

use std::io::{self, Write};

use axum::{
    body::{Body, Bytes},
    extract::State,
    http::{header, HeaderValue},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use serde_json::json;
use sqlx::Row;
use tokio::sync::mpsc;
use zip::{write::SimpleFileOptions, CompressionMethod, ZipWriter};

use crate::{
    accounts::auth::{session::CurrentDoctor, ClientAddr},
    accounts::settings::{self, Language},
    exports::fhir,
    exports::pdf,
    platform::audit::{self, Action},
    platform::db::{ms_to_rfc3339, now_ms, Db},
    platform::error::{ApiError, ErrorBody},
    platform::state::AppState,
    recordings::stored::Recordings,
    records::reports::{self, Period},
};

/// Size of the chunks the archive is sent in.
const CHUNK_BYTES: usize = 64 * 1024;
/// Chunks waiting for the client at most (the memory bound of the stream itself).
const CHUNKS_IN_FLIGHT: usize = 4;

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/reports/export.zip", get(export_all))
}

/// A ZIP archive (the OpenAPI schema of the download: a binary string).
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct ZipFile(pub Vec<u8>);

/// What goes in the archive, listed before streaming starts.
struct Contents {
    from: i64,
    to: i64,
    language: Language,
    doctor_id: String,
    doctor_name: String,
    analyses: Vec<String>,
    screenings: Vec<String>,
    patients: Vec<String>,
}

/// The signed-in doctor's analyses, screenings and patients of a period as one ZIP (streamed).
#[utoipa::path(
    get, path = "/api/reports/export.zip", operation_id = "export_all_zip", tag = "reports",
    params(Period),
    responses(
        (status = 200, description = "analyses.csv, reports/analyses/<id>.pdf, reports/screenings/<id>.pdf, fhir/<patient id>.json, manifest.json", content_type = "application/zip", body = ZipFile),
        crate::platform::error::documented::DoctorOnly,
        (status = 422, description = "The period's start is after its end.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn export_all(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    crate::platform::extract::RuledQuery(period): crate::platform::extract::RuledQuery<Period>,
) -> Result<Response, ApiError> {
    let (from, to) = period.bounds()?;
    let language = settings::load(&state.db, doctor.id()).await?.language;
    let mut tx = state.db.begin().await?;
    let ids = |rows: Vec<sqlx::any::AnyRow>| -> Result<Vec<String>, ApiError> {
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(ApiError::from))
            .collect()
    };
    let analyses = ids(sqlx::query(
        "SELECT id FROM analyses WHERE user_id = $1 AND created_at >= $2 AND created_at < $3 \
         ORDER BY created_at, id",
    )
    .bind(doctor.id())
    .bind(from)
    .bind(to)
    .fetch_all(&mut *tx)
    .await?)?;
    let screenings = ids(sqlx::query(
        "SELECT id FROM screenings WHERE doctor_id = $1 AND created_at >= $2 AND created_at < $3 \
         ORDER BY created_at, id",
    )
    .bind(doctor.id())
    .bind(from)
    .bind(to)
    .fetch_all(&mut *tx)
    .await?)?;
    let patients = ids(sqlx::query(
        "SELECT patient_id FROM analyses WHERE user_id = $1 AND patient_id IS NOT NULL \
         AND created_at >= $2 AND created_at < $3 \
         UNION SELECT patient_id FROM screenings WHERE doctor_id = $1 \
         AND created_at >= $2 AND created_at < $3 ORDER BY 1",
    )
    .bind(doctor.id())
    .bind(from)
    .bind(to)
    .fetch_all(&mut *tx)
    .await?)?;
    let period_id = format!("{from}-{to}");
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Export,
            entity: "export_zip",
            entity_id: &period_id,
            patient_id: None,
            client_addr: &client,
        },
    )
    .await?;
    for patient in &patients {
        audit::record(
            &mut tx,
            &audit::Entry {
                user_id: doctor.id(),
                action: Action::Export,
                entity: "export_zip",
                entity_id: &period_id,
                patient_id: Some(patient),
                client_addr: &client,
            },
        )
        .await?;
    }
    tx.commit().await?;

    let contents = Contents {
        from,
        to,
        language,
        doctor_id: doctor.id().to_owned(),
        doctor_name: doctor.0.user.display_name.clone(),
        analyses,
        screenings,
        patients,
    };
    let (sender, receiver) = mpsc::channel(CHUNKS_IN_FLIGHT);
    let db = state.db.clone();
    let recordings = Recordings::of(&state);
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let out = ChunkSender {
            sender: sender.clone(),
            buffer: Vec::with_capacity(CHUNK_BYTES),
        };
        if let Err(e) = write_archive(out, &contents, &db, &recordings, &runtime) {
            // The client has the status already: end the body with an error so it sees a
            // truncated download rather than a ZIP that looks whole.
            tracing::warn!(error = %e, "export archive stopped");
            let _ = sender.blocking_send(Err(e));
        }
    });

    let file_name = format!(
        "attachment; filename=\"cardio-export-{}.zip\"",
        ms_to_rfc3339(now_ms()).get(..10).unwrap_or("all")
    );
    let mut response =
        Body::from_stream(tokio_stream::wrappers::ReceiverStream::new(receiver)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/zip"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&file_name)
            .map_err(|e| ApiError::Internal(format!("bad file name: {e}")))?,
    );
    Ok(response)
}

/// Writes the archive entry by entry (blocking; database reads run on `runtime`).
fn write_archive(
    out: ChunkSender,
    contents: &Contents,
    db: &Db,
    recordings: &Recordings,
    runtime: &tokio::runtime::Handle,
) -> io::Result<()> {
    let mut zip = ZipWriter::new_stream(out);
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .large_file(false);
    let mut failed: Vec<serde_json::Value> = Vec::new();
    let doctor = contents.doctor_id.as_str();

    let csv = runtime.block_on(async {
        let mut conn = db.pool.acquire().await?;
        reports::analyses_csv(&mut conn, doctor, contents.from, contents.to).await
    });
    add_or_list(&mut zip, "analyses.csv", options, csv, &mut failed)?;
    for (kind, folder, ids) in [
        (Report::Analysis, "analyses", &contents.analyses),
        (Report::Screening, "screenings", &contents.screenings),
    ] {
        for id in ids {
            let pdf = report(kind, id, contents, db, recordings, runtime);
            let name = format!("reports/{folder}/{id}.pdf");
            add_or_list(&mut zip, &name, options, pdf, &mut failed)?;
        }
    }
    for id in &contents.patients {
        let bundle = runtime
            .block_on(async {
                let mut conn = db.pool.acquire().await?;
                fhir::load(&mut conn, id, doctor).await
            })
            .and_then(|data| data.ok_or_else(|| ApiError::NotFound("Patient not found.".into())))
            .map(|data| fhir::bundle(&data, recordings))
            .and_then(|bundle| {
                serde_json::to_vec_pretty(&bundle).map_err(|e| ApiError::Internal(e.to_string()))
            });
        add_or_list(
            &mut zip,
            &format!("fhir/{id}.json"),
            options,
            bundle,
            &mut failed,
        )?;
    }

    let manifest = json!({
        "from": ms_to_rfc3339(contents.from),
        "to": ms_to_rfc3339(contents.to),
        "generatedAt": ms_to_rfc3339(now_ms()),
        "analyses": contents.analyses.len(),
        "screenings": contents.screenings.len(),
        "patients": contents.patients.len(),
        "failed": failed,
    });
    let manifest = serde_json::to_vec_pretty(&manifest).map_err(io::Error::other)?;
    add(&mut zip, "manifest.json", options, &manifest)?;
    let mut out = zip.finish().map_err(io::Error::other)?.into_inner();
    out.flush()
}

/// Which PDF report.
#[derive(Clone, Copy)]
enum Report {
    Analysis,
    Screening,
}

/// Renders the PDF report of one of the doctor's analyses or screenings (blocking).
fn report(
    kind: Report,
    id: &str,
    contents: &Contents,
    db: &Db,
    recordings: &Recordings,
    runtime: &tokio::runtime::Handle,
) -> Result<Vec<u8>, ApiError> {
    let (doctor, language, name) = (
        contents.doctor_id.as_str(),
        contents.language,
        contents.doctor_name.as_str(),
    );
    let data = runtime.block_on(async {
        let mut conn = db.pool.acquire().await?;
        match kind {
            Report::Analysis => {
                pdf::data::analysis_data(&mut conn, id, doctor, language, name).await
            }
            Report::Screening => Ok(pdf::data::screening_data(
                &mut conn, id, doctor, language, name,
            )
            .await?
            .map(|(data, _)| data)),
        }
    })?;
    let data = data.ok_or_else(|| ApiError::NotFound("Not found.".into()))?;
    pdf::render::render(&data, recordings)
}

/// Adds an entry, or lists it in `failed` with the reason it could not be made.
fn add_or_list<W: Write>(
    zip: &mut ZipWriter<zip::write::StreamWriter<W>>,
    name: &str,
    options: SimpleFileOptions,
    made: Result<Vec<u8>, ApiError>,
    failed: &mut Vec<serde_json::Value>,
) -> io::Result<()> {
    match made {
        Ok(bytes) => add(zip, name, options, &bytes),
        Err(e) => {
            failed.push(json!({"entry": name, "error": e.to_string()}));
            Ok(())
        }
    }
}

fn add<W: Write>(
    zip: &mut ZipWriter<zip::write::StreamWriter<W>>,
    name: &str,
    options: SimpleFileOptions,
    bytes: &[u8],
) -> io::Result<()> {
    zip.start_file(name, options).map_err(io::Error::other)?;
    zip.write_all(bytes)
}

/// The archive's output: bytes gathered into chunks and handed to the response body, waiting
/// while the client has [`CHUNKS_IN_FLIGHT`] chunks to take.
struct ChunkSender {
    sender: mpsc::Sender<io::Result<Bytes>>,
    buffer: Vec<u8>,
}

impl ChunkSender {
    fn send_buffer(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK_BYTES));
        self.sender
            .blocking_send(Ok(Bytes::from(chunk)))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the client went away"))
    }
}

impl Write for ChunkSender {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK_BYTES {
            self.send_buffer()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send_buffer()
    }
}
