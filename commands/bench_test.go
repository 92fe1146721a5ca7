package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/internal/cpuclock"
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
			var cpu time.Duration
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
				c0 := cpuclock.Process()
				resp, _, _ := h.svc.Handle(context.Background(), &i)
				cpu += cpuclock.Process() - c0
				b.StopTimer()
				if resp.Type != discordgo.InteractionResponseUpdateMessage {
					b.Fatalf("move: %s", text(resp))
				}
				g = h.gameByID(g.ID)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// benchBoards are typical boards of a click's answer: Nim 3-4-5 (the
// one-click menu) fresh and a few moves in, against a person and against
// nimbot, a misère game, a German one, and variants with other controls
// (Wythoff's diagonal menu, Kayles' knocks, a 21 counting game).
func benchBoards(tb testing.TB) map[string]board {
	tb.Helper()
	players := [2]string{"123456789012345678", "987654321098765432"}
	mk := func(game string, plies int, vsBot bool, lang string, selected int) board {
		r, p, err := engine.ParseGame(game)
		if err != nil {
			tb.Fatalf("%s: %v", game, err)
		}
		g := &match.Game{ID: 4321, Rules: r, Start: p, Position: p, Players: players, Status: match.Active,
			CreatedBy: players[0], Hints: true, Locale: lang,
			Deadline: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
		if vsBot {
			g.Players[1] = match.BotID
		}
		var moves []match.Move
		for k := range plies {
			legal := r.Legal(g.Position)
			if len(legal) == 0 || r.Over(g.Position) {
				tb.Fatalf("%s: over after %d moves", game, k)
			}
			m := legal[len(legal)/3]
			moves = append(moves, match.Move{GameID: g.ID, Ply: k, Player: g.Players[k%2], Move: m})
			q, err := r.Apply(g.Position, m)
			if err != nil {
				tb.Fatalf("%s: %v", game, err)
			}
			g.Position, g.Ply = q, k+1
		}
		return board{g: g, moves: moves, selected: selected}
	}
	return map[string]board{
		"nim345":          mk("nim 3 4 5", 0, false, "", -1),
		"nim345-vsbot-4":  mk("nim 3 4 5", 4, true, "", -1),
		"nim345-picked":   mk("nim 3 4 5", 2, false, "", 2),
		"nim345-misere-3": mk("nim misere 3 4 5", 3, false, "", -1),
		"nim345-de-4":     mk("nim 3 4 5", 4, true, "de", -1),
		"wythoff-3":       mk("wythoff 7 9", 3, true, "", -1),
		"kayles-2":        mk("kayles 5 3 4", 2, false, "", 1),
		"21-5":            mk("21", 5, true, "", -1),
	}
}

// BenchmarkBoardResponse renders a board as a click's answer
// (UPDATE_MESSAGE) and encodes it as it is saved and sent.
func BenchmarkBoardResponse(b *testing.B) {
	boards := benchBoards(b)
	for _, n := range slices.Sorted(maps.Keys(boards)) {
		bd := boards[n]
		b.Run(n, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := json.Marshal(bd.response(discordgo.InteractionResponseUpdateMessage)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBoardEncode is BenchmarkBoardResponse's encoding alone: the
// same boards rendered once, encoded as they are saved and sent.
func BenchmarkBoardEncode(b *testing.B) {
	boards := benchBoards(b)
	for _, n := range slices.Sorted(maps.Keys(boards)) {
		resp := boards[n].response(discordgo.InteractionResponseUpdateMessage)
		b.Run(n, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := json.Marshal(resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStart is one /nim start against nimbot through the real Service,
// each in a channel of its own: the checks, the game built, its first board
// rendered and encoded, and one store.CreateGame saving the game and the
// answer. Me: the player moves first; Nimbot: nimbot opens, its move chosen
// and played in the same transaction. Only Handle is timed (making the
// interaction is not). synchronous=NORMAL, so the figure is CPU rather
// than fsync.
func BenchmarkStart(b *testing.B) {
	for _, first := range []string{"me", "opponent"} {
		b.Run(first, func(b *testing.B) {
			h := newHarnessSync(b, 1, "NORMAL")
			var cpu time.Duration
			k := 0
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				k++
				h.channel = fmt.Sprintf("12300%014d", k)
				i := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Type: 2,
					Options: opts("first", first, "difficulty", "easy", "heaps", "3 4 5")})
				b.StartTimer()
				c0 := cpuclock.Process()
				resp, _, _ := h.svc.Handle(context.Background(), i)
				cpu += cpuclock.Process() - c0
				b.StopTimer()
				if resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
					b.Fatalf("start: %s", text(resp))
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}
