//! Doctors' sign-off of analyses and screenings: pending until reviewed, a new review supersedes
//! the previous one (kept in the history), only the owning doctor reviews, every review audited,
//! and home's "pending reviews" counts what is left; an ECG's sign-off confirms its
//! interpretation (statements kept, added, in the doctor's own words), kept by every later
//! sign-off that does not change it, each edit in the history and the audit.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::{
    helpers::{clinical_form, patient_form, Part, TestApp},
    predict::{csv_recording, with_echo},
};

crate::backend_tests!(
    a_new_review_supersedes_the_previous_one_which_stays_in_the_history,
    reviews_need_a_reason_to_disagree_and_a_bounded_comment,
    only_the_owning_doctor_reviews,
    a_screening_is_signed_off_like_an_analysis,
    an_ecg_sign_off_confirms_its_interpretation_and_keeps_each_edit,
    a_confirmed_interpretation_is_checked_before_anything_is_kept,
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

fn texts(review: &Value) -> Vec<&str> {
    review["interpretation"]
        .as_array()
        .unwrap_or_else(|| panic!("no interpretation in {review}"))
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect()
}

fn interpretation_audits(actions: &[String]) -> Vec<&str> {
    actions
        .iter()
        .filter(|a| a.ends_with(" ecg_interpretation"))
        .map(String::as_str)
        .collect()
}

pub async fn an_ecg_sign_off_confirms_its_interpretation_and_keeps_each_edit(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = analysis_for_new_patient(&mut app).await;
    let path = format!("/api/analyses/{id}/reviews");
    // Kept, added from the table, the doctor's own words; a code named twice is kept once.
    let response = app
        .post(
            &path,
            json!({"agreement": "agree", "interpretation": [
                {"code": "sinus_rhythm"},
                {"code": "first_degree_av_block"},
                {"text": "  Artefact in V1, repeat the ECG  "},
                {"code": "sinus_rhythm"},
            ]}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let first = response.json();
    assert_eq!(
        texts(&first),
        [
            "Sinus rhythm",
            "1st-degree AV block",
            "Artefact in V1, repeat the ECG"
        ]
    );
    assert_eq!(first["interpretation"][0]["code"], "sinus_rhythm");
    assert_eq!(first["interpretation"][2]["code"], Value::Null);
    let analysis = app.get(&format!("/api/analyses/{id}")).await.json();
    assert_eq!(texts(&analysis["review"]), texts(&first));
    assert_eq!(
        interpretation_audits(&app.audit_actions().await),
        ["create ecg_interpretation"]
    );

    // A later sign-off that names none keeps it, and is no edit of it.
    let response = app
        .post(
            &path,
            json!({"agreement": "agree", "comment": "Seen again."}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    assert_eq!(texts(&response.json()), texts(&first));
    assert_eq!(interpretation_audits(&app.audit_actions().await).len(), 1);

    // An edit: one statement removed; the history keeps every version, the audit the edit.
    let response = app
        .post(
            &path,
            json!({"agreement": "agree", "interpretation": [
                {"code": "sinus_rhythm"}, {"text": "Artefact in V1, repeat the ECG"},
            ]}),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let history = app.get(&path).await.json();
    let versions: Vec<Vec<&str>> = history.as_array().unwrap().iter().map(texts).collect();
    assert_eq!(
        versions,
        [
            vec!["Sinus rhythm", "Artefact in V1, repeat the ECG"],
            texts(&first),
            texts(&first),
        ]
    );
    let actions = app.audit_actions().await;
    let mut audits = interpretation_audits(&actions);
    audits.sort_unstable();
    assert_eq!(
        audits,
        ["create ecg_interpretation", "update ecg_interpretation"]
    );

    // The CSV export shows the confirmed interpretation.
    let csv = app.get("/api/analyses/export.csv").await.text;
    assert!(csv
        .lines()
        .next()
        .unwrap()
        .ends_with(",analysis_id,ecg_interpretation,site"));
    assert!(
        csv.lines().nth(1).unwrap().ends_with(&format!(
            ",{id},\"Sinus rhythm; Artefact in V1, repeat the ECG\","
        )),
        "{csv}"
    );
}

pub async fn a_confirmed_interpretation_is_checked_before_anything_is_kept(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = analysis_for_new_patient(&mut app).await;
    let path = format!("/api/analyses/{id}/reviews");
    let many: Vec<Value> = (0..31)
        .map(|k| json!({"text": format!("Note {k}")}))
        .collect();
    for (interpretation, detail, code) in [
        (
            json!([]),
            "Confirm at least one ECG statement, or write one in your own words.",
            "interpretation_empty",
        ),
        (
            json!(many),
            "At most 30 ECG statements can be confirmed.",
            "interpretation_too_long",
        ),
        (
            json!([{"code": "sinus_rhythm"}, {"text": "   "}]),
            "An ECG statement in your own words takes 1 to 200 characters.",
            "own_statement_length",
        ),
        (
            json!([{"text": "é".repeat(201)}]),
            "An ECG statement in your own words takes 1 to 200 characters.",
            "own_statement_length",
        ),
        (
            json!([{"code": "wandering_pacemaker"}]),
            "This ECG statement is not in the list: wandering_pacemaker.",
            "unknown_statement",
        ),
    ] {
        let response = app
            .post(
                &path,
                json!({"agreement": "agree", "interpretation": interpretation}),
            )
            .await;
        assert_eq!(
            response.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{detail}"
        );
        assert_eq!(response.detail(), detail);
        assert_eq!(response.json()["code"], code);
    }
    assert_eq!(app.get(&path).await.json(), json!([]));

    // Only an ECG result's sign-off confirms one: not a clinical result's, not a screening's.
    let patient = app.create_patient(patient_form()).await;
    let mut form = clinical_form();
    form["patient_id"] = json!(patient);
    let response = app.post("/api/predict/clinical", form).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let clinical = response.json()["analysis_id"].as_str().unwrap().to_owned();
    let screening = app.create_screening(&patient).await;
    for target in [
        format!("/api/analyses/{clinical}/reviews"),
        format!("/api/screenings/{screening}/reviews"),
    ] {
        let response = app
            .post(
                &target,
                json!({"agreement": "agree", "interpretation": [{"code": "sinus_rhythm"}]}),
            )
            .await;
        assert_eq!(
            response.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{target}"
        );
        assert_eq!(
            response.detail(),
            "Only an ECG result's sign-off confirms ECG statements."
        );
        assert_eq!(app.get(&target).await.json(), json!([]));
    }
}
