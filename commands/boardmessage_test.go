package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/match"
)

// clickOn clicks control c by who on message msg; components, when not "",
// are the message's components as the client sent them (else those the
// harness saw the message get).
func (h *harness) clickOn(who string, c Control, msg, components string, flags int) *discordgo.InteractionResponse {
	h.t.Helper()
	return h.handle(h.interaction("message_component.json", fields{UserID: who, CustomID: c.CustomID(), ComponentType: 2,
		MessageID: msg, MessageComponents: components, MessageFlags: flags}))
}

// wantSuperseded checks that resp turns the clicked board into a pointer to
// g's recorded board: the same message updated, public, without controls.
func wantSuperseded(t *testing.T, resp *discordgo.InteractionResponse, g *match.Game) {
	t.Helper()
	want := locale.For(g.Locale).T("board.superseded", "Link", messageLink(g))
	if resp.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(resp) || resp.Data.Content != want {
		t.Fatalf("want the board updated to point at %s, got type %d: %s", g.MessageID, resp.Type, text(resp))
	}
	if resp.Data.Components == nil || len(resp.Data.Components) != 0 {
		t.Fatalf("the superseded board keeps controls: %v", resp.Data.Components)
	}
	if !strings.Contains(resp.Data.Content, "/"+g.ChannelID+"/"+g.MessageID) {
		t.Fatalf("the link does not name the recorded board %s: %q", g.MessageID, resp.Data.Content)
	}
}

