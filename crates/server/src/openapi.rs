//! The OpenAPI document, generated from the handlers' annotations (utoipa). The web client's types
//! are generated from it (`make gen-client`), and a test fails when the committed copy is stale.

use utoipa::OpenApi;

use crate::{
    analyses, audit, auth, clinical, combine, dashboard, error::ErrorBody, health, models,
    patients, predict, screenings, waveforms,
};

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(title = "Cardio API", description = "Cardiovascular screening workstation API."),
    paths(
        health::health, auth::signup, auth::login, auth::logout, auth::me,
        patients::create, patients::list, patients::read, patients::update,
        clinical::create, clinical::history,
        screenings::create, screenings::read, screenings::list_for_patient,
        audit::list, dashboard::summary,
        predict::clinical_prediction, predict::ecg, predict::pcg, predict::ppg, analyses::list,
        analyses::read, waveforms::read, models::list, combine::combine,
    ),
    components(schemas(
        ErrorBody, health::Health, auth::User, auth::Role, auth::SignupRequest, auth::LoginRequest,
        patients::Patient, patients::PatientForm, patients::PatientPatch,
        patients::fields::Gender, patients::fields::Status,
        clinical::ClinicalForm, clinical::ClinicalParameters, clinical::ClinicalRecord,
        screenings::Screening, screenings::PatientSummary, screenings::NewScreening,
        audit::AuditEntry, audit::Action, dashboard::Dashboard,
        predict::ClinicalPredictRequest, predict::RecordingUpload,
        analyses::PredictionResult, analyses::Analysis, analyses::Modality, analyses::StoredFile,
        waveforms::WaveformView, waveforms::WaveformChannelView,
        models::ModelSummary, models::Metric,
        combine::CombinedResult, combine::ModalityResult, combine::ModalityStatus,
    )),
    tags(
        (name = "health"), (name = "auth", description = "Accounts and sessions"),
        (name = "patients", description = "A doctor's patients"),
        (name = "clinical", description = "Clinical parameters"),
        (name = "screenings", description = "Screening sessions"),
        (name = "audit", description = "Audit trail"),
        (name = "predict", description = "Model predictions"),
        (name = "analyses", description = "Stored predictions"),
    )
)]
pub struct ApiDoc;

/// The document as pretty JSON, with a trailing newline (the committed form).
pub fn json() -> String {
    let mut text = ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serialises");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_has_its_own_id() {
        let doc: serde_json::Value = serde_json::from_str(&json()).unwrap();
        let mut ids: Vec<String> = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|ops| ops.as_object().unwrap().values())
            .map(|op| {
                op["operationId"]
                    .as_str()
                    .expect("an operationId")
                    .to_owned()
            })
            .collect();
        let count = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(
            ids.len(),
            count,
            "duplicate operation ids break the generated client"
        );
    }
}
