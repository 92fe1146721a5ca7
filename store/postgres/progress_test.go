package postgres

import (
	"context"
	"testing"

	"nimbot/match"
)

// TestGamesInProgress counts the live games: those of every channel, not
// those over.
func TestGamesInProgress(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, fixed)
	count := func(want int64) {
		t.Helper()
		if n, err := db.GamesInProgress(ctx); err != nil || n != want {
			t.Fatalf("GamesInProgress = %d, %v; want %d", n, err, want)
		}
	}
	count(0)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
	mustCreate(t, db, newGame("c2", [2]string{"alice", "bob"}, 3))
	count(2)
	if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 0, From: match.Active, Status: match.Resigned, Winner: "bob"}); err != nil {
		t.Fatal(err)
	}
	count(1)
}
