-- Schema version 10: forgetting people and servers (match.Privacy).
--
-- A user who withdraws nimbot from their account (Discord's
-- APPLICATION_DEAUTHORIZED event) is forgotten after a grace period, unless
-- they authorize it again first: forget_requests holds those waiting. A
-- sweep for servers gone quiet runs once a day across every process: sweeps
-- holds when it is next due, and the process that moves that time forward
-- runs it.
--
-- A forgotten user's seat in a finished game with another person becomes
-- 'deleted' (match.Tombstone), moves included: moves_append_only now lets
-- that one rewrite through, and nothing else.

-- +goose Up
CREATE TABLE forget_requests (
    user_id  TEXT    NOT NULL PRIMARY KEY,
    due_at   INTEGER NOT NULL    -- ms since the Unix epoch: forget at or after it
) WITHOUT ROWID;

CREATE INDEX forget_requests_due ON forget_requests (due_at);

CREATE TABLE sweeps (
    name     TEXT    NOT NULL PRIMARY KEY,
    next_at  INTEGER NOT NULL    -- ms since the Unix epoch: the next run is due then
) WITHOUT ROWID;

-- Game ids are never reused, so a board's buttons can never name another
-- game: SQLite would hand a deleted largest id out again (the largest plus
-- one), so forgetting notes the largest id it saw here first, and Open
-- reads it with the games' own largest.
CREATE TABLE game_ids (
    id      INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    largest INTEGER NOT NULL
);

DROP TRIGGER moves_append_only;

-- +goose StatementBegin
CREATE TRIGGER moves_append_only
BEFORE UPDATE ON moves
WHEN NOT (NEW.player = 'deleted' AND NEW.game_id = OLD.game_id AND NEW.ply = OLD.ply
          AND NEW.move = OLD.move AND NEW.hinted = OLD.hinted AND NEW.at = OLD.at)
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER moves_append_only;

-- +goose StatementBegin
CREATE TRIGGER moves_append_only
BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;
-- +goose StatementEnd

DROP TABLE game_ids;
DROP TABLE sweeps;
DROP TABLE forget_requests;
