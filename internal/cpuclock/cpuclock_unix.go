//go:build unix

package cpuclock

import (
	"syscall"
	"time"
)

// Process is the CPU time the process has used so far, or 0 if it cannot be
// read.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
