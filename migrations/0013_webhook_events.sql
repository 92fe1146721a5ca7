-- Schema version 13: webhook events apply in the order Discord sent them.
--
-- A row of forget_requests is now the latest APPLICATION_(DE)AUTHORIZED
-- event applied for its user, at event_at (the event's own timestamp, ms
-- since the Unix epoch): a deauthorization with the time the user is due
-- to be forgotten, or an authorization with none (due_at NULL), kept a day
-- so that a retried deauthorization older than it, arriving after it,
-- schedules nothing. An event older than the row's changes nothing.

-- +goose Up
CREATE TABLE forget_requests_new (
    user_id  TEXT    NOT NULL PRIMARY KEY,
    due_at   INTEGER,                    -- ms: forget at or after it; NULL: authorized
    event_at INTEGER NOT NULL DEFAULT 0  -- ms: Discord's time of the event
) WITHOUT ROWID;
INSERT INTO forget_requests_new (user_id, due_at) SELECT user_id, due_at FROM forget_requests;
DROP TABLE forget_requests;
ALTER TABLE forget_requests_new RENAME TO forget_requests;
CREATE INDEX forget_requests_due ON forget_requests (due_at);

-- +goose Down
CREATE TABLE forget_requests_old (
    user_id  TEXT    NOT NULL PRIMARY KEY,
    due_at   INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO forget_requests_old (user_id, due_at) SELECT user_id, due_at FROM forget_requests WHERE due_at IS NOT NULL;
DROP TABLE forget_requests;
ALTER TABLE forget_requests_old RENAME TO forget_requests;
CREATE INDEX forget_requests_due ON forget_requests (due_at);
