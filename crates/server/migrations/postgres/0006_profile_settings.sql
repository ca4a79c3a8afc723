-- Profile and settings (issue 9): whether the email is verified, and each user's preferences.

-- No verification flow exists yet, so every account starts unverified and the profile shows no
-- "Verified Account" badge. BIGINT 0/1 like every boolean (sqlx's Any driver cannot decode SQLite's
-- BOOLEAN).
ALTER TABLE users ADD COLUMN email_verified BIGINT NOT NULL DEFAULT 0 CHECK (email_verified IN (0, 1));

-- One row per user, written on the first save; until then the server answers the defaults (a missing
-- row is how "never saved" is told apart, so the browser keeps its own theme and language).
CREATE TABLE user_settings (
    user_id                TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    theme                  TEXT NOT NULL CHECK (theme IN ('light', 'dark', 'auto')),
    language               TEXT NOT NULL CHECK (language IN ('en', 'es', 'fr')),
    -- Notification toggles (spec §2 defaults: test results on, device alerts on, patient updates off).
    notify_test_results    BIGINT NOT NULL CHECK (notify_test_results IN (0, 1)),
    notify_device_alerts   BIGINT NOT NULL CHECK (notify_device_alerts IN (0, 1)),
    notify_patient_updates BIGINT NOT NULL CHECK (notify_patient_updates IN (0, 1)),
    -- Idle timeout of the user's sessions, enforced on every request: 15m, 30m, 1h or never (then
    -- only the absolute session lifetime applies).
    session_timeout        TEXT NOT NULL CHECK (session_timeout IN ('15m', '30m', '1h', 'never')),
    updated_at             BIGINT NOT NULL
);
