package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/match"
	"nimbot/migrations"
)

// TestBackup copies the database while games are being played and checks
// the copy is a whole, consistent nimbot database.
func TestBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := mustOpenPath(t, filepath.Join(dir, "nimbot.db"), "NORMAL")
	for i := range 20 {
		mustCreate(t, db, newGame(fmt.Sprint("c", i), [2]string{"alice", "bob"}, 40, 40))
	}

	stop := make(chan struct{})
	var commits atomic.Int64
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				g, err := db.ChannelGame(ctx, fmt.Sprint("c", (i*5+n)%20))
				if errors.Is(err, match.ErrNotFound) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				h := 0
				if g.Position.Heaps[0] == 0 {
					h = 1
				}
				c, err := change(g, take(h, 1))
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := db.Commit(ctx, c); err != nil && !errors.Is(err, match.ErrStale) {
					t.Error(err)
					return
				}
				commits.Add(1)
			}
		})
	}
	// Back up several times while the writers run; each copy must open as a
	// nimbot database and hold only whole games.
	for i := range 3 {
		for commits.Load() < int64(50*(i+1)) {
			if t.Failed() {
				break
			}
			runtime.Gosched()
		}
		dest := filepath.Join(dir, "backup.db") // replaced each time
		// The store's own, and the file's from outside the store
		// (`nimbot backup`), alternately.
		if i%2 == 0 {
			if err := db.Backup(ctx, dest); err != nil {
				t.Fatal(err)
			}
		} else if v, err := Backup(ctx, db.Path(), dest); err != nil || v != LatestSchemaVersion() {
			t.Fatalf("Backup: version %d, %v", v, err)
		}
		copyDB := mustOpenPath(t, dest, "")
		if n := checkGames(t, copyDB); n != 20 {
			t.Fatalf("backup %d holds %d games", i, n)
		}
		copyDB.Close()
	}
	close(stop)
	wg.Wait()
	t.Logf("%d commits during the backups", commits.Load())

	t.Run("NotOverItself", func(t *testing.T) {
		for _, dest := range []string{db.Path(), db.Path() + "-wal", db.Path() + "-shm", db.Path() + "-journal"} {
			before := snapshot(t, dir)
			if err := db.Backup(ctx, dest); !errors.Is(err, match.ErrInvalid) {
				t.Fatalf("backup to %s: got %v", dest, err)
			}
			if _, err := Backup(ctx, db.Path(), dest); !errors.Is(err, match.ErrInvalid) {
				t.Fatalf("Backup to %s: got %v", dest, err)
			}
			if after := snapshot(t, dir); !slices.Equal(slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after))) {
				t.Fatalf("the folder changed:\nbefore %v\nafter  %v", keys(before), keys(after))
			}
		}
	})
	t.Run("NotOverAnotherFile", func(t *testing.T) {
		other := filepath.Join(dir, "notes.txt")
		writeFile(t, other, "precious")
		if err := db.Backup(ctx, other); !errors.Is(err, ErrNotDatabase) {
			t.Fatalf("got %v", err)
		}
		if b, _ := os.ReadFile(other); string(b) != "precious" {
			t.Fatalf("the file now holds %q", b)
		}
	})
	t.Run("MissingFolder", func(t *testing.T) {
		if err := db.Backup(ctx, filepath.Join(dir, "no", "backup.db")); !errors.Is(err, ErrUnwritable) {
			t.Fatalf("got %v", err)
		}
	})
}

