//go:build unix

package store

import "syscall"

// contextSwitches is how many times the process's threads have given up a
// CPU so far, voluntarily (a futex wait, an fsync, a blocking read) or not
// (preempted), all threads counted; -1 if it cannot be read.
func contextSwitches() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return int64(ru.Nvcsw + ru.Nivcsw)
}
