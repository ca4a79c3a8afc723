//! Per-doctor isolation: another doctor gets 404 for everything of a patient and never sees it in a
//! list or search; a `user`-role account gets 403 from every doctor endpoint.

use axum::http::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{clinical_form, patient_form, TestApp};

crate::backend_tests!(
    another_doctor_cannot_reach_a_patient_or_its_data,
    a_user_account_cannot_reach_doctor_endpoints,
);

pub async fn another_doctor_cannot_reach_a_patient_or_its_data(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
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
    app.logout().await;

    app.signed_in_doctor().await;
    let attempts = [
        (
            Method::GET,
            format!("/api/patients/{patient}"),
            None,
            "Patient not found.",
        ),
        (
            Method::PATCH,
            format!("/api/patients/{patient}"),
            Some(json!({"firstName": "Hacked"})),
            "Patient not found.",
        ),
        (
            Method::GET,
            format!("/api/patients/{patient}/clinical"),
            None,
            "Patient not found.",
        ),
        (
            Method::POST,
            format!("/api/patients/{patient}/clinical"),
            Some(clinical_form()),
            "Patient not found.",
        ),
        (
            Method::GET,
            format!("/api/patients/{patient}/screenings"),
            None,
            "Patient not found.",
        ),
        (
            Method::POST,
            "/api/screenings".to_owned(),
            Some(json!({"patient_id": patient})),
            "Patient not found.",
        ),
        (
            Method::GET,
            format!("/api/screenings/{screening}"),
            None,
            "Screening not found.",
        ),
    ];
    for (method, path, body, message) in attempts {
        let response = app.request(method.clone(), &path, body).await;
        assert_eq!(response.status, StatusCode::NOT_FOUND, "{method} {path}");
        assert_eq!(response.detail(), message, "{method} {path}");
    }
    for path in [
        "/api/patients",
        "/api/patients?q=mar",
        "/api/patients?q=600",
        "/api/patients?status=active",
    ] {
        let list = app.get(path).await.json();
        assert_eq!(list, json!([]), "{path}");
    }
    let trail = app.get("/api/audit").await.json();
    assert_eq!(trail, json!([]), "the other doctor's trail is not visible");
}

pub async fn a_user_account_cannot_reach_doctor_endpoints(mut app: TestApp) {
    let response = app
        .signup("Pat", "pat@home.test", "secret-pass", "user")
        .await;
    assert_eq!(response.status, StatusCode::CREATED);

    let attempts = [
        (Method::GET, "/api/patients", None),
        (Method::POST, "/api/patients", Some(patient_form())),
        (Method::GET, "/api/patients/x", None),
        (Method::PATCH, "/api/patients/x", Some(json!({}))),
        (Method::GET, "/api/patients/x/clinical", None),
        (
            Method::POST,
            "/api/patients/x/clinical",
            Some(clinical_form()),
        ),
        (Method::GET, "/api/patients/x/screenings", None),
        (
            Method::POST,
            "/api/screenings",
            Some(json!({"patient_id": "x"})),
        ),
        (Method::GET, "/api/screenings/x", None),
    ];
    for (method, path, body) in attempts {
        let response = app.request(method.clone(), path, body).await;
        assert_eq!(response.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(
            response.detail(),
            "Only healthcare professionals can access patient records."
        );
    }
}
