//! Network devices: registration with a token shown once and stored hashed, bearer auth on the
//! push and heartbeat endpoints (rotated and revoked tokens refused), owner isolation, upload
//! limits, online/offline from the last heartbeat by the server's clock, the inbox and attaching a
//! pushed recording to a screening, the connection log and the dashboard's "devices active".

use std::time::Duration;

use axum::http::{Method, StatusCode};
use cardio_server::platform::config::Config;
use serde_json::{json, Value};
use sqlx::Row;

use crate::{
    helpers::{patient_form, Part, TestApp, TestResponse},
    predict::{csv_recording, echo_models, wav},
};

crate::backend_tests!(
    a_registered_device_gets_a_token_shown_once_and_stored_hashed,
    a_device_pushes_a_recording_that_lands_in_the_inbox_analysed,
    requests_without_a_valid_token_are_401,
    a_rotated_token_stops_working_and_the_new_one_works,
    a_revoked_device_is_refused_and_leaves_the_list,
    another_doctors_device_is_404,
    the_registry_is_for_doctors_only,
    pushed_recordings_over_the_upload_limit_are_413_and_logged,
    a_device_is_online_while_its_heartbeat_is_recent,
    a_pushed_recording_is_attached_to_a_screening,
    a_stethoscopes_recording_is_attached_at_its_auscultation_site,
    the_browser_logs_serial_events_but_only_serial_ones,
);

async fn register(app: &mut TestApp, name: &str, kind: &str) -> (String, String) {
    let response = app
        .post("/api/devices", json!({"name": name, "type": kind}))
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let body = response.json();
    (
        body["device"]["id"].as_str().unwrap().to_owned(),
        body["token"].as_str().unwrap().to_owned(),
    )
}

async fn push(app: &mut TestApp, token: &str, file: &str, bytes: Vec<u8>) -> TestResponse {
    let bearer = format!("Bearer {token}");
    app.upload_with(
        "/api/devices/recordings",
        &[Part::file(file, Some("text/csv"), bytes)],
        &[("authorization", bearer.as_str())],
    )
    .await
}

async fn heartbeat(app: &mut TestApp, token: &str) -> TestResponse {
    let bearer = format!("Bearer {token}");
    app.request_with(
        Method::POST,
        "/api/devices/heartbeat",
        None,
        &[("authorization", bearer.as_str())],
    )
    .await
}

