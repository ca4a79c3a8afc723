-- A doctor's sign-off of an analysis or a screening: agreed or disagreed with the model's finding,
-- with a comment. Rows are never updated: a new review supersedes the previous one, which stays as
-- history (the current review of a target is its newest row).
CREATE TABLE reviews (
    id           TEXT PRIMARY KEY NOT NULL,
    reviewer_id  TEXT NOT NULL REFERENCES users (id),
    target_type  TEXT NOT NULL CHECK (target_type IN ('analysis', 'screening')),
    target_id    TEXT NOT NULL,
    agreement    TEXT NOT NULL CHECK (agreement IN ('agree', 'disagree')),
    comment      TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL
);
CREATE INDEX reviews_target ON reviews (target_type, target_id, created_at);
