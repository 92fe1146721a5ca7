package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"nimbot/store"
)

// TestPlayBadDatabase: a database that cannot be opened is play's one error
// (main opens the store the terminal plays on).
func TestPlayBadDatabase(t *testing.T) {
	dir := t.TempDir()
	err := play(context.Background(), config{DatabasePath: dir}, strings.NewReader(""), io.Discard)
	if err == nil {
		t.Fatal("Play on a directory as the database: no error")
	}
	var oe *store.OpenError
	if !errors.As(err, &oe) {
		t.Errorf("error %v is not a *store.OpenError", err)
	}
}
