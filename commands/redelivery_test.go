package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
)

// redelivered is an interaction that changes something, set up in a fresh
// harness: the fixture and fields to deliver it again and again with the
// same id, and the game it acts on.
type redelivered struct {
	fixture string
	f       fields
	game    int64
	lang    string // the interaction's locale; "" for the fixture's
}

// redeliveries are the interactions that change something on every kind of
// route, replay (board controls pinned to their ply, which look for a saved
// answer only once they are refused) and once (accept, rematch). Where
// nimbot moves in answer, it plays perfectly, so its move takes nothing
// from the shared random source: deliveries at once draw from it in any
// order, and the one that commits need not be the one that drew first, so
// at a difficulty that errs its move (a valid one) could differ from the
// one the sequential run drew.
var redeliveries = []struct {
	name  string
	setup func(h *harness) redelivered
}{
	{"MoveAgainstNimbot", func(h *harness) redelivered {
		h.command(alice, "start", "first", "me", "heaps", "3 4 5", "difficulty", "perfect")
		g := h.game()
		return component(h, alice, g, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 2}.CustomID())
	}},
	{"MovePickedFromMenu", func(h *harness) redelivered {
		h.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "3 4 5")
		g := h.game()
		h.click(bob, AcceptControl{Game: g.ID}.CustomID())
		g = h.game()
		r := component(h, alice, g, MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: "a"}.CustomID())
		r.f.ComponentType, r.f.Values = 3, `["B2"]`
		return r
	}},
	{"MoveTyped", func(h *harness) redelivered {
		h.command(alice, "start", "first", "me", "heaps", "3 4 5", "difficulty", "perfect")
		g := h.game()
		return redelivered{"modal_submit.json", fields{UserID: alice, CustomID: TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), Value: `"C3"`, ID: h.nextID(), MessageID: h.message}, g.ID, ""}
	}},
	{"WinningMove", func(h *harness) redelivered {
		h.command(alice, "start", "first", "me", "heaps", "3")
		g := h.game()
		return component(h, alice, g, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 3}.CustomID())
	}},
	{"WinningMoveInGroupDM", func(h *harness) redelivered {
		// An interaction-only game: a click on its board once it is over is
		// answered with the settled board, not refused.
		h.channel = chanB
		p := groupDM(h)
		p.run(alice, "start", "opponent", user(bob), "first", "me", "heaps", "3")
		g := h.game()
		p.press(bob, AcceptControl{Game: g.ID}.CustomID())
		r := component(h, alice, g, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 3}.CustomID())
		r.fixture = p.click
		return r
	}},
	{"ResignButton", func(h *harness) redelivered {
		h.command(alice, "start", "first", "me", "heaps", "3 4 5")
		g := h.game()
		return component(h, alice, g, ResignControl{Game: g.ID, Ply: g.Ply}.CustomID())
	}},
	{"HintButton", func(h *harness) redelivered {
		h.command(alice, "start", "first", "me", "heaps", "3 4 5")
		g := h.game()
		return component(h, alice, g, HintControl{Game: g.ID, Ply: g.Ply}.CustomID())
	}},
	{"Accept", func(h *harness) redelivered {
		h.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "3 4 5")
		g := h.game()
		return component(h, bob, g, AcceptControl{Game: g.ID}.CustomID())
	}},
	{"Rematch", func(h *harness) redelivered {
		// The rematch opens with nimbot's move.
		h.command(alice, "start", "first", "me", "heaps", "3 4 5", "difficulty", "perfect")
		g := h.game()
		h.click(alice, ResignControl{Game: g.ID, Ply: g.Ply}.CustomID())
		return component(h, alice, g, RematchControl{Game: g.ID}.CustomID())
	}},
}

// component is a click by who on the board of g.
func component(h *harness, who string, g *match.Game, customID string) redelivered {
	return redelivered{"message_component.json", fields{UserID: who, CustomID: customID, ComponentType: 2, ID: h.nextID(), MessageID: h.message}, g.ID, ""}
}

