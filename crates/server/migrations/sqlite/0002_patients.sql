-- Patients, their clinical parameters, screening sessions and the audit trail.
-- Every row that holds patient data carries doctor_id, and every query filters on it.

CREATE TABLE patients (
    id                  TEXT PRIMARY KEY NOT NULL,
    doctor_id           TEXT NOT NULL REFERENCES users (id),
    first_name          TEXT NOT NULL,
    last_name           TEXT NOT NULL,
    -- ISO date (YYYY-MM-DD): a calendar date, no time zone.
    date_of_birth       TEXT NOT NULL,
    gender              TEXT NOT NULL CHECK (gender IN ('male', 'female', 'other')),
    phone               TEXT NOT NULL,
    -- Optional fields are NULL unless filled (the prototype stored only filled fields).
    email               TEXT,
    address             TEXT,
    city                TEXT,
    state               TEXT,
    zip_code            TEXT,
    medical_history     TEXT,
    current_medications TEXT,
    allergies           TEXT,
    emergency_contact   TEXT,
    emergency_phone     TEXT,
    status              TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
    -- Lower-cased "first last", phone and email, computed in Rust (full Unicode case folding, which
    -- SQLite's lower() lacks), so search is one LIKE that behaves the same on both backends.
    search_text         TEXT NOT NULL,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL,
    last_visit          BIGINT NOT NULL
);
CREATE INDEX patients_doctor_created ON patients (doctor_id, created_at);

-- Clinical parameters (spec section 3); each entry is kept, so a patient has a history.
CREATE TABLE clinical_records (
    id                            TEXT PRIMARY KEY NOT NULL,
    patient_id                    TEXT NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
    doctor_id                     TEXT NOT NULL REFERENCES users (id),
    age                           BIGINT NOT NULL,
    chest_pain_type               BIGINT NOT NULL,
    cholesterol                   DOUBLE PRECISION NOT NULL,
    fasting_blood_sugar           DOUBLE PRECISION NOT NULL,
    exercise_induced_angina       BIGINT NOT NULL,
    -- The prototype's spelling ("flourosopy") is the API contract; the column follows it.
    vessels_colored_by_flourosopy BIGINT NOT NULL,
    thalassemia                   BIGINT NOT NULL,
    created_at                    BIGINT NOT NULL
);
CREATE INDEX clinical_records_patient ON clinical_records (patient_id, created_at);

-- A screening session: kept on the server so that a reload or another device continues it.
CREATE TABLE screenings (
    id                 TEXT PRIMARY KEY NOT NULL,
    patient_id         TEXT NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
    doctor_id          TEXT NOT NULL REFERENCES users (id),
    status             TEXT NOT NULL DEFAULT 'draft',
    clinical_record_id TEXT REFERENCES clinical_records (id),
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL
);
CREATE INDEX screenings_patient ON screenings (patient_id, created_at);
CREATE INDEX screenings_doctor ON screenings (doctor_id, created_at);

-- Who did what to which patient's data, when, from where. Written in the same transaction as the
-- change or read it records; never updated or deleted by the application.
CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     TEXT NOT NULL REFERENCES users (id),
    action      TEXT NOT NULL,
    entity      TEXT NOT NULL,
    entity_id   TEXT NOT NULL,
    patient_id  TEXT,
    client_addr TEXT NOT NULL,
    at          BIGINT NOT NULL
);
CREATE INDEX audit_log_user_at ON audit_log (user_id, at);
