//! Results shared with the patient: invite, accept with a verified address, reviewed results only
//! by default, every result on request, PDF reports, revocation, and nobody else's data.

use axum::http::StatusCode;
use serde_json::json;

use crate::{
    helpers::{patient_form, Part, TestApp},
    predict::{csv_recording, with_echo},
};

crate::backend_tests!(
    a_doctor_shares_reviewed_results_with_the_patients_account_until_revoked,
    sharing_is_scoped_to_the_doctor_and_to_the_invited_verified_address,
    a_screening_sign_off_settles_the_results_it_names_and_sharing_follows,
);

const PASSWORD: &str = "secret-pass";

async fn sign_up_patient(app: &mut TestApp, email: &str, verified: bool) {
    let response = app.signup("María López", email, PASSWORD, "user").await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    if verified {
        sqlx::query("UPDATE users SET email_verified = 1 WHERE email = $1")
            .bind(email.to_lowercase())
            .execute(&app.db.pool)
            .await
            .unwrap();
    }
}

async fn switch_to(app: &mut TestApp, email: &str) {
    app.logout().await;
    let response = app.login(email, PASSWORD).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
}

/// Two ECG results of a new patient, the first reviewed; returns (patient, [reviewed, pending]).
async fn patient_with_results(app: &mut TestApp) -> (String, Vec<String>) {
    let patient = app.create_patient(patient_form()).await;
    let mut ids = Vec::new();
    for name in ["first.csv", "second.csv"] {
        let response = app
            .upload(
                "/api/predict/ecg/upload",
                &[
                    Part::file(name, Some("text/csv"), csv_recording(4.0)),
                    Part::text("patient_id", &patient),
                ],
            )
            .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text);
        ids.push(response.json()["analysis_id"].as_str().unwrap().to_owned());
    }
    let review = app
        .post(
            &format!("/api/analyses/{}/reviews", ids[0]),
            json!({"agreement": "agree"}),
        )
        .await;
    assert_eq!(review.status, StatusCode::CREATED, "{}", review.text);
    (patient, ids)
}

