package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/pressly/goose/v3"

	"nimbot/match"
	"nimbot/migrations"
)

// Config says which database to open and how.
type Config struct {
	// Path is the database file; nimbot takes it from DATABASE_PATH
	// (default ./nimbot.db). It is created, with its schema, if missing.
	Path string
	// Synchronous is SQLite's synchronous setting: "FULL" (the default)
	// makes every acknowledged commit survive power loss; "NORMAL" survives
	// a process crash but may lose the latest commits on power loss.
	Synchronous string
	// Now is the clock for every timestamp the store writes (default
	// time.Now), so tests control time.
	Now func() time.Time
	// LockTimeout bounds how long Open waits for another process's write
	// lock before failing with ErrLocked (default 2 s), so a stuck process
	// turns into a clear error rather than a hang at start-up.
	LockTimeout time.Duration
	// FullCheckBytes: an existing file up to this size (database and
	// write-ahead log together; default DefaultFullCheckBytes) is checked
	// whole with PRAGMA quick_check before Open uses it. A larger one is
	// checked for at most CheckTimeout (default DefaultCheckTimeout): its
	// tables and indexes in order, as far as the check gets in that time.
	// A damaged page it finds fails Open with ErrCorrupt.
	FullCheckBytes int64
	CheckTimeout   time.Duration
}

// Open's integrity check bounds. quick_check reads every page once, so a
// whole file costs start-up time in proportion to its size: a file up to
// DefaultFullCheckBytes is checked whole, a larger one for at most
// DefaultCheckTimeout.
const (
	DefaultFullCheckBytes = 256 << 20
	DefaultCheckTimeout   = 5 * time.Second
)

// DefaultSynchronous is Config.Synchronous's default: every acknowledged
// commit survives power loss.
const DefaultSynchronous = "FULL"

// CheckSynchronous says why s is not a Config.Synchronous setting ("" for the
// default, FULL or NORMAL in any case), if it is not.
func CheckSynchronous(s string) error {
	switch strings.ToUpper(s) {
	case "", "FULL", "NORMAL":
		return nil
	}
	return fmt.Errorf("%w: synchronous must be FULL or NORMAL, not %q", match.ErrInvalid, s)
}

// DB is an open nimbot database. It is safe for concurrent use.
type DB struct {
	path string
	now  func() time.Time
	// writeConn has exactly one connection: writers in this process queue for it in
	// Go, in order, instead of spinning in SQLite's busy handler. Every
	// transaction on it is BEGIN IMMEDIATE (see the DSN).
	writeConn *sql.DB
	// readers holds read-only connections; in WAL mode they read a consistent
	// snapshot without waiting for the writer.
	readers *sql.DB
	// writes runs every write transaction on writeConn, committing those that queue up
	// together (see writer.go).
	writes *writer
	// reads runs readQueries, prepared on readers.
	reads queries
	// health is what the health checks share (health.go).
	health health
	// ids reserves the ids of games about to be created (CreateGame).
	ids gameIDs
}

// busyTimeout is how long a write waits for another process's lock before
// SQLite reports "database is locked". Within one process writers never
// contend in SQLite (they share DB.writeConn's one connection).
const busyTimeout = 5 * time.Second

// defaultLockTimeout is Config.LockTimeout's default.
const defaultLockTimeout = 2 * time.Second

