-- Schema version 11: a saved answer's game is a plain column, not a foreign
-- key, as in the SQLite schema's 0011_interactions_unlinked.sql: nothing
-- reads it back, the key cost a check on every saved answer, and deleting
-- games (forgetting, 0010_privacy.sql) made PostgreSQL scan the saved
-- answers once per game deleted. Forgetting deletes the answers of the
-- games it deletes itself.

-- +goose Up
ALTER TABLE interactions DROP CONSTRAINT IF EXISTS interactions_game_id_fkey;

-- +goose Down
UPDATE interactions SET game_id = NULL WHERE game_id IS NOT NULL AND game_id NOT IN (SELECT id FROM games);
ALTER TABLE interactions ADD CONSTRAINT interactions_game_id_fkey
    FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE SET NULL;
