-- Attempt counters (issue 17 part 3): limits that hold under bursts. A sign-in reserves its attempt
-- here *before* the password is hashed, with one upsert that increments and returns the count, so
-- forty parallel wrong passwords cannot all reach Argon2 between a read and a write: the sixth is
-- refused. The upsert locks the row on PostgreSQL and runs on the one writing connection on
-- SQLite, so it holds across server instances sharing the database.
-- `counter_key` names what is counted: `account:<email>`, `reset:<email>`, `signup:<address>`.
-- A fixed window opens with the first attempt and resets once it is `window_ms` old.
CREATE TABLE attempt_counters (
    counter_key  TEXT PRIMARY KEY NOT NULL,
    window_start BIGINT NOT NULL,
    attempts     BIGINT NOT NULL
);
CREATE INDEX attempt_counters_window ON attempt_counters (window_start);
