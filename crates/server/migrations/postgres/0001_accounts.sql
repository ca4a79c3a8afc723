-- Accounts, sessions and failed sign-in attempts.
-- Timestamps are BIGINT milliseconds since the Unix epoch and ids are TEXT UUIDs, the same on SQLite
-- and PostgreSQL, so one store code path (sqlx Any) reads both.

CREATE TABLE users (
    id            TEXT PRIMARY KEY NOT NULL,
    -- Stored lower-cased and trimmed: emails compare case-insensitively.
    email         TEXT NOT NULL UNIQUE,
    display_name  TEXT NOT NULL DEFAULT '',
    -- Argon2id PHC string; never leaves the server, never logged.
    password_hash TEXT NOT NULL,
    -- The role chosen at signup is kept (the prototype stored 'doctor' for everyone).
    role          TEXT NOT NULL CHECK (role IN ('doctor', 'user')),
    -- 1 active, 0 disabled. Booleans are BIGINT 0/1 on both backends: sqlx's Any driver cannot
    -- decode SQLite's BOOLEAN, and one decoding path is worth more than a native type.
    is_active     BIGINT NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    last_login_at BIGINT
);

CREATE TABLE sessions (
    -- SHA-256 of the cookie's token, hex: a stolen database does not yield usable cookies.
    token_hash   TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);
CREATE INDEX sessions_user_id ON sessions (user_id);

-- One row per failed sign-in; rate limiting counts recent rows per account and per client address.
-- Kept in the database, not in memory, so several server instances share the count.
CREATE TABLE login_failures (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email       TEXT NOT NULL,
    client_addr TEXT NOT NULL,
    at          BIGINT NOT NULL
);
CREATE INDEX login_failures_email_at ON login_failures (email, at);
CREATE INDEX login_failures_client_at ON login_failures (client_addr, at);
