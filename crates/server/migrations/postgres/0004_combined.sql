-- The combined result of a screening (all modalities), kept with the screening once computed.
ALTER TABLE screenings ADD COLUMN combined_json TEXT;
