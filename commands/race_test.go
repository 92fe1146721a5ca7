package commands

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/match"
)

// raceDB is the real store, with interactions queued to commit just before
// its next commits: each is another interaction landing between a
// handler's read and its write.
type raceDB struct {
	match.Storage
	mu     sync.Mutex
	before []func()
}

// Commit runs the first queued interaction, if any, then commits c.
func (d *raceDB) Commit(ctx context.Context, c match.Change) (*match.Game, error) {
	d.mu.Lock()
	var f func()
	if len(d.before) > 0 {
		f, d.before = d.before[0], d.before[1:]
	}
	d.mu.Unlock()
	if f != nil {
		f()
	}
	return d.Storage.Commit(ctx, c)
}

// racing is a Service over h's store in which each of before commits just
// before one of the Service's own commits, in turn. before runs through h's
// own Service.
func racing(h *harness, before ...func()) *Service {
	return New(Config{DB: &raceDB{Storage: h.db, before: before}, Now: h.clock, Log: h.svc.log})
}

// moveNow is a move by the player to move in the channel's game, sent with
// /nim move: the interaction that races.
func moveNow(t *testing.T, h *harness) func() {
	return func() {
		t.Helper()
		g := h.game()
		heap := largestHeap(g.Position.Heaps)
		if resp := h.command(g.ToMove(), "move", "notation", g.Rules.FormatMove(g.Position, engine.Move{Kind: engine.Take, Heap: heap, Take: 1})); isEphemeral(resp) {
			t.Fatalf("the racing move was refused: %s", text(resp))
		}
	}
}

// TestCommandAfterRace: /nim end and /nim resign hold at any ply. When a
// move commits between their read and their write, they are not refused
// with a board's "out of date" (a command has no board) but done on the
// game as it then is; only a game that changes at every attempt is told,
// in words of its own. Either answer is saved, and a redelivery gets it.
func TestCommandAfterRace(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		sub  string
		want match.Status
	}{{"end", match.Ended}, {"resign", match.Resigned}} {
		t.Run(c.sub, func(t *testing.T) {
			h := newHarness(t, 1)
			h.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "7 9 11")
			g := h.game()
			h.click(bob, AcceptControl{Game: g.ID}.CustomID())
			// bob, waiting for alice's move, sends the command as she moves.
			svc := racing(h, moveNow(t, h))
			i := h.interaction("application_command.json", fields{UserID: bob, Sub: c.sub, Type: 2})
			resp, first, _ := svc.Handle(ctx, i)
			checkResponse(t, resp)
			if isEphemeral(resp) || resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
				t.Fatalf("/nim %s after a move landed: %s", c.sub, text(resp))
			}
			g = h.gameByID(g.ID)
			if g.Status != c.want || g.Ply != 1 || len(h.moves(g.ID)) != 1 {
				t.Fatalf("/nim %s after a move landed: %s at ply %d, %d moves", c.sub, g.Status, g.Ply, len(h.moves(g.ID)))
			}
			if c.want == match.Resigned && g.Winner != alice {
				t.Fatalf("bob resigned, the winner is %q", g.Winner)
			}
			if !strings.Contains(text(resp), result(locale.For(g.Locale), g)) {
				t.Fatalf("the answer does not show the result: %s", text(resp))
			}
			if _, again, _ := svc.Handle(ctx, i); !bytes.Equal(again, first) {
				t.Fatalf("a redelivery got another answer:\n%s\n%s", first, again)
			}
		})
		t.Run(c.sub+"/EveryAttempt", func(t *testing.T) {
			h := newHarness(t, 1)
			h.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "7 9 11")
			g := h.game()
			h.click(bob, AcceptControl{Game: g.ID}.CustomID())
			var moves []func()
			for range staleAttempts {
				moves = append(moves, moveNow(t, h))
			}
			svc := racing(h, moves...)
			i := h.interaction("application_command.json", fields{UserID: bob, Sub: c.sub, Type: 2})
			resp, first, _ := svc.Handle(ctx, i)
			checkResponse(t, resp)
			wantUserError(t, resp, locale.For(locale.English).T("play.err.command_raced"))
			if g = h.gameByID(g.ID); g.Status != match.Active || g.Ply != staleAttempts {
				t.Fatalf("after %d raced attempts: %s at ply %d", staleAttempts, g.Status, g.Ply)
			}
			if _, again, _ := svc.Handle(ctx, i); !bytes.Equal(again, first) {
				t.Fatalf("a redelivery got another answer:\n%s\n%s", first, again)
			}
		})
	}
}

// TestChallengeAfterRace: an Accept or Decline whose challenge changed
// between its read and its write is answered with what became of the
// challenge, not with "this game is over" or a board out of date.
func TestChallengeAfterRace(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		race  func(h *harness, g *match.Game)
		click func(g *match.Game) Control
		// components of the clicked message; "" for the board as posted.
		components string
		check      func(t *testing.T, resp *discordgo.InteractionResponse, g *match.Game)
	}{
		{
			name: "AcceptAfterEnd",
			race: func(h *harness, g *match.Game) { h.command(alice, "end") },
			click: func(g *match.Game) Control {
				return AcceptControl{Game: g.ID}
			},
			check: wantSettled,
		},
		{
			name: "AcceptAfterEndElsewhere",
			race: func(h *harness, g *match.Game) { h.command(alice, "end") },
			click: func(g *match.Game) Control {
				return AcceptControl{Game: g.ID}
			},
			components: "[]",
			check: func(t *testing.T, resp *discordgo.InteractionResponse, g *match.Game) {
				wantUserError(t, resp, "called off")
			},
		},
		{
			name: "DeclineAfterEnd",
			race: func(h *harness, g *match.Game) { h.command(alice, "end") },
			click: func(g *match.Game) Control {
				return DeclineControl{Game: g.ID}
			},
			check: wantSettled,
		},
		{
			name: "AcceptAfterDecline",
			race: func(h *harness, g *match.Game) { h.click(bob, DeclineControl{Game: g.ID}.CustomID()) },
			click: func(g *match.Game) Control {
				return AcceptControl{Game: g.ID}
			},
			check: wantSettled,
		},
		{
			name: "AcceptAfterAccept",
			race: func(h *harness, g *match.Game) { h.click(bob, AcceptControl{Game: g.ID}.CustomID()) },
			click: func(g *match.Game) Control {
				return AcceptControl{Game: g.ID}
			},
			check: func(t *testing.T, resp *discordgo.InteractionResponse, g *match.Game) {
				wantUserError(t, resp, locale.For(locale.English).T("start.err.accepted"))
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 1)
			h.command(alice, "start", "opponent", user(bob))
			g := h.game()
			board := h.message
			svc := racing(h, func() { c.race(h, g) })
			i := h.interaction("message_component.json", fields{UserID: bob, CustomID: c.click(g).CustomID(), ComponentType: 2, MessageID: board, MessageComponents: c.components})
			resp, _, _ := svc.Handle(ctx, i)
			checkResponse(t, resp)
			for _, wrong := range []error{errOver(), errStale()} {
				if say, _ := isUserError(wrong, locale.For(locale.English)); strings.Contains(text(resp), say) {
					t.Fatalf("answered %q: %s", say, text(resp))
				}
			}
			c.check(t, resp, h.gameByID(g.ID))
		})
	}
}
