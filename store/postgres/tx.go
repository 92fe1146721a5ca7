package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"nimbot/match"
)

// tx is one write transaction on one pooled connection, sent in as few
// round trips as its logic allows. Its statements go out in batches, each
// one round trip (pgx's pipeline mode): BEGIN travels with the first batch
// (begin), COMMIT with the last (commit). Statements that must not apply
// when the game has moved on are written so that they change nothing then
// (a WHERE on the ply and status), rather than fail: the transaction then
// decides in Go, by match's rules, whether to commit or roll back. An
// error from the server in a batch makes pgx forget the batch's prepared
// statements, so expected outcomes are never errors.
type tx struct {
	conn *pgxpool.Conn
	// now is read once, so every row the transaction writes carries the
	// same time.
	now time.Time
}

// begin sends BEGIN and b's statements in one round trip; the caller reads
// the results of b's statements, in order, then closes them.
func (t *tx) begin(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	b.QueuedQueries = append([]*pgx.QueuedQuery{{SQL: "BEGIN"}}, b.QueuedQueries...)
	br := t.conn.SendBatch(ctx, b)
	if _, err := br.Exec(); err != nil {
		br.Close()
		// Every read of the batch's results returns BEGIN's error.
		return pgx.FailedBatchResults(b, err)
	}
	return br
}

// send sends b's statements in one round trip within the transaction.
func (t *tx) send(ctx context.Context, b *pgx.Batch) error {
	return t.conn.SendBatch(ctx, b).Close()
}

// commit sends b's statements (none if b is nil) and COMMIT in one round
// trip.
func (t *tx) commit(ctx context.Context, b *pgx.Batch) error {
	if b == nil {
		b = &pgx.Batch{}
	}
	b.Queue("COMMIT")
	return t.send(ctx, b)
}

// maxAttempts bounds the retries of a transaction PostgreSQL aborted to
// break a deadlock or a serialization conflict.
const maxAttempts = 5

// inTx runs fn in a READ COMMITTED transaction on one connection; fn ends
// it with t.commit. If fn fails, or returns without committing, the
// transaction rolls back and nothing it wrote remains. A transaction
// PostgreSQL aborts as a deadlock victim or for a serialization failure
// runs again, from the start. Errors that say the server is down or
// unreachable are match.ErrUnavailable.
func (db *DB) inTx(ctx context.Context, fn func(t *tx) error) error {
	var err error
	for range maxAttempts {
		err = db.inTxOnce(ctx, fn)
		if !retryable(err) {
			break
		}
	}
	return classify(err)
}

func (db *DB) inTxOnce(ctx context.Context, fn func(t *tx) error) error {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// A connection still in a transaction is closed on release rather
	// than pooled (pgxpool checks), so a failed ROLLBACK loses nothing.
	defer conn.Release()
	t := &tx{conn: conn, now: db.now()}
	err = fn(t)
	if conn.Conn().PgConn().TxStatus() != 'I' && !conn.Conn().IsClosed() {
		if _, rerr := conn.Exec(ctx, "ROLLBACK"); rerr != nil && err == nil {
			err = rerr
		}
		if err == nil {
			err = errors.New("postgres: a transaction ended without a commit")
		}
	}
	return err
}

// retryable reports whether err is a transient conflict worth a retry.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// classify marks err as match.ErrUnavailable when it says the server is
// not there to answer: the connection cannot be made or was lost (the
// server stopped, restarting, unreachable), or the server refuses work
// while it shuts down or starts up (SQLSTATE 57P01, 57P02, 57P03), has no
// connection left (53300), or reports a connection exception (class 08).
// Any other error is returned as it is, ctx's own end included (the
// caller knows its deadline).
func classify(err error) error {
	if err == nil || errors.Is(err, match.ErrUnavailable) || !unreachable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", match.ErrUnavailable, err)
}

func unreachable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "57P01", "57P02", "57P03", "53300":
			return true
		}
		return strings.HasPrefix(pgErr.Code, "08")
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, pgconn.ErrConnClosed) ||
		pgconn.SafeToRetry(err)
}
