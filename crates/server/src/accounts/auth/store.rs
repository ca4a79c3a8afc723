//! SQL for accounts and sessions. Every function takes the pool; nothing here logs values.

use sqlx::{any::AnyRow, Row};

use crate::{platform::db::Db, platform::error::ApiError};

/// An account as stored, including its password hash (never serialised to a client).
#[derive(Clone)]
#[allow(clippy::struct_excessive_bools)] // independent flags of an account, one column each
pub struct UserRow {
    /// UUID.
    pub id: String,
    /// Normalised email.
    pub email: String,
    /// Display name, possibly empty.
    pub display_name: String,
    /// Argon2id PHC string.
    pub password_hash: String,
    /// `doctor` or `user`.
    pub role: String,
    /// Whether the account may sign in.
    pub is_active: bool,
    /// Whether the email address has been verified.
    pub email_verified: bool,
    /// Whether two-factor sign-in is on (a confirmed `user_totp` row exists).
    pub totp_enabled: bool,
    /// Whether the account is an administrator (server-wide settings, backups, storage).
    pub is_admin: bool,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// Milliseconds since the epoch.
    pub updated_at: i64,
    /// Milliseconds since the epoch, or `None` before the first sign-in.
    pub last_login_at: Option<i64>,
}

impl std::fmt::Debug for UserRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The hash and the email stay out of debug output (and so out of logs).
        f.debug_struct("UserRow")
            .field("id", &self.id)
            .field("role", &self.role)
            .field("is_active", &self.is_active)
            .field("is_admin", &self.is_admin)
            .finish_non_exhaustive()
    }
}

const USER_COLUMNS: &str = "u.id, u.email, u.display_name, u.password_hash, u.role, u.is_active, \
     u.email_verified, u.is_admin, u.created_at, u.updated_at, u.last_login_at, \
     (SELECT COUNT(*) FROM user_totp t WHERE t.user_id = u.id AND t.enabled = 1) AS totp_enabled";

fn user_from_row(row: &AnyRow) -> Result<UserRow, sqlx::Error> {
    Ok(UserRow {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        display_name: row.try_get("display_name")?,
        password_hash: row.try_get("password_hash")?,
        role: row.try_get("role")?,
        is_active: row.try_get::<i64, _>("is_active")? == 1,
        email_verified: row.try_get::<i64, _>("email_verified")? == 1,
        totp_enabled: row.try_get::<i64, _>("totp_enabled")? > 0,
        is_admin: row.try_get::<i64, _>("is_admin")? == 1,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        last_login_at: row.try_get("last_login_at")?,
    })
}

/// A new account to insert.
pub struct NewUser<'a> {
    /// Normalised email.
    pub email: &'a str,
    /// Display name, possibly empty.
    pub display_name: &'a str,
    /// Argon2id PHC string.
    pub password_hash: &'a str,
    /// `doctor` or `user`.
    pub role: &'a str,
}

/// Inserts an account; a taken email is `Ok(None)`.
///
/// Signing up counts as the first sign-in (the prototype set `lastLoginAt` at signup too). The
/// first account of an empty installation is its administrator: the flag is decided inside the
/// insert itself, so it reads the table as the insert sees it.
pub async fn insert_user(
    db: &Db,
    new: &NewUser<'_>,
    now: i64,
) -> Result<Option<UserRow>, ApiError> {
    let id = crate::platform::ids::new();
    let result = sqlx::query(
        "INSERT INTO users (id, email, display_name, password_hash, role, is_active, is_admin, created_at, updated_at, last_login_at) \
         SELECT $1, $2, $3, $4, $5, 1, CASE WHEN EXISTS (SELECT 1 FROM users) THEN 0 ELSE 1 END, $6, $6, $6",
    )
    .bind(&id)
    .bind(new.email)
    .bind(new.display_name)
    .bind(new.password_hash)
    .bind(new.role)
    .bind(now)
    .execute(&db.writer)
    .await;
    match result {
        Ok(_) => {}
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    find_by_id(db, &id).await
}

/// The account with this id.
pub async fn find_by_id(db: &Db, id: &str) -> Result<Option<UserRow>, ApiError> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1");
    let row = sqlx::query(&sql).bind(id).fetch_optional(&db.pool).await?;
    Ok(row.as_ref().map(user_from_row).transpose()?)
}