pub async fn a_doctor_shares_reviewed_results_with_the_patients_account_until_revoked(
    mut app: TestApp,
) {
    with_echo(&mut app);
    let doctor = app.signed_in_doctor().await;
    let (patient, ids) = patient_with_results(&mut app).await;
    let share_url = format!("/api/patients/{patient}/share");
    assert_eq!(app.get(&share_url).await.json(), json!({"current": null}));

    let share = app
        .post(&share_url, json!({"email": " Maria.Lopez@Example.com "}))
        .await;
    assert_eq!(share.status, StatusCode::OK, "{}", share.text);
    let share = share.json();
    assert_eq!(share["email"], "maria.lopez@example.com");
    assert_eq!(share["status"], "invited");
    assert_eq!(share["shareAll"], false);
    assert_eq!(app.get(&share_url).await.json()["current"], share);
    // The address is told where to see the results (no SMTP here: the outbox folder).
    let outbox = app.config.data_dir.join("outbox");
    let invitation = std::fs::read_dir(&outbox)
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .find(|text| text.contains("Subject: Results shared with you on Cardio"))
        .expect("an invitation in the outbox");
    assert!(
        invitation.contains("To: maria.lopez@example.com"),
        "{invitation}"
    );
    assert!(invitation.contains("/login"), "{invitation}");
    assert!(
        invitation.contains("Ana Ruiz has shared screening results"),
        "{invitation}"
    );
    // Changing what is shared with the same address sends nothing new.
    app.post(
        &share_url,
        json!({"email": "maria.lopez@example.com", "share_all": false}),
    )
    .await;
    let invitations = std::fs::read_dir(&outbox)
        .unwrap()
        .filter(|entry| {
            let name = entry.as_ref().unwrap().file_name();
            name.to_string_lossy().contains("share-invitation")
        })
        .count();
    assert_eq!(invitations, 1);

    // The patient signs up with the invited address; seeing the invitation (the doctor's name,
    // the patient's first name) and accepting it need the address verified (issue 37 §3).
    app.logout().await;
    sign_up_patient(&mut app, "maria.lopez@example.com", false).await;
    assert_eq!(app.get("/api/shared/invitations").await.json(), json!([]));
    let accept_url = format!(
        "/api/shared/invitations/{}/accept",
        share["id"].as_str().unwrap()
    );
    let refused = app.post(&accept_url, json!({})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(
        refused.detail(),
        "Verify your email address before accepting a shared record."
    );
    assert_eq!(app.get("/api/shared/results").await.json(), json!([]));
    sqlx::query("UPDATE users SET email_verified = 1 WHERE email = $1")
        .bind("maria.lopez@example.com")
        .execute(&app.db.pool)
        .await
        .unwrap();
    switch_to(&mut app, "maria.lopez@example.com").await;
    let invitations = app.get("/api/shared/invitations").await.json();
    assert_eq!(invitations.as_array().unwrap().len(), 1);
    assert_eq!(invitations[0]["id"], share["id"]);
    assert_eq!(invitations[0]["doctorName"], "Ana Ruiz");
    assert_eq!(invitations[0]["patientFirstName"], "María");
    assert_eq!(
        app.post(&accept_url, json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(app.get("/api/shared/invitations").await.json(), json!([]));

    // Reviewed results only, by default.
    let results = app.get("/api/shared/results").await.json();
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["id"], ids[0].as_str());
    assert_eq!(results[0]["modality"], "ecg");
    assert_eq!(results[0]["reviewed"], true);
    assert_eq!(results[0]["doctorAgreed"], true);
    assert_eq!(results[0]["doctorName"], "Ana Ruiz");
    assert_eq!(results[0]["finding"], "normal");
    let pdf = app.get(results[0]["reportUrl"].as_str().unwrap()).await;
    assert_eq!(pdf.status, StatusCode::OK, "{}", pdf.text);
    assert!(pdf.bytes.starts_with(b"%PDF-"));
    let text = pdf_extract::extract_text_from_mem(&pdf.bytes).unwrap();
    assert!(text.contains("López"), "{text}");
    let unshared = app
        .get(&format!("/api/shared/analyses/{}/report.pdf", ids[1]))
        .await;
    assert_eq!(unshared.status, StatusCode::NOT_FOUND);
    // The patient account reaches no doctor endpoint, and not the analyses themselves.
    assert_eq!(app.get("/api/patients").await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get(&share_url).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.get(&format!("/api/analyses/{}", ids[0])).await.status,
        StatusCode::NOT_FOUND
    );
    assert!(app
        .audit_actions()
        .await
        .contains(&"export shared_report_pdf".to_owned()));

    // Every result, once the doctor says so.
    switch_to(&mut app, &doctor).await;
    let updated = app
        .post(
            &share_url,
            json!({"email": "maria.lopez@example.com", "share_all": true}),
        )
        .await
        .json();
    assert_eq!(updated["status"], "active");
    assert_eq!(updated["shareAll"], true);
    switch_to(&mut app, "maria.lopez@example.com").await;
    assert_eq!(
        app.get("/api/shared/results")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // Revoked: nothing is shared from the next request on.
    switch_to(&mut app, &doctor).await;
    assert_eq!(
        app.request(axum::http::Method::DELETE, &share_url, None)
            .await
            .status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(app.get(&share_url).await.json(), json!({"current": null}));
    assert!(app
        .audit_actions()
        .await
        .contains(&"update patient_share_revoked".to_owned()));
    switch_to(&mut app, "maria.lopez@example.com").await;
    assert_eq!(app.get("/api/shared/results").await.json(), json!([]));
    assert_eq!(
        app.get(&format!("/api/shared/analyses/{}/report.pdf", ids[0]))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

pub async fn sharing_is_scoped_to_the_doctor_and_to_the_invited_verified_address(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let (patient, _) = patient_with_results(&mut app).await;
    let share_url = format!("/api/patients/{patient}/share");

    let invalid = app
        .post(&share_url, json!({"email": "not-an-address"}))
        .await;
    assert_eq!(invalid.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(invalid.detail(), "Invalid email address.");
    let none = app.post(&share_url, json!({})).await;
    assert_eq!(none.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        none.detail(),
        "Enter the patient's email address to share results."
    );
    let first = app
        .post(&share_url, json!({"email": "first@example.com"}))
        .await
        .json();
    // Another address replaces the invitation: the first one can no longer accept.
    let second = app
        .post(&share_url, json!({"email": "second@example.com"}))
        .await
        .json();
    assert_ne!(first["id"], second["id"]);
    assert_eq!(
        app.get("/api/shared/results").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.get("/api/shared/results").await.detail(),
        "Only patient accounts can see shared results."
    );

    // Another doctor cannot see or change this patient's sharing.
    app.logout().await;
    app.signed_in_doctor().await;
    assert_eq!(app.get(&share_url).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        app.post(&share_url, json!({"email": "x@example.com"}))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.request(axum::http::Method::DELETE, &share_url, None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // The replaced address sees nothing; another verified account cannot take the invitation.
    app.logout().await;
    sign_up_patient(&mut app, "first@example.com", true).await;
    switch_to(&mut app, "first@example.com").await;
    assert_eq!(app.get("/api/shared/invitations").await.json(), json!([]));
    for id in [&first["id"], &second["id"]] {
        let response = app
            .post(
                &format!("/api/shared/invitations/{}/accept", id.as_str().unwrap()),
                json!({}),
            )
            .await;
        assert_eq!(response.status, StatusCode::NOT_FOUND);
        assert_eq!(response.detail(), "Invitation not found.");
    }
    assert_eq!(app.get("/api/shared/results").await.json(), json!([]));
}

/// An ECG result of `screening`; returns its id.
async fn screening_ecg(app: &mut TestApp, screening: &str) -> String {
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("ecg.csv", Some("text/csv"), csv_recording(4.0)),
                Part::text("screening_id", screening),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json()["analysis_id"].as_str().unwrap().to_owned()
}

pub async fn a_screening_sign_off_settles_the_results_it_names_and_sharing_follows(
    mut app: TestApp,
) {
    with_echo(&mut app);
    let doctor = app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app.create_screening(&patient).await;
    let first = screening_ecg(&mut app, &screening).await;
    let second = screening_ecg(&mut app, &screening).await;
    let other_screening = app.create_screening(&patient).await;
    let elsewhere = screening_ecg(&mut app, &other_screening).await;
    let pending = |json: serde_json::Value| json["pendingReviews"].clone();
    assert_eq!(pending(app.get("/api/dashboard").await.json()), json!(3));

    let share = app
        .post(
            &format!("/api/patients/{patient}/share"),
            json!({"email": "maria.lopez@example.com"}),
        )
        .await;
    assert_eq!(share.status, StatusCode::OK, "{}", share.text);
    app.logout().await;
    sign_up_patient(&mut app, "maria.lopez@example.com", true).await;
    let invitations = app.get("/api/shared/invitations").await.json();
    let accept_url = format!(
        "/api/shared/invitations/{}/accept",
        invitations[0]["id"].as_str().unwrap()
    );
    assert_eq!(
        app.post(&accept_url, json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(app.get("/api/shared/results").await.json(), json!([]));

    // Naming a result of another screening, or settling from an analysis, is refused whole.
    switch_to(&mut app, &doctor).await;
    let review_url = format!("/api/screenings/{screening}/reviews");
    let refused = app
        .post(
            &review_url,
            json!({"agreement": "agree", "settle_analyses": [first, elsewhere]}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.detail(),
        "Only this screening's own results can be signed off with it."
    );
    assert_eq!(app.get(&review_url).await.json(), json!([]));
    let refused = app
        .post(
            &format!("/api/analyses/{first}/reviews"),
            json!({"agreement": "agree", "settle_analyses": [second]}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused.detail(),
        "Only a screening's sign-off signs off other results with it."
    );
    assert_eq!(pending(app.get("/api/dashboard").await.json()), json!(3));

    // Disagreeing with the combined result while the named ECG's finding stands.
    let signed = app
        .post(
            &review_url,
            json!({"agreement": "disagree", "comment": "Repeat after treatment.",
                   "settle_analyses": [first, first]}),
        )
        .await;
    assert_eq!(signed.status, StatusCode::CREATED, "{}", signed.text);
    let settled = app.get(&format!("/api/analyses/{first}")).await.json();
    assert_eq!(settled["review"]["agreement"], "agree");
    assert_eq!(settled["review"]["comment"], "");
    assert_eq!(
        app.get(&format!("/api/analyses/{first}/reviews"))
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        app.get(&format!("/api/analyses/{second}")).await.json()["review"],
        serde_json::Value::Null
    );
    assert_eq!(pending(app.get("/api/dashboard").await.json()), json!(2));
    let audited = app
        .audit_actions()
        .await
        .into_iter()
        .filter(|a| a == "create analysis_review")
        .count();
    assert_eq!(audited, 1);

    // Sharing follows: the settled result reaches the patient, the other one does not.
    switch_to(&mut app, "maria.lopez@example.com").await;
    let results = app.get("/api/shared/results").await.json();
    let ids: Vec<&str> = results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [first.as_str()]);
    assert_eq!(results[0]["doctorAgreed"], true);
}
