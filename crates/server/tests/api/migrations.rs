//! Migration parity: the SQLite and PostgreSQL migration trees have the same numbers and names,
//! and, once applied, the same tables with the same columns of corresponding types. The documented
//! differences: SQLite spells PostgreSQL's `double precision` as `REAL`, and an auto-increment key
//! is `INTEGER PRIMARY KEY AUTOINCREMENT` there (SQLite's 64-bit rowid) where PostgreSQL has a
//! `bigint` identity.

use std::collections::BTreeMap;

use cardio_server::platform::config::Config;
use sqlx::Row;

use crate::helpers::{Backend, TestApp};

fn migration_files(backend: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(backend);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn both_trees_have_the_same_numbered_migrations() {
    let sqlite = migration_files("sqlite");
    assert_eq!(sqlite, migration_files("postgres"));
    for (i, name) in sqlite.iter().enumerate() {
        assert!(name.starts_with(&format!("{:04}_", i + 1)), "{name}");
        assert!(
            std::path::Path::new(name)
                .extension()
                .is_some_and(|e| e == "sql"),
            "{name}"
        );
    }
}

/// Table -> column -> type, as the database reports them, types in PostgreSQL's words.
type Schema = BTreeMap<String, BTreeMap<String, String>>;

async fn schema(app: &TestApp) -> Schema {
    let sql = match app.backend {
        Backend::Sqlite => {
            "SELECT m.name AS t, p.name AS c, \
             CASE WHEN p.pk = 1 AND upper(p.type) = 'INTEGER' THEN 'bigint' ELSE p.type END AS ty \
             FROM sqlite_master m \
             JOIN pragma_table_info(m.name) p WHERE m.type = 'table' \
             AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'"
        }
        Backend::Postgres => {
            "SELECT table_name::text AS t, column_name::text AS c, data_type::text AS ty \
             FROM information_schema.columns WHERE table_schema = 'public' \
             AND table_name <> '_sqlx_migrations'"
        }
    };
    let rows = sqlx::query(sql).fetch_all(&app.db.pool).await.unwrap();
    let mut out = Schema::new();
    for row in rows {
        let ty: String = row.get("ty");
        let ty = match ty.to_ascii_lowercase().as_str() {
            "real" => "double precision".to_string(),
            other => other.to_string(),
        };
        out.entry(row.get("t"))
            .or_default()
            .insert(row.get("c"), ty);
    }
    out
}

#[tokio::test]
async fn both_backends_build_the_same_tables_and_columns() {
    let Some(sqlite) = TestApp::spawn(Backend::Sqlite, Config::default()).await else {
        unreachable!("SQLite needs no server")
    };
    let Some(postgres) = TestApp::spawn(Backend::Postgres, Config::default()).await else {
        return;
    };
    let (a, b) = (schema(&sqlite).await, schema(&postgres).await);
    sqlite.cleanup_handle().run().await;
    postgres.cleanup_handle().run().await;
    assert!(a.len() >= 14, "{a:?}");
    for table in a.keys().chain(b.keys()) {
        assert_eq!(a.get(table), b.get(table), "table {table}");
    }
}