// sqliteHeader starts every SQLite 3 database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// Open opens (creating if needed) the database at cfg.Path and brings its
// schema up to date.
//
// Before changing anything it checks the file: a path that cannot be
// written, a file that is not a nimbot database, a schema newer than this
// binary knows, or a write lock held by another process each fail with an
// *OpenError naming the file and wrapping ErrUnwritable, ErrNotDatabase,
// migrations.ErrSchemaTooNew or ErrLocked, and leave the file as it was.
//
// It migrates the schema only with the file to itself (migrateAlone): when
// it must, another process with the file open, such as a nimbot of an
// earlier release still running on it, fails it with ErrLocked, and the
// file stays at its schema. A file already at this binary's schema is
// opened beside other processes.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	if cfg.Path == "" {
		return nil, &OpenError{Path: cfg.Path, Err: fmt.Errorf("%w: no database path given", ErrUnwritable)}
	}
	fail := func(err error) (*DB, error) { return nil, &OpenError{Path: cfg.Path, Err: err} }
	if err := CheckSynchronous(cfg.Synchronous); err != nil {
		return fail(err)
	}
	synchronous := strings.ToUpper(cfg.Synchronous)
	if synchronous == "" {
		synchronous = DefaultSynchronous
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	lockTimeout := cfg.LockTimeout
	if lockTimeout <= 0 {
		lockTimeout = defaultLockTimeout
	}
	path, err := filepath.Abs(cfg.Path)
	if err != nil {
		return fail(fmt.Errorf("%w: %v", ErrUnwritable, err))
	}

	exists, err := checkFile(path)
	if err != nil {
		return fail(err)
	}
	latest, err := latestVersion()
	if err != nil {
		return fail(err)
	}
	var version int64 // a new file has none
	if exists {
		check := integrityBound(path, cfg.FullCheckBytes, cfg.CheckTimeout)
		if version, err = probe(ctx, path, lockTimeout, latest, check); err != nil {
			return fail(err)
		}
	}
	if !exists || version < latest {
		if err := migrateAlone(ctx, path, synchronous, lockTimeout, version, latest); err != nil {
			return fail(err)
		}
	}

	w, err := sql.Open("sqlite3", dsn(path, url.Values{
		"_foreign_keys": {"on"},
		"_journal_mode": {"WAL"},
		"_busy_timeout": {strconv.FormatInt(busyTimeout.Milliseconds(), 10)},
		"_txlock":       {"immediate"},
		"_synchronous":  {synchronous},
	}))
	if err != nil {
		return fail(err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	r, err := sql.Open("sqlite3", dsn(path, url.Values{
		"_foreign_keys": {"on"},
		"_busy_timeout": {strconv.FormatInt(busyTimeout.Milliseconds(), 10)},
		"_txlock":       {"deferred"},
		"_query_only":   {"on"},
	}))
	if err != nil {
		w.Close()
		return fail(err)
	}
	readers := max(4, 2*runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	db := &DB{path: path, now: now, writeConn: w, readers: r}
	var largest int64
	var writeStmts statements
	// game_ids keeps the largest id of games since forgotten, so that an id
	// is never handed out twice.
	err = w.QueryRowContext(ctx, `SELECT max(coalesce((SELECT max(id) FROM games), 0), coalesce((SELECT largest FROM game_ids), 0))`).Scan(&largest)
	if err == nil {
		writeStmts, err = prepareAll(ctx, w, writeQueries)
	}
	if err == nil {
		db.reads.stmts, err = prepareAll(ctx, r, readQueries)
	}
	if err != nil {
		writeStmts.close()
		w.Close()
		r.Close()
		return fail(err)
	}
	db.ids.next = largest + 1
	db.health.file, _ = os.Stat(path)
	db.writes = newWriter(w, writeStmts, now, &db.health)
	return db, nil
}

// dsn builds a go-sqlite3 data source name. The file: URI form lets SQLite
// take its own parameters (mode=rw) beside the driver's _-prefixed ones,
// which configure every pooled connection as it is opened; a one-off PRAGMA
// would reach only one connection.
func dsn(path string, params url.Values) string {
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
	return "file:" + escaped + "?" + params.Encode()
}

// checkFile inspects path without changing it, reporting whether a database
// file already exists there. SQLite's own error for all of these cases is
// "unable to open database file"; this says which.
func checkFile(path string) (exists bool, err error) {
	dir := filepath.Dir(path)
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if fi.IsDir() {
			return false, fmt.Errorf("%w: it is a directory", ErrUnwritable)
		}
		if !fi.Mode().IsRegular() {
			return false, fmt.Errorf("%w: it is not a regular file (%v)", ErrUnwritable, fi.Mode().Type())
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return false, fmt.Errorf("%w: %v", ErrUnwritable, unwrapPath(err))
		}
		// An empty file is an empty database to SQLite.
		_, err = readHeader(f)
		f.Close()
		if err != nil {
			return false, err
		}
		exists = true
	case errors.Is(err, fs.ErrNotExist):
		dfi, err := os.Stat(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return false, fmt.Errorf("%w: the folder %s does not exist", ErrUnwritable, dir)
			}
			return false, fmt.Errorf("%w: %v", ErrUnwritable, err)
		}
		if !dfi.IsDir() {
			return false, fmt.Errorf("%w: %s is not a folder", ErrUnwritable, dir)
		}
	default:
		return false, fmt.Errorf("%w: %v", ErrUnwritable, unwrapPath(err))
	}
	// SQLite creates the -wal and -shm files beside the database, so the
	// folder must be writable even when the file itself is.
	tmp, err := os.CreateTemp(dir, ".nimbot-write-check-*")
	if err != nil {
		return false, fmt.Errorf("%w: cannot create files in the folder %s: %v", ErrUnwritable, dir, unwrapPath(err))
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return exists, nil
}

// readHeader reads the start of a file: empty when it has no bytes at all,
// an error wrapping ErrNotDatabase when it does not start as every SQLite
// database does.
func readHeader(r io.Reader) (empty bool, err error) {
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(r, head)
	switch {
	case n == 0:
		return true, nil
	case err != nil || !bytes.Equal(head, sqliteHeader):
		return false, fmt.Errorf("%w: the file does not start with the SQLite header (it begins %q)", ErrNotDatabase, head[:n])
	}
	return false, nil
}

// unwrapPath drops the *PathError's operation and path, which OpenError
// already names, keeping the cause ("permission denied").
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// integrityBound is how long Open's quick_check of path may run: no bound
// (0) when the file is at most fullBytes, else checkFor.
func integrityBound(path string, fullBytes int64, checkFor time.Duration) time.Duration {
	if fullBytes <= 0 {
		fullBytes = DefaultFullCheckBytes
	}
	if checkFor <= 0 {
		checkFor = DefaultCheckTimeout
	}
	var size int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			size += fi.Size()
		}
	}
	if size <= fullBytes {
		return 0
	}
	return checkFor
}

