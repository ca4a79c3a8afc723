//! The Reports page's figures and the doctor's CSV export, from stored data only (the prototype's
//! Reports page was hard-coded).
//!
//! - `GET /api/reports/summary?from=&to=`: totals, the distribution by modality, the share of
//!   abnormal and inconclusive findings, review state, and monthly volumes of the six calendar
//!   months (UTC) that end with `to`;
//! - `GET /api/analyses/export.csv?from=&to=`: one row per analysis, the columns of
//!   `cardio predict` plus the patient, the time and the review state;
//! - `GET /api/reports/history`: every PDF report the doctor generated (from the audit trail, where
//!   each download is recorded), newest first, with the address to download it again.
//!
//! Every query is scoped to the signed-in doctor; the export is audited.

use std::collections::BTreeMap;

use axum::{
    extract::State,
    http::{header, HeaderValue},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use time::{Month, OffsetDateTime};
use utoipa::{IntoParams, ToSchema};

use crate::{
    accounts::auth::{session::CurrentDoctor, ClientAddr},
    exports::csv::cell as csv_cell,
    platform::audit::{self, Action},
    platform::db::{ms_to_rfc3339, now_ms},
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};

/// Months in the volume chart.
pub const MONTHS: usize = 6;
/// Header of the CSV export (the columns of `cardio predict`, then the doctor's context; `site` is a
/// heart sound's auscultation site).
pub const CSV_HEADER: [&str; 12] = [
    "file",
    "label",
    "prediction",
    "confidence",
    "risk_score",
    "patient_id",
    "time",
    "review_state",
    "modality",
    "analysis_id",
    "ecg_interpretation",
    "site",
];

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/reports/summary", get(summary))
        .route("/analyses/export.csv", get(export_csv))
        .route("/reports/history", get(history))
}

/// Most entries the report history returns.
pub const HISTORY_LIMIT: i64 = 200;

/// One PDF report the doctor generated.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GeneratedReport {
    /// `analysis` or `screening`.
    pub kind: String,
    /// The analysis or screening id.
    pub id: String,
    /// The patient's "first last" name, when the report is about one of the doctor's patients.
    pub patient_name: Option<String>,
    /// When it was generated (RFC 3339).
    pub generated_at: String,
    /// Where to download it again (generated anew, with the current review).
    pub url: String,
}

/// How a model's label reads on the Reports page and Test Results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// No abnormality found.
    Normal,
    /// Something to act on (AF, other rhythm, irregular pulse, abnormal heart sounds, disease).
    Abnormal,
    /// The recording could not be judged (`unsure`, `noisy`).
    Inconclusive,
}

impl Finding {
    /// The finding of a machine label of any model.
    pub fn of(label: &str) -> Self {
        match label {
            "normal" | "no_disease" => Self::Normal,
            "unsure" | "noisy" => Self::Inconclusive,
            _ => Self::Abnormal,
        }
    }
}

/// The period of a report, milliseconds since the epoch.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Period {
    /// Start (inclusive); default: the beginning.
    pub from: Option<i64>,
    /// End (exclusive); default: now.
    pub to: Option<i64>,
}

impl crate::platform::extract::QueryRules for Period {
    const INVALID: &'static str = "from and to must be milliseconds since 1970.";
}

impl Period {
    /// The period as `[from, to)` in ms, with the defaults filled in.
    pub(crate) fn bounds(&self) -> Result<(i64, i64), ApiError> {
        let to = self.to.unwrap_or_else(|| now_ms() + 1);
        let from = self.from.unwrap_or(0);
        if from > to {
            return Err(ApiError::Validation(
                "The period's start is after its end.".into(),
            ));
        }
        Ok((from, to))
    }
}

/// Counts per modality.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ByModality {
    /// Clinical-parameter results.
    pub clinical: i64,
    /// ECG results.
    pub ecg: i64,
    /// Heart-sound results.
    pub pcg: i64,
    /// Pulse results.
    pub ppg: i64,
}

impl ByModality {
    fn add(&mut self, modality: &str) {
        match modality {
            "ecg" => self.ecg += 1,
            "pcg" => self.pcg += 1,
            "ppg" => self.ppg += 1,
            _ => self.clinical += 1,
        }
    }
}

