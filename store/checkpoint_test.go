package store

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// scratchWrites makes a table of blobs in db and returns a function that
// commits one row of size bytes: log pages to checkpoint, and nothing else.
func scratchWrites(t *testing.T, db *DB, size int) func() {
	t.Helper()
	ctx := context.Background()
	if err := db.withTx(ctx, func(_ context.Context, tx *txn, _ time.Time) error {
		return tx.exec(`CREATE TABLE scratch (b BLOB)`)
	}); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := db.withTx(ctx, func(_ context.Context, tx *txn, _ time.Time) error {
			return tx.exec(`INSERT INTO scratch (b) VALUES (zeroblob(?))`, size)
		}); err != nil {
			t.Error(err)
		}
	}
}

// quietCheckpoint waits until the checkpointer has run more than after
// times, copied the whole log, and not run again for a while (it runs only
// after a COMMIT, at most once per checkpointEvery), and returns its runs
// and the log's size in pages then.
func quietCheckpoint(t *testing.T, db *DB, after int64) (runs, log int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runs, log, backfilled, err := db.checkpoints.stats()
		if err != nil {
			t.Fatalf("checkpoint: %v", err)
		}
		if runs > after && log == backfilled {
			time.Sleep(3 * checkpointEvery)
			if again, _, _, _ := db.checkpoints.stats(); again == runs {
				return runs, log
			}
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint copied the whole log within 10 s: %d runs, the last found %d pages in the log and %d copied", runs, log, backfilled)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// After writes the checkpointer copies the whole log without the writer's
// own checkpoint (its backstop is far off), and so the next write starts
// the log over: the log then holds that write's pages alone, no more than
// it held with at least the last write of the burst in it.
func TestCheckpointerCopiesTheLog(t *testing.T) {
	db := mustOpen(t)
	write := scratchWrites(t, db, 3*4096)
	for range 20 {
		write()
	}
	runs, burst := quietCheckpoint(t, db, 0)
	if burst == 0 || burst >= checkpointBackstop {
		t.Fatalf("after 20 writes the log holds %d pages; want some, under the backstop (%d)", burst, checkpointBackstop)
	}
	write()
	if _, log := quietCheckpoint(t, db, runs); log > burst {
		t.Fatalf("after one more write the log holds %d pages, more than the %d it held, all copied, before: it did not start over", log, burst)
	}
}

// Under unbroken writing from several callers the log never grows far
// past the backstop: the writer's own checkpoint, when the log reaches it,
// finds little left to copy, and the log starts over.
func TestCheckpointBackstopBoundsTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	db := mustOpenPath(t, path, "")
	const pages = 10 // per write
	write := scratchWrites(t, db, pages*4096)
	var wg sync.WaitGroup
	const writers = 4
	total := 5 * checkpointBackstop / pages // five backstops' worth of pages
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range total / writers {
				write()
			}
		}()
	}
	wg.Wait()
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	// The log file keeps the largest size it reached: frames of a page and
	// a 24-byte header, after a 32-byte file header. It passes the backstop
	// by what is written while the checkpointer holds the checkpoint lock
	// (the writer's own checkpoint then gives up at once, and the next
	// COMMIT tries again): 4,000 to 4,400 pages under -race on a loaded
	// 2-CPU machine, with FULL's fsync per COMMIT (with NORMAL's far
	// quicker COMMITs, up to 10,400). Without the backstop it holds every
	// page written, 20,000.
	limit := int64(3*checkpointBackstop) * (4096 + 24)
	if fi.Size() > limit {
		t.Fatalf("the log reached %d bytes (%d pages) after %d writes of %d pages; want at most three times the backstop, %d pages",
			fi.Size(), (fi.Size()-32)/(4096+24), total, pages, 3*checkpointBackstop)
	}
	if runs, _, _, _ := db.checkpoints.stats(); runs == 0 {
		t.Fatal("the checkpointer never ran")
	}
}

// Close stops the checkpointer: its goroutine is gone and its connection
// closed, and a store closed at once after writes is whole.
func TestCheckpointerStopsAtClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	db, err := Open(context.Background(), Config{Path: path, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	write := scratchWrites(t, db, 4096)
	for range 20 {
		write()
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-db.checkpoints.done:
	default:
		t.Fatal("the checkpointer still runs after Close")
	}
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Fatalf("the log is still there after Close (err %v): the last connection to close did not checkpoint it", err)
	}
	db = mustOpenPath(t, path, "")
	var n int
	if err := db.readers.QueryRow(`SELECT count(*) FROM scratch`).Scan(&n); err != nil || n != 20 {
		t.Fatalf("after reopening, %d rows (err %v), want 20", n, err)
	}
}

// checkpointedStore opens a store, commits 20 writes of a few pages each,
// and returns it once the checkpointer has copied the whole log.
func checkpointedStore(t *testing.T) *DB {
	t.Helper()
	db := mustOpen(t)
	write := scratchWrites(t, db, 3*4096)
	for range 20 {
		write()
	}
	quietCheckpoint(t, db, 0)
	return db
}

// After the checkpointer copies pages into the database file it starts
// their write-back (on Linux): the count of write-backs started grows with
// the checkpoints that copied something, and none failed.
func TestCheckpointerStartsWriteback(t *testing.T) {
	db := checkpointedStore(t)
	started := db.checkpoints.started()
	if !writebackSupported {
		if started != 0 || db.checkpoints.file != nil {
			t.Fatalf("%d write-backs started, file %v, where sync_file_range does not exist", started, db.checkpoints.file)
		}
		return
	}
	if started == 0 {
		t.Fatal("the checkpointer copied the log but started no write-back of the database file")
	}
}

// startWriteback starts a file's write-back, and says so when it cannot.
func TestStartWriteback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := startWriteback(f); err != nil {
		t.Fatalf("write-back of a file just written, opened read-only: %v", err)
	}
	f.Close()
	if !writebackSupported {
		return
	}
	if err := startWriteback(f); err == nil {
		t.Fatal("write-back of a closed file reported no error")
	}
	// A pipe has no pages to write: sync_file_range itself refuses it.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if err := startWriteback(r); err == nil {
		t.Fatal("write-back of a pipe reported no error")
	}
}
