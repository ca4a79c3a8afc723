-- The ECG interpretation a doctor confirms when signing off an ECG result (issue 40): a JSON array
-- of statements, each {"code": <the statements table's code> or null, "text": <its English text,
-- or the doctor's own words>}. NULL for every other review. Like every review, never updated: an
-- edit is a new review, and the history keeps each version.
ALTER TABLE reviews ADD COLUMN interpretation TEXT;
