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

// TestPreparedStatements: the store's queries are prepared at Open, keep
// working across a schema change (SQLite prepares them again), and a query
// that is not among them fails with an error naming it, changing nothing.
func TestPreparedStatements(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	for _, q := range writeQueries {
		if db.writes.stmts[q] == nil {
			t.Errorf("not prepared for the writer: %s", q)
		}
	}
	for _, q := range readQueries {
		if db.reads.stmts[q] == nil {
			t.Errorf("not prepared for reads: %s", q)
		}
	}
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", match.BotID}, 1<<20))
	turn := func(interaction string) {
		t.Helper()
		var err error
		if g, err = db.Commit(ctx, mustChange(t, g, interaction)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Board(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Response(ctx, interaction); err != nil {
			t.Fatal(err)
		}
	}
	turn("i1")
	if _, err := db.writeConn.ExecContext(ctx, `CREATE INDEX moves_by_player ON moves (player)`); err != nil {
		t.Fatal(err)
	}
	turn("i2")
	if g.Ply != 4 {
		t.Fatalf("ply %d after two turns, want 4", g.Ply)
	}
	const unknown = `DELETE FROM games`
	err := db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
		_, err := tx.ExecContext(ctx, unknown)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), unknown) {
		t.Fatalf("an unprepared query: %v, want an error naming it", err)
	}
	if err := db.reads.QueryRowContext(ctx, unknown).Scan(); err == nil || !strings.Contains(err.Error(), unknown) {
		t.Fatalf("an unprepared read: %v, want an error naming it", err)
	}
	if _, err := db.Game(ctx, g.ID); err != nil {
		t.Fatalf("the game after an unprepared query: %v", err)
	}
}

// TestReadStatementsFinalized: the statements prepared on the read pool's
// connections are finalized at Close, so closing the DB closes every file
// it opened (an unfinalized statement keeps SQLite's connection, and its
// descriptors, open after database/sql dropped it).
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

// The reads run on their caller's context: one already done fails them at
// once.
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
