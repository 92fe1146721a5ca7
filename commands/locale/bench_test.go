package locale

import (
	"strconv"
	"testing"

	"nimbot/engine"
)

// BenchmarkRender renders what a Nim 3-4-5 board says with arguments, in
// one language per sub-benchmark: players, turn, footer, heap count, the
// move log's five lines with their moves described, and the one-click
// menu's twelve moves (each described and its notation named). It uses
// only T and Phrase, so the same file measures any version of the package.
func BenchmarkRender(b *testing.B) {
	r, start, err := engine.ParseGame("nim 3 4 5")
	if err != nil {
		b.Fatal(err)
	}
	moves := r.Legal(start)
	if len(moves) != 12 {
		b.Fatalf("%d moves", len(moves))
	}
	type move struct {
		phrase   engine.Phrase
		notation string
	}
	var ms []move
	for _, m := range moves {
		ms = append(ms, move{r.DescribeMove(start, m), r.FormatMove(start, m)})
	}
	for _, lang := range []string{"en", "de", "ja"} {
		p := For(lang)
		b.Run(lang, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for range b.N {
				n += len(p.T("board.players", "First", "<@123456789012345678>", "Second", "nimbot"))
				n += len(p.T("board.turn", "Player", "<@123456789012345678>"))
				n += len(p.T("board.footer", "Game", "4711", "Move", 7))
				n += len(p.T("board.heaps.heap", "Count", 3))
				for i, m := range ms[:5] {
					n += len(p.T("board.log.move", "N", strconv.Itoa(i+1), "Player", "nimbot", "Move", p.Phrase(m.phrase)))
				}
				for _, m := range ms {
					n += len(p.Phrase(m.phrase))
					n += len(p.T("control.typed_as", "Move", m.notation))
				}
			}
			if n == 0 {
				b.Fatal("nothing rendered")
			}
		})
	}
}