// TestSupersededBoard: once /nim status posts the board again, the board
// the players were using is no longer the game's; a click there changes
// nothing and turns it into a pointer to the newest, so that play, and the
// deadline's edit, stay on one board.
func TestSupersededBoard(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me", "heaps", "7 9 11")
	g := h.game()
	m1 := h.message
	// Clicks on m1 carry the controls it was posted with: the pointer a
	// first click draws has none, so Discord would take no second one on
	// a client that shows the pointer.
	m1Board := h.shownOf(m1)
	h.command(carol, "status") // anyone may post the board again
	m2 := h.message
	if g = h.gameByID(g.ID); g.MessageID != m2 || m2 == m1 {
		t.Fatalf("/nim status did not become the board: recorded %s, posted %s", g.MessageID, m2)
	}

	t.Run("OlderBoard", func(t *testing.T) {
		for _, c := range []Control{
			MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1},
			HeapControl{Game: g.ID, Ply: 0, Heap: 1},
			HeapMenuControl{Game: g.ID, Ply: 0},
			TypeControl{Game: g.ID, Ply: 0},
			AskControl{Game: g.ID, Ply: 0, Heap: 2},
			ResignControl{Game: g.ID, Ply: 0},
		} {
			for _, who := range []string{alice, carol} {
				id := h.nextID()
				resp := h.handle(h.interaction("message_component.json", fields{ID: id, UserID: who, CustomID: c.CustomID(), ComponentType: 2, MessageID: m1, MessageComponents: m1Board}))
				wantSuperseded(t, resp, g)
				// Changing nothing, it is not saved: a redelivery is answered
				// afresh, as the click would be.
				if _, err := h.db.Response(ctx, h.clickKey(who, id)); !errors.Is(err, match.ErrNotFound) {
					t.Fatalf("%s: the pointer was saved as the click's answer: %v", c.CustomID(), err)
				}
			}
		}
		if now := h.gameByID(g.ID); now.Ply != 0 || now.Status != match.Active || len(h.moves(g.ID)) != 0 {
			t.Fatalf("a click on the older board changed the game: %+v", now)
		}
	})

	t.Run("NotBoardControls", func(t *testing.T) {
		// The 💡 button marks no board (hint messages carry it too): it
		// answers as ever, on any message.
		resp := h.clickOn(alice, HintControl{Game: g.ID, Ply: 0}, m1, m1Board, 0)
		if !isEphemeral(resp) || strings.Contains(text(resp), messageLink(g)) {
			t.Fatalf("the hint button on the older board: %s", text(resp))
		}
	})

	t.Run("NotThisGamesBoard", func(t *testing.T) {
		// A client may send any custom_id on any message: only a message
		// that is a board of this game, by its own components, is turned
		// into a pointer. Anything else is answered as before (a heap pick
		// redraws the message with the heap's amounts).
		other := fmt.Sprintf(`[{"type":1,"components":[{"type":2,"style":2,"label":"A","custom_id":%q}]}]`, HeapControl{Game: g.ID + 1, Ply: 0, Heap: 0}.CustomID())
		for name, c := range map[string]struct {
			components string
			flags      int
		}{
			"NoComponents":    {`[]`, 0},
			"AnotherGame":     {other, 0},
			"EphemeralCopy":   {m1Board, int(discordgo.MessageFlagsEphemeral)},
			"OnlyHintButtons": {fmt.Sprintf(`[{"type":1,"components":[{"type":2,"style":1,"label":"Show","custom_id":%q}]}]`, HintControl{Game: g.ID, Ply: 0, Level: 2}.CustomID()), 0},
		} {
			resp := h.clickOn(alice, HeapControl{Game: g.ID, Ply: 0, Heap: 1}, m1, c.components, c.flags)
			if resp.Type != discordgo.InteractionResponseUpdateMessage || !hasKind(resp, moveMenuKind) && !hasKind(resp, moveKind) {
				t.Errorf("%s: want the heap's amounts as before, got type %d: %s", name, resp.Type, text(resp))
			}
		}
	})

	t.Run("NewestBoardPlays", func(t *testing.T) {
		if resp := h.clickOn(alice, HeapControl{Game: g.ID, Ply: 0, Heap: 1}, m2, "", 0); resp.Type != discordgo.InteractionResponseUpdateMessage || !hasKind(resp, moveKind) && !hasKind(resp, moveMenuKind) {
			t.Fatalf("heap pick on the newest board: %s", text(resp))
		}
		if resp := h.clickOn(alice, MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1}, m2, "", 0); resp.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(resp) {
			t.Fatalf("move on the newest board: %s", text(resp))
		}
		if now := h.gameByID(g.ID); now.Ply != 2 {
			t.Fatalf("the move and nimbot's reply: ply %d", now.Ply)
		}
		// A board posted after the recorded one, whose id is not recorded
		// yet (its fetch still to come), is the newest: it plays.
		i, resp, m3 := h.postedUnrecorded(carol)
		if resp := h.clickOn(alice, HeapControl{Game: g.ID, Ply: 2, Heap: 1}, m3, "", 0); resp.Type != discordgo.InteractionResponseUpdateMessage || !hasKind(resp, moveKind) && !hasKind(resp, moveMenuKind) {
			t.Fatalf("heap pick on a board newer than the recorded one: %s", text(resp))
		}
		if err := h.svc.BoardSent(ctx, i, h.posted(resp, m3)); err != nil {
			t.Fatal(err)
		}
		g = h.gameByID(g.ID)
		wantSuperseded(t, h.clickOn(alice, HeapControl{Game: g.ID, Ply: 2, Heap: 1}, m2, "", 0), g)
		// And the first board still points at a board, the newest.
		wantSuperseded(t, h.clickOn(alice, MoveControl{Game: g.ID, Ply: 2, Heap: 0, Take: 1}, m1, m1Board, 0), g)
		// The deadline's edit goes to the board in use.
		h.now = h.now.Add(DefaultBotTurn + 1)
		edits, err := h.svc.Expire(ctx)
		if err != nil || len(edits) != 1 || edits[0].ID != m3 {
			t.Fatalf("deadline edits: %v %v", edits, err)
		}
	})
}

