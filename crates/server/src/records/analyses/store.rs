//! Analyses as stored: the types, their rows (with the patient's name and the newest review) and
//! the queries, always scoped to the user; [`audit_read`] writes the audit row of reading one.

use cardio_models::murmur::site::Site;
use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, Any, Row, Transaction};
use utoipa::ToSchema;

use crate::{
    platform::{
        audit::{self, Action},
        db::ms_to_rfc3339,
        error::ApiError,
    },
    records::{
        patients,
        reviews::{self, store::Review},
    },
};

/// What a model was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Modality {
    /// The seven clinical parameters.
    Clinical,
    /// An ECG file.
    Ecg,
    /// A heart-sound recording.
    Pcg,
    /// A pulse recording.
    Ppg,
}

impl Modality {
    /// The stored code.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Clinical => "clinical",
            Self::Ecg => "ecg",
            Self::Pcg => "pcg",
            Self::Ppg => "ppg",
        }
    }

    /// The name the web client shows as `model` (spec §3 "Prediction result").
    pub fn display(self) -> &'static str {
        match self {
            Self::Clinical => "Clinical",
            Self::Ecg => "ECG",
            Self::Pcg => "PCG",
            Self::Ppg => "PPG",
        }
    }

    pub(crate) fn from_stored(text: &str) -> Self {
        match text {
            "ecg" => Self::Ecg,
            "pcg" => Self::Pcg,
            "ppg" => Self::Ppg,
            _ => Self::Clinical,
        }
    }
}

/// One uploaded file of an analysis, stored in the blob store under its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StoredFile {
    /// The client's file name.
    pub name: String,
    /// Lower-case hex SHA-256 of the content (the blob's key).
    pub sha256: String,
    /// Bytes.
    pub size: i64,
}

/// A model's answer as the prediction endpoints return it (spec §7), plus the stored analysis id.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PredictionResult {
    /// Id of the stored analysis.
    pub analysis_id: String,
    /// `Clinical`, `ECG`, `PCG` or `PPG`.
    pub model: String,
    /// Machine code of the class (e.g. `af`, `abnormal`, `disease`).
    pub label: String,
    /// The predicted condition, as text.
    pub prediction: String,
    /// Probability of the predicted class, 0-1.
    pub confidence: f64,
    /// Probability of the finding screened for, 0-1.
    pub risk_score: f64,
    /// Plain recommendations, in English; never a diagnosis.
    pub recommendations: Vec<String>,
    /// The same recommendations as catalogue codes with parameters (`advice.<code>` in the
    /// catalogue the web app and the PDF read, en/es/fr); empty for results stored before them.
    #[serde(default)]
    pub advice: Vec<AdviceItem>,
    /// Measured values, class probabilities and `model` (`id`, `version`, headline metric).
    #[schema(value_type = std::collections::HashMap<String, Value>)]
    pub details: serde_json::Value,
    /// What the recording device itself printed or stored as its reading of the ECG (a cart's
    /// statements and measurements), kept apart from Cardio's result and never used by it: the
    /// device's unconfirmed opinion, shown beside Cardio's. Absent when the file carries none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_interpretation: Option<DeviceInterpretation>,
}

/// The recording device's own interpretation of an ECG, as the document gave it (GE 12SL
/// statements, a Kardia determination, a cart's printed measurements).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DeviceInterpretation {
    /// Who made it, as the document says (e.g. "GE MUSE 9.0.10, 12SL 241").
    pub source: String,
    /// The statements in the document's order and words, never translated.
    pub statements: Vec<String>,
    /// The measurements the device printed or stored.
    pub measurements: Vec<DeviceMeasurement>,
}

/// One measurement of a [`DeviceInterpretation`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DeviceMeasurement {
    /// `heart_rate_bpm`, `atrial_rate_bpm`, `pr_ms`, `qrs_ms`, `qt_ms`, `qtc_ms`, `p_ms`, `rr_ms`,
    /// `pp_ms`, `p_axis_deg`, `qrs_axis_deg` or `t_axis_deg`; the document's own label when it is
    /// none of them.
    pub key: String,
    /// The document's own label (e.g. "QT/QTc", "PQ").
    pub label: String,
    /// The value.
    pub value: f64,
    /// Its unit as printed ("ms", "bpm", "°", "/min").
    pub unit: String,
}

impl From<cardio_formats::DeviceInterpretation> for DeviceInterpretation {
    fn from(device: cardio_formats::DeviceInterpretation) -> Self {
        Self {
            source: device.source,
            statements: device.statements,
            measurements: device
                .measurements
                .into_iter()
                .map(|m| DeviceMeasurement {
                    key: m.key,
                    label: m.label,
                    value: m.value,
                    unit: m.unit,
                })
                .collect(),
        }
    }
}

