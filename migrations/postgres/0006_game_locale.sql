-- Schema version 6 for PostgreSQL: the language a game speaks, mirroring
-- ../0005_game_locale.sql (SQLite); read that file for what it means.

-- +goose Up
ALTER TABLE games ADD COLUMN locale text NOT NULL DEFAULT '' CHECK (length(locale) <= 16);

-- +goose Down
ALTER TABLE games DROP COLUMN locale;