// probe checks an existing file before anything writes to it: that another
// process does not hold its write lock (waiting at most timeout), that it is
// a nimbot database or an empty one, that its schema is not newer than this
// binary's, and that its pages are sound (PRAGMA quick_check, for at most
// checkFor when it is not 0); it returns the schema version. The connection
// sets no journal mode and writes nothing.
//
// The write lock is held only to learn that no other process holds it and
// to read the schema, then released: the check, which reads every page (a
// second or more for a large file, longer from a cold disk), runs in a read
// transaction, which in WAL mode keeps no writer waiting. A bot running on
// the file goes on committing while another process opens it.
func probe(ctx context.Context, path string, timeout time.Duration, latest int64, checkFor time.Duration) (version int64, err error) {
	db, err := sql.Open("sqlite3", dsn(path, url.Values{
		"mode":          {"rw"},
		"_busy_timeout": {"0"}, // beginLocked waits
		"_txlock":       {"immediate"},
	}))
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := beginLocked(ctx, db, timeout)
	if err != nil {
		return 0, classify(err, timeout)
	}
	s, err := readSchema(ctx, tx)
	tx.Rollback()
	if err != nil {
		return 0, classify(err, timeout)
	}
	if err := s.check(latest, openAdvice); err != nil {
		return 0, err
	}
	// Outside any transaction of ours, the statement is its own read
	// transaction.
	return s.version, quickCheck(ctx, db, checkFor)
}

// openAdvice is what to do with a database a newer nimbot has migrated.
const openAdvice = "run a newer nimbot, or restore a backup made for this version"

