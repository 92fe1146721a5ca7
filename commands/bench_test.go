package commands

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// BenchmarkMoveAgainstBot is one board click against nimbot: route, engine
// move and reply, one store.Commit, board rendered and saved for
// redelivery. A finished game is replaced by a new one, which the figure
// amortizes. FULL is production's setting; NORMAL shows what is not fsync.
func BenchmarkMoveAgainstBot(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync, func(b *testing.B) {
			h := newHarnessSync(b, 1, sync)
			var g *match.Game
			b.ResetTimer()
			for range b.N {
				if g == nil || g.Status != match.Active {
					h.command(alice, "start", "first", "me", "difficulty", "perfect", "heaps", "5 6 7 9")
					g = h.game()
				}
				m := winningMove(b, g)
				resp := h.submit(alice, TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), g.Rules.FormatMove(g.Position, m))
				if resp.Type != discordgo.InteractionResponseUpdateMessage {
					b.Fatalf("move: %s", text(resp))
				}
				g = h.gameByID(g.ID)
			}
		})
	}
}
