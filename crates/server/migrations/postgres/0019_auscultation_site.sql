-- Where on the chest a heart-sound recording was taken (issue 42): one of the four valve areas of
-- the auscultation protocol, AV, PV, TV or MV; NULL for a recording without a site (every other
-- modality, and heart sounds uploaded before sites were recorded).
ALTER TABLE analyses ADD COLUMN site TEXT CHECK (site IN ('AV', 'PV', 'TV', 'MV'));
