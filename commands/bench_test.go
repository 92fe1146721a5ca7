package commands

import (
	"context"

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

// BenchmarkSelectMove is one click that plays a move picked from a select
// menu of moves (the one-click control), through the real Service against
// nimbot on Nim 3-4-5: route, engine move and reply, one store.Commit, board
// rendered and saved for redelivery. Only the click is timed: making the
// interaction and starting a new game when one ends are not. FULL is
// production's setting; NORMAL shows the CPU without the fsync.
func BenchmarkSelectMove(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync, func(b *testing.B) {
			h := newHarnessSync(b, 1, sync)
			tmpl := h.interaction("message_component.json", fields{UserID: alice, CustomID: "x", ComponentType: 3, Values: `["x"]`})
			var g *match.Game
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if g == nil || g.Status != match.Active {
					h.command(alice, "start", "first", "me", "difficulty", "perfect", "heaps", "3 4 5")
					g = h.game()
				}
				m := winningMove(b, g)
				i := *tmpl
				i.ID = h.nextID()
				i.Data = discordgo.MessageComponentInteractionData{
					CustomID:      MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: "a"}.CustomID(),
					ComponentType: discordgo.SelectMenuComponent,
					Values:        []string{g.Rules.FormatMove(g.Position, m)},
				}
				b.StartTimer()
				resp, _ := h.svc.Handle(context.Background(), &i)
				b.StopTimer()
				if resp.Type != discordgo.InteractionResponseUpdateMessage {
					b.Fatalf("move: %s", text(resp))
				}
				g = h.gameByID(g.ID)
				b.StartTimer()
			}
		})
	}
}
