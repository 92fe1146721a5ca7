package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
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
// Its queries are the per-interaction reads: a game, a board, one game's
// moves, a hint mark, a saved answer, each by primary key or a small index
// range. In WAL mode a reader never waits for a lock, so they take
// microseconds. On a cancellable context each would cost more than its own
// work: database/sql starts a goroutine per Rows to watch the context, and
// go-sqlite3 arms an interrupt per step (about 10 µs a query under load,
// BENCHMARKS.md). So they run detached from ctx's cancellation once ctx is
// checked live: a cancelled or expired ctx still fails at once, and a read
// that has started finishes.
//
// The one-row reads (QueryRowContext: every click's board, game and saved
// answer) skip database/sql's statement path too: they take a connection
// from the pool (sql.DB.Conn, which waits on ctx if all are busy) and run
// go-sqlite3's prepared statement on it directly (sql.Conn.Raw, as the
// writer does: txn.go), one cgo call to bind and step and one to reset.
// database/sql's Stmt, Rows and Row and its conversions by reflection were
// about a third of a board read's CPU (BENCHMARKS.md, "Store: a click's
// reads on the driver's connection"). The statements belong to their
// connection (readConn) and are finalized when the pool closes it.
type reader struct {
	c  *stmtCache // the read pool's database/sql statements, for QueryContext
	db *sql.DB    // the read pool
}

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

// QueryRowContext runs query on a pooled connection's prepared statement
// and returns its first row, read out of SQLite before the connection goes
// back to the pool: Scan reports sql.ErrNoRows if it has none, or the
// query's error, as sql.Row's does.
func (r reader) QueryRowContext(ctx context.Context, query string, args ...any) rowScanner {
	if err := ctx.Err(); err != nil {
		return &row{err: err}
	}
	conn, err := r.db.Conn(ctx)
	if err != nil {
		return &row{err: err}
	}
	defer conn.Close()
	var out rowScanner
	err = conn.Raw(func(dc any) error {
		rc, ok := dc.(*readConn)
		if !ok {
			return fmt.Errorf("store: the read pool's connection is a %T", dc)
		}
		out = rc.t.QueryRowContext(never, query, args...)
		return nil
	})
	if err != nil {
		return &row{err: err}
	}
	return out
}

// readDriverName is go-sqlite3 for the read pool: its connections are
// readConns (with connectHook, as driverName's).
const readDriverName = "sqlite3_nimbot_read"

// readDriver opens the read pool's connections.
type readDriver struct{ sqlite3.SQLiteDriver }

// Open opens go-sqlite3's connection and wraps it.
func (d *readDriver) Open(dsn string) (driver.Conn, error) {
	c, err := d.SQLiteDriver.Open(dsn)
	if err != nil {
		return nil, err
	}
	sc, ok := c.(*sqlite3.SQLiteConn)
	if !ok {
		c.Close()
		return nil, fmt.Errorf("store: go-sqlite3 opened a %T", c)
	}
	rc := &readConn{SQLiteConn: sc}
	rc.t = txn{conn: sc, c: &stmtCache{conn: sc, stmts: map[string]cachedStmt{}}}
	return rc, nil
}

// readConn is a connection of the read pool: go-sqlite3's (every method of
// the driver's connection is its own, for database/sql), with the
// statements reader.QueryRowContext prepared on it. database/sql uses a
// connection from one goroutine at a time, and Raw holds it for the read.
type readConn struct {
	*sqlite3.SQLiteConn
	// t runs the reader's statements on the connection, prepared once
	// each, as the writer's txn does on its own (txn.go); no transaction
	// is opened: each statement is its own read.
	t txn
}

// Close finalizes the reader's statements, then closes the connection (an
// unfinalized statement would keep SQLite's connection, and its file
// descriptors, open after database/sql let it go).
func (c *readConn) Close() error {
	c.t.c.close()
	return c.SQLiteConn.Close()
}
