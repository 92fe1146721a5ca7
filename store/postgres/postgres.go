package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"nimbot/match"
	"nimbot/migrations"
)

// Config says which database to open and how.
type Config struct {
	// URL is a PostgreSQL connection string (postgres://user@host/db or
	// key=value form); nimbot will take it from DATABASE_URL.
	URL string
	// Now is the clock for every timestamp the store writes (default
	// time.Now), so tests control time.
	Now func() time.Time
	// MaxConns bounds the pool (default DefaultMaxConns). A
	// pool_max_conns in URL wins over it. Every instance holds up to this
	// many of the server's max_connections.
	MaxConns int32
	// ConnectTimeout bounds each connection attempt, the TLS and
	// authentication exchange included (default DefaultConnectTimeout). A
	// connect_timeout in URL (or PGCONNECT_TIMEOUT) wins over it, 0 there
	// included, which waits without end as in libpq.
	ConnectTimeout time.Duration
	// Tracer, if not nil, sees every statement pgx sends
	// (ConnConfig.Tracer): pgx's tracelog or an OpenTelemetry tracer, for
	// an operator; a test counts round trips with it. One that is also a
	// pgx.BatchTracer sees each batch.
	Tracer pgx.QueryTracer
}

// DefaultConnectTimeout bounds a connection attempt when the operator set
// none. Without it, a server that accepts the TCP connection and then says
// nothing (a half-dead host, a partition behind a load balancer) holds
// Open, and every later attempt of the pool, as long as its context: at
// start, until a signal. libpq's own default is the same: none.
const DefaultConnectTimeout = 10 * time.Second

// DefaultMaxConns bounds the pool when the operator set no size. A
// connection is held for an interaction's transaction, and most of that
// time is spent waiting for the server to flush its commit to disk: with
// pgxpool's own default (4, or the number of CPUs) the server flushes a few
// commits at a time and sits idle between, while the requests queue for a
// connection. Sixteen let one instance keep the server's group commit fed;
// several instances together should stay well under the server's
// max_connections (README, "PostgreSQL").
const DefaultMaxConns = 16

// DB is an open nimbot database on PostgreSQL. It is safe for concurrent
// use, by many goroutines and many processes.
type DB struct {
	pool *pgxpool.Pool
	now  func() time.Time
	ids  *gameIDs
}

// Open connects to the database at cfg.URL and brings its schema up to
// date. Its connections plan each prepared statement once
// (plan_cache_mode=force_generic_plan, sent when connecting, unless the
// URL sets plan_cache_mode): every statement nimbot sends has one shape
// whatever its values, and left to choose, the server planned the moves'
// insert (whose array's length it sees only in its values) and the board's
// read again on every execution. Instances starting at once migrate one at a time (migrationLock, a
// PostgreSQL advisory lock), each as soon as the one before it is done; a
// schema at this binary's version is read without the lock. A
// schema newer than this binary knows fails with migrations.ErrSchemaTooNew
// and changes nothing. A server that refuses or drops the connection is
// match.ErrUnavailable.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	pc, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		// pgx's message may quote the URL, password included.
		return nil, errors.New("postgres: cannot parse the database URL")
	}
	if !strings.Contains(cfg.URL, "pool_max_conns") {
		pc.MaxConns = cfg.MaxConns
		if pc.MaxConns <= 0 {
			pc.MaxConns = DefaultMaxConns
		}
	}
	if !connectTimeoutSet(cfg.URL) {
		pc.ConnConfig.ConnectTimeout = cfg.ConnectTimeout
		if pc.ConnConfig.ConnectTimeout <= 0 {
			pc.ConnConfig.ConnectTimeout = DefaultConnectTimeout
		}
	}
	if _, set := pc.ConnConfig.RuntimeParams["plan_cache_mode"]; !set {
		pc.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	}
	if cfg.Tracer != nil {
		pc.ConnConfig.Tracer = cfg.Tracer
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: cannot connect: %w", classify(err))
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return &DB{pool: pool, now: now, ids: newGameIDs()}, nil
}

// connectTimeoutSet reports whether the operator chose a connect timeout,
// in the connection string or the environment pgx reads; its value may be
// 0 (no limit), which pgx's parsed config cannot tell from "not set".
func connectTimeoutSet(url string) bool {
	return strings.Contains(url, "connect_timeout") || os.Getenv("PGCONNECT_TIMEOUT") != ""
}

