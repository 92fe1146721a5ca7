package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// benchResponse is a saved board answer as commands renders it: Nim 3 4 5
// against nimbot after two moves, with its move log and one-click menu
// (2.2 KB of JSON, testdata/board.json). Real JSON, not filler, so that
// the bytes a Commit writes for it are the bytes it writes in production,
// however the store keeps answers.
var benchResponse = func() []byte {
	b, err := os.ReadFile("testdata/board.json")
	if err != nil {
		panic(err)
	}
	return b
}()

// benchCommit commits g's moves as interaction id, saving the benchmarks'
// answer with them, and returns the game after them.
func benchCommit(ctx context.Context, db *DB, g *match.Game, id string, moves ...engine.Move) (*match.Game, error) {
	c, err := change(g, moves...)
	if err != nil {
		return nil, err
	}
	c.InteractionID = id
	c.Response = benchResponse
	return db.Commit(ctx, c)
}

// BenchmarkCommit measures move transactions: one Commit holding a human
// move, the bot's reply and the saved response, as a game against the bot
// writes per click, rotating over 64 games. It reports transactions per
// second for each synchronous setting, and the process's CPU and writes
// per transaction (cpu-µs/op, wB/op, writes/op: see cpuClock.report).
func BenchmarkCommit(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync, func(b *testing.B) {
			ctx := context.Background()
			db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), sync)
			games := make([]*match.Game, 64)
			for i := range games {
				games[i] = mustCreate(b, db, newGame(fmt.Sprint("c", i), [2]string{"alice", match.BotID}, 1<<40))
			}
			cpu := startCPU()
			b.ResetTimer()
			for i := range b.N {
				var err error
				g := &games[i%len(games)]
				if *g, err = benchCommit(ctx, db, *g, fmt.Sprint("bench-", i), take(0, 1), take(0, 1)); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			cpu.report(b)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
		})
	}
}

// BenchmarkCommitParallel is BenchmarkCommit with many goroutines committing
// at once, each on its own game, as busy channels would.
func BenchmarkCommitParallel(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync, func(b *testing.B) {
			ctx := context.Background()
			db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), sync)
			var channel, interaction atomic.Int64
			b.SetParallelism(8)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				g := newGame(fmt.Sprint("c", channel.Add(1)), [2]string{"alice", match.BotID}, 1<<40)
				if err := db.CreateGame(ctx, g); err != nil {
					b.Error(err)
					return
				}
				for pb.Next() {
					var err error
					if g, err = benchCommit(ctx, db, g, fmt.Sprint("bench-", interaction.Add(1)), take(0, 1), take(0, 1)); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
		})
	}
}

// BenchmarkBoardRead is the read every board click makes first (Board: the
// game, its moves, the hint mark), on a game three moves in, with a
// request's cancellable context as commands passes it and with none, and
// on a game 30 moves in. It reports CPU per read beside wall time:
// cpu-µs/op the process's, thread-µs/op the reading goroutine's thread's
// alone (locked to it), SQLite's C code included, the garbage collector's
// background work not.
//
// "writing" is the realistic case: before each read (outside the timer and
// the thread's clock) a move against the bot is committed to one of 64
// other games, as under load, where every click is a read and then a
// commit. Each commit changes the file, so the reader's connection finds
// its page cache stale and reads the pages again (from the WAL and the
// file). Its thread-µs/op is read around each Board call (the commit runs
// on the writer's goroutine; the clock's own system call is in it, about a
// microsecond on the 2-vCPU test machine); its ns/op and allocations
// (not reported) are the commit's and the read's together. The timer is
// not stopped for the commit: StopTimer reads the memory statistics,
// stopping the world and flushing the allocation caches each time.
func BenchmarkBoardRead(b *testing.B) {
	db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), "NORMAL")
	played := func(channel string, moves int) *match.Game {
		g := mustCreate(b, db, newGame(channel, [2]string{"alice", match.BotID}, 1<<40))
		for range moves {
			c, err := change(g, take(0, 1))
			if err != nil {
				b.Fatal(err)
			}
			if g, err = db.Commit(context.Background(), c); err != nil {
				b.Fatal(err)
			}
		}
		return g
	}
	g, long := played("c1", 3), played("c2", 30)
	others := make([]*match.Game, 64)
	for i := range others {
		others[i] = played(fmt.Sprint("w", i), 0)
	}
	commits := 0
	commit := func() {
		i := commits % len(others)
		var err error
		if others[i], err = benchCommit(context.Background(), db, others[i], fmt.Sprint("w-", commits), take(0, 1), take(0, 1)); err != nil {
			b.Fatal(err)
		}
		commits++
	}
	cancellable, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		g       *match.Game
		writing bool
	}{
		{"cancellable", cancellable, g, false},
		{"background", context.Background(), g, false},
		{"30moves", context.Background(), long, false},
		{"writing", context.Background(), g, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if tc.writing {
				var used time.Duration
				for range b.N {
					commit()
					start := threadCPU()
					if _, err := db.Board(tc.ctx, tc.g.ID); err != nil {
						b.Fatal(err)
					}
					used += threadCPU() - start
				}
				b.ReportMetric(float64(used.Nanoseconds())/1e3/float64(b.N), "thread-µs/op")
				return
			}
			b.ReportAllocs()
			cpu, thread := startCPU(), threadCPU()
			for range b.N {
				if _, err := db.Board(tc.ctx, tc.g.ID); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64((threadCPU()-thread).Nanoseconds())/1e3/float64(b.N), "thread-µs/op")
			cpu.report(b)
		})
	}
}

// BenchmarkResponseRead is the saved-answer lookup every interaction makes
// first (Response: a 2.2 KB board answer by interaction id, rotating over
// 64 saved ones), reporting CPU per lookup as BenchmarkBoardRead does.
func BenchmarkResponseRead(b *testing.B) {
	ctx := context.Background()
	db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), "NORMAL")
	ids := make([]string, 64)
	for i := range ids {
		ids[i] = fmt.Sprint("1234567890123456", i)
		if err := db.SaveResponse(ctx, ids[i], benchResponse); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu, thread := startCPU(), threadCPU()
	b.ResetTimer()
	for i := range b.N {
		if resp, err := db.Response(ctx, ids[i%len(ids)]); err != nil || len(resp) != len(benchResponse) {
			b.Fatal(len(resp), err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((threadCPU()-thread).Nanoseconds())/1e3/float64(b.N), "thread-µs/op")
	cpu.report(b)
}
