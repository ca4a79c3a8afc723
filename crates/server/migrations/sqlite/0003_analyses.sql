-- Every prediction (clinical, ECG, PCG, PPG) kept per doctor, with the model that made it and,
-- for recordings, the SHA-256 of the stored file (the blob store under the data folder).

CREATE TABLE analyses (
    id            TEXT PRIMARY KEY NOT NULL,
    user_id       TEXT NOT NULL REFERENCES users (id),
    patient_id    TEXT REFERENCES patients (id) ON DELETE CASCADE,
    screening_id  TEXT REFERENCES screenings (id) ON DELETE CASCADE,
    modality      TEXT NOT NULL CHECK (modality IN ('clinical', 'ecg', 'pcg', 'ppg')),
    file_name     TEXT,
    file_sha256   TEXT,
    file_size     BIGINT,
    label         TEXT NOT NULL,
    prediction    TEXT NOT NULL,
    confidence    REAL NOT NULL,
    risk_score    REAL NOT NULL,
    -- The whole result as the API returned it (recommendations, details), JSON text.
    result_json   TEXT NOT NULL,
    model_id      TEXT NOT NULL,
    model_version TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX analyses_user_created ON analyses (user_id, created_at);
CREATE INDEX analyses_patient ON analyses (patient_id, created_at);
