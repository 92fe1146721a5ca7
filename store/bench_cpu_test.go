package store

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"nimbot/internal/cpuclock"
)

// cpuClock reads the process's CPU time and its writes at a start, for
// benchmarks to report CPU and I/O per operation beside wall time.
type cpuClock struct {
	start  time.Duration
	csw    int64
	io     ioCounts
	haveIO bool
}

func startCPU() cpuClock {
	io, ok := readIO()
	return cpuClock{start: cpuclock.Process(), csw: contextSwitches(), io: io, haveIO: ok}
}

// report adds the CPU time since the start per b.N as cpu-µs/op and, where
// /proc/self/io exists (Linux), the bytes the process passed to write
// calls (the WAL's frames and the checkpoints' pages) and the number of
// those calls, per b.N, as wB/op and writes/op: each page a transaction
// dirties costs a frame in the WAL, two pwrite calls, and later a
// checkpoint's write. Where getrusage exists it adds the process's context
// switches per b.N as csw/op: each is a thread parked or preempted, the
// cost of a goroutine handoff that finds no running thread.
func (c cpuClock) report(b *testing.B) {
	used := cpuclock.Process() - c.start
	b.ReportMetric(float64(used.Microseconds())/float64(b.N), "cpu-µs/op")
	if n := contextSwitches(); n >= 0 && c.csw >= 0 {
		b.ReportMetric(float64(n-c.csw)/float64(b.N), "csw/op")
	}
	if io, ok := readIO(); ok && c.haveIO {
		b.ReportMetric(float64(io.wchar-c.io.wchar)/float64(b.N), "wB/op")
		b.ReportMetric(float64(io.syscw-c.io.syscw)/float64(b.N), "writes/op")
	}
}

// ioCounts are /proc/self/io's write counters.
type ioCounts struct{ wchar, syscw int64 }

// readIO reads the process's write counters, if the system has them.
func readIO() (ioCounts, bool) { return readIOFile("/proc/self/io") }

// readIOFile reads the write counters of a /proc io file (a process's or a
// thread's).
func readIOFile(path string) (ioCounts, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ioCounts{}, false
	}
	var c ioCounts
	found := 0
	for _, line := range strings.Split(string(data), "\n") {
		name, value, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			continue
		}
		switch name {
		case "wchar":
			c.wchar, found = n, found+1
		case "syscw":
			c.syscw, found = n, found+1
		}
	}
	return c, found == 2
}
