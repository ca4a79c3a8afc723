-- Results shared with the patient (issue 8, the `user` role of spec §6): a doctor invites the email
-- of one of their patient records; the account with that email accepts and from then on sees what
-- is shared (reviewed results only, unless the doctor shares every result) until the doctor
-- revokes. A share is never deleted: a revoked one stays as the record of what was shared when.
CREATE TABLE patient_shares (
    id           TEXT PRIMARY KEY NOT NULL,
    patient_id   TEXT NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
    doctor_id    TEXT NOT NULL REFERENCES users (id),
    -- Lower-cased; only an account with this email can accept.
    email        TEXT NOT NULL,
    -- The accepting account, once accepted.
    user_id      TEXT REFERENCES users (id),
    status       TEXT NOT NULL CHECK (status IN ('invited', 'active', 'revoked')),
    -- 0: reviewed results only (the default); 1: every result.
    share_all    BIGINT NOT NULL DEFAULT 0 CHECK (share_all IN (0, 1)),
    created_at   BIGINT NOT NULL,
    accepted_at  BIGINT,
    revoked_at   BIGINT
);
CREATE INDEX patient_shares_patient ON patient_shares (patient_id, created_at);
CREATE INDEX patient_shares_email ON patient_shares (email, status);
CREATE INDEX patient_shares_user ON patient_shares (user_id, status);
