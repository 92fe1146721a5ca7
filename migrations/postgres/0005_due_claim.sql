-- Schema version 5 for PostgreSQL (no SQLite mirror: one process owns a
-- SQLite file): a lease on due games, so that of several instances polling
-- one database for passed deadlines only one works on each game.
--
-- ClaimDue sets claimed_until (ms since the Unix epoch) on the due games it
-- returns, under FOR UPDATE SKIP LOCKED; until that time passes, no other
-- caller is handed them. An instance that dies holding a claim delays those
-- games by one lease, and then another instance takes them. The column is
-- advisory: firing a deadline is still a Commit at the game's ply, so even a
-- lease outrun (a pause longer than the lease) fires it once.

-- +goose Up
ALTER TABLE games ADD COLUMN claimed_until bigint;

-- +goose Down
ALTER TABLE games DROP COLUMN claimed_until;
