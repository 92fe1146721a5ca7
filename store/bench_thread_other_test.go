//go:build !linux

package store

import "time"

// threadCPU is 0 where the thread's CPU clock is not read (no figure).
func threadCPU() time.Duration { return 0 }
