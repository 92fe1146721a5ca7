//go:build !linux

package store

import "os"

// writebackSupported says startWriteback does something here: only Linux
// has sync_file_range, so elsewhere the database file's pages wait for the
// syncs SQLite makes, as they always did.
const writebackSupported = false

// startWriteback does nothing where sync_file_range does not exist.
func startWriteback(*os.File) error { return nil }
