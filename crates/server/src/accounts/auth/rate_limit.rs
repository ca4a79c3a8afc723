//! Limits on sign-in attempts and sign-ups, kept in the database so that every server instance
//! sees the same numbers, and reserved atomically so that they hold under bursts.
//!
//! - **Per account**: an attempt is reserved ([`reserve`]) *before* the password is hashed, by one
//!   upsert that increments the account's counter and returns it; the sixth attempt within the
//!   window is refused without hashing, however many arrive at once. A right password clears the
//!   counter ([`clear_account`]) or, when a second step follows, gives its attempt back
//!   ([`release`]); a wrong one leaves its reservation counted and records the
//!   failure ([`record_failure`]).
//! - **Per client address**: an address may try at most [`MAX_ACCOUNTS_PER_CLIENT`] *different*
//!   accounts within the window without proving a password right. The first attempt on an account
//!   from an address reserves one of the address's slots ([`reserve`], one upsert on the address's
//!   counter, before any hashing), so the limit holds however many accounts are tried at once; an
//!   account whose password is then proven right ([`release`], [`clear_account`]) gives its slots
//!   back. Counting accounts rather than attempts means a burst against one account (which that
//!   account's own limit stops) never locks out the other people behind the same address, such as a
//!   clinic behind one NAT, while password spraying across accounts is still stopped.
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
/// Passwords one client address may try to set with a reset link within the window (made-up
/// tokens included; the next is refused with [`TOO_MANY_ATTEMPTS`]).
pub const MAX_RESETS_PER_CLIENT: i64 = 10;
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

fn client_key(client: &str) -> String {
    format!("client:{client}")
}

/// The counter that says `client` holds a slot for the account `email`. The email comes first so
/// that an account's slots at every address are one key range ([`give_back_slots`]).
fn slot_key(email: &str, client: &str) -> String {
    format!("{SLOT_PREFIX}{email}\n{client}")
}

const SLOT_PREFIX: &str = "slot:";

/// Reserves one sign-in attempt (or password confirmation) for the account `email` from
/// `client`, before any hashing. Fails with 429 when the account has used its attempts, or when
/// the address has tried too many different accounts.
///
/// # Errors
/// [`ApiError::TooManyRequests`] with [`TOO_MANY_ATTEMPTS`], or a database failure.
pub async fn reserve(db: &Db, email: &str, client: &str, now: i64) -> Result<(), ApiError> {
    // The first attempt on this account from this address takes one of the address's slots, in
    // one atomic increment: of any number of accounts tried at once, at most the limit get one.
    let slot = slot_key(email, client);
    if increment(db, &slot, WINDOW_MS, now).await? == 1
        && increment(db, &client_key(client), WINDOW_MS, now).await? > MAX_ACCOUNTS_PER_CLIENT
    {
        give_back_slot(db, &slot).await?;
        return Err(ApiError::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    if increment(db, &account_key(email), WINDOW_MS, now).await? > MAX_ATTEMPTS_PER_ACCOUNT {
        return Err(ApiError::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    Ok(())
}

/// Removes the slot counter `slot` and, when it was there, gives its address the slot back.
async fn give_back_slot(db: &Db, slot: &str) -> Result<(), ApiError> {
    let removed = sqlx::query("DELETE FROM attempt_counters WHERE counter_key = $1")
        .bind(slot)
        .execute(&db.writer)
        .await?
        .rows_affected();
    let client = slot.split_once('\n').map(|(_, client)| client);
    if let (1, Some(client)) = (removed, client) {
        sqlx::query(
            "UPDATE attempt_counters SET attempts = attempts - 1 \
             WHERE counter_key = $1 AND attempts > 0",
        )
        .bind(client_key(client))
        .execute(&db.writer)
        .await?;
    }
    Ok(())
}

/// Gives back the slots the account `email` holds at every address (its password was proven
/// right: it is not one of the accounts an address is trying).
async fn give_back_slots(db: &Db, email: &str) -> Result<(), ApiError> {
    // Every key `slot:<email>\n<client>`: from the prefix up to the next character after '\n'.
    let (from, to) = (
        format!("{SLOT_PREFIX}{email}\n"),
        format!("{SLOT_PREFIX}{email}\u{b}"),
    );
    let slots: Vec<String> = sqlx::query_scalar(
        "SELECT counter_key FROM attempt_counters WHERE counter_key >= $1 AND counter_key < $2",
    )
    .bind(from)
    .bind(to)
    .fetch_all(&db.writer)
    .await?;
    for slot in slots {
        give_back_slot(db, &slot).await?;
    }
    Ok(())
}

/// Reserves one try from `client` at setting a password with a reset link, before the token is
/// looked up and the password hashed.
///
/// # Errors
/// [`ApiError::TooManyRequests`] with [`TOO_MANY_ATTEMPTS`], or a database failure.
pub async fn reserve_reset(db: &Db, client: &str, now: i64) -> Result<(), ApiError> {
    let key = format!("reset-password:{client}");
    if increment(db, &key, WINDOW_MS, now).await? > MAX_RESETS_PER_CLIENT {
        return Err(ApiError::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    Ok(())
}

/// Verification messages one account may ask for in [`WINDOW_MS`] (each is an e-mail sent).
pub const MAX_VERIFICATION_MAILS: i64 = 5;
/// The message for an account that asked for too many verification messages.
pub const TOO_MANY_VERIFICATION_MAILS: &str =
    "Several links were sent already. Please check your inbox, or try again in 15 minutes.";

/// Reserves one verification message asked for by the account `user_id`.
///
/// # Errors
/// [`ApiError::TooManyRequests`] with [`TOO_MANY_VERIFICATION_MAILS`], or a database failure.
pub async fn reserve_verification_mail(db: &Db, user_id: &str, now: i64) -> Result<(), ApiError> {
    let key = format!("verify-mail:{user_id}");
    if increment(db, &key, WINDOW_MS, now).await? > MAX_VERIFICATION_MAILS {
        return Err(ApiError::TooManyRequests(
            TOO_MANY_VERIFICATION_MAILS.into(),
        ));
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
    give_back_slots(db, email).await
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
    give_back_slots(db, email).await
}