// TestSupersededChallenge: a challenge posted again is answered on the
// newest board only.
func TestSupersededChallenge(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "opponent", user(bob))
	g := h.game()
	m1 := h.message
	m1Board := h.shownOf(m1)
	h.command(alice, "status")
	g = h.gameByID(g.ID)
	for _, c := range []Control{AcceptControl{Game: g.ID}, DeclineControl{Game: g.ID}} {
		wantSuperseded(t, h.clickOn(bob, c, m1, m1Board, 0), g)
	}
	if st := h.gameByID(g.ID).Status; st != match.Pending {
		t.Fatalf("a click on the older challenge changed it: %s", st)
	}
	if resp := h.clickOn(bob, AcceptControl{Game: g.ID}, h.message, "", 0); resp.Type != discordgo.InteractionResponseUpdateMessage || h.gameByID(g.ID).Status != match.Active {
		t.Fatalf("accept on the newest board: %s", text(resp))
	}
}

// wantSettled checks that resp redraws the clicked board as g ended: the
// result, Rematch, and no control of a game in play.
func wantSettled(t *testing.T, resp *discordgo.InteractionResponse, g *match.Game) {
	t.Helper()
	say := result(locale.For(g.Locale), g)
	if resp.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(resp) || !strings.Contains(text(resp), say) {
		t.Fatalf("want the board redrawn with %q, got type %d: %s", say, resp.Type, text(resp))
	}
	for _, k := range []anyKind{heapKind, moveKind, moveMenuKind, resignKind, acceptKind, declineKind, typeKind} {
		if hasKind(resp, k) {
			t.Fatalf("the settled board still offers %s: %v", k.kindName(), customIDs(resp))
		}
	}
}

// TestSettledBoard: /nim resign and /nim end sent as commands answer with a
// new message and leave the board they ended as it was, turn and controls;
// the next click on that board, in a server as in a group DM, redraws it
// with the result instead of answering "this game is over" under a board
// without the Rematch button that answer names.
func TestSettledBoard(t *testing.T) {
	ctx := context.Background()
	t.Run("ResignedAgainstNimbot", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "first", "me", "heaps", "3 4 5")
		g := h.game()
		m1, m1Board := h.message, h.shownOf(h.message)
		if resp := h.command(alice, "resign"); resp.Type != discordgo.InteractionResponseChannelMessageWithSource || isEphemeral(resp) {
			t.Fatalf("/nim resign: %s", text(resp))
		}
		if g = h.gameByID(g.ID); g.Status != match.Resigned || g.MessageID != m1 {
			t.Fatalf("after /nim resign: %s, board %s (want %s)", g.Status, g.MessageID, m1)
		}
		for _, c := range []Control{HeapControl{Game: g.ID, Ply: 0, Heap: 1}, MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1}, ResignControl{Game: g.ID, Ply: 0}} {
			wantSettled(t, h.clickOn(alice, c, m1, m1Board, 0), g)
		}
		// A spectator's click draws the same board.
		wantSettled(t, h.clickOn(carol, HeapControl{Game: g.ID, Ply: 0, Heap: 0}, m1, m1Board, 0), g)
		// The Rematch the redrawn board offers plays.
		if resp := h.clickOn(alice, RematchControl{Game: g.ID}, m1, "", 0); isEphemeral(resp) || h.game().ID == g.ID {
			t.Fatalf("rematch from the redrawn board: %s", text(resp))
		}
		if edits, err := h.svc.Expire(ctx); err != nil || len(edits) != 0 {
			t.Fatalf("Expire: %v %v", edits, err)
		}
	})

	t.Run("EndedBetweenPeople", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "opponent", user(bob), "first", "me")
		g := h.game()
		h.click(bob, AcceptControl{Game: g.ID}.CustomID())
		m1, m1Board := h.message, h.shownOf(h.message)
		h.command(bob, "end")
		if g = h.gameByID(g.ID); g.Status != match.Ended || g.MessageID != m1 {
			t.Fatalf("after /nim end: %s, board %s (want %s)", g.Status, g.MessageID, m1)
		}
		wantSettled(t, h.clickOn(alice, MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1}, m1, m1Board, 0), g)

		// Anywhere but the recorded board, and on a message that is no
		// board of this game, the click is told.
		wantUserError(t, h.clickOn(alice, MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1}, "1250000000000000077", m1Board, 0), "over")
		wantUserError(t, h.clickOn(alice, MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1}, m1, "[]", 0), "over")
		wantUserError(t, h.clickOn(alice, ResignControl{Game: g.ID, Ply: 0}, m1, m1Board, int(discordgo.MessageFlagsEphemeral)), "over")
	})

	t.Run("ChallengeCalledOff", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "opponent", user(bob))
		g := h.game()
		m1, m1Board := h.message, h.shownOf(h.message)
		h.command(alice, "end")
		g = h.gameByID(g.ID)
		for _, c := range []Control{AcceptControl{Game: g.ID}, DeclineControl{Game: g.ID}} {
			wantSettled(t, h.clickOn(bob, c, m1, m1Board, 0), g)
		}
		wantUserError(t, h.clickOn(bob, AcceptControl{Game: g.ID}, m1, "[]", 0), "called off")
		if st := h.gameByID(g.ID).Status; st != match.Ended {
			t.Fatalf("the click changed the ended challenge: %s", st)
		}
	})
}