// migrateAlone brings the schema of the file at path (at version from; a
// new file is created) up to latest on a connection of its own in SQLite's
// exclusive locking mode. Such a connection takes the file only while no
// other connection, of this process or another, has it open (every
// connection to a database in WAL mode holds a shared lock on the file
// while it is open), and keeps all others out until it closes. Without it,
// a nimbot of the new release opening the file (`nimbot play`, or the new
// bot started before the old one has stopped) would migrate it under a
// nimbot of the earlier release still running on it: that one's
// statements would meet a schema it does not know, and at its next start
// it would refuse the file as too new.
//
// While another process has the file open it tries every millisecond for
// up to timeout, then fails with ErrLocked, unless the file has reached
// latest meanwhile (two processes starting on a new file at once: the
// first creates the schema, the second then finds it there).
func migrateAlone(ctx context.Context, path, synchronous string, timeout time.Duration, from, latest int64) error {
	deadline := time.Now().Add(timeout)
	var look time.Time // when to look at the file's schema next
	var db *sql.DB
	for {
		var err error
		if db, err = lockAlone(ctx, path, synchronous); err == nil {
			break
		}
		var se sqlite3.Error
		if !errors.As(err, &se) || se.Code != sqlite3.ErrBusy && se.Code != sqlite3.ErrLocked {
			return classify(err, timeout)
		}
		if time.Now().After(look) {
			// A look opens a connection: not every millisecond.
			if s, err := schemaNow(ctx, path); err == nil && s.goose && s.version >= latest {
				return s.check(latest, openAdvice)
			}
			look = time.Now().Add(20 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: another process has the file open (waited %v), and this nimbot must migrate its schema from version %d to %d, which it does not do under a nimbot still running on the file: stop that one first (`nimbot backup PATH` copies the file as it is)",
				ErrLocked, timeout, from, latest)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
	// Closing the connection lets the others in (and, as the file's only
	// connection, copies the log into the file first).
	defer db.Close()
	return migrate(ctx, db)
}

// lockAlone opens the file at path on one connection in exclusive locking
// mode and takes its exclusive lock (BEGIN EXCLUSIVE), which that mode keeps
// after the transaction, until the connection closes. A connection that
// failed to is closed: in that mode it would keep the shared lock it took
// on the way, and two processes starting on a new file at once would each
// wait for the other's.
func lockAlone(ctx context.Context, path, synchronous string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", dsn(path, url.Values{
		"_foreign_keys": {"on"},
		"_synchronous":  {synchronous},
		"_locking_mode": {"EXCLUSIVE"},
		"_busy_timeout": {"0"}, // migrateAlone waits
		"_txlock":       {"exclusive"},
	}))
	if err != nil {
		return nil, err
	}
	// One connection, kept: the lock is its own.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	tx, err := db.BeginTx(ctx, nil)
	if err == nil {
		err = tx.Rollback()
	}
	if err == nil {
		// A new file is created in WAL mode, as every connection of
		// the store's expects; the lock is held already.
		_, err = db.ExecContext(ctx, `PRAGMA journal_mode = WAL`)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// schemaNow reads the schema of the file at path as it is, through a
// read-only connection of its own.
func schemaNow(ctx context.Context, path string) (schema, error) {
	db, err := sql.Open("sqlite3", dsn(path, url.Values{"mode": {"ro"}, "_busy_timeout": {"0"}}))
	if err != nil {
		return schema{}, err
	}
	defer db.Close()
	return readSchema(ctx, db)
}

// schema is what a database holds of nimbot's schema.
type schema struct {
	// version is the newest migration applied (0 when there is none).
	version int64
	// goose: the migrations' version table exists.
	goose bool
	// tables are the database's own tables, by name.
	tables []string
}

// querier is what readSchema reads through: a transaction or a connection.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readSchema reads the schema of the database q reads, returning SQLite's
// errors as they are.
func readSchema(ctx context.Context, q querier) (schema, error) {
	var s schema
	rows, err := q.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return s, err
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return s, err
		}
		if name == goose.DefaultTablename {
			s.goose = true
		}
		s.tables = append(s.tables, name)
	}
	if err := rows.Close(); err != nil {
		return s, err
	}
	if s.goose {
		var version sql.NullInt64
		if err := q.QueryRowContext(ctx, `SELECT MAX(version_id) FROM `+goose.DefaultTablename).Scan(&version); err != nil {
			return s, err
		}
		s.version = version.Int64
	}
	return s, nil
}

