package main

import (
	"runtime/debug"
)

// The bot's heap is small and short-lived: each interaction allocates its
// board, JSON and SQL rows and drops them. With Go's default (GOGC=100) the
// collector's work was about 10 % of serve's CPU under load (BENCHMARKS.md,
// issue 13's profiles). serverGCPercent lets the heap grow
// further between collections, and serverMemoryLimit bounds what that costs:
// near the limit the collector runs as often as it must, so the process stays
// well under the 100 MB peak RSS issue 13 allows (SQLite's page caches and
// the binary come on top of Go's memory).
const (
	serverGCPercent   = 300
	serverMemoryLimit = 64 << 20
)

// tuneGC sets the collector for a long-running server, unless the operator
// chose for themselves: GOGC or GOMEMLIMIT in the environment (which the Go
// runtime has already applied at start) leave both settings alone.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(serverGCPercent)
	debug.SetMemoryLimit(serverMemoryLimit)
}
