-- Schema version 23: the daily post's running count of solves.
--
-- message_id is the day's post in the channel ('' until posted, or once
-- it can no longer be edited); shown is the count of today's solves it
-- shows; edit_at (Unix milliseconds) is when the post may next be edited:
-- the instance that claims an edit moves it forward in the same
-- statement, so one instance edits and at most once per interval. All
-- on the channel's one row, so nothing grows.

-- +goose Up
ALTER TABLE daily_channels ADD COLUMN message_id TEXT NOT NULL DEFAULT '';
ALTER TABLE daily_channels ADD COLUMN shown INTEGER NOT NULL DEFAULT 0;
ALTER TABLE daily_channels ADD COLUMN edit_at INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE daily_channels DROP COLUMN edit_at;
ALTER TABLE daily_channels DROP COLUMN shown;
ALTER TABLE daily_channels DROP COLUMN message_id;