// empty reports whether the database holds no tables at all, as a new or
// empty file does.
func (s schema) empty() bool { return len(s.tables) == 0 }

// check says why a nimbot that knows schema versions up to latest must not
// use the database: it is not nimbot's (ErrNotDatabase), or a newer nimbot
// has migrated it (migrations.ErrSchemaTooNew, with advice, what to do
// instead). An empty database is nimbot's to create.
func (s schema) check(latest int64, advice string) error {
	switch {
	case s.goose && s.version > latest:
		return fmt.Errorf("%w: it is at schema version %d and this nimbot knows versions up to %d; %s",
			migrations.ErrSchemaTooNew, s.version, latest, advice)
	case !s.goose && !s.empty():
		return fmt.Errorf("%w: it is a SQLite database but not nimbot's (tables %s, no %s)",
			ErrNotDatabase, strings.Join(s.tables, ", "), goose.DefaultTablename)
	}
	return nil
}

// quickCheck runs PRAGMA quick_check on db: every page of every table and
// index is read and its structure checked (not the index contents against
// the tables, which integrity_check adds at many times the cost). With
// checkFor > 0 the check is interrupted after that long and what it covered
// is taken as checked.
func quickCheck(ctx context.Context, db *sql.DB, checkFor time.Duration) error {
	qctx := ctx
	if checkFor > 0 {
		var cancel context.CancelFunc
		qctx, cancel = context.WithTimeout(ctx, checkFor)
		defer cancel()
	}
	rows, err := db.QueryContext(qctx, `PRAGMA quick_check(5)`)
	if err != nil {
		return checkErr(ctx, err)
	}
	defer rows.Close()
	var problems []string
	for first := true; rows.Next(); first = false {
		if first && checkingHook != nil {
			checkingHook()
		}
		var line string
		if err := rows.Scan(&line); err != nil {
			return checkErr(ctx, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return checkErr(ctx, err)
	}
	if len(problems) > 0 {
		return corrupt("PRAGMA quick_check found: " + strings.Join(problems, "; "))
	}
	return nil
}

// checkingHook, when a test sets it, runs while probe's quick_check is
// under way (its statement still open, so its transaction too), for the
// test to show what a writer on the file can do meanwhile.
var checkingHook func()

// checkErr turns a failed quick_check into Open's error: a check cut short
// by its own time bound is no failure (the part it read was sound).
func checkErr(ctx context.Context, err error) error {
	var se sqlite3.Error
	if ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || errors.As(err, &se) && se.Code == sqlite3.ErrInterrupt) {
		return nil
	}
	return classify(err, 0)
}

// corrupt is ErrCorrupt with what was found and what to do about it.
func corrupt(found string) error {
	return fmt.Errorf("%w (%s). %s", ErrCorrupt, found, corruptAdvice)
}

// corruptAdvice is the recovery from a damaged file.
const corruptAdvice = "Stop every nimbot using it and restore the latest backup " +
	"(one made with `nimbot backup PATH`) in its place; keep this file aside, since the sqlite3 shell's " +
	".recover can salvage what is still readable from it"

// beginLocked begins db's transaction (BEGIN IMMEDIATE: the write lock),
// trying every millisecond for up to timeout while another process holds
// the lock. SQLite's own busy handler backs off to 100 ms between tries,
// and a process committing back to back (a busy bot, when `nimbot play`
// opens the file beside it) leaves the lock free only for moments between
// its transactions, which such sparse tries can miss throughout
// (TestBesideRunningProcess).
func beginLocked(ctx context.Context, db *sql.DB, timeout time.Duration) (*sql.Tx, error) {
	deadline := time.Now().Add(timeout)
	for {
		tx, err := db.BeginTx(ctx, nil)
		var se sqlite3.Error
		if err == nil || !errors.As(err, &se) || se.Code != sqlite3.ErrBusy || time.Now().After(deadline) {
			return tx, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

// classify turns SQLite's result codes at open into the causes people act on.
func classify(err error, timeout time.Duration) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			return fmt.Errorf("%w: another process holds its write lock (waited %v); stop it or wait for it to finish", ErrLocked, timeout)
		case sqlite3.ErrNotADB:
			return fmt.Errorf("%w: %v", ErrNotDatabase, err)
		case sqlite3.ErrCorrupt:
			return corrupt(err.Error())
		case sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrReadonly:
			return fmt.Errorf("%w: %v", ErrUnwritable, err)
		}
	}
	return err
}

// newProvider returns goose's migration runner over the embedded files.
func newProvider(db *sql.DB) (*goose.Provider, error) {
	return goose.NewProvider(goose.DialectSQLite3, db, migrations.FS, goose.WithDisableGlobalRegistry(true))
}

// latestVersion is the newest schema version this binary embeds.
func latestVersion() (int64, error) {
	// NewProvider only lists the files; it never touches the database, so
	// a closed handle will do.
	db, err := sql.Open("sqlite3", "file:unused?mode=memory")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	p, err := newProvider(db)
	if err != nil {
		return 0, err
	}
	sources := p.ListSources()
	return sources[len(sources)-1].Version, nil
}

// migrate applies every embedded migration the database lacks, each in its
// own transaction.
func migrate(ctx context.Context, db *sql.DB) error {
	p, err := newProvider(db)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrating the schema: %w", classify(err, busyTimeout))
	}
	return nil
}

