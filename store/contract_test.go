package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"nimbot/internal/storetest"
	"nimbot/match"
	"nimbot/store"
)

// TestContract runs the storage contract suite against SQLite; the
// PostgreSQL store runs the same suite in store/postgres.
func TestContract(t *testing.T) {
	storetest.RunContract(t, func(t *testing.T, now func() time.Time) match.Storage {
		db, err := store.Open(context.Background(), store.Config{Path: filepath.Join(t.TempDir(), "nimbot.db"), Now: now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := db.Close(); err != nil {
				t.Error(err)
			}
		})
		return db
	})
}
