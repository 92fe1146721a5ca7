-- Schema version 22 for PostgreSQL: progress through the lessons,
-- mirroring ../0022_lessons.sql (SQLite); read that file for what each
-- column means.

-- +goose Up
CREATE TABLE lesson_progress (
    user_id     text    NOT NULL,
    lesson      text    NOT NULL,
    solved      integer NOT NULL CHECK (solved >= 0),
    updated_at  bigint  NOT NULL,
    PRIMARY KEY (user_id, lesson)
);

-- +goose Down
DROP TABLE lesson_progress;