// TestStaleBoardNotRecorded: a board whose fetch finds the game moved on
// without it (/nim status posted it, then play went on on the board people
// had) is not recorded: the board in use stays the game's, instead of
// turning into a pointer to one whose every control is out of date.
func TestStaleBoardNotRecorded(t *testing.T) {
	ctx := context.Background()
	t.Run("MovedOnOlderBoard", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "first", "me", "heaps", "7 9 11")
		g := h.game()
		m1 := h.message
		i, st, m2 := h.postedUnrecorded(carol)
		if resp := h.clickOn(alice, MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1}, m1, "", 0); resp.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(resp) {
			t.Fatalf("move on the board in use: %s", text(resp))
		}
		// The fetch, FetchDelay later, returns m2 as posted: a move behind.
		if err := h.svc.BoardSent(ctx, i, h.posted(st, m2)); err != nil {
			t.Fatal(err)
		}
		if g = h.gameByID(g.ID); g.MessageID != m1 {
			t.Fatalf("the stale board was recorded: %s, want %s", g.MessageID, m1)
		}
		if resp := h.clickOn(alice, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 1}, m1, "", 0); resp.Type != discordgo.InteractionResponseUpdateMessage || !hasKind(resp, moveKind) && !hasKind(resp, moveMenuKind) {
			t.Fatalf("heap pick on the board in use: %s", text(resp))
		}
	})

	t.Run("MovedOnNewBoard", func(t *testing.T) {
		// Played on the new board itself, the fetch returns it redrawn:
		// it is the board, and the older one points at it.
		h := newHarness(t, 1)
		h.command(alice, "start", "first", "me", "heaps", "7 9 11")
		g := h.game()
		m1 := h.message
		m1Board := h.shownOf(m1)
		i, _, m2 := h.postedUnrecorded(carol)
		moved := h.clickOn(alice, MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1}, m2, "", 0)
		if moved.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(moved) {
			t.Fatalf("move on the new board: %s", text(moved))
		}
		if err := h.svc.BoardSent(ctx, i, h.posted(moved, m2)); err != nil {
			t.Fatal(err)
		}
		if g = h.gameByID(g.ID); g.MessageID != m2 {
			t.Fatalf("recorded %s, want the new board %s", g.MessageID, m2)
		}
		wantSuperseded(t, h.clickOn(alice, HeapControl{Game: g.ID, Ply: 0, Heap: 1}, m1, m1Board, 0), g)
	})

	t.Run("FirstBoardMovedBeforeItsFetch", func(t *testing.T) {
		// The fetch of a game's first board may return it as posted,
		// before a move's redraw: it is still the board, there being no
		// other.
		h := newHarness(t, 1)
		i := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Type: 2, Options: opts("first", "me", "heaps", "7 9 11")})
		started := h.handle(i)
		m1 := h.nextID()
		h.show(m1, started.Data.Components)
		g := h.game()
		if resp := h.clickOn(alice, MoveControl{Game: g.ID, Ply: 0, Heap: 0, Take: 1}, m1, "", 0); resp.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(resp) {
			t.Fatalf("move on the first board: %s", text(resp))
		}
		if err := h.svc.BoardSent(ctx, i, h.posted(started, m1)); err != nil {
			t.Fatal(err)
		}
		if g = h.gameByID(g.ID); g.MessageID != m1 {
			t.Fatalf("the first board was not recorded: %q, want %s", g.MessageID, m1)
		}
	})

	t.Run("AcceptedOnOlderBoard", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "opponent", user(bob))
		g := h.game()
		m1 := h.message
		i, st, m2 := h.postedUnrecorded(alice)
		if resp := h.clickOn(bob, AcceptControl{Game: g.ID}, m1, "", 0); resp.Type != discordgo.InteractionResponseUpdateMessage || h.gameByID(g.ID).Status != match.Active {
			t.Fatalf("accept on the board in use: %s", text(resp))
		}
		// m2 still shows the challenge.
		if err := h.svc.BoardSent(ctx, i, h.posted(st, m2)); err != nil {
			t.Fatal(err)
		}
		if g = h.gameByID(g.ID); g.MessageID != m1 {
			t.Fatalf("the challenge's copy was recorded as the game's board: %s, want %s", g.MessageID, m1)
		}
	})
}

