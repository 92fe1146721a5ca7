package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"time"

	"github.com/mattn/go-sqlite3"
)

// The writer's statements run on go-sqlite3's connection itself, not
// through database/sql. Every write waits for the writer's one connection
// (one committer at a time, writer.go), so its cost per statement is the
// server's throughput: database/sql added a connection lock, a Stmt bound
// to the transaction, argument conversion and a result per statement, and
// for every query a goroutine watching the transaction's context
// (BENCHMARKS.md, "Store: the writer on the driver's connection"). Here
// each batch's committer takes the connection from its one-connection pool
// (sql.Conn.Raw: between batches database/sql may use it, for migrations
// and tests) and runs go-sqlite3's prepared statements on it directly, on
// a context that is never cancelled, so go-sqlite3 takes its synchronous
// path: a statement whose result is not needed is reset, bound and stepped
// in one cgo call (txn.exec).

// txn is a write transaction on the writer's connection: the jobs' bodies
// run their statements through it.
type txn struct {
	conn *sqlite3.SQLiteConn
	c    *stmtCache
	// args is the arguments' scratch, reused statement to statement.
	args []driver.NamedValue
}

// never is the context the writer's statements run on: go-sqlite3 watches
// a cancellable one with a goroutine per statement. ctx.Done() is nil.
var never = context.Background()

// use makes conn the connection c's statements are prepared on, dropping
// those prepared on another (database/sql replaced the connection).
func (c *stmtCache) use(conn *sqlite3.SQLiteConn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == conn {
		return
	}
	for q, s := range c.stmts {
		s.raw.Close()
		delete(c.stmts, q)
	}
	c.conn = conn
}

// stmt returns the prepared statement for query, preparing it on first use;
// oneOff says it is not kept (the cache is full) and the caller closes it.
func (t *txn) stmt(query string) (s *sqlite3.SQLiteStmt, oneOff bool, err error) {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if s := t.c.stmts[query].raw; s != nil {
		return s, false, nil
	}
	ds, err := t.conn.Prepare(query)
	if err != nil {
		return nil, false, err
	}
	s, ok := ds.(*sqlite3.SQLiteStmt)
	if !ok {
		ds.Close()
		return nil, false, fmt.Errorf("store: go-sqlite3 prepared a %T", ds)
	}
	if len(t.c.stmts) >= maxCached {
		return s, true, nil
	}
	t.c.stmts[query] = cachedStmt{raw: s}
	return s, false, nil
}

// bind converts args as database/sql would (driver.DefaultParameterConverter:
// go-sqlite3's statements have no converter of their own), the usual types
// without reflection, and checks their number against the statement's.
func (t *txn) bind(s *sqlite3.SQLiteStmt, args []any) ([]driver.NamedValue, error) {
	if n := s.NumInput(); n != len(args) {
		return nil, fmt.Errorf("sql: expected %d arguments, got %d", n, len(args))
	}
	nv := t.args[:0]
	for i, a := range args {
		v, err := driverValue(a)
		if err != nil {
			return nil, fmt.Errorf("sql: converting argument $%d type: %w", i+1, err)
		}
		nv = append(nv, driver.NamedValue{Ordinal: i + 1, Value: v})
	}
	t.args = nv
	return nv, nil
}

// driverValue is a as a driver.Value.
func driverValue(a any) (driver.Value, error) {
	switch v := a.(type) {
	case nil, int64, string, []byte, bool, float64, time.Time:
		return v, nil
	case int:
		return int64(v), nil
	case sql.NullInt64:
		if !v.Valid {
			return nil, nil
		}
		return v.Int64, nil
	}
	return driver.DefaultParameterConverter.ConvertValue(a)
}

// clearArgs drops the arguments' references (a saved answer's bytes) once a
// statement has run.
func (t *txn) clearArgs() {
	clear(t.args)
	t.args = t.args[:0]
}

// run binds args to query's statement and takes its first step, in one cgo
// call. The caller reads the rows, if it wants any, and ends them with
// done, unless the statement has finished (exec).
func (t *txn) run(query string, args []any) (rows driver.Rows, oneOff *sqlite3.SQLiteStmt, err error) {
	s, once, err := t.stmt(query)
	if err != nil {
		return nil, nil, err
	}
	if once {
		oneOff = s
	}
	nv, err := t.bind(s, args)
	if err == nil {
		rows, err = s.QueryContext(never, nv)
	}
	t.clearArgs()
	if err != nil {
		if oneOff != nil {
			oneOff.Close()
		}
		return nil, nil, err
	}
	return rows, oneOff, nil
}

// done resets rows' statement, closing it if it was a one-off.
func done(rows driver.Rows, oneOff *sqlite3.SQLiteStmt) {
	rows.Close()
	if oneOff != nil {
		oneOff.Close()
	}
}

