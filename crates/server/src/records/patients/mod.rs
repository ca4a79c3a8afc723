//! Patients: intake, list and search, detail, update — every query scoped to the signed-in doctor.
//!
//! JSON field names follow spec §3 (`firstName`, `dateOfBirth`, ...). Optional fields are stored
//! only when filled and omitted from responses otherwise. Another doctor's patient is a 404, never
//! a 403 that would confirm it exists. Creating, reading and updating a record writes an audit row
//! in the same transaction.

pub mod fields;
pub mod store;

use axum::{extract::State, http::StatusCode, routing::get, Router};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::platform::extract::{Path, Query};
use crate::{
    accounts::auth::{session::CurrentDoctor, ClientAddr},
    platform::audit::{self, Action},
    platform::db::now_ms,
    platform::error::{ApiError, ErrorBody},
    platform::extract::Json,
    platform::state::AppState,
};
use fields::{Gender, Status};

/// The message for a patient that does not exist for this doctor.
pub const PATIENT_NOT_FOUND: &str = "Patient not found.";

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/patients", get(list).post(create))
        .route("/patients/{id}", get(read).patch(update))
}

/// A patient as the API shows it (spec §3).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Patient {
    /// Assigned by the server.
    pub id: String,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// `YYYY-MM-DD`.
    pub date_of_birth: String,
    /// male, female or other.
    pub gender: Gender,
    /// Phone number.
    pub phone: String,
    /// Email, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Street address, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// City, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    /// State or region, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Postal code, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zip_code: Option<String>,
    /// Medical history, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medical_history: Option<String>,
    /// Current medications, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_medications: Option<String>,
    /// Allergies, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allergies: Option<String>,
    /// Emergency contact's name, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emergency_contact: Option<String>,
    /// Emergency contact's phone, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emergency_phone: Option<String>,
    /// The owning doctor's user id.
    pub doctor_id: String,
    /// `active` at creation.
    pub status: Status,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
    /// RFC 3339 time of the last visit: creation, or the latest screening, clinical entry or
    /// analysis.
    pub last_visit: String,
    /// The latest analysis stored for the patient (the patient list's "Last result"; only in
    /// `GET /api/patients`, absent when there is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_result: Option<LastResult>,
}

/// The latest analysis of a patient, as the patient list shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastResult {
    /// The analysis.
    pub analysis_id: String,
    /// `clinical`, `ecg`, `pcg` or `ppg`.
    pub modality: String,
    /// Machine code of the finding (e.g. `af`, `normal`, `disease`).
    pub label: String,
    /// The finding, as text.
    pub prediction: String,
    /// Risk score, 0-1.
    pub risk_score: f64,
    /// RFC 3339.
    pub created_at: String,
}

/// The intake form. Missing required fields are reported by name, not as a body error.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct PatientForm {
    /// Required.
    pub first_name: String,
    /// Required.
    pub last_name: String,
    /// Required, `YYYY-MM-DD`, not in the future.
    pub date_of_birth: String,
    /// Required: male, female or other.
    pub gender: String,
    /// Required.
    pub phone: String,
    /// Optional; must be an email address when given.
    pub email: Option<String>,
    /// Optional.
    pub address: Option<String>,
    /// Optional.
    pub city: Option<String>,
    /// Optional.
    pub state: Option<String>,
    /// Optional.
    pub zip_code: Option<String>,
    /// Optional.
    pub medical_history: Option<String>,
    /// Optional.
    pub current_medications: Option<String>,
    /// Optional.
    pub allergies: Option<String>,
    /// Optional.
    pub emergency_contact: Option<String>,
    /// Optional.
    pub emergency_phone: Option<String>,
}

/// A partial update: only the fields present change; an optional field sent as `""` is cleared.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct PatientPatch {
    /// New first name.
    pub first_name: Option<String>,
    /// New last name.
    pub last_name: Option<String>,
    /// New date of birth.
    pub date_of_birth: Option<String>,
    /// New gender.
    pub gender: Option<String>,
    /// New phone.
    pub phone: Option<String>,
    /// New email (`""` clears).
    pub email: Option<String>,
    /// New address (`""` clears).
    pub address: Option<String>,
    /// New city (`""` clears).
    pub city: Option<String>,
    /// New state (`""` clears).
    pub state: Option<String>,
    /// New postal code (`""` clears).
    pub zip_code: Option<String>,
    /// New medical history (`""` clears).
    pub medical_history: Option<String>,
    /// New medications (`""` clears).
    pub current_medications: Option<String>,
    /// New allergies (`""` clears).
    pub allergies: Option<String>,
    /// New emergency contact (`""` clears).
    pub emergency_contact: Option<String>,
    /// New emergency phone (`""` clears).
    pub emergency_phone: Option<String>,
    /// New status.
    pub status: Option<Status>,
}