/// One recommendation as a catalogue code and the values of its placeholders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AdviceItem {
    /// Key under `advice.` in the catalogue, e.g. `ecg.af_1`.
    pub code: String,
    /// Placeholder values (numbers already rounded as shown; `modality` holds a modality code).
    #[serde(default)]
    #[schema(value_type = std::collections::HashMap<String, Value>)]
    pub params: serde_json::Map<String, serde_json::Value>,
}

impl From<cardio_models::catalogue::Advice> for AdviceItem {
    fn from(advice: cardio_models::catalogue::Advice) -> Self {
        Self {
            code: advice.code,
            params: advice.params,
        }
    }
}

impl AdviceItem {
    /// The sentence in `language`.
    pub fn text(&self, language: cardio_models::catalogue::Language) -> String {
        cardio_models::catalogue::render(language, &format!("advice.{}", self.code), &self.params)
    }
}

/// One stored analysis.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    /// Analysis id.
    pub id: String,
    /// What the model was given.
    pub modality: Modality,
    /// The patient it was for, when given.
    pub patient_id: Option<String>,
    /// That patient's "first last" name, when given.
    pub patient_name: Option<String>,
    /// The screening it belongs to, when given.
    pub screening_id: Option<String>,
    /// Where on the chest a heart-sound recording was taken (`AV`, `PV`, `TV`, `MV`), when given.
    #[schema(value_type = Option<String>)]
    pub site: Option<Site>,
    /// The uploaded file's name, for recordings.
    pub file_name: Option<String>,
    /// SHA-256 of the stored file, for recordings.
    pub file_sha256: Option<String>,
    /// Bytes, for recordings (all files together).
    pub file_size: Option<i64>,
    /// Every uploaded file, each stored under its own hash (a WFDB header and its signal files).
    pub files: Vec<StoredFile>,
    /// Identifier of the model.
    pub model_id: String,
    /// Version of the model.
    pub model_version: String,
    /// RFC 3339.
    pub created_at: String,
    /// The result as it was returned.
    pub result: PredictionResult,
    /// The current sign-off; none while the review is pending.
    pub review: Option<Review>,
}

/// A new analysis to store.
pub struct NewAnalysis<'a> {
    /// Analysis id (already in `result.analysis_id`).
    pub id: &'a str,
    /// Who asked.
    pub user_id: &'a str,
    /// For which patient.
    pub patient_id: Option<&'a str>,
    /// In which screening.
    pub screening_id: Option<&'a str>,
    /// What the model read.
    pub modality: Modality,
    /// The auscultation site of a heart-sound recording.
    pub site: Option<Site>,
    /// Uploaded files; the first is the one named in `file_name` (a WFDB record's header).
    pub files: &'a [StoredFile],
    /// Model id and version.
    pub model: (&'a str, &'a str),
    /// The result.
    pub result: &'a PredictionResult,
    /// Milliseconds.
    pub created_at: i64,
}

/// The columns of [`Analysis`], with the patient's name and the current review. The join repeats
/// the owner condition, so a name can only come from the user's own patients; callers add
/// `WHERE a.user_id = $1 ...`.
pub(crate) static SELECT_WITH_PATIENT: std::sync::LazyLock<String> = std::sync::LazyLock::new(
    || {
        format!(
        "SELECT a.*, p.first_name || ' ' || p.last_name AS patient_name, {} \
         FROM analyses a LEFT JOIN patients p ON p.id = a.patient_id AND p.doctor_id = a.user_id {}",
        reviews::store::LATEST_REVIEW_COLUMNS,
        reviews::store::latest_review_join(reviews::store::Target::Analysis, "a"),
    )
    },
);

/// Inserts an analysis in the caller's transaction.
pub async fn insert(tx: &mut Transaction<'_, Any>, new: &NewAnalysis<'_>) -> Result<(), ApiError> {
    let result_json = serde_json::to_string(new.result)
        .map_err(|e| ApiError::Internal(format!("result does not serialise: {e}")))?;
    let files_json = if new.files.is_empty() {
        None
    } else {
        Some(
            serde_json::to_string(new.files)
                .map_err(|e| ApiError::Internal(format!("files do not serialise: {e}")))?,
        )
    };
    let primary = new.files.first();
    let total: i64 = new.files.iter().map(|f| f.size).sum();
    sqlx::query(
        "INSERT INTO analyses (id, user_id, patient_id, screening_id, modality, file_name, \
         file_sha256, file_size, label, prediction, confidence, risk_score, result_json, model_id, \
         model_version, created_at, files_json, site) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
    )
    .bind(new.id)
    .bind(new.user_id)
    .bind(new.patient_id)
    .bind(new.screening_id)
    .bind(new.modality.as_str())
    .bind(primary.map(|f| f.name.as_str()))
    .bind(primary.map(|f| f.sha256.as_str()))
    .bind(primary.map(|_| total))
    .bind(&new.result.label)
    .bind(&new.result.prediction)
    .bind(new.result.confidence)
    .bind(new.result.risk_score)
    .bind(result_json)
    .bind(new.model.0)
    .bind(new.model.1)
    .bind(new.created_at)
    .bind(files_json)
    .bind(new.site.map(Site::label))
    .execute(&mut **tx)
    .await?;
    if let Some(patient) = new.patient_id {
        patients::store::touch_visit(tx, patient, new.user_id, new.created_at).await?;
    }
    Ok(())
}

