package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"nimbot/match"
)

// TestGroupCommitRolledBackBySQLite: a write that fails with an error on
// which SQLite rolls back the whole transaction by itself (SQLITE_FULL on a
// statement without a statement journal; here the file's page limit) fails
// alone: the writes batched with it, before and after, run again in a new
// transaction and land.
func TestGroupCommitRolledBackBySQLite(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	a := mustCreate(t, db, newGame("a", [2]string{"alice", match.BotID}, 5))
	b := mustCreate(t, db, newGame("b", [2]string{"alice", match.BotID}, 5))
	var pages int64
	if err := db.writeConn.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	// Room for the small writes, not for a 1 MiB answer. The pool's one
	// connection is the writer's.
	if _, err := db.writeConn.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages+40)); err != nil {
		t.Fatal(err)
	}
	release := holdWriter(t, db)
	before, _ := db.writes.stats()
	var errA, errB, errX error
	var wg sync.WaitGroup
	wg.Go(func() { a, errA = db.Commit(ctx, mustChange(t, a, "ia")) })
	waitQueued(t, db, 1)
	wg.Go(func() { errX = db.SaveResponse(ctx, "huge", make([]byte, 1<<20)) })
	waitQueued(t, db, 2)
	wg.Go(func() { b, errB = db.Commit(ctx, mustChange(t, b, "ib")) })
	waitQueued(t, db, 3)
	release()
	wg.Wait()
	var se sqlite3.Error
	if !errors.As(errX, &se) || se.Code != sqlite3.ErrFull {
		t.Fatalf("the write past the page limit: %v, want SQLITE_FULL", errX)
	}
	if errA != nil || errB != nil || a.Ply != 2 || b.Ply != 2 {
		t.Fatalf("a: %v ply %d, b: %v ply %d; want both at ply 2", errA, a.Ply, errB, b.Ply)
	}
	// The held write, the batch SQLite rolled back (no COMMIT), the retry.
	if after, _ := db.writes.stats(); after-before != 2 {
		t.Errorf("%d COMMITs, want 2", after-before)
	}
	for _, id := range []string{"ia", "ib"} {
		if _, err := db.Response(ctx, id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	if _, err := db.Response(ctx, "huge"); !errors.Is(err, match.ErrNotFound) {
		t.Errorf("the failed write's answer: %v", err)
	}
	// The connection is left in autocommit, usable by the next batch.
	if err := db.SaveResponse(ctx, "after", []byte("x")); err != nil {
		t.Fatal(err)
	}
	checkGames(t, db)
}

// TestTxn: the writer's statements on go-sqlite3's connection answer as
// database/sql's did: results, no rows, argument errors, statements beyond
// the cache.
func TestTxn(t *testing.T) {
	ctx := context.Background()
	t.Run("Results", func(t *testing.T) {
		db := mustOpen(t)
		var ids [2]int64
		var changed, none int64
		err := db.withTx(ctx, func(ctx context.Context, tx *txn, now time.Time) error {
			for i := range ids {
				res, err := tx.ExecContext(ctx, `INSERT INTO interactions (id, response, at) VALUES (?, x'00', ?)`, fmt.Sprint("r", i), toMillis(now))
				if err != nil {
					return err
				}
				if ids[i], err = res.LastInsertId(); err != nil {
					return err
				}
			}
			res, err := tx.ExecContext(ctx, `UPDATE interactions SET at = at + 1`)
			if err != nil {
				return err
			}
			if changed, err = res.RowsAffected(); err != nil {
				return err
			}
			res, err = tx.ExecContext(ctx, `DELETE FROM interactions WHERE id = ?`, "none")
			if err != nil {
				return err
			}
			none, err = res.RowsAffected()
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if ids[1] != ids[0]+1 || changed != 2 || none != 0 {
			t.Fatalf("rowids %v, updated %d, deleted %d; want consecutive rowids, 2, 0", ids, changed, none)
		}
	})
	t.Run("NoRows", func(t *testing.T) {
		db := mustOpen(t)
		err := db.withTx(ctx, func(ctx context.Context, tx *txn, _ time.Time) error {
			var id string
			return tx.QueryRowContext(ctx, `SELECT id FROM interactions WHERE id = ?`, "x").Scan(&id)
		})
		if !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("got %v, want sql.ErrNoRows", err)
		}
	})
	t.Run("Arguments", func(t *testing.T) {
		db := mustOpen(t)
		for _, tc := range []struct {
			name string
			args []any
			want string
		}{
			{"TooFew", []any{"x"}, "expected 2 arguments, got 1"},
			{"TooMany", []any{"x", 1, 2}, "expected 2 arguments, got 3"},
			{"Unsupported", []any{"x", struct{}{}}, "converting argument $2"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				err := db.withTx(ctx, func(ctx context.Context, tx *txn, _ time.Time) error {
					return tx.exec(`INSERT INTO heartbeat (id, at) VALUES (?, ?)`, tc.args...)
				})
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("got %v, want an error saying %q", err, tc.want)
				}
			})
		}
		// Nothing was written, and the writer still works.
		if err := db.SaveResponse(ctx, "after", nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("BeyondTheCache", func(t *testing.T) {
		// Queries past maxCached are prepared for one run and finalized.
		db := mustOpen(t)
		const n = maxCached + 10
		var sum int64
		err := db.withTx(ctx, func(ctx context.Context, tx *txn, _ time.Time) error {
			for i := range n {
				var v int64
				if err := tx.QueryRowContext(ctx, fmt.Sprintf(`SELECT %d + ?`, i), 1).Scan(&v); err != nil {
					return err
				}
				sum += v
				if err := tx.exec(fmt.Sprintf(`INSERT INTO heartbeat (id, at) VALUES (1, %d)
					ON CONFLICT (id) DO UPDATE SET at = excluded.at`, i)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(n * (n + 1) / 2); sum != want {
			t.Fatalf("sum %d, want %d", sum, want)
		}
		db.writes.stmts.mu.Lock()
		cached := len(db.writes.stmts.stmts)
		db.writes.stmts.mu.Unlock()
		if cached > maxCached {
			t.Fatalf("%d statements cached, want at most %d", cached, maxCached)
		}
	})
}

// TestAssign: txn's rows scan the values go-sqlite3 reads as database/sql
// would.
func TestAssign(t *testing.T) {
	type name string
	type count int32
	var (
		s  string
		i  int
		i6 int64
		b  bool
		bs []byte
		a  any
		ni sql.NullInt64
		n  name
		c  count
	)
	for _, tc := range []struct {
		dest any
		v    any
		want any // nil: an error
	}{
		{&s, "text", "text"},
		{&s, []byte("blob"), "blob"},
		{&s, int64(42), "42"},
		{&s, nil, nil},
		{&i, int64(-7), -7},
		{&i, "7", nil},
		{&i6, int64(1 << 40), int64(1 << 40)},
		{&i6, nil, nil},
		{&b, int64(1), true},
		{&b, int64(0), false},
		{&b, int64(2), nil},
		{&b, true, true},
		{&bs, []byte{1, 2}, []byte{1, 2}},
		{&bs, "ab", []byte("ab")},
		{&a, int64(3), int64(3)},
		{&ni, int64(5), sql.NullInt64{Int64: 5, Valid: true}},
		{&ni, nil, sql.NullInt64{}},
		{&n, "named", name("named")},
		{&c, int64(9), count(9)},
		{&c, int64(1 << 40), nil},
	} {
		err := assign(tc.dest, tc.v)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%T from %#v: no error", tc.dest, tc.v)
			}
			continue
		}
		if err != nil {
			t.Errorf("%T from %#v: %v", tc.dest, tc.v, err)
			continue
		}
		if got := fmt.Sprintf("%#v", deref(tc.dest)); got != fmt.Sprintf("%#v", tc.want) {
			t.Errorf("%T from %#v: got %s, want %#v", tc.dest, tc.v, got, tc.want)
		}
	}
	// Without a value, bytes are nil (a NULL column).
	bs = []byte{1}
	if err := assign(&bs, nil); err != nil || bs != nil {
		t.Errorf("[]byte from NULL: %v, %v", bs, err)
	}
}

func deref(p any) any { return reflect.ValueOf(p).Elem().Interface() }

// TestDriverValue: arguments convert as database/sql converts them.
func TestDriverValue(t *testing.T) {
	type name string
	for _, tc := range []struct {
		in, want any
	}{
		{nil, nil},
		{7, int64(7)},
		{int64(8), int64(8)},
		{int32(9), int64(9)},
		{"s", "s"},
		{name("n"), "n"},
		{true, true},
		{[]byte("b"), []byte("b")},
		{sql.NullInt64{}, nil},
		{sql.NullInt64{Int64: 4, Valid: true}, int64(4)},
		{sql.NullString{String: "x", Valid: true}, "x"},
	} {
		got, err := driverValue(tc.in)
		if err != nil || fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", tc.want) {
			t.Errorf("%#v: got %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
	if _, err := driverValue(struct{}{}); err == nil {
		t.Error("a struct converted")
	}
}

// TestConcurrentUse: with the pools' connections opened NOMUTEX (SQLite
// locks nothing per connection), reads on every pooled connection, writes
// batched by the writer and an online backup all run at once and each sees
// whole games (run it under -race: the Go side of every connection is used
// by one goroutine at a time).
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	const channels, turns = 8, 12
	games := make([]*match.Game, channels)
	for i := range games {
		games[i] = mustCreate(t, db, newGame(fmt.Sprint("c", i), [2]string{"alice", match.BotID}, 1<<20))
	}
	stop := make(chan struct{})
	var writers, readers sync.WaitGroup
	for i := range games {
		writers.Go(func() {
			g := games[i]
			for n := range turns {
				c, err := change(g, take(0, 1), take(0, 1))
				if err != nil {
					t.Error(err)
					return
				}
				c.InteractionID, c.Response = fmt.Sprint("i", i, "-", n), []byte("board")
				if g, err = db.Commit(ctx, c); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for r := range 8 {
		readers.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				g := games[(r+n)%channels]
				b, err := db.Board(ctx, g.ID)
				if err != nil {
					t.Error(err)
					return
				}
				if len(b.Moves) != b.Game.Ply || b.Game.Ply%2 != 0 {
					t.Errorf("game %d read at ply %d with %d moves", g.ID, b.Game.Ply, len(b.Moves))
					return
				}
				if b.Game.Ply > 0 {
					if _, err := db.Response(ctx, fmt.Sprint("i", (r+n)%channels, "-", b.Game.Ply/2-1)); err != nil {
						t.Errorf("the answer of a committed turn: %v", err)
						return
					}
				}
			}
		})
	}
	if err := db.Backup(ctx, t.TempDir()+"/copy.db"); err != nil {
		t.Error(err)
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	for _, g := range games {
		if got, err := db.Game(ctx, g.ID); err != nil || got.Ply != 2*turns {
			t.Errorf("game %d: %v, %v; want ply %d", g.ID, got, err, 2*turns)
		}
	}
	checkGames(t, db)
}
