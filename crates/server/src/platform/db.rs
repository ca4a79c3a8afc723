//! The database: one connection pool and one store code path for SQLite and PostgreSQL.
//!
//! Queries are written once, at run time, against sqlx's `Any` driver with `$1`-style placeholders
//! (which SQLite also understands). Timestamps are stored as BIGINT milliseconds since the Unix
//! epoch, identifiers as TEXT UUIDs, so the same SQL and the same decoding work on both backends.
//! Each backend has its own migrations folder with the same numbers; they run at start.

use std::{path::Path, str::FromStr, time::Duration};

use sqlx::{
    any::{AnyPoolOptions, AnyRow},
    AnyPool, Executor,
};

/// Which database engine a URL points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite file (the default).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

impl Backend {
    /// The backend a database URL names.
    ///
    /// # Errors
    /// [`DbError::UnsupportedUrl`] for any scheme other than `sqlite:` and `postgres(ql):`.
    pub fn from_url(url: &str) -> Result<Self, DbError> {
        if url.starts_with("sqlite:") {
            Ok(Self::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres)
        } else {
            Err(DbError::UnsupportedUrl)
        }
    }

    /// Short name, as the health check reports it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres => "postgres",
        }
    }
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The URL is neither `sqlite:` nor `postgres:`.
    #[error("DATABASE_URL must start with sqlite: or postgres://")]
    UnsupportedUrl,
    /// The folder for the SQLite file could not be created.
    #[error("cannot create the database folder: {0}")]
    CreateDir(#[from] std::io::Error),
    /// Connecting failed.
    #[error("cannot connect to the database: {0}")]
    Connect(#[source] sqlx::Error),
    /// A migration failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// The shared connection pools and the backend behind them.
#[derive(Clone, Debug)]
pub struct Db {
    /// The pool every read borrows a connection from.
    pub pool: AnyPool,
    /// The pool every write goes through: [`Db::begin`] and the single-statement writes. On
    /// SQLite it holds **one** connection. SQLite lets one connection write at a time; with
    /// several writing connections the losers wait in SQLite's busy handler, which sleeps in
    /// growing steps (up to 100 ms) and gave a p99 of 150-170 ms and single requests of 0.4-1.1 s
    /// at 50 concurrent uploads, while writers queued on one connection wait in the pool's fair
    /// queue and run back to back. On PostgreSQL (and for an in-memory SQLite database) it is the
    /// same pool as [`Db::pool`].
    pub writer: AnyPool,
    /// Which engine the pool talks to.
    pub backend: Backend,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Db {
    /// Begins a transaction that may write. On SQLite it takes the write lock at once (`BEGIN
    /// IMMEDIATE`): a deferred transaction that reads and then writes fails at once with
    /// `SQLITE_BUSY_SNAPSHOT` when another connection wrote in between (two audited reads of the
    /// same page at the same time did), while an immediate one waits for the busy timeout. On
    /// PostgreSQL a plain `BEGIN`.
    ///
    /// # Errors
    /// A database error.
    pub async fn begin(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.writer.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.writer.begin().await,
        }
    }

    /// Opens the database at `url` (creating a SQLite file and its folder if needed) and runs the
    /// migrations.
    ///
    /// # Errors
    /// See [`DbError`].
    pub async fn connect(url: &str) -> Result<Self, DbError> {
        sqlx::any::install_default_drivers();
        let backend = Backend::from_url(url)?;
        let url = match backend {
            Backend::Sqlite => prepare_sqlite_url(url)?,
            Backend::Postgres => url.to_owned(),
        };
        let options = sqlx::any::AnyConnectOptions::from_str(&url).map_err(DbError::Connect)?;
        let pool = Self::pool_options(backend, if backend == Backend::Sqlite { 8 } else { 16 })
            .connect_with(options.clone())
            .await
            .map_err(DbError::Connect)?;
        // An in-memory SQLite database exists once per connection: there is nothing to share.
        let writer = if backend == Backend::Sqlite && !url.contains(":memory:") {
            Self::pool_options(backend, 1)
                .connect_with(options)
                .await
                .map_err(DbError::Connect)?
        } else {
            pool.clone()
        };
        let migrator = match backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&writer).await?;
        Ok(Self {
            pool,
            writer,
            backend,
        })
    }

    fn pool_options(backend: Backend, max_connections: u32) -> AnyPoolOptions {
        AnyPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers and one writer work at once; foreign keys are off by
                        // default in SQLite; wait for a busy writer instead of failing at once.
                        conn.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;")
                            .await?;
                    }
                    Ok(())
                })
            })
    }

    /// Checks that the database answers.
    ///
    /// # Errors
    /// The driver's error when it does not.
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        let _: AnyRow = sqlx::query("SELECT 1").fetch_one(&self.pool).await?;
        Ok(())
    }
}

/// Makes sure the SQLite file can be created: creates its folder and asks for `mode=rwc`.
fn prepare_sqlite_url(url: &str) -> Result<String, DbError> {
    let path_part = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let path = path_part.split('?').next().unwrap_or_default();
    if !path.is_empty() && path != ":memory:" {
        if let Some(parent) = Path::new(path).parent() {
            if !parent.as_os_str().is_empty() {
                std::fs::create_dir_all(parent)?;
            }
        }
    }
    if url.contains("mode=") {
        Ok(url.to_owned())
    } else if url.contains('?') {
        Ok(format!("{url}&mode=rwc"))
    } else {
        Ok(format!("{url}?mode=rwc"))
    }
}

/// Milliseconds since the Unix epoch, the unit of every stored timestamp.
pub fn now_ms() -> i64 {
    let now = time::OffsetDateTime::now_utc();
    (now.unix_timestamp_nanos() / 1_000_000) as i64
}

/// Formats a stored timestamp (milliseconds since the epoch) as RFC 3339 in UTC with exactly three
/// fractional digits, so that the strings sort like the instants they name.
pub fn ms_to_rfc3339(ms: i64) -> String {
    let nanos = i128::from(ms) * 1_000_000;
    let format = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|t| t.format(&format).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_backends_from_urls() {
        assert_eq!(
            Backend::from_url("sqlite://./x.db").unwrap(),
            Backend::Sqlite
        );
        assert_eq!(
            Backend::from_url("sqlite::memory:").unwrap(),
            Backend::Sqlite
        );
        assert_eq!(
            Backend::from_url("postgres://h/db").unwrap(),
            Backend::Postgres
        );
        assert_eq!(
            Backend::from_url("postgresql://h/db").unwrap(),
            Backend::Postgres
        );
        assert!(Backend::from_url("mysql://h/db").is_err());
    }

    #[test]
    fn asks_sqlite_to_create_the_file() {
        let dir = std::env::temp_dir().join(format!("cardio-db-{}", uuid::Uuid::new_v4()));
        let url = format!("sqlite://{}/sub/c.db", dir.display());
        let prepared = prepare_sqlite_url(&url).unwrap();
        assert!(prepared.ends_with("?mode=rwc"));
        assert!(dir.join("sub").is_dir());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn formats_timestamps_as_rfc3339() {
        assert_eq!(ms_to_rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(ms_to_rfc3339(1_500), "1970-01-01T00:00:01.500Z");
        assert!(
            ms_to_rfc3339(1_100) < ms_to_rfc3339(1_105),
            "sorts like the instants"
        );
    }
}
