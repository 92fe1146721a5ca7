-- Schema version 2 for PostgreSQL: results and statistics, mirroring
-- ../0002_stats.sql (SQLite); read that file for what each column means.

-- +goose Up

CREATE TABLE results (
    game_id      bigint  NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id     text    NOT NULL DEFAULT '',
    variant      text    NOT NULL,
    status       text    NOT NULL,
    winner       text    NOT NULL DEFAULT '',
    loser        text    NOT NULL DEFAULT '',
    difficulty   text    NOT NULL DEFAULT '',
    plies        integer NOT NULL,
    rating_delta integer NOT NULL DEFAULT 0,
    finished_at  bigint  NOT NULL
);

CREATE INDEX results_by_winner ON results (guild_id, winner);
CREATE INDEX results_by_loser  ON results (guild_id, loser);

CREATE TABLE stats (
    guild_id     text    NOT NULL,
    user_id      text    NOT NULL,
    variant      text    NOT NULL,
    wins         integer NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses       integer NOT NULL DEFAULT 0 CHECK (losses >= 0),
    streak       integer NOT NULL DEFAULT 0 CHECK (streak >= 0),
    best_streak  integer NOT NULL DEFAULT 0 CHECK (best_streak >= streak),
    rating       integer NOT NULL DEFAULT 1200,
    rated_games  integer NOT NULL DEFAULT 0 CHECK (rated_games >= 0),
    updated_at   bigint  NOT NULL,
    PRIMARY KEY (guild_id, user_id, variant)
);

CREATE INDEX stats_leaderboard ON stats (guild_id, variant, rating DESC, wins DESC);

CREATE TABLE bot_record (
    guild_id     text    NOT NULL,
    user_id      text    NOT NULL,
    variant      text    NOT NULL,
    difficulty   text    NOT NULL,
    wins         integer NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses       integer NOT NULL DEFAULT 0 CHECK (losses >= 0),
    PRIMARY KEY (guild_id, user_id, variant, difficulty)
);

-- +goose Down
DROP TABLE bot_record;
DROP TABLE stats;
DROP TABLE results;
