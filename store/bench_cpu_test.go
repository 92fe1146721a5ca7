package store

import (
	"testing"
	"time"

	"nimbot/internal/cpuclock"
)

// cpuClock reads the process's CPU time at a start, for benchmarks to
// report CPU per operation beside wall time.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{cpuclock.Process()} }

// report adds the CPU time since the start per b.N as cpu-µs/op.
func (c cpuClock) report(b *testing.B) {
	used := cpuclock.Process() - c.start
	b.ReportMetric(float64(used.Microseconds())/float64(b.N), "cpu-µs/op")
}
