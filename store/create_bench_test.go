package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// holdWriterFor holds the writer while queue queues n writes, then lets it
// go with the benchmark's timer running until they have all returned.
func holdWriterFor(b *testing.B, db *DB, n int, queue func(k int) error) {
	held, hold := make(chan struct{}), make(chan struct{})
	go db.withTx(context.Background(), func(context.Context, queries, time.Time) error {
		close(held)
		<-hold
		return nil
	})
	<-held
	errs := make(chan error, n)
	for k := range n {
		go func() { errs <- queue(k) }()
	}
	for db.writes.queued() < n {
		time.Sleep(100 * time.Microsecond)
	}
	b.StartTimer()
	close(hold)
	for range n {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
}

// BenchmarkCommitWriter is BenchmarkCreateWriter for Commit: the writer's
// time per move transaction (a human move and nimbot's reply on one of
// maxBatch games, with the saved board), batches of maxBatch queued while
// the writer is held.
func BenchmarkCommitWriter(b *testing.B) {
	ctx := context.Background()
	db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), "NORMAL")
	games := make([]*match.Game, maxBatch)
	for i := range games {
		games[i] = mustCreate(b, db, newGame(fmt.Sprint("c", i), [2]string{"alice", match.BotID}, 1<<40))
	}
	interaction := 0
	b.ReportAllocs()
	b.ResetTimer()
	b.StopTimer()
	for done := 0; done < b.N; {
		n := min(maxBatch, b.N-done)
		changes := make([]match.Change, n)
		for k := range changes {
			c, err := change(games[k], take(0, 1), take(0, 1))
			if err != nil {
				b.Fatal(err)
			}
			interaction++
			c.InteractionID, c.Response = fmt.Sprint("i", interaction), benchResponse
			changes[k] = c
		}
		holdWriterFor(b, db, n, func(k int) error {
			var err error
			games[k], err = db.Commit(ctx, changes[k])
			return err
		})
		done += n
	}
}

// BenchmarkCreateWriter measures the writer's time per CreateGame job: the
// committer every write queues behind (writer.go) is held while a batch
// of creates (maxBatch, each in a new channel, with its answer drawn by
// renderLoad and saved with Respond) queues up; only then is the timer
// started and the writer let go, and it stops when the last create has
// returned. ns/op is the writer's time per create, its batch's COMMIT
// shared out, with no caller running beside it: what a create costs the
// server's serial bottleneck. Plain is a game against nimbot where the
// player moves first; FirstTurn one where nimbot opens, played in the same
// transaction. synchronous=NORMAL: the fsync is not what is measured.
func BenchmarkCreateWriter(b *testing.B) {
	for _, first := range []bool{false, true} {
		name := "Plain"
		if first {
			name = "FirstTurn"
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), "NORMAL")
			create := func(k int) error {
				ch := fmt.Sprint("c", k)
				opts := []match.CreateOption{match.Respond(fmt.Sprint("i", k), renderLoad)}
				g := newGame(ch, [2]string{"alice", match.BotID}, 3, 4, 5)
				if first {
					g = newGame(ch, [2]string{match.BotID, "alice"}, 3, 4, 5)
					opts = append(opts, match.FirstTurn(match.Change{Moves: []engine.Move{take(0, 1)},
						Position: engine.Position{Heaps: []int64{2, 4, 5}}, Status: match.Active, Deadline: epoch.Add(time.Hour)}))
				}
				g.Difficulty = engine.Easy
				return db.CreateGame(ctx, g, opts...)
			}
			b.ReportAllocs()
			b.ResetTimer()
			b.StopTimer()
			for done := 0; done < b.N; {
				n := min(maxBatch, b.N-done)
				holdWriterFor(b, db, n, func(k int) error { return create(done + k) })
				done += n
			}
		})
	}
}

// BenchmarkSetMessageIDWriter is the writer's time per SetMessageID job
// (a new board's message recorded), measured as BenchmarkCreateWriter's.
func BenchmarkSetMessageIDWriter(b *testing.B) {
	ctx := context.Background()
	db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), "NORMAL")
	games := make([]*match.Game, maxBatch)
	for i := range games {
		games[i] = mustCreate(b, db, newGame(fmt.Sprint("c", i), [2]string{"alice", match.BotID}, 3))
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.StopTimer()
	for done := 0; done < b.N; {
		n := min(maxBatch, b.N-done)
		holdWriterFor(b, db, n, func(k int) error {
			return db.SetMessageID(ctx, games[k].ID, fmt.Sprint(1250000000000000000+done+k))
		})
		done += n
	}
}
