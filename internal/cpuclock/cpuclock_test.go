package cpuclock

import (
	"runtime"
	"testing"
	"time"
)

// Busy work raises the process's CPU time. The loop runs until the clock
// shows 20 ms more, not for a fixed wall time: on a loaded machine 50 ms of
// wall time can hold far less than 20 ms of CPU. A clock that does not
// count work never gets there and fails at the deadline; one that counts
// more than the CPUs could have run fails the upper bound.
func TestProcessCountsWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no getrusage")
	}
	before := Process()
	if before <= 0 {
		t.Fatalf("Process() = %v before any work", before)
	}
	start := time.Now()
	deadline := start.Add(20 * time.Second)
	n := 0
	for Process()-before < 20*time.Millisecond {
		if time.Now().After(deadline) {
			t.Fatalf("%v of busy work (%d loops) raised the CPU time by only %v", time.Since(start), n, Process()-before)
		}
		for range 10000 {
			n++
		}
	}
	wall := time.Since(start)
	if used := Process() - before; used > time.Duration(runtime.NumCPU())*wall+20*time.Millisecond {
		t.Errorf("%v of wall time raised the CPU time by %v, more than %d CPUs can run", wall, used, runtime.NumCPU())
	}
}
