-- Schema version 20: puzzles — attempts, and the ratings of players and
-- puzzles (Glicko-2: rating, deviation, volatility).
--
-- An attempt and both rating updates are written in one transaction.
-- Puzzles themselves are not stored: an id names the puzzle the engine
-- draws from it (engine.NewPuzzle); a puzzle gets a row at its first
-- attempt. Every column that holds a user is called user_id, so deleting a
-- user's data finds them all.

-- +goose Up

-- One row per user who attempted a puzzle: the rating is everyone's, not
-- a server's (a puzzle is the same everywhere).
CREATE TABLE puzzle_players (
    user_id      TEXT    NOT NULL PRIMARY KEY,
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    attempted    INTEGER NOT NULL DEFAULT 0 CHECK (attempted >= 0),
    solved       INTEGER NOT NULL DEFAULT 0 CHECK (solved >= 0 AND solved <= attempted),
    best_streak  INTEGER NOT NULL DEFAULT 0 CHECK (best_streak >= 0),
    updated_at   INTEGER NOT NULL
) WITHOUT ROWID;

-- One row per puzzle attempted at least once.
CREATE TABLE puzzle_ratings (
    puzzle_id    TEXT    NOT NULL PRIMARY KEY,     -- engine.PuzzleID: theme.level.seed
    theme        TEXT    NOT NULL,
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    solves       INTEGER NOT NULL DEFAULT 0 CHECK (solves >= 0 AND solves <= attempts),
    updated_at   INTEGER NOT NULL
) WITHOUT ROWID;

-- One row per attempt, keyed by the attempt, so a double click counts once.
-- The ratings before and after are the outcome shown again to a repeat.
CREATE TABLE puzzle_attempts (
    attempt_key   TEXT    NOT NULL PRIMARY KEY,
    user_id       TEXT    NOT NULL,
    scope         TEXT    NOT NULL,               -- match.Scope: a server, or "dm:" and a channel
    puzzle_id     TEXT    NOT NULL,
    solved        INTEGER NOT NULL CHECK (solved IN (0, 1)),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    player_before REAL    NOT NULL,
    player_after  REAL    NOT NULL,
    puzzle_before REAL    NOT NULL,
    puzzle_after  REAL    NOT NULL,
    at            INTEGER NOT NULL
);

-- Whether a user tried a puzzle before (only the first attempt is rated;
-- the next puzzle is one not seen).
CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, puzzle_id);

-- Who appears on a scope's puzzle board: users who attempted a puzzle there.
CREATE TABLE puzzle_members (
    scope        TEXT    NOT NULL,
    user_id      TEXT    NOT NULL,
    PRIMARY KEY (scope, user_id)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE puzzle_members;
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;
DROP TABLE puzzle_players;