// Close closes the database, after the writes already asked for have run;
// later ones fail with ErrClosed. The last connection to close checkpoints
// the write-ahead log into the main file.
func (db *DB) Close() error {
	db.writes.close()
	return errors.Join(db.writes.stmts.close(), db.reads.stmts.close(), db.readers.Close(), db.writeConn.Close())
}

// Ping checks that both the read and the write connections work.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.readers.PingContext(ctx); err != nil {
		return err
	}
	return db.writeConn.PingContext(ctx)
}

// Path returns the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// SchemaVersion returns the schema version the database is at.
func (db *DB) SchemaVersion(ctx context.Context) (int64, error) {
	var v int64
	err := db.reads.QueryRowContext(ctx, schemaVersionSQL).Scan(&v)
	return v, err
}

// schemaVersionSQL reads the newest migration applied.
const schemaVersionSQL = `SELECT MAX(version_id) FROM ` + goose.DefaultTablename

// LatestSchemaVersion returns the newest schema version this binary knows.
func LatestSchemaVersion() int64 {
	v, err := latestVersion()
	if err != nil {
		// The files are embedded at build time; failing to list them is a
		// broken build, not a run-time condition.
		panic(err)
	}
	return v
}

// withTx runs fn in a BEGIN IMMEDIATE transaction and commits it if fn
// returns nil; if fn fails, nothing it wrote remains. Transactions that
// queue up meanwhile share one COMMIT (see writer.go); withTx returns only
// once fn's outcome is durable. The now it passes is read once, so every
// row the transaction writes carries the same time; the ctx it passes is
// ctx without its cancellation, for fn's statements.
func (db *DB) withTx(ctx context.Context, fn txFunc) error {
	return db.writes.do(ctx, fn)
}

// isConstraint reports whether err is a SQLite constraint violation with one
// of the given extended codes.
func isConstraint(err error, codes ...sqlite3.ErrNoExtended) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	for _, c := range codes {
		if se.ExtendedCode == c {
			return true
		}
	}
	return false
}

// DB is the SQLite implementation of the storage contract.
var _ match.Storage = (*DB)(nil)
