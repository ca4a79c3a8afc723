-- Network devices that push recordings, what they pushed, and each user's connection log.
-- (0008-0010 belong to other work; the numbers only have to be the same on both backends.)

-- A device of a doctor. Only the SHA-256 of its token is kept (the token is random and 256 bits,
-- so a plain hash is enough); rotating replaces the hash, revoking sets revoked_at and keeps the
-- row so that its recordings still name it.
CREATE TABLE devices (
    id            TEXT PRIMARY KEY NOT NULL,
    user_id       TEXT NOT NULL REFERENCES users (id),
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('ecg', 'pcg', 'ppg')),
    token_hash    TEXT NOT NULL UNIQUE,
    created_at    BIGINT NOT NULL,
    revoked_at    BIGINT,
    -- The last heartbeat or recording: online while it is recent.
    last_seen_at  BIGINT,
    last_addr     TEXT
);
CREATE INDEX devices_user ON devices (user_id, created_at);

-- A recording a device pushed: the analysis it became (file in the blob store, result, owner).
-- It stays in the doctor's inbox; attaching it to a screening sets the analysis' patient and
-- screening and attached_at here.
CREATE TABLE device_recordings (
    id           TEXT PRIMARY KEY NOT NULL,
    device_id    TEXT NOT NULL REFERENCES devices (id),
    user_id      TEXT NOT NULL REFERENCES users (id),
    analysis_id  TEXT NOT NULL REFERENCES analyses (id) ON DELETE CASCADE,
    file_name    TEXT NOT NULL,
    received_at  BIGINT NOT NULL,
    attached_at  BIGINT
);
CREATE INDEX device_recordings_user ON device_recordings (user_id, received_at);
CREATE INDEX device_recordings_device ON device_recordings (device_id, received_at);

-- The connection log: events of the user's serial ports (reported by the browser) and network
-- devices (written by the server). The sequence orders entries written in the same millisecond.
CREATE TABLE device_log (
    seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id),
    created_at  BIGINT NOT NULL,
    level       TEXT NOT NULL CHECK (level IN ('success', 'info', 'warning')),
    event       TEXT NOT NULL,
    device      TEXT NOT NULL DEFAULT '',
    detail      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX device_log_user ON device_log (user_id, seq);
