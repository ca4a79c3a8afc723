//! In-app notifications: results awaiting review, a patient viewing shared results and device
//! warnings, each only while its setting is on; "mark as read"; nothing of another account.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::{
    helpers::{patient_form, Part, TestApp},
    predict::{csv_recording, with_echo},
};

crate::backend_tests!(
    notifications_follow_the_settings_and_are_marked_read,
    a_patient_viewing_shared_results_notifies_the_doctor_when_asked,
);

const PASSWORD: &str = "secret-pass";

async fn feed(app: &mut TestApp) -> Value {
    let response = app.get("/api/notifications").await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json()
}

fn kinds(feed: &Value) -> Vec<String> {
    feed["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap().to_owned())
        .collect()
}

async fn upload_ecg(app: &mut TestApp, patient: &str) -> String {
    let response = app
        .upload(
            "/api/predict/ecg/upload",
            &[
                Part::file("ecg.csv", Some("text/csv"), csv_recording(4.0)),
                Part::text("patient_id", patient),
            ],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json()["analysis_id"].as_str().unwrap().to_owned()
}

async fn save_settings(app: &mut TestApp, changes: Value) {
    let mut settings = app.get("/api/settings").await.json();
    for (key, value) in changes.as_object().unwrap() {
        settings[key] = value.clone();
    }
    let response = app
        .request(axum::http::Method::PUT, "/api/settings", Some(settings))
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
}

pub async fn notifications_follow_the_settings_and_are_marked_read(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    assert_eq!(feed(&mut app).await, json!({"unread": 0, "items": []}));
    let patient = app.create_patient(patient_form()).await;
    let first = upload_ecg(&mut app, &patient).await;
    let second = upload_ecg(&mut app, &patient).await;
    let warning = app
        .post(
            "/api/devices/log",
            json!({"type": "warning", "event": "serial_error", "device": "USB 2303", "detail": "The device was unplugged."}),
        )
        .await;
    assert_eq!(warning.status.as_u16() / 100, 2, "{}", warning.text);

    let all = feed(&mut app).await;
    assert_eq!(all["unread"], 3);
    assert_eq!(
        kinds(&all),
        ["device_alert", "review_needed", "review_needed"]
    );
    let reviews = &all["items"].as_array().unwrap()[1..];
    assert_eq!(reviews[0]["analysisId"], second.as_str());
    assert_eq!(reviews[1]["analysisId"], first.as_str());
    assert_eq!(reviews[0]["patientName"], "María López");
    assert_eq!(reviews[0]["modality"], "ecg");
    assert_eq!(all["items"][0]["device"], "USB 2303");
    assert_eq!(all["items"][0]["detail"], "The device was unplugged.");

    // A signed-off result leaves the list.
    let review = app
        .post(
            &format!("/api/analyses/{first}/reviews"),
            json!({"agreement": "agree"}),
        )
        .await;
    assert_eq!(review.status, StatusCode::CREATED);
    assert_eq!(
        kinds(&feed(&mut app).await),
        ["device_alert", "review_needed"]
    );

    // Read: still listed, none unread, until something new arrives.
    let seen = app.post("/api/notifications/seen", json!({})).await;
    assert_eq!(seen.status, StatusCode::NO_CONTENT);
    let read = feed(&mut app).await;
    assert_eq!(read["unread"], 0);
    assert!(read["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|n| n["unread"] == false));
    crate::helpers::tick().await;
    upload_ecg(&mut app, &patient).await;
    assert_eq!(feed(&mut app).await["unread"], 1);

    // Each kind only while its setting is on.
    save_settings(
        &mut app,
        json!({"notifyTestResults": false, "notifyDeviceAlerts": true}),
    )
    .await;
    assert_eq!(kinds(&feed(&mut app).await), ["device_alert"]);
    save_settings(&mut app, json!({"notifyDeviceAlerts": false})).await;
    assert_eq!(feed(&mut app).await["items"], json!([]));

    // Another doctor sees none of these.
    app.logout().await;
    app.signed_in_doctor().await;
    assert_eq!(feed(&mut app).await, json!({"unread": 0, "items": []}));
    assert_eq!(
        {
            app.logout().await;
            app.get("/api/notifications").await.status
        },
        StatusCode::UNAUTHORIZED
    );
}

pub async fn a_patient_viewing_shared_results_notifies_the_doctor_when_asked(mut app: TestApp) {
    with_echo(&mut app);
    let doctor = app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let analysis = upload_ecg(&mut app, &patient).await;
    app.post(
        &format!("/api/analyses/{analysis}/reviews"),
        json!({"agreement": "agree"}),
    )
    .await;
    let share = app
        .post(
            &format!("/api/patients/{patient}/share"),
            json!({"email": "maria@example.com"}),
        )
        .await
        .json();
    app.logout().await;
    app.signup("María López", "maria@example.com", PASSWORD, "user")
        .await;
    sqlx::query("UPDATE users SET email_verified = 1 WHERE email = 'maria@example.com'")
        .execute(&app.db.pool)
        .await
        .unwrap();
    app.post(
        &format!(
            "/api/shared/invitations/{}/accept",
            share["id"].as_str().unwrap()
        ),
        json!({}),
    )
    .await;
    // Twice the same day: one notification.
    for _ in 0..2 {
        assert_eq!(app.get("/api/shared/results").await.status, StatusCode::OK);
    }
    // A patient account has no notifications of its own here.
    assert_eq!(feed(&mut app).await, json!({"unread": 0, "items": []}));

    app.logout().await;
    app.login(&doctor, PASSWORD).await;
    // Patient updates are off by default.
    assert_eq!(feed(&mut app).await["items"], json!([]));
    save_settings(&mut app, json!({"notifyPatientUpdates": true})).await;
    let viewed = feed(&mut app).await;
    assert_eq!(kinds(&viewed), ["shared_viewed"]);
    assert_eq!(viewed["items"][0]["patientId"], patient.as_str());
    assert_eq!(viewed["items"][0]["patientName"], "María López");
}
