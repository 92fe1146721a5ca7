package store

import (
	"context"
	"database/sql"
	"os"
	"sync"
	"time"
)

// Checkpoints off the commit path. In WAL mode every COMMIT appends pages
// to the write-ahead log, and a checkpoint copies them back into the
// database file so that the log can start over. By default SQLite runs one
// inside the COMMIT that takes the log past 1,000 pages, on the committing
// connection: under load that was several times a second, each copying
// about a thousand pages and syncing the log and the file, while every
// write queued behind it waited. Under load those stalls were the writes'
// latency tail and a sixth of the throughput (BENCHMARKS.md, "Store:
// checkpoints off the commit path").
//
// So a checkpointer of the store's own copies the log on a connection of
// its own, concurrently with the writer, which SQLite allows: a PASSIVE
// checkpoint takes no lock a writer or reader waits for. It runs soon after
// a COMMIT and at most once per checkpointEvery, so the log it leaves
// behind is what a few dozen milliseconds of writes append.
//
// The log starts over only when a write transaction begins with every page
// of it copied, so under unbroken writing the checkpointer, always a few
// commits behind, might never let it. The writer connection's own
// automatic checkpoint therefore stays, as a backstop at
// checkpointBackstop pages: when it fires, the checkpointer has copied all
// but the last few dozen milliseconds' pages, so the COMMIT that runs it
// copies little, and the log starts over at the next write. So the log
// stays near the backstop under any load: past it only by what is written
// while a checkpointer's run holds the checkpoint lock (the writer's own
// checkpoint then gives up at once, and the next COMMIT tries again). An
// idle store's log is copied at once and starts over at the next write.
//
// The checkpointer's connection syncs as the writer's does (the
// synchronous setting): a checkpoint syncs the log before copying it and
// the file before the log may be overwritten, so no committed page is ever
// only in a log being reused.
//
// Write-back in small doses. A checkpoint's copies land in the kernel's
// page cache, and SQLite syncs the database file only when a checkpoint has
// copied the whole log: the checkpointer's, when it catches up, and the
// backstop's, inside a COMMIT. Each such sync wrote everything copied since
// the last one, a few hundred random pages, in one burst; the log's fsyncs
// behind it, every player's COMMIT, waited on the same disk. So after each
// of its checkpoints the checkpointer has the kernel start writing the
// file's dirty pages (startWriteback: sync_file_range on Linux), without
// waiting and without a flush: the pages go out in doses of one run's
// copies, the log's next fsync flushes them with its own, and the syncs
// SQLite makes find little left to write. PostgreSQL's checkpointer does the
// same (checkpoint_flush_after), as does RocksDB (bytes_per_sync).
// BENCHMARKS.md, "Load: the disk's floor and what else sets the p99", has
// the figures.

const (
	// checkpointBackstop is the writer connection's wal_autocheckpoint:
	// the log's size in pages at which the COMMIT that reaches it
	// checkpoints, should the checkpointer have fallen behind or never
	// found the log wholly copied between two writes. Four times SQLite's
	// default: 16 MiB of log with 4 KiB pages.
	checkpointBackstop = 4000
	// checkpointEvery is the least time between two of the checkpointer's
	// checkpoints: it bounds their rate (and the fsyncs they cost) under
	// load, while a store that has been idle longer copies its log at once.
	checkpointEvery = 50 * time.Millisecond
)

// checkpointer copies the write-ahead log into the database file, off the
// commit path. Its one connection is its own.
type checkpointer struct {
	conn  *sql.DB
	every time.Duration
	// health is told of errors that say a page is damaged.
	health *health
	kick   chan struct{} // capacity 1: a COMMIT since the last checkpoint
	stop   chan struct{}
	done   chan struct{}

	// file is the database file, opened read-only for startWriteback;
	// nil where that does nothing. Only run uses it. Closing any
	// descriptor of a file drops every POSIX lock the process holds on
	// it, SQLite's included (SQLite's "How To Corrupt", 2.2), so it is
	// closed only once no connection is left: DB.Close calls closeFile
	// last.
	file *os.File

	mu sync.Mutex
	// runs counts checkpoints; log and backfilled are the last one's
	// report (the log's pages, and how many of them are in the file), and
	// lastErr its error (for tests). writebacks counts the write-backs
	// started.
	runs, log, backfilled int64
	lastErr               error
	writebacks            int64
}

// newCheckpointer starts a checkpointer on conn, a connection of its own to
// the database at path.
func newCheckpointer(conn *sql.DB, path string, every time.Duration, h *health) (*checkpointer, error) {
	c := &checkpointer{conn: conn, every: every, health: h,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if writebackSupported {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		c.file = f
	}
	go c.run()
	return c, nil
}

// committed tells the checkpointer of a COMMIT. It never waits.
func (c *checkpointer) committed() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// run checkpoints after each COMMIT it hears of, at most once per every,
// until close.
func (c *checkpointer) run() {
	defer close(c.done)
	pause := time.NewTimer(c.every)
	pause.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
		}
		c.checkpoint()
		pause.Reset(c.every)
		select {
		case <-c.stop:
			return
		case <-pause.C:
		}
	}
}

// checkpoint copies what it can of the log without waiting for anyone.
func (c *checkpointer) checkpoint() {
	var busy, log, backfilled int64
	err := c.conn.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &log, &backfilled)
	if err != nil && c.health != nil {
		c.health.noteDamage(err, time.Now())
	}
	started := false
	if err == nil && backfilled > 0 && c.file != nil {
		// What this run copied starts on its way to the disk now, not
		// in the burst of SQLite's next sync of the file.
		err = startWriteback(c.file)
		started = err == nil
	}
	c.mu.Lock()
	c.runs++
	c.log, c.backfilled, c.lastErr = log, backfilled, err
	if started {
		c.writebacks++
	}
	c.mu.Unlock()
}

// close stops the checkpointer and closes its connection. The store's last
// connection to close checkpoints whatever is left.
func (c *checkpointer) close() error {
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	<-c.done
	return c.conn.Close()
}

// closeFile closes the database file startWriteback used. Call it only
// after every connection to the database has closed (file's comment).
func (c *checkpointer) closeFile() {
	if c.file != nil {
		c.file.Close()
	}
}

// started returns how many write-backs the checkpointer has started.
func (c *checkpointer) started() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writebacks
}

// stats returns how many checkpoints ran and the last one's report.
func (c *checkpointer) stats() (runs, log, backfilled int64, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs, c.log, c.backfilled, c.lastErr
}
