package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"nimbot/match"
	"nimbot/migrations"
)

// snapshot is a folder's file names and contents, to show Open left a
// refused file (and its neighbours) exactly as they were.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			files[e.Name()+"/"] = nil
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// setup prepares dir and returns the path to open.
		setup func(t *testing.T, dir string) string
		want  error
		cause string // part of the message
	}{{
		name:  "MissingFolder",
		setup: func(t *testing.T, dir string) string { return filepath.Join(dir, "no", "such", "nimbot.db") },
		want:  ErrUnwritable,
		cause: "does not exist",
	}, {
		name: "FolderIsAFile",
		setup: func(t *testing.T, dir string) string {
			writeFile(t, filepath.Join(dir, "file"), "x")
			return filepath.Join(dir, "file", "nimbot.db")
		},
		want:  ErrUnwritable,
		cause: "not a directory",
	}, {
		name: "PathIsAFolder",
		setup: func(t *testing.T, dir string) string {
			if err := os.Mkdir(filepath.Join(dir, "nimbot.db"), 0o755); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, "nimbot.db")
		},
		want:  ErrUnwritable,
		cause: "is a directory",
	}, {
		name: "ReadOnlyFolder",
		setup: func(t *testing.T, dir string) string {
			if os.Geteuid() == 0 {
				t.Skip("root writes through permissions")
			}
			ro := filepath.Join(dir, "ro")
			if err := os.Mkdir(ro, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(ro, 0o755) })
			return filepath.Join(ro, "nimbot.db")
		},
		want:  ErrUnwritable,
		cause: "permission denied",
	}, {
		name: "NotADatabase",
		setup: func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "nimbot.db")
			writeFile(t, path, "DISCORD_TOKEN=do-not-clobber-me\n")
			return path
		},
		want:  ErrNotDatabase,
		cause: "SQLite header",
	}, {
		name: "ShortFile",
		setup: func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "nimbot.db")
			writeFile(t, path, "SQLite")
			return path
		},
		want:  ErrNotDatabase,
		cause: "SQLite header",
	}, {
		name: "AnotherAppsDatabase",
		setup: func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "other.db")
			execRaw(t, path, `CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)`, `INSERT INTO accounts VALUES (1, 100)`)
			return path
		},
		want:  ErrNotDatabase,
		cause: "tables accounts",
	}, {
		name: "SchemaTooNew",
		setup: func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "nimbot.db")
			mustOpenPath(t, path, "").Close()
			// What a future nimbot would leave: a version this one lacks.
			execRaw(t, path, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (99, 1)`)
			return path
		},
		want:  migrations.ErrSchemaTooNew,
		cause: "schema version 99",
	}, {
		name: "Locked",
		setup: func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "nimbot.db")
			mustOpenPath(t, path, "").Close()
			c := startChild(t, "lock", path)
			t.Cleanup(func() { c.kill() })
			if line := c.waitFirst(t); line != "locked" {
				t.Fatalf("lock child said %q", line)
			}
			return path
		},
		want:  ErrLocked,
		cause: "another process",
	}, {
		name: "CorruptMiddlePages",
		setup: func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "nimbot.db")
			corruptMiddle(t, path)
			return path
		},
		want:  ErrCorrupt,
		cause: "nimbot backup",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.setup(t, dir)
			before := snapshot(t, dir)
			db, err := Open(ctx, Config{Path: path, LockTimeout: 200 * time.Millisecond})
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			var oe *OpenError
			if !errors.Is(err, tt.want) || !errors.As(err, &oe) {
				t.Fatalf("got %v, want an *OpenError wrapping %v", err, tt.want)
			}
			if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, tt.cause) {
				t.Fatalf("message %q should name %s and say %q", msg, path, tt.cause)
			}
			after := snapshot(t, dir)
			if !reflect.DeepEqual(before, after) {
				t.Fatalf("Open changed the folder:\nbefore %v\nafter  %v", keys(before), keys(after))
			}
		})
	}

	t.Run("BadSynchronous", func(t *testing.T) {
		_, err := Open(ctx, Config{Path: filepath.Join(t.TempDir(), "x.db"), Synchronous: "OFF"})
		if !errors.Is(err, match.ErrInvalid) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("UnlockedAfterChildExits", func(t *testing.T) {
		// The lock test's converse: once the holder is gone, Open works.
		path := filepath.Join(t.TempDir(), "nimbot.db")
		mustOpenPath(t, path, "").Close()
		c := startChild(t, "lock", path)
		c.waitFirst(t)
		c.kill()
		mustOpenPath(t, path, "")
	})
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k, v := range m {
		ks = append(ks, fmt.Sprintf("%s (%d bytes)", k, len(v)))
	}
	slices.Sort(ks)
	return ks
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// execRaw runs statements on path through a plain connection, as another
// program would.
func execRaw(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}

// corruptMiddle makes a nimbot database at path with a few thousand saved
// answers and a finished game, closes it, and overwrites three pages in the
// middle of the file with garbage, as a failing disk or a stray write would.
// The first pages (the schema) stay intact, so the damage is found only by
// reading the whole file.
func corruptMiddle(t *testing.T, path string) {
	t.Helper()
	db := mustOpenPath(t, path, "")
	fillInteractions(t, db, "i", 3000, 900, epoch)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 1))
	play(t, db, g, take(0, 1))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	garbleMiddle(t, path)
}

// garbleMiddle overwrites three pages in the middle of the file at path.
func garbleMiddle(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	pages := fi.Size() / page
	if pages < 100 {
		t.Fatalf("only %d pages", pages)
	}
	garbage := make([]byte, 3*page)
	for i := range garbage {
		garbage[i] = byte(i*7 + 13)
	}
	if _, err := f.WriteAt(garbage, (pages/2)*page); err != nil {
		t.Fatal(err)
	}
}

// TestOpenCheckBound: a file larger than FullCheckBytes is checked for at
// most CheckTimeout; a check cut short is no failure.
func TestOpenCheckBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	db := mustOpenPath(t, path, "")
	fillInteractions(t, db, "i", 3000, 900, epoch)
	db.Close()
	db, err := Open(context.Background(), Config{Path: path, FullCheckBytes: 1, CheckTimeout: time.Nanosecond})
	if err != nil {
		t.Fatalf("a check cut short by its bound failed Open: %v", err)
	}
	db.Close()
}

// TestOpenBesideWriter: a second Open of a file a store is running on (as
// `nimbot play` beside the bot) checks the file without keeping the running
// store's writes waiting. Shown by order, not by time: a write of the
// running store commits while the second Open's quick_check is still open
// (checkingHook), which it could not if the check held the write lock: the
// write would wait out its busy timeout and fail.
func TestOpenBesideWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	running := mustOpenPath(t, path, "")
	fillInteractions(t, running, "i", 3000, 900, epoch)

	checked := false
	var wrote error
	checkingHook = func() {
		checked = true
		wrote = running.SaveResponse(ctx, "during-check", []byte("x"))
	}
	t.Cleanup(func() { checkingHook = nil })
	other, err := Open(ctx, Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	checkingHook = nil
	if !checked {
		t.Fatal("the second Open ran no check")
	}
	if wrote != nil {
		t.Fatalf("the running store's write during the second Open's check: %v", wrote)
	}
	if b, err := other.Response(ctx, "during-check"); err != nil || string(b) != "x" {
		t.Fatalf("the write made during the check: %q, %v", b, err)
	}
}

// TestOpenMigratesAlone: Open migrates a file only with the file to itself.
// Beside another process that has it open (a bot of the previous release,
// with `nimbot play` or the new bot of this one started beside it) it fails
// with ErrLocked and leaves the file at its schema; once that process is
// gone it migrates.
func TestOpenMigratesAlone(t *testing.T) {
	ctx := context.Background()
	latest := LatestSchemaVersion()
	previous := previousVersion(t)
	path := filepath.Join(t.TempDir(), "nimbot.db")
	atVersion(t, path, previous)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := startChild(t, "hold", path)
	defer c.kill()
	if line := c.waitFirst(t); line != "open" {
		t.Fatalf("hold child said %q", line)
	}
	db, err := Open(ctx, Config{Path: path, LockTimeout: 200 * time.Millisecond})
	if err == nil {
		db.Close()
		t.Fatalf("Open migrated the file from version %d to %d beside another process", previous, versionOf(t, path))
	}
	var oe *OpenError
	want := fmt.Sprintf("from version %d to %d", previous, latest)
	if !errors.Is(err, ErrLocked) || !errors.As(err, &oe) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an *OpenError wrapping ErrLocked that says %q", err, want)
	}
	if v := versionOf(t, path); v != previous {
		t.Fatalf("the file is at version %d after the refusal", v)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(before, after) {
		t.Fatalf("the refusal changed the file (%v)", err)
	}

	c.kill()
	db = mustOpenPath(t, path, "")
	if v, err := db.SchemaVersion(ctx); err != nil || v != latest {
		t.Fatalf("once alone: version %d, %v", v, err)
	}
	if _, err := db.Game(ctx, 7); err != nil {
		t.Fatal(err)
	}
}

// TestOpenNewFileTogether: stores opened on a new file at once each find
// the schema, created by one of them.
func TestOpenNewFileTogether(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	dbs := make([]*DB, 3)
	errs := make([]error, len(dbs))
	var wg sync.WaitGroup
	for i := range dbs {
		wg.Go(func() { dbs[i], errs[i] = Open(ctx, Config{Path: path}) })
	}
	wg.Wait()
	for i, db := range dbs {
		if errs[i] != nil {
			t.Errorf("open %d: %v", i, errs[i])
			continue
		}
		if v, err := db.SchemaVersion(ctx); err != nil || v != LatestSchemaVersion() {
			t.Errorf("open %d: version %d, %v", i, v, err)
		}
		db.Close()
	}
}
