//! Patients: creation and each validation error, search semantics, ordering, updates.

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::{clinical_form, merge, patient_form, tick, Part, TestApp};
use crate::predict::realistic_pulse_values;

crate::backend_tests!(
    creates_a_patient_with_server_fields,
    stores_optional_fields_only_when_filled,
    names_the_missing_or_invalid_field,
    lists_own_patients_newest_first,
    the_list_shows_each_patients_last_result_and_every_analysis_is_a_visit,
    searches_names_phone_and_email_case_insensitively,
    filters_by_status,
    updates_some_fields_and_keeps_the_rest,
    rejects_an_invalid_update_and_keeps_the_record,
    a_signed_out_request_is_unauthorized,
);

pub async fn creates_a_patient_with_server_fields(mut app: TestApp) {
    app.signed_in_doctor().await;
    let doctor_id = app.me().await.json()["uid"].clone();

    let response = app.post("/api/patients", patient_form()).await;

    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let p = response.json();
    assert_eq!(p["firstName"], "María");
    assert_eq!(p["lastName"], "López");
    assert_eq!(p["dateOfBirth"], "1961-04-12");
    assert_eq!(p["gender"], "female");
    assert_eq!(p["phone"], "+34 600 123 456");
    assert_eq!(p["doctorId"], doctor_id);
    assert_eq!(p["status"], "active");
    assert_eq!(p["createdAt"], p["updatedAt"]);
    assert_eq!(p["lastVisit"], p["createdAt"]);
    assert!(p["id"].as_str().unwrap().len() >= 32);
}

pub async fn stores_optional_fields_only_when_filled(mut app: TestApp) {
    app.signed_in_doctor().await;
    let form = merge(
        patient_form(),
        json!({"email": " Maria@Example.ORG ", "city": "Sevilla", "address": "   ", "allergies": ""}),
    );

    let p = app.post("/api/patients", form).await.json();

    assert_eq!(p["email"], "maria@example.org");
    assert_eq!(p["city"], "Sevilla");
    for absent in [
        "address",
        "allergies",
        "state",
        "zipCode",
        "medicalHistory",
        "emergencyPhone",
    ] {
        assert!(p.get(absent).is_none(), "{absent} should be omitted: {p}");
    }
}

pub async fn names_the_missing_or_invalid_field(mut app: TestApp) {
    app.signed_in_doctor().await;
    let cases = [
        (json!({"firstName": ""}), "First name is required."),
        (json!({"lastName": "  "}), "Last name is required."),
        (json!({"dateOfBirth": ""}), "Date of birth is required."),
        (
            json!({"dateOfBirth": "1990-02-30"}),
            "Date of birth must be a real date (YYYY-MM-DD).",
        ),
        (
            json!({"dateOfBirth": "2999-01-01"}),
            "Date of birth cannot be in the future.",
        ),
        (json!({"gender": ""}), "Gender is required."),
        (
            json!({"gender": "robot"}),
            "Gender must be male, female or other.",
        ),
        (json!({"phone": ""}), "Phone is required."),
        (
            json!({"phone": "call me"}),
            "Phone must be a phone number (digits, spaces, + - . ( )).",
        ),
        (
            json!({"phone": "12"}),
            "Phone is too short: a phone number has at least 3 digits.",
        ),
        (json!({"email": "not-an-email"}), "Invalid email address."),
        (
            json!({"firstName": "x".repeat(101)}),
            "First name must be at most 100 characters.",
        ),
    ];
    for (change, message) in cases {
        let response = app
            .post("/api/patients", merge(patient_form(), change.clone()))
            .await;
        assert_eq!(
            response.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{change}"
        );
        assert_eq!(response.detail(), message, "{change}");
    }
    let missing = app
        .post("/api/patients", json!({"lastName": "López"}))
        .await;
    assert_eq!(missing.detail(), "First name is required.");
    assert_eq!(
        app.get("/api/patients")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        0
    );
}

pub async fn lists_own_patients_newest_first(mut app: TestApp) {
    app.signed_in_doctor().await;
    for name in ["First", "Second", "Third"] {
        app.create_patient(merge(patient_form(), json!({"firstName": name})))
            .await;
        tick().await;
    }

    let list = app.get("/api/patients").await.json();

    let names: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["firstName"].clone())
        .collect();
    assert_eq!(names, [json!("Third"), json!("Second"), json!("First")]);
}

