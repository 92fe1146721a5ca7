package cpuclock

import (
	"runtime"
	"testing"
	"time"
)

// Busy work raises the process's CPU time by about what it took.
func TestProcessCountsWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no getrusage")
	}
	before := Process()
	if before <= 0 {
		t.Fatalf("Process() = %v before any work", before)
	}
	end := time.Now().Add(50 * time.Millisecond)
	n := 0
	for time.Now().Before(end) {
		n++
	}
	if used := Process() - before; used < 20*time.Millisecond {
		t.Errorf("50 ms of busy work (%d loops) raised the CPU time by %v", n, used)
	}
}
