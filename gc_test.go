package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	restore := func(percent int, limit int64) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
	const math64 = int64(^uint64(0) >> 1)
	before, beforeLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math64)
	t.Cleanup(func() { restore(before, beforeLimit) })

	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	tuneGC(getenv)
	if got := debug.SetGCPercent(100); got != serverGCPercent {
		t.Errorf("GC percent with no GOGC/GOMEMLIMIT: %d, want %d", got, serverGCPercent)
	}
	if got := debug.SetMemoryLimit(math64); got != serverMemoryLimit {
		t.Errorf("memory limit with no GOGC/GOMEMLIMIT: %d, want %d", got, serverMemoryLimit)
	}

	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		env = map[string]string{k: "200"}
		tuneGC(getenv)
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("%s set: GC percent changed to %d", k, got)
		}
		if got := debug.SetMemoryLimit(math64); got != math64 {
			t.Errorf("%s set: memory limit changed to %d", k, got)
		}
	}
}
