//! A screening's combined result: every modality's status, the highest judged risk, the rule, and
//! the result kept with the screening.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{patient_form, Part, TestApp};
use crate::predict::{csv_recording, with_echo};

crate::backend_tests!(
    the_combined_result_states_each_modality_and_takes_the_highest_judged_risk,
    only_the_doctors_own_screening_can_be_combined,
);

pub async fn the_combined_result_states_each_modality_and_takes_the_highest_judged_risk(
    mut app: TestApp,
) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let patient_id = app.create_patient(patient_form()).await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient_id}))
        .await
        .json();
    let id = screening["id"].as_str().unwrap().to_owned();
    let path = format!("/api/screenings/{id}/combine");

    let empty = app.post(&path, json!({})).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        empty.detail(),
        "Nothing to combine: run at least one model for this screening first."
    );

    let clinical = app
        .post(
            "/api/predict/clinical",
            json!({
                "age": 63, "chest_pain_type": 3, "cholesterol": 286, "fasting_blood_sugar": 100,
                "exercise_induced_angina": 1, "vessels_colored_by_flourosopy": 2, "thalassemia": 2,
                "screening_id": id,
            }),
        )
        .await
        .json();
    let ecg = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("ecg.csv", None, csv_recording(3.0)),
                Part::text("screening_id", &id),
            ],
        )
        .await
        .json();
    let noisy =
        String::from_utf8(csv_recording(3.0))
            .unwrap()
            .replacen("time,ECG", "time,noisy", 1);
    let ppg = app
        .upload(
            "/api/predict/ppg/upload",
            &[
                Part::file("ppg.csv", None, noisy.into_bytes()),
                Part::text("screening_id", &id),
            ],
        )
        .await
        .json();
    assert_eq!(ppg["label"], "noisy");
    let of_screening = app
        .get(&format!("/api/analyses?screening_id={id}"))
        .await
        .json();
    assert_eq!(of_screening.as_array().unwrap().len(), 3);

    let response = app.post(&path, json!({})).await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let combined = response.json();
    assert_eq!(combined["risk_score"], clinical["risk_score"]);
    assert_eq!(combined["risk_level"], "high");
    assert_eq!(combined["driver"], "clinical");
    let statuses: Vec<(&str, &str)> = combined["modalities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["modality"].as_str().unwrap(),
                m["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("clinical", "performed"),
            ("pcg", "not_performed"),
            ("ppg", "inconclusive"),
            ("ecg", "performed"),
        ]
    );
    assert_eq!(combined["modalities"][3]["analysis_id"], ecg["analysis_id"]);
    assert_eq!(combined["modalities"][1]["risk_score"], Value::Null);
    let recommendations: Vec<&str> = combined["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(
        recommendations,
        [
            "At least one modality (Clinical) shows a high risk: review its result and arrange the follow-up it recommends promptly.",
            "PCG was not performed in this screening; its risk is unknown, not low.",
            "The PPG recording could not be judged: record it again.",
            "This is a screening estimate from a statistical model, not a diagnosis; it does not replace clinical judgement.",
        ]
    );
    assert!(combined["rule"].as_str().unwrap().starts_with(
        "Overall risk = the highest risk score among the modalities that could be judged"
    ));

    let stored = app.get(&format!("/api/screenings/{id}")).await.json();
    assert_eq!(stored["status"], "completed");
    assert_eq!(stored["combined"], combined);
    assert!(app
        .audit_actions()
        .await
        .contains(&"update screening".to_owned()));
}

pub async fn only_the_doctors_own_screening_can_be_combined(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let patient_id = app.create_patient(patient_form()).await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient_id}))
        .await
        .json();
    let id = screening["id"].as_str().unwrap().to_owned();
    app.upload(
        "/api/predict/ecg/upload",
        &[
            Part::file("ecg.csv", None, csv_recording(3.0)),
            Part::text("screening_id", &id),
        ],
    )
    .await;
    app.logout().await;
    app.signed_in_doctor().await;

    let response = app
        .post(&format!("/api/screenings/{id}/combine"), json!({}))
        .await;

    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Screening not found.");
    let response = app.get(&format!("/api/analyses?screening_id={id}")).await;
    assert_eq!(response.json(), json!([]));
}
