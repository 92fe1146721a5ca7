-- Schema version 1 for PostgreSQL: games, their moves, hints asked, and
-- processed interactions. It mirrors ../0001_games.sql (SQLite) table for
-- table and rule for rule; read that file for what each column means.
--
-- Conventions:
--   * Times are bigint milliseconds since the Unix epoch (UTC), as in the
--     SQLite schema, so both stores round-trip times identically;
--     to_timestamp(x / 1000.0) shows them.
--   * Discord ids (snowflakes) are text; the bot itself plays as 'bot'.
--   * Engine values are jsonb, which also checks they are JSON.

-- +goose Up

CREATE TABLE games (
    id            bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id      text    NOT NULL DEFAULT '',
    channel_id    text    NOT NULL,
    variant       text    NOT NULL,
    misere        boolean NOT NULL DEFAULT false,
    rules         jsonb   NOT NULL,
    start         jsonb   NOT NULL,
    position      jsonb   NOT NULL,
    player0       text    NOT NULL DEFAULT '',
    player1       text    NOT NULL DEFAULT '',
    -- The number of moves played; only the trigger on moves advances it.
    ply           integer NOT NULL DEFAULT 0 CHECK (ply >= 0),
    status        text    NOT NULL CHECK (status IN (
                      'pending', 'active', 'won', 'resigned', 'timeout',
                      'abandoned', 'ended', 'declined', 'expired')),
    winner        text    NOT NULL DEFAULT '',
    difficulty    text    NOT NULL DEFAULT '',
    hints         boolean NOT NULL DEFAULT true,
    message_id    text    NOT NULL DEFAULT '',
    turn_timeout  bigint  NOT NULL DEFAULT 0 CHECK (turn_timeout >= 0),
    deadline      bigint,
    created_by    text    NOT NULL,
    created_at    bigint  NOT NULL,
    updated_at    bigint  NOT NULL
);

-- At most one pending-or-active game per channel, across every instance
-- sharing the database.
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (channel_id) WHERE status IN ('pending', 'active');

-- The deadline scheduler's query.
CREATE INDEX games_due
    ON games (deadline) WHERE status IN ('pending', 'active') AND deadline IS NOT NULL;

-- The challenge cooldown's query.
CREATE INDEX games_by_creator ON games (guild_id, created_by, created_at);

CREATE TABLE moves (
    game_id  bigint  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      integer NOT NULL CHECK (ply >= 0),
    player   text    NOT NULL,
    move     jsonb   NOT NULL,
    hinted   boolean NOT NULL DEFAULT false,
    at       bigint  NOT NULL,
    PRIMARY KEY (game_id, ply)
);

-- A move must be played at the game's current ply, while the game is live,
-- and playing it advances the ply, so games.ply = number of moves. The
-- game's row is locked (FOR UPDATE) before it is read: two transactions
-- inserting a move into one game take turns, and the second sees the ply the
-- first left. Under READ COMMITTED a plain read could see the old ply.
-- +goose StatementBegin
CREATE FUNCTION moves_at_current_ply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    cur_ply    integer;
    cur_status text;
BEGIN
    SELECT ply, status INTO cur_ply, cur_status FROM games WHERE id = NEW.game_id FOR UPDATE;
    IF NOT FOUND THEN
        RETURN NEW; -- the foreign key reports the unknown game
    END IF;
    IF NEW.ply IS DISTINCT FROM cur_ply OR cur_status NOT IN ('pending', 'active') THEN
        RAISE EXCEPTION 'stale move: not the game''s current ply, or the game is over'
            USING ERRCODE = 'check_violation';
    END IF;
    UPDATE games SET ply = NEW.ply + 1 WHERE id = NEW.game_id;
    RETURN NEW;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER moves_at_current_ply BEFORE INSERT ON moves
    FOR EACH ROW EXECUTE FUNCTION moves_at_current_ply();

-- Moves are history: never rewritten.
-- +goose StatementBegin
CREATE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'moves are append-only' USING ERRCODE = 'check_violation';
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER moves_append_only BEFORE UPDATE ON moves
    FOR EACH ROW EXECUTE FUNCTION moves_append_only();

CREATE TABLE hints (
    game_id  bigint  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      integer NOT NULL CHECK (ply >= 0),
    user_id  text    NOT NULL,
    at       bigint  NOT NULL,
    PRIMARY KEY (game_id, ply, user_id)
);

-- Interactions already answered; the primary key makes a redelivery, on any
-- instance, find the first answer instead of playing twice.
CREATE TABLE interactions (
    id        text   NOT NULL PRIMARY KEY,
    game_id   bigint REFERENCES games (id) ON DELETE SET NULL,
    response  bytea  NOT NULL,
    at        bigint NOT NULL
);

CREATE INDEX interactions_at ON interactions (at);

-- +goose Down
DROP TABLE interactions;
DROP TABLE hints;
DROP TABLE moves;
DROP FUNCTION moves_append_only();
DROP FUNCTION moves_at_current_ply();
DROP TABLE games;
