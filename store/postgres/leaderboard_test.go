package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestLeaderboardPlan checks that the leaderboard is read in order from the
// stats_leaderboard index, with no sort, among 10,000 stats rows.
func TestLeaderboardPlan(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, fixed)
	if _, err := db.pool.Exec(ctx, `INSERT INTO stats (guild_id, user_id, variant, wins, losses, rating, updated_at)
		SELECT 'g' || (i % 4), 'u' || i, v, i % 7, i % 5, 1200 + (i % 9), 0
		FROM generate_series(1, 5000) AS i, unnest(ARRAY['', 'nim']) AS v`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.pool.Exec(ctx, `VACUUM ANALYZE stats`); err != nil {
		t.Fatal(err)
	}
	rows, err := db.pool.Query(ctx, `EXPLAIN `+leaderboardQuery, "g1", "nim", 10)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(lines, "\n")
	if !strings.Contains(plan, "stats_leaderboard") || strings.Contains(plan, "Sort") {
		t.Fatalf("the leaderboard does not come from its index in order:\n%s", plan)
	}
}
