//! The clinical endpoints: a doctor records a patient's clinical parameters (validated against
//! the form's ranges, spec §5), optionally for one of the patient's screenings, and reads the
//! patient's history; every read and write is audited.

use axum::{extract::State, http::StatusCode, routing::get, Router};
use serde::Deserialize;
use utoipa::ToSchema;

use super::store::{self, ClinicalParameters, ClinicalRecord};
use crate::{
    accounts::auth::{session::CurrentDoctor, ClientAddr},
    platform::audit::{self, Action},
    platform::{
        db::now_ms,
        error::{ApiError, ErrorBody},
        extract::{Json, Path},
        state::AppState,
    },
    records::{
        patients::{self, PATIENT_NOT_FOUND},
        screenings::{self, SCREENING_NOT_FOUND},
    },
};

/// The routes of this module, mounted under `/api`.
pub fn router() -> Router<AppState> {
    Router::new().route("/patients/{id}/clinical", get(history).post(create))
}

/// The clinical form as submitted. Numbers may be sent as JSON numbers; every field is required.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ClinicalForm {
    /// Years, 0 to 120.
    pub age: Option<f64>,
    /// 0 to 3.
    pub chest_pain_type: Option<f64>,
    /// mg/dl, 0 or more.
    pub cholesterol: Option<f64>,
    /// mg/dl, 0 or more.
    pub fasting_blood_sugar: Option<f64>,
    /// 0 or 1.
    pub exercise_induced_angina: Option<f64>,
    /// 0 to 3.
    pub vessels_colored_by_flourosopy: Option<f64>,
    /// 0 to 2.
    pub thalassemia: Option<f64>,
    /// The screening these parameters belong to, if any.
    pub screening_id: Option<String>,
}

fn whole_in_range(
    value: Option<f64>,
    range: std::ops::RangeInclusive<i64>,
    label: &str,
    message: &str,
) -> Result<i64, ApiError> {
    let value = value.ok_or_else(|| ApiError::Validation(format!("{label} is required.")))?;
    if value.fract() != 0.0 || !value.is_finite() {
        return Err(ApiError::Validation(message.to_owned()));
    }
    let whole = value as i64;
    if range.contains(&whole) {
        Ok(whole)
    } else {
        Err(ApiError::Validation(message.to_owned()))
    }
}

fn non_negative(value: Option<f64>, label: &str) -> Result<f64, ApiError> {
    let value = value.ok_or_else(|| ApiError::Validation(format!("{label} is required.")))?;
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(ApiError::Validation(format!(
            "{label} must be 0 mg/dl or more."
        )))
    }
}

impl ClinicalForm {
    /// Checks every field against the form's rules, in the form's order.
    ///
    /// # Errors
    /// A 422 naming the first invalid field.
    pub fn validate(&self) -> Result<ClinicalParameters, ApiError> {
        Ok(ClinicalParameters {
            age: whole_in_range(
                self.age,
                0..=120,
                "Age",
                "Age must be a whole number from 0 to 120.",
            )?,
            chest_pain_type: whole_in_range(
                self.chest_pain_type,
                0..=3,
                "Chest pain type",
                "Chest pain type must be 0, 1, 2 or 3.",
            )?,
            cholesterol: non_negative(self.cholesterol, "Cholesterol")?,
            fasting_blood_sugar: non_negative(self.fasting_blood_sugar, "Fasting blood sugar")?,
            exercise_induced_angina: whole_in_range(
                self.exercise_induced_angina,
                0..=1,
                "Exercise-induced angina",
                "Exercise-induced angina must be 0 (no) or 1 (yes).",
            )?,
            vessels_colored_by_flourosopy: whole_in_range(
                self.vessels_colored_by_flourosopy,
                0..=3,
                "Vessels colored by fluoroscopy",
                "Vessels colored by fluoroscopy must be 0, 1, 2 or 3.",
            )?,
            thalassemia: whole_in_range(
                self.thalassemia,
                0..=2,
                "Thalassemia",
                "Thalassemia must be 0, 1 or 2.",
            )?,
        })
    }
}