pub async fn the_list_shows_each_patients_last_result_and_every_analysis_is_a_visit(
    mut app: TestApp,
) {
    app.signed_in_doctor().await;
    let seen = app.create_patient(patient_form()).await;
    let unseen = app
        .create_patient(merge(patient_form(), json!({"firstName": "Nadie"})))
        .await;
    let visit = |list: &serde_json::Value, id: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap()
            .clone()
    };
    let before = visit(&app.get("/api/patients").await.json(), &seen);
    assert!(before.get("lastResult").is_none(), "{before}");
    tick().await;

    let response = app
        .post(&format!("/api/patients/{seen}/clinical"), clinical_form())
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let after_clinical = visit(&app.get("/api/patients").await.json(), &seen);
    assert!(
        after_clinical["lastVisit"].as_str() > before["lastVisit"].as_str(),
        "a clinical entry is a visit: {after_clinical}"
    );
    tick().await;

    let response = app
        .upload(
            "/api/predict/ppg/upload",
            &[
                Part::file(
                    "finger.txt",
                    Some("text/plain"),
                    realistic_pulse_values(12.0, 100.0).into_bytes(),
                ),
                Part::text("patient_id", &seen),
                Part::text("sampling_rate", "100"),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let analysis = response.json();

    let list = app.get("/api/patients").await.json();
    let p = visit(&list, &seen);
    assert!(
        p["lastVisit"].as_str() > after_clinical["lastVisit"].as_str(),
        "an analysis is a visit: {p}"
    );
    let last = &p["lastResult"];
    assert_eq!(last["analysisId"], analysis["analysis_id"]);
    assert_eq!(last["modality"], "ppg");
    assert_eq!(last["label"], analysis["label"]);
    assert_eq!(last["prediction"], analysis["prediction"]);
    assert_eq!(last["riskScore"], analysis["risk_score"]);
    assert_eq!(last["createdAt"], p["lastVisit"]);
    assert!(visit(&list, &unseen).get("lastResult").is_none());
}

pub async fn searches_names_phone_and_email_case_insensitively(mut app: TestApp) {
    app.signed_in_doctor().await;
    app.create_patient(merge(patient_form(), json!({"firstName": "Ángela", "lastName": "Núñez", "phone": "611 222 333", "email": "angela@correo.es"}))).await;
    app.create_patient(merge(
        patient_form(),
        json!({"firstName": "John", "lastName": "Smith", "phone": "+1 415 555 0101"}),
    ))
    .await;
    app.create_patient(merge(
        patient_form(),
        json!({"firstName": "Joan", "lastName": "100%_Real", "phone": "700 000 000"}),
    ))
    .await;

    let search = |q: &'static str| format!("/api/patients?q={q}");
    let cases = [
        ("ángela", vec!["Ángela"]),
        ("ÁNGELA", vec!["Ángela"]),
        ("nÚñ", vec!["Ángela"]),
        ("smith", vec!["John"]),
        ("jo", vec!["Joan", "John"]),
        ("john%20smith", vec!["John"]),
        ("555", vec!["John"]),
        ("CORREO.ES", vec!["Ángela"]),
        ("%25_", vec!["Joan"]),
        ("_", vec!["Joan"]),
        ("nobody", vec![]),
        ("", vec!["Joan", "John", "Ángela"]),
    ];
    for (q, expected) in cases {
        let list = app.get(&search(q)).await.json();
        let names: Vec<_> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["firstName"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(names, expected, "q={q}");
    }
}

pub async fn filters_by_status(mut app: TestApp) {
    app.signed_in_doctor().await;
    let id = app
        .create_patient(merge(patient_form(), json!({"firstName": "Gone"})))
        .await;
    app.create_patient(merge(patient_form(), json!({"firstName": "Here"})))
        .await;
    app.patch(
        &format!("/api/patients/{id}"),
        json!({"status": "inactive"}),
    )
    .await;

    let active = app.get("/api/patients?status=active").await.json();
    let inactive = app.get("/api/patients?status=inactive").await.json();

    assert_eq!(active.as_array().unwrap().len(), 1);
    assert_eq!(active[0]["firstName"], "Here");
    assert_eq!(inactive[0]["firstName"], "Gone");
    let bad = app.get("/api/patients?status=deleted").await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.detail(), "Status must be active or inactive.");
}

pub async fn updates_some_fields_and_keeps_the_rest(mut app: TestApp) {
    app.signed_in_doctor().await;
    let id = app
        .create_patient(merge(
            patient_form(),
            json!({"city": "Sevilla", "allergies": "penicillin"}),
        ))
        .await;
    tick().await;

    let response = app
        .patch(
            &format!("/api/patients/{id}"),
            json!({"phone": "699 999 999", "allergies": "", "city": "Cádiz"}),
        )
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let p = response.json();
    assert_eq!(p["phone"], "699 999 999");
    assert_eq!(p["city"], "Cádiz");
    assert!(p.get("allergies").is_none(), "cleared: {p}");
    assert_eq!(p["firstName"], "María");
    assert!(p["updatedAt"].as_str() > p["createdAt"].as_str());
    let found = app.get("/api/patients?q=699").await.json();
    assert_eq!(
        found.as_array().unwrap().len(),
        1,
        "search text follows the update"
    );
}

pub async fn rejects_an_invalid_update_and_keeps_the_record(mut app: TestApp) {
    app.signed_in_doctor().await;
    let id = app.create_patient(patient_form()).await;

    let response = app
        .patch(
            &format!("/api/patients/{id}"),
            json!({"firstName": " ", "city": "Cádiz"}),
        )
        .await;

    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "First name is required.");
    let p = app.get(&format!("/api/patients/{id}")).await.json();
    assert_eq!(p["firstName"], "María");
    assert!(p.get("city").is_none());
}

pub async fn a_signed_out_request_is_unauthorized(mut app: TestApp) {
    for path in ["/api/patients", "/api/audit"] {
        let response = app.get(path).await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(response.detail(), "Not authenticated.");
    }
    let create = app.post("/api/patients", patient_form()).await;
    assert_eq!(create.status, StatusCode::UNAUTHORIZED);
}
