//go:build linux

package store

import (
	"context"
	"database/sql"
	"net/url"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWalbufWritesACommitOnce: under the walbuf VFS a COMMIT's frames reach
// the log in one write per 64 KiB, where SQLite's own VFS makes two per
// frame; and what it wrote is there for another connection and after
// reopening. 80 rows of 2 KB (about 42 frames, 170 KiB) take a few writes
// of up to 64 KiB.
func TestWalbufWritesACommitOnce(t *testing.T) {
	if err := walbufOnce(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ rows, most int64 }{{16, 1}, {80, 4}} {
		own := commitWrites(t, "", tt.rows)
		walbuf := commitWrites(t, walbufVFS, tt.rows)
		t.Logf("write calls for a COMMIT of %d rows of 2 KB: SQLite's VFS %d, walbuf %d", tt.rows, own, walbuf)
		if own < tt.rows {
			t.Fatalf("SQLite's own VFS made %d write calls: the test no longer measures what it should", own)
		}
		if walbuf > tt.most {
			t.Errorf("walbuf made %d write calls for one COMMIT of %d rows, want at most %d", walbuf, tt.rows, tt.most)
		}
	}
}

// commitWrites commits rows rows of 2 KB in a new database opened with vfs
// (SQLite's default if ""), FULL as the store's writer, and returns the
// write system calls the COMMIT's thread made. It checks that another
// connection, and the database reopened, read the rows back.
func commitWrites(t *testing.T, vfs string, rows int64) int64 {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "walbuf.db")
	params := url.Values{"_journal_mode": {"WAL"}, "_synchronous": {"FULL"}}
	if vfs != "" {
		params.Set("vfs", vfs)
	}
	db, err := sql.Open(driverName, dsn(path, params))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE t (b BLOB NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO t SELECT randomblob(2000) FROM n`, rows); err != nil {
		t.Fatal(err)
	}
	// go-sqlite3 runs a statement on its caller's thread (with no
	// deadline on ctx), so the thread's counters see the COMMIT's writes
	// and nothing else's.
	runtime.LockOSThread()
	before, ok := readIOFile("/proc/thread-self/io")
	if !ok {
		runtime.UnlockOSThread()
		t.Skip("no /proc/thread-self/io")
	}
	_, err = conn.ExecContext(ctx, `COMMIT`)
	after, _ := readIOFile("/proc/thread-self/io")
	runtime.UnlockOSThread()
	if err != nil {
		t.Fatal(err)
	}
	for _, open := range []func() (*sql.DB, error){
		func() (*sql.DB, error) { return db, nil },
		func() (*sql.DB, error) {
			// Another connection of its own, once this one is closed.
			conn.Close()
			db.Close()
			return sql.Open(driverName, dsn(path, url.Values{"_journal_mode": {"WAL"}}))
		},
	} {
		other, err := open()
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		if err := other.QueryRowContext(ctx, `SELECT count(*) FROM t WHERE length(b) = 2000`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != rows {
			t.Fatalf("read %d rows back, want %d", n, rows)
		}
		if other != db {
			other.Close()
		}
	}
	return after.syscw - before.syscw
}
