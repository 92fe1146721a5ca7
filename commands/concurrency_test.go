package commands

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
)

// Two clicks on one board at the same moment (two players, or one impatient
// one) must apply one move: the store checks the ply inside its IMMEDIATE
// transaction and the loser gets the stale answer.
func TestConcurrentClicksApplyOneMove(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me")
	g := h.game()
	click := MoveControl{Game: g.ID, Ply: g.Ply, Heap: 2, Take: 1}.CustomID()
	const n = 6
	is := make([]*discordgo.Interaction, n)
	for k := range is {
		is[k] = h.interaction("message_component.json", fields{UserID: alice, CustomID: click, ComponentType: 2})
	}
	resps := make([]*discordgo.InteractionResponse, n)
	var wg sync.WaitGroup
	for k := range is {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resps[k], _, _ = h.svc.Handle(context.Background(), is[k])
		}()
	}
	wg.Wait()
	moved, stale := 0, 0
	for _, r := range resps {
		switch {
		case r.Type == discordgo.InteractionResponseUpdateMessage:
			moved++
		case isEphemeral(r) && strings.Contains(r.Data.Content, "out of date"):
			stale++
		default:
			t.Errorf("unexpected answer: %s", text(r))
		}
	}
	if moved != 1 || stale != n-1 {
		t.Fatalf("%d moved, %d stale; want 1 and %d", moved, stale, n-1)
	}
	if ms := h.moves(g.ID); len(ms) != 2 {
		t.Fatalf("%d moves stored, want alice's and nimbot's", len(ms))
	}
}

// The same interaction delivered twice at once (gateway and a retry) is
// answered the same both times and moves once.
func TestConcurrentRedelivery(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me")
	g := h.game()
	i := h.interaction("message_component.json", fields{UserID: alice, CustomID: MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 3}.CustomID(), ComponentType: 2})
	var a, b *discordgo.InteractionResponse
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a, _, _ = h.svc.Handle(context.Background(), i) }()
	go func() { defer wg.Done(); b, _, _ = h.svc.Handle(context.Background(), i) }()
	wg.Wait()
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if a.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("first answer: %s", text(a))
	}
	if string(ja) != string(jb) {
		t.Fatalf("two deliveries answered differently:\n%s\n%s", ja, jb)
	}
	if ms := h.moves(g.ID); len(ms) != 2 {
		t.Fatalf("%d moves stored, want 2", len(ms))
	}
}

// Two deliveries of one click: the second looks for a saved answer before
// the first has committed, and handles the click after it has, so the board
// it holds is stale by then. It must answer as the first did, not "out of
// date" (which a replayable route does not save, so nothing else would
// catch it).
func TestRedeliveryRacingItsFirstDelivery(t *testing.T) {
	h := newHarness(t, 1)
	ctx := context.Background()
	h.command(alice, "start", "first", "me")
	g := h.game()
	move := MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 1}
	click := h.interaction("message_component.json", fields{UserID: alice, CustomID: move.CustomID(), ComponentType: 2, ID: "1390000000000000301", MessageID: h.message})
	var first *discordgo.InteractionResponse
	chain := h.svc.answers.replay(func(r *request) (*answer, error) {
		first, _, _ = h.svc.Handle(ctx, click)
		return h.svc.moveButton(r, move)
	})
	r := &request{ctx: ctx, i: click, path: interactionPath(click), now: h.now, lang: locale.For(locale.English)}
	ans, err := chain(r)
	if err != nil {
		t.Fatal(err)
	}
	second := ans.resp
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(second)
	if first.Type != discordgo.InteractionResponseUpdateMessage || string(a) != string(b) {
		t.Fatalf("two deliveries answered differently:\n%s\n%s", a, b)
	}
}
