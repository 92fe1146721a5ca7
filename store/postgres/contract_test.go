package postgres

import (
	"context"
	"os"
	"testing"
	"time"

	"nimbot/internal/pgtest"
	"nimbot/internal/storetest"
	"nimbot/match"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// mustOpen opens the store on a fresh database of the test cluster and
// closes it when the test ends.
func mustOpen(t testing.TB, now func() time.Time) *DB {
	t.Helper()
	db, err := Open(context.Background(), Config{URL: pgtest.DB(t), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// TestContract runs the storage contract suite, the one the SQLite store
// passes, against PostgreSQL.
func TestContract(t *testing.T) {
	storetest.RunContract(t, func(t *testing.T, now func() time.Time) match.Storage {
		return mustOpen(t, now)
	})
}

var _ match.Storage = (*DB)(nil)
