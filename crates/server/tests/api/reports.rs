//! The Reports page's figures and the CSV export: the same numbers as the seeded data, the
//! period filter, the six-month volumes, and nothing of another doctor's.

use axum::http::StatusCode;
use serde_json::json;

use crate::{
    helpers::{clinical_form, patient_form, Part, TestApp},
    predict::{csv_recording, with_echo},
};

crate::backend_tests!(
    the_summary_counts_the_seeded_analyses_and_their_reviews,
    the_csv_export_has_one_row_per_analysis_and_is_audited,
    reports_are_per_doctor_and_periods_are_checked,
    the_report_history_lists_every_generated_pdf,
    a_file_name_that_reads_as_a_formula_is_exported_as_text,
);

/// Issue 37 §3: a file named like a spreadsheet formula landed in the CSV as one.
pub async fn a_file_name_that_reads_as_a_formula_is_exported_as_text(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let name = "=cmd|' -C calc'!A0.csv";
    let upload = app
        .upload(
            "/api/predict/ecg/upload",
            &[Part::file(name, Some("text/csv"), csv_recording(4.0))],
        )
        .await;
    assert_eq!(upload.status, StatusCode::OK, "{}", upload.text);

    let response = app.get("/api/analyses/export.csv").await;
    let mut reader = csv::Reader::from_reader(response.text.as_bytes());
    let row = reader.records().next().unwrap().unwrap();
    assert_eq!(&row[0], "'=cmd|' -C calc'!A0.csv");
}

/// A CSV recording whose channel is `channel` (the echo model calls a `noisy` channel noisy).
fn recording(channel: &str) -> Vec<u8> {
    String::from_utf8(csv_recording(4.0))
        .unwrap()
        .replacen("time,ECG", &format!("time,{channel}"), 1)
        .into_bytes()
}

/// Seeds, for a new patient: 2 ECG (one noisy), 1 PPG, 1 clinical; the first ECG reviewed.
async fn seed(app: &mut TestApp) -> String {
    let patient = app.create_patient(patient_form()).await;
    let mut ids = Vec::new();
    for (kind, channel) in [("ecg", "II"), ("ecg", "noisy"), ("ppg", "PLETH")] {
        let response = app
            .upload(
                &format!("/api/predict/{kind}/upload"),
                &[
                    Part::file(
                        &format!("{kind}-{channel}.csv"),
                        Some("text/csv"),
                        recording(channel),
                    ),
                    Part::text("patient_id", &patient),
                ],
            )
            .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text);
        ids.push(response.json()["analysis_id"].as_str().unwrap().to_owned());
    }
    let mut form = clinical_form();
    form["patient_id"] = json!(patient);
    let response = app.post("/api/predict/clinical", form).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let response = app
        .post(
            &format!("/api/analyses/{}/reviews", ids[0]),
            json!({"agreement": "agree"}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED);
    patient
}

pub async fn the_summary_counts_the_seeded_analyses_and_their_reviews(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    seed(&mut app).await;
    let response = app.get("/api/reports/summary").await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let s = response.json();
    assert_eq!(s["total_analyses"], 4);
    assert_eq!(
        s["by_modality"],
        json!({"clinical": 1, "ecg": 2, "pcg": 0, "ppg": 1})
    );
    assert_eq!(s["inconclusive"], 1);
    assert_eq!(s["reviewed"], 1);
    assert_eq!(s["pending_review"], 3);
    assert_eq!(s["patients"], 1);
    // The clinical model's defaults give no disease: abnormal only counts abnormal findings.
    assert_eq!(s["abnormal"], 0);
    let monthly = s["monthly"].as_array().unwrap();
    assert_eq!(monthly.len(), 6);
    assert_eq!(monthly[5]["analyses"], s["by_modality"]);
    assert!(monthly[..5]
        .iter()
        .all(|m| m["analyses"] == json!({"clinical": 0, "ecg": 0, "pcg": 0, "ppg": 0})));
    assert!(monthly[0]["month"].as_str() < monthly[5]["month"].as_str());

    // A period that ends before anything was stored counts nothing.
    let response = app.get("/api/reports/summary?from=0&to=1000").await;
    let empty = response.json();
    assert_eq!(empty["total_analyses"], 0);
    assert_eq!(empty["monthly"][5]["month"], "1970-01");
}

