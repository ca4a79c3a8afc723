//! The prediction endpoints of spec §7: `POST /api/predict/clinical` (JSON, the seven clinical
//! fields and six optional ones) and `POST /api/predict/{ecg,pcg,ppg}/upload` (multipart, field `file`, optional
//! `patient_id`, `screening_id`, `sampling_rate`).
//!
//! Every answer is stored as an analysis (with the uploaded file in the blob store) and audited in
//! one transaction. Reading the file and running the model happen on the blocking pool; the models
//! were loaded at start ([`crate::recordings::models`]), and a model that failed to load answers 503.
//!
//! The models are for clinicians: a patient (`user`) account gets 403 [`MODELS_FOR_CLINICIANS`]
//! and sees the results its doctors share instead.

pub mod upload;

use std::sync::Arc;

use axum::{
    extract::{
        multipart::MultipartRejection, DefaultBodyLimit, FromRequestParts, Multipart, State,
    },
    http::request::Parts,
    routing::post,
    Router,
};
use cardio_models::murmur::site::Site;
use cardio_models::{
    clinical::{self, ClinicalError, ClinicalInput},
    prediction::{PredictError, Prediction},
};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::{
    accounts::auth::{session::CurrentUser, ClientAddr},
    platform::audit::{self, Action},
    platform::blobs::PendingBlob,
    platform::db::now_ms,
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
    recordings::registry::SignalModel,
    records::analyses::{
        self, store::Modality, store::NewAnalysis, store::PredictionResult, store::StoredFile,
    },
    records::clinical::store::Sex,
    records::patients::{self, PATIENT_NOT_FOUND},
    records::screenings::{self, SCREENING_NOT_FOUND},
};

/// The answer to a patient account on a prediction endpoint.
pub const MODELS_FOR_CLINICIANS: &str =
    "Models are run by your doctor; you see the results your doctors share with you.";

/// A signed-in clinician (a `doctor`-role account): who may run the models. Any other account
/// gets 403 [`MODELS_FOR_CLINICIANS`], before the request's body is read.
pub struct Clinician(pub CurrentUser);

impl FromRequestParts<AppState> for Clinician {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        if current.user.role != "doctor" {
            return Err(ApiError::Forbidden(MODELS_FOR_CLINICIANS.into()));
        }
        Ok(Self(current))
    }
}

/// Room for the multipart framing and the small text fields on top of the file limit.
const MULTIPART_OVERHEAD: usize = 64 * 1024;

/// The routes of this module, mounted under `/api`; uploads get `max_upload_bytes`.
pub fn router(max_upload_bytes: usize) -> Router<AppState> {
    let uploads = Router::new()
        .route("/predict/ecg/upload", post(ecg))
        .route("/predict/pcg/upload", post(pcg))
        .route("/predict/ppg/upload", post(ppg))
        .layer(DefaultBodyLimit::max(
            max_upload_bytes.saturating_add(MULTIPART_OVERHEAD),
        ));
    Router::new()
        .route("/predict/clinical", post(clinical_prediction))
        .merge(uploads)
}

/// The clinical parameters (spec §3), with the optional patient and screening the result is for.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ClinicalPredictRequest {
    /// Years, 0-120.
    pub age: f64,
    /// 0 typical angina, 1 atypical angina, 2 non-anginal pain, 3 asymptomatic.
    pub chest_pain_type: u8,
    /// mg/dl.
    pub cholesterol: Option<f64>,
    /// mg/dl (the model uses > 120 mg/dl).
    pub fasting_blood_sugar: Option<f64>,
    /// 0 no, 1 yes.
    pub exercise_induced_angina: Option<u8>,
    /// 0-3 (the spec's spelling).
    pub vessels_colored_by_flourosopy: Option<u8>,
    /// 0 normal, 1 fixed defect, 2 reversible defect.
    pub thalassemia: Option<u8>,
    /// `male` or `female` (optional; when absent, the patient record's sex where the result
    /// belongs to a patient).
    pub sex: Option<Sex>,
    /// Resting blood pressure, mm Hg, 60-260 (optional).
    pub resting_blood_pressure: Option<f64>,
    /// Resting ECG, 0 normal, 1 ST-T wave abnormality, 2 left ventricular hypertrophy (optional).
    pub resting_ecg: Option<u8>,
    /// Maximal heart rate achieved at exercise, bpm, 50-250 (optional).
    pub max_heart_rate: Option<f64>,
    /// ST depression induced by exercise relative to rest, mm, -5 to 10 (optional).
    pub st_depression: Option<f64>,
    /// Slope of the peak exercise ST segment, 0 up, 1 flat, 2 down (optional).
    pub st_slope: Option<u8>,
    /// One of the user's patients.
    pub patient_id: Option<String>,
    /// One of the user's screenings.
    pub screening_id: Option<String>,
}

