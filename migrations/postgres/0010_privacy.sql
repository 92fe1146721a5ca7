-- Schema version 10: forgetting people and servers (match.Privacy), as in
-- the SQLite schema's 0010_privacy.sql.
--
-- forget_requests: users to forget once their grace period after Discord's
-- APPLICATION_DEAUTHORIZED ends (an instance takes one with FOR UPDATE SKIP
-- LOCKED and deletes it in the transaction that forgets the user). sweeps:
-- when a periodic sweep (servers gone quiet) is next due; the instance whose
-- update moves it forward runs it. moves_append_only lets one rewrite
-- through: a forgotten user's seat becoming 'deleted' (match.Tombstone).

-- +goose Up
CREATE TABLE forget_requests (
    user_id  text   NOT NULL PRIMARY KEY,
    due_at   bigint NOT NULL
);

CREATE INDEX forget_requests_due ON forget_requests (due_at);

CREATE TABLE sweeps (
    name     text   NOT NULL PRIMARY KEY,
    next_at  bigint NOT NULL
);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.player = 'deleted' AND NEW.game_id = OLD.game_id AND NEW.ply = OLD.ply
       AND NEW.move = OLD.move AND NEW.hinted = OLD.hinted AND NEW.at = OLD.at THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'moves are append-only' USING ERRCODE = 'check_violation';
END;
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'moves are append-only' USING ERRCODE = 'check_violation';
END;
$$;
-- +goose StatementEnd

DROP TABLE sweeps;
DROP TABLE forget_requests;
