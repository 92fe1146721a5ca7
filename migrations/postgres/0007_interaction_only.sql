-- Schema version 7 for PostgreSQL: games nimbot can change only by answering
-- interactions, mirroring ../0006_interaction_only.sql (SQLite); read that
-- file for what it means.

-- +goose Up
ALTER TABLE games ADD COLUMN interaction_only boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE games DROP COLUMN interaction_only;