/// Validated, normalised patient fields, ready to store.
#[derive(Debug, Clone, PartialEq)]
pub struct PatientFields {
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// `YYYY-MM-DD`.
    pub date_of_birth: String,
    /// Gender.
    pub gender: Gender,
    /// Phone.
    pub phone: String,
    /// Optional fields, `None` unless filled.
    pub email: Option<String>,
    /// Street address.
    pub address: Option<String>,
    /// City.
    pub city: Option<String>,
    /// State or region.
    pub state: Option<String>,
    /// Postal code.
    pub zip_code: Option<String>,
    /// Medical history.
    pub medical_history: Option<String>,
    /// Current medications.
    pub current_medications: Option<String>,
    /// Allergies.
    pub allergies: Option<String>,
    /// Emergency contact.
    pub emergency_contact: Option<String>,
    /// Emergency phone.
    pub emergency_phone: Option<String>,
    /// Status.
    pub status: Status,
}

impl PatientForm {
    /// Validates the form in the order of its sections; the first error wins.
    ///
    /// # Errors
    /// A 422 naming the field.
    pub fn validate(&self) -> Result<PatientFields, ApiError> {
        use fields::{optional, MAX_NAME_LEN, MAX_SHORT_LEN, MAX_TEXT_LEN};
        let emergency_phone = match self.emergency_phone.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(p) => Some(fields::phone("Emergency phone", p)?),
        };
        Ok(PatientFields {
            first_name: fields::required("First name", &self.first_name, MAX_NAME_LEN)?,
            last_name: fields::required("Last name", &self.last_name, MAX_NAME_LEN)?,
            date_of_birth: fields::date_of_birth(&self.date_of_birth, fields::today())?,
            gender: Gender::parse(&self.gender)?,
            phone: fields::phone("Phone", &self.phone)?,
            email: fields::optional_email(self.email.as_deref())?,
            address: optional("Address", self.address.as_deref(), MAX_SHORT_LEN)?,
            city: optional("City", self.city.as_deref(), MAX_SHORT_LEN)?,
            state: optional("State", self.state.as_deref(), MAX_SHORT_LEN)?,
            zip_code: optional("ZIP code", self.zip_code.as_deref(), 20)?,
            medical_history: optional(
                "Medical history",
                self.medical_history.as_deref(),
                MAX_TEXT_LEN,
            )?,
            current_medications: optional(
                "Current medications",
                self.current_medications.as_deref(),
                MAX_TEXT_LEN,
            )?,
            allergies: optional("Allergies", self.allergies.as_deref(), MAX_TEXT_LEN)?,
            emergency_contact: optional(
                "Emergency contact",
                self.emergency_contact.as_deref(),
                MAX_NAME_LEN * 2,
            )?,
            emergency_phone,
            status: Status::Active,
        })
    }
}

impl PatientPatch {
    /// Applies the patch to the current values and validates the result as a whole.
    ///
    /// # Errors
    /// A 422 naming the field.
    pub fn apply(self, current: &PatientFields) -> Result<PatientFields, ApiError> {
        fn pick(new: Option<String>, old: &str) -> String {
            new.unwrap_or_else(|| old.to_owned())
        }
        fn pick_opt(new: Option<String>, old: Option<&String>) -> Option<String> {
            match new {
                Some(value) => Some(value),
                None => old.cloned(),
            }
        }
        let form = PatientForm {
            first_name: pick(self.first_name, &current.first_name),
            last_name: pick(self.last_name, &current.last_name),
            date_of_birth: pick(self.date_of_birth, &current.date_of_birth),
            gender: pick(self.gender, current.gender.as_str()),
            phone: pick(self.phone, &current.phone),
            email: pick_opt(self.email, current.email.as_ref()),
            address: pick_opt(self.address, current.address.as_ref()),
            city: pick_opt(self.city, current.city.as_ref()),
            state: pick_opt(self.state, current.state.as_ref()),
            zip_code: pick_opt(self.zip_code, current.zip_code.as_ref()),
            medical_history: pick_opt(self.medical_history, current.medical_history.as_ref()),
            current_medications: pick_opt(
                self.current_medications,
                current.current_medications.as_ref(),
            ),
            allergies: pick_opt(self.allergies, current.allergies.as_ref()),
            emergency_contact: pick_opt(self.emergency_contact, current.emergency_contact.as_ref()),
            emergency_phone: pick_opt(self.emergency_phone, current.emergency_phone.as_ref()),
        };
        let mut fields = form.validate()?;
        fields.status = self.status.unwrap_or(current.status);
        Ok(fields)
    }
}

