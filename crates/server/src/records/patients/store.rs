//! SQL for patients. Every statement filters on `doctor_id`: a doctor reaches only own patients.

use sqlx::{any::AnyRow, AnyConnection, Row};

use super::{
    fields::{Gender, Status},
    LastResult, Patient, PatientFields,
};
use crate::{
    platform::db::{ms_to_rfc3339, Db},
    platform::error::ApiError,
};

const COLUMNS: &str = "id, doctor_id, first_name, last_name, date_of_birth, gender, phone, email, \
     address, city, state, zip_code, medical_history, current_medications, allergies, \
     emergency_contact, emergency_phone, status, created_at, updated_at, last_visit";

/// Separator between searchable fields: a control character no query can contain.
const FIELD_SEPARATOR: char = '\u{1f}';

/// The lower-cased text a search matches: "first last", phone, email.
fn search_text(fields: &PatientFields) -> String {
    format!(
        "{} {}{FIELD_SEPARATOR}{}{FIELD_SEPARATOR}{}",
        fields.first_name,
        fields.last_name,
        fields.phone,
        fields.email.as_deref().unwrap_or_default()
    )
    .to_lowercase()
}

/// A `LIKE` pattern matching `query` anywhere, with `\` as the escape character.
pub fn like_pattern(query: &str) -> String {
    let mut pattern = String::from("%");
    for c in query
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_control())
    {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

fn patient_from_row(row: &AnyRow) -> Result<Patient, sqlx::Error> {
    let fields = fields_from_row(row)?;
    Ok(Patient {
        id: row.try_get("id")?,
        first_name: fields.first_name,
        last_name: fields.last_name,
        date_of_birth: fields.date_of_birth,
        gender: fields.gender,
        phone: fields.phone,
        email: fields.email,
        address: fields.address,
        city: fields.city,
        state: fields.state,
        zip_code: fields.zip_code,
        medical_history: fields.medical_history,
        current_medications: fields.current_medications,
        allergies: fields.allergies,
        emergency_contact: fields.emergency_contact,
        emergency_phone: fields.emergency_phone,
        doctor_id: row.try_get("doctor_id")?,
        status: fields.status,
        created_at: ms_to_rfc3339(row.try_get("created_at")?),
        updated_at: ms_to_rfc3339(row.try_get("updated_at")?),
        last_visit: ms_to_rfc3339(row.try_get("last_visit")?),
        last_result: None,
    })
}

fn fields_from_row(row: &AnyRow) -> Result<PatientFields, sqlx::Error> {
    let gender: String = row.try_get("gender")?;
    Ok(PatientFields {
        first_name: row.try_get("first_name")?,
        last_name: row.try_get("last_name")?,
        date_of_birth: row.try_get("date_of_birth")?,
        gender: Gender::parse(&gender).unwrap_or(Gender::Other),
        phone: row.try_get("phone")?,
        email: row.try_get("email")?,
        address: row.try_get("address")?,
        city: row.try_get("city")?,
        state: row.try_get("state")?,
        zip_code: row.try_get("zip_code")?,
        medical_history: row.try_get("medical_history")?,
        current_medications: row.try_get("current_medications")?,
        allergies: row.try_get("allergies")?,
        emergency_contact: row.try_get("emergency_contact")?,
        emergency_phone: row.try_get("emergency_phone")?,
        status: Status::from_stored(&row.try_get::<String, _>("status")?),
    })
}

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// Binds `$1` id, `$2` doctor, `$3..=$18` the fields in column order, `$19` the search text and
/// `$20` the time: the parameter layout shared by [`insert`] and [`update`].
fn bind_row<'q>(
    query: AnyQuery<'q>,
    id: &'q str,
    doctor_id: &'q str,
    f: &'q PatientFields,
    now: i64,
) -> AnyQuery<'q> {
    query
        .bind(id)
        .bind(doctor_id)
        .bind(&f.first_name)
        .bind(&f.last_name)
        .bind(&f.date_of_birth)
        .bind(f.gender.as_str())
        .bind(&f.phone)
        .bind(f.email.as_deref())
        .bind(f.address.as_deref())
        .bind(f.city.as_deref())
        .bind(f.state.as_deref())
        .bind(f.zip_code.as_deref())
        .bind(f.medical_history.as_deref())
        .bind(f.current_medications.as_deref())
        .bind(f.allergies.as_deref())
        .bind(f.emergency_contact.as_deref())
        .bind(f.emergency_phone.as_deref())
        .bind(f.status.as_str())
        .bind(search_text(f))
        .bind(now)
}

