// Package migrations holds nimbot's database schema as numbered SQL files,
// applied in order by the store with pressly/goose (each file in its own
// transaction, the version recorded in goose_db_version).
//
// The files live here, not in store, because go:embed cannot reach a parent
// folder and the schema should be readable on its own: every table, index,
// trigger and rule the database enforces is in these files, with comments.
//
// Add a change as a new file with the next number; never edit a file that
// has shipped, since databases in the field have already applied it.
package migrations
