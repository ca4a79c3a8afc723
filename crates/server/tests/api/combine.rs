//! A screening's combined result: every modality's status, the highest judged risk, the rule, how
//! many modalities it rests on, and the result recomputed from the screening's current analyses
//! whenever the screening is read (a modality added or replaced later is never left out).

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{clinical_form, merge, patient_form, tick, Part, TestApp};
use crate::predict::{csv_recording, with_echo};

crate::backend_tests!(
    the_combined_result_states_each_modality_and_takes_the_highest_judged_risk,
    only_the_doctors_own_screening_can_be_combined,
    a_result_from_one_modality_says_it_rests_on_one_of_four,
    a_pulse_recorded_after_completion_is_in_the_combined_result,
    a_replaced_recording_is_the_one_the_combined_result_uses,
    a_refused_upload_stores_nothing_in_the_screening_and_leaves_its_result_alone,
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
    // Clinical and ECG judged; the noisy PPG and the missing PCG are not counted.
    assert_eq!(combined["based_on"], 2);
    assert_eq!(combined["out_of"], 4);
    assert_eq!(
        combined["combined_at"],
        newest_created_at(&mut app, &id).await
    );
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

/// A doctor's new patient with a new draft screening: (patient id, screening id).
async fn start_screening(app: &mut TestApp) -> (String, String) {
    let patient_id = app.create_patient(patient_form()).await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient_id}))
        .await
        .json();
    (patient_id, screening["id"].as_str().unwrap().to_owned())
}

/// Uploads `bytes` as `name` to `/api/predict/{kind}/upload` for the screening.
async fn upload_to(
    app: &mut TestApp,
    kind: &str,
    name: &str,
    bytes: Vec<u8>,
    screening_id: &str,
) -> crate::helpers::TestResponse {
    app.upload(
        &format!("/api/predict/{kind}/upload"),
        &[
            Part::file(name, None, bytes),
            Part::text("screening_id", screening_id),
        ],
    )
    .await
}

/// A recording the echo model cannot judge (its channel is named `noisy`).
fn noisy_recording() -> Vec<u8> {
    String::from_utf8(csv_recording(3.0))
        .unwrap()
        .replacen("time,ECG", "time,noisy", 1)
        .into_bytes()
}

/// The creation time of the screening's newest analysis.
async fn newest_created_at(app: &mut TestApp, screening_id: &str) -> Value {
    let list = app
        .get(&format!("/api/analyses?screening_id={screening_id}"))
        .await
        .json();
    list[0]["createdAt"].clone()
}

/// Each modality's (status, analysis id) in the combined result, in the workflow's order.
fn statuses(combined: &Value) -> Vec<(String, String, Value)> {
    combined["modalities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["modality"].as_str().unwrap().to_owned(),
                m["status"].as_str().unwrap().to_owned(),
                m["analysis_id"].clone(),
            )
        })
        .collect()
}

pub async fn a_result_from_one_modality_says_it_rests_on_one_of_four(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let (_, id) = start_screening(&mut app).await;
    let ecg = upload_to(&mut app, "ecg", "ecg.csv", csv_recording(3.0), &id).await;
    assert_eq!(ecg.status, StatusCode::OK, "{}", ecg.text);
    // A PPG that could not be judged is not something the risk rests on.
    let ppg = upload_to(&mut app, "ppg", "ppg.csv", noisy_recording(), &id).await;
    assert_eq!(ppg.json()["label"], "noisy");

    let combined = app
        .post(&format!("/api/screenings/{id}/combine"), json!({}))
        .await
        .json();

    assert_eq!(combined["risk_level"], "low");
    assert_eq!(combined["based_on"], 1);
    assert_eq!(combined["out_of"], 4);
    assert_eq!(
        combined["recommendations"][0],
        "Only one modality (ECG) could be judged, and it shows a low risk: the screening rests on it alone, which does not rule out heart disease."
    );
    let stored = app.get(&format!("/api/screenings/{id}")).await.json();
    assert_eq!(stored["combined"]["based_on"], 1);
    assert_eq!(stored["combined"]["out_of"], 4);
}

