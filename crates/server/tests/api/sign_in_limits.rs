//! Sign-in and sign-up limits that hold under bursts (issue 17 part 3): attempts are reserved
//! atomically before the password is hashed, sign-ups are limited per address, a burst against
//! one account does not lock out the other people behind the same address, and
//! `X-Forwarded-For` counts only from trusted proxies.

use axum::http::StatusCode;
use cardio_server::{
    accounts::auth::rate_limit::{MAX_ACCOUNTS_PER_CLIENT, TOO_MANY_ATTEMPTS, TOO_MANY_SIGNUPS},
    platform::client_addr::parse_trusted_proxy,
};

use crate::helpers::TestApp;

crate::backend_tests!(
    forty_parallel_wrong_passwords_reach_the_password_check_only_five_times,
    forty_accounts_tried_at_once_from_one_address_reach_the_password_check_only_twenty_times,
    a_burst_against_one_account_does_not_lock_out_another_person_behind_the_same_address,
    sign_ups_are_limited_per_address,
    x_forwarded_for_names_the_client_only_behind_a_trusted_proxy,
);

const PASSWORD: &str = "secret-pass";

pub async fn forty_parallel_wrong_passwords_reach_the_password_check_only_five_times(
    mut app: TestApp,
) {
    app.signup("Ana", "ana@clinic.test", PASSWORD, "doctor")
        .await;
    app.logout().await;

    let attempts: Vec<_> = (0..40)
        .map(|_| {
            let mut tab = app.second_tab();
            tokio::spawn(async move { tab.login("ana@clinic.test", "wrong-pass").await })
        })
        .collect();
    let mut statuses = Vec::new();
    for attempt in attempts {
        statuses.push(attempt.await.unwrap());
    }

    // A 401 is an attempt whose password was checked; every other one was refused before.
    let checked = statuses
        .iter()
        .filter(|r| r.status == StatusCode::UNAUTHORIZED)
        .count();
    let refused: Vec<_> = statuses
        .iter()
        .filter(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    assert_eq!(checked, 5);
    assert_eq!(refused.len(), 35);
    assert!(refused.iter().all(|r| r.detail() == TOO_MANY_ATTEMPTS));
    // The right password is refused too, until the window passes.
    assert_eq!(
        app.login("ana@clinic.test", PASSWORD).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// Issue 37 §3: the per-address limit held only for attempts one after another.
pub async fn forty_accounts_tried_at_once_from_one_address_reach_the_password_check_only_twenty_times(
    app: TestApp,
) {
    let attempts: Vec<_> = (0..40)
        .map(|i| {
            let mut tab = app.second_tab();
            tokio::spawn(async move { tab.login(&format!("guess{i}@clinic.test"), "x").await })
        })
        .collect();
    let mut statuses = Vec::new();
    for attempt in attempts {
        statuses.push(attempt.await.unwrap());
    }

    let checked = statuses
        .iter()
        .filter(|r| r.status == StatusCode::UNAUTHORIZED)
        .count();
    let refused: Vec<_> = statuses
        .iter()
        .filter(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    assert_eq!(checked, MAX_ACCOUNTS_PER_CLIENT as usize);
    assert_eq!(refused.len(), 40 - checked);
    assert!(refused.iter().all(|r| r.detail() == TOO_MANY_ATTEMPTS));
}

pub async fn a_burst_against_one_account_does_not_lock_out_another_person_behind_the_same_address(
    mut app: TestApp,
) {
    app.signup("Ana", "ana@clinic.test", PASSWORD, "doctor")
        .await;
    app.logout().await;
    app.signup("Bea", "bea@clinic.test", PASSWORD, "doctor")
        .await;
    app.logout().await;

    // Someone in the clinic (one address) hammers Ana's account.
    for _ in 0..30 {
        app.login("ana@clinic.test", "guess").await;
    }
    let ana = app.login("ana@clinic.test", PASSWORD).await;
    let bea = app.login("bea@clinic.test", PASSWORD).await;

    assert_eq!(ana.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(bea.status, StatusCode::OK, "{}", bea.text);
}

pub async fn sign_ups_are_limited_per_address(mut app: TestApp) {
    for i in 0..10 {
        let response = app
            .signup(
                "Staff",
                &format!("staff{i}@clinic.test"),
                PASSWORD,
                "doctor",
            )
            .await;
        assert_eq!(
            response.status,
            StatusCode::CREATED,
            "{i}: {}",
            response.text
        );
        app.logout().await;
    }
    let eleventh = app
        .signup("Staff", "staff10@clinic.test", PASSWORD, "doctor")
        .await;
    assert_eq!(eleventh.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(eleventh.detail(), TOO_MANY_SIGNUPS);
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(count, 10);

    // Another address may, and an hour later this one may again.
    let mut other = app.second_tab();
    other.client_addr = "198.51.100.9:5000".parse().unwrap();
    assert_eq!(
        other
            .signup("Staff", "staff10@clinic.test", PASSWORD, "doctor")
            .await
            .status,
        StatusCode::CREATED
    );
    app.clock.advance(std::time::Duration::from_secs(3601));
    assert_eq!(
        app.signup("Staff", "staff11@clinic.test", PASSWORD, "doctor")
            .await
            .status,
        StatusCode::CREATED
    );
}

/// Fails sign-in against 20 different accounts, each request claiming another client address.
async fn spray(app: &mut TestApp, claimed_prefix: &str) {
    for i in 0..20 {
        let claimed = format!("{claimed_prefix}.{i}");
        let response = app
            .request_with(
                axum::http::Method::POST,
                "/api/auth/login",
                Some(
                    serde_json::json!({"email": format!("guess{i}@clinic.test"), "password": "x"}),
                ),
                &[("X-Forwarded-For", claimed.as_str())],
            )
            .await;
        assert_eq!(
            response.status,
            StatusCode::UNAUTHORIZED,
            "{}",
            response.text
        );
    }
}

pub async fn x_forwarded_for_names_the_client_only_behind_a_trusted_proxy(mut app: TestApp) {
    app.signup("Ana", "ana@clinic.test", PASSWORD, "doctor")
        .await;
    app.logout().await;

    // Not a trusted proxy: the header is ignored, so rotating it does not escape the limit.
    spray(&mut app, "192.0.2").await;
    assert_eq!(
        app.login("ana@clinic.test", PASSWORD).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );

    // The test's peer (203.0.113.7) as a trusted proxy: each forwarded client counts apart.
    let mut config = app.config.clone();
    config.trusted_proxies = vec![parse_trusted_proxy("203.0.113.0/24").unwrap()];
    app.rebuild(config, crate::predict::echo_models());
    let via_proxy = |client: &'static str| [("X-Forwarded-For", client)];
    let sprayer = app
        .request_with(
            axum::http::Method::POST,
            "/api/auth/login",
            Some(serde_json::json!({"email": "ana@clinic.test", "password": PASSWORD})),
            &via_proxy("198.51.100.20"),
        )
        .await;
    assert_eq!(sprayer.status, StatusCode::OK, "{}", sprayer.text);
}
