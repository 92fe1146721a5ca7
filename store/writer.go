package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Group commit. Every write transaction of the store runs on the one writer
// connection, and with synchronous=FULL each COMMIT waits for an fsync of
// the WAL: that fsync, not SQLite's work, is what a write costs. So the
// transactions that queue up while one batch commits run as one SQLite
// transaction: one that fails (a stale move, a duplicate interaction) is
// undone alone (commit: the batch runs again with a SAVEPOINT around each
// job), the others land, and one COMMIT — one fsync — makes the whole batch
// durable. Every caller gets its result only after that COMMIT returns, so
// nothing is acknowledged before it is durable. A write that arrives while
// nobody commits is committed at once, alone: batching adds no waiting.
//
// Who commits: the callers themselves, one at a time (leader and
// followers), so that a write that commits alone hands nothing from
// goroutine to goroutine. A caller that finds no batch committing becomes
// the committer: it takes the queue (its own job first, up to maxBatch) and
// commits it on its own goroutine. Callers arriving meanwhile queue and
// park. When its batch is done the committer passes the role to the first
// queued job's caller (woken with "you lead" rather than a result) and
// returns its own result, so each caller commits at most one batch and
// waits for at most the batch before its own.
//
// The role must never be lost, or every later write would wait forever:
// whatever way a committer's batch ends — normally, a job's fn panicking
// (call recovers it and the job's own caller raises it again), or a panic
// out of the commit itself (the driver, the runtime) — lead's deferred
// finish hands the role on or, with nothing queued, clears it.
//
// Contexts. A job whose caller's context has ended before it runs is not
// run. Once it runs, its statements get the caller's context without its
// cancellation (context.WithoutCancel): the transaction is the batch's, and
// SQLite rolls back the whole transaction on an interrupted write, so one
// caller giving up must not undo the others' writes. The transaction itself
// is begun on no caller's context for the same reason.

// maxBatch bounds the transactions committed together, so one batch cannot
// hold the write lock (and its callers' answers) for long.
const maxBatch = 64

// ErrClosed: the database was closed before the write could run.
var ErrClosed = errors.New("store: the database is closed")

// errAbandoned is a job's outcome when its batch's commit panicked (not a
// job's fn: the driver or the runtime) before its outcome was known: its
// transaction was rolled back as the panic unwound (try's deferred
// rollback).
var errAbandoned = errors.New("store: the write's batch failed with a panic while committing")

// txFunc is one write transaction's body: tx runs the writer's prepared
// statements in the batch's transaction, ctx is the caller's without its
// cancellation (see Contexts above), now the transaction's time.
type txFunc func(ctx context.Context, tx queries, now time.Time) error

// job is one caller's transaction waiting for, or in, a batch.
type job struct {
	ctx   context.Context
	fn    txFunc
	err   error
	panic any
	// ran says the job ran in a transaction that was then rolled back
	// for another job's failure (try): it runs again whatever its ctx
	// says, since a job after it may have been refused for what it wrote
	// (a redelivery finding the first delivery's answer), and that
	// outcome holds only if it commits.
	ran bool
	// lead, set before done is closed, says the caller is woken to commit
	// the next batch (its own job first in it), not with its outcome.
	lead bool
	// done is closed once, by the committer that settled the job or
	// passed it the role.
	done chan struct{}
}

// writer queues jobs for the one writer connection; their callers commit
// them in batches, one committer at a time.
type writer struct {
	conn   *sql.DB    // the one write connection (DB.writeConn)
	stmts  statements // writeQueries, prepared on conn
	now    func() time.Time
	health *health // told of errors that say a page is damaged

	mu    sync.Mutex
	queue []*job
	// leading says a caller holds the committer's role. Without it the
	// queue is empty: a committer hands the role on while jobs are queued.
	leading bool
	closed  bool
	// idle is signalled (on mu) when leading becomes false, for close.
	idle sync.Cond

	// batches and batched count COMMITs and the jobs they held (for tests
	// and benchmarks).
	batches, batched int64
}

