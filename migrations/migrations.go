package migrations

import "embed"

// FS holds the migration files (0001_games.sql, 0002_stats.sql, …) at its root.
//
//go:embed *.sql
var FS embed.FS
