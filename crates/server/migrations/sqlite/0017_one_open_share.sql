-- At most one open (invited or active) share per patient record (issue 37 §3): two invitations
-- sent at once left two, and a revoke racing an accept left an active share with revoked_at set.
-- Such rows are settled first: a share whose revocation was answered is revoked, and of several
-- open shares of one record only the newest stays open.
UPDATE patient_shares SET status = 'revoked' WHERE status = 'active' AND revoked_at IS NOT NULL;
UPDATE patient_shares SET status = 'revoked', revoked_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000
WHERE status <> 'revoked' AND EXISTS (
    SELECT 1 FROM patient_shares newer
    WHERE newer.patient_id = patient_shares.patient_id AND newer.status <> 'revoked'
      AND (newer.created_at > patient_shares.created_at
           OR (newer.created_at = patient_shares.created_at AND newer.id > patient_shares.id))
);
CREATE UNIQUE INDEX patient_shares_one_open ON patient_shares (patient_id) WHERE status <> 'revoked';
