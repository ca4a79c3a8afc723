-- Every uploaded file of an analysis (a WFDB record is a header and its signal files), each stored
-- as its own blob: JSON list of {name, sha256, size}. NULL for clinical predictions.
ALTER TABLE analyses ADD COLUMN files_json TEXT;
