package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"nimbot/engine"
	"nimbot/match"
)

// renderLoad stands in for commands drawing a new game's first board: some
// CPU work (encoding a board-sized answer, about 2.5 KB of JSON) that
// needs the game's id.
func renderLoad(g *match.Game) ([]byte, error) {
	type button struct {
		Label    string `json:"label"`
		CustomID string `json:"custom_id"`
		Style    int    `json:"style"`
	}
	rows := make([][]button, 5)
	for r := range rows {
		for b := range 5 {
			rows[r] = append(rows[r], button{fmt.Sprint("Take ", b+1, " from heap ", r+1), fmt.Sprintf("move/%d/%d/%d/%d", g.ID, g.Ply, r, b+1), 2})
		}
	}
	return json.Marshal(map[string]any{"type": 4, "data": map[string]any{
		"embeds":     []map[string]any{{"title": fmt.Sprint("Game ", g.ID), "description": strings.Repeat("▮", 200)}},
		"components": rows,
	}})
}

// BenchmarkCommitLoad is the store's share of the load tool's work, per
// committed move: many channels at once (8 goroutines per CPU), each
// playing games of Nim 3-4-5 against nimbot to the end, a human move and
// nimbot's reply per Commit with a saved board (benchResponse), the game that
// ends recording its result, and a new game created (with its first board
// drawn by renderLoad and saved) when one ends; synchronous=FULL on a file in b.TempDir. Besides
// ns/op it reports the process's CPU time per committed move (cpu-µs/op,
// from getrusage: the writer, the callers and the garbage collector
// together).
func BenchmarkCommitLoad(b *testing.B) {
	ctx := context.Background()
	db := mustOpenPath(b, filepath.Join(b.TempDir(), "nimbot.db"), "FULL")
	var channel, interaction atomic.Int64
	newLoadGame := func(ch string) (*match.Game, error) {
		g := newGame(ch, [2]string{"alice", match.BotID}, 3, 4, 5)
		g.Difficulty = engine.Easy
		err := db.CreateGame(ctx, g, match.Respond(fmt.Sprint("create-", interaction.Add(1)), renderLoad))
		return g, err
	}
	b.SetParallelism(8)
	b.ReportAllocs()
	cpu := startCPU()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		ch := fmt.Sprint("c", channel.Add(1))
		g, err := newLoadGame(ch)
		if err != nil {
			b.Error(err)
			return
		}
		for pb.Next() {
			if g.Status.Finished() {
				if g, err = newLoadGame(ch); err != nil {
					b.Error(err)
					return
				}
			}
			// Take one from the first heap that has any, twice.
			var moves []engine.Move
			p := g.Position
			for range 2 {
				for h, n := range p.Heaps {
					if n > 0 {
						m := take(h, 1)
						moves = append(moves, m)
						p, _ = apply(p, m)
						break
					}
				}
			}
			var err error
			if g, err = benchCommit(ctx, db, g, fmt.Sprint("move-", interaction.Add(1)), moves...); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	cpu.report(b)
	batches, jobs := db.writes.stats()
	b.ReportMetric(float64(jobs)/float64(max(batches, 1)), "jobs/commit")
}
