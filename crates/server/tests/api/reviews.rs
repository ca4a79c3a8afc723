//! Doctors' sign-off of analyses and screenings: pending until reviewed, a new review supersedes
//! the previous one (kept in the history), only the owning doctor reviews, every review audited,
//! and home's "pending reviews" counts what is left.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::{
    helpers::{patient_form, Part, TestApp},
    predict::{csv_recording, with_echo},
};

crate::backend_tests!(
    a_new_review_supersedes_the_previous_one_which_stays_in_the_history,
    reviews_need_a_reason_to_disagree_and_a_bounded_comment,
    only_the_owning_doctor_reviews,
    a_screening_is_signed_off_like_an_analysis,
);

/// Uploads a recording for a new patient and returns the analysis id.
async fn analysis_for_new_patient(app: &mut TestApp) -> String {
    let patient = app.create_patient(patient_form()).await;
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("ecg.csv", Some("text/csv"), csv_recording(10.0)),
                Part::text("patient_id", &patient),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json()["analysis_id"].as_str().unwrap().to_owned()
}

async fn pending(app: &mut TestApp) -> Value {
    app.get("/api/dashboard").await.json()["pendingReviews"].clone()
}

pub async fn a_new_review_supersedes_the_previous_one_which_stays_in_the_history(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = analysis_for_new_patient(&mut app).await;
    assert_eq!(
        app.get(&format!("/api/analyses/{id}")).await.json()["review"],
        Value::Null
    );
    assert_eq!(pending(&mut app).await, json!(1));

    let response = app
        .post(
            &format!("/api/analyses/{id}/reviews"),
            json!({"agreement": "agree"}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let first = response.json();
    assert_eq!(first["agreement"], "agree");
    assert_eq!(first["comment"], "");
    assert_eq!(first["reviewerName"], "Ana Ruiz");
    assert_eq!(pending(&mut app).await, json!(0));

    let response = app
        .post(
            &format!("/api/analyses/{id}/reviews"),
            json!({"agreement": "disagree", "comment": "  Sinus arrhythmia, not AF.  "}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let second = response.json();
    assert_eq!(second["comment"], "Sinus arrhythmia, not AF.");

    // The analysis carries the newest review, in the list too; the history keeps both.
    let analysis = app.get(&format!("/api/analyses/{id}")).await.json();
    assert_eq!(analysis["review"]["id"], second["id"]);
    assert_eq!(analysis["review"]["agreement"], "disagree");
    let listed = app.get("/api/analyses").await.json();
    assert_eq!(listed[0]["review"]["id"], second["id"]);
    let history = app.get(&format!("/api/analyses/{id}/reviews")).await.json();
    let ids: Vec<&Value> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["id"])
        .collect();
    assert_eq!(ids, [&second["id"], &first["id"]]);
    assert!(history[0]["createdAt"].as_str() > history[1]["createdAt"].as_str());
    let reviews = app
        .audit_actions()
        .await
        .into_iter()
        .filter(|a| a == "create analysis_review")
        .count();
    assert_eq!(reviews, 2);
}

pub async fn reviews_need_a_reason_to_disagree_and_a_bounded_comment(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = analysis_for_new_patient(&mut app).await;
    let path = format!("/api/analyses/{id}/reviews");
    let response = app
        .post(&path, json!({"agreement": "disagree", "comment": "   "}))
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "Say why you disagree with the model's finding in the comment."
    );
    let response = app
        .post(
            &path,
            json!({"agreement": "agree", "comment": "é".repeat(2001)}),
        )
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        response.detail(),
        "The comment is too long: at most 2000 characters."
    );
    let response = app
        .post(
            &path,
            json!({"agreement": "agree", "comment": "é".repeat(2000)}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let response = app.post(&path, json!({"agreement": "maybe"})).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Refused reviews leave nothing behind.
    assert_eq!(app.get(&path).await.json().as_array().unwrap().len(), 1);
}

pub async fn only_the_owning_doctor_reviews(mut app: TestApp) {
    with_echo(&mut app);
    let response = app.get("/api/analyses/x/reviews").await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    app.signed_in_doctor().await;
    let id = analysis_for_new_patient(&mut app).await;
    let path = format!("/api/analyses/{id}/reviews");
    app.logout().await;

    app.signed_in_doctor().await;
    let response = app.post(&path, json!({"agreement": "agree"})).await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Analysis not found.");
    let response = app.get(&path).await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    app.logout().await;

    let email = format!("user-{}@example.com", uuid::Uuid::new_v4().simple());
    let response = app.signup("Pat Doe", &email, "secret-pass", "user").await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let response = app.post(&path, json!({"agreement": "agree"})).await;
    assert_eq!(response.status, StatusCode::FORBIDDEN);
    assert_eq!(
        response.detail(),
        "Only healthcare professionals can access patient records."
    );
}

pub async fn a_screening_is_signed_off_like_an_analysis(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let response = app
        .post("/api/screenings", json!({"patient_id": patient}))
        .await;
    assert_eq!(response.status, StatusCode::CREATED);
    let screening = response.json()["id"].as_str().unwrap().to_owned();
    assert_eq!(response.json()["review"], Value::Null);
    let response = app
        .post(
            &format!("/api/screenings/{screening}/reviews"),
            json!({"agreement": "agree", "comment": "Discussed with the patient."}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let read = app
        .get(&format!("/api/screenings/{screening}"))
        .await
        .json();
    assert_eq!(read["review"]["comment"], "Discussed with the patient.");
    let listed = app
        .get(&format!("/api/patients/{patient}/screenings"))
        .await
        .json();
    assert_eq!(listed[0]["review"]["agreement"], "agree");
    let response = app
        .post(
            "/api/screenings/nope/reviews",
            json!({"agreement": "agree"}),
        )
        .await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Screening not found.");
    assert!(app
        .audit_actions()
        .await
        .contains(&"create screening_review".to_owned()));
}
