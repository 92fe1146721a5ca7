package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Group commit. Every write transaction of the store runs on the one writer
// connection, and with synchronous=FULL each COMMIT waits for an fsync of
// the WAL: that fsync, not SQLite's work, is what a write costs. So the
// writer runs the transactions that queue up while it is busy as one SQLite
// transaction, each in its own SAVEPOINT: one that fails (a stale move, a
// duplicate interaction) is rolled back to its savepoint alone, the others
// land, and one COMMIT — one fsync — makes the whole batch durable. Every
// caller gets its result only after that COMMIT returns, so nothing is
// acknowledged before it is durable. A write that arrives while the writer
// is idle is committed at once, alone: batching adds no waiting.

// maxBatch bounds the transactions committed together, so one batch cannot
// hold the write lock (and its callers' answers) for long.
const maxBatch = 64

// ErrClosed: the database was closed before the write could run.
var ErrClosed = errors.New("store: the database is closed")

// txFunc is one write transaction's body. ctx is the writer's, not the
// caller's: a caller giving up must not interrupt a statement of a batch
// others share (SQLite rolls back the whole transaction on an interrupt).
type txFunc func(ctx context.Context, tx *txn, now time.Time) error

// job is one caller's transaction waiting for, or in, a batch.
type job struct {
	ctx   context.Context
	fn    txFunc
	err   error
	panic any
	done  chan struct{}
}

// writer queues jobs for the one writer connection and commits them in
// batches.
type writer struct {
	conn   *sql.DB // the one write connection (DB.writeConn)
	now    func() time.Time
	stmts  *stmtCache
	health *health // told of errors that say a page is damaged

	mu     sync.Mutex
	queue  []*job
	closed bool
	wake   chan struct{} // capacity 1: the queue has jobs
	exited chan struct{} // closed when run returns

	// batches and batched count COMMITs and the jobs they held (for tests
	// and benchmarks).
	batches, batched int64
}

func newWriter(w *sql.DB, now func() time.Time, h *health) *writer {
	wr := &writer{conn: w, now: now, stmts: newStmtCache(nil), health: h, wake: make(chan struct{}, 1), exited: make(chan struct{})}
	go wr.run()
	return wr
}

// do runs fn in a write transaction, alone or in a batch, and returns once
// its outcome is durable (or it failed). A panic in fn is raised again here.
func (wr *writer) do(ctx context.Context, fn txFunc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	j := &job{ctx: ctx, fn: fn, done: make(chan struct{})}
	wr.mu.Lock()
	if wr.closed {
		wr.mu.Unlock()
		return ErrClosed
	}
	wr.queue = append(wr.queue, j)
	wr.mu.Unlock()
	select {
	case wr.wake <- struct{}{}:
	default:
	}
	// Wait even if ctx ends: the job may already be in a batch, and its
	// outcome is not known until the batch commits.
	<-j.done
	if j.panic != nil {
		panic(j.panic)
	}
	return j.err
}

// close stops taking jobs, lets the queued ones run, and waits for the
// writer to stop.
func (wr *writer) close() {
	wr.mu.Lock()
	already := wr.closed
	wr.closed = true
	wr.mu.Unlock()
	if !already {
		select {
		case wr.wake <- struct{}{}:
		default:
		}
	}
	<-wr.exited
	// The statements are the connection's: finalized while it is held.
	_ = wr.raw(func(*sqlite3.SQLiteConn) error {
		wr.stmts.close()
		return nil
	})
}

// raw runs f with the writer's connection, as go-sqlite3's, held.
func (wr *writer) raw(f func(*sqlite3.SQLiteConn) error) error {
	ctx := context.Background()
	conn, err := wr.conn.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("store: the write connection is a %T, not go-sqlite3's", dc)
		}
		return f(c)
	})
}

// run is the writer's loop.
func (wr *writer) run() {
	defer close(wr.exited)
	for range wr.wake {
		for {
			wr.mu.Lock()
			n := min(len(wr.queue), maxBatch)
			batch := wr.queue[:n:n]
			wr.queue = wr.queue[n:]
			if len(wr.queue) == 0 {
				wr.queue = nil
			}
			closed := wr.closed
			wr.mu.Unlock()
			if n == 0 {
				if closed {
					return
				}
				break
			}
			wr.commit(batch)
		}
	}
}

