//! Administrators (issue 17 part 1): only they see and change the server-wide settings, the first
//! account is one, `cardio admin` (the `auth::admin` store) grants and revokes, the last one stays,
//! and every change reaches the other administrators' notifications.

use axum::http::{Method, StatusCode};
use cardio_server::accounts::auth::{
    admin::{self, AdminError, Outcome},
    session::ADMINS_ONLY,
};
use serde_json::{json, Value};

use crate::helpers::TestApp;

crate::backend_tests!(
    the_first_account_is_the_administrator_and_me_says_so,
    a_doctor_who_is_not_an_administrator_gets_403_on_every_server_wide_setting,
    grant_and_revoke_change_who_may_and_the_last_administrator_stays,
    an_administrators_change_reaches_the_other_administrators_notifications,
    a_patient_account_cannot_be_made_an_administrator,
);

/// Issue 37 §3: `cardio admin grant` accepted a patient's account.
pub async fn a_patient_account_cannot_be_made_an_administrator(mut app: TestApp) {
    app.signed_in_doctor().await;
    app.logout().await;
    let signup = app
        .signup("María López", "maria@example.com", "secret-pass", "user")
        .await;
    assert_eq!(signup.status, StatusCode::CREATED, "{}", signup.text);

    let refused = admin::grant(&app.db, "maria@example.com", 1)
        .await
        .unwrap_err();

    assert_eq!(
        refused.to_string(),
        "maria@example.com is a patient's account: administrators are doctors, so grant a \
         doctor's account"
    );
    assert_eq!(app.me().await.json()["isAdmin"], false);
}

async fn new_doctor(app: &mut TestApp) -> String {
    app.logout().await;
    app.signed_in_doctor().await
}

pub async fn the_first_account_is_the_administrator_and_me_says_so(mut app: TestApp) {
    app.signed_in_doctor().await;
    assert_eq!(app.me().await.json()["isAdmin"], true);

    new_doctor(&mut app).await;
    assert_eq!(app.me().await.json()["isAdmin"], false);

    app.logout().await;
    let email = format!("user-{}@example.com", uuid::Uuid::new_v4().simple());
    let signup = app.signup("Pat Doe", &email, "secret-pass", "user").await;
    assert_eq!(signup.json()["isAdmin"], false);
}

pub async fn a_doctor_who_is_not_an_administrator_gets_403_on_every_server_wide_setting(
    mut app: TestApp,
) {
    app.signed_in_doctor().await;
    new_doctor(&mut app).await;
    let off = json!({"encrypt_blobs": false, "auto_backup": false});
    for (method, path, body) in [
        (Method::GET, "/api/system/data-settings", None),
        (Method::PUT, "/api/system/data-settings", Some(off)),
        (Method::GET, "/api/system/backups", None),
        (Method::POST, "/api/system/backups", None),
        (Method::GET, "/api/system/storage", None),
    ] {
        let response = app.request(method, path, body).await;
        assert_eq!(response.status, StatusCode::FORBIDDEN, "{path}");
        assert_eq!(response.detail(), ADMINS_ONLY, "{path}");
    }
    assert!(cardio_server::admin::backup::list(&app.config.data_dir)
        .unwrap()
        .is_empty());
    let (settings, updated_at) = cardio_server::admin::data_settings::load(&app.db)
        .await
        .unwrap();
    assert!(settings.encrypt_blobs && settings.auto_backup);
    assert_eq!(updated_at, None);
}

pub async fn grant_and_revoke_change_who_may_and_the_last_administrator_stays(mut app: TestApp) {
    let first = app.signed_in_doctor().await;
    let second = new_doctor(&mut app).await;
    assert_eq!(
        app.get("/api/system/storage").await.status,
        StatusCode::FORBIDDEN
    );

    assert_eq!(
        admin::grant(&app.db, &second, 1).await.unwrap(),
        Outcome::Changed
    );
    assert_eq!(
        admin::grant(&app.db, &second, 2).await.unwrap(),
        Outcome::Unchanged
    );
    // Takes effect on the session already open.
    assert_eq!(app.me().await.json()["isAdmin"], true);
    assert_eq!(app.get("/api/system/storage").await.status, StatusCode::OK);
    let listed: Vec<String> = admin::list(&app.db)
        .await
        .unwrap()
        .into_iter()
        .map(|a| a.email)
        .collect();
    assert_eq!(listed, vec![first.clone(), second.clone()]);

    assert_eq!(
        admin::revoke(&app.db, &first, 3).await.unwrap(),
        Outcome::Changed
    );
    let last = admin::revoke(&app.db, &second, 4).await.unwrap_err();
    assert!(
        matches!(&last, AdminError::LastAdministrator(e) if *e == second),
        "{last}"
    );
    assert_eq!(
        last.to_string(),
        format!("{second} is the last administrator; grant another account first")
    );
    assert_eq!(app.me().await.json()["isAdmin"], true);
    assert!(matches!(
        admin::grant(&app.db, "nobody@clinic.test", 5).await,
        Err(AdminError::NoSuchAccount(_))
    ));
    // Both changes are in the trail, recorded as the account's own.
    let actions = app.audit_actions().await;
    assert!(
        actions.contains(&"update administrator_granted".to_owned()),
        "{actions:?}"
    );
}

pub async fn an_administrators_change_reaches_the_other_administrators_notifications(
    mut app: TestApp,
) {
    let first = app.signed_in_doctor().await;
    let second = new_doctor(&mut app).await;
    admin::grant(&app.db, &second, cardio_server::platform::db::now_ms())
        .await
        .unwrap();
    let saved = app
        .request(
            Method::PUT,
            "/api/system/data-settings",
            Some(json!({"encrypt_blobs": false, "auto_backup": true})),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);

    // The first administrator sees the second's change (and the grant), newest first.
    app.logout().await;
    assert_eq!(
        app.login(&first, "secret-pass").await.status,
        StatusCode::OK
    );
    let feed = app.get("/api/notifications").await.json();
    let admin_items: Vec<&Value> = feed["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "admin_change")
        .collect();
    assert_eq!(admin_items.len(), 2, "{feed}");
    assert_eq!(admin_items[0]["event"], "data_settings");
    assert_eq!(admin_items[0]["actor"], second.as_str());
    assert_eq!(admin_items[0]["detail"], "encrypt_blobs=off;auto_backup=on");
    assert_eq!(admin_items[0]["unread"], true);
    assert_eq!(admin_items[1]["event"], "administrator_granted");
    assert_eq!(admin_items[1]["actor"], second.as_str());

    // The one who made the change is not told of it, and a doctor who is not an administrator
    // hears nothing.
    app.logout().await;
    app.login(&second, "secret-pass").await;
    let own = app.get("/api/notifications").await.json();
    assert!(
        own["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["kind"] != "admin_change" || n["event"] != "data_settings"),
        "{own}"
    );
    new_doctor(&mut app).await;
    let other = app.get("/api/notifications").await.json();
    assert!(
        other["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["kind"] != "admin_change"),
        "{other}"
    );
}
