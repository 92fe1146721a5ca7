package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestDiskFloor runs the floor's writer on a real file in a temporary
// directory: every request offered is answered after an fsync, batches are
// never more than the requests, the quantiles are in order, and the log
// file is gone afterwards.
func TestDiskFloor(t *testing.T) {
	dir := t.TempDir()
	const rate, d = 400.0, 250 * time.Millisecond
	f, err := measureDiskFloor(dir, rate, d)
	if err != nil {
		t.Fatal(err)
	}
	// Requests arrive at 0, 2.5 ms, 5 ms, … while under d: 100 of them.
	if want := 100; f.requests != want {
		t.Errorf("%d requests answered, want %d", f.requests, want)
	}
	if f.syncs < 1 || f.syncs > f.requests {
		t.Errorf("%d fsyncs for %d requests", f.syncs, f.requests)
	}
	if !(0 < f.p50 && f.p50 <= f.p99 && f.p99 <= f.max) {
		t.Errorf("quantiles out of order: p50 %v, p99 %v, max %v", f.p50, f.p99, f.max)
	}
	if f.took < d {
		t.Errorf("took %v, less than the %v asked", f.took, d)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("left behind in %s: %v", dir, left)
	}
}

// TestDiskFloorRefuses: no rate, no time or no directory is an error, not
// a floor of zero.
func TestDiskFloorRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		dir  string
		rate float64
		d    time.Duration
	}{
		{"no rate", t.TempDir(), 0, time.Second},
		{"no time", t.TempDir(), 100, 0},
		{"no directory", filepath.Join(t.TempDir(), "missing"), 100, 10 * time.Millisecond},
	} {
		if f, err := measureDiskFloor(c.dir, c.rate, c.d); err == nil {
			t.Errorf("%s: no error, floor %+v", c.name, f)
		}
	}
}
