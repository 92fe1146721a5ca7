package store

import (
	"context"
	"database/sql"
	"sync"

	"github.com/mattn/go-sqlite3"
)

// Prepared statements. go-sqlite3 compiles every query it is given afresh,
// and under load that was about a tenth of nimbot's CPU (BENCHMARKS.md,
// Load), for the same dozen queries. A stmtCache keeps them prepared, by
// query text: the read pool's as database/sql statements (database/sql
// prepares one per connection and reuses it), the writer's as go-sqlite3's
// own statements on its one connection (txn.go).
type stmtCache struct {
	db *sql.DB // the read pool; nil for the writer's cache
	// conn is the writer's connection its statements were prepared on.
	conn *sqlite3.SQLiteConn

	mu    sync.Mutex
	stmts map[string]cachedStmt
}

// cachedStmt is one statement of a stmtCache: pooled in the read pool's,
// raw in the writer's.
type cachedStmt struct {
	pooled *sql.Stmt
	raw    *sqlite3.SQLiteStmt
}

// maxCached bounds the statements kept per pool; the store has fewer
// queries, so this only guards against a query built from values.
const maxCached = 64

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]cachedStmt{}}
}

// get returns the read pool's prepared statement for query, preparing it
// on first use, or nil to run it unprepared this time.
func (c *stmtCache) get(ctx context.Context, query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.stmts[query].pooled; s != nil {
		return s
	}
	if len(c.stmts) >= maxCached {
		return nil
	}
	s, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		// The query runs unprepared and reports the error itself.
		return nil
	}
	c.stmts[query] = cachedStmt{pooled: s}
	return s
}

// close closes the statements. The writer's must be closed while its
// connection is held (writer.close).
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, s := range c.stmts {
		if s.pooled != nil {
			s.pooled.Close()
		} else {
			s.raw.Close()
		}
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

func (r reader) QueryRowContext(ctx context.Context, query string, args ...any) rowScanner {
	ctx = detach(ctx)
	if s := r.c.get(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return r.c.db.QueryRowContext(ctx, query, args...)
}