// atVersion makes a nimbot database at path at schema version v, as the
// nimbot of that version would have left it, with one game in it.
func atVersion(t *testing.T, path string, v int64) {
	t.Helper()
	ctx := context.Background()
	raw, err := sql.Open("sqlite3", dsn(path, url.Values{"_journal_mode": {"WAL"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	p, err := newProvider(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, v); err != nil {
		t.Fatal(err)
	}
	// Version 1's columns, which every later version keeps.
	if _, err := raw.ExecContext(ctx, `INSERT INTO games (id, guild_id, channel_id, variant, rules, start, position, player0, player1, status, created_by, created_at, updated_at)
		VALUES (7, 'guild', 'c1', 'nim', '{"variant":"nim","misere":false}', '{"heaps":[2]}', '{"heaps":[2]}', 'alice', 'bob', 'active', 'alice', 1, 1)`); err != nil {
		t.Fatal(err)
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
}

// versionOf reads the schema version of the database at path through a
// read-only connection.
func versionOf(t *testing.T, path string) int64 {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path, url.Values{"mode": {"ro"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := readSchema(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return s.version
}

// TestBackupFile is `nimbot backup`: Backup reads the file without opening
// it as a store, so a file at an older schema (a bot of the previous
// release running on it, about to be upgraded) stays as it is, and so does
// the copy, which that release can still open.
func TestBackupFile(t *testing.T) {
	ctx := context.Background()
	latest := LatestSchemaVersion()

	t.Run("OlderSchema", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "nimbot.db")
		previous := previousVersion(t)
		atVersion(t, path, previous)
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dest := filepath.Join(dir, "before-upgrade.db")
		v, err := Backup(ctx, path, dest)
		if err != nil {
			t.Fatal(err)
		}
		if v != previous {
			t.Errorf("Backup says it copied schema version %d, want %d", v, previous)
		}
		if after, err := os.ReadFile(path); err != nil || !bytes.Equal(before, after) {
			t.Errorf("Backup changed the database file (%v)", err)
		}
		if got := versionOf(t, path); got != previous {
			t.Errorf("the database is at schema version %d after Backup, want %d", got, previous)
		}
		if got := versionOf(t, dest); got != previous {
			t.Errorf("the copy is at schema version %d, want %d", got, previous)
		}
		// What the previous release's Open checks: the copy is one it
		// can restore.
		if _, err := probe(ctx, dest, time.Second, previous, 0); err != nil {
			t.Errorf("the previous release would refuse the copy: %v", err)
		}
		// And this release migrates the copy and finds the game.
		db := mustOpenPath(t, dest, "")
		if _, err := db.Game(ctx, 7); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("WriteLockHeld", func(t *testing.T) {
		// Another process in the middle of a write transaction: Backup
		// reads the last committed state and does not wait for it.
		dir := t.TempDir()
		path := filepath.Join(dir, "nimbot.db")
		mustOpenPath(t, path, "").Close()
		c := startChild(t, "lock", path)
		defer c.kill()
		if line := c.waitFirst(t); line != "locked" {
			t.Fatalf("lock child said %q", line)
		}
		if v, err := Backup(ctx, path, filepath.Join(dir, "copy.db")); err != nil || v != latest {
			t.Fatalf("Backup beside a held write lock: version %d, %v", v, err)
		}
	})

	// Each refused: nothing at dest, no temporary file left, the database
	// file as it was.
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  error
		cause string
	}{{
		name:  "Missing",
		setup: func(t *testing.T, path string) {},
		want:  fs.ErrNotExist,
		cause: "no database file",
	}, {
		name:  "Empty",
		setup: func(t *testing.T, path string) { writeFile(t, path, "") },
		want:  ErrNotDatabase,
		cause: "empty",
	}, {
		name: "Folder",
		setup: func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		},
		want:  ErrNotDatabase,
		cause: "not a regular file",
	}, {
		name:  "NotSQLite",
		setup: func(t *testing.T, path string) { writeFile(t, path, "DISCORD_TOKEN=do-not-copy-me\n") },
		want:  ErrNotDatabase,
		cause: "SQLite header",
	}, {
		name: "AnotherAppsDatabase",
		setup: func(t *testing.T, path string) {
			execRaw(t, path, `CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)`)
		},
		want:  ErrNotDatabase,
		cause: "tables accounts",
	}, {
		name: "SchemaTooNew",
		setup: func(t *testing.T, path string) {
			mustOpenPath(t, path, "").Close()
			execRaw(t, path, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (99, 1)`)
		},
		want:  migrations.ErrSchemaTooNew,
		cause: "schema version 99",
	}, {
		name:  "Corrupt",
		setup: corruptMiddle,
		want:  ErrCorrupt,
		cause: "quick_check",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "nimbot.db")
			tt.setup(t, path)
			before := snapshot(t, dir)
			dest := filepath.Join(dir, "copy.db")
			_, err := Backup(ctx, path, dest)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.cause) {
				t.Fatalf("got %v, want an error wrapping %v that names %s and says %q", err, tt.want, path, tt.cause)
			}
			after := snapshot(t, dir)
			// SQLite may create the log and its index beside a WAL
			// database, as any reader does; nothing else may appear.
			for _, m := range []map[string][]byte{before, after} {
				delete(m, "nimbot.db-wal")
				delete(m, "nimbot.db-shm")
			}
			if !reflect.DeepEqual(before, after) {
				t.Fatalf("Backup changed the folder:\nbefore %v\nafter  %v", keys(before), keys(after))
			}
		})
	}
}

// previousVersion is the schema version before the latest: the migration
// before the last one (the numbers may have gaps).
func previousVersion(t *testing.T) int64 {
	t.Helper()
	raw, err := sql.Open("sqlite3", dsn(filepath.Join(t.TempDir(), "versions.db"), nil))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	p, err := newProvider(raw)
	if err != nil {
		t.Fatal(err)
	}
	sources := p.ListSources()
	return sources[len(sources)-2].Version
}
