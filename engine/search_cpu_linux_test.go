//go:build linux

package engine

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling OS thread. On a shared machine a
// benchmark's wall time counts other jobs' time slices too; the thread's own
// CPU time is what the work would take on one idle core. Callers lock the
// goroutine to its thread first (lockThread).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// lockThread pins the goroutine to its thread for threadCPU.
func lockThread() (unlock func()) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
