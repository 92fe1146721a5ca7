-- Schema version 2: results and statistics.
--
-- Written in the same transaction as the move or action that finishes a game,
-- so a game is never finished without its result, nor counted twice.

-- +goose Up

-- One row per finished game, whatever the outcome.
CREATE TABLE results (
    game_id      INTEGER NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id     TEXT    NOT NULL DEFAULT '',
    variant      TEXT    NOT NULL,
    status       TEXT    NOT NULL,                -- the game's final status
    winner       TEXT    NOT NULL DEFAULT '',     -- '' when nobody won (ended, abandoned, declined, expired)
    loser        TEXT    NOT NULL DEFAULT '',
    difficulty   TEXT    NOT NULL DEFAULT '',     -- the bot's level when one player is the bot
    plies        INTEGER NOT NULL,                -- moves played
    -- Rating change of the winner (the loser's is its negative); 0 unless
    -- the game was rated (won, resigned or timed out between two people).
    rating_delta INTEGER NOT NULL DEFAULT 0,
    finished_at  INTEGER NOT NULL
);

CREATE INDEX results_by_winner ON results (guild_id, winner);
CREATE INDEX results_by_loser  ON results (guild_id, loser);

-- Running totals per user, guild and variant. variant '' holds the totals
-- over all variants (maintained alongside, not summed at read time, because
-- streaks and ratings cannot be summed). The bot gets no rows.
CREATE TABLE stats (
    guild_id     TEXT    NOT NULL,                -- '' for direct messages
    user_id      TEXT    NOT NULL,
    variant      TEXT    NOT NULL,                -- '' = all variants
    wins         INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),       -- against anyone, the bot included
    losses       INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    streak       INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0),     -- wins in a row up to now
    best_streak  INTEGER NOT NULL DEFAULT 0 CHECK (best_streak >= streak),
    -- Elo rating from games between people only (start 1200, K = 32): a
    -- win against the bot says nothing about one's standing among people.
    rating       INTEGER NOT NULL DEFAULT 1200,
    rated_games  INTEGER NOT NULL DEFAULT 0 CHECK (rated_games >= 0),
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, variant)
) WITHOUT ROWID;

-- The leaderboard's query: best ratings in a guild and variant.
CREATE INDEX stats_leaderboard ON stats (guild_id, variant, rating DESC, wins DESC);

-- A user's record against the bot, per difficulty (and per variant, '' = all).
CREATE TABLE bot_record (
    guild_id     TEXT    NOT NULL,
    user_id      TEXT    NOT NULL,
    variant      TEXT    NOT NULL,                -- '' = all variants
    difficulty   TEXT    NOT NULL,
    wins         INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses       INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    PRIMARY KEY (guild_id, user_id, variant, difficulty)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE bot_record;
DROP TABLE stats;
DROP TABLE results;
