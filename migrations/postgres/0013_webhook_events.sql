-- Schema version 13: webhook events apply in the order Discord sent them,
-- as in the SQLite schema's 0013_webhook_events.sql: a row of
-- forget_requests is the latest APPLICATION_(DE)AUTHORIZED event applied
-- for its user, at event_at (the event's own timestamp, ms): a
-- deauthorization with its due time, or an authorization with none.

-- +goose Up
ALTER TABLE forget_requests ALTER COLUMN due_at DROP NOT NULL;
ALTER TABLE forget_requests ADD COLUMN event_at bigint NOT NULL DEFAULT 0;

-- +goose Down
DELETE FROM forget_requests WHERE due_at IS NULL;
ALTER TABLE forget_requests DROP COLUMN event_at;
ALTER TABLE forget_requests ALTER COLUMN due_at SET NOT NULL;