/// Inserts a patient owned by `doctor_id`.
pub async fn insert(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
    f: &PatientFields,
    now: i64,
) -> Result<(), ApiError> {
    let query = sqlx::query(
        "INSERT INTO patients (id, doctor_id, first_name, last_name, date_of_birth, gender, phone, \
         email, address, city, state, zip_code, medical_history, current_medications, allergies, \
         emergency_contact, emergency_phone, status, search_text, created_at, updated_at, last_visit) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $20, $20)",
    );
    bind_row(query, id, doctor_id, f, now).execute(conn).await?;
    Ok(())
}

/// Replaces the fields of one of the doctor's patients.
pub async fn update(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
    f: &PatientFields,
    now: i64,
) -> Result<(), ApiError> {
    let query = sqlx::query(
        "UPDATE patients SET first_name = $3, last_name = $4, date_of_birth = $5, gender = $6, \
         phone = $7, email = $8, address = $9, city = $10, state = $11, zip_code = $12, \
         medical_history = $13, current_medications = $14, allergies = $15, \
         emergency_contact = $16, emergency_phone = $17, status = $18, search_text = $19, \
         updated_at = $20 WHERE id = $1 AND doctor_id = $2",
    );
    bind_row(query, id, doctor_id, f, now).execute(conn).await?;
    Ok(())
}

async fn fetch_row(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
) -> Result<Option<AnyRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM patients WHERE id = $1 AND doctor_id = $2");
    sqlx::query(&sql)
        .bind(id)
        .bind(doctor_id)
        .fetch_optional(conn)
        .await
}

/// One of the doctor's patients.
pub async fn find(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
) -> Result<Option<Patient>, ApiError> {
    let row = fetch_row(conn, id, doctor_id).await?;
    Ok(row.as_ref().map(patient_from_row).transpose()?)
}

/// The stored fields of one of the doctor's patients (for updates).
pub async fn find_fields(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
) -> Result<Option<PatientFields>, ApiError> {
    let row = fetch_row(conn, id, doctor_id).await?;
    Ok(row.as_ref().map(fields_from_row).transpose()?)
}

