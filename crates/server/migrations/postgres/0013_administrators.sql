-- Administrators (issue 17): server-wide settings (encryption at rest, backups, storage figures)
-- belong to administrators, not to every doctor. A flag on the account rather than a third role:
-- an administrator is still a doctor (or, on an installation whose first account was a patient's,
-- that account) and keeps every per-user behaviour of its role.
-- BIGINT 0/1 like every boolean (sqlx's Any driver cannot decode SQLite's BOOLEAN).
ALTER TABLE users ADD COLUMN is_admin BIGINT NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1));

-- An installation that already has accounts gets one administrator: its oldest doctor account
-- (ties broken by id, which is creation-ordered). Without a doctor account nobody is made one;
-- `cardio admin grant EMAIL` names one then.
UPDATE users SET is_admin = 1 WHERE id = (
    SELECT id FROM users WHERE role = 'doctor' ORDER BY created_at, id LIMIT 1
);
