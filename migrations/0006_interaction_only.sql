-- Schema version 6: games nimbot can change only by answering interactions.
--
-- Installed to a user's account and used in a group DM or a DM between two
-- people (or in a server that has not installed it), nimbot is no member of
-- the channel: it cannot post or edit messages there by REST, only answer
-- interactions (responses and follow-ups under a 15-minute token). Such a
-- game's board is never edited by the deadline scheduler; its deadline is
-- settled in the database and the board shows it at the next click.

-- +goose Up
ALTER TABLE games ADD COLUMN interaction_only INTEGER NOT NULL DEFAULT 0 CHECK (interaction_only IN (0, 1));

-- +goose Down
ALTER TABLE games DROP COLUMN interaction_only;