func newWriter(w *sql.DB, stmts statements, now func() time.Time, h *health) *writer {
	wr := &writer{conn: w, stmts: stmts, now: now, health: h}
	wr.idle.L = &wr.mu
	return wr
}

// do runs fn in a write transaction, alone or in a batch, and returns once
// its outcome is durable (or it failed). A panic in fn is raised again here.
func (wr *writer) do(ctx context.Context, fn txFunc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	j := &job{ctx: ctx, fn: fn}
	wr.mu.Lock()
	if wr.closed {
		wr.mu.Unlock()
		return ErrClosed
	}
	wr.queue = append(wr.queue, j)
	if !wr.leading {
		// Nobody commits: the queue was empty, and j, first in it,
		// commits itself without waking anyone.
		wr.leading = true
		wr.mu.Unlock()
	} else {
		// The channel is made only for a caller that waits.
		j.done = make(chan struct{})
		wr.mu.Unlock()
		// Wait even if ctx ends: the job may already be in a batch, and its
		// outcome is not known until the batch commits.
		<-j.done
		if !j.lead {
			if j.panic != nil {
				panic(j.panic)
			}
			return j.err
		}
	}
	wr.lead(j)
	if j.panic != nil {
		panic(j.panic)
	}
	return j.err
}

// lead commits the next batch as the committer, self's job first in it,
// and then passes the role on (finish), however the batch ends.
func (wr *writer) lead(self *job) {
	wr.mu.Lock()
	n := min(len(wr.queue), maxBatch)
	batch := wr.queue[:n:n]
	wr.queue = wr.queue[n:]
	if len(wr.queue) == 0 {
		wr.queue = nil
	}
	wr.mu.Unlock()
	settled := false
	defer func() {
		if !settled {
			// A panic out of commit, not a job's fn: the jobs without an
			// outcome did not commit. (Nothing after a successful COMMIT
			// in commit can panic but the runtime itself.) The panic goes
			// on up to self's caller once the others are told.
			for _, j := range batch {
				if j.err == nil && j.panic == nil {
					j.err = errAbandoned
				}
			}
		}
		wr.finish(self, batch)
	}()
	wr.commit(batch)
	settled = true
}

// finish reports batch's outcomes to its callers (self's is its own: it
// is not waiting) and passes the committer's role to the first queued job,
// or clears it when none is queued.
func (wr *writer) finish(self *job, batch []*job) {
	for _, j := range batch {
		if j.err != nil && wr.health != nil {
			wr.health.noteDamage(j.err, time.Now())
		}
	}
	wr.mu.Lock()
	var next *job
	if len(wr.queue) > 0 {
		next = wr.queue[0]
		next.lead = true
	} else {
		wr.leading = false
		wr.idle.Broadcast()
	}
	wr.mu.Unlock()
	for _, j := range batch {
		if j != self {
			close(j.done)
		}
	}
	if next != nil {
		close(next.done)
	}
}

// close stops taking jobs, lets the queued ones run (their callers commit
// them), and waits until no committer is left.
func (wr *writer) close() {
	wr.mu.Lock()
	wr.closed = true
	for wr.leading {
		wr.idle.Wait()
	}
	wr.mu.Unlock()
}

// commit runs batch in one transaction and sets every job's outcome once
// COMMIT has returned; finish reports them.
//
// The first try runs the jobs one after the other with nothing between
// them, since almost no batch holds a failure. A job that fails may have
// written before failing, and nothing marks where it began, so then the
// whole transaction is rolled back and the jobs without an outcome run
// again in a new one, each in its own savepoint: a failure there is rolled
// back to its savepoint alone. So a batch costs at most one transaction
// thrown away, whatever fails in it.
func (wr *writer) commit(batch []*job) {
	savepoints := false
	for len(batch) > 0 {
		// retry is the jobs to run again in a new transaction when one
		// job's failure took the whole transaction with it.
		retry, err := wr.try(batch, savepoints)
		if err == nil {
			return
		}
		if retry == nil {
			for _, j := range batch {
				if j.err == nil && j.panic == nil {
					j.err = err
				}
			}
			return
		}
		batch, savepoints = retry, true
	}
}

