package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// The disk's own floor under the paced pass's latency. Every move nimbot
// acknowledges waits for an fsync of the write-ahead log (synchronous=FULL),
// and a request that arrives while one is in flight waits for it and then
// for its own. So the latency a durable server can give at a request rate is
// bounded by what the disk's flushes give a writer doing nothing else: one
// committer that writes the log bytes of the requests queued so far, fsyncs,
// answers them, and goes again. measureDiskFloor is that writer, without
// SQLite, the store or HTTP, paced at the rate the paced pass sent, on the
// disk the load's database is on. Beside the pass's p99 it says how much of
// the tail the disk alone sets on this machine (BENCHMARKS.md, "Load: the
// disk's floor and what else sets the p99").

// logBytesPerRequest is what one move's COMMIT appends to the write-ahead
// log at 1,000 moves/s: 11 frames of a 4 KiB page and its 24-byte header
// (11.1–11.5 frames per COMMIT were counted in the log itself;
// BENCHMARKS.md, "Load: the delayed fetches packed"). A batch of n requests
// writes n times this, more than SQLite would: pages two moves share are
// written once.
const logBytesPerRequest = 11 * (4096 + 24)

// diskFloorLog is the floor's log file size. Like nimbot's log after its
// first start-over, it is written in place from the start again when full,
// so no fsync also has to record the file growing.
const diskFloorLog = 16 << 20

// diskFloor is what measureDiskFloor saw.
type diskFloor struct {
	perSecond     float64 // requests per second offered
	requests      int
	syncs         int // fsyncs: one per batch
	p50, p99, max time.Duration
	took          time.Duration
}

// measureDiskFloor offers perSecond requests a second for d to a group
// committer writing logBytesPerRequest each into a file in dir, and returns
// the latency from each request's arrival to the end of the fsync that made
// it durable.
func measureDiskFloor(dir string, perSecond float64, d time.Duration) (diskFloor, error) {
	if perSecond <= 0 || d <= 0 {
		return diskFloor{}, errors.New("disk floor: no rate or no time to measure")
	}
	path := filepath.Join(dir, fmt.Sprintf("diskfloor-%d.log", time.Now().UnixNano()))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return diskFloor{}, err
	}
	defer os.Remove(path)
	defer f.Close()
	// The largest batch: a second's requests, or the whole log.
	buf := make([]byte, min(diskFloorLog, max(logBytesPerRequest, int(perSecond)*logBytesPerRequest)))
	for off := 0; off < diskFloorLog; off += len(buf) {
		if _, err := f.WriteAt(buf[:min(len(buf), diskFloorLog-off)], int64(off)); err != nil {
			return diskFloor{}, err
		}
	}
	if err := f.Sync(); err != nil {
		return diskFloor{}, err
	}

	var (
		mu      sync.Mutex
		arrived = sync.NewCond(&mu)
		queue   []time.Time // arrival times not yet in a batch
		lat     []time.Duration
		syncs   int
		closed  bool
		failed  error
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		off := int64(0)
		for {
			mu.Lock()
			for len(queue) == 0 && !closed {
				arrived.Wait()
			}
			batch := queue
			queue = nil
			mu.Unlock()
			if len(batch) == 0 {
				return
			}
			n := min(len(batch)*logBytesPerRequest, len(buf))
			if off+int64(n) > diskFloorLog {
				off = 0
			}
			_, err := f.WriteAt(buf[:n], off)
			if err == nil {
				err = f.Sync()
			}
			off += int64(n)
			end := time.Now()
			mu.Lock()
			if err != nil && failed == nil {
				failed = err
			}
			syncs++
			for _, t := range batch {
				lat = append(lat, end.Sub(t))
			}
			mu.Unlock()
		}
	}()

	every := time.Duration(float64(time.Second) / perSecond)
	start := time.Now()
	n := 0
	for ; ; n++ {
		next := start.Add(time.Duration(n) * every)
		if next.Sub(start) >= d {
			break
		}
		if wait := time.Until(next); wait > 0 {
			time.Sleep(wait)
		}
		mu.Lock()
		queue = append(queue, time.Now())
		arrived.Signal()
		mu.Unlock()
	}
	// The window is d, whatever the last request's phase.
	time.Sleep(time.Until(start.Add(d)))
	mu.Lock()
	closed = true
	arrived.Signal()
	mu.Unlock()
	<-done
	if failed != nil {
		return diskFloor{}, failed
	}
	slices.Sort(lat)
	return diskFloor{perSecond: perSecond, requests: len(lat), syncs: syncs,
		p50: quantile(lat, .5), p99: quantile(lat, .99), max: quantile(lat, 1), took: time.Since(start)}, nil
}
