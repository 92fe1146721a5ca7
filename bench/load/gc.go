package main

import (
	"fmt"
	"runtime/debug"
)

// The load tool's heap is small (64 channels' boards and latencies) and
// churns: every request allocates its answer and the next board's click.
// At Go's default (GOGC=100) the collector ran several times a second and
// took about a tenth of the tool's CPU, CPU the server it measures does
// not get on a shared machine. When the server is another process (-spawn,
// -addr, -faults), the tool's collector setting changes nothing the report
// says of the server, so the tool lets its heap grow further between
// collections, as serve does, under a soft limit that bounds what that
// costs. In process, the server's allocations share this collector, and
// the setting would change what is measured: the default is kept there.
const (
	toolGCPercent   = 400
	toolMemoryLimit = 256 << 20
)

// tuneGC sets the tool's collector when the server is not in this process,
// unless GOGC or GOMEMLIMIT are in the environment (the runtime applied
// them at start). It returns the setting, for the report's first line.
func tuneGC(o options, getenv func(string) string) string {
	switch {
	case getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "":
		return fmt.Sprintf("load tool GOGC=%q GOMEMLIMIT=%q from the environment", getenv("GOGC"), getenv("GOMEMLIMIT"))
	case o.spawn || o.addr != "" || o.faults:
		debug.SetGCPercent(toolGCPercent)
		debug.SetMemoryLimit(toolMemoryLimit)
		return fmt.Sprintf("load tool GOGC=%d GOMEMLIMIT=%dMiB", toolGCPercent, toolMemoryLimit>>20)
	}
	return "GOGC=100 (server and load tool share it)"
}