// newProvider returns goose's migration runner over the embedded
// PostgreSQL files, on a database/sql handle over pool.
func newProvider(pool *pgxpool.Pool) (*goose.Provider, func() error, error) {
	sqlDB := stdlib.OpenDBFromPool(pool)
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, migrations.Postgres,
		goose.WithDisableGlobalRegistry(true), goose.WithSessionLocker(migrationLock{}))
	if err != nil {
		sqlDB.Close()
		return nil, nil, err
	}
	return p, sqlDB.Close, nil
}

// migrationLock is goose's session lock, held while it reads or changes the
// schema version, as pg_advisory_lock: the server queues the waiters and
// wakes each as the holder lets go. goose's own PostgreSQL locker tries the
// lock every 5 seconds instead, so instances started together became ready
// 5 seconds apart each with nothing to migrate. The key is goose's, so an
// older nimbot migrating at the same time is waited for too.
type migrationLock struct{}

// SessionLock waits for the lock, or for ctx to end.
func (migrationLock) SessionLock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, lock.DefaultLockID); err != nil {
		return fmt.Errorf("waiting for the migration lock: %w", err)
	}
	return nil
}

// SessionUnlock lets the lock go.
func (migrationLock) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	var unlocked bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_advisory_unlock($1)`, lock.DefaultLockID).Scan(&unlocked); err != nil {
		return err
	}
	if !unlocked {
		return errors.New("the migration lock was not held")
	}
	return nil
}

// migrate applies every embedded migration the database lacks.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	p, closeDB, err := newProvider(pool)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	defer closeDB()
	sources := p.ListSources()
	latest := sources[len(sources)-1].Version
	// A schema already at this version needs no lock: nothing to wait for,
	// and no session state (which a pooler in transaction mode would not
	// keep).
	var at *int64
	if err := pool.QueryRow(ctx, `SELECT max(version_id) FROM `+goose.DefaultTablename).Scan(&at); err == nil && at != nil && *at == latest {
		return nil
	}
	// On a new database this creates goose's version table, at version 0.
	current, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("postgres: reading the schema version: %w", classify(err))
	}
	if current > latest {
		return fmt.Errorf("postgres: %w: it is at schema version %d and this nimbot knows versions up to %d",
			migrations.ErrSchemaTooNew, current, latest)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("postgres: migrating the schema: %w", classify(err))
	}
	return nil
}

// LatestSchemaVersion returns the newest schema version this binary embeds.
func LatestSchemaVersion() int64 {
	// NewProvider only lists the files; it never touches the database, so
	// a handle that never connects will do.
	unused, err := sql.Open("pgx", "")
	if err != nil {
		panic(err)
	}
	defer unused.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, unused, migrations.Postgres, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		panic(err) // the files are embedded at build time
	}
	s := p.ListSources()
	return s[len(s)-1].Version
}

// SchemaVersion returns the schema version the database is at.
func (db *DB) SchemaVersion(ctx context.Context) (int64, error) {
	var v int64
	err := db.pool.QueryRow(ctx, `SELECT max(version_id) FROM `+goose.DefaultTablename).Scan(&v)
	return v, classify(err)
}

// Close closes every connection, waiting for those in use to be returned.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error {
	return classify(db.pool.Ping(ctx))
}

// isUnique reports whether err is a unique violation on constraint (any,
// if constraint is "").
func isUnique(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505" && (constraint == "" || pgErr.ConstraintName == constraint)
}

// Times are bigint Unix milliseconds, as in the SQLite store.
func toMillis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func toNullMillis(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	ms := t.UnixMilli()
	return &ms
}

func fromNullMillis(ms *int64) time.Time {
	if ms == nil {
		return time.Time{}
	}
	return fromMillis(*ms)
}

// DB is the PostgreSQL implementation of the storage contract.
var _ match.Storage = (*DB)(nil)

// CheckWrite writes the heartbeat row (migration 0004) within ctx, for
// /healthz: it fails when the server refuses writes (read-only after a
// failover, disk full, too many connections) or does not answer in time.
func (db *DB) CheckWrite(ctx context.Context) error {
	_, err := db.pool.Exec(ctx, `INSERT INTO heartbeat (id, at) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET at = excluded.at`, toMillis(db.now()))
	if err != nil {
		return fmt.Errorf("postgres: writing the heartbeat: %w", classify(err))
	}
	return nil
}