/// The account with this (normalised) email.
pub async fn find_by_email(db: &Db, email: &str) -> Result<Option<UserRow>, ApiError> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users u WHERE u.email = $1");
    let row = sqlx::query(&sql)
        .bind(email)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.as_ref().map(user_from_row).transpose()?)
}

/// Records a successful sign-in on the account.
pub async fn touch_login(db: &Db, user_id: &str, now: i64) -> Result<(), ApiError> {
    sqlx::query("UPDATE users SET last_login_at = $1, updated_at = $1 WHERE id = $2")
        .bind(now)
        .bind(user_id)
        .execute(&db.writer)
        .await?;
    Ok(())
}

/// Stores a new session (by the hash of its token).
pub async fn create_session(
    db: &Db,
    token_hash: &str,
    user_id: &str,
    now: i64,
    expires_at: i64,
) -> Result<(), ApiError> {
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at) VALUES ($1, $2, $3, $4, $3)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(now)
    .bind(expires_at)
    .execute(&db.writer)
    .await?;
    Ok(())
}

/// A session found by its token: the account, when the session was last used and the account's
/// chosen idle timeout (`None` when the account never saved its settings).
pub struct SessionRow {
    /// The active account.
    pub user: UserRow,
    /// Milliseconds since the epoch of the last use (refreshed at most once a minute).
    pub last_seen_at: i64,
    /// The stored `session_timeout` setting, if any.
    pub session_timeout: Option<String>,
}

/// The active account behind a session that has not reached its absolute expiry at `now`.
pub async fn session(db: &Db, token_hash: &str, now: i64) -> Result<Option<SessionRow>, ApiError> {
    let sql = format!(
        "SELECT {USER_COLUMNS}, s.last_seen_at, st.session_timeout \
         FROM sessions s JOIN users u ON u.id = s.user_id \
         LEFT JOIN user_settings st ON st.user_id = u.id \
         WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.is_active = 1"
    );
    let row = sqlx::query(&sql)
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&db.pool)
        .await?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(SessionRow {
        user: user_from_row(&row)?,
        last_seen_at: row.try_get("last_seen_at")?,
        session_timeout: row.try_get("session_timeout")?,
    }))
}

/// Records a use of a session.
pub async fn touch_session(db: &Db, token_hash: &str, now: i64) -> Result<(), ApiError> {
    sqlx::query("UPDATE sessions SET last_seen_at = $1 WHERE token_hash = $2")
        .bind(now)
        .bind(token_hash)
        .execute(&db.writer)
        .await?;
    Ok(())
}

/// Replaces an account's password hash and deletes every session of the account except the one
/// with `keep_hash`, in one transaction. Returns how many sessions were ended.
pub async fn set_password_ending_other_sessions(
    db: &Db,
    user_id: &str,
    password_hash: &str,
    keep_hash: &str,
    now: i64,
) -> Result<u64, ApiError> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(password_hash)
        .bind(now)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let ended = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
        .bind(user_id)
        .bind(keep_hash)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(ended)
}

/// Changes an account's display name.
pub async fn update_display_name(
    db: &Db,
    user_id: &str,
    display_name: &str,
    now: i64,
) -> Result<(), ApiError> {
    sqlx::query("UPDATE users SET display_name = $1, updated_at = $2 WHERE id = $3")
        .bind(display_name)
        .bind(now)
        .bind(user_id)
        .execute(&db.writer)
        .await?;
    Ok(())
}

/// Deletes one session.
pub async fn delete_session(db: &Db, token_hash: &str) -> Result<(), ApiError> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(&db.writer)
        .await?;
    Ok(())
}

/// Deletes expired sessions (housekeeping at sign-in).
pub async fn delete_expired_sessions(db: &Db, now: i64) -> Result<(), ApiError> {
    sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
        .bind(now)
        .execute(&db.writer)
        .await?;
    Ok(())
}