pub(crate) fn row_to_analysis(row: &AnyRow) -> Result<Analysis, ApiError> {
    let result_json: String = row.try_get("result_json")?;
    let result: PredictionResult = serde_json::from_str(&result_json)
        .map_err(|e| ApiError::Internal(format!("stored result does not parse: {e}")))?;
    let modality: String = row.try_get("modality")?;
    let files_json: Option<String> = row.try_get("files_json")?;
    let files: Vec<StoredFile> = match files_json {
        Some(text) => serde_json::from_str(&text)
            .map_err(|e| ApiError::Internal(format!("stored files do not parse: {e}")))?,
        None => Vec::new(),
    };
    let site: Option<String> = row.try_get("site")?;
    Ok(Analysis {
        id: row.try_get("id")?,
        modality: Modality::from_stored(&modality),
        patient_id: row.try_get("patient_id")?,
        patient_name: row.try_get("patient_name")?,
        screening_id: row.try_get("screening_id")?,
        site: site.as_deref().and_then(Site::valve),
        file_name: row.try_get("file_name")?,
        file_sha256: row.try_get("file_sha256")?,
        file_size: row.try_get("file_size")?,
        files,
        model_id: row.try_get("model_id")?,
        model_version: row.try_get("model_version")?,
        created_at: ms_to_rfc3339(row.try_get("created_at")?),
        result,
        review: reviews::store::review_from_prefixed(row)?,
    })
}

/// One of the user's analyses, `None` for any other (or none).
///
/// # Errors
/// A database error.
pub async fn find(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    user_id: &str,
) -> Result<Option<Analysis>, ApiError> {
    let sql = format!(
        "{} WHERE a.id = $1 AND a.user_id = $2",
        *SELECT_WITH_PATIENT
    );
    let row = sqlx::query(&sql)
        .bind(id)
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?;
    row.as_ref().map(row_to_analysis).transpose()
}

/// The user's analyses of one screening, newest first.
///
/// # Errors
/// A database error.
pub async fn of_screening(
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
    screening_id: &str,
) -> Result<Vec<Analysis>, ApiError> {
    let sql = format!(
        "{} WHERE a.user_id = $1 AND a.screening_id = $2 ORDER BY a.created_at DESC, a.id DESC",
        *SELECT_WITH_PATIENT
    );
    let rows = sqlx::query(&sql)
        .bind(user_id)
        .bind(screening_id)
        .fetch_all(&mut *conn)
        .await?;
    rows.iter().map(row_to_analysis).collect()
}

/// The user's analyses of one patient, oldest first.
///
/// # Errors
/// A database error.
pub async fn of_patient(
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
    patient_id: &str,
) -> Result<Vec<Analysis>, ApiError> {
    let sql = format!(
        "{} WHERE a.user_id = $1 AND a.patient_id = $2 ORDER BY a.created_at, a.id",
        *SELECT_WITH_PATIENT
    );
    let rows = sqlx::query(&sql)
        .bind(user_id)
        .bind(patient_id)
        .fetch_all(&mut *conn)
        .await?;
    rows.iter().map(row_to_analysis).collect()
}

/// Writes the audit row of reading an analysis (`what` names the part read).
pub(crate) async fn audit_read(
    tx: &mut Transaction<'_, Any>,
    user_id: &str,
    client: &str,
    analysis: &Analysis,
    what: &str,
) -> Result<(), ApiError> {
    audit::record(
        tx,
        &audit::Entry {
            user_id,
            action: Action::Read,
            entity: what,
            entity_id: &analysis.id,
            patient_id: analysis.patient_id.as_deref(),
            client_addr: client,
        },
    )
    .await?;
    Ok(())
}

/// The user's analyses, newest first, filtered by modality, patient and screening when given.
///
/// # Errors
/// A database error, or a stored row that does not read back.
pub async fn list(
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
    modality: Option<Modality>,
    patient_id: Option<&str>,
    screening_id: Option<&str>,
    limit: i64,
) -> Result<Vec<Analysis>, ApiError> {
    let sql = format!(
        "{} WHERE a.user_id = $1 AND ($2 IS NULL OR a.modality = $2) \
         AND ($3 IS NULL OR a.patient_id = $3) AND ($5 IS NULL OR a.screening_id = $5) \
         ORDER BY a.created_at DESC, a.id DESC LIMIT $4",
        *SELECT_WITH_PATIENT
    );
    let rows = sqlx::query(&sql)
        .bind(user_id)
        .bind(modality.map(Modality::as_str))
        .bind(patient_id)
        .bind(limit)
        .bind(screening_id)
        .fetch_all(&mut *conn)
        .await?;
    rows.iter().map(row_to_analysis).collect()
}
