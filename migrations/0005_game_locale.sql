-- Schema version 5: the language a game speaks.
--
-- A game's public messages (its board, what is posted about it) speak the
-- challenger's Discord locale at /nim start ("de", "pt-BR"), whoever clicks
-- later. '' is English, which every game before this version spoke.

-- +goose Up
ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT '' CHECK (length(locale) <= 16);

-- +goose Down
ALTER TABLE games DROP COLUMN locale;
