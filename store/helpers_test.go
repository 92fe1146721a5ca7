package store

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/internal/storetest"
)

// TestMain lets the test binary double as the child process of the crash
// and lock tests: with NIMBOT_STORE_CHILD set it runs that role instead of
// the tests.
func TestMain(m *testing.M) {
	if role := os.Getenv("NIMBOT_STORE_CHILD"); role != "" {
		os.Exit(runChild(role))
	}
	os.Exit(m.Run())
}

// epoch is the tests' clock start: a fixed, round time.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// clock returns a deterministic clock that advances one millisecond per read.
func clock() func() time.Time {
	var n atomic.Int64
	return func() time.Time { return epoch.Add(time.Duration(n.Add(1)) * time.Millisecond) }
}

// mustOpen opens a fresh database file in t.TempDir and closes it when the
// test ends.
func mustOpen(tb testing.TB) *DB {
	tb.Helper()
	return mustOpenPath(tb, filepath.Join(tb.TempDir(), "nimbot.db"), "")
}

func mustOpenPath(tb testing.TB, path, synchronous string) *DB {
	tb.Helper()
	db, err := Open(context.Background(), Config{Path: path, Synchronous: synchronous, Now: clock()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return db
}

// The tests build and play games with the contract suite's helpers.
var (
	newGame    = storetest.NewGame
	mustCreate = storetest.MustCreate
	take       = storetest.Take
	apply      = storetest.Apply
	play       = storetest.Play
	change     = storetest.Change
	over       = storetest.Over
)

// checkGames verifies every game in the database is whole (the contract
// suite's CheckGame: ply, replay, alternation, Won exactly when empty), and
// what only SQL sees: a result exists exactly for finished games, stats
// count each decided result once, and the file passes integrity_check.
func checkGames(tb testing.TB, db *DB) (games int) {
	tb.Helper()
	ctx := context.Background()
	rows, err := db.readers.QueryContext(ctx, `SELECT id FROM games`)
	if err != nil {
		tb.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		tb.Fatal(err)
	}
	for _, id := range ids {
		storetest.CheckGame(tb, db, id)
		g, err := db.Game(ctx, id)
		if err != nil {
			tb.Fatal(err)
		}
		var results int
		if err := db.readers.QueryRowContext(ctx, `SELECT count(*) FROM results WHERE game_id = ?`, id).Scan(&results); err != nil {
			tb.Fatal(err)
		}
		if want := map[bool]int{true: 1, false: 0}[g.Status.Finished()]; results != want {
			tb.Errorf("game %d (%s): %d results", id, g.Status, results)
		}
	}
	// Every decided result is counted once in the players' all-variant stats.
	var statWins, statLosses, resWins, resLosses int
	if err := db.readers.QueryRowContext(ctx, `SELECT coalesce(sum(wins), 0), coalesce(sum(losses), 0) FROM stats WHERE variant = ''`).
		Scan(&statWins, &statLosses); err != nil {
		tb.Fatal(err)
	}
	if err := db.readers.QueryRowContext(ctx, `SELECT
			count(*) FILTER (WHERE winner NOT IN ('', 'bot') AND winner <> loser),
			count(*) FILTER (WHERE loser NOT IN ('', 'bot') AND winner <> loser)
		FROM results`).Scan(&resWins, &resLosses); err != nil {
		tb.Fatal(err)
	}
	if statWins != resWins || statLosses != resLosses {
		tb.Errorf("stats count %d wins, %d losses; results say %d, %d", statWins, statLosses, resWins, resLosses)
	}
	integrity(tb, db)
	return len(ids)
}

func integrity(tb testing.TB, db *DB) {
	tb.Helper()
	var check string
	if err := db.readers.QueryRowContext(context.Background(), `PRAGMA integrity_check`).Scan(&check); err != nil {
		tb.Fatal(err)
	}
	if check != "ok" {
		tb.Fatalf("integrity_check: %s", check)
	}
	var fk int
	if err := db.readers.QueryRowContext(context.Background(), `SELECT count(*) FROM pragma_foreign_key_check`).Scan(&fk); err != nil {
		tb.Fatal(err)
	}
	if fk != 0 {
		tb.Fatalf("%d foreign key violations", fk)
	}
}