/// Query of `GET /api/patients`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
pub struct PatientQuery {
    /// Case-insensitive substring of first name, last name, phone or email.
    pub q: Option<String>,
    /// `active` or `inactive`.
    pub status: Option<String>,
}

/// Registers a patient for the signed-in doctor.
#[utoipa::path(
    post, path = "/api/patients", operation_id = "create_patient", tag = "patients", request_body = PatientForm,
    responses(
        (status = 201, description = "The new patient", body = Patient),
        crate::platform::error::documented::DoctorOnly,
        (status = 422, description = "A field is missing or invalid; the detail names it", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Json(form): Json<PatientForm>,
) -> Result<(StatusCode, Json<Patient>), ApiError> {
    let fields = form.validate()?;
    let id = crate::platform::ids::new();
    let mut tx = state.db.begin().await?;
    store::insert(&mut tx, &id, doctor.id(), &fields, now_ms()).await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Create,
            entity: "patient",
            entity_id: &id,
            patient_id: Some(&id),
            client_addr: &client,
        },
    )
    .await?;
    let patient = store::find(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::Internal("patient vanished after insert".into()))?;
    tx.commit().await?;
    tracing::info!(patient_id = %id, "patient created");
    Ok((StatusCode::CREATED, Json(patient)))
}

/// The signed-in doctor's patients, newest first, optionally searched and filtered by status.
#[utoipa::path(
    get, path = "/api/patients", operation_id = "list_patients", tag = "patients", params(PatientQuery),
    responses(
        (status = 200, description = "Own patients, newest first", body = [Patient]),
        crate::platform::error::documented::DoctorOnly,
        (status = 422, description = "Unknown status", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn list(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    Query(query): Query<PatientQuery>,
) -> Result<Json<Vec<Patient>>, ApiError> {
    let status = match query.status.as_deref().map(str::trim) {
        None | Some("") => None,
        Some("active") => Some(Status::Active),
        Some("inactive") => Some(Status::Inactive),
        Some(_) => {
            return Err(ApiError::Validation(
                "Status must be active or inactive.".into(),
            ))
        }
    };
    let patients = store::list(&state.db, doctor.id(), query.q.as_deref(), status).await?;
    Ok(Json(patients))
}

/// One of the signed-in doctor's patients.
#[utoipa::path(
    get, path = "/api/patients/{id}", operation_id = "get_patient", tag = "patients",
    params(("id" = String, Path, description = "Patient id")),
    responses(
        (status = 200, description = "The patient", body = Patient),
        (status = 404, description = "Patient not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn read(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
) -> Result<Json<Patient>, ApiError> {
    let mut tx = state.db.begin().await?;
    let patient = store::find(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Read,
            entity: "patient",
            entity_id: &id,
            patient_id: Some(&id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Json(patient))
}

/// Changes some fields of one of the signed-in doctor's patients.
#[utoipa::path(
    patch, path = "/api/patients/{id}", operation_id = "update_patient", tag = "patients", request_body = PatientPatch,
    params(("id" = String, Path, description = "Patient id")),
    responses(
        (status = 200, description = "The updated patient", body = Patient),
        (status = 404, description = "Patient not found.", body = ErrorBody),
        (status = 422, description = "A field is invalid; the detail names it", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn update(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(id): Path<String>,
    Json(patch): Json<PatientPatch>,
) -> Result<Json<Patient>, ApiError> {
    let mut tx = state.db.begin().await?;
    let current = store::find_fields(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    let fields = patch.apply(&current)?;
    store::update(&mut tx, &id, doctor.id(), &fields, now_ms()).await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Update,
            entity: "patient",
            entity_id: &id,
            patient_id: Some(&id),
            client_addr: &client,
        },
    )
    .await?;
    let patient = store::find(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    tx.commit().await?;
    Ok(Json(patient))
}
