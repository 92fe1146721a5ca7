package migrations

import (
	"embed"
	"errors"
)

// FS holds the migration files (0001_games.sql, 0002_stats.sql, …) at its root.
//
//go:embed *.sql
var FS embed.FS

// ErrSchemaTooNew: a newer nimbot has migrated the database past what this
// binary knows, so it must not touch it. Both stores refuse to open such a
// database with an error wrapping it.
var ErrSchemaTooNew = errors.New("database schema is newer than this nimbot")
