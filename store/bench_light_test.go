package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/match"
)

// BenchmarkCommitLight measures Commit when few callers write at once, the
// case where handing a write from goroutine to goroutine costs most beside
// the write itself: writers=1, 2 and 8 goroutines commit moves in a loop,
// each on its own game (a human move, nimbot's reply and the saved board,
// as BenchmarkCommit), and paced=8 is 8 goroutines paced to about 1,000
// Commits a second in all (each starts a Commit every 8 ms), as the server
// at 1,000 moves/s. synchronous=FULL. cpu-µs/op (the process's CPU per
// Commit, every goroutine and the kernel's work for it counted) and csw/op
// (the process's context switches per Commit) are the figures to compare;
// for paced, ns/op is only the pace.
func BenchmarkCommitLight(b *testing.B) {
	for _, tc := range []struct {
		name    string
		writers int
		every   time.Duration
	}{{"writers=1", 1, 0}, {"writers=2", 2, 0}, {"writers=8", 8, 0}, {"paced=8", 8, 8 * time.Millisecond}} {
		b.Run(tc.name, func(b *testing.B) {
			ctx := context.Background()
			db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), "FULL")
			games := make([]*match.Game, tc.writers)
			for i := range games {
				games[i] = mustCreate(b, db, newGame(fmt.Sprint("c", i), [2]string{"alice", match.BotID}, 1<<40))
			}
			var left, interaction atomic.Int64
			left.Store(int64(b.N))
			before, jobsBefore := db.writes.stats()
			cpu := startCPU()
			b.ResetTimer()
			var wg sync.WaitGroup
			for w := range tc.writers {
				wg.Go(func() {
					g := games[w]
					// The paced writers start spread over one period.
					next := time.Now().Add(tc.every * time.Duration(w) / time.Duration(tc.writers))
					for left.Add(-1) >= 0 {
						if tc.every > 0 {
							time.Sleep(time.Until(next))
							next = next.Add(tc.every)
						}
						var err error
						if g, err = benchCommit(ctx, db, g, fmt.Sprint("bench-", interaction.Add(1)), take(0, 1), take(0, 1)); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			cpu.report(b)
			after, jobsAfter := db.writes.stats()
			b.ReportMetric(float64(jobsAfter-jobsBefore)/float64(max(after-before, 1)), "jobs/commit")
		})
	}
}