/// Records clinical parameters for one of the signed-in doctor's patients, attaching them to a
/// screening of that patient when `screening_id` is given.
#[utoipa::path(
    post, path = "/api/patients/{id}/clinical", operation_id = "create_clinical_record", tag = "clinical", request_body = ClinicalForm,
    params(("id" = String, Path, description = "Patient id")),
    responses(
        (status = 201, description = "The stored entry", body = ClinicalRecord),
        (status = 404, description = "Patient not found. / Screening not found.", body = ErrorBody),
        (status = 422, description = "A value is missing or out of range; the detail names it", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(patient_id): Path<String>,
    Json(form): Json<ClinicalForm>,
) -> Result<(StatusCode, Json<ClinicalRecord>), ApiError> {
    let mut tx = state.db.begin().await?;
    if patients::store::find(&mut tx, &patient_id, doctor.id())
        .await?
        .is_none()
    {
        return Err(ApiError::NotFound(PATIENT_NOT_FOUND.into()));
    }
    let parameters = form.validate()?;
    if let Some(screening_id) = &form.screening_id {
        let screening = screenings::store::find_row(&mut tx, screening_id, doctor.id()).await?;
        if screening.is_none_or(|s| s.patient_id != patient_id) {
            return Err(ApiError::NotFound(SCREENING_NOT_FOUND.into()));
        }
    }
    let now = now_ms();
    let id = store::insert(&mut tx, &patient_id, doctor.id(), &parameters, now).await?;
    patients::store::touch_visit(&mut tx, &patient_id, doctor.id(), now).await?;
    if let Some(screening_id) = &form.screening_id {
        screenings::store::attach_clinical(&mut tx, screening_id, doctor.id(), &id, now).await?;
    }
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Create,
            entity: "clinical",
            entity_id: &id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    let record = store::find(&mut tx, &id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::Internal("clinical entry vanished after insert".into()))?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(record)))
}

/// The clinical history of one of the signed-in doctor's patients, newest first.
#[utoipa::path(
    get, path = "/api/patients/{id}/clinical", operation_id = "list_clinical_records", tag = "clinical",
    params(("id" = String, Path, description = "Patient id")),
    responses(
        (status = 200, description = "The history, newest first", body = [ClinicalRecord]),
        (status = 404, description = "Patient not found.", body = ErrorBody),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn history(
    State(state): State<AppState>,
    doctor: CurrentDoctor,
    ClientAddr(client): ClientAddr,
    Path(patient_id): Path<String>,
) -> Result<Json<Vec<ClinicalRecord>>, ApiError> {
    let mut tx = state.db.begin().await?;
    if patients::store::find(&mut tx, &patient_id, doctor.id())
        .await?
        .is_none()
    {
        return Err(ApiError::NotFound(PATIENT_NOT_FOUND.into()));
    }
    let records = store::records_of(&mut tx, &patient_id, doctor.id()).await?;
    audit::record(
        &mut tx,
        &audit::Entry {
            user_id: doctor.id(),
            action: Action::Read,
            entity: "clinical",
            entity_id: &patient_id,
            patient_id: Some(&patient_id),
            client_addr: &client,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Json(records))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid() -> ClinicalForm {
        ClinicalForm {
            age: Some(50.0),
            chest_pain_type: Some(0.0),
            cholesterol: Some(200.0),
            fasting_blood_sugar: Some(100.0),
            exercise_induced_angina: Some(0.0),
            vessels_colored_by_flourosopy: Some(0.0),
            thalassemia: Some(0.0),
            screening_id: None,
        }
    }

    #[test]
    fn accepts_the_modal_defaults() {
        let p = valid().validate().unwrap();
        assert_eq!(
            (p.age, p.cholesterol, p.fasting_blood_sugar),
            (50, 200.0, 100.0)
        );
    }

    #[test]
    fn names_the_field_that_is_out_of_range() {
        type BreakIt = fn(&mut ClinicalForm);
        let cases: [(BreakIt, &str); 8] = [
            (
                |f| f.age = Some(121.0),
                "Age must be a whole number from 0 to 120.",
            ),
            (
                |f| f.age = Some(40.5),
                "Age must be a whole number from 0 to 120.",
            ),
            (|f| f.age = None, "Age is required."),
            (
                |f| f.chest_pain_type = Some(4.0),
                "Chest pain type must be 0, 1, 2 or 3.",
            ),
            (
                |f| f.cholesterol = Some(-1.0),
                "Cholesterol must be 0 mg/dl or more.",
            ),
            (
                |f| f.exercise_induced_angina = Some(2.0),
                "Exercise-induced angina must be 0 (no) or 1 (yes).",
            ),
            (
                |f| f.vessels_colored_by_flourosopy = Some(-1.0),
                "Vessels colored by fluoroscopy must be 0, 1, 2 or 3.",
            ),
            (
                |f| f.thalassemia = Some(3.0),
                "Thalassemia must be 0, 1 or 2.",
            ),
        ];
        for (break_it, message) in cases {
            let mut form = valid();
            break_it(&mut form);
            assert_eq!(form.validate().unwrap_err().to_string(), message);
        }
    }
}