// errRunAgain is try's error when a job failed in a transaction without
// savepoints: the transaction is rolled back, and the jobs it returns run
// again.
var errRunAgain = errors.New("store: a write failed in a batch without savepoints")

// try runs the jobs of batch that have no outcome yet in one transaction,
// each in its own savepoint if savepoints is set (commit). When a job's
// failure ended the transaction (SQLite rolls it all back on some errors),
// or any job failed without savepoints, that job keeps its outcome and try
// returns the others to run again; otherwise it returns the error of BEGIN
// or COMMIT, if any, for every job that succeeded.
func (wr *writer) try(batch []*job, savepoints bool) (retry []*job, err error) {
	ctx := context.Background()
	// BEGIN IMMEDIATE (the DSN's _txlock).
	sqlTx, err := wr.conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	tx := queries{stmts: wr.stmts, tx: sqlTx}
	// Commit ends the transaction either way; until it runs, a failure
	// rolls it back (an error if SQLite has rolled it back already).
	ended := false
	defer func() {
		if !ended {
			_ = sqlTx.Rollback()
		}
	}()
	if len(batch) == 1 {
		// Alone, a write needs no savepoint: if it fails, nothing commits.
		j := batch[0]
		if err := j.ctx.Err(); err != nil && !j.ran {
			j.err = err
			return nil, nil
		}
		if j.panic, j.err = call(j.ctx, j.fn, tx, wr.now()); j.err != nil || j.panic != nil {
			return nil, nil
		}
		ended = true
		if err := sqlTx.Commit(); err != nil {
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
		if err := j.ctx.Err(); err != nil && !j.ran {
			j.err = err
			continue
		}
		// From here j's writes may be what a later job's outcome rests on,
		// until the transaction is committed or lost whole.
		j.ran = true
		if !savepoints {
			j.panic, j.err = call(j.ctx, j.fn, tx, wr.now())
			if j.err == nil && j.panic == nil {
				ran = append(ran, j)
				continue
			}
			// The deferred rollback undoes whatever j wrote, and the jobs
			// before it with it.
			if rest := unsettled(batch); len(rest) > 0 {
				return rest, errRunAgain
			}
			return nil, nil
		}
		if _, err := tx.ExecContext(ctx, savepointSQL); err != nil {
			return nil, err
		}
		j.panic, j.err = call(j.ctx, j.fn, tx, wr.now())
		if j.err == nil && j.panic == nil {
			if _, err := tx.ExecContext(ctx, releaseSQL); err != nil {
				return nil, err
			}
			ran = append(ran, j)
			continue
		}
		if _, err := tx.ExecContext(ctx, rollbackToSQL); err != nil {
			// The transaction is gone, and with it the jobs before this one:
			// run them, and those after, again.
			return unsettled(batch), fmt.Errorf("transaction rolled back: %w", err)
		}
		if _, err := tx.ExecContext(ctx, releaseSQL); err != nil {
			return nil, err
		}
	}
	ended = true
	if err := sqlTx.Commit(); err != nil {
		return nil, err
	}
	wr.count(len(ran))
	return nil, nil
}

// unsettled returns the jobs of batch without an outcome, or nil.
func unsettled(batch []*job) []*job {
	var rest []*job
	for _, j := range batch {
		if j.err == nil && j.panic == nil {
			rest = append(rest, j)
		}
	}
	return rest
}

// The statements around each job of a batch run with savepoints.
const (
	savepointSQL  = `SAVEPOINT job`
	releaseSQL    = `RELEASE job`
	rollbackToSQL = `ROLLBACK TO job`
)

// count records a COMMIT of n jobs.
func (wr *writer) count(n int) {
	wr.mu.Lock()
	wr.batches++
	wr.batched += int64(n)
	wr.mu.Unlock()
}

// call runs fn on the caller's ctx without its cancellation, turning a
// panic into a value to raise in the caller.
func call(ctx context.Context, fn txFunc, tx queries, now time.Time) (p any, err error) {
	defer func() {
		if v := recover(); v != nil {
			p = v
		}
	}()
	return nil, fn(context.WithoutCancel(ctx), tx, now)
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
