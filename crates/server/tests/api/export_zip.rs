//! Export All: the period's CSV, PDF reports and FHIR bundles in one ZIP, only the doctor's own,
//! audited per patient. (That it is streamed with flat memory is `tests/export_memory.rs`.)

use std::io::{Cursor, Read};

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::{
    helpers::{patient_form, Part, TestApp},
    predict::{csv_recording, with_echo},
};

crate::backend_tests!(
    the_archive_holds_the_csv_every_report_and_each_patients_bundle,
    the_archive_holds_only_the_doctors_own_records_of_the_period,
);

/// The archive's entries by name.
fn entries(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).expect("a valid ZIP");
    (0..archive.len())
        .map(|i| {
            let mut file = archive.by_index(i).unwrap();
            let mut content = Vec::new();
            file.read_to_end(&mut content).unwrap();
            (file.name().to_owned(), content)
        })
        .collect()
}

/// A patient with a screening, an ECG in it and a clinical result; returns (patient, screening,
/// analysis ids).
async fn seed(app: &mut TestApp) -> (String, String, Vec<String>) {
    let patient = app.create_patient(patient_form()).await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient}))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let ecg = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("ecg.csv", Some("text/csv"), csv_recording(4.0)),
                Part::text("patient_id", &patient),
                Part::text("screening_id", &screening),
            ],
        )
        .await;
    assert_eq!(ecg.status, StatusCode::OK, "{}", ecg.text);
    let mut form = crate::helpers::clinical_form();
    form["patient_id"] = json!(patient);
    let clinical = app.post("/api/predict/clinical", form).await;
    assert_eq!(clinical.status, StatusCode::OK, "{}", clinical.text);
    let ids = [ecg, clinical]
        .iter()
        .map(|r| r.json()["analysis_id"].as_str().unwrap().to_owned())
        .collect();
    (patient, screening, ids)
}

pub async fn the_archive_holds_the_csv_every_report_and_each_patients_bundle(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let (patient, screening, analyses) = seed(&mut app).await;

    let response = app.get("/api/reports/export.zip").await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    assert_eq!(response.headers["content-type"], "application/zip");
    assert!(response.headers["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"cardio-export-"));
    let entries = entries(&response.bytes);
    let mut names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    let mut expected = vec![
        "analyses.csv".to_owned(),
        format!("fhir/{patient}.json"),
        "manifest.json".to_owned(),
        format!("reports/analyses/{}.pdf", analyses[0]),
        format!("reports/analyses/{}.pdf", analyses[1]),
        format!("reports/screenings/{screening}.pdf"),
    ];
    expected.sort_unstable();
    assert_eq!(names, expected);
    let content = |name: &str| &entries.iter().find(|(n, _)| n == name).unwrap().1;

    let csv = String::from_utf8(content("analyses.csv").clone()).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.starts_with("file,label,prediction,confidence,risk_score,patient_id,time,review_state,modality,analysis_id"));
    for id in &analyses {
        assert!(csv.contains(id.as_str()));
    }
    for (name, bytes) in &entries {
        if std::path::Path::new(name).extension() == Some("pdf".as_ref()) {
            assert!(bytes.starts_with(b"%PDF-"), "{name} is not a PDF");
            let text = pdf_extract::extract_text_from_mem(bytes).unwrap();
            assert!(text.contains("López"), "{name} lacks the patient: {text}");
        }
    }
    let bundle: Value = serde_json::from_slice(content(&format!("fhir/{patient}.json"))).unwrap();
    assert_eq!(bundle["resourceType"], "Bundle");
    assert_eq!(bundle["entry"][0]["resource"]["resourceType"], "Patient");
    let manifest: Value = serde_json::from_slice(content("manifest.json")).unwrap();
    assert_eq!(manifest["analyses"], 2);
    assert_eq!(manifest["screenings"], 1);
    assert_eq!(manifest["patients"], 1);
    assert_eq!(manifest["failed"], json!([]));

    let actions = app.audit_actions().await;
    assert_eq!(
        actions.iter().filter(|a| *a == "export export_zip").count(),
        2,
        "one for the archive, one for its patient: {actions:?}"
    );
}

pub async fn the_archive_holds_only_the_doctors_own_records_of_the_period(mut app: TestApp) {
    with_echo(&mut app);
    assert_eq!(
        app.get("/api/reports/export.zip").await.status,
        StatusCode::UNAUTHORIZED
    );
    app.signed_in_doctor().await;
    let (other_patient, _, other_analyses) = seed(&mut app).await;
    app.logout().await;
    app.signed_in_doctor().await;
    let (patient, _, _) = seed(&mut app).await;

    let all = app.get("/api/reports/export.zip").await;
    let names: Vec<String> = entries(&all.bytes).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names.len(), 6, "{names:?}");
    assert!(names.contains(&format!("fhir/{patient}.json")));
    assert!(!names.iter().any(
        |n| n.contains(&other_patient) || other_analyses.iter().any(|a| n.contains(a.as_str()))
    ));

    // A period before anything was stored: the empty CSV and the manifest only.
    let empty = app.get("/api/reports/export.zip?from=0&to=1000").await;
    assert_eq!(empty.status, StatusCode::OK);
    let entries = entries(&empty.bytes);
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["analyses.csv", "manifest.json"]);
    assert_eq!(String::from_utf8_lossy(&entries[0].1).lines().count(), 1);

    let response = app.get("/api/reports/export.zip?from=2000&to=1000").await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "The period's start is after its end.");
    app.logout().await;
    let email = format!("user-{}@example.com", uuid::Uuid::new_v4().simple());
    app.signup("Pat Doe", &email, "secret-pass", "user").await;
    assert_eq!(
        app.get("/api/reports/export.zip").await.status,
        StatusCode::FORBIDDEN
    );
}
