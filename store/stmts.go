package store

import (
	"context"
	"database/sql"
	"sync"
)

// Prepared statements. go-sqlite3 compiles every query it is given afresh,
// and under load that was about a tenth of nimbot's CPU (BENCHMARKS.md,
// Load), for the same dozen queries. A stmtCache keeps them prepared, by
// query text, for one pool; database/sql prepares a statement once per
// connection and reuses it, in transactions too (Tx.StmtContext).
type stmtCache struct {
	db *sql.DB
	// lazy: a query is prepared on first use. The writer's cache is not
	// lazy: preparing on its pool needs its one connection, which the
	// transaction asking holds, so the queries it used are prepared before
	// the writer's next transaction (prepareWanted).
	lazy bool

	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
}

// maxCached bounds the statements kept per pool; the store has fewer
// queries, so this only guards against a query built from values.
const maxCached = 64

func newStmtCache(db *sql.DB, lazy bool) *stmtCache {
	return &stmtCache{db: db, lazy: lazy, stmts: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
}

// get returns the prepared statement for query, or nil to run it unprepared
// this time.
func (c *stmtCache) get(ctx context.Context, query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.stmts[query]; s != nil {
		return s
	}
	if len(c.stmts) >= maxCached {
		return nil
	}
	if !c.lazy {
		c.wanted[query] = true
		return nil
	}
	s, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		// The query runs unprepared and reports the error itself.
		return nil
	}
	c.stmts[query] = s
	return s
}

// prepareWanted prepares the queries a transaction ran unprepared. The
// writer calls it between transactions, when its connection is free.
func (c *stmtCache) prepareWanted(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q := range c.wanted {
		delete(c.wanted, q)
		if len(c.stmts) >= maxCached {
			continue
		}
		if s, err := c.db.PrepareContext(ctx, q); err == nil {
			c.stmts[q] = s
		}
	}
}

// close closes the statements.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, s := range c.stmts {
		s.Close()
		delete(c.stmts, q)
	}
}

// reader runs queries on the read pool with prepared statements.
//
// Its queries are the per-interaction reads: a game, one game's moves, a
// hint mark, a saved answer, each by primary key or a small index range. In
// WAL mode a reader never waits for a lock, so they take microseconds. On a
// cancellable context each would cost more than its own work: database/sql
// starts a goroutine per Rows to watch the context, and go-sqlite3 arms an
// interrupt per step (about 10 µs a query under load, BENCHMARKS.md). So
// they run detached from ctx's cancellation once ctx is checked live: a
// cancelled or expired ctx still fails at once, and a read that has started
// finishes.
type reader struct{ c *stmtCache }

// detach is ctx without its cancellation, unless ctx is already done (then
// ctx itself, so the query fails with its error).
func detach(ctx context.Context) context.Context {
	if ctx.Err() != nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

func (r reader) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = detach(ctx)
	if s := r.c.get(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return r.c.db.QueryContext(ctx, query, args...)
}

func (r reader) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = detach(ctx)
	if s := r.c.get(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return r.c.db.QueryRowContext(ctx, query, args...)
}

// txn is a write transaction whose statements come from the writer's cache.
type txn struct {
	*sql.Tx
	c *stmtCache
	// bound holds the cached statements bound to this transaction
	// (Tx.StmtContext), so the jobs of a group commit share them: binding
	// allocates a Stmt and registers it with the Tx, on every call.
	bound map[*sql.Stmt]*sql.Stmt
}

func (t *txn) stmt(ctx context.Context, query string) *sql.Stmt {
	s := t.c.get(ctx, query)
	if s == nil {
		return nil
	}
	if b := t.bound[s]; b != nil {
		return b
	}
	b := t.Tx.StmtContext(ctx, s)
	if t.bound == nil {
		t.bound = map[*sql.Stmt]*sql.Stmt{}
	}
	t.bound[s] = b
	return b
}

// ExecContext is sql.Tx's, with a prepared statement.
func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

// QueryContext is sql.Tx's, with a prepared statement.
func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext is sql.Tx's, with a prepared statement.
func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}
