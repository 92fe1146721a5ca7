-- Schema version 3: the leaderboard served from one index.
--
-- Leaderboard orders a guild's users for one variant by rating, wins, fewest
-- losses, then user id. Version 2's stats_leaderboard held only rating and
-- wins, so SQLite sorted every run of users tied on both (most users sit at
-- the starting rating with a few wins) in a temporary B-tree: 4.3 ms at
-- 100,000 users, growing with the guild. This index holds the whole order,
-- and every column the board shows, so the query reads its first rows from
-- the index alone and stops: the same time at any size
-- (BenchmarkLeaderboard; TestLeaderboardPlan checks the plan).

-- +goose Up
DROP INDEX stats_leaderboard;
CREATE INDEX stats_leaderboard ON stats (guild_id, variant, rating DESC, wins DESC, losses, user_id, streak, best_streak);

-- +goose Down
DROP INDEX stats_leaderboard;
CREATE INDEX stats_leaderboard ON stats (guild_id, variant, rating DESC, wins DESC);