// exec runs a statement whose result is not needed (an INSERT or UPDATE
// that either works or fails, a SAVEPOINT): one cgo call, that resets the
// statement from its last run, binds args and steps it to its end.
//
// A statement that returns no rows finishes at its first step, and a
// finished statement holds nothing (SQLite closes its cursors and its
// statement journal when it halts): it is left as it is until its next
// run resets it, which saves a second cgo call (rows.Close, sqlite3_reset)
// per statement.
func (t *txn) exec(query string, args ...any) error {
	rows, oneOff, err := t.run(query, args)
	if err != nil {
		return err
	}
	if oneOff != nil || len(rows.Columns()) > 0 {
		// It may not have finished: one returning rows (a job's own
		// SELECT through exec, an INSERT … RETURNING).
		done(rows, oneOff)
	}
	return nil
}

// lastChangeQuery reads what a statement changed, as sql.Result reports
// it: the connection's last inserted rowid and the rows the latest INSERT,
// UPDATE or DELETE changed (go-sqlite3's Exec reads the same two values).
const lastChangeQuery = `SELECT last_insert_rowid(), changes()`

// ExecContext runs a statement and returns its sql.Result. ctx is the
// writer's (the job's body passes it on); the statement runs to completion.
func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := t.exec(query, args...); err != nil {
		return nil, err
	}
	var r result
	if err := t.QueryRowContext(ctx, lastChangeQuery).Scan(&r.id, &r.changes); err != nil {
		return nil, err
	}
	return r, nil
}

// result is a statement's sql.Result.
type result struct{ id, changes int64 }

func (r result) LastInsertId() (int64, error) { return r.id, nil }
func (r result) RowsAffected() (int64, error) { return r.changes, nil }

// QueryRowContext runs a query and returns its first row, like
// sql.Tx.QueryRowContext: Scan reports sql.ErrNoRows if it has none, or
// the query's error.
func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) rowScanner {
	rows, oneOff, err := t.run(query, args)
	if err != nil {
		return &row{err: err}
	}
	defer done(rows, oneOff)
	r := new(row)
	if n := len(rows.Columns()); n <= len(r.buf) {
		r.vals = r.buf[:n]
	} else {
		r.vals = make([]driver.Value, n)
	}
	if err := rows.Next(r.vals); err != nil {
		if errors.Is(err, io.EOF) {
			err = sql.ErrNoRows
		}
		return &row{err: err}
	}
	return r
}

// row is a row read by txn.QueryRowContext: its values, already copied
// out of SQLite, or the query's error.
type row struct {
	vals []driver.Value
	err  error
	buf  [24]driver.Value // vals when they fit: a game row is 21
}

// Scan stores the row's values in dest as sql.Row.Scan does for the types
// the store reads (strings, integers, booleans, bytes, sql.Scanner).
func (r *row) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	if len(dest) != len(r.vals) {
		return fmt.Errorf("sql: expected %d destination arguments in Scan, not %d", len(r.vals), len(dest))
	}
	for i, d := range dest {
		if err := assign(d, r.vals[i]); err != nil {
			return fmt.Errorf("sql: Scan error on column index %d: %w", i, err)
		}
	}
	return nil
}

// assign stores v, a value go-sqlite3 read (int64, float64, bool, string,
// []byte or nil; the store's columns are INTEGER, TEXT and BLOB), in dest.
func assign(dest any, v driver.Value) error {
	switch d := dest.(type) {
	case *string:
		switch s := v.(type) {
		case string:
			*d = s
			return nil
		case []byte:
			*d = string(s)
			return nil
		case int64:
			*d = strconv.FormatInt(s, 10)
			return nil
		}
	case *int64:
		if n, ok := v.(int64); ok {
			*d = n
			return nil
		}
	case *int:
		if n, ok := v.(int64); ok && int64(int(n)) == n {
			*d = int(n)
			return nil
		}
	case *bool:
		switch b := v.(type) {
		case bool:
			*d = b
			return nil
		case int64:
			// database/sql's driver.Bool: 1 and 0 only.
			if b == 0 || b == 1 {
				*d = b == 1
				return nil
			}
		}
	case *[]byte:
		switch b := v.(type) {
		case []byte:
			// go-sqlite3 copied it out of SQLite: the row owns it.
			*d = b
			return nil
		case string:
			*d = []byte(b)
			return nil
		case nil:
			*d = nil
			return nil
		}
	case *any:
		*d = v
		return nil
	case sql.Scanner:
		return d.Scan(v)
	}
	// What database/sql would convert by reflection: a named type of one
	// of the kinds above.
	if p := reflect.ValueOf(dest); p.Kind() == reflect.Pointer && !p.IsNil() {
		e := p.Elem()
		switch {
		case e.Kind() == reflect.String:
			if s, ok := v.(string); ok {
				e.SetString(s)
				return nil
			}
		case e.CanInt():
			if n, ok := v.(int64); ok && !e.OverflowInt(n) {
				e.SetInt(n)
				return nil
			}
		case e.Kind() == reflect.Bool:
			if n, ok := v.(int64); ok && (n == 0 || n == 1) {
				e.SetBool(n == 1)
				return nil
			}
		}
	}
	if v == nil {
		return fmt.Errorf("converting NULL to %T is unsupported", dest)
	}
	return fmt.Errorf("unsupported Scan, storing driver.Value type %T into type %T", v, dest)
}
