package commands

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// BenchmarkBoardLocales draws one board as a click's answer does (embed,
// move log, one-click menu, controls) in English, German and Japanese:
// Nim 4 5 7 8 against nimbot after two clicks (four moves logged, the
// moves left in one menu). Rendering only: the game is read once.
func BenchmarkBoardLocales(b *testing.B) {
	h := newHarnessSync(b, 1, "NORMAL")
	h.command(alice, "start", "first", "me", "difficulty", "perfect", "heaps", "4 5 7 8")
	g := h.game()
	for range 2 {
		m := winningMove(b, g)
		resp := h.submit(alice, TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), g.Rules.FormatMove(g.Position, m))
		if resp.Type != discordgo.InteractionResponseUpdateMessage {
			b.Fatalf("move: %s", text(resp))
		}
		g = h.gameByID(g.ID)
	}
	moves := h.moves(g.ID)
	if g.Status != match.Active || len(moves) != 4 {
		b.Fatalf("status %v, %d moves", g.Status, len(moves))
	}
	for _, lang := range []string{"en", "de", "ja"} {
		b.Run(lang, func(b *testing.B) {
			lg := *g
			lg.Locale = lang
			bd := board{g: &lg, moves: moves, selected: -1}
			b.ReportAllocs()
			for range b.N {
				if r := bd.response(discordgo.InteractionResponseUpdateMessage); r.Data == nil {
					b.Fatal("no board")
				}
			}
		})
	}
}