/// Marks a visit on one of the doctor's patients: a new screening, and every clinical entry and
/// analysis stored for the patient. Never moves the last visit back.
pub async fn touch_visit(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
    now: i64,
) -> Result<(), ApiError> {
    sqlx::query(
        "UPDATE patients SET last_visit = $3 WHERE id = $1 AND doctor_id = $2 AND last_visit < $3",
    )
    .bind(id)
    .bind(doctor_id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// The doctor's patients, newest first, matching `query` and `status` when given.
pub async fn list(
    db: &Db,
    doctor_id: &str,
    query: Option<&str>,
    status: Option<Status>,
) -> Result<Vec<Patient>, ApiError> {
    let pattern = like_pattern(query.unwrap_or_default());
    let sql = format!(
        "SELECT {COLUMNS} FROM patients WHERE doctor_id = $1 AND search_text LIKE $2 ESCAPE '\\' \
         AND ($3 = '' OR status = $3) ORDER BY created_at DESC, id DESC"
    );
    let rows = sqlx::query(&sql)
        .bind(doctor_id)
        .bind(pattern)
        .bind(status.map_or("", Status::as_str))
        .fetch_all(&db.pool)
        .await?;
    let mut patients: Vec<Patient> = rows
        .iter()
        .map(patient_from_row)
        .collect::<Result<_, _>>()?;
    let mut latest = last_results(db, doctor_id).await?;
    for p in &mut patients {
        p.last_result = latest.remove(&p.id);
    }
    Ok(patients)
}

/// The latest analysis of each of the doctor's patients that has one, by patient id (ties in time
/// go to the larger id).
async fn last_results(
    db: &Db,
    doctor_id: &str,
) -> Result<std::collections::HashMap<String, LastResult>, ApiError> {
    let rows = sqlx::query(
        "SELECT a.id, a.patient_id, a.modality, a.label, a.prediction, a.risk_score, a.created_at          FROM analyses a WHERE a.user_id = $1 AND a.patient_id IS NOT NULL AND a.created_at =          (SELECT MAX(b.created_at) FROM analyses b WHERE b.user_id = $1 AND b.patient_id = a.patient_id)          ORDER BY a.id",
    )
    .bind(doctor_id)
    .fetch_all(&db.pool)
    .await?;
    let mut out = std::collections::HashMap::new();
    for row in &rows {
        let patient: String = row.try_get("patient_id")?;
        out.insert(
            patient,
            LastResult {
                analysis_id: row.try_get("id")?,
                modality: row.try_get("modality")?,
                label: row.try_get("label")?,
                prediction: row.try_get("prediction")?,
                risk_score: row.try_get("risk_score")?,
                created_at: ms_to_rfc3339(row.try_get("created_at")?),
            },
        );
    }
    Ok(out)
}

/// How many patients the doctor has.
pub async fn count(db: &Db, doctor_id: &str) -> Result<i64, ApiError> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM patients WHERE doctor_id = $1")
            .bind(doctor_id)
            .fetch_one(&db.pool)
            .await?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_patterns_escape_wildcards_and_fold_case() {
        assert_eq!(like_pattern(" ÁnA "), "%ána%");
        assert_eq!(like_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
        assert_eq!(like_pattern(""), "%%");
        assert_eq!(like_pattern("a\u{1f}b"), "%ab%");
    }

    // Regression: CI saw the search list of three patients made back to back in a random order,
    // once the server made them within one millisecond (random ids broke the tie).
    #[tokio::test]
    async fn patients_made_in_the_same_millisecond_are_listed_newest_first() {
        let dir =
            std::env::temp_dir().join(format!("cardio-order-{}", crate::platform::ids::new()));
        let db = Db::connect(&format!("sqlite://{}/c.db", dir.display()))
            .await
            .unwrap();
        let now = crate::platform::db::now_ms();
        sqlx::query(
            "INSERT INTO users (id, email, display_name, password_hash, role, is_active, created_at, updated_at) \
             VALUES ('d', 'd@example.org', 'D', 'x', 'doctor', 1, $1, $1)",
        )
        .bind(now)
        .execute(&db.writer)
        .await
        .unwrap();
        let form: crate::records::patients::PatientForm =
            serde_json::from_value(serde_json::json!({
                "firstName": "A", "lastName": "B", "dateOfBirth": "1960-01-01", "gender": "female",
                "phone": "600 123 456"
            }))
            .unwrap();
        let fields = form.validate().unwrap();
        let mut made = Vec::new();
        for _ in 0..20 {
            let id = crate::platform::ids::new();
            let mut conn = db.writer.acquire().await.unwrap();
            insert(&mut conn, &id, "d", &fields, now).await.unwrap();
            made.push(id);
        }

        let listed: Vec<String> = list(&db, "d", None, None)
            .await
            .unwrap()
            .into_iter()
            .map(|p| p.id)
            .collect();

        made.reverse();
        assert_eq!(listed, made);
        db.pool.close().await;
        db.writer.close().await;
        std::fs::remove_dir_all(dir).unwrap();
    }
}
