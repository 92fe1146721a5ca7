package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"os"
	"sync"
	"text/tabwriter"
	"time"
)

// sizeSample is the database on disk at one moment of the run: whether the
// file stays flat is the question a long run answers (saved answers are
// pruned, and SQLite reuses the pages they free).
type sizeSample struct {
	at           time.Duration // since the first pass started
	db, wal      int64         // bytes
	interactions int64         // saved answers
	games        int64         // games played (kept for good: history, stats)
	freePages    int64         // pages on SQLite's free list, ready for reuse
	pageSize     int64
	err          string
}

// sizeSampler samples the database file every interval until stopped.
type sizeSampler struct {
	path  string
	every time.Duration
	start time.Time

	mu      sync.Mutex
	samples []sizeSample
	stop    chan struct{}
	done    chan struct{}
}

func startSizeSampler(path string, every time.Duration) *sizeSampler {
	s := &sizeSampler{path: path, every: every, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	go s.run()
	return s
}

func (s *sizeSampler) run() {
	defer close(s.done)
	// A read-only connection of its own: it neither writes nor holds a
	// snapshot between samples (which would stop checkpoints from resetting
	// the write-ahead log).
	ro, err := sql.Open("sqlite3", "file:"+url.PathEscape(s.path)+"?mode=ro&_query_only=on")
	if err == nil {
		defer ro.Close()
		ro.SetMaxOpenConns(1)
	}
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		s.sample(ro)
		select {
		case <-s.stop:
			s.sample(ro)
			return
		case <-t.C:
		}
	}
}

func (s *sizeSampler) sample(ro *sql.DB) {
	sm := sizeSample{at: time.Since(s.start)}
	if fi, err := os.Stat(s.path); err == nil {
		sm.db = fi.Size()
	}
	if fi, err := os.Stat(s.path + "-wal"); err == nil {
		sm.wal = fi.Size()
	}
	if ro != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := ro.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM interactions), (SELECT COUNT(*) FROM games), freelist_count, page_size FROM pragma_freelist_count, pragma_page_size`).
			Scan(&sm.interactions, &sm.games, &sm.freePages, &sm.pageSize)
		cancel()
		if err != nil {
			sm.err = err.Error()
		}
	}
	s.mu.Lock()
	s.samples = append(s.samples, sm)
	s.mu.Unlock()
}

// finish takes the last sample and returns them all.
func (s *sizeSampler) finish() []sizeSample {
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.samples
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// printSizes prints the samples as a table.
func printSizes(out io.Writer, every, retention time.Duration, samples []sizeSample) {
	if len(samples) == 0 {
		return
	}
	fmt.Fprintf(out, "database file every %v (saved answers kept %v, pruned every 30 s):\n", every, retention)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "time\tdb file\tWAL\tsaved answers\tgames\tfree pages\t")
	for _, s := range samples {
		if s.err != "" {
			fmt.Fprintf(w, "%v\t%s\t%s\t%s\t\t\t\n", s.at.Round(time.Second), mib(s.db), mib(s.wal), s.err)
			continue
		}
		fmt.Fprintf(w, "%v\t%s\t%s\t%d\t%d\t%d (%s)\t\n", s.at.Round(time.Second), mib(s.db), mib(s.wal), s.interactions, s.games, s.freePages, mib(s.freePages*s.pageSize))
	}
	w.Flush()
}