// TestSupersededBoardForm: a form opened on a board before a newer board
// replaced it, and submitted after, is answered there as a click would be:
// nothing is played, and that board points at the newest.
func TestSupersededBoardForm(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me", "heaps", "7 9 11")
	g := h.game()
	m1 := h.message
	m1Board := h.shownOf(m1)
	h.command(carol, "status")
	g = h.gameByID(g.ID)
	for _, f := range []struct{ id, value string }{
		{TypedModal{Game: g.ID, Ply: 0}.CustomID(), `"A1"`},
		{AmountModal{Game: g.ID, Ply: 0, Heap: 0}.CustomID(), `"1"`},
	} {
		resp := h.handle(h.interaction("modal_submit.json", fields{UserID: alice, CustomID: f.id, Value: f.value, MessageID: m1, MessageComponents: m1Board}))
		wantSuperseded(t, resp, g)
	}
	if now := h.gameByID(g.ID); now.Ply != 0 || len(h.moves(g.ID)) != 0 {
		t.Fatalf("a form from the older board played: ply %d", now.Ply)
	}
	// On the newest board the form plays.
	resp := h.handle(h.interaction("modal_submit.json", fields{UserID: alice, CustomID: TypedModal{Game: g.ID, Ply: 0}.CustomID(), Value: `"A1"`, MessageID: g.MessageID}))
	if resp.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(resp) || h.gameByID(g.ID).Ply == 0 {
		t.Fatalf("the form on the newest board: %s", text(resp))
	}
}

// postedUnrecorded has who post the board again with /nim status, as bot
// would before its fetch: the message id is the board's, shown with its
// components, but not yet reported to BoardSent. It returns the
// interaction and answer to report it with, and the id.
func (h *harness) postedUnrecorded(who string) (*discordgo.Interaction, *discordgo.InteractionResponse, string) {
	h.t.Helper()
	i := h.interaction("application_command.json", fields{UserID: who, Sub: "status", Type: 2})
	resp := h.handle(i)
	id := h.nextID()
	h.show(id, resp.Data.Components)
	return i, resp, id
}
