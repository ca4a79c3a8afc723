//! The clinical endpoints: a doctor records a patient's clinical parameters (validated against
//! the form's ranges, spec §5), optionally for one of the patient's screenings, and reads the
//! patient's history; every read and write is audited.

use axum::{extract::State, http::StatusCode, routing::get, Router};
use serde::Deserialize;
use utoipa::ToSchema;

use super::store::{self, ClinicalParameters, ClinicalRecord, Sex};
use cardio_models::clinical::{
    MAX_HEART_RATE_RANGE, RESTING_BLOOD_PRESSURE_RANGE, ST_DEPRESSION_RANGE,
};

/// The 422 of a resting blood pressure outside its range.
pub const RESTING_BLOOD_PRESSURE_MESSAGE: &str =
    "Resting blood pressure must be from 60 to 260 mm Hg.";
/// The 422 of a resting ECG code outside 0-2.
pub const RESTING_ECG_MESSAGE: &str =
    "Resting ECG must be 0 (normal), 1 (ST-T wave abnormality) or 2 (left ventricular hypertrophy).";
/// The 422 of a maximal heart rate outside its range.
pub const MAX_HEART_RATE_MESSAGE: &str = "Maximum heart rate must be from 50 to 250 bpm.";
/// The 422 of an ST depression outside its range.
pub const ST_DEPRESSION_MESSAGE: &str = "ST depression must be from -5 to 10 mm.";
/// The 422 of an ST slope code outside 0-2.
pub const ST_SLOPE_MESSAGE: &str = "ST slope must be 0 (upsloping), 1 (flat) or 2 (downsloping).";
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

/// The clinical form as submitted. Numbers may be sent as JSON numbers; the seven fields of the
/// spec are required, the six after them optional (absent or null: not entered).
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
    /// `male` or `female` (optional).
    pub sex: Option<Sex>,
    /// mm Hg, 60 to 260 (optional).
    pub resting_blood_pressure: Option<f64>,
    /// 0 normal, 1 ST-T wave abnormality, 2 left ventricular hypertrophy (optional).
    pub resting_ecg: Option<f64>,
    /// bpm, 50 to 250 (optional).
    pub max_heart_rate: Option<f64>,
    /// mm, -5 to 10 (optional).
    pub st_depression: Option<f64>,
    /// 0 upsloping, 1 flat, 2 downsloping (optional).
    pub st_slope: Option<f64>,
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

/// An optional number within `lo..=hi` (`None` when not given).
fn optional_in_range(
    value: Option<f64>,
    (lo, hi): (f64, f64),
    message: &str,
) -> Result<Option<f64>, ApiError> {
    match value {
        None => Ok(None),
        Some(v) if v.is_finite() && (lo..=hi).contains(&v) => Ok(Some(v)),
        Some(_) => Err(ApiError::Validation(message.to_owned())),
    }
}

/// An optional whole-number code within `range`.
fn optional_code(
    value: Option<f64>,
    range: std::ops::RangeInclusive<i64>,
    message: &str,
) -> Result<Option<i64>, ApiError> {
    value
        .map(|v| whole_in_range(Some(v), range, "", message))
        .transpose()
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
            sex: self.sex,
            resting_blood_pressure: optional_in_range(
                self.resting_blood_pressure,
                RESTING_BLOOD_PRESSURE_RANGE,
                RESTING_BLOOD_PRESSURE_MESSAGE,
            )?,
            resting_ecg: optional_code(self.resting_ecg, 0..=2, RESTING_ECG_MESSAGE)?,
            max_heart_rate: optional_in_range(
                self.max_heart_rate,
                MAX_HEART_RATE_RANGE,
                MAX_HEART_RATE_MESSAGE,
            )?,
            st_depression: optional_in_range(
                self.st_depression,
                ST_DEPRESSION_RANGE,
                ST_DEPRESSION_MESSAGE,
            )?,
            st_slope: optional_code(self.st_slope, 0..=2, ST_SLOPE_MESSAGE)?,
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
    let patient = patients::store::find(&mut tx, &patient_id, doctor.id())
        .await?
        .ok_or_else(|| ApiError::NotFound(PATIENT_NOT_FOUND.into()))?;
    let mut parameters = form.validate()?;
    // The sex the patient record gives, where the form leaves it out.
    parameters.sex = parameters.sex.or_else(|| Sex::of_gender(patient.gender));
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
            ..ClinicalForm::default()
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
    fn optional_values_are_kept_when_given_and_none_when_not() {
        let p = valid().validate().unwrap();
        assert_eq!(
            (p.sex, p.resting_blood_pressure, p.st_slope),
            (None, None, None)
        );
        let form = ClinicalForm {
            sex: Some(Sex::Female),
            resting_blood_pressure: Some(130.0),
            resting_ecg: Some(2.0),
            max_heart_rate: Some(150.0),
            st_depression: Some(-0.5),
            st_slope: Some(1.0),
            ..valid()
        };
        let p = form.validate().unwrap();
        assert_eq!(p.sex, Some(Sex::Female));
        assert_eq!(p.resting_blood_pressure, Some(130.0));
        assert_eq!(p.resting_ecg, Some(2));
        assert_eq!(p.max_heart_rate, Some(150.0));
        assert_eq!(p.st_depression, Some(-0.5));
        assert_eq!(p.st_slope, Some(1));
    }

    #[test]
    fn names_the_field_that_is_out_of_range() {
        type BreakIt = fn(&mut ClinicalForm);
        let cases: [(BreakIt, &str); 14] = [
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
            (
                |f| f.resting_blood_pressure = Some(40.0),
                RESTING_BLOOD_PRESSURE_MESSAGE,
            ),
            (|f| f.resting_ecg = Some(1.5), RESTING_ECG_MESSAGE),
            (|f| f.max_heart_rate = Some(251.0), MAX_HEART_RATE_MESSAGE),
            (|f| f.st_depression = Some(-6.0), ST_DEPRESSION_MESSAGE),
            (
                |f| f.st_depression = Some(f64::INFINITY),
                ST_DEPRESSION_MESSAGE,
            ),
            (|f| f.st_slope = Some(3.0), ST_SLOPE_MESSAGE),
        ];
        for (break_it, message) in cases {
            let mut form = valid();
            break_it(&mut form);
            assert_eq!(form.validate().unwrap_err().to_string(), message);
        }
    }
}
