//! Clinical entries as stored: the seven values and the optional six with their time, the screening
//! they were entered for, and the queries (always scoped to the doctor).

use serde::{Deserialize, Serialize};
use sqlx::{any::AnyRow, AnyConnection, Row};
use utoipa::ToSchema;

use crate::platform::{db::ms_to_rfc3339, ids};

/// The patient's sex as the clinical model codes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Sex {
    /// Male.
    Male,
    /// Female.
    Female,
}

impl Sex {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Male => "male",
            Self::Female => "female",
        }
    }

    /// The stored text back (anything else is no value).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "male" => Some(Self::Male),
            "female" => Some(Self::Female),
            _ => None,
        }
    }

    /// The sex a patient record's gender gives (none for "other").
    pub fn of_gender(gender: crate::records::patients::fields::Gender) -> Option<Self> {
        use crate::records::patients::fields::Gender;
        match gender {
            Gender::Male => Some(Self::Male),
            Gender::Female => Some(Self::Female),
            Gender::Other => None,
        }
    }

    /// The model's value.
    pub fn to_model(self) -> cardio_models::clinical::Sex {
        match self {
            Self::Male => cardio_models::clinical::Sex::Male,
            Self::Female => cardio_models::clinical::Sex::Female,
        }
    }
}

/// The seven clinical parameters and the six optional ones, validated.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ClinicalParameters {
    /// Years, 0 to 120.
    pub age: i64,
    /// 0 typical angina, 1 atypical angina, 2 non-anginal pain, 3 asymptomatic.
    pub chest_pain_type: i64,
    /// Serum cholesterol, mg/dl, 0 or more.
    pub cholesterol: f64,
    /// Fasting blood sugar, mg/dl, 0 or more.
    pub fasting_blood_sugar: f64,
    /// 0 no, 1 yes.
    pub exercise_induced_angina: i64,
    /// Major vessels colored by fluoroscopy, 0 to 3 (the prototype's spelling).
    pub vessels_colored_by_flourosopy: i64,
    /// 0 normal, 1 fixed defect, 2 reversible defect.
    pub thalassemia: i64,
    /// Optional.
    pub sex: Option<Sex>,
    /// Resting blood pressure, mm Hg, 60 to 260 (optional).
    pub resting_blood_pressure: Option<f64>,
    /// Resting ECG (optional): 0 normal, 1 ST-T wave abnormality, 2 left ventricular hypertrophy.
    pub resting_ecg: Option<i64>,
    /// Maximal heart rate achieved, bpm, 50 to 250 (optional).
    pub max_heart_rate: Option<f64>,
    /// ST depression induced by exercise relative to rest, mm, -5 to 10 (optional).
    pub st_depression: Option<f64>,
    /// Slope of the peak exercise ST segment (optional): 0 up, 1 flat, 2 down.
    pub st_slope: Option<i64>,
}

/// A stored entry of a patient's clinical history.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClinicalRecord {
    /// Entry id.
    pub id: String,
    /// The patient.
    pub patient_id: String,
    /// The screening it was entered for, if any.
    pub screening_id: Option<String>,
    /// The seven values.
    pub parameters: ClinicalParameters,
    /// RFC 3339.
    pub created_at: String,
}

const COLUMNS: &str = "c.id, c.patient_id, c.age, c.chest_pain_type, c.cholesterol, \
     c.fasting_blood_sugar, c.exercise_induced_angina, c.vessels_colored_by_flourosopy, \
     c.thalassemia, c.sex, c.resting_blood_pressure, c.resting_ecg, c.max_heart_rate, \
     c.st_depression, c.st_slope, c.created_at, s.id AS screening_id";

fn record_from_row(row: &AnyRow) -> Result<ClinicalRecord, sqlx::Error> {
    Ok(ClinicalRecord {
        id: row.try_get("id")?,
        patient_id: row.try_get("patient_id")?,
        screening_id: row.try_get("screening_id")?,
        parameters: ClinicalParameters {
            age: row.try_get("age")?,
            chest_pain_type: row.try_get("chest_pain_type")?,
            cholesterol: row.try_get("cholesterol")?,
            fasting_blood_sugar: row.try_get("fasting_blood_sugar")?,
            exercise_induced_angina: row.try_get("exercise_induced_angina")?,
            vessels_colored_by_flourosopy: row.try_get("vessels_colored_by_flourosopy")?,
            thalassemia: row.try_get("thalassemia")?,
            sex: row
                .try_get::<Option<String>, _>("sex")?
                .as_deref()
                .and_then(Sex::parse),
            resting_blood_pressure: row.try_get("resting_blood_pressure")?,
            resting_ecg: row.try_get("resting_ecg")?,
            max_heart_rate: row.try_get("max_heart_rate")?,
            st_depression: row.try_get("st_depression")?,
            st_slope: row.try_get("st_slope")?,
        },
        created_at: ms_to_rfc3339(row.try_get("created_at")?),
    })
}

/// One clinical entry of the doctor's.
pub async fn find(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
) -> Result<Option<ClinicalRecord>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM clinical_records c \
         LEFT JOIN screenings s ON s.clinical_record_id = c.id AND s.doctor_id = c.doctor_id \
         WHERE c.id = $1 AND c.doctor_id = $2"
    );
    let row = sqlx::query(&sql)
        .bind(id)
        .bind(doctor_id)
        .fetch_optional(conn)
        .await?;
    row.as_ref().map(record_from_row).transpose()
}

/// The clinical history of one of the doctor's patients, newest first (the caller has checked the
/// patient is the doctor's).
///
/// # Errors
/// A database error.
pub async fn records_of(
    conn: &mut AnyConnection,
    patient_id: &str,
    doctor_id: &str,
) -> Result<Vec<ClinicalRecord>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM clinical_records c \
         LEFT JOIN screenings s ON s.clinical_record_id = c.id AND s.doctor_id = c.doctor_id \
         WHERE c.patient_id = $1 AND c.doctor_id = $2 ORDER BY c.created_at DESC, c.id DESC"
    );
    let rows = sqlx::query(&sql)
        .bind(patient_id)
        .bind(doctor_id)
        .fetch_all(conn)
        .await?;
    rows.iter().map(record_from_row).collect()
}

/// Stores the clinical parameters of a patient, entered at `now` (ms); returns the entry's id.
///
/// # Errors
/// A database error.
pub async fn insert(
    conn: &mut AnyConnection,
    patient_id: &str,
    doctor_id: &str,
    parameters: &ClinicalParameters,
    now: i64,
) -> Result<String, sqlx::Error> {
    let id = ids::new();
    sqlx::query(
        "INSERT INTO clinical_records (id, patient_id, doctor_id, age, chest_pain_type, cholesterol, \
         fasting_blood_sugar, exercise_induced_angina, vessels_colored_by_flourosopy, thalassemia, \
         sex, resting_blood_pressure, resting_ecg, max_heart_rate, st_depression, st_slope, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
    )
    .bind(&id)
    .bind(patient_id)
    .bind(doctor_id)
    .bind(parameters.age)
    .bind(parameters.chest_pain_type)
    .bind(parameters.cholesterol)
    .bind(parameters.fasting_blood_sugar)
    .bind(parameters.exercise_induced_angina)
    .bind(parameters.vessels_colored_by_flourosopy)
    .bind(parameters.thalassemia)
    .bind(parameters.sex.map(Sex::as_str))
    .bind(parameters.resting_blood_pressure)
    .bind(parameters.resting_ecg)
    .bind(parameters.max_heart_rate)
    .bind(parameters.st_depression)
    .bind(parameters.st_slope)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(id)
}
