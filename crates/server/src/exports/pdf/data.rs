//! What a report shows, gathered from the records (always scoped to the owner): the analysis or the
//! screening with its analyses, the patient, the clinical entry and the reviews.

use sqlx::AnyConnection;

use crate::{
    accounts::settings::Language,
    platform::error::ApiError,
    records::analyses::{self, store::Analysis, store::Modality},
    records::clinical::{self, store::ClinicalRecord},
    records::combine::CombinedResult,
    records::patients::{self, Patient},
    records::reviews::store::Review,
    records::screenings::{self},
};

/// What one report shows, gathered from the database before the blocking work.
pub struct ReportData {
    /// Language of the words.
    pub language: Language,
    /// The doctor's display name.
    pub doctor: String,
    /// The patient, when the record has one.
    pub patient: Option<Patient>,
    /// The clinical parameters that go with it.
    pub clinical: Option<ClinicalRecord>,
    /// A screening report: its id, combined result and review.
    pub screening: Option<ScreeningPart>,
    /// The analyses shown, in the workflow's order.
    pub analyses: Vec<Analysis>,
}

/// The screening-only part of a report.
pub struct ScreeningPart {
    /// Screening id.
    pub id: String,
    /// RFC 3339.
    pub created_at: String,
    /// The combined result, once combined.
    pub combined: Option<CombinedResult>,
    /// The current review of the screening.
    pub review: Option<Review>,
}

/// The newest clinical entry of a patient, for an analysis outside a screening.
pub(super) async fn clinical_for(
    conn: &mut AnyConnection,
    patient_id: Option<&str>,
    screening_clinical: Option<&str>,
    owner: &str,
) -> Result<Option<ClinicalRecord>, ApiError> {
    if let Some(id) = screening_clinical {
        return Ok(clinical::store::find(conn, id, owner).await?);
    }
    match patient_id {
        Some(p) => Ok(clinical::store::records_of(conn, p, owner)
            .await?
            .into_iter()
            .next()),
        None => Ok(None),
    }
}

/// What the report of one of `owner`'s analyses shows; `None` when `owner` has no analysis `id`.
pub(crate) async fn analysis_data(
    conn: &mut AnyConnection,
    id: &str,
    owner: &str,
    language: Language,
    doctor: &str,
) -> Result<Option<ReportData>, ApiError> {
    let Some(analysis) = analyses::store::find(conn, id, owner).await? else {
        return Ok(None);
    };
    let patient = match &analysis.patient_id {
        Some(p) => patients::store::find(conn, p, owner).await?,
        None => None,
    };
    let screening_clinical = match &analysis.screening_id {
        Some(s) => screenings::store::find_row(conn, s, owner)
            .await?
            .and_then(|row| row.clinical_record_id),
        None => None,
    };
    let clinical = clinical_for(
        conn,
        analysis.patient_id.as_deref(),
        screening_clinical.as_deref(),
        owner,
    )
    .await?;
    Ok(Some(ReportData {
        language,
        doctor: doctor.to_owned(),
        patient,
        clinical,
        screening: None,
        analyses: vec![analysis],
    }))
}

/// What the report of one of `doctor_id`'s screenings shows (every modality's newest result and
/// the combined one), with the screening's patient id; `None` when the doctor has no screening `id`.
pub(crate) async fn screening_data(
    conn: &mut AnyConnection,
    id: &str,
    doctor_id: &str,
    language: Language,
    doctor: &str,
) -> Result<Option<(ReportData, String)>, ApiError> {
    let Some(screening) = screenings::store::read_one(conn, id, doctor_id).await? else {
        return Ok(None);
    };
    let patient = patients::store::find(conn, &screening.patient.id, doctor_id).await?;
    // The screening's own entry; without one, the patient's newest (its date is printed).
    let clinical = match screening.clinical.clone() {
        Some(record) => Some(record),
        None => clinical_for(conn, Some(&screening.patient.id), None, doctor_id).await?,
    };
    let found = analyses::store::of_screening(conn, doctor_id, id).await?;
    // The newest result of each modality, in the workflow's order (clinical, PCG, PPG, ECG).
    let mut shown = Vec::new();
    for modality in [
        Modality::Clinical,
        Modality::Pcg,
        Modality::Ppg,
        Modality::Ecg,
    ] {
        if let Some(a) = found.iter().find(|a| a.modality == modality) {
            shown.push(a.clone());
        }
    }
    let data = ReportData {
        language,
        doctor: doctor.to_owned(),
        patient,
        clinical,
        screening: Some(ScreeningPart {
            id: screening.id,
            created_at: screening.created_at,
            combined: screening.combined,
            review: screening.review,
        }),
        analyses: shown,
    };
    Ok(Some((data, screening.patient.id)))
}