// deliver decodes the interaction afresh, as each delivery arrives, and
// answers it with the JSON a transport sends, and whether Handle said it
// is another delivery's saved answer (which the gateway does not send).
func (h *harness) deliver(d redelivered) (encoded []byte, replayed bool) {
	h.t.Helper()
	i := h.interaction(d.fixture, d.f)
	if d.lang != "" {
		i.Locale = discordgo.Locale(d.lang)
	}
	resp, encoded, replayed := h.svc.Handle(context.Background(), i)
	if encoded == nil {
		var err error
		if encoded, err = json.Marshal(resp); err != nil {
			h.t.Fatalf("encode: %v", err)
		}
	}
	return encoded, replayed
}

// snapshot is everything an interaction may change: the games of the
// channel (a rematch makes one), their moves, the players' records.
type snapshot struct {
	Game, Live *match.Game
	Moves      []match.Move
	Stats      []match.Stats
}

// String shows the games themselves, not their addresses, when a test
// prints a snapshot.
func (s snapshot) String() string {
	game := func(g *match.Game) string {
		if g == nil {
			return "<nil>"
		}
		return fmt.Sprintf("%+v", *g)
	}
	return fmt.Sprintf("game %s\nlive %s\nmoves %+v\nstats %+v", game(s.Game), game(s.Live), s.Moves, s.Stats)
}

func (h *harness) snapshot(id int64) snapshot {
	h.t.Helper()
	ctx := context.Background()
	s := snapshot{Game: h.gameByID(id), Moves: h.moves(id)}
	if g, err := h.db.ChannelGame(ctx, h.channel); err == nil {
		s.Live = g
	}
	for _, u := range []string{alice, bob} {
		st, err := h.db.Stats(ctx, s.Game.Scope(), u, "")
		if err != nil {
			h.t.Fatalf("stats: %v", err)
		}
		s.Stats = append(s.Stats, st)
	}
	return s
}

// TestRedeliveryAnswersAsFirst: an interaction that changed something,
// delivered again (a gateway retry, Discord resending an HTTP request) one
// after the other or several at once, gets the first answer byte for byte,
// the one saved with the change, and changes nothing more. Board controls
// look the saved answer up only once they are refused, so this covers that
// every redelivery of them is refused or caught by the commit.
func TestRedeliveryAnswersAsFirst(t *testing.T) {
	for _, tc := range redeliveries {
		t.Run(tc.name, func(t *testing.T) { checkRedelivery(t, tc.name, tc.setup) })
	}
}

// TestRedeliveryEveryVariant: the board answering a move, in every variant
// and in English, German and Japanese, comes back byte for byte from the
// store (where it is kept compressed) when the move is delivered again,
// one delivery after another or several at once: a move typed in the
// modal (a board control, replayed) and one typed with /nim move (a slash
// command, saved once). nimbot plays perfectly: its reply takes nothing
// from the shared random source, which deliveries at once draw from in any
// order.
func TestRedeliveryEveryVariant(t *testing.T) {
	for _, v := range engine.Variants() {
		for _, lang := range []string{"en-US", "de", "ja"} {
			start := func(h *harness) *match.Game {
				speaker{h, lang}.command(alice, "start", "variant", string(v), "first", "me", "difficulty", "perfect")
				g := h.game()
				if g.Locale == "" || g.Rules.Variant != v {
					h.t.Fatalf("%s in %s: started %+v", v, lang, g)
				}
				return g
			}
			t.Run(string(v)+"/"+lang+"/MoveTyped", func(t *testing.T) {
				checkRedelivery(t, "MoveTyped", func(h *harness) redelivered {
					g := start(h)
					move, _ := json.Marshal(g.Rules.FormatMove(g.Position, winningMove(t, g)))
					return redelivered{"modal_submit.json", fields{UserID: alice, CustomID: TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), Value: string(move), ID: h.nextID(), MessageID: h.message}, g.ID, lang}
				})
			})
			t.Run(string(v)+"/"+lang+"/MoveCommand", func(t *testing.T) {
				checkRedelivery(t, "MoveCommand", func(h *harness) redelivered {
					g := start(h)
					move := g.Rules.FormatMove(g.Position, winningMove(t, g))
					return redelivered{"application_command.json", fields{UserID: alice, Sub: "move", Options: opts("notation", move), Type: 2, ID: h.nextID()}, g.ID, lang}
				})
			})
		}
	}
}

