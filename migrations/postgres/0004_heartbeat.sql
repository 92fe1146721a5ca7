-- Schema version 4 for PostgreSQL: the health check's heartbeat row,
-- mirroring ../0004_heartbeat.sql (SQLite); read that file for why.

-- +goose Up
CREATE TABLE heartbeat (
    id  integer NOT NULL PRIMARY KEY CHECK (id = 1),
    at  bigint  NOT NULL
);

-- +goose Down
DROP TABLE heartbeat;
