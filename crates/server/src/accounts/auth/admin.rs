//! Administrators: the accounts that hold the server-wide settings (encryption at rest, backups,
//! storage figures). The first account of an empty installation is one (see
//! [`super::store::insert_user`]); `cardio admin grant|revoke|list` manage the others from the
//! command line, on the same `DATABASE_URL` as `serve`. The last administrator cannot be revoked,
//! so an installation always has someone who can change its settings. Administrators are doctors:
//! a patient's account is refused.
//!
//! Every grant and revoke is written to the audit trail (entity `administrator_granted` or
//! `administrator_revoked`, the account as the record), where the other administrators'
//! notifications pick it up.

use sqlx::Row;

use crate::platform::db::Db;

/// Where the audit trail says a command-line change came from.
pub const COMMAND_LINE: &str = "command line";

/// Why an administrator change was refused.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// No account has this e-mail address.
    #[error("no account with the e-mail address {0}")]
    NoSuchAccount(String),
    /// The account is the only administrator left.
    #[error("{0} is the last administrator; grant another account first")]
    LastAdministrator(String),
    /// The account is a patient's (`user` role): administrators are doctors.
    #[error("{0} is a patient's account: administrators are doctors, so grant a doctor's account")]
    NotADoctor(String),
    /// The database failed.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}

/// What a grant or revoke did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The flag changed.
    Changed,
    /// The account already was (or was not) an administrator; nothing was written.
    Unchanged,
}

/// One administrator, for `cardio admin list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Administrator {
    /// The account's e-mail address.
    pub email: String,
    /// `doctor` or `user`.
    pub role: String,
}

/// Makes the account with this (normalised) e-mail address an administrator.
///
/// # Errors
/// [`AdminError::NoSuchAccount`], or a database failure.
pub async fn grant(db: &Db, email: &str, now: i64) -> Result<Outcome, AdminError> {
    set_flag(db, email, true, now).await
}

/// Takes the administrator flag from the account with this e-mail address, unless it is the last
/// administrator (checked and written in one transaction).
///
/// # Errors
/// [`AdminError::NoSuchAccount`], [`AdminError::LastAdministrator`], or a database failure.
pub async fn revoke(db: &Db, email: &str, now: i64) -> Result<Outcome, AdminError> {
    set_flag(db, email, false, now).await
}

async fn set_flag(db: &Db, email: &str, admin: bool, now: i64) -> Result<Outcome, AdminError> {
    let mut tx = db.begin().await?;
    let row = sqlx::query("SELECT id, is_admin, role FROM users WHERE email = $1")
        .bind(email)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| AdminError::NoSuchAccount(email.to_owned()))?;
    let id: String = row.try_get("id")?;
    if admin && row.try_get::<String, _>("role")? != "doctor" {
        return Err(AdminError::NotADoctor(email.to_owned()));
    }
    if (row.try_get::<i64, _>("is_admin")? == 1) == admin {
        return Ok(Outcome::Unchanged);
    }
    if admin {
        sqlx::query("UPDATE users SET is_admin = 1, updated_at = $2 WHERE id = $1")
            .bind(&id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
    } else {
        // Two revokes at once must not leave none. SQLite runs one writing transaction at a
        // time; on PostgreSQL the administrators' rows are locked first, so a concurrent revoke
        // waits for this one and its statement below then sees this one's result.
        if db.backend == crate::platform::db::Backend::Postgres {
            sqlx::query("SELECT id FROM users WHERE is_admin = 1 FOR UPDATE")
                .fetch_all(&mut *tx)
                .await?;
        }
        let done = sqlx::query(
            "UPDATE users SET is_admin = 0, updated_at = $2 WHERE id = $1 \
             AND EXISTS (SELECT 1 FROM users o WHERE o.is_admin = 1 AND o.id <> $1)",
        )
        .bind(&id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(AdminError::LastAdministrator(email.to_owned()));
        }
    }
    sqlx::query(
        "INSERT INTO audit_log (user_id, action, entity, entity_id, patient_id, client_addr, at) \
         VALUES ($1, 'update', $2, $1, NULL, $3, $4)",
    )
    .bind(&id)
    .bind(if admin {
        "administrator_granted"
    } else {
        "administrator_revoked"
    })
    .bind(COMMAND_LINE)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(user_id = %id, admin, "administrator flag changed");
    Ok(Outcome::Changed)
}

/// The administrators, oldest account first.
///
/// # Errors
/// A database failure.
pub async fn list(db: &Db) -> Result<Vec<Administrator>, AdminError> {
    let rows =
        sqlx::query("SELECT email, role FROM users WHERE is_admin = 1 ORDER BY created_at, id")
            .fetch_all(&db.pool)
            .await?;
    rows.iter()
        .map(|row| {
            Ok(Administrator {
                email: row.try_get("email")?,
                role: row.try_get("role")?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use sqlx::{migrate::Migrator, AnyPool};
    use std::borrow::Cow;

    /// The `0013_administrators` migration on an installation that already has accounts makes its
    /// oldest doctor account (not an older patient's) the administrator.
    #[tokio::test]
    async fn the_migration_makes_the_oldest_doctor_the_administrator() {
        sqlx::any::install_default_drivers();
        let dir = std::env::temp_dir().join(format!("cardio-admin-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}/cardio.db?mode=rwc", dir.display());
        let pool = AnyPool::connect(&url).await.unwrap();
        let all = sqlx::migrate!("./migrations/sqlite");
        let mut before = Migrator::new(std::path::Path::new("./migrations/sqlite"))
            .await
            .unwrap();
        before.migrations = Cow::Owned(
            all.migrations
                .iter()
                .filter(|m| m.version < 13)
                .cloned()
                .collect(),
        );
        before.run(&pool).await.unwrap();
        for (id, role, created_at) in [
            ("p", "user", 1),
            ("d2", "doctor", 3),
            ("d1", "doctor", 2),
            ("d0", "doctor", 2),
        ] {
            sqlx::query(
                "INSERT INTO users (id, email, password_hash, role, created_at, updated_at) \
                 VALUES ($1, $1 || '@x.test', 'h', $2, $3, $3)",
            )
            .bind(id)
            .bind(role)
            .bind(created_at)
            .execute(&pool)
            .await
            .unwrap();
        }

        all.run(&pool).await.unwrap();

        let admins: Vec<String> = sqlx::query_scalar("SELECT id FROM users WHERE is_admin = 1")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(admins, vec!["d0".to_owned()]);
        pool.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
