-- Schema version 21: channels subscribed to the daily puzzle.
--
-- One row per channel. last_day is the UTC day (days since 1970-01-01)
-- whose puzzle was last posted there; claimed_until is a lease an instance
-- takes before posting, so only one instance posts at a time, and a crash
-- mid-post frees the channel once it passes (the post carries a nonce
-- Discord enforces, so a second try after a crash posts nothing twice).
-- Days missed while nimbot was down are not posted: only the current day
-- is ever due.

-- +goose Up
CREATE TABLE daily_channels (
    channel_id     TEXT    NOT NULL PRIMARY KEY,
    guild_id       TEXT    NOT NULL,
    user_id        TEXT    NOT NULL,               -- who subscribed it
    locale         TEXT    NOT NULL DEFAULT '',    -- the posts' language: the subscriber's
    last_day       INTEGER NOT NULL DEFAULT 0,
    claimed_until  INTEGER NOT NULL DEFAULT 0,     -- Unix milliseconds; 0 unclaimed
    subscribed_at  INTEGER NOT NULL
) WITHOUT ROWID;

-- The scheduler's query: channels not yet posted today.
CREATE INDEX daily_channels_due ON daily_channels (last_day);

-- +goose Down
DROP TABLE daily_channels;
