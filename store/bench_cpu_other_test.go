//go:build !unix

package store

import "testing"

// cpuClock reports nothing where getrusage is missing.
type cpuClock struct{}

func startCPU() cpuClock { return cpuClock{} }

func (cpuClock) report(*testing.B) {}
