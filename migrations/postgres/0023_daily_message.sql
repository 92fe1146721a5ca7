-- Schema version 23 for PostgreSQL: the daily post's running count,
-- mirroring ../0023_daily_message.sql (SQLite); read that file for what
-- each column means.

-- +goose Up
ALTER TABLE daily_channels ADD COLUMN message_id text NOT NULL DEFAULT '';
ALTER TABLE daily_channels ADD COLUMN shown bigint NOT NULL DEFAULT 0;
ALTER TABLE daily_channels ADD COLUMN edit_at bigint NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE daily_channels DROP COLUMN edit_at;
ALTER TABLE daily_channels DROP COLUMN shown;
ALTER TABLE daily_channels DROP COLUMN message_id;
