-- Schema version 3 for PostgreSQL: the leaderboard served from one index,
-- mirroring ../0003_leaderboard_index.sql (SQLite); read that file for why.
-- The index's user_id carries COLLATE "C" as the query's ORDER BY does, and
-- INCLUDE holds the other columns the board shows, so an index-only scan
-- answers it.

-- +goose Up
DROP INDEX stats_leaderboard;
CREATE INDEX stats_leaderboard ON stats (guild_id, variant, rating DESC, wins DESC, losses, user_id COLLATE "C") INCLUDE (streak, best_streak);

-- +goose Down
DROP INDEX stats_leaderboard;
CREATE INDEX stats_leaderboard ON stats (guild_id, variant, rating DESC, wins DESC);
