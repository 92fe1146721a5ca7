package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"nimbot/match"
)

// TestClassify: the errors of a server that is down, restarting or
// unreachable are match.ErrUnavailable (TestPostgresOutage in main sees
// them from a real restart); the errors of a server that answered are not.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "57P01"}, true}, // admin_shutdown: pg_ctl stop -m fast
		{&pgconn.PgError{Code: "57P02"}, true}, // crash_shutdown
		{&pgconn.PgError{Code: "57P03"}, true}, // cannot_connect_now: starting up or shutting down
		{&pgconn.PgError{Code: "53300"}, true}, // too_many_connections
		{&pgconn.PgError{Code: "08006"}, true}, // connection_failure
		{fmt.Errorf("game 1: %w", &pgconn.PgError{Code: "08P01"}), true},
		{fmt.Errorf("reading: %w", io.ErrUnexpectedEOF), true},
		{&pgconn.PgError{Code: "23505"}, false},
		{&pgconn.PgError{Code: "40P01"}, false},
		{context.DeadlineExceeded, false}, // commands tells a timeout by itself
		{match.ErrStale, false},
	} {
		got := classify(tc.err)
		if errors.Is(got, match.ErrUnavailable) != tc.want || !errors.Is(got, tc.err) {
			t.Errorf("classify(%v) = %v; want unavailable %v, wrapping the cause", tc.err, got, tc.want)
		}
	}
	if classify(nil) != nil {
		t.Error("classify(nil) is not nil")
	}
}
