//go:build !linux

package engine

import "time"

// threadCPU is not measured off Linux: benchmarks then report 0 cpu-ms/op.
func threadCPU() time.Duration { return 0 }

func lockThread() (unlock func()) { return func() {} }