pub async fn the_csv_export_has_one_row_per_analysis_and_is_audited(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let patient = seed(&mut app).await;
    let response = app.get("/api/analyses/export.csv").await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let mut reader = csv::Reader::from_reader(response.text.as_bytes());
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "file",
            "label",
            "prediction",
            "confidence",
            "risk_score",
            "patient_id",
            "time",
            "review_state",
            "modality",
            "analysis_id",
            "ecg_interpretation",
            "site"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| &r[5] == patient.as_str()));
    let ecg: Vec<&csv::StringRecord> = rows.iter().filter(|r| &r[8] == "ecg").collect();
    assert_eq!(ecg.len(), 2);
    let noisy = ecg.iter().find(|r| &r[0] == "ecg-noisy.csv").unwrap();
    assert_eq!(
        (&noisy[1], &noisy[2], &noisy[3], &noisy[4]),
        ("noisy", "Echo", "0.7500", "0.2500")
    );
    assert_eq!(&noisy[7], "pending");
    let reviewed = ecg.iter().find(|r| &r[0] == "ecg-II.csv").unwrap();
    assert_eq!(&reviewed[7], "reviewed");
    // Signed off without confirming an interpretation: the column stays empty.
    assert!(rows.iter().all(|r| r[10].is_empty()));
    let clinical = rows.iter().find(|r| &r[8] == "clinical").unwrap();
    assert_eq!((&clinical[0], &clinical[1]), ("", "no_disease"));
    assert!(app
        .audit_actions()
        .await
        .contains(&"export analyses_csv".to_owned()));
}

pub async fn reports_are_per_doctor_and_periods_are_checked(mut app: TestApp) {
    with_echo(&mut app);
    assert_eq!(
        app.get("/api/reports/summary").await.status,
        StatusCode::UNAUTHORIZED
    );
    app.signed_in_doctor().await;
    seed(&mut app).await;
    app.logout().await;
    app.signed_in_doctor().await;
    let s = app.get("/api/reports/summary").await.json();
    assert_eq!(s["total_analyses"], 0);
    assert_eq!(s["patients"], 0);
    let csv = app.get("/api/analyses/export.csv").await;
    assert_eq!(csv.text.lines().count(), 1, "{}", csv.text);
    let response = app.get("/api/reports/summary?from=2000&to=1000").await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "The period's start is after its end.");
    let response = app.get("/api/analyses/export.csv?from=soon").await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "from and to must be milliseconds since 1970."
    );
    // Every endpoint with rules for its query answers a bad one with its own sentence.
    for (path, detail) in [
        (
            "/api/reports/summary?to=later",
            "from and to must be milliseconds since 1970.",
        ),
        (
            "/api/reports/export.zip?from=x",
            "from and to must be milliseconds since 1970.",
        ),
        (
            "/api/analyses?limit=many",
            "type must be one of clinical, ecg, pcg, ppg; limit a number.",
        ),
        (
            "/api/analyses?type=echo",
            "type must be one of clinical, ecg, pcg, ppg; limit a number.",
        ),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
        assert_eq!(response.detail(), detail, "{path}");
    }
    app.logout().await;
    let email = format!("user-{}@example.com", uuid::Uuid::new_v4().simple());
    app.signup("Pat Doe", &email, "secret-pass", "user").await;
    assert_eq!(
        app.get("/api/reports/summary").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.get("/api/analyses/export.csv").await.status,
        StatusCode::FORBIDDEN
    );
}

pub async fn the_report_history_lists_every_generated_pdf(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    assert_eq!(app.get("/api/reports/history").await.json(), json!([]));
    let patient = app.create_patient(patient_form()).await;
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("ecg.csv", Some("text/csv"), recording("II")),
                Part::text("patient_id", &patient),
            ],
        )
        .await;
    let id = response.json()["analysis_id"].as_str().unwrap().to_owned();
    for _ in 0..2 {
        let pdf = app.get(&format!("/api/analyses/{id}/report.pdf")).await;
        assert_eq!(pdf.status, StatusCode::OK);
        crate::helpers::tick().await;
    }
    let history = app.get("/api/reports/history").await.json();
    let entries = history.as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert!(entries[0]["generated_at"].as_str() > entries[1]["generated_at"].as_str());
    assert_eq!(entries[0]["kind"], "analysis");
    assert_eq!(entries[0]["id"], id.as_str());
    assert_eq!(entries[0]["patient_name"], "María López");
    assert_eq!(
        entries[0]["url"],
        format!("/api/analyses/{id}/report.pdf").as_str()
    );
    app.logout().await;
    app.signed_in_doctor().await;
    assert_eq!(app.get("/api/reports/history").await.json(), json!([]));
}
