package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
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
	turn("i1")
	turn("i2")
	// Commit's statements: the interaction check, the game, the moves, the
	// update, the saved response.
	if n := count(db.writes.stmts); n < 5 {
		t.Fatalf("%d statements prepared for the writer after two turns, want at least 5", n)
	}
	// The reads' one-row statements: the game and the saved answer, on the
	// read connection the test's reads, one at a time, all took.
	if n := count(readStmts(t, db)); n < 2 {
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

// count is the number of statements c holds.
func count(c *stmtCache) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.stmts)
}

// readStmts returns the raw statements of the read pool's most recently
// used connection (database/sql hands out the last one returned).
func readStmts(t *testing.T, db *DB) *stmtCache {
	t.Helper()
	conn, err := db.readers.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var c *stmtCache
	if err := conn.Raw(func(dc any) error {
		c = dc.(*readConn).t.c
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReadStatementsFinalized: the statements the reads prepare on a read
// connection are finalized when it closes, so closing the DB closes every
// file it opened (an unfinalized statement keeps SQLite's connection, and
// its descriptors, open after database/sql dropped it).
func TestReadStatementsFinalized(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the open files from /proc/self/fd")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	db, err := Open(ctx, Config{Path: path, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
	// Reads on several connections at once, so more than one prepares them.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if _, err := db.Board(ctx, g.ID); err != nil {
					t.Error(err)
				}
				if _, err := db.Response(ctx, "none"); !errors.Is(err, match.ErrNotFound) {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	// Then both reads once more, alone: database/sql hands out the
	// connection returned last, so both run on the one readStmts looks at
	// (after the concurrent reads, the last one returned may have served
	// only one kind of read).
	if _, err := db.Board(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Response(ctx, "none"); !errors.Is(err, match.ErrNotFound) {
		t.Fatal(err)
	}
	if n := count(readStmts(t, db)); n < 2 {
		t.Fatalf("%d statements prepared on a read connection, want 2", n)
	}
	if open := openFiles(t, path); open == 0 {
		t.Fatal("no descriptor of the database open before Close")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if open := openFiles(t, path); open != 0 {
		t.Fatalf("%d descriptors of the database and its WAL still open after Close", open)
	}
}

// openFiles counts the process's descriptors open on path or its -wal and
// -shm files.
func openFiles(t *testing.T, path string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err == nil && strings.HasPrefix(target, path) {
			n++
		}
	}
	return n
}

// TestReadWaitsCancellably: a read waiting for a connection of the read
// pool, all of them busy, gives up when its context is done.
func TestReadWaitsCancellably(t *testing.T) {
	db := mustOpen(t)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
	ctx := context.Background()
	var held []*sql.Conn
	for range db.readers.Stats().MaxOpenConnections {
		c, err := db.readers.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	waiting, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := db.Board(waiting, g.ID); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Board with every read connection busy: %v, want %v", err, context.DeadlineExceeded)
	}
	for _, c := range held {
		c.Close()
	}
	if _, err := db.Board(ctx, g.ID); err != nil {
		t.Fatal(err)
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
