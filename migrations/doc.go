// Package migrations holds nimbot's database schema as numbered SQL files,
// applied in order by the store with pressly/goose (each file in its own
// transaction, the version recorded in goose_db_version).
//
// The files live here, not in store, because go:embed cannot reach a parent
// folder and the schema should be readable on its own: every table, index,
// trigger and rule the database enforces is in these files, with comments.
//
// The PostgreSQL store (store/postgres) has its own files in postgres/,
// exported as Postgres: the same tables and rules in PostgreSQL's dialect,
// numbered like the SQLite files they mirror. A schema change adds a file
// to both folders.
//
// Add a change as a new file with the next number; never edit a file that
// has shipped, since databases in the field have already applied it.
package migrations