/// The form of a recording upload, for the OpenAPI document.
#[derive(ToSchema)]
#[allow(dead_code)] // documents the multipart fields; never constructed
pub struct RecordingUpload {
    /// The recording. ECG: .pdf .dat .txt .csv .ecg (also EDF/BDF, .mat, HL7 aECG .xml, or a WFDB
    /// .hea sent with its .dat as two `file` fields); PCG: audio; PPG: .csv/.txt or audio.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// One of the user's patients.
    patient_id: Option<String>,
    /// One of the user's screenings.
    screening_id: Option<String>,
    /// Samples per second, for a bare list of values.
    sampling_rate: Option<f64>,
    /// Heart sounds only: where on the chest the recording was taken, `AV`, `PV`, `TV` or `MV`.
    site: Option<String>,
}

/// Whom a result is for, checked against the signed-in user's own records (and where on the chest
/// a heart-sound recording was taken).
struct Owner {
    patient_id: Option<String>,
    screening_id: Option<String>,
    /// The patient record's sex (none without a patient, or for "other").
    patient_sex: Option<Sex>,
    /// The auscultation site of a heart-sound recording.
    site: Option<Site>,
}

async fn check_owner(
    state: &AppState,
    user_id: &str,
    patient_id: Option<String>,
    screening_id: Option<String>,
) -> Result<Owner, ApiError> {
    let mut conn = state.db.pool.acquire().await?;
    let mut patient_id = patient_id;
    if let Some(id) = &screening_id {
        let screening = screenings::store::find_row(&mut conn, id, user_id)
            .await?
            .ok_or_else(|| ApiError::NotFound(SCREENING_NOT_FOUND.into()))?;
        match &patient_id {
            Some(p) if *p != screening.patient_id => {
                return Err(ApiError::Validation(
                    "The screening belongs to another patient.".into(),
                ))
            }
            _ => patient_id = Some(screening.patient_id),
        }
    }
    let mut patient_sex = None;
    if let Some(id) = &patient_id {
        let patient = patients::store::find(&mut conn, id, user_id)
            .await?
            .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
        patient_sex = Sex::of_gender(patient.gender);
    }
    Ok(Owner {
        patient_id,
        screening_id,
        patient_sex,
        site: None,
    })
}

