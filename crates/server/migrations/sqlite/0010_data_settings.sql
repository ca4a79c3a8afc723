-- Data & Storage (issue 9 parts 5 and 6): the server-wide settings of the one blob store and of the
-- automatic backups. Server-wide, not per user: there is one blob store and one backup schedule, so
-- a doctor's change applies to everyone (and is audited).

-- Exactly one row (id = 1), inserted here, so reads never have to tell "never saved" apart.
-- BIGINT 0/1 like every boolean (sqlx's Any driver cannot decode SQLite's BOOLEAN).
CREATE TABLE server_settings (
    id             BIGINT PRIMARY KEY NOT NULL CHECK (id = 1),
    -- New blobs are sealed with AES-256-GCM when 1; stored in clear when 0. Existing blobs keep
    -- whatever form they were written in and stay readable either way.
    encrypt_blobs  BIGINT NOT NULL DEFAULT 1 CHECK (encrypt_blobs IN (0, 1)),
    -- The daily SQLite backup (a no-op on PostgreSQL, whose backups are the operator's job). When
    -- the last backup was made is read from the backups folder, not stored here: a restored
    -- database would otherwise carry a stale time.
    auto_backup    BIGINT NOT NULL DEFAULT 1 CHECK (auto_backup IN (0, 1)),
    updated_at     BIGINT,
    -- Who changed them last; the audit trail has the full history.
    updated_by     TEXT REFERENCES users (id) ON DELETE SET NULL
);

INSERT INTO server_settings (id, encrypt_blobs, auto_backup) VALUES (1, 1, 1);
