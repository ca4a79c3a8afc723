-- The six optional UCI attributes of the clinical form (issue 21): sex, resting blood pressure,
-- resting ECG, maximal heart rate, ST depression and ST slope. NULL where not entered; entries made
-- before this migration have none.
ALTER TABLE clinical_records ADD COLUMN sex TEXT;
ALTER TABLE clinical_records ADD COLUMN resting_blood_pressure DOUBLE PRECISION;
ALTER TABLE clinical_records ADD COLUMN resting_ecg BIGINT;
ALTER TABLE clinical_records ADD COLUMN max_heart_rate DOUBLE PRECISION;
ALTER TABLE clinical_records ADD COLUMN st_depression DOUBLE PRECISION;
ALTER TABLE clinical_records ADD COLUMN st_slope BIGINT;