// commit runs batch in one transaction, each job in its own savepoint, and
// reports every job's outcome after COMMIT.
func (wr *writer) commit(batch []*job) {
	all := batch
	defer func() {
		for _, j := range all {
			if j.err != nil && wr.health != nil {
				wr.health.noteDamage(j.err, time.Now())
			}
			close(j.done)
		}
	}()
	err := wr.raw(func(c *sqlite3.SQLiteConn) error {
		wr.stmts.use(c)
		tx := &txn{conn: c, c: wr.stmts}
		for len(batch) > 0 {
			// retry is the jobs to run again in a new transaction when one
			// job's failure took the whole transaction with it.
			retry, err := wr.try(tx, batch)
			if err == nil {
				return nil
			}
			if retry == nil {
				return err
			}
			batch = retry
		}
		return nil
	})
	if err != nil {
		for _, j := range batch {
			if j.err == nil && j.panic == nil {
				j.err = err
			}
		}
	}
}

// try runs the jobs of batch that have no outcome yet in one transaction.
// When a job's failure ended the transaction (SQLite rolls it all back on
// some errors), that job keeps its error and try returns the others to run
// again; otherwise it returns the error of BEGIN or COMMIT, if any, for
// every job that succeeded.
func (wr *writer) try(tx *txn, batch []*job) (retry []*job, err error) {
	ctx := context.Background()
	if err := tx.exec(`BEGIN IMMEDIATE`); err != nil {
		return nil, err
	}
	// commit ends the transaction either way; until it runs, a failure
	// rolls it back.
	ended := false
	defer func() {
		if !ended {
			tx.rollback()
		}
	}()
	if len(batch) == 1 {
		// Alone, a write needs no savepoint: if it fails, nothing commits.
		j := batch[0]
		if j.err = j.ctx.Err(); j.err != nil {
			return nil, nil
		}
		if j.err, j.panic = call(ctx, j.fn, tx, wr.now()); j.err != nil || j.panic != nil {
			return nil, nil
		}
		ended = true
		if err := tx.commit(); err != nil {
			return nil, err
		}
		wr.count(1)
		return nil, nil
	}
	var ran []*job
	for _, j := range batch {
		if j.err != nil || j.panic != nil {
			continue
		}
		if err := j.ctx.Err(); err != nil {
			j.err = err
			continue
		}
		if err := tx.exec(`SAVEPOINT job`); err != nil {
			return nil, err
		}
		j.err, j.panic = call(ctx, j.fn, tx, wr.now())
		if j.err == nil && j.panic == nil {
			if err := tx.exec(`RELEASE job`); err != nil {
				return nil, err
			}
			ran = append(ran, j)
			continue
		}
		if err := tx.exec(`ROLLBACK TO job`); err != nil {
			// The transaction is gone, and with it the jobs before this one:
			// run them, and those after, again.
			var rest []*job
			for _, k := range batch {
				if k.err == nil && k.panic == nil {
					rest = append(rest, k)
				}
			}
			return rest, fmt.Errorf("transaction rolled back: %w", err)
		}
		if err := tx.exec(`RELEASE job`); err != nil {
			return nil, err
		}
	}
	ended = true
	if err := tx.commit(); err != nil {
		return nil, err
	}
	wr.count(len(ran))
	return nil, nil
}

// commit commits the transaction. A COMMIT that fails may leave it open
// (SQLITE_BUSY); it is rolled back then, as go-sqlite3's Tx.Commit does.
func (t *txn) commit() error {
	err := t.exec(`COMMIT`)
	if err != nil {
		t.rollback()
	}
	return err
}

// rollback rolls back the transaction, if one is open: a job's failure
// may have ended it already.
func (t *txn) rollback() {
	if !t.conn.AutoCommit() {
		_ = t.exec(`ROLLBACK`)
	}
}

// count records a COMMIT of n jobs.
func (wr *writer) count(n int) {
	wr.mu.Lock()
	wr.batches++
	wr.batched += int64(n)
	wr.mu.Unlock()
}

// call runs fn, turning a panic into a value to raise in the caller.
func call(ctx context.Context, fn txFunc, tx *txn, now time.Time) (err error, p any) {
	defer func() {
		if v := recover(); v != nil {
			p = v
		}
	}()
	return fn(ctx, tx, now), nil
}

// stats returns the COMMITs so far and the jobs they held.
func (wr *writer) stats() (batches, jobs int64) {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	return wr.batches, wr.batched
}

// queued is how many jobs wait for the next batch.
func (wr *writer) queued() int {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	return len(wr.queue)
}
