package postgres

import (
	"context"
	"fmt"
	"testing"

	"nimbot/internal/cpuclock"
	"nimbot/internal/storetest"
	"nimbot/match"
)

// BenchmarkBoardRead is the read every board click makes first (Board: the
// game, its moves, the hint mark) on a game 3 moves in and on one 30 moves
// in, against the test cluster on loopback. Besides wall time it reports
// this process's CPU per read (the client's share: pgx, the decoding).
func BenchmarkBoardRead(b *testing.B) {
	ctx := context.Background()
	db := mustOpen(b, fixed)
	for _, moves := range []int{3, 30} {
		g := mustCreate(b, db, newGame(fmt.Sprint("c", moves), [2]string{"alice", match.BotID}, 1<<40))
		for range moves {
			c, err := storetest.Change(g, take(0, 1))
			if err != nil {
				b.Fatal(err)
			}
			if g, err = db.Commit(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(fmt.Sprintf("%dmoves", moves), func(b *testing.B) {
			b.ReportAllocs()
			start := cpuclock.Process()
			for range b.N {
				if _, err := db.Board(ctx, g.ID); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuclock.Process()-start).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}
