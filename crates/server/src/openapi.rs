//! The OpenAPI document, generated from the handlers' annotations (utoipa). The web client's types
//! are generated from it (`make gen-client`), and a test fails when the committed copy is stale.

use utoipa::OpenApi;

use crate::{
    accounts::{auth, notifications, profile, settings},
    admin::{audit, backup, data_settings, system},
    exports::{fhir, pdf as report_pdf, zip as export_zip},
    platform::{error::ErrorBody, health},
    recordings::{devices, ecg12_marks, models, predict, waveforms},
    records::{
        analyses, clinical, combine, dashboard, patients, reports, reviews, screenings, sharing,
    },
};

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(title = "Cardio API", description = "Cardiovascular screening workstation API."),
    paths(
        health::health, auth::signup, auth::login, auth::logout, auth::me, auth::update_me,
        auth::change_password, auth::two_factor::setup, auth::two_factor::enable,
        auth::two_factor::disable, auth::two_factor::login_with_code,
        auth::email_links::request_verification, auth::email_links::verify_email,
        auth::email_links::request_reset, auth::email_links::reset_password, profile::activity, settings::read, settings::save,
        patients::create, patients::list, patients::read, patients::update,
        clinical::routes::create, clinical::routes::history,
        screenings::routes::create, screenings::routes::read, screenings::routes::list_for_patient,
        audit::list, dashboard::summary,
        predict::clinical_prediction, predict::ecg, predict::pcg, predict::ppg, analyses::routes::list,
        analyses::routes::read, waveforms::read, models::list, models::ecg_statements, screenings::routes::combine,
        reviews::routes::review_analysis, reviews::routes::analysis_history, reviews::routes::review_screening,
        reviews::routes::screening_history, reports::summary, reports::export_csv, reports::history, export_zip::export_all, notifications::feed, notifications::mark_seen, sharing::routes::current_share, sharing::routes::invite, sharing::routes::revoke, sharing::routes::invitations, sharing::routes::accept, sharing::routes::results, sharing::routes::shared_report,
        fhir::export, system::storage, system::release_notes,
        data_settings::read, data_settings::save, backup::routes::read, backup::routes::make, report_pdf::routes::analysis_report, report_pdf::routes::screening_report,
        devices::routes::list, devices::routes::register, devices::routes::rename, devices::routes::rotate_token, devices::routes::revoke,
        devices::routes::heartbeat, devices::routes::push_recording, devices::routes::inbox, devices::routes::attach,
        devices::routes::read_log, devices::routes::write_log,
    ),
    components(schemas(
        ErrorBody, health::Health, auth::User, auth::Role, auth::SignupRequest, auth::LoginRequest,
        auth::ProfileUpdate, auth::PasswordChange, profile::ProfileActivity,
        auth::two_factor::TotpSetup, auth::two_factor::TotpCode, auth::two_factor::RecoveryCodes,
        auth::two_factor::TotpDisable, auth::two_factor::TwoFactorChallenge,
        auth::two_factor::LoginResponse, auth::two_factor::LoginCodeRequest,
        auth::email_links::TokenRequest, auth::email_links::ResetRequest,
        auth::email_links::PasswordReset,
        settings::Settings, settings::Theme, settings::Language, settings::SessionTimeout,
        patients::Patient, patients::LastResult, patients::PatientForm, patients::PatientPatch,
        patients::fields::Gender, patients::fields::Status,
        clinical::routes::ClinicalForm, clinical::store::ClinicalParameters, clinical::store::ClinicalRecord,
        screenings::store::Screening, screenings::store::PatientSummary, screenings::routes::NewScreening,
        audit::AuditEntry, crate::platform::audit::Action, dashboard::Dashboard,
        predict::ClinicalPredictRequest, predict::RecordingUpload,
        analyses::store::PredictionResult, analyses::store::Analysis, analyses::store::Modality, analyses::store::StoredFile,
        analyses::store::DeviceInterpretation, analyses::store::DeviceMeasurement,
        waveforms::WaveformView, waveforms::WaveformChannelView,
        ecg12_marks::Ecg12MarksView, ecg12_marks::GlobalBeatView, ecg12_marks::LeadMarksView,
        ecg12_marks::LeadBeatView, ecg12_marks::MedianView, ecg12_marks::MedianLeadView,
        reviews::store::Review, reviews::store::ConfirmedStatement, reviews::routes::ReviewForm, reviews::routes::StatementChoice, models::EcgStatementOption, report_pdf::PdfFile, export_zip::ZipFile, notifications::NotificationFeed, notifications::Notification, notifications::NotificationKind, sharing::store::Share, sharing::store::ShareStatus, sharing::routes::ShareState, sharing::routes::ShareForm, sharing::store::Invitation, sharing::store::SharedResult, reviews::store::Agreement,
        reports::ReportSummary, reports::ByModality, reports::MonthVolume,
        system::StorageUsage, reports::GeneratedReport,
        data_settings::DataSettings, data_settings::DataSettingsView,
        backup::BackupList, backup::BackupSummary, backup::Counts,
        crate::recordings::registry::ModelSummary, crate::recordings::registry::Metric,
        combine::CombinedResult, combine::ModalityResult, combine::ModalityStatus,
        crate::records::murmur::MurmurResult, crate::records::murmur::SiteMurmur,
        devices::DeviceType, devices::DeviceStatus, devices::NetworkDevice, devices::RegisteredDevice,
        devices::NewDevice, devices::DeviceRename, devices::DeviceRecording, devices::HeartbeatAck,
        devices::AttachRequest, devices::DevicePush, devices::log::LogEntry, devices::log::LogType,
        devices::log::NewLogEntry,
    )),
    tags(
        (name = "health"), (name = "auth", description = "Accounts and sessions"),
        (name = "patients", description = "A doctor's patients"),
        (name = "clinical", description = "Clinical parameters"),
        (name = "screenings", description = "Screening sessions"),
        (name = "audit", description = "Audit trail"),
        (name = "predict", description = "Model predictions"),
        (name = "analyses", description = "Stored predictions"),
        (name = "settings", description = "Each user's preferences"),
        (name = "reviews", description = "Doctors' sign-off of results"),
        (name = "reports", description = "Figures and exports of stored results"),
        (name = "devices", description = "Network devices, their pushed recordings and the connection log"),
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
