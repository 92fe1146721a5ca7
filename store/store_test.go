package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"nimbot/engine"
	"nimbot/internal/storetest"
	"nimbot/match"
)

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	latest := LatestSchemaVersion()
	if latest < 2 {
		t.Fatalf("latest schema version %d: keep at least two migrations so upgrades are tested", latest)
	}
	wantTables := []string{"bot_record", "daily_channels", "forget_requests", "game_ids", "games", "goose_db_version", "heartbeat", "hints", "interactions", "lesson_progress", "moves", "puzzle_attempts", "puzzle_members", "puzzle_players", "puzzle_ratings", "results", "stats", "sweeps"}
	tables := func(t *testing.T, db *DB) []string {
		t.Helper()
		rows, err := db.readers.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			names = append(names, n)
		}
		return names
	}
	atLatest := func(t *testing.T, db *DB) {
		t.Helper()
		v, err := db.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v != latest {
			t.Fatalf("schema version %d, want %d", v, latest)
		}
		if got := tables(t, db); !reflect.DeepEqual(got, wantTables) {
			t.Fatalf("tables %v, want %v", got, wantTables)
		}
	}

	t.Run("FromNoFile", func(t *testing.T) {
		atLatest(t, mustOpen(t))
	})
	t.Run("FromEmptyFile", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "empty.db")
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		atLatest(t, mustOpenPath(t, path, ""))
	})
	t.Run("Reopen", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nimbot.db")
		db, err := Open(ctx, Config{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		db = mustOpenPath(t, path, "")
		atLatest(t, db)
		if _, err := db.Game(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	})
	// From every earlier version, with a game in progress, to the latest:
	// the data survives and the game can be finished, result and all.
	for v := int64(1); v < latest; v++ {
		t.Run(fmt.Sprintf("FromVersion%d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nimbot.db")
			raw, err := sql.Open("sqlite3", dsn(path, nil))
			if err != nil {
				t.Fatal(err)
			}
			p, err := newProvider(raw)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, v); err != nil {
				t.Fatal(err)
			}
			// Written with the version-1 columns, as a nimbot of that
			// version would have.
			for _, q := range []string{
				`INSERT INTO games (id, guild_id, channel_id, variant, rules, start, position, player0, player1, status, created_by, created_at, updated_at)
				 VALUES (7, 'guild', 'c1', 'nim', '{"variant":"nim","misere":false}', '{"heaps":[2]}', '{"heaps":[2]}', 'alice', 'bob', 'active', 'alice', 1, 1)`,
				`INSERT INTO moves (game_id, ply, player, move, at) VALUES (7, 0, 'alice', '` + mustJSON(t, take(0, 1)) + `', 2)`,
				`UPDATE games SET position = '{"heaps":[1]}' WHERE id = 7`,
			} {
				if _, err := raw.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			if err := raw.Close(); err != nil {
				t.Fatal(err)
			}
			db := mustOpenPath(t, path, "")
			atLatest(t, db)
			g, err := db.Game(ctx, 7)
			if err != nil {
				t.Fatal(err)
			}
			if g.Ply != 1 || g.ToMove() != "bob" {
				t.Fatalf("after migration: ply %d, %s to move", g.Ply, g.ToMove())
			}
			g = play(t, db, g, take(0, 1))
			if g.Status != match.Won || g.Winner != "bob" {
				t.Fatalf("got %s won by %q", g.Status, g.Winner)
			}
			s, err := db.Stats(ctx, "guild", "bob", "")
			if err != nil {
				t.Fatal(err)
			}
			if s.Wins != 1 {
				t.Fatalf("bob's wins after the upgrade: %d", s.Wins)
			}
			checkGames(t, db)
		})
	}
	// The Down sections work too (for a developer rolling back), and Up after
	// them rebuilds the same schema.
	t.Run("DownAndUp", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nimbot.db")
		mustOpenPath(t, path, "").Close()
		raw, err := sql.Open("sqlite3", dsn(path, nil))
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		p, err := newProvider(raw)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.DownTo(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if v, err := p.GetDBVersion(ctx); err != nil || v != 0 {
			t.Fatalf("after DownTo(0): version %d, %v", v, err)
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		atLatest(t, mustOpenPath(t, path, ""))
	})
}

// TestCreateGameFailedSave: the answer itself failing to save (here a
// trigger standing in for a full disk) takes the game with it. The rest of
// CreateGame's contract is checked against both stores by internal/storetest.
func TestCreateGameFailedSave(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	if _, err := db.writeConn.ExecContext(ctx, `CREATE TRIGGER fail_save BEFORE INSERT ON interactions
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
	err := db.CreateGame(ctx, newGame("c1", [2]string{"alice", match.BotID}, 3), match.Respond("i3", func(*match.Game) ([]byte, error) { return []byte("x"), nil }))
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("failed save: %v", err)
	}
	if g, err := db.ChannelGame(ctx, "c1"); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("a game was left behind: %+v, %v", g, err)
	}
	checkGames(t, db)
}

// TestDatabaseRefusesStaleMove: the triggers on moves hold even for a
// writer that skips Commit's checks. The rest of Commit's contract is
// checked against both stores by internal/storetest.
func TestDatabaseRefusesStaleMove(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
	for _, tt := range []struct {
		name string
		ply  int
	}{{"Future", 1}, {"Past", 0}} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "Past" {
				play(t, db, g, take(0, 1))
			}
			_, err := db.writeConn.ExecContext(ctx, `INSERT INTO moves (game_id, ply, player, move, at) VALUES (?, ?, 'x', '{}', 0)`, g.ID, tt.ply)
			if err == nil || !strings.Contains(err.Error(), "stale move") {
				t.Fatalf("got %v", err)
			}
		})
	}
	// Rows inserted together are checked one by one: a gap after a good
	// row refuses the statement, and the good row's ply advance goes with it.
	t.Run("GapInOneStatement", func(t *testing.T) {
		_, err := db.writeConn.ExecContext(ctx, `INSERT INTO moves (game_id, ply, player, move, at) VALUES (?1, 1, 'x', '{}', 0), (?1, 3, 'y', '{}', 0)`, g.ID)
		if err == nil || !strings.Contains(err.Error(), "stale move") {
			t.Fatalf("got %v", err)
		}
		if got, err := db.Game(ctx, g.ID); err != nil || got.Ply != 1 {
			t.Fatalf("after the refused statement: %+v, %v", got, err)
		}
	})
	t.Run("Over", func(t *testing.T) {
		over := mustCreate(t, db, newGame("c2", [2]string{"alice", "bob"}, 1))
		play(t, db, over, take(0, 1))
		_, err := db.writeConn.ExecContext(ctx, `INSERT INTO moves (game_id, ply, player, move, at) VALUES (?, 1, 'x', '{}', 0)`, over.ID)
		if err == nil || !strings.Contains(err.Error(), "stale move") {
			t.Fatalf("got %v", err)
		}
	})
	checkGames(t, db)
}

// TestCommitManyMoves: a Change with more moves than one statement inserts
// (two) lands whole, each move with its ply, its player and its own hint
// mark.
func TestCommitManyMoves(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 10))
	for _, h := range []match.Hint{{GameID: g.ID, Ply: 0, UserID: "bob"}} {
		if _, err := db.RecordHint(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
	// Hints for later plies cannot be asked for yet through RecordHint
	// (it refuses a ply the game is not at), so they are written directly.
	for _, h := range []struct {
		ply  int
		user string
	}{{1, "bob"}, {2, "alice"}, {4, "alice"}} {
		if _, err := db.writeConn.ExecContext(ctx, `INSERT INTO hints (game_id, ply, user_id, at) VALUES (?, ?, ?, 0)`, g.ID, h.ply, h.user); err != nil {
			t.Fatal(err)
		}
	}
	moves := []engine.Move{take(0, 1), take(0, 1), take(0, 1), take(0, 1), take(0, 1)}
	c, err := change(g, moves...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := db.Commit(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if out.Ply != 5 {
		t.Fatalf("ply %d after 5 moves", out.Ply)
	}
	got, err := db.Moves(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		player string
		hinted bool
	}{{"alice", false}, {"bob", true}, {"alice", true}, {"bob", false}, {"alice", true}}
	if len(got) != len(want) {
		t.Fatalf("%d moves: %+v", len(got), got)
	}
	for i, m := range got {
		if m.Ply != i || m.Player != want[i].player || m.Hinted != want[i].hinted || !reflect.DeepEqual(m.Move, moves[i]) {
			t.Errorf("move %d: %+v, want ply %d by %s hinted %v", i, m, i, want[i].player, want[i].hinted)
		}
	}
	checkGames(t, db)
}

// TestManyChannels: 1,000 channels play whole games at once, through two
// handles on the file as two processes would, with no "database is locked".
func TestManyChannels(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	// NORMAL: this test is about locking, not fsync.
	dbs := []*DB{mustOpenPath(t, path, "NORMAL"), mustOpenPath(t, path, "NORMAL")}
	const channels = 1000
	var wg sync.WaitGroup
	errs := make(chan error, channels)
	start := make(chan struct{})
	for i := range channels {
		wg.Go(func() {
			<-start
			if _, err := storetest.PlayChannel(ctx, dbs[i%len(dbs)], i, 50); err != nil {
				errs <- err
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := checkGames(t, dbs[0]); n != channels {
		t.Fatalf("%d games, want %d", n, channels)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	s, err := marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestConnectionSettings checks the DSN reaches every pooled connection,
// not just the first: foreign keys, WAL, the busy timeout, synchronous,
// SQLite's own automatic checkpoint, and read connections that cannot write.
func TestConnectionSettings(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		synchronous string
		want        int // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{{"", 2}, {"FULL", 2}, {"normal", 1}} {
		t.Run("Synchronous"+tt.synchronous, func(t *testing.T) {
			db := mustOpenPath(t, filepath.Join(t.TempDir(), "nimbot.db"), tt.synchronous)
			pragma := func(pool *sql.DB, name string) string {
				t.Helper()
				var v string
				if err := pool.QueryRowContext(ctx, `PRAGMA `+name).Scan(&v); err != nil {
					t.Fatal(err)
				}
				return v
			}
			for _, p := range []struct{ name, got, want string }{
				{"w foreign_keys", pragma(db.writeConn, "foreign_keys"), "1"},
				{"w journal_mode", pragma(db.writeConn, "journal_mode"), "wal"},
				{"w busy_timeout", pragma(db.writeConn, "busy_timeout"), "5000"},
				{"w synchronous", pragma(db.writeConn, "synchronous"), fmt.Sprint(tt.want)},
				{"r journal_mode", pragma(db.readers, "journal_mode"), "wal"},
				{"r query_only", pragma(db.readers, "query_only"), "1"},
				{"w wal_autocheckpoint", pragma(db.writeConn, "wal_autocheckpoint"), "1000"},
			} {
				if p.got != p.want {
					t.Errorf("%s = %s, want %s", p.name, p.got, p.want)
				}
			}
			// Several read connections at once all carry the settings.
			var conns []*sql.Conn
			for range 3 {
				c, err := db.readers.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				var fk int
				if err := c.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
					t.Errorf("read connection: foreign_keys %d, %v", fk, err)
				}
			}
			for _, c := range conns {
				c.Close()
			}
			if _, err := db.readers.ExecContext(ctx, `DELETE FROM games`); err == nil {
				t.Error("a read connection could write")
			}
			// Foreign keys are enforced.
			_, err := db.writeConn.ExecContext(ctx, `INSERT INTO hints (game_id, ply, user_id, at) VALUES (404, 0, 'x', 0)`)
			if !isConstraint(err, sqlite3.ErrConstraintForeignKey) {
				t.Errorf("a hint for no game: %v", err)
			}
		})
	}
}

// fillInteractions saves n answers of size bytes each, answered at at, in one
// transaction.
func fillInteractions(t *testing.T, db *DB, prefix string, n, size int, at time.Time) {
	t.Helper()
	resp := make([]byte, size)
	err := db.withTx(context.Background(), func(ctx context.Context, tx queries, _ time.Time) error {
		for i := range n {
			if err := saveResponse(ctx, tx, fmt.Sprint(prefix, i), 0, resp, at); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPruneInteractionsBatches: pruning deletes in bounded transactions,
// oldest first, so it never holds the write lock for the whole backlog, and
// keeps every answer that could still be redelivered.
func TestPruneInteractionsBatches(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	old := 2*match.PruneBatch + 500
	fillInteractions(t, db, "old", old, 10, epoch)
	fillInteractions(t, db, "new", 10, 10, epoch.Add(time.Hour))
	before, _ := db.writes.stats()
	n, err := db.PruneInteractions(ctx, epoch.Add(time.Minute))
	if err != nil || n != int64(old) {
		t.Fatalf("pruned %d, %v; want %d", n, err, old)
	}
	after, _ := db.writes.stats()
	if commits := after - before; commits != 3 {
		t.Errorf("pruning %d rows took %d transactions, want 3 of at most %d", old, commits, match.PruneBatch)
	}
	if _, err := db.Response(ctx, "new3"); err != nil {
		t.Errorf("a recent answer was pruned: %v", err)
	}
	if _, err := db.Response(ctx, "old3"); !errors.Is(err, match.ErrNotFound) {
		t.Errorf("an old answer survived: %v", err)
	}
}

// TestPruneReusesPages: the pages pruned answers free are reused by the next
// ones, so a database pruned on a schedule stays the same size without
// VACUUM.
func TestPruneReusesPages(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	size := func() int64 {
		t.Helper()
		// A reader may still hold an old snapshot of the log: the
		// checkpoint then reports busy, so try again until one completes.
		for deadline := time.Now().Add(10 * time.Second); ; {
			var busy, log, copied int64
			if err := db.writeConn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &log, &copied); err != nil {
				t.Fatal(err)
			}
			if busy == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("no TRUNCATE checkpoint completed within 10 s")
			}
			time.Sleep(time.Millisecond)
		}
		fi, err := os.Stat(db.Path())
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	at := epoch
	fillInteractions(t, db, "r0-", 2000, 900, at)
	first := size()
	for round := 1; round <= 3; round++ {
		if _, err := db.PruneInteractions(ctx, at.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Hour)
		fillInteractions(t, db, fmt.Sprint("r", round, "-"), 2000, 900, at)
		if got := size(); got > first+first/10 {
			t.Fatalf("round %d: the file grew from %d to %d bytes", round, first, got)
		}
	}
}
