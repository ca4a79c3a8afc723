//! Limits on failed sign-ins, per account and per client address, counted in the database so that
//! every server instance sees the same numbers.

use crate::{db::Db, error::ApiError};

/// The window failures are counted in.
pub const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Failed sign-ins allowed per account within the window.
pub const MAX_FAILURES_PER_ACCOUNT: i64 = 5;
/// Failed sign-ins allowed per client address within the window (higher: a clinic shares one
/// address).
pub const MAX_FAILURES_PER_CLIENT: i64 = 20;
/// The message once a limit is reached (spec §8, exactly).
pub const TOO_MANY_ATTEMPTS: &str = "Too many failed attempts. Please try again later.";

/// Fails with 429 when the account or the client address has used up its failures.
pub async fn check(db: &Db, email: &str, client: &str, now: i64) -> Result<(), ApiError> {
    let since = now - WINDOW_MS;
    let by_account: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM login_failures WHERE email = $1 AND at > $2")
            .bind(email)
            .bind(since)
            .fetch_one(&db.pool)
            .await?;
    let by_client: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM login_failures WHERE client_addr = $1 AND at > $2",
    )
    .bind(client)
    .bind(since)
    .fetch_one(&db.pool)
    .await?;
    if by_account >= MAX_FAILURES_PER_ACCOUNT || by_client >= MAX_FAILURES_PER_CLIENT {
        return Err(ApiError::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    Ok(())
}

/// Records one failed sign-in and forgets failures older than the window.
pub async fn record_failure(db: &Db, email: &str, client: &str, now: i64) -> Result<(), ApiError> {
    sqlx::query("INSERT INTO login_failures (email, client_addr, at) VALUES ($1, $2, $3)")
        .bind(email)
        .bind(client)
        .bind(now)
        .execute(&db.writer)
        .await?;
    sqlx::query("DELETE FROM login_failures WHERE at <= $1")
        .bind(now - WINDOW_MS)
        .execute(&db.writer)
        .await?;
    Ok(())
}

/// Clears an account's failures after it signs in successfully.
pub async fn clear_account(db: &Db, email: &str) -> Result<(), ApiError> {
    sqlx::query("DELETE FROM login_failures WHERE email = $1")
        .bind(email)
        .execute(&db.writer)
        .await?;
    Ok(())
}
