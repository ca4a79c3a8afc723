//! Screening sessions.

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::{patient_form, tick, TestApp};

crate::backend_tests!(
    a_screening_starts_as_a_draft_and_marks_a_visit,
    lists_a_patients_screenings_newest_first,
    an_unknown_screening_or_patient_is_not_found,
    the_dashboard_counts_own_patients_and_todays_screenings,
);

pub async fn a_screening_starts_as_a_draft_and_marks_a_visit(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient_id = app.create_patient(patient_form()).await;
    let before = app.get(&format!("/api/patients/{patient_id}")).await.json();
    tick().await;

    let response = app
        .post("/api/screenings", json!({"patient_id": patient_id}))
        .await;

    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let screening = response.json();
    assert_eq!(screening["status"], "draft");
    assert_eq!(screening["patient"]["id"], patient_id.as_str());
    let after = app.get(&format!("/api/patients/{patient_id}")).await.json();
    assert!(after["lastVisit"].as_str() > before["lastVisit"].as_str());
    assert_eq!(after["lastVisit"], screening["createdAt"]);
}

pub async fn lists_a_patients_screenings_newest_first(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient_id = app.create_patient(patient_form()).await;
    let first = app
        .post("/api/screenings", json!({"patient_id": patient_id}))
        .await
        .json();
    tick().await;
    let second = app
        .post("/api/screenings", json!({"patient_id": patient_id}))
        .await
        .json();

    let list = app
        .get(&format!("/api/patients/{patient_id}/screenings"))
        .await
        .json();

    let ids: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].clone())
        .collect();
    assert_eq!(ids, [second["id"].clone(), first["id"].clone()]);
}

pub async fn an_unknown_screening_or_patient_is_not_found(mut app: TestApp) {
    app.signed_in_doctor().await;

    let screening = app.get("/api/screenings/does-not-exist").await;
    let create = app
        .post("/api/screenings", json!({"patient_id": "does-not-exist"}))
        .await;

    assert_eq!(screening.status, StatusCode::NOT_FOUND);
    assert_eq!(screening.detail(), "Screening not found.");
    assert_eq!(create.status, StatusCode::NOT_FOUND);
    assert_eq!(create.detail(), "Patient not found.");
}

pub async fn the_dashboard_counts_own_patients_and_todays_screenings(mut app: TestApp) {
    app.signed_in_doctor().await;
    let empty = app.get("/api/dashboard").await.json();
    assert_eq!(
        empty,
        json!({"totalPatients": 0, "screeningsToday": 0, "testsToday": 0, "needsReviewToday": 0, "pendingReviews": 0, "devicesActive": 0})
    );
    let first = app.create_patient(patient_form()).await;
    app.create_patient(patient_form()).await;
    app.post("/api/screenings", json!({"patient_id": first}))
        .await;

    let figures = app.get("/api/dashboard").await.json();
    let future = app.get("/api/dashboard?since=99999999999999").await.json();

    assert_eq!(
        figures,
        json!({"totalPatients": 2, "screeningsToday": 1, "testsToday": 0, "needsReviewToday": 0, "pendingReviews": 0, "devicesActive": 0})
    );
    assert_eq!(future["screeningsToday"], 0);
    app.logout().await;
    app.signed_in_doctor().await;
    assert_eq!(
        app.get("/api/dashboard").await.json(),
        json!({"totalPatients": 0, "screeningsToday": 0, "testsToday": 0, "needsReviewToday": 0, "pendingReviews": 0, "devicesActive": 0})
    );
}
