//! The audit trail: one row per create, read and update of patient data, own rows only.

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::{clinical_form, patient_form, TestApp};

crate::backend_tests!(
    a_query_string_that_does_not_parse_is_a_json_400,
    every_action_on_patient_data_is_audited,
    the_trail_is_limited_and_newest_first
);

pub async fn every_action_on_patient_data_is_audited(mut app: TestApp) {
    app.signed_in_doctor().await;

    let patient = app.create_patient(patient_form()).await;
    app.get(&format!("/api/patients/{patient}")).await;
    app.patch(
        &format!("/api/patients/{patient}"),
        json!({"city": "Huelva"}),
    )
    .await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient}))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        &format!("/api/patients/{patient}/clinical"),
        clinical_form(),
    )
    .await;
    app.get(&format!("/api/patients/{patient}/clinical")).await;
    app.get(&format!("/api/screenings/{screening}")).await;
    // Refused actions leave no trace.
    app.patch(
        &format!("/api/patients/{patient}"),
        json!({"firstName": ""}),
    )
    .await;

    assert_eq!(
        app.audit_actions().await,
        [
            "create patient",
            "read patient",
            "update patient",
            "create screening",
            "create clinical",
            "read clinical",
            "read screening",
        ]
    );
    let newest = &app.get("/api/audit?limit=1").await.json()[0];
    assert_eq!(newest["entity"], "screening");
    assert_eq!(newest["entityId"], screening.as_str());
    assert_eq!(newest["patientId"], patient.as_str());
    assert_eq!(newest["patientName"], "María López");
    assert_eq!(newest["clientAddr"], "203.0.113.7");
}

pub async fn the_trail_is_limited_and_newest_first(mut app: TestApp) {
    app.signed_in_doctor().await;
    for _ in 0..3 {
        app.create_patient(patient_form()).await;
    }

    let two = app.get("/api/audit?limit=2").await;

    assert_eq!(two.status, StatusCode::OK);
    let rows = two.json();
    assert_eq!(rows.as_array().unwrap().len(), 2);
    assert!(rows[0]["id"].as_i64() > rows[1]["id"].as_i64());
}

pub async fn a_query_string_that_does_not_parse_is_a_json_400(mut app: TestApp) {
    app.signed_in_doctor().await;
    let response = app.get("/api/audit?limit=9223372036854775808").await;
    assert_eq!(response.status, StatusCode::BAD_REQUEST);
    assert!(
        response.detail().starts_with("Invalid query string: "),
        "{}",
        response.text
    );
}