/// One calendar month of the volume chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MonthVolume {
    /// `YYYY-MM` (UTC).
    pub month: String,
    /// Analyses of that month per modality.
    pub analyses: ByModality,
}

/// The Reports page's figures for a period.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ReportSummary {
    /// Start of the period (RFC 3339).
    pub from: String,
    /// End of the period (RFC 3339).
    pub to: String,
    /// Analyses in the period.
    pub total_analyses: i64,
    /// Of which per modality.
    pub by_modality: ByModality,
    /// Screenings started in the period.
    pub screenings: i64,
    /// Of which completed (combined result computed).
    pub screenings_completed: i64,
    /// Patients the doctor has (all time).
    pub patients: i64,
    /// Analyses with an abnormal finding.
    pub abnormal: i64,
    /// Analyses whose recording could not be judged.
    pub inconclusive: i64,
    /// Analyses the doctor has signed off.
    pub reviewed: i64,
    /// Analyses not signed off yet.
    pub pending_review: i64,
    /// The six calendar months ending with the period's end, oldest first.
    pub monthly: Vec<MonthVolume>,
}

/// `YYYY-MM` of a time.
fn month_key(year: i32, month: Month) -> String {
    format!("{year:04}-{:02}", u8::from(month))
}

/// The six month keys ending with the month of `to_ms`, oldest first.
fn last_months(to_ms: i64) -> Vec<String> {
    let end = OffsetDateTime::from_unix_timestamp_nanos(i128::from(to_ms - 1) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH);
    let (mut year, mut month) = (end.year(), end.month());
    let mut keys = Vec::with_capacity(MONTHS);
    for _ in 0..MONTHS {
        keys.push(month_key(year, month));
        if month == Month::January {
            year -= 1;
        }
        month = month.previous();
    }
    keys.reverse();
    keys
}

/// The first instant of the oldest of the six months, milliseconds.
fn months_start(to_ms: i64) -> i64 {
    let keys = last_months(to_ms);
    let first = &keys[0];
    let year: i32 = first[..4].parse().unwrap_or(1970);
    let month: u8 = first[5..].parse().unwrap_or(1);
    let date =
        time::Date::from_calendar_date(year, Month::try_from(month).unwrap_or(Month::January), 1)
            .unwrap_or(time::Date::MIN);
    i64::try_from(date.midnight().assume_utc().unix_timestamp_nanos() / 1_000_000).unwrap_or(0)
}

/// The signed-in doctor's figures for a period.
#[utoipa::path(
    get, path = "/api/reports/summary", operation_id = "get_report_summary", tag = "reports",
    params(Period),
    responses(
        (status = 200, description = "Figures from stored data", body = ReportSummary),
        crate::platform::error::documented::DoctorOnly,
        (status = 422, description = "The period's start is after its end.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn summary(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    crate::platform::extract::RuledQuery(period): crate::platform::extract::RuledQuery<Period>,
) -> Result<Json<ReportSummary>, ApiError> {
    let (from, to) = period.bounds()?;
    let mut conn = state.db.pool.acquire().await?;
    let rows = sqlx::query(
        "SELECT a.modality, a.label, a.created_at, \
         (SELECT COUNT(*) FROM reviews r WHERE r.target_type = 'analysis' AND r.target_id = a.id) AS reviews \
         FROM analyses a WHERE a.user_id = $1 AND a.created_at >= $2 AND a.created_at < $3",
    )
    .bind(doctor.id())
    .bind(from.min(months_start(to)))
    .bind(to)
    .fetch_all(&mut *conn)
    .await?;
    let months = last_months(to);
    let mut monthly: BTreeMap<String, ByModality> = months
        .iter()
        .map(|m| (m.clone(), ByModality::default()))
        .collect();
    let mut report = ReportSummary {
        from: ms_to_rfc3339(from),
        to: ms_to_rfc3339(to),
        total_analyses: 0,
        by_modality: ByModality::default(),
        screenings: 0,
        screenings_completed: 0,
        patients: 0,
        abnormal: 0,
        inconclusive: 0,
        reviewed: 0,
        pending_review: 0,
        monthly: Vec::new(),
    };
    for row in &rows {
        let modality: String = row.try_get("modality")?;
        let label: String = row.try_get("label")?;
        let created_at: i64 = row.try_get("created_at")?;
        let reviews: i64 = row.try_get("reviews")?;
        let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(created_at) * 1_000_000)
            .unwrap_or(OffsetDateTime::UNIX_EPOCH);
        if let Some(counts) = monthly.get_mut(&month_key(at.year(), at.month())) {
            counts.add(&modality);
        }
        if created_at < from {
            continue;
        }
        report.total_analyses += 1;
        report.by_modality.add(&modality);
        match Finding::of(&label) {
            Finding::Abnormal => report.abnormal += 1,
            Finding::Inconclusive => report.inconclusive += 1,
            Finding::Normal => {}
        }
        if reviews > 0 {
            report.reviewed += 1;
        } else {
            report.pending_review += 1;
        }
    }
    report.monthly = months
        .into_iter()
        .map(|month| {
            let analyses = monthly.remove(&month).unwrap_or_default();
            MonthVolume { month, analyses }
        })
        .collect();
    let screenings = sqlx::query(
        "SELECT COUNT(*) AS total, \
         COALESCE(SUM(CASE WHEN status = 'completed' THEN 1 ELSE 0 END), 0) AS completed \
         FROM screenings WHERE doctor_id = $1 AND created_at >= $2 AND created_at < $3",
    )
    .bind(doctor.id())
    .bind(from)
    .bind(to)
    .fetch_one(&mut *conn)
    .await?;
    report.screenings = screenings.try_get("total")?;
    report.screenings_completed = screenings.try_get("completed")?;
    report.patients = crate::records::patients::store::count(&state.db, doctor.id()).await?;
    Ok(Json(report))
}

