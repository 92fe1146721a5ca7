-- Schema version 11: a saved answer's game is a plain column, not a foreign
-- key.
--
-- Nothing reads interactions.game_id back; the foreign key only checked, on
-- every saved answer, that its game exists, and, once games could be
-- deleted (forgetting a user or a server, 0010_privacy.sql), made SQLite
-- scan the whole table of saved answers once for every game deleted, all
-- under the write lock every move waits for. Forgetting deletes the
-- answers of the games it deletes itself, in one statement.

-- +goose Up
CREATE TABLE interactions_new (
    id        TEXT    NOT NULL PRIMARY KEY,        -- the answer's key (commands.AnswerKey)
    game_id   INTEGER,                             -- the game it changed; NULL if none
    response  BLOB    NOT NULL,                    -- the response as sent (JSON)
    at        INTEGER NOT NULL
);
INSERT INTO interactions_new (id, game_id, response, at) SELECT id, game_id, response, at FROM interactions;
DROP TABLE interactions;
ALTER TABLE interactions_new RENAME TO interactions;
CREATE INDEX interactions_at ON interactions (at);

-- +goose Down
CREATE TABLE interactions_old (
    id        TEXT    NOT NULL PRIMARY KEY,
    game_id   INTEGER REFERENCES games (id) ON DELETE SET NULL,
    response  BLOB    NOT NULL,
    at        INTEGER NOT NULL
);
INSERT INTO interactions_old (id, game_id, response, at)
    SELECT id, CASE WHEN game_id IN (SELECT id FROM games) THEN game_id END, response, at FROM interactions;
DROP TABLE interactions;
ALTER TABLE interactions_old RENAME TO interactions;
CREATE INDEX interactions_at ON interactions (at);
