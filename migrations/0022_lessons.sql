-- Schema version 22: progress through the lessons (/nim learn).
--
-- One row per user and lesson: how many of the lesson's exercises they
-- have solved (a lesson is complete at all of them). It only grows.

-- +goose Up
CREATE TABLE lesson_progress (
    user_id     TEXT    NOT NULL,
    lesson      TEXT    NOT NULL,                -- the lesson's theme (engine.Theme)
    solved      INTEGER NOT NULL CHECK (solved >= 0),
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, lesson)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE lesson_progress;