/// The signed-in doctor's analyses of a period as CSV, newest first.
#[utoipa::path(
    get, path = "/api/analyses/export.csv", operation_id = "export_analyses_csv", tag = "reports",
    params(Period),
    responses(
        (status = 200, description = "file,label,prediction,confidence,risk_score,patient_id,time,review_state,modality,analysis_id,ecg_interpretation,site", content_type = "text/csv", body = String),
        crate::platform::error::documented::DoctorOnly,
        (status = 422, description = "The period's start is after its end.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn export_csv(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    crate::platform::extract::RuledQuery(period): crate::platform::extract::RuledQuery<Period>,
) -> Result<Response, ApiError> {
    let (from, to) = period.bounds()?;
    let mut tx = state.db.begin().await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Export,
            entity: "analyses_csv",
            entity_id: "",
            patient_id: None,
            client_addr: &client,
        },
    )
    .await?;
    let body = analyses_csv(&mut tx, doctor.id(), from, to).await?;
    tx.commit().await?;
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"cardio-analyses.csv\""),
    );
    Ok(response)
}

/// The confirmed ECG interpretation of a review's stored column, its statements joined by "; "
/// (empty when none was confirmed).
fn confirmed_interpretation(stored: Option<&str>) -> String {
    stored
        .and_then(|json| {
            serde_json::from_str::<Vec<crate::records::reviews::store::ConfirmedStatement>>(json)
                .ok()
        })
        .map(|s| {
            s.iter()
                .map(|s| s.text.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default()
}

/// The CSV export of `doctor`'s analyses created in `[from, to)`, newest first.
pub(crate) async fn analyses_csv(
    conn: &mut sqlx::AnyConnection,
    doctor: &str,
    from: i64,
    to: i64,
) -> Result<Vec<u8>, ApiError> {
    let rows = sqlx::query(
        "SELECT a.id, a.file_name, a.label, a.prediction, a.confidence, a.risk_score, a.patient_id, \
         a.created_at, a.modality, a.site, \
         (SELECT COUNT(*) FROM reviews r WHERE r.target_type = 'analysis' AND r.target_id = a.id) AS reviews, \
         (SELECT r.interpretation FROM reviews r WHERE r.target_type = 'analysis' AND r.target_id = a.id \
          ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS interpretation \
         FROM analyses a WHERE a.user_id = $1 AND a.created_at >= $2 AND a.created_at < $3 \
         ORDER BY a.created_at DESC, a.id DESC",
    )
    .bind(doctor)
    .bind(from)
    .bind(to)
    .fetch_all(&mut *conn)
    .await?;
    let mut writer = csv::Writer::from_writer(Vec::new());
    let internal = |e: csv::Error| ApiError::Internal(format!("csv: {e}"));
    writer.write_record(CSV_HEADER).map_err(internal)?;
    // Every cell through the one helper: a file named like a formula stays text.
    for row in &rows {
        let file: Option<String> = row.try_get("file_name")?;
        let patient: Option<String> = row.try_get("patient_id")?;
        let confidence: f64 = row.try_get("confidence")?;
        let risk: f64 = row.try_get("risk_score")?;
        let reviews: i64 = row.try_get("reviews")?;
        let interpretation: Option<String> = row.try_get("interpretation")?;
        let site: Option<String> = row.try_get("site")?;
        let fields = [
            file.unwrap_or_default(),
            row.try_get::<String, _>("label")?,
            row.try_get::<String, _>("prediction")?,
            format!("{confidence:.4}"),
            format!("{risk:.4}"),
            patient.unwrap_or_default(),
            ms_to_rfc3339(row.try_get("created_at")?),
            if reviews > 0 { "reviewed" } else { "pending" }.to_owned(),
            row.try_get::<String, _>("modality")?,
            row.try_get::<String, _>("id")?,
            confirmed_interpretation(interpretation.as_deref()),
            site.unwrap_or_default(),
        ];
        writer
            .write_record(fields.iter().map(|f| csv_cell(f).into_owned()))
            .map_err(internal)?;
    }
    writer
        .into_inner()
        .map_err(|e| ApiError::Internal(format!("csv: {e}")))
}

/// The PDF reports the signed-in doctor generated, newest first (at most 200).
#[utoipa::path(
    get, path = "/api/reports/history", operation_id = "list_generated_reports", tag = "reports",
    responses(
        (status = 200, description = "Newest first", body = [GeneratedReport]),
        crate::platform::error::documented::DoctorOnly,
    )
)]
#[tracing::instrument(skip_all)]
pub async fn history(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
) -> Result<Json<Vec<GeneratedReport>>, ApiError> {
    let rows = sqlx::query(
        "SELECT l.entity, l.entity_id, l.at, p.first_name || ' ' || p.last_name AS patient_name \
         FROM audit_log l LEFT JOIN patients p ON p.id = l.patient_id AND p.doctor_id = l.user_id \
         WHERE l.user_id = $1 AND l.action = 'export' \
         AND l.entity IN ('analysis_report_pdf', 'screening_report_pdf') \
         ORDER BY l.at DESC, l.id DESC LIMIT $2",
    )
    .bind(doctor.id())
    .bind(HISTORY_LIMIT)
    .fetch_all(&state.db.pool)
    .await?;
    let mut reports = Vec::with_capacity(rows.len());
    for row in &rows {
        let entity: String = row.try_get("entity")?;
        let id: String = row.try_get("entity_id")?;
        let (kind, url) = if entity == "screening_report_pdf" {
            ("screening", format!("/api/screenings/{id}/report.pdf"))
        } else {
            ("analysis", format!("/api/analyses/{id}/report.pdf"))
        };
        reports.push(GeneratedReport {
            kind: kind.into(),
            id,
            patient_name: row.try_get("patient_name")?,
            generated_at: ms_to_rfc3339(row.try_get("at")?),
            url,
        });
    }
    Ok(Json(reports))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_models_labels_map_to_a_finding() {
        for label in ["normal", "no_disease"] {
            assert_eq!(Finding::of(label), Finding::Normal);
        }
        for label in ["af", "other", "abnormal", "irregular", "disease"] {
            assert_eq!(Finding::of(label), Finding::Abnormal);
        }
        for label in ["unsure", "noisy"] {
            assert_eq!(Finding::of(label), Finding::Inconclusive);
        }
    }

    #[test]
    fn the_six_months_end_with_the_period_and_cross_the_year() {
        // 2026-02-10T00:00:00Z
        let to = 1_770_681_600_000;
        assert_eq!(
            last_months(to),
            ["2025-09", "2025-10", "2025-11", "2025-12", "2026-01", "2026-02"]
        );
        // 2025-09-01T00:00:00Z
        assert_eq!(months_start(to), 1_756_684_800_000);
    }
}
