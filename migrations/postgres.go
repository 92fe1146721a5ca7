package migrations

import (
	"embed"
	"io/fs"
)

// postgresFiles holds the PostgreSQL schema, kept apart from SQLite's: the
// two dialects differ (identity columns, jsonb, PL/pgSQL triggers), while
// the rules they enforce are the same.
//
//go:embed postgres/*.sql
var postgresFiles embed.FS

// Postgres holds the PostgreSQL migration files (0001_games.sql, …) at its
// root, numbered like the SQLite ones they mirror.
var Postgres = mustSub(postgresFiles, "postgres")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		// The folder is embedded at build time; a bad name is a broken build.
		panic(err)
	}
	return sub
}
