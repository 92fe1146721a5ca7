-- Schema version 4: the health check's heartbeat.
--
-- /healthz proves the database can still be written (disk not full, file not
-- read-only, write lock obtainable in time) by writing this one row through
-- the store's normal writer. Its time is when that last succeeded.

-- +goose Up
CREATE TABLE heartbeat (
    id  INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    at  INTEGER NOT NULL   -- ms since the Unix epoch of the last successful write probe
);

-- +goose Down
DROP TABLE heartbeat;
