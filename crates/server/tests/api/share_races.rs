//! Sharing under concurrent requests (issue 37 §3): an accept racing the doctor's revoke never
//! leaves an active share with `revokedAt` set, and two invitations sent at once leave one open
//! share per patient record (the other answers 409 with its sentence).

use axum::http::{Method, StatusCode};
use cardio_server::records::sharing::SHARED_AT_THE_SAME_TIME;
use serde_json::json;
use sqlx::Row;

use crate::helpers::{patient_form, TestApp};

crate::backend_tests!(
    an_accept_racing_a_revoke_never_leaves_an_active_revoked_share,
    two_invitations_sent_at_once_leave_one_open_share,
);

const TRIALS: usize = 20;

/// (status, has revoked_at) of every share of `patient`.
async fn shares_of(app: &TestApp, patient: &str) -> Vec<(String, bool)> {
    sqlx::query("SELECT status, revoked_at FROM patient_shares WHERE patient_id = $1")
        .bind(patient)
        .fetch_all(&app.db.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| {
            let revoked: Option<i64> = r.try_get("revoked_at").unwrap();
            (r.try_get("status").unwrap(), revoked.is_some())
        })
        .collect()
}

pub async fn an_accept_racing_a_revoke_never_leaves_an_active_revoked_share(mut app: TestApp) {
    app.signed_in_doctor().await;
    let patient = app.create_patient(patient_form()).await;
    let share_url = share_url_of(&patient);
    let mut person = app.second_tab();
    person.cookie = None;
    let email = "maria.lopez@example.com";
    let signup = person
        .signup("María López", email, "secret-pass", "user")
        .await;
    assert_eq!(signup.status, StatusCode::CREATED, "{}", signup.text);
    sqlx::query("UPDATE users SET email_verified = 1 WHERE email = $1")
        .bind(email)
        .execute(&app.db.pool)
        .await
        .unwrap();

    let mut lost = 0;
    for _ in 0..TRIALS {
        let share = app.post(&share_url, json!({ "email": email })).await;
        assert_eq!(share.status, StatusCode::OK, "{}", share.text);
        let accept_url = format!(
            "/api/shared/invitations/{}/accept",
            share.json()["id"].as_str().unwrap()
        );
        let (mut doctor, mut patient_tab) = (app.second_tab(), person.second_tab());
        let url = share_url.clone();
        let revoke = tokio::spawn(async move { doctor.request(Method::DELETE, &url, None).await });
        let accept = tokio::spawn(async move { patient_tab.post(&accept_url, json!({})).await });
        let (revoke, accept) = (revoke.await.unwrap(), accept.await.unwrap());
        assert_eq!(revoke.status, StatusCode::NO_CONTENT, "{}", revoke.text);
        assert!(
            [StatusCode::NO_CONTENT, StatusCode::NOT_FOUND].contains(&accept.status),
            "{}",
            accept.text
        );
        if accept.status == StatusCode::NOT_FOUND {
            assert_eq!(accept.detail(), "Invitation not found.");
        }
        // The doctor was told the share ended: it is revoked, whichever request came first.
        let shares = shares_of(&app, &patient).await;
        if shares.iter().any(|(s, revoked)| s == "active" && *revoked) {
            lost += 1;
        } else {
            assert!(shares.iter().all(|(s, _)| s == "revoked"), "{shares:?}");
        }
    }
    assert_eq!(lost, 0, "{lost} of {TRIALS} revocations lost");
}

fn share_url_of(patient: &str) -> String {
    format!("/api/patients/{patient}/share")
}

pub async fn two_invitations_sent_at_once_leave_one_open_share(mut app: TestApp) {
    app.signed_in_doctor().await;
    let mut doubled = 0;
    for _ in 0..TRIALS {
        let patient = app.create_patient(patient_form()).await;
        let invites: Vec<_> = ["first@example.com", "second@example.com"]
            .into_iter()
            .map(|email| {
                let (mut tab, url) = (app.second_tab(), share_url_of(&patient));
                tokio::spawn(async move { tab.post(&url, json!({ "email": email })).await })
            })
            .collect();
        let mut answered = 0;
        for invite in invites {
            let response = invite.await.unwrap();
            match response.status {
                StatusCode::OK => answered += 1,
                StatusCode::CONFLICT => assert_eq!(response.detail(), SHARED_AT_THE_SAME_TIME),
                other => panic!("{other}: {}", response.text),
            }
        }
        assert!(answered >= 1);
        let open = shares_of(&app, &patient)
            .await
            .into_iter()
            .filter(|(s, _)| s != "revoked")
            .count();
        if open != 1 {
            doubled += 1;
        }
    }
    assert_eq!(
        doubled, 0,
        "{doubled} of {TRIALS} records with two open shares"
    );
}
