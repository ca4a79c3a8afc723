//! Limits on sign-in attempts and sign-ups, kept in the database so that every server instance
//! sees the same numbers, and reserved atomically so that they hold under bursts.
//!
//! - **Per account**: an attempt is reserved ([`reserve`]) *before* the password is hashed, by one
//!   upsert that increments the account's counter and returns it; the sixth attempt within the
//!   window is refused without hashing, however many arrive at once. A right password clears the
//!   counter ([`clear_account`]) or, when a second step follows, gives its attempt back
//!   ([`release`]); a wrong one leaves its reservation counted and records the
//!   failure ([`record_failure`]).
//! - **Per client address**: an address that failed against more than
//!   [`MAX_ACCOUNTS_PER_CLIENT`] *different* accounts within the window is refused. Counting
//!   accounts rather than failures means a burst against one account (which that account's own
//!   limit stops) never locks out the other people behind the same address, such as a clinic
//!   behind one NAT, while password spraying across accounts is still stopped.
//! - **Sign-ups** per client address: [`reserve_signup`], [`MAX_SIGNUPS_PER_CLIENT`] an hour unless
//!   configured otherwise.

use crate::{platform::db::Db, platform::error::ApiError};

/// The window sign-in attempts are counted in.
pub const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Sign-in attempts allowed per account within the window (the next is refused).
pub const MAX_ATTEMPTS_PER_ACCOUNT: i64 = 5;
/// Different accounts one client address may fail against within the window.
pub const MAX_ACCOUNTS_PER_CLIENT: i64 = 20;
/// The message once a sign-in limit is reached (spec §8, exactly).
pub const TOO_MANY_ATTEMPTS: &str = "Too many failed attempts. Please try again later.";
/// The window sign-ups are counted in.
pub const SIGNUP_WINDOW_MS: i64 = 60 * 60 * 1000;
pub use crate::platform::config::MAX_SIGNUPS_PER_CLIENT;
/// The message once the sign-up limit is reached.
pub const TOO_MANY_SIGNUPS: &str =
    "Too many accounts were created from this network. Please try again later.";

/// Increments the counter `key` within a fixed window of `window_ms` and returns the count
/// including this attempt, in one statement (see the migration `0014_attempt_counters`).
async fn increment(db: &Db, key: &str, window_ms: i64, now: i64) -> Result<i64, ApiError> {
    let count: i64 = sqlx::query_scalar(
        "INSERT INTO attempt_counters (counter_key, window_start, attempts) VALUES ($1, $2, 1) \
         ON CONFLICT (counter_key) DO UPDATE SET \
         attempts = CASE WHEN attempt_counters.window_start <= $3 THEN 1 \
                         ELSE attempt_counters.attempts + 1 END, \
         window_start = CASE WHEN attempt_counters.window_start <= $3 THEN $2 \
                             ELSE attempt_counters.window_start END \
         RETURNING attempts",
    )
    .bind(key)
    .bind(now)
    .bind(now - window_ms)
    .fetch_one(&db.writer)
    .await?;
    Ok(count)
}

fn account_key(email: &str) -> String {
    format!("account:{email}")
}

/// Reserves one sign-in attempt (or password confirmation) for the account `email` from
/// `client`, before any hashing. Fails with 429 when the account has used its attempts, or when
/// the address failed against too many different accounts.
///
/// # Errors
/// [`ApiError::TooManyRequests`] with [`TOO_MANY_ATTEMPTS`], or a database failure.
pub async fn reserve(db: &Db, email: &str, client: &str, now: i64) -> Result<(), ApiError> {
    let accounts: i64 = sqlx::query_scalar(
        "SELECT COUNT(DISTINCT email) FROM login_failures \
         WHERE client_addr = $1 AND at > $2 AND email <> $3",
    )
    .bind(client)
    .bind(now - WINDOW_MS)
    .bind(email)
    .fetch_one(&db.pool)
    .await?;
    if accounts >= MAX_ACCOUNTS_PER_CLIENT {
        return Err(ApiError::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    if increment(db, &account_key(email), WINDOW_MS, now).await? > MAX_ATTEMPTS_PER_ACCOUNT {
        return Err(ApiError::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    Ok(())
}

/// Reserves one sign-up from `client`, of at most `per_hour` an hour.
///
/// # Errors
/// [`ApiError::TooManyRequests`] with [`TOO_MANY_SIGNUPS`], or a database failure.
pub async fn reserve_signup(
    db: &Db,
    client: &str,
    per_hour: u32,
    now: i64,
) -> Result<(), ApiError> {
    let key = format!("signup:{client}");
    if increment(db, &key, SIGNUP_WINDOW_MS, now).await? > i64::from(per_hour) {
        return Err(ApiError::TooManyRequests(TOO_MANY_SIGNUPS.into()));
    }
    Ok(())
}

/// Records one failed attempt (its reservation stays counted) and forgets what is older than the
/// windows.
///
/// # Errors
/// A database failure.
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
    sqlx::query("DELETE FROM attempt_counters WHERE window_start <= $1")
        .bind(now - WINDOW_MS.max(SIGNUP_WINDOW_MS))
        .execute(&db.writer)
        .await?;
    Ok(())
}

/// Gives back one reserved attempt that proved the password right but does not end the check
/// (a two-factor account's password step, a password confirmed before a sensitive change): a
/// right password is not a failure, while the failures before it stay counted.
///
/// # Errors
/// A database failure.
pub async fn release(db: &Db, email: &str) -> Result<(), ApiError> {
    sqlx::query(
        "UPDATE attempt_counters SET attempts = attempts - 1 \
         WHERE counter_key = $1 AND attempts > 0",
    )
    .bind(account_key(email))
    .execute(&db.writer)
    .await?;
    Ok(())
}

/// Clears an account's attempts and failures after it proved its password (and second factor).
///
/// # Errors
/// A database failure.
pub async fn clear_account(db: &Db, email: &str) -> Result<(), ApiError> {
    sqlx::query("DELETE FROM login_failures WHERE email = $1")
        .bind(email)
        .execute(&db.writer)
        .await?;
    sqlx::query("DELETE FROM attempt_counters WHERE counter_key = $1")
        .bind(account_key(email))
        .execute(&db.writer)
        .await?;
    Ok(())
}
