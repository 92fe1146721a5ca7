-- Schema version 21 for PostgreSQL: channels subscribed to the daily
-- puzzle, mirroring ../0021_daily.sql (SQLite); read that file for what
-- each column means.

-- +goose Up
CREATE TABLE daily_channels (
    channel_id     text    NOT NULL PRIMARY KEY,
    guild_id       text    NOT NULL,
    user_id        text    NOT NULL,
    locale         text    NOT NULL DEFAULT '',
    last_day       bigint  NOT NULL DEFAULT 0,
    claimed_until  bigint  NOT NULL DEFAULT 0,
    subscribed_at  bigint  NOT NULL
);

CREATE INDEX daily_channels_due ON daily_channels (last_day);

-- +goose Down
DROP TABLE daily_channels;