// checkRedelivery delivers the interaction setup makes once and then again,
// in a fresh harness, and then several times at once in another: every
// delivery gets the first answer, the saved one, and changes nothing more;
// and exactly one delivery, the one whose answer was saved, is not told
// replayed: over the gateway, Discord gets one callback.
func checkRedelivery(t *testing.T, name string, setup func(h *harness) redelivered) {
	// The state after exactly one delivery, to hold the concurrent
	// deliveries to: the same seed makes the same game.
	var once snapshot
	t.Run("Sequential", func(t *testing.T) {
		h := newHarness(t, 1)
		d := setup(h)
		before := h.snapshot(d.game)
		first, replayed := h.deliver(d)
		if replayed {
			t.Fatalf("the first delivery was told replayed: %s", first)
		}
		saved, err := h.db.Response(context.Background(), AnswerKey(h.interaction(d.fixture, d.f)))
		if err != nil {
			t.Fatalf("the first delivery saved no answer (%v): %s", err, first)
		}
		if !bytes.Equal(first, saved) {
			t.Fatalf("first answer is not the saved one:\n%s\n%s", first, saved)
		}
		once = h.snapshot(d.game)
		if reflect.DeepEqual(before, once) && name != "HintButton" {
			t.Fatalf("the first delivery changed nothing: %s", first)
		}
		for k := range 3 {
			// Redeliveries come later: nothing may be drawn afresh.
			h.now = h.now.Add(time.Minute)
			again, replayed := h.deliver(d)
			if !bytes.Equal(again, first) {
				t.Fatalf("redelivery %d answered differently:\n%s\n%s", k+1, again, first)
			}
			if !replayed {
				t.Fatalf("redelivery %d was not told replayed: the gateway would answer it again", k+1)
			}
			if after := h.snapshot(d.game); !reflect.DeepEqual(after, once) {
				t.Fatalf("redelivery %d changed something:\n%+v\n%+v", k+1, after, once)
			}
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		h := newHarness(t, 1)
		d := setup(h)
		const n = 6
		answers := make([][]byte, n)
		replayed := make([]bool, n)
		var wg sync.WaitGroup
		for k := range answers {
			wg.Go(func() { answers[k], replayed[k] = h.deliver(d) })
		}
		wg.Wait()
		fresh := 0
		for _, r := range replayed {
			if !r {
				fresh++
			}
		}
		if fresh != 1 {
			t.Fatalf("%d of %d deliveries at once were not told replayed (%v), want 1: Discord would get %d callbacks", fresh, n, replayed, fresh)
		}
		saved, err := h.db.Response(context.Background(), AnswerKey(h.interaction(d.fixture, d.f)))
		if err != nil {
			t.Fatalf("no answer saved: %v", err)
		}
		for k, a := range answers {
			if !bytes.Equal(a, saved) {
				t.Fatalf("delivery %d answered differently from the saved answer:\n%s\n%s", k, a, saved)
			}
		}
		after := h.snapshot(d.game)
		// A game a delivery creates (a rematch) has its id reserved before
		// the transaction (store's gameIDs), one per delivery, so which
		// delivery commits decides the id: it may differ from the
		// sequential run's. Every other reserved id stays unused.
		for id := d.game + 1; id <= d.game+n; id++ {
			_, err := h.db.Game(context.Background(), id)
			if err != nil && !errors.Is(err, match.ErrNotFound) {
				t.Fatalf("game %d: %v", id, err)
			}
			created := after.Live != nil && after.Live.ID == id
			if created != (err == nil) {
				t.Fatalf("game %d after %d deliveries at once: %v (live %v)", id, n, err, after)
			}
		}
		if after.Live != nil && once.Live != nil && after.Live.ID > d.game {
			live := *after.Live
			live.ID = once.Live.ID
			after.Live = &live
		}
		if !reflect.DeepEqual(after, once) {
			t.Fatalf("%d deliveries at once did not change exactly what one does:\n%v\n%v", n, after, once)
		}
	})
}

// TestRedeliveryOfRefusal: a board click refused the first time saved
// nothing, and its redelivery is refused again, afresh, with nothing saved
// and nothing changed.
func TestRedeliveryOfRefusal(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me", "heaps", "3 4 5")
	g := h.game()
	d := component(h, bob, g, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 1}.CustomID())
	first, replayed := h.deliver(d)
	if replayed {
		t.Fatalf("a first delivery was told replayed")
	}
	var resp discordgo.InteractionResponse
	if err := json.Unmarshal(first, &resp); err != nil || resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("bob's click on alice's game must be refused: %s", first)
	}
	again, replayed := h.deliver(d)
	if !bytes.Equal(again, first) {
		t.Fatalf("refusal redelivered answered differently:\n%s\n%s", again, first)
	}
	if replayed {
		// Nothing was saved: nothing says Discord has an answer.
		t.Fatalf("a refusal answered afresh was told replayed")
	}
	if _, err := h.db.Response(context.Background(), AnswerKey(h.interaction(d.fixture, d.f))); err == nil {
		t.Fatalf("a refused board click was saved")
	}
	if g2 := h.gameByID(g.ID); g2.Ply != g.Ply {
		t.Fatalf("a refused click moved")
	}
}