async fn store_result(
    state: &AppState,
    user_id: &str,
    client: &str,
    owner: &Owner,
    modality: Modality,
    files: &[StoredFile],
    result: &PredictionResult,
) -> Result<(), ApiError> {
    let model = result.details.get("model");
    let model_id = model
        .and_then(|m| m.get("id"))
        .and_then(|v| v.as_str())
        .unwrap_or("unknown")
        .to_owned();
    let model_version = model
        .and_then(|m| m.get("version"))
        .and_then(|v| v.as_str())
        .unwrap_or("unknown")
        .to_owned();
    let mut tx = state.db.begin().await?;
    analyses::store::insert(
        &mut tx,
        &NewAnalysis {
            id: &result.analysis_id,
            user_id,
            patient_id: owner.patient_id.as_deref(),
            screening_id: owner.screening_id.as_deref(),
            modality,
            site: owner.site,
            files,
            model: (&model_id, &model_version),
            result,
            created_at: now_ms(),
        },
    )
    .await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id,
            action: Action::Create,
            entity: "analysis",
            entity_id: &result.analysis_id,
            patient_id: owner.patient_id.as_deref(),
            client_addr: client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

fn to_result(modality: Modality, prediction: Prediction) -> PredictionResult {
    PredictionResult {
        analysis_id: crate::platform::ids::new(),
        model: modality.display().into(),
        label: prediction.label,
        prediction: prediction.prediction,
        confidence: prediction.confidence,
        risk_score: prediction.risk_score,
        recommendations: prediction.recommendations,
        advice: prediction.advice.into_iter().map(Into::into).collect(),
        details: serde_json::Value::Object(prediction.details),
        device_interpretation: None,
    }
}

/// Predicts the likelihood of coronary artery disease from the seven clinical parameters and any of
/// the six optional ones; `details.attributes_used` names the fields the model scored.
#[utoipa::path(
    post, path = "/api/predict/clinical", operation_id = "predict_clinical", tag = "predict",
    request_body = ClinicalPredictRequest,
    responses(
        (status = 200, description = "The prediction, stored as an analysis", body = PredictionResult),
        (status = 401, description = "Not signed in.", body = ErrorBody),
        (status = 403, description = "Models are run by your doctor; you see the results your doctors share with you.", body = ErrorBody),
        (status = 404, description = "Patient or screening not found.", body = ErrorBody),
        (status = 422, description = "A value is missing or out of range.", body = ErrorBody),
        (status = 503, description = "Model not loaded. Please check backend server.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn clinical_prediction(
    State(state): State<AppState>,
    Clinician(user): Clinician,
    ClientAddr(client): ClientAddr,
    Json(request): Json<ClinicalPredictRequest>,
) -> Result<Json<PredictionResult>, ApiError> {
    let params = *state
        .models
        .clinical
        .as_ref()
        .map_err(|_| ApiError::ModelNotLoaded)?;
    let user_id = user.user.id.as_str();
    let owner = check_owner(&state, user_id, request.patient_id, request.screening_id).await?;
    let input = ClinicalInput {
        age: request.age,
        chest_pain_type: request.chest_pain_type,
        cholesterol: request.cholesterol,
        fasting_blood_sugar: request.fasting_blood_sugar,
        exercise_induced_angina: request.exercise_induced_angina,
        vessels_colored_by_flourosopy: request.vessels_colored_by_flourosopy,
        thalassemia: request.thalassemia,
        sex: request.sex.or(owner.patient_sex).map(Sex::to_model),
        resting_blood_pressure: request.resting_blood_pressure,
        resting_ecg: request.resting_ecg,
        max_heart_rate: request.max_heart_rate,
        st_depression: request.st_depression,
        st_slope: request.st_slope,
    };
    let sex_source = match (request.sex, owner.patient_sex) {
        (Some(_), _) => "request",
        (None, Some(_)) => "patient_record",
        (None, None) => "none",
    };
    let predicted = clinical::predict_with(params, &input).map_err(|err| match err {
        ClinicalError::OutOfRange { .. } => ApiError::Validation(err.to_string()),
        other => ApiError::Internal(other.to_string()),
    })?;
    let mut details = serde_json::Map::new();
    details.insert(
        "model".into(),
        serde_json::json!({
            "id": predicted.model_id,
            "version": predicted.version,
            "metric": "cv_auroc",
            "value": predicted.cv_auroc,
        }),
    );
    details.insert(
        "probabilities".into(),
        serde_json::json!({
            "disease": predicted.probability,
            "no_disease": 1.0 - predicted.probability,
        }),
    );
    details.insert("risk_band".into(), serde_json::json!(predicted.risk_band));
    details.insert("submodel".into(), serde_json::json!(predicted.submodel));
    details.insert(
        "attributes_used".into(),
        serde_json::json!(predicted.attributes_used),
    );
    details.insert(
        "attributes_missing".into(),
        serde_json::json!(predicted.attributes_missing),
    );
    details.insert("sex_source".into(), serde_json::json!(sex_source));
    details.insert(
        "contributions".into(),
        serde_json::json!(predicted.contributions),
    );
    details.insert("input".into(), serde_json::json!(input));
    let result = to_result(
        Modality::Clinical,
        Prediction {
            label: predicted.label.code().into(),
            prediction: predicted.prediction,
            confidence: predicted.confidence,
            risk_score: predicted.risk_score,
            recommendations: predicted.recommendations,
            advice: predicted.advice,
            details,
        },
    );
    store_result(
        &state,
        user_id,
        &client,
        &owner,
        Modality::Clinical,
        &[],
        &result,
    )
    .await?;
    Ok(Json(result))
}

async fn predict_upload(
    state: AppState,
    user: CurrentUser,
    client: String,
    multipart: Result<Multipart, MultipartRejection>,
    modality: Modality,
    model: Result<Arc<dyn SignalModel>, String>,
) -> Result<Json<PredictionResult>, ApiError> {
    let model = model.map_err(|_| ApiError::ModelNotLoaded)?;
    let multipart = multipart.map_err(|_| {
        ApiError::UnsupportedMediaType(
            "Send the recording as multipart/form-data in a field named file.".into(),
        )
    })?;
    let limit = state.config.max_upload_bytes;
    let received = upload::read(multipart, limit, &state.config.data_dir).await?;
    received.check(modality)?;
    let upload = received.load().await?;
    analyse_upload(
        &state,
        user.user.id.as_str(),
        &client,
        upload,
        modality,
        model,
    )
    .await
    .map(Json)
}

/// The model that reads recordings of `modality` (503 when it failed to load).
pub(crate) fn model_for(
    state: &AppState,
    modality: Modality,
) -> Result<Arc<dyn SignalModel>, ApiError> {
    let model = match modality {
        Modality::Ecg => &state.models.ecg,
        Modality::Pcg => &state.models.pcg,
        Modality::Ppg => &state.models.ppg,
        Modality::Clinical => return Err(ApiError::ModelNotLoaded),
    };
    model.clone().map_err(|_| ApiError::ModelNotLoaded)
}

/// Reads a checked upload, runs the model, stores the files and the analysis (audited): what a
/// recording upload does, and what a recording pushed by a network device goes through too.
///
/// # Errors
/// 404 for a patient or screening that is not the user's; 415/422 for an unreadable or unusable
/// recording; 500 when the blob store fails.
pub(crate) async fn analyse_upload(
    state: &AppState,
    user_id: &str,
    client: &str,
    upload: upload::Upload,
    modality: Modality,
    model: Arc<dyn SignalModel>,
) -> Result<PredictionResult, ApiError> {
    let mut owner = check_owner(
        state,
        user_id,
        upload.patient_id.clone(),
        upload.screening_id.clone(),
    )
    .await?;
    owner.site = upload.site;
    let blobs = crate::admin::data_settings::blob_writer(state).await?;
    let file_name = upload.display_name();
    // Memory first (the decode may take a lot), then a core for the model.
    let inputs: Vec<&[u8]> = upload.files.iter().map(|f| f.bytes.as_slice()).collect();
    let decoding = state.decode_gate.acquire_for(&inputs).await?;
    drop(inputs);
    let slot = state
        .compute_slots
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Internal("compute slots closed".into()))?;
    // The model holds a compute slot; storing the files (I/O, an fsync each) happens after it is
    // given back, on the same blocking thread.
    let sex = owner.patient_sex.map(Sex::to_model);
    let (prediction, device, stored, pending) = tokio::task::spawn_blocking(move || {
        let mut recording = upload::to_recording(&upload)?;
        let prediction = model
            .predict_for(&recording, sex)
            .map_err(|err| match err {
                PredictError::Unusable(reason) => ApiError::Validation(reason),
                PredictError::ModelNotLoaded(_) => ApiError::ModelNotLoaded,
            })?;
        drop(slot);
        // The device's own reading goes beside the result, after the model has answered.
        let device = recording.device_interpretation.take();
        drop(recording);
        drop(decoding);
        // Each file under its own hash, the one the record is named by (a WFDB header) first.
        let mut files = upload.files;
        if let Some(at) = files.iter().position(|f| f.name == file_name) {
            files.swap(0, at);
        }
        // Written under temporary names: they become the stored files only once the analysis
        // that names them is committed (and are removed if it is not).
        let mut stored = Vec::with_capacity(files.len());
        let mut pending = Vec::with_capacity(files.len());
        for file in files {
            let blob = blobs.put_pending(&file.bytes).map_err(ApiError::from)?;
            stored.push(StoredFile {
                name: file.name,
                sha256: blob.sha256().to_owned(),
                size: i64::try_from(file.bytes.len()).unwrap_or(i64::MAX),
            });
            pending.push(blob);
        }
        Ok::<_, ApiError>((prediction, device, stored, pending))
    })
    .await??;
    let mut result = to_result(modality, prediction);
    if modality == Modality::Ecg {
        result.device_interpretation = device.map(Into::into);
    }
    store_result(state, user_id, client, &owner, modality, &stored, &result).await?;
    tokio::task::spawn_blocking(move || pending.into_iter().try_for_each(PendingBlob::commit))
        .await??;
    Ok(result)
}

/// Predicts the heart rhythm from an ECG file (normal, atrial fibrillation, other, too noisy).
/// When the file carries the recording device's own interpretation (GE MUSE XML, a cart's or an
/// app's PDF, DICOM, Apple Health), it is returned apart as `device_interpretation`: the device's
/// statements in its own words and its measurements, unconfirmed and never used by the model.
#[utoipa::path(
    post, path = "/api/predict/ecg/upload", operation_id = "predict_ecg", tag = "predict",
    request_body(content = RecordingUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The prediction, stored as an analysis", body = PredictionResult),
        (status = 401, description = "Not signed in.", body = ErrorBody),
        (status = 403, description = "Models are run by your doctor; you see the results your doctors share with you.", body = ErrorBody),
        (status = 404, description = "Patient or screening not found.", body = ErrorBody),
        (status = 413, description = "File too large.", body = ErrorBody),
        (status = 415, description = "Please upload a valid ECG file (.pdf, .dat, .txt, .csv, .ecg)", body = ErrorBody),
        (status = 422, description = "No file, unreadable file, too short or unusable quality.", body = ErrorBody),
        (status = 503, description = "Model not loaded. Please check backend server.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn ecg(
    State(state): State<AppState>,
    Clinician(user): Clinician,
    ClientAddr(client): ClientAddr,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<PredictionResult>, ApiError> {
    let model = state.models.ecg.clone();
    predict_upload(state, user, client, multipart, Modality::Ecg, model).await
}

/// Classifies a heart-sound recording (normal, abnormal, unsure).
#[utoipa::path(
    post, path = "/api/predict/pcg/upload", operation_id = "predict_pcg", tag = "predict",
    request_body(content = RecordingUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The prediction, stored as an analysis", body = PredictionResult),
        (status = 401, description = "Not signed in.", body = ErrorBody),
        (status = 403, description = "Models are run by your doctor; you see the results your doctors share with you.", body = ErrorBody),
        (status = 404, description = "Patient or screening not found.", body = ErrorBody),
        (status = 413, description = "File too large.", body = ErrorBody),
        (status = 415, description = "Please upload an audio file (.wav, .mp3)", body = ErrorBody),
        (status = 422, description = "No file, unreadable file, too short or unusable quality.", body = ErrorBody),
        (status = 503, description = "Model not loaded. Please check backend server.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn pcg(
    State(state): State<AppState>,
    Clinician(user): Clinician,
    ClientAddr(client): ClientAddr,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<PredictionResult>, ApiError> {
    let model = state.models.pcg.clone();
    predict_upload(state, user, client, multipart, Modality::Pcg, model).await
}

/// Heart rate, signal quality and rhythm from a pulse (PPG) recording.
#[utoipa::path(
    post, path = "/api/predict/ppg/upload", operation_id = "predict_ppg", tag = "predict",
    request_body(content = RecordingUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The prediction, stored as an analysis", body = PredictionResult),
        (status = 401, description = "Not signed in.", body = ErrorBody),
        (status = 403, description = "Models are run by your doctor; you see the results your doctors share with you.", body = ErrorBody),
        (status = 404, description = "Patient or screening not found.", body = ErrorBody),
        (status = 413, description = "File too large.", body = ErrorBody),
        (status = 415, description = "Please upload a CSV or TXT file", body = ErrorBody),
        (status = 422, description = "No file, unreadable file, no sampling rate, too short or unusable quality.", body = ErrorBody),
        (status = 503, description = "Model not loaded. Please check backend server.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn ppg(
    State(state): State<AppState>,
    Clinician(user): Clinician,
    ClientAddr(client): ClientAddr,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<PredictionResult>, ApiError> {
    let model = state.models.ppg.clone();
    predict_upload(state, user, client, multipart, Modality::Ppg, model).await
}
