//! Clinical parameters: validation, history, attachment to a screening.

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::{clinical_form, merge, patient_form, tick, TestApp};

crate::backend_tests!(
    stores_clinical_parameters_with_a_history,
    names_the_clinical_field_that_is_out_of_range,
    optional_clinical_values_are_stored_and_the_form_sex_wins,
    attaches_parameters_to_a_screening_of_the_same_patient,
);

pub async fn stores_clinical_parameters_with_a_history(mut app: TestApp) {
    app.signed_in_doctor().await;
    let id = app.create_patient(patient_form()).await;

    let first = app
        .post(&format!("/api/patients/{id}/clinical"), clinical_form())
        .await;
    tick().await;
    let second = app
        .post(
            &format!("/api/patients/{id}/clinical"),
            merge(clinical_form(), json!({"cholesterol": 241.5, "age": 63})),
        )
        .await;

    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(second.status, StatusCode::CREATED);
    let history = app
        .get(&format!("/api/patients/{id}/clinical"))
        .await
        .json();
    let history = history.as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(
        history[0]["parameters"]["cholesterol"], 241.5,
        "newest first"
    );
    assert_eq!(history[0]["parameters"]["age"], 63);
    assert_eq!(
        history[1]["parameters"],
        json!({
            "age": 50, "chest_pain_type": 0, "cholesterol": 200.0, "fasting_blood_sugar": 100.0,
            "exercise_induced_angina": 0, "vessels_colored_by_flourosopy": 0, "thalassemia": 0,
            // The patient record's sex; the optional values not entered.
            "sex": "female", "resting_blood_pressure": null, "resting_ecg": null,
            "max_heart_rate": null, "st_depression": null, "st_slope": null,
        })
    );
    assert_eq!(history[1]["patientId"], id);
    assert!(history[1]["screeningId"].is_null());
}

pub async fn optional_clinical_values_are_stored_and_the_form_sex_wins(mut app: TestApp) {
    app.signed_in_doctor().await;
    let id = app.create_patient(patient_form()).await;
    let form = merge(
        clinical_form(),
        json!({
            "sex": "male", "resting_blood_pressure": 132.5, "resting_ecg": 2,
            "max_heart_rate": 150, "st_depression": -0.5, "st_slope": 2,
        }),
    );

    let response = app
        .post(&format!("/api/patients/{id}/clinical"), form)
        .await;

    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let stored = &response.json()["parameters"];
    assert_eq!(stored["sex"], "male", "the form's value over the record's");
    assert_eq!(stored["resting_blood_pressure"], 132.5);
    assert_eq!(stored["resting_ecg"], 2);
    assert_eq!(stored["max_heart_rate"], 150.0);
    assert_eq!(stored["st_depression"], -0.5);
    assert_eq!(stored["st_slope"], 2);
    let history = app
        .get(&format!("/api/patients/{id}/clinical"))
        .await
        .json();
    assert_eq!(&history[0]["parameters"], stored);
    let bad_sex = app
        .post(
            &format!("/api/patients/{id}/clinical"),
            merge(clinical_form(), json!({"sex": "x"})),
        )
        .await;
    assert_eq!(bad_sex.status, StatusCode::UNPROCESSABLE_ENTITY);
}

pub async fn names_the_clinical_field_that_is_out_of_range(mut app: TestApp) {
    app.signed_in_doctor().await;
    let id = app.create_patient(patient_form()).await;
    let cases = [
        (
            json!({"age": 121}),
            "Age must be a whole number from 0 to 120.",
        ),
        (
            json!({"age": -1}),
            "Age must be a whole number from 0 to 120.",
        ),
        (json!({"age": null}), "Age is required."),
        (
            json!({"chest_pain_type": 4}),
            "Chest pain type must be 0, 1, 2 or 3.",
        ),
        (
            json!({"cholesterol": -5}),
            "Cholesterol must be 0 mg/dl or more.",
        ),
        (
            json!({"fasting_blood_sugar": -0.1}),
            "Fasting blood sugar must be 0 mg/dl or more.",
        ),
        (
            json!({"exercise_induced_angina": 2}),
            "Exercise-induced angina must be 0 (no) or 1 (yes).",
        ),
        (
            json!({"vessels_colored_by_flourosopy": 4}),
            "Vessels colored by fluoroscopy must be 0, 1, 2 or 3.",
        ),
        (json!({"thalassemia": 3}), "Thalassemia must be 0, 1 or 2."),
        (
            json!({"resting_blood_pressure": 300}),
            "Resting blood pressure must be from 60 to 260 mm Hg.",
        ),
        (
            json!({"resting_ecg": 3}),
            "Resting ECG must be 0 (normal), 1 (ST-T wave abnormality) or 2 (left ventricular hypertrophy).",
        ),
        (
            json!({"max_heart_rate": 30}),
            "Maximum heart rate must be from 50 to 250 bpm.",
        ),
        (
            json!({"st_depression": 12}),
            "ST depression must be from -5 to 10 mm.",
        ),
        (
            json!({"st_slope": 1.5}),
            "ST slope must be 0 (upsloping), 1 (flat) or 2 (downsloping).",
        ),
    ];
    for (change, message) in cases {
        let response = app
            .post(
                &format!("/api/patients/{id}/clinical"),
                merge(clinical_form(), change.clone()),
            )
            .await;
        assert_eq!(
            response.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{change}"
        );
        assert_eq!(response.detail(), message, "{change}");
    }
    let history = app
        .get(&format!("/api/patients/{id}/clinical"))
        .await
        .json();
    assert_eq!(history.as_array().unwrap().len(), 0, "nothing stored");
}

pub async fn attaches_parameters_to_a_screening_of_the_same_patient(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let other = app
        .create_patient(merge(patient_form(), json!({"firstName": "Other"})))
        .await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient}))
        .await
        .json();
    let screening_id = screening["id"].as_str().unwrap().to_owned();
    assert!(screening["clinical"].is_null());

    let wrong_patient = app
        .post(
            &format!("/api/patients/{other}/clinical"),
            merge(clinical_form(), json!({"screening_id": screening_id})),
        )
        .await;
    assert_eq!(wrong_patient.status, StatusCode::NOT_FOUND);
    assert_eq!(wrong_patient.detail(), "Screening not found.");

    let response = app
        .post(
            &format!("/api/patients/{patient}/clinical"),
            merge(
                clinical_form(),
                json!({"screening_id": screening_id, "thalassemia": 2}),
            ),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    assert_eq!(response.json()["screeningId"], screening_id.as_str());

    let reloaded = app
        .get(&format!("/api/screenings/{screening_id}"))
        .await
        .json();
    assert_eq!(reloaded["clinical"]["parameters"]["thalassemia"], 2);
    assert_eq!(reloaded["patient"]["firstName"], "María");
    assert_eq!(reloaded["patient"]["dateOfBirth"], "1961-04-12");
    assert_eq!(reloaded["patient"]["gender"], "female");
}
