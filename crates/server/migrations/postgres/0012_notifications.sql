-- In-app notifications (issue 9, Settings' notification toggles): the notifications themselves are
-- derived from stored data (results awaiting review, a patient viewing shared results, device
-- warnings); only the moment each user last marked them read is kept.
CREATE TABLE notification_marks (
    user_id  TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seen_at  BIGINT NOT NULL
);
