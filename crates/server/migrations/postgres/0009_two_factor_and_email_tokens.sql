-- Two-factor sign-in (TOTP, RFC 6238), sign-in challenges between the password and the code, and the
-- single-use tokens of email verification and password reset (issue 9, parts 2 and 4).

-- One row per account that has started enrolling. The secret must be readable to check codes, so it
-- is stored as it is (hex of 20 random bytes), not hashed; it never leaves the server after setup.
-- `enabled` is 0 between setup and the first correct code (a new setup replaces the secret), 1 once
-- confirmed. `last_step` is the 30-second time step of the last accepted code: a code of that step or
-- an earlier one is refused, so an observed code cannot be replayed within its window.
CREATE TABLE user_totp (
    user_id    TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    secret_hex TEXT NOT NULL,
    enabled    BIGINT NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
    last_step  BIGINT,
    created_at BIGINT NOT NULL,
    enabled_at BIGINT
);

-- Ten one-time recovery codes per enrolment, SHA-256 hex of the normalised code (50 random bits
-- each, so a fast hash is enough). `used_at` set once a code has signed someone in.
CREATE TABLE totp_recovery_codes (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  TEXT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX totp_recovery_codes_user ON totp_recovery_codes (user_id);

-- A correct password of an account with two-factor sign-in gives a short-lived challenge instead of a
-- session; only its SHA-256 is stored, like session tokens. Deleted once the code step succeeds.
CREATE TABLE login_challenges (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- Email verification and password reset tokens. A token is `<selector>.<verifier>`: the selector
-- finds the row (and may appear in logs), only the SHA-256 of the verifier is stored. Single use
-- (`used_at`), expiring (`expires_at`, 24 h for verification, 1 h for a reset).
CREATE TABLE email_tokens (
    selector      TEXT PRIMARY KEY NOT NULL,
    verifier_hash TEXT NOT NULL,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose       TEXT NOT NULL CHECK (purpose IN ('verify_email', 'password_reset')),
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    used_at       BIGINT
);
CREATE INDEX email_tokens_user ON email_tokens (user_id);
