//go:build unix

package store

import (
	"syscall"
	"testing"
	"time"
)

// cpuClock reads the process's CPU time (user and system) at a start, for
// benchmarks to report CPU per operation beside wall time.
type cpuClock struct{ start time.Duration }

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuClock { return cpuClock{processCPU()} }

// report adds the CPU time since the start per b.N as cpu-µs/op.
func (c cpuClock) report(b *testing.B) {
	used := processCPU() - c.start
	b.ReportMetric(float64(used.Microseconds())/float64(b.N), "cpu-µs/op")
}