// TestReusedIDGetsNoOneElsesAnswer: an answer is saved for its interaction
// as Discord delivers it, id, user, channel and type together. A request
// that reuses the id with any of the others changed (only a forged one
// can) is answered for itself, afresh: it never gets the first answer,
// which would post alice's challenge again, pinging bob, wherever and as
// often as it was sent.
func TestReusedIDGetsNoOneElsesAnswer(t *testing.T) {
	h := newHarness(t, 1)
	const id = "1390000000000000301"
	start := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Options: opts("opponent", user(bob)), Type: 2, ID: id})
	first, _, _ := h.svc.Handle(context.Background(), start)
	if !strings.Contains(text(first), "challenge") {
		t.Fatalf("the challenge: %s", text(first))
	}
	if again, _, _ := h.svc.Handle(context.Background(), h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Options: opts("opponent", user(bob)), Type: 2, ID: id})); text(again) != text(first) {
		t.Fatalf("a redelivery was not answered as the first: %s", text(again))
	}
	cases := map[string]*discordgo.Interaction{
		"another user":    h.interaction("application_command.json", fields{UserID: carol, Sub: "end", Type: 2, ID: id}),
		"another channel": h.interaction("application_command.json", fields{UserID: alice, Sub: "status", Type: 2, ID: id, ChannelID: chanB}),
		"another type":    h.interaction("message_component.json", fields{UserID: alice, CustomID: ResignControl{Game: 1, Ply: 0}.CustomID(), ComponentType: 2, ID: id, MessageID: h.message}),
	}
	for name, i := range cases {
		t.Run(name, func(t *testing.T) {
			resp, _, _ := h.svc.Handle(context.Background(), i)
			if text(resp) == text(first) {
				t.Fatalf("answered with alice's challenge: %s", text(resp))
			}
		})
	}
	if g := h.game(); g.Status != match.Pending || g.Ply != 0 {
		t.Fatalf("the challenge changed: %+v", g)
	}
}
