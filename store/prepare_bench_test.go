package store

import (
	"testing"

	"nimbot/match"
)

// BenchmarkPrepare measures prepare, the encoding every Commit does before
// its transaction: a human move and the bot's reply, and the new position,
// each to the JSON stored.
func BenchmarkPrepare(b *testing.B) {
	g := newGame("c1", [2]string{"alice", match.BotID}, 3, 4, 5)
	g.ID, g.Position = 1, g.Start
	c, err := change(g, take(0, 1), take(1, 2))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		if _, err := prepare(c); err != nil {
			b.Fatal(err)
		}
	}
}
