package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"nimbot/match"
)

// TestLeaderboardPlan checks that SQLite answers the leaderboard from the
// stats_leaderboard index alone, with no sort: a temporary B-tree would
// make every call sort the guild's users tied on rating and wins, a cost
// that grows with the guild.
func TestLeaderboardPlan(t *testing.T) {
	db := mustOpen(t)
	rows, err := db.readers.Query("EXPLAIN QUERY PLAN "+leaderboardQuery, "guild", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(plan, "; ")
	if strings.Contains(all, "TEMP B-TREE") || !strings.Contains(all, "USING COVERING INDEX stats_leaderboard") {
		t.Fatalf("leaderboard plan: %s; want a scan of the covering index stats_leaderboard and no temporary B-tree", all)
	}
}

// BenchmarkLeaderboard times Leaderboard (the top 10 of all variants, with
// each one's record against the bot) in a guild of 1,000 to 100,000 users,
// nearly all at the starting rating (games against the bot are unrated):
// the top 10 reach into a quarter of the guild tied on rating and wins,
// which version 2's index left to a sort.
func BenchmarkLeaderboard(b *testing.B) {
	for _, users := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("users=%d", users), func(b *testing.B) {
			ctx := context.Background()
			db := mustOpen(b)
			fillStats(b, db, "guild", users)
			for b.Loop() {
				board, err := db.Leaderboard(ctx, "guild", "", 10)
				if err != nil || len(board) != 10 {
					b.Fatal(len(board), err)
				}
			}
		})
	}
}

// fillStats writes users rows of all-variant statistics into guild: four
// users rated above InitialRating and four below; everyone else at
// InitialRating with 0-3 wins and 0-3 losses.
func fillStats(tb testing.TB, db *DB, guild string, users int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, uint64(users)))
	tx, err := db.writeConn.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	stmt, err := tx.Prepare(`INSERT INTO stats (guild_id, user_id, variant, wins, losses, streak, best_streak, rating, rated_games, updated_at)
		VALUES (?, ?, '', ?, ?, 0, 0, ?, ?, 0)`)
	if err != nil {
		tb.Fatal(err)
	}
	defer stmt.Close()
	for i := range users {
		wins, losses, rating, rated := rng.IntN(4), rng.IntN(4), match.InitialRating, 0
		if i < 8 {
			rating, rated = match.InitialRating-200+50*i, 1+rng.IntN(20)
			if rating >= match.InitialRating {
				rating += 50
			}
		}
		if _, err := stmt.Exec(guild, fmt.Sprintf("user%06d", i), wins, losses, rating, rated); err != nil {
			tb.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}
