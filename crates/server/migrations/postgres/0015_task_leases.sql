-- Task leases (issue 23 part 2): work that must run once however many server instances share the
-- database (the daily backup, the orphan sweep) is done by the instance holding the task's lease.
-- An instance takes or renews a lease with one upsert that succeeds only when the lease is free,
-- expired, or already its own; a crashed holder's lease lapses at `expires_at` (ms).
CREATE TABLE task_leases (
    task       TEXT PRIMARY KEY NOT NULL,
    holder     TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
