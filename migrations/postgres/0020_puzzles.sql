-- Schema version 20 for PostgreSQL: puzzles, mirroring ../0020_puzzles.sql
-- (SQLite); read that file for what each column means.

-- +goose Up

CREATE TABLE puzzle_players (
    user_id      text             NOT NULL PRIMARY KEY,
    rating       double precision NOT NULL,
    deviation    double precision NOT NULL,
    volatility   double precision NOT NULL,
    attempted    integer          NOT NULL DEFAULT 0 CHECK (attempted >= 0),
    solved       integer          NOT NULL DEFAULT 0 CHECK (solved >= 0 AND solved <= attempted),
    best_streak  integer          NOT NULL DEFAULT 0 CHECK (best_streak >= 0),
    updated_at   bigint           NOT NULL
);

CREATE TABLE puzzle_ratings (
    puzzle_id    text             NOT NULL PRIMARY KEY,
    theme        text             NOT NULL,
    rating       double precision NOT NULL,
    deviation    double precision NOT NULL,
    volatility   double precision NOT NULL,
    attempts     integer          NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    solves       integer          NOT NULL DEFAULT 0 CHECK (solves >= 0 AND solves <= attempts),
    updated_at   bigint           NOT NULL
);

CREATE TABLE puzzle_attempts (
    attempt_key   text             NOT NULL PRIMARY KEY,
    user_id       text             NOT NULL,
    scope         text             NOT NULL,
    puzzle_id     text             NOT NULL,
    solved        boolean          NOT NULL,
    rated         boolean          NOT NULL,
    player_before double precision NOT NULL,
    player_after  double precision NOT NULL,
    puzzle_before double precision NOT NULL,
    puzzle_after  double precision NOT NULL,
    at            bigint           NOT NULL
);

CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, puzzle_id);

CREATE TABLE puzzle_members (
    scope        text NOT NULL,
    user_id      text NOT NULL,
    PRIMARY KEY (scope, user_id)
);

-- +goose Down
DROP TABLE puzzle_members;
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;
DROP TABLE puzzle_players;