async fn status(app: &mut TestApp) -> String {
    devices(&app.get("/api/devices").await)[0]["status"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn log_events(app: &mut TestApp) -> Vec<(String, String)> {
    let response = app.get("/api/devices/log").await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap().to_owned(),
                e["event"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn devices(response: &TestResponse) -> Vec<Value> {
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json().as_array().unwrap().clone()
}

pub async fn a_registered_device_gets_a_token_shown_once_and_stored_hashed(mut app: TestApp) {
    app.signed_in_doctor().await;

    let (id, token) = register(&mut app, "  Holter 1 ", "ECG").await;

    assert!(token.starts_with("cdv_") && token.len() > 40, "{token}");
    let listed = devices(&app.get("/api/devices").await);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["name"], "Holter 1");
    assert_eq!(listed[0]["type"], "ECG");
    assert_eq!(listed[0]["status"], "offline");
    // The list never shows a token again.
    assert!(!app.get("/api/devices").await.text.contains(&token));
    // Only the SHA-256 of the token is stored, nowhere the token itself.
    let row = sqlx::query("SELECT * FROM devices WHERE id = $1")
        .bind(&id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let stored: String = row.try_get("token_hash").unwrap();
    assert_eq!(
        stored,
        cardio_server::accounts::auth::session::token_hash(&token)
    );
    assert_ne!(stored, token);
    for column in ["id", "user_id", "name", "kind", "token_hash"] {
        let value: String = row.try_get(column).unwrap();
        assert!(!value.contains(&token), "{column} holds the token");
    }
    // Names are checked.
    let response = app
        .post("/api/devices", json!({"name": " ", "type": "PPG"}))
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    let response = app
        .post("/api/devices", json!({"name": "x", "type": "EEG"}))
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
}

pub async fn a_device_pushes_a_recording_that_lands_in_the_inbox_analysed(mut app: TestApp) {
    let config = app.config.clone();
    app.rebuild(config, echo_models());
    app.signed_in_doctor().await;
    let (id, token) = register(&mut app, "Bedside ECG", "ECG").await;
    // The device sends no cookie: only its token.
    let cookie = app.cookie.take();

    let response = push(&mut app, &token, "strip.csv", csv_recording(10.0)).await;

    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
    let pushed = response.json();
    assert_eq!(pushed["deviceId"], id.as_str());
    assert_eq!(pushed["fileName"], "strip.csv");
    assert_eq!(pushed["analysis"]["modality"], "ecg");
    assert_eq!(pushed["analysis"]["result"]["prediction"], "Echo");
    assert!(pushed["analysis"]["patientId"].is_null());
    app.cookie = cookie;
    let inbox = devices(&app.get("/api/devices/recordings").await);
    assert_eq!(inbox.len(), 1);
    assert_eq!(inbox[0]["id"], pushed["id"]);
    assert_eq!(inbox[0]["deviceName"], "Bedside ECG");
    assert_eq!(
        inbox[0]["analysis"]["result"]["details"]["sampling_rate_hz"],
        250.0
    );
    let of_device = devices(
        &app.get(&format!("/api/devices/recordings?device_id={id}&limit=1"))
            .await,
    );
    assert_eq!(of_device.len(), 1);
    // A recording counts as the device being seen.
    assert_eq!(
        devices(&app.get("/api/devices").await)[0]["status"],
        "online"
    );
    assert_eq!(
        log_events(&mut app).await.first().unwrap(),
        &("success".to_owned(), "recording_received".to_owned())
    );
    // The analysis is the doctor's and audited like an upload.
    assert!(app
        .audit_actions()
        .await
        .contains(&"create analysis".to_owned()));
    // A file of another type is refused like an upload, and logged as a warning.
    let cookie = app.cookie.take();
    let response = push(&mut app, &token, "notes.docx", b"hello".to_vec()).await;
    assert_eq!(response.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    app.cookie = cookie;
    assert_eq!(
        log_events(&mut app).await.first().unwrap(),
        &("warning".to_owned(), "recording_refused".to_owned())
    );
    assert_eq!(devices(&app.get("/api/devices/recordings").await).len(), 1);
}

pub async fn requests_without_a_valid_token_are_401(mut app: TestApp) {
    app.signed_in_doctor().await;
    register(&mut app, "Pulse", "PPG").await;
    app.cookie = None;

    let missing = app
        .request(Method::POST, "/api/devices/heartbeat", None)
        .await;
    let wrong = heartbeat(&mut app, "cdv_not-a-token").await;
    let no_token_push = app
        .upload(
            "/api/devices/recordings",
            &[Part::file("a.csv", None, csv_recording(5.0))],
        )
        .await;

    assert_eq!(missing.status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong.detail(), "Invalid or revoked device token.");
    assert_eq!(no_token_push.status, StatusCode::UNAUTHORIZED);
}

pub async fn a_rotated_token_stops_working_and_the_new_one_works(mut app: TestApp) {
    app.signed_in_doctor().await;
    let (id, old) = register(&mut app, "Stethoscope", "PCG").await;

    let response = app
        .request(Method::POST, &format!("/api/devices/{id}/token"), None)
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let new = response.json()["token"].as_str().unwrap().to_owned();
    assert_ne!(new, old);
    let cookie = app.cookie.take();
    assert_eq!(
        heartbeat(&mut app, &old).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(heartbeat(&mut app, &new).await.status, StatusCode::OK);
    app.cookie = cookie;
    let events = log_events(&mut app).await;
    assert!(events.contains(&("info".to_owned(), "token_rotated".to_owned())));
}

pub async fn a_revoked_device_is_refused_and_leaves_the_list(mut app: TestApp) {
    app.signed_in_doctor().await;
    let (id, token) = register(&mut app, "Old monitor", "ECG").await;
    let (_, other) = register(&mut app, "New monitor", "ECG").await;

    let response = app
        .request(Method::DELETE, &format!("/api/devices/{id}"), None)
        .await;

    assert_eq!(response.status, StatusCode::NO_CONTENT);
    let listed = devices(&app.get("/api/devices").await);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["name"], "New monitor");
    let cookie = app.cookie.take();
    let refused = heartbeat(&mut app, &token).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let refused = push(&mut app, &token, "a.csv", csv_recording(5.0)).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(heartbeat(&mut app, &other).await.status, StatusCode::OK);
    app.cookie = cookie;
    // Revoked is gone for good.
    let again = app
        .request(Method::DELETE, &format!("/api/devices/{id}"), None)
        .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    let events = log_events(&mut app).await;
    assert!(events.contains(&("warning".to_owned(), "device_revoked".to_owned())));
}

pub async fn another_doctors_device_is_404(mut app: TestApp) {
    app.signed_in_doctor().await;
    let (id, token) = register(&mut app, "Mine", "ECG").await;
    app.cookie = None;
    assert_eq!(heartbeat(&mut app, &token).await.status, StatusCode::OK);
    app.signed_in_doctor().await;

    let rename = app
        .patch(&format!("/api/devices/{id}"), json!({"name": "Stolen"}))
        .await;
    let rotate = app
        .request(Method::POST, &format!("/api/devices/{id}/token"), None)
        .await;
    let revoke = app
        .request(Method::DELETE, &format!("/api/devices/{id}"), None)
        .await;

    assert_eq!(rename.status, StatusCode::NOT_FOUND);
    assert_eq!(rename.detail(), "Device not found.");
    assert_eq!(rotate.status, StatusCode::NOT_FOUND);
    assert_eq!(revoke.status, StatusCode::NOT_FOUND);
    assert!(devices(&app.get("/api/devices").await).is_empty());
    assert!(devices(&app.get("/api/devices/recordings").await).is_empty());
    assert!(log_events(&mut app).await.is_empty());
    let dashboard = app.get("/api/dashboard").await.json();
    assert_eq!(dashboard["devicesActive"], 0);
}

pub async fn the_registry_is_for_doctors_only(mut app: TestApp) {
    let response = app
        .signup("Pat", "pat@home.test", "secret-pass", "user")
        .await;
    assert_eq!(response.status, StatusCode::CREATED);

    let list = app.get("/api/devices").await;
    let create = app
        .post("/api/devices", json!({"name": "Mine", "type": "ECG"}))
        .await;
    let log = app.get("/api/devices/log").await;

    assert_eq!(list.status, StatusCode::FORBIDDEN);
    assert_eq!(create.status, StatusCode::FORBIDDEN);
    assert_eq!(log.status, StatusCode::FORBIDDEN);
    app.cookie = None;
    assert_eq!(
        app.get("/api/devices").await.status,
        StatusCode::UNAUTHORIZED
    );
}

pub async fn pushed_recordings_over_the_upload_limit_are_413_and_logged(mut app: TestApp) {
    let config = Config {
        max_upload_bytes: 1024 * 1024,
        ..app.config.clone()
    };
    app.rebuild(config, echo_models());
    app.signed_in_doctor().await;
    let (_, token) = register(&mut app, "Big", "ECG").await;
    let cookie = app.cookie.take();

    let big = push(&mut app, &token, "big.csv", vec![b'1'; 1024 * 1024 + 10]).await;
    let huge = push(&mut app, &token, "huge.csv", vec![b'1'; 3 * 1024 * 1024]).await;

    assert_eq!(big.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(big.detail(), "File too large: the limit is 1 MB.");
    assert_eq!(huge.status, StatusCode::PAYLOAD_TOO_LARGE);
    app.cookie = cookie;
    assert!(devices(&app.get("/api/devices/recordings").await).is_empty());
    let events = log_events(&mut app).await;
    assert_eq!(
        events.first().unwrap(),
        &("warning".to_owned(), "recording_refused".to_owned())
    );
}

pub async fn a_device_is_online_while_its_heartbeat_is_recent(mut app: TestApp) {
    app.signed_in_doctor().await;
    let (_, token) = register(&mut app, "Monitor", "PPG").await;
    assert_eq!(status(&mut app).await, "offline");
    let cookie = app.cookie.take();

    let beat = heartbeat(&mut app, &token).await;

    assert_eq!(beat.status, StatusCode::OK, "{}", beat.text);
    assert_eq!(beat.json()["status"], "online");
    app.cookie = cookie.clone();
    assert_eq!(status(&mut app).await, "online");
    assert_eq!(app.get("/api/dashboard").await.json()["devicesActive"], 1);
    app.clock.advance(Duration::from_mins(1));
    assert_eq!(status(&mut app).await, "online");
    app.clock.advance(Duration::from_secs(31));
    assert_eq!(status(&mut app).await, "offline");
    assert_eq!(app.get("/api/dashboard").await.json()["devicesActive"], 0);
    // A heartbeat while online writes no log line; coming back after a silence does.
    app.cookie = None;
    heartbeat(&mut app, &token).await;
    heartbeat(&mut app, &token).await;
    app.cookie = cookie;
    let online = log_events(&mut app)
        .await
        .into_iter()
        .filter(|(_, e)| e == "device_online")
        .count();
    assert_eq!(online, 2);
    // The silence in between is logged as a lost connection when the device is heard again.
    let events = log_events(&mut app).await;
    assert_eq!(
        &events[..2],
        &[
            ("success".to_owned(), "device_online".to_owned()),
            ("warning".to_owned(), "device_offline".to_owned())
        ]
    );
    let offline = app.get("/api/devices/log").await.json()[1]["detail"].clone();
    assert_eq!(offline, "91");
    let events = log_events(&mut app).await;
    assert_eq!(events.last().unwrap().1, "device_registered");
}

pub async fn a_pushed_recording_is_attached_to_a_screening(mut app: TestApp) {
    let config = app.config.clone();
    app.rebuild(config, echo_models());
    app.signed_in_doctor().await;
    let (_, token) = register(&mut app, "ECG cart", "ECG").await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app
        .post("/api/screenings", json!({"patient_id": patient}))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let cookie = app.cookie.take();
    let pushed = push(&mut app, &token, "strip.csv", csv_recording(10.0)).await;
    assert_eq!(pushed.status, StatusCode::CREATED, "{}", pushed.text);
    let recording = pushed.json()["id"].as_str().unwrap().to_owned();
    app.cookie = cookie;

    // An ECG has no auscultation site.
    let with_site = app
        .post(
            &format!("/api/devices/recordings/{recording}/attach"),
            json!({"screening_id": screening, "site": "AV"}),
        )
        .await;
    assert_eq!(with_site.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        with_site.detail(),
        "An auscultation site is given for heart-sound recordings only."
    );

    let response = app
        .post(
            &format!("/api/devices/recordings/{recording}/attach"),
            json!({"screening_id": screening}),
        )
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let attached = response.json();
    assert_eq!(attached["analysis"]["screeningId"], screening.as_str());
    assert_eq!(attached["analysis"]["patientId"], patient.as_str());
    assert!(attached["attachedAt"].is_string());
    let of_screening = app
        .get(&format!("/api/analyses?screening_id={screening}"))
        .await;
    assert_eq!(of_screening.status, StatusCode::OK);
    assert!(of_screening
        .text
        .contains(attached["analysis"]["id"].as_str().unwrap()));
    assert!(app
        .audit_actions()
        .await
        .contains(&"update analysis".to_owned()));
    // Once only; and never into another doctor's screening.
    let again = app
        .post(
            &format!("/api/devices/recordings/{recording}/attach"),
            json!({"screening_id": screening}),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    app.signed_in_doctor().await;
    let foreign = app
        .post(
            &format!("/api/devices/recordings/{recording}/attach"),
            json!({"screening_id": screening}),
        )
        .await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
}

pub async fn a_stethoscopes_recording_is_attached_at_its_auscultation_site(mut app: TestApp) {
    let config = app.config.clone();
    app.rebuild(config, echo_models());
    app.signed_in_doctor().await;
    let (_, token) = register(&mut app, "Stethoscope", "PCG").await;
    let patient = app.create_patient(patient_form()).await;
    let screening = app.create_screening(&patient).await;
    let cookie = app.cookie.take();
    let bearer = format!("Bearer {token}");
    // Pushed with the site the stethoscope knows, then another without one.
    let mut ids = Vec::new();
    for site in [Some("TV"), None] {
        let mut parts = vec![Part::file("heart.wav", Some("audio/wav"), wav(8.0, 4000))];
        if let Some(site) = site {
            parts.push(Part::text("site", site));
        }
        let pushed = app
            .upload_with(
                "/api/devices/recordings",
                &parts,
                &[("authorization", bearer.as_str())],
            )
            .await;
        assert_eq!(pushed.status, StatusCode::CREATED, "{}", pushed.text);
        ids.push(pushed.json()["id"].as_str().unwrap().to_owned());
    }
    app.cookie = cookie;

    let attach = |site: Option<&str>| json!({"screening_id": screening, "site": site});
    let bad = app
        .post(
            &format!("/api/devices/recordings/{}/attach", ids[1]),
            attach(Some("apex")),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        bad.detail(),
        "The auscultation site must be AV, PV, TV or MV, not apex."
    );
    // The doctor's site is taken; without one, the device's is kept.
    let at_pv = app
        .post(
            &format!("/api/devices/recordings/{}/attach", ids[1]),
            attach(Some("PV")),
        )
        .await;
    assert_eq!(at_pv.status, StatusCode::OK, "{}", at_pv.text);
    assert_eq!(at_pv.json()["analysis"]["site"], "PV");
    let kept = app
        .post(
            &format!("/api/devices/recordings/{}/attach", ids[0]),
            attach(None),
        )
        .await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.text);
    assert_eq!(kept.json()["analysis"]["site"], "TV");
    let sites: Vec<Value> = app
        .get(&format!("/api/analyses?screening_id={screening}"))
        .await
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["site"].clone())
        .collect();
    assert_eq!(sites.len(), 2);
    assert!(
        sites.contains(&json!("PV")) && sites.contains(&json!("TV")),
        "{sites:?}"
    );
}

pub async fn the_browser_logs_serial_events_but_only_serial_ones(mut app: TestApp) {
    app.signed_in_doctor().await;

    let connected = app
        .post(
            "/api/devices/log",
            json!({"type": "success", "event": "serial_connected", "device": "USB 2341:0043", "detail": "115200"}),
        )
        .await;
    let lost = app
        .post(
            "/api/devices/log",
            json!({"type": "warning", "event": "serial_error", "device": "USB 2341:0043", "detail": "x".repeat(500)}),
        )
        .await;
    let forged = app
        .post(
            "/api/devices/log",
            json!({"type": "success", "event": "recording_received", "device": "Fake"}),
        )
        .await;

    assert_eq!(connected.status, StatusCode::NO_CONTENT);
    assert_eq!(lost.status, StatusCode::NO_CONTENT);
    assert_eq!(forged.status, StatusCode::UNPROCESSABLE_ENTITY);
    let log = app.get("/api/devices/log").await.json();
    let entries = log.as_array().unwrap();
    assert_eq!(entries.len(), 2);
    // Newest first, texts clipped.
    assert_eq!(entries[0]["event"], "serial_error");
    assert_eq!(entries[0]["type"], "warning");
    assert_eq!(entries[0]["detail"].as_str().unwrap().len(), 200);
    assert_eq!(entries[1]["event"], "serial_connected");
    assert_eq!(entries[1]["device"], "USB 2341:0043");
    assert!(entries[1]["time"].as_str().unwrap().ends_with('Z'));
}