pub async fn a_pulse_recorded_after_completion_is_in_the_combined_result(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let (patient_id, id) = start_screening(&mut app).await;
    upload_to(&mut app, "ecg", "ecg.csv", csv_recording(3.0), &id).await;
    let first = app
        .post(&format!("/api/screenings/{id}/combine"), json!({}))
        .await
        .json();
    assert_eq!(first["modalities"][2]["status"], "not_performed");
    assert_eq!(first["based_on"], 1);
    tick().await;

    let ppg = upload_to(&mut app, "ppg", "pulse.csv", csv_recording(3.0), &id).await;
    assert_eq!(ppg.status, StatusCode::OK, "{}", ppg.text);

    let stored = app.get(&format!("/api/screenings/{id}")).await.json();
    let combined = &stored["combined"];
    assert_eq!(stored["status"], "completed");
    assert_eq!(
        statuses(combined),
        [
            ("clinical".into(), "not_performed".into(), Value::Null),
            ("pcg".into(), "not_performed".into(), Value::Null),
            (
                "ppg".into(),
                "performed".into(),
                ppg.json()["analysis_id"].clone()
            ),
            (
                "ecg".into(),
                "performed".into(),
                first["modalities"][3]["analysis_id"].clone()
            ),
        ]
    );
    assert_eq!(combined["based_on"], 2);
    assert!(!combined["recommendations"]
        .as_array()
        .unwrap()
        .contains(&json!(
            "PPG was not performed in this screening; its risk is unknown, not low."
        )));
    assert!(combined["combined_at"].as_str() > first["combined_at"].as_str());
    // The patient's list of screenings says the same.
    let listed = app
        .get(&format!("/api/patients/{patient_id}/screenings"))
        .await
        .json();
    assert_eq!(listed[0]["combined"], *combined);
}

pub async fn a_replaced_recording_is_the_one_the_combined_result_uses(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let (_, id) = start_screening(&mut app).await;
    let clinical = app
        .post(
            "/api/predict/clinical",
            merge(clinical_form(), json!({"screening_id": id})),
        )
        .await;
    assert_eq!(clinical.status, StatusCode::OK, "{}", clinical.text);
    let noisy = upload_to(&mut app, "ecg", "ecg.csv", noisy_recording(), &id).await;
    let first = app
        .post(&format!("/api/screenings/{id}/combine"), json!({}))
        .await
        .json();
    assert_eq!(first["modalities"][3]["status"], "inconclusive");
    assert_eq!(
        first["modalities"][3]["analysis_id"],
        noisy.json()["analysis_id"]
    );
    assert_eq!(first["based_on"], 1);
    tick().await;

    let again = upload_to(&mut app, "ecg", "ecg-2.csv", csv_recording(3.0), &id).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);

    let combined = app.get(&format!("/api/screenings/{id}")).await.json()["combined"].clone();
    assert_eq!(combined["modalities"][3]["status"], "performed");
    assert_eq!(
        combined["modalities"][3]["analysis_id"],
        again.json()["analysis_id"]
    );
    assert_eq!(combined["based_on"], 2);
    assert!(!combined["recommendations"]
        .as_array()
        .unwrap()
        .contains(&json!(
            "The ECG recording could not be judged: record it again."
        )));
}

pub async fn a_refused_upload_stores_nothing_in_the_screening_and_leaves_its_result_alone(
    mut app: TestApp,
) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let (_, id) = start_screening(&mut app).await;
    let clinical = app
        .post(
            "/api/predict/clinical",
            merge(clinical_form(), json!({"screening_id": id})),
        )
        .await;
    assert_eq!(clinical.status, StatusCode::OK, "{}", clinical.text);
    let before = app
        .post(&format!("/api/screenings/{id}/combine"), json!({}))
        .await
        .json();

    // 415: a file of no format the server reads; 422: a recording too short for the model.
    let pdf = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("scan.dat", None, b"\x01\x02\x03garbage".to_vec()),
                Part::text("screening_id", &id),
            ],
        )
        .await;
    let short = upload_to(&mut app, "ecg", "ecg.csv", csv_recording(1.0), &id).await;

    assert_eq!(
        pdf.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "{}",
        pdf.text
    );
    assert_eq!(
        short.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        short.text
    );
    let modalities: Vec<Value> = app
        .get(&format!("/api/analyses?screening_id={id}"))
        .await
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["modality"].clone())
        .collect();
    assert_eq!(modalities, [json!("clinical")]);
    let after = app.get(&format!("/api/screenings/{id}")).await.json();
    assert_eq!(after["combined"], before);
}
