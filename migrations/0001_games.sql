-- Schema version 1: games, their moves, hints asked, and processed interactions.
--
-- Conventions used throughout:
--   * Times are INTEGER milliseconds since the Unix epoch (UTC); NULL means "none".
--   * Discord ids (snowflakes) are TEXT; the bot itself plays as player id 'bot'.
--   * Engine values (engine.Rules, engine.Position, engine.Move) are JSON text,
--     so the engine can grow fields without a schema change.
--   * Booleans are INTEGER 0/1 with a CHECK.

-- +goose Up

-- One row per game, from the challenge to the final result. Everything needed
-- to redraw the board lives here, so a restart loses nothing.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      TEXT    NOT NULL DEFAULT '',      -- '' in direct messages
    channel_id    TEXT    NOT NULL,
    -- The variant is also inside rules; it is kept as a column because stats
    -- and leaderboards group by it.
    variant       TEXT    NOT NULL,
    misere        INTEGER NOT NULL DEFAULT 0 CHECK (misere IN (0, 1)),
    rules         TEXT    NOT NULL CHECK (json_valid(rules)),     -- engine.Rules
    start         TEXT    NOT NULL CHECK (json_valid(start)),     -- engine.Position before the first move
    position      TEXT    NOT NULL CHECK (json_valid(position)),  -- engine.Position now
    -- player0 moves first; the player to move is player0 when ply is even.
    -- A challenge may leave a seat '' until it is accepted.
    player0       TEXT    NOT NULL DEFAULT '',
    player1       TEXT    NOT NULL DEFAULT '',
    -- The number of moves played. Never written directly: the triggers on
    -- moves below advance it, so it always equals the number of moves.
    ply           INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    status        TEXT    NOT NULL CHECK (status IN (
                      'pending',    -- a challenge waiting to be accepted
                      'active',     -- being played
                      'won',        -- someone made the winning move
                      'resigned',   -- a player resigned; the other won
                      'timeout',    -- a player ran out of time; the other won
                      'abandoned',  -- nobody can finish it (e.g. the channel went away)
                      'ended',      -- stopped by a moderator or the players, no result
                      'declined',   -- the challenge was declined
                      'expired'     -- the challenge was never accepted
                  )),
    winner        TEXT    NOT NULL DEFAULT '',      -- '' until won, resigned or timed out
    difficulty    TEXT    NOT NULL DEFAULT '',      -- the bot's engine.Difficulty; '' between people
    hints         INTEGER NOT NULL DEFAULT 1 CHECK (hints IN (0, 1)),  -- may players ask for hints
    message_id    TEXT    NOT NULL DEFAULT '',      -- the board message, once sent
    turn_timeout  INTEGER NOT NULL DEFAULT 0 CHECK (turn_timeout >= 0),  -- ms per turn; 0 none
    deadline      INTEGER,                          -- when the player to move (or the challenge) runs out
    created_by    TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

-- At most one pending-or-active game per channel. Two people starting a game
-- in the same channel at once: the second INSERT fails on this index and is
-- shown the game that won the race.
CREATE UNIQUE INDEX games_one_live_per_channel
    ON games (channel_id) WHERE status IN ('pending', 'active');

-- The scheduler's query: live games whose deadline has passed, oldest first.
CREATE INDEX games_due
    ON games (deadline) WHERE status IN ('pending', 'active') AND deadline IS NOT NULL;

-- The challenge cooldown's query: a user's newest game in a guild.
CREATE INDEX games_by_creator ON games (guild_id, created_by, created_at);

-- Every move of every game, in order: a finished game can be replayed from
-- games.start through these rows.
CREATE TABLE moves (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL CHECK (ply >= 0),   -- 0 for the first move
    player   TEXT    NOT NULL,                    -- user id or 'bot'
    move     TEXT    NOT NULL CHECK (json_valid(move)),  -- engine.Move
    hinted   INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1)),  -- a hint was asked for this ply first
    at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- A move must be played at the game's current ply, while the game is live.
-- With the primary key above, two clicks on one board can never both land,
-- whatever the application code does.
-- +goose StatementBegin
CREATE TRIGGER moves_at_current_ply
BEFORE INSERT ON moves
WHEN NEW.ply IS NOT (SELECT ply FROM games WHERE id = NEW.game_id)
  OR (SELECT status FROM games WHERE id = NEW.game_id) NOT IN ('pending', 'active')
BEGIN
    SELECT RAISE(ABORT, 'stale move: not the game''s current ply, or the game is over');
END;
-- +goose StatementEnd

-- Playing a move advances the game's ply, so games.ply = number of moves.
-- +goose StatementBegin
CREATE TRIGGER moves_advance_ply
AFTER INSERT ON moves
BEGIN
    UPDATE games SET ply = NEW.ply + 1 WHERE id = NEW.game_id;
END;
-- +goose StatementEnd

-- Moves are history: never rewritten.
-- +goose StatementBegin
CREATE TRIGGER moves_append_only
BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;
-- +goose StatementEnd

-- Hints asked, so the move played afterwards is marked hinted (and reviews
-- and stats can tell assisted wins apart).
CREATE TABLE hints (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL CHECK (ply >= 0),   -- the ply the hint was for
    user_id  TEXT    NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply, user_id)
) WITHOUT ROWID;

-- Interactions already answered. Discord may deliver an interaction twice
-- (gateway resume, HTTP retry); the second delivery finds its id here, gets
-- the saved response and never plays a second move. The row is written in the
-- same transaction as the move it answers.
CREATE TABLE interactions (
    id        TEXT    NOT NULL PRIMARY KEY,        -- Discord interaction id
    game_id   INTEGER REFERENCES games (id) ON DELETE SET NULL,  -- NULL if it changed no game
    response  BLOB    NOT NULL,                    -- the response as sent (JSON)
    at        INTEGER NOT NULL
);

-- Pruning old interactions (tokens live 15 minutes) scans by time.
CREATE INDEX interactions_at ON interactions (at);

-- +goose Down
DROP TABLE interactions;
DROP TABLE hints;
DROP TABLE moves;
DROP TABLE games;
