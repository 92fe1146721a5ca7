package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"nimbot/match"
)

// TestPreparedStatements: the hot queries are prepared once and reused —
// the writer's after their first transaction, the reads' at first use — and
// keep working across a schema change (SQLite prepares them again).
func TestPreparedStatements(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", match.BotID}, 1<<20))
	turn := func(interaction string) {
		t.Helper()
		var err error
		if g, err = db.Commit(ctx, mustChange(t, g, interaction)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Game(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Response(ctx, interaction); err != nil {
			t.Fatal(err)
		}
	}
	count := func(c *stmtCache) int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.stmts)
	}
	turn("i1")
	turn("i2")
	// Commit's statements: the interaction check, the game, the moves, the
	// update, the saved response.
	if n := count(db.writes.stmts); n < 5 {
		t.Fatalf("%d statements prepared for the writer after two turns, want at least 5", n)
	}
	if n := count(db.reads.c); n < 2 {
		t.Fatalf("%d statements prepared for reads, want at least 2", n)
	}
	before := count(db.writes.stmts)
	turn("i3")
	if n := count(db.writes.stmts); n != before {
		t.Fatalf("a third turn prepared %d more statements", n-before)
	}
	if _, err := db.writeConn.ExecContext(ctx, `CREATE INDEX moves_by_player ON moves (player)`); err != nil {
		t.Fatal(err)
	}
	turn("i4")
	if g.Ply != 8 {
		t.Fatalf("ply %d after four turns, want 8", g.Ply)
	}
}

// The per-interaction reads run detached from their context's cancellation
// (reader), but a context already done still fails them at once.
func TestReadsRefuseADoneContext(t *testing.T) {
	db := mustOpen(t)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 1))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	for _, ctx := range []context.Context{cancelled, expired} {
		if _, err := db.Board(ctx, g.ID); !errors.Is(err, ctx.Err()) {
			t.Errorf("Board on a done context: %v, want %v", err, ctx.Err())
		}
		if _, err := db.Game(ctx, g.ID); !errors.Is(err, ctx.Err()) {
			t.Errorf("Game on a done context: %v, want %v", err, ctx.Err())
		}
		if _, err := db.Moves(ctx, g.ID); !errors.Is(err, ctx.Err()) {
			t.Errorf("Moves on a done context: %v, want %v", err, ctx.Err())
		}
	}
	if _, err := db.Board(context.Background(), g.ID); err != nil {
		t.Fatal(err)
	}
}
