//! Leases on tasks that must run on one instance at a time (the daily backup, the orphan sweep),
//! held in the database every instance shares. Taking a lease is one upsert that writes only when
//! the lease is free, expired, or already held by the caller, so two instances never both hold
//! it; a holder that dies loses it when it expires. Works the same on SQLite and PostgreSQL.

use crate::platform::db::Db;

/// Takes or renews the lease on `task` for `holder` until `now_ms + ttl_ms`; `true` when the
/// caller now holds it, `false` when another live holder does.
///
/// # Errors
/// A database error.
pub async fn try_acquire(
    db: &Db,
    task: &str,
    holder: &str,
    now_ms: i64,
    ttl_ms: i64,
) -> Result<bool, sqlx::Error> {
    let taken = sqlx::query(
        "INSERT INTO task_leases (task, holder, expires_at) VALUES ($1, $2, $3) \
         ON CONFLICT (task) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at \
         WHERE task_leases.holder = excluded.holder OR task_leases.expires_at <= $4",
    )
    .bind(task)
    .bind(holder)
    .bind(now_ms + ttl_ms)
    .bind(now_ms)
    .execute(&db.pool)
    .await?;
    Ok(taken.rows_affected() == 1)
}

/// Gives the lease on `task` up, if `holder` has it (another instance may take it at once).
///
/// # Errors
/// A database error.
pub async fn release(db: &Db, task: &str, holder: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM task_leases WHERE task = $1 AND holder = $2")
        .bind(task)
        .bind(holder)
        .execute(&db.pool)
        .await?;
    Ok(())
}
