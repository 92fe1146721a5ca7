//go:build !linux && !darwin

package store

// walbufVFS is empty where walbuf.c is not built: the writer keeps
// SQLite's own VFS.
const walbufVFS = ""

// walbufOnce has nothing to register.
func walbufOnce() error { return nil }
