package store

import (
	"errors"
	"fmt"
)

// Causes of an *OpenError, for errors.Is.
var (
	// ErrUnwritable: the path cannot be created or written (missing folder,
	// a directory, no permission).
	ErrUnwritable = errors.New("cannot write the database file")
	// ErrNotDatabase: the file exists but is not a nimbot SQLite database.
	ErrNotDatabase = errors.New("not a nimbot database")
	// ErrLocked: another process holds the database's write lock, or has
	// the file open at all when Open must migrate its schema.
	ErrLocked = errors.New("database is locked by another process")
	// ErrCorrupt: the file is a nimbot database but some of its pages are
	// damaged (PRAGMA quick_check fails). Running on it would answer moves
	// with "that game no longer exists" or lose them; restore a backup.
	ErrCorrupt = errors.New("database file is damaged")
)

// OpenError is Open's failure: which file, and why. Err wraps one of
// ErrUnwritable, ErrNotDatabase, migrations.ErrSchemaTooNew, ErrLocked, ErrCorrupt, or
// SQLite's own error.
type OpenError struct {
	Path string
	Err  error
}

// Error names the file and the cause.
func (e *OpenError) Error() string {
	return fmt.Sprintf("store: cannot open database %s: %v", e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *OpenError) Unwrap() error { return e.Err }
