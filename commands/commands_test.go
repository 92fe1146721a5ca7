package commands

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/match"
)

// playOut plays g to the end for the human seat(s) with winning moves
// clicked on the board, and returns the finished game.
func playOut(t *testing.T, h *harness, g *match.Game) *match.Game {
	t.Helper()
	for steps := 0; g.Status == match.Active; steps++ {
		if steps > 200 {
			t.Fatalf("game did not finish")
		}
		who := g.ToMove()
		m := winningMove(t, g)
		var resp *discordgo.InteractionResponse
		if m.Kind == engine.Take && g.Rules.Variant != engine.TwentyOne && len(g.Position.Heaps) > 1 && len(g.Position.Heaps) <= 5 && g.Rules.Variant == engine.Nim {
			// The board's way: pick the heap, then the amount.
			pick := h.click(who, HeapControl{Game: g.ID, Ply: g.Ply, Heap: m.Heap}.CustomID())
			if pick.Type != discordgo.InteractionResponseUpdateMessage {
				t.Fatalf("heap pick: want UPDATE_MESSAGE, got %d: %s", pick.Type, text(pick))
			}
			if g.Position.Heaps[m.Heap] <= 5 && !hasID(pick, MoveControl{Game: g.ID, Ply: g.Ply, Heap: m.Heap, Take: m.Take}.CustomID()) {
				t.Fatalf("heap pick shows no button for %v: %v", m, customIDs(pick))
			}
			resp = h.click(who, MoveControl{Game: g.ID, Ply: g.Ply, Heap: m.Heap, Take: m.Take}.CustomID())
		} else {
			resp = h.submit(who, TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), g.Rules.FormatMove(g.Position, m))
		}
		if resp.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("move %v: want UPDATE_MESSAGE, got %d: %s", m, resp.Type, text(resp))
		}
		next := h.gameByID(g.ID)
		if next.Ply <= g.Ply {
			t.Fatalf("move %v did not advance the game (ply %d): %s", m, next.Ply, text(resp))
		}
		g = next
	}
	return g
}

func TestGameAgainstBotEveryDifficulty(t *testing.T) {
	for _, d := range engine.Difficulties() {
		t.Run(string(d), func(t *testing.T) {
			h := newHarness(t, 7)
			resp := h.command(alice, "start", "difficulty", string(d), "first", "me")
			if isEphemeral(resp) || resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
				t.Fatalf("start: want a public board, got %s", text(resp))
			}
			g := h.game()
			if g.Players != [2]string{alice, match.BotID} || g.Status != match.Active || g.Difficulty != d {
				t.Fatalf("start: game %+v", g)
			}
			if g.MessageID != h.message {
				t.Fatalf("BoardSent did not record the board: %q, want %q", g.MessageID, h.message)
			}
			if want := h.now.Add(DefaultBotTurn); !g.Deadline.Equal(want) {
				t.Fatalf("deadline %v, want %v", g.Deadline, want)
			}
			if !strings.Contains(text(resp), "C │ ●●●●● 5") || !strings.Contains(text(resp), "<@"+alice+"> to move") {
				t.Fatalf("board: %s", text(resp))
			}
			id := g.ID
			g = playOut(t, h, g)
			if g.Status != match.Won || g.Winner != alice {
				t.Fatalf("perfect play from 3 4 5 moving first must win: %s winner %q", g.Status, g.Winner)
			}
			ms := h.moves(id)
			if len(ms)%2 != 1 {
				t.Fatalf("alice made the last move, so an odd number of moves: %d", len(ms))
			}
			for k, m := range ms {
				if want := g.Players[k%2]; m.Player != want {
					t.Fatalf("move %d by %s, want %s", k, m.Player, want)
				}
			}
			st, err := h.db.Stats(context.Background(), guildID, alice, "")
			if err != nil || st.Wins != 1 || st.VsBot[d][0] != 1 {
				t.Fatalf("stats after a win: %+v %v", st, err)
			}
		})
	}
	t.Run("perfect bot moving first wins", func(t *testing.T) {
		h := newHarness(t, 9)
		resp := h.command(alice, "start", "difficulty", "perfect", "first", "opponent")
		if !strings.Contains(text(resp), "nimbot") || !strings.Contains(text(resp), "<@"+alice+"> to move") {
			t.Fatalf("nimbot's opening move should be on the first board: %s", text(resp))
		}
		g := h.game()
		if g.Ply != 1 || g.Players[0] != match.BotID {
			t.Fatalf("nimbot should have moved first: %+v", g)
		}
		g = playOut(t, h, g)
		if g.Winner != match.BotID {
			t.Fatalf("perfect nimbot from a won position lost: %s %q", g.Status, g.Winner)
		}
	})
}

func TestEveryVariantPlaysOut(t *testing.T) {
	for _, v := range engine.Variants() {
		for _, misere := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/misere=%t", v, misere), func(t *testing.T) {
				h := newHarness(t, 3)
				resp := h.command(alice, "start", "variant", string(v), "misere", misere, "difficulty", "hard", "first", "me")
				if isEphemeral(resp) {
					t.Fatalf("start: %s", text(resp))
				}
				g := h.game()
				// Every control drawn must be one the router knows.
				for _, cid := range customIDs(resp) {
					if h.svc.mux[discordgo.InteractionMessageComponent].match(cid) == nil {
						t.Fatalf("board control %q has no route", cid)
					}
				}
				g = playOut(t, h, g)
				if g.Status != match.Won || (g.Winner != alice && g.Winner != match.BotID) {
					t.Fatalf("finished as %s, winner %q", g.Status, g.Winner)
				}
				if h.logs.Len() > 0 {
					t.Fatalf("internal errors logged:\n%s", h.logs)
				}
			})
		}
	}
}

func TestGameBetweenPeople(t *testing.T) {
	h := newHarness(t, 1)
	resp := h.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "1 2 3")
	if isEphemeral(resp) {
		t.Fatalf("challenge: %s", text(resp))
	}
	if !strings.Contains(resp.Data.Content, "<@"+bob+">") || resp.Data.AllowedMentions == nil || len(resp.Data.AllowedMentions.Users) != 1 || resp.Data.AllowedMentions.Users[0] != bob {
		t.Fatalf("the challenge must ping bob and only bob: %q %+v", resp.Data.Content, resp.Data.AllowedMentions)
	}
	g := h.game()
	if g.Status != match.Pending || !g.Deadline.Equal(h.now.Add(DefaultChallengeTTL)) {
		t.Fatalf("challenge: %+v", g)
	}
	accept := AcceptControl{Game: g.ID}.CustomID()
	if !hasID(resp, accept) || !hasID(resp, DeclineControl{Game: g.ID}.CustomID()) {
		t.Fatalf("challenge controls: %v", customIDs(resp))
	}

	t.Run("only bob may answer", func(t *testing.T) {
		wantUserError(t, h.click(alice, accept), "only <@"+bob+"> can accept")
		wantUserError(t, h.click(carol, accept), "This challenge is for <@"+bob+">")
		wantUserError(t, h.click(carol, DeclineControl{Game: g.ID}.CustomID()), "This challenge is for")
	})
	t.Run("no move before the answer", func(t *testing.T) {
		wantUserError(t, h.command(alice, "move", "heap", "A", "take", 1), "has not accepted")
	})

	resp = h.click(bob, accept)
	if resp.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(text(resp), "<@"+alice+"> to move") {
		t.Fatalf("accept: %d %s", resp.Type, text(resp))
	}
	g = h.game()
	if g.Status != match.Active || !g.Deadline.Equal(h.now.Add(DefaultPeopleTurn)) {
		t.Fatalf("accepted game: %+v", g)
	}

	t.Run("not your turn", func(t *testing.T) {
		wantUserError(t, h.click(bob, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 2, Take: 3}.CustomID()), "It is <@"+alice+">'s turn")
		wantUserError(t, h.command(bob, "move", "heap", "C", "take", 3), "It is <@"+alice+">'s turn")
		wantUserError(t, h.click(carol, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 2, Take: 3}.CustomID()), "You are not playing")
	})

	// alice: take 2 from C by slash command (1 2 3 → 1 2 1).
	resp = h.command(alice, "move", "heap", "C", "take", 2)
	if isEphemeral(resp) || !strings.Contains(text(resp), "takes 2 from C") {
		t.Fatalf("move by command: %s", text(resp))
	}
	if g = h.game(); g.Ply != 1 || g.MessageID != h.message {
		t.Fatalf("after alice's move: ply %d, board %q (want %q)", g.Ply, g.MessageID, h.message)
	}
	// bob: take 2 from B with the heap select flow… B has 2, so buttons.
	resp = h.click(bob, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 1, Take: 2}.CustomID())
	if resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("bob's move: %s", text(resp))
	}
	// alice: 1 0 1 → take A (leaves 0 0 1), bob must take the last and win
	// in normal play. Play it out.
	g = playOut(t, h, h.game())
	if g.Status != match.Won {
		t.Fatalf("status %s", g.Status)
	}
	st, err := h.db.Stats(context.Background(), guildID, g.Winner, "")
	if err != nil || st.Wins != 1 {
		t.Fatalf("winner's stats: %+v %v", st, err)
	}
	lb := h.command(carol, "leaderboard")
	if !strings.Contains(text(lb), "<@"+g.Winner+">") {
		t.Fatalf("leaderboard: %s", text(lb))
	}
	stats := h.command(alice, "stats", "user", user(g.Winner))
	if !strings.Contains(text(stats), "**1** win ·") {
		t.Fatalf("stats: %s", text(stats))
	}
}

func TestChallengeDeclineCooldownAndBots(t *testing.T) {
	h := newHarness(t, 1)
	wantUserError(t, h.command(alice, "start", "opponent", user(alice)), "cannot challenge yourself")
	wantUserError(t, h.command(alice, "start", "opponent", user(botUser)), "is a bot and cannot play")
	wantUserError(t, h.command(alice, "start", "opponent", user(bob), "difficulty", "hard"), "Difficulty sets how well nimbot plays")
	h.command(alice, "start", "opponent", user(bob))
	g := h.game()
	resp := h.click(bob, DeclineControl{Game: g.ID}.CustomID())
	if resp.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(text(resp), "declined") || len(customIDs(resp)) != 0 {
		t.Fatalf("decline: %s %v", text(resp), customIDs(resp))
	}
	if got := h.gameByID(g.ID).Status; got != match.Declined {
		t.Fatalf("status %s", got)
	}
	wantUserError(t, h.command(alice, "start", "opponent", user(carol)), "Wait ")
	h.now = h.now.Add(DefaultChallengeCooldown + time.Second)
	if resp := h.command(alice, "start", "opponent", user(carol)); isEphemeral(resp) {
		t.Fatalf("after the cooldown: %s", text(resp))
	}
	// Challenging nimbot's own user is a game against nimbot.
	h.channel = chanB
	h.command(alice, "start", "opponent", user(appID), "first", "me")
	if g := h.game(); g.Players[1] != match.BotID || g.Status != match.Active {
		t.Fatalf("challenging nimbot: %+v", g)
	}
}

func TestHints(t *testing.T) {
	t.Run("against nimbot, every level", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "first", "me")
		g := h.game()
		r1 := h.click(alice, HintControl{Game: g.ID, Ply: g.Ply}.CustomID())
		if !isEphemeral(r1) || r1.Type != discordgo.InteractionResponseChannelMessageWithSource || !hasID(r1, HintControl{Game: g.ID, Ply: g.Ply, Level: 2}.CustomID()) {
			t.Fatalf("level 1: %d %s", r1.Type, text(r1))
		}
		if strings.Contains(text(r1), "Try **") {
			t.Fatalf("level 1 must not give the move away: %s", text(r1))
		}
		// "Show the move", clicked on the hint: the hint message shows it.
		r2 := h.handle(h.interaction("message_component.json", fields{UserID: alice, CustomID: HintControl{Game: g.ID, Ply: g.Ply, Level: 2}.CustomID(), ComponentType: 2, MessageID: "1300000000000000777", MessageFlags: int(discordgo.MessageFlagsEphemeral)}))
		if r2.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(text(r2), "Try **") {
			t.Fatalf("level 2: %s", text(r2))
		}
		// The same custom_id forged onto the public board must not put the
		// move in the board's place: it comes as a message of its own.
		forged := h.click(alice, HintControl{Game: g.ID, Ply: g.Ply, Level: 2}.CustomID())
		if !isEphemeral(forged) || forged.Type != discordgo.InteractionResponseChannelMessageWithSource || !strings.Contains(text(forged), "Try **") {
			t.Fatalf("level 2 on the board: %d %s", forged.Type, text(forged))
		}
		r3 := h.command(alice, "hint", "level", 3)
		if !isEphemeral(r3) || !strings.Contains(text(r3), "```") || !strings.Contains(text(r3), "Try **") {
			t.Fatalf("level 3 should explain with a table: %s", text(r3))
		}
		// The move after a hint is marked in the log.
		m := winningMove(t, g)
		value, _ := json.Marshal(g.Rules.FormatMove(g.Position, m))
		submit := fields{UserID: alice, CustomID: TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), Value: string(value), ID: "1390000000000000077"}
		resp := h.handle(h.interaction("modal_submit.json", submit))
		if !strings.Contains(text(resp), "💡") {
			t.Fatalf("hinted move not marked: %s", text(resp))
		}
		// A redelivery gets the very same board, mark included.
		again := h.handle(h.interaction("modal_submit.json", submit))
		a, _ := json.Marshal(resp)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("redelivered hinted move answered differently:\n%s\n%s", a, b)
		}
		ms := h.moves(g.ID)
		if !ms[0].Hinted || ms[1].Hinted {
			t.Fatalf("hinted flags: %v %v", ms[0].Hinted, ms[1].Hinted)
		}
		wantUserError(t, h.command(alice, "hint", "level", 7), "The option level must be one of 1, 2, 3")
		wantUserError(t, h.click(alice, HintControl{Game: g.ID, Ply: 0}.CustomID()), "earlier turn")
	})
	t.Run("between people, per the game's setting", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "opponent", user(bob), "first", "me", "hints", false)
		g := h.game()
		resp := h.click(bob, AcceptControl{Game: g.ID}.CustomID())
		if hasKind(resp, hintKind) {
			t.Fatalf("hints are off, yet the board offers one: %v", customIDs(resp))
		}
		wantUserError(t, h.command(alice, "hint"), "Hints are off")

		h.channel = chanB
		h.now = h.now.Add(time.Hour)
		h.command(alice, "start", "opponent", user(bob), "first", "me")
		g = h.game()
		h.click(bob, AcceptControl{Game: g.ID}.CustomID())
		wantUserError(t, h.command(bob, "hint"), "Hints are for the player whose turn it is")
		wantUserError(t, h.command(carol, "hint"), "You are not playing")
		if r := h.command(alice, "hint", "level", 2); !isEphemeral(r) || !strings.Contains(text(r), "Try **") {
			t.Fatalf("alice's hint: %s", text(r))
		}
		resp = h.command(alice, "move", "heap", "A", "take", 1)
		if !strings.Contains(text(resp), "after a hint") {
			t.Fatalf("the hint used must show in the move log: %s", text(resp))
		}
	})
}

// TestHintHoldOutWording: in a lost position the level-2 hint says its
// move holds out longest only where the engine measured every move; where
// the search gave up (Nim 6 27 29: the hinted move lasts 60 plies, the best
// 62) it says what the fallback judged, the fewest winning replies; and
// where only a sample of moves could be judged, it claims nothing of the
// move.
func TestHintHoldOutWording(t *testing.T) {
	for _, c := range []struct {
		heaps, says string
		not         []string
	}{
		{"3 5 6", "It holds out longest", []string{"fewest"}},
		{"6 27 29", "It leaves your opponent the fewest winning replies", []string{"longest"}},
		{"5000 5000", "With perfect play from here your opponent wins.", []string{"longest", "fewest"}},
	} {
		t.Run(c.heaps, func(t *testing.T) {
			h := newHarness(t, 1)
			h.command(alice, "start", "first", "me", "heaps", c.heaps)
			got := text(h.command(alice, "hint", "level", 2))
			if !strings.Contains(got, "Try **") || !strings.Contains(got, c.says) {
				t.Fatalf("hint lacks %q:\n%s", c.says, got)
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("hint says %q:\n%s", n, got)
				}
			}
		})
	}
}

func TestStaleAndDoubleClicks(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me")
	g := h.game()
	click := MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 1}.CustomID()

	first := h.clickID(alice, click, "1390000000000000001")
	if first.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("first click: %s", text(first))
	}
	after := h.game()

	t.Run("redelivered interaction gets the same answer and no second move", func(t *testing.T) {
		again := h.clickID(alice, click, "1390000000000000001")
		a, _ := json.Marshal(first)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("redelivery answered differently:\n%s\n%s", a, b)
		}
		if g := h.game(); g.Ply != after.Ply {
			t.Fatalf("redelivery moved again: ply %d → %d", after.Ply, g.Ply)
		}
	})
	t.Run("double click is stale", func(t *testing.T) {
		wantUserError(t, h.click(alice, click), "out of date")
		if g := h.game(); g.Ply != after.Ply {
			t.Fatalf("stale click moved: ply %d → %d", after.Ply, g.Ply)
		}
	})
	t.Run("stale select, modal, heap pick and resign", func(t *testing.T) {
		wantUserError(t, h.choose(alice, MoveMenuControl{Game: g.ID, Ply: 0, Slot: "a"}.CustomID(), "A1"), "out of date")
		wantUserError(t, h.submit(alice, TypedModal{Game: g.ID, Ply: 0}.CustomID(), "A1"), "out of date")
		wantUserError(t, h.click(alice, HeapControl{Game: g.ID, Ply: 0, Heap: 1}.CustomID()), "out of date")
		wantUserError(t, h.click(alice, ResignControl{Game: g.ID, Ply: 0}.CustomID()), "out of date")
	})
}

// TestStartWithNoLegalMove: a start position that still holds stones but
// allows no move is refused with the reason, not with "start with at least
// one stone" (which it has), and no game is made.
func TestStartWithNoLegalMove(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []any
		want string
	}{
		{"Fibonacci on 1", []any{"variant", "fibonacci", "heaps", "1"},
			"That position has no legal move: the first move may not take the whole heap, and the heap holds only 1."},
		{"subtraction {3} on 1 2", []any{"variant", "subtraction", "set", "3", "heaps", "1 2"},
			"That position has no legal move: every heap holds less than 3, the least amount the set {3} lets you take."},
		{"every heap empty", []any{"heaps", "0 0"}, "Start with at least one stone to take."},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 1)
			resp := h.command(alice, "start", append(c.opts, "first", "me")...)
			wantUserError(t, resp, c.want)
			if c.name != "every heap empty" && strings.Contains(resp.Data.Content, "at least one stone") {
				t.Errorf("a position with stones is told to start with one: %q", resp.Data.Content)
			}
			if _, err := h.db.ChannelGame(context.Background(), h.channel); !errors.Is(err, match.ErrNotFound) {
				t.Errorf("the refused start made a game: %v", err)
			}
		})
	}
}

// Heaps written with a heap's digits grouped were read as separate heaps:
// "1,000" started a game on 1 and 0, lost in one move and counted in the
// player's stats. Whatever could be one grouped number is refused, changes
// nothing, and says how to write each reading; a list that says which it
// means starts.
func TestGroupedHeapsAreRefused(t *testing.T) {
	h := newHarness(t, 1)
	for _, c := range []struct{ heaps, want string }{
		{"1,000", `nimbot will not guess what the heaps "1,000" mean: "1,000" reads as the number 1000 with its digits grouped: write it as 1000, with no separator inside a heap.`},
		{"1 000", `"1 000" reads as the number 1000`},
		{"2,500", `nimbot will not guess what the heaps "2,500" mean: "2,500" could be the number 2500 with its digits grouped, or separate heaps: write 2500 for one heap, or 2, 500 for separate heaps.`},
		{"2 500", `write 2500 for one heap, or 2, 500 for separate heaps`},
		{"3 05", `heap B: write "05" without leading zeros, as 5`},
	} {
		t.Run(c.heaps, func(t *testing.T) {
			wantUserError(t, h.command(alice, "start", "heaps", c.heaps, "first", "opponent"), c.want)
			if g, err := h.db.ChannelGame(context.Background(), h.channel); !errors.Is(err, match.ErrNotFound) {
				t.Fatalf("the refused start made a game: %+v, %v", g, err)
			}
			wantUserError(t, h.command(alice, "analyze", "position", "nim "+c.heaps), "nimbot cannot read the position")
		})
	}
	if resp := h.command(alice, "stats"); !strings.Contains(text(resp), "No finished games yet") {
		t.Errorf("refused starts left a record: %s", text(resp))
	}
	if resp := h.command(alice, "start", "heaps", "3, 500", "first", "me"); isEphemeral(resp) {
		t.Fatalf("heaps 3, 500 refused: %s", text(resp))
	}
	if got := h.game().Start.Heaps; !reflect.DeepEqual(got, []int64{3, 500}) {
		t.Errorf("heaps 3, 500 started on %v", got)
	}
	// Grouped into one number, these would pass the largest heap a board
	// takes (maxBoardHeap): they can only be heaps.
	for _, c := range []struct {
		heaps string
		want  []int64
	}{
		{"100 200 300", []int64{100, 200, 300}},
		{"12 345", []int64{12, 345}},
		{"10,500", []int64{10, 500}},
	} {
		h.command(alice, "end")
		if resp := h.command(alice, "start", "heaps", c.heaps, "first", "me"); isEphemeral(resp) {
			t.Fatalf("heaps %q refused: %s", c.heaps, text(resp))
		}
		if got := h.game().Start.Heaps; !reflect.DeepEqual(got, c.want) {
			t.Errorf("heaps %q started on %v", c.heaps, got)
		}
	}
}

func TestBadInput(t *testing.T) {
	h := newHarness(t, 1)
	h.channel = chanB
	h.command(alice, "start", "heaps", "3 4 5", "first", "me")
	g := h.game()
	h.channel = chanA
	cases := []struct {
		name string
		do   func() *discordgo.InteractionResponse
		want string
	}{
		{"malformed heaps", func() *discordgo.InteractionResponse { return h.command(alice, "start", "heaps", "3 x 5") }, "cannot read the heaps"},
		{"fractional heap", func() *discordgo.InteractionResponse { return h.command(alice, "start", "heaps", "3 4.5") }, "cannot read the heaps"},
		// A minus sign after the first heap once read as a separator: 5 3.
		{"negative heap after another", func() *discordgo.InteractionResponse { return h.command(alice, "start", "heaps", "5 -3") }, `cannot read the heaps "5 \-3"`},
		{"negative heap after a comma", func() *discordgo.InteractionResponse { return h.command(alice, "start", "heaps", "3,-4") }, `cannot read the heaps "3,\-4"`},
		{"negative amount in a set", func() *discordgo.InteractionResponse {
			return h.command(alice, "start", "variant", "subtraction", "set", "1,-3")
		}, "cannot read the set"},
		{"too many heaps", func() *discordgo.InteractionResponse {
			return h.command(alice, "start", "heaps", "1 2 3 4 5 6 7 8 9 10 11 12 13")
		}, "a board holds at most 12"},
		{"heap too large for the board", func() *discordgo.InteractionResponse { return h.command(alice, "start", "heaps", "3 10000") }, "at most 9,999"},
		{"a game that could grow past the engine's heaps", func() *discordgo.InteractionResponse {
			return h.command(alice, "start", "variant", "lasker", "heaps", "9999 9999")
		}, "could grow this position to 19,998 heaps"},
		{"too large to solve", func() *discordgo.InteractionResponse {
			return h.command(alice, "start", "variant", "kayles", "misere", true, "heaps", "30 30")
		}, "too large"},
		{"empty position", func() *discordgo.InteractionResponse { return h.command(alice, "start", "heaps", "0 0") }, "no move left"},
		{"random count", func() *discordgo.InteractionResponse { return h.command(alice, "start", "heaps", "random lots") }, "not a count of heaps"},
		{"k on nim", func() *discordgo.InteractionResponse { return h.command(alice, "start", "k", 3) }, "Those rules do not work"},
		{"bad set", func() *discordgo.InteractionResponse {
			return h.command(alice, "start", "variant", "subtraction", "set", "a,b")
		}, "cannot read the set"},
		{"no game here: move", func() *discordgo.InteractionResponse { return h.command(alice, "move", "heap", "A", "take", 1) }, "There is no game in this channel"},
		{"no game here: hint", func() *discordgo.InteractionResponse { return h.command(alice, "hint") }, "There is no game in this channel"},
		{"no game here: resign", func() *discordgo.InteractionResponse { return h.command(alice, "resign") }, "There is no game in this channel"},
		{"no game here: status", func() *discordgo.InteractionResponse { return h.command(alice, "status") }, "There is no game in this channel"},
		{"no game here: end", func() *discordgo.InteractionResponse { return h.command(alice, "end") }, "There is no game in this channel"},
		{"unknown custom_id", func() *discordgo.InteractionResponse { return h.click(alice, "bogus/1/2") }, "does not know that control"},
		// A client's cached list of commands may still offer a subcommand
		// or a command nimbot no longer has.
		{"retired subcommand", func() *discordgo.InteractionResponse { return h.command(alice, "challenge") }, "does not know that command (any more)"},
		{"retired command", func() *discordgo.InteractionResponse {
			i := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Type: 2})
			d := i.ApplicationCommandData()
			d.Name = "nimbot"
			i.Data = d
			return h.handle(i)
		}, "does not know that command (any more)"},
		{"forged custom_id", func() *discordgo.InteractionResponse { return h.click(alice, "move/x/0/0/1") }, "not one nimbot understands"},
		{"unknown game", func() *discordgo.InteractionResponse { return h.click(alice, "move/999/0/0/1") }, "no longer exists"},
		{"bad analyze", func() *discordgo.InteractionResponse { return h.command(alice, "analyze", "position", "nim 3 x") }, "cannot read the position"},
		{"unknown rules variant", func() *discordgo.InteractionResponse { return h.command(alice, "rules", "variant", "chess") }, "The option variant must be one of nim, "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantUserError(t, c.do(), c.want) })
	}

	h.channel = chanB
	moveCases := []struct {
		name string
		do   func() *discordgo.InteractionResponse
		want string
	}{
		{"illegal: too many", func() *discordgo.InteractionResponse { return h.command(alice, "move", "heap", "A", "take", 9) }, "That move is not allowed: "},
		{"illegal: no such heap", func() *discordgo.InteractionResponse { return h.command(alice, "move", "heap", "Q", "take", 1) }, "no heap Q"},
		{"illegal button", func() *discordgo.InteractionResponse {
			return h.click(alice, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 7}.CustomID())
		}, "That move is not allowed: "},
		{"unreadable notation", func() *discordgo.InteractionResponse { return h.command(alice, "move", "notation", "take some") }, "cannot read the move"},
		{"modal amount not a number", func() *discordgo.InteractionResponse {
			return h.submit(alice, AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID(), "lots")
		}, "not a number"},
		{"missing amount", func() *discordgo.InteractionResponse { return h.command(alice, "move", "heap", "A") }, "Say how many"},
		{"missing heap", func() *discordgo.InteractionResponse { return h.command(alice, "move", "take", 1) }, "Say which heap"},
		{"second game in the channel", func() *discordgo.InteractionResponse { return h.command(bob, "start") }, "https://discord.com/channels/" + guildID + "/" + chanB + "/" + g.MessageID},
		{"review mid-game", func() *discordgo.InteractionResponse { return h.click(alice, ReviewControl{Game: g.ID}.CustomID()) }, "when the game is over"},
		{"rematch mid-game", func() *discordgo.InteractionResponse { return h.click(alice, RematchControl{Game: g.ID}.CustomID()) }, "still going"},
		{"accept an active game", func() *discordgo.InteractionResponse { return h.click(bob, AcceptControl{Game: g.ID}.CustomID()) }, "already accepted"},
		{"end by a bystander", func() *discordgo.InteractionResponse { return h.command(carol, "end") }, "Only the players"},
	}
	for _, c := range moveCases {
		t.Run(c.name, func(t *testing.T) { wantUserError(t, c.do(), c.want) })
	}
	if got := h.game(); got.Ply != g.Ply || got.Status != match.Active {
		t.Fatalf("bad input changed the game: %+v", got)
	}
	if h.logs.Len() > 0 {
		t.Fatalf("user errors must not be logged as internal errors:\n%s", h.logs)
	}
}

func TestDeadlines(t *testing.T) {
	h := newHarness(t, 1)
	ctx := context.Background()
	// A challenge in A, a game between people in B, a game against nimbot in DM.
	h.command(alice, "start", "opponent", user(bob))
	challenge := h.game()
	h.channel = chanB
	h.now = h.now.Add(2 * time.Minute)
	h.command(carol, "start", "opponent", user(bob), "first", "me")
	people := h.game()
	h.click(bob, AcceptControl{Game: people.ID}.CustomID())
	h.channel = chanDM
	wantUserError(t, h.commandWith("application_command_dm.json", fields{UserID: alice, Sub: "start", Options: opts("opponent", user(bob))}), "Challenges are played where both of you can see the board")
	h.commandWith("application_command_dm.json", fields{UserID: alice, Sub: "start", Options: opts("first", "me")})
	vsBot := h.game()
	if vsBot.GuildID != "" {
		t.Fatalf("DM game has guild %q", vsBot.GuildID)
	}

	if edits, err := h.svc.Expire(ctx); err != nil || len(edits) != 0 {
		t.Fatalf("nothing is due yet: %v %v", edits, err)
	}
	h.now = h.now.Add(DefaultChallengeTTL)
	edits, err := h.svc.Expire(ctx)
	if err != nil || len(edits) != 1 || edits[0].ID != challenge.MessageID || edits[0].Channel != chanA {
		t.Fatalf("challenge expiry: %+v %v", edits, err)
	}
	if s := h.gameByID(challenge.ID).Status; s != match.Expired {
		t.Fatalf("challenge status %s", s)
	}
	e := edits[0]
	if e.Embeds == nil || !strings.Contains((*e.Embeds)[0].Description, "expired") || e.Components == nil || len(*e.Components) != 0 {
		t.Fatalf("expired challenge edit: %+v", e)
	}

	h.now = h.now.Add(DefaultBotTurn)
	edits, err = h.svc.Expire(ctx)
	if err != nil || len(edits) != 1 || edits[0].ID != vsBot.MessageID {
		t.Fatalf("abandoning the bot game: %+v %v", edits, err)
	}
	if g := h.gameByID(vsBot.ID); g.Status != match.Abandoned || g.Winner != "" {
		t.Fatalf("bot game: %s %q", g.Status, g.Winner)
	}

	h.now = h.now.Add(DefaultPeopleTurn)
	edits, err = h.svc.Expire(ctx)
	if err != nil || len(edits) != 1 {
		t.Fatalf("timeout: %+v %v", edits, err)
	}
	g := h.gameByID(people.ID)
	if g.Status != match.Timeout || g.Winner != bob {
		t.Fatalf("carol was to move and ran out of time: %s %q", g.Status, g.Winner)
	}
	desc := (*edits[0].Embeds)[0].Description
	if !strings.Contains(desc, "ran out of time") {
		t.Fatalf("timeout edit: %s", desc)
	}
	for _, row := range *edits[0].Components {
		for _, c := range rowOf(row).Components {
			if b, ok := c.(discordgo.Button); ok && !b.Disabled && !finishedControl(b.CustomID) {
				t.Fatalf("finished board has a live control %q", b.CustomID)
			}
		}
	}
	if edits, err := h.svc.Expire(ctx); err != nil || len(edits) != 0 {
		t.Fatalf("second Expire: %v %v", edits, err)
	}
	// A click on the expired board is answered, not applied.
	h.channel = chanB
	wantUserError(t, h.click(carol, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 1}.CustomID()), "This game is over")
}

// TestExpireCatchesUp: one Expire call ends every due game, batch after
// batch, not one batch (expireBatch) per call: with 30 s between calls, a
// backlog (a downtime, a busy hour of deadlines) would otherwise grow.
func TestExpireCatchesUp(t *testing.T) {
	h := newHarness(t, 1)
	const n = 2*expireBatch + 50
	for i := range n {
		h.channel = fmt.Sprintf("12200000001%08d", i)
		h.command(alice, "start", "first", "me")
	}
	h.now = h.now.Add(DefaultBotTurn)
	edits, err := h.svc.Expire(context.Background())
	if err != nil || len(edits) != n {
		t.Fatalf("Expire: %d edits, %v; want %d", len(edits), err, n)
	}
	for i := range n {
		h.channel = fmt.Sprintf("12200000001%08d", i)
		if _, err := h.db.ChannelGame(context.Background(), h.channel); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("channel %d still has a game: %v", i, err)
		}
	}
}

// TestActionsAfterTheDeadline: the deadline decides, not the sweep. An
// action that comes after a deadline Expire has not reached yet is answered
// with the result the deadline gave (the board, updated), and the action is
// not taken: a player out of time cannot move, resign or end their way out
// of the loss, nor a challenge be accepted once it expired.
func TestActionsAfterTheDeadline(t *testing.T) {
	h := newHarness(t, 1)
	ctx := context.Background()
	// startPeople starts a game between carol (to move) and bob in a channel.
	startPeople := func(channel string) *match.Game {
		h.channel = channel
		h.now = h.now.Add(DefaultChallengeCooldown + time.Second)
		h.command(carol, "start", "opponent", user(bob), "first", "me", "heaps", "3 4 5")
		g := h.game()
		h.click(bob, AcceptControl{Game: g.ID}.CustomID())
		return h.gameByID(g.ID)
	}
	const chanC = "1220000000000000003"
	move, resign, end := startPeople(chanA), startPeople(chanB), startPeople(chanC)
	// The last game's deadline is now; the others' passed a minute or two ago.
	h.now = h.now.Add(DefaultPeopleTurn)

	for _, tc := range []struct {
		name    string
		g       *match.Game
		act     func() *discordgo.InteractionResponse
		updates bool // the answer edits the board in place
	}{
		{"Move", move, func() *discordgo.InteractionResponse {
			h.channel = chanA
			return h.click(carol, MoveControl{Game: move.ID, Ply: move.Ply, Heap: 0, Take: 2}.CustomID())
		}, true},
		// bob, who won on time, resigning would hand carol the game.
		{"ResignByTheWinner", resign, func() *discordgo.InteractionResponse {
			h.channel = chanB
			return h.click(bob, ResignControl{Game: resign.ID, Ply: resign.Ply}.CustomID())
		}, true},
		{"EndByTheLoser", end, func() *discordgo.InteractionResponse {
			h.channel = chanC
			return h.command(carol, "end")
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := tc.act()
			want := discordgo.InteractionResponseChannelMessageWithSource
			if tc.updates {
				want = discordgo.InteractionResponseUpdateMessage
			}
			if resp.Type != want || !strings.Contains(text(resp), "ran out of time") {
				t.Fatalf("answer %d: %s", resp.Type, text(resp))
			}
			g := h.gameByID(tc.g.ID)
			if g.Status != match.Timeout || g.Winner != bob || g.Ply != tc.g.Ply || len(h.moves(g.ID)) != 0 {
				t.Fatalf("carol ran out of time before acting: %s %q ply %d, %d moves", g.Status, g.Winner, g.Ply, len(h.moves(g.ID)))
			}
		})
	}

	t.Run("AcceptExpiredChallenge", func(t *testing.T) {
		h.channel = chanA
		h.command(alice, "start", "opponent", user(carol))
		c := h.game()
		h.now = h.now.Add(DefaultChallengeTTL)
		resp := h.click(carol, AcceptControl{Game: c.ID}.CustomID())
		if resp.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(text(resp), "expired") {
			t.Fatalf("answer %d: %s", resp.Type, text(resp))
		}
		if g := h.gameByID(c.ID); g.Status != match.Expired {
			t.Fatalf("the challenge expired before carol accepted: %s", g.Status)
		}
	})

	// The sweep finds nothing left to do.
	if edits, err := h.svc.Expire(ctx); err != nil || len(edits) != 0 {
		t.Fatalf("Expire after the actions: %+v %v", edits, err)
	}
}

// finishedControl reports whether a finished board may offer the control
// customID: Rematch and Review.
func finishedControl(customID string) bool {
	c, err := ParseControl(customID)
	if err != nil {
		return false
	}
	switch c.(type) {
	case RematchControl, ReviewControl:
		return true
	}
	return false
}

func TestRestartMidGame(t *testing.T) {
	h := newHarness(t, 5)
	h.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "2 3")
	g := h.game()
	h.click(bob, AcceptControl{Game: g.ID}.CustomID())
	h.click(alice, MoveControl{Game: g.ID, Ply: 0, Heap: 1, Take: 1}.CustomID()) // 2 3 → 2 2
	h.restart()
	g = h.game()
	if g.Ply != 1 || g.Position.Heaps[1] != 2 {
		t.Fatalf("after restart: %+v", g)
	}
	resp := h.click(bob, MoveControl{Game: g.ID, Ply: 1, Heap: 0, Take: 2}.CustomID())
	if resp.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(text(resp), "<@"+bob+"> takes 2 from A") {
		t.Fatalf("move after restart: %s", text(resp))
	}
	h.restart()
	g = playOut(t, h, h.game())
	if g.Status != match.Won || g.Winner != alice {
		t.Fatalf("2 3 → 2 2 is a win for alice: %s %q", g.Status, g.Winner)
	}
}

func TestFinishedGameRematchReviewResignEnd(t *testing.T) {
	h := newHarness(t, 2)
	h.command(alice, "start", "first", "me", "difficulty", "easy")
	g := h.game()
	resp := h.click(alice, ResignControl{Game: g.ID, Ply: g.Ply}.CustomID())
	if resp.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(text(resp), "resigned") {
		t.Fatalf("resign: %s", text(resp))
	}
	if hasKind(resp, moveKind) || hasKind(resp, heapKind) || !hasID(resp, RematchControl{Game: g.ID}.CustomID()) {
		t.Fatalf("finished board controls: %v", customIDs(resp))
	}
	if g := h.gameByID(g.ID); g.Status != match.Resigned || g.Winner != match.BotID {
		t.Fatalf("resigned: %s %q", g.Status, g.Winner)
	}
	wantUserError(t, h.click(alice, ReviewControl{Game: g.ID}.CustomID()), "No moves were played")
	wantUserError(t, h.click(carol, RematchControl{Game: g.ID}.CustomID()), "Only the players")

	resp = h.click(alice, RematchControl{Game: g.ID}.CustomID())
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || isEphemeral(resp) {
		t.Fatalf("rematch: %s", text(resp))
	}
	re := h.game()
	if re.Players != [2]string{match.BotID, alice} || re.Ply != 1 {
		t.Fatalf("rematch: nimbot should start and have moved: %+v", re)
	}
	re = playOut(t, h, re)
	rev := h.click(bob, ReviewControl{Game: re.ID}.CustomID())
	if !isEphemeral(rev) || !strings.Contains(text(rev), "Review") || !strings.Contains(text(rev), "<@"+alice+">") {
		t.Fatalf("review: %s", text(rev))
	}

	t.Run("end: players and moderators only", func(t *testing.T) {
		h.command(alice, "start", "opponent", user(bob))
		g := h.game()
		wantUserError(t, h.command(carol, "end"), "Only the players")
		resp := h.commandWith("application_command.json", fields{UserID: modID, Sub: "end", Permissions: fmt.Sprint(discordgo.PermissionManageMessages | discordgo.PermissionViewChannel)})
		if isEphemeral(resp) || !strings.Contains(text(resp), "ended") {
			t.Fatalf("moderator end: %s", text(resp))
		}
		if g := h.gameByID(g.ID); g.Status != match.Ended {
			t.Fatalf("status %s", g.Status)
		}
	})
	t.Run("slash resign", func(t *testing.T) {
		h.now = h.now.Add(time.Hour)
		h.command(alice, "start", "opponent", user(bob), "first", "me")
		g := h.game()
		h.click(bob, AcceptControl{Game: g.ID}.CustomID())
		wantUserError(t, h.command(carol, "resign"), "You are not playing")
		resp := h.command(bob, "resign")
		if isEphemeral(resp) || !strings.Contains(text(resp), "<@"+bob+"> resigned") {
			t.Fatalf("resign: %s", text(resp))
		}
		if g := h.gameByID(g.ID); g.Winner != alice {
			t.Fatalf("winner %q", g.Winner)
		}
	})
}

func TestLargeHeapsSelectsAndModals(t *testing.T) {
	h := newHarness(t, 4)
	h.command(alice, "start", "heaps", "30 7", "first", "me", "difficulty", "easy")
	g := h.game()
	resp := h.click(alice, HeapControl{Game: g.ID, Ply: 0, Heap: 0}.CustomID())
	if !hasID(resp, AskControl{Game: g.ID, Ply: 0, Heap: 0}.CustomID()) {
		t.Fatalf("a heap over 25 needs the amount modal: %v", customIDs(resp))
	}
	m := h.click(alice, AskControl{Game: g.ID, Ply: 0, Heap: 0}.CustomID())
	if m.Type != discordgo.InteractionResponseModal || m.Data.CustomID != (AmountModal{Game: g.ID, Ply: 0, Heap: 0}.CustomID()) {
		t.Fatalf("modal: %+v", m)
	}
	wantUserError(t, h.click(bob, AskControl{Game: g.ID, Ply: 0, Heap: 0}.CustomID()), "You are not playing")
	resp = h.submit(alice, AmountModal{Game: g.ID, Ply: 0, Heap: 0}.CustomID(), "23") // 30 7 → 7 7
	if resp.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(text(resp), "takes 23 from A") {
		t.Fatalf("amount: %s", text(resp))
	}
	g = h.game()
	pick := h.click(alice, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 1}.CustomID())
	sel := MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: "a"}.CustomID()
	if g.Position.Heaps[1] > 5 && !hasID(pick, sel) {
		t.Fatalf("6..25 amounts come as a select: %v", customIDs(pick))
	}
	if g.Position.Heaps[1] > 0 {
		resp = h.choose(alice, sel, "B1")
		if g.Position.Heaps[1] > 5 && resp.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("select move: %s", text(resp))
		}
	}
	// Many heaps: the heap picker becomes a select menu.
	h.channel = chanB
	resp = h.command(alice, "start", "heaps", "1 2 3 4 5 6 7", "first", "me")
	g = h.game()
	if !hasID(resp, HeapMenuControl{Game: g.ID, Ply: 0}.CustomID()) {
		t.Fatalf("7 heaps need a heap select: %v", customIDs(resp))
	}
	resp = h.choose(alice, HeapMenuControl{Game: g.ID, Ply: 0}.CustomID(), "6")
	if !hasID(resp, MoveMenuControl{Game: g.ID, Ply: 0, Slot: "a"}.CustomID()) {
		t.Fatalf("heap G picked: %v", customIDs(resp))
	}
}

func TestVariantControls(t *testing.T) {
	cases := []struct {
		variant, heaps string
		want           anyKind // a kind of control the first board must offer
		pick           int     // heap to pick first (-1: none)
	}{
		{"wythoff", "4 7", moveMenuKind, -1},
		{"moore", "3 4 5", typeKind, -1},
		{"lasker", "3 4 5", moveMenuKind, 2},
		{"kayles", "3 4 5", moveMenuKind, 1},
		{"21", "", moveKind, -1},
		{"fibonacci", "20", moveMenuKind, -1},
		{"fibonacci", "100", askKind, -1},     // the first move may take up to 99
		{"subtraction", "30 40", moveKind, 1}, // S(1..3): three buttons, however big the heap
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			h := newHarness(t, 1)
			o := []any{"variant", c.variant, "first", "me"}
			if c.heaps != "" {
				o = append(o, "heaps", c.heaps)
			}
			resp := h.command(alice, "start", o...)
			g := h.game()
			if c.pick >= 0 {
				resp = h.click(alice, HeapControl{Game: g.ID, Ply: 0, Heap: c.pick}.CustomID())
			}
			if !hasKind(resp, c.want) {
				t.Fatalf("board lacks %s controls: %v\n%s", c.want.kindName(), customIDs(resp), text(resp))
			}
		})
	}
	t.Run("moore multi-heap move by /nim move notation", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "variant", "moore", "heaps", "3 4 5", "first", "me", "difficulty", "easy")
		resp := h.command(alice, "move", "notation", "A1 B1")
		if isEphemeral(resp) || !strings.Contains(text(resp), "from A and B") {
			t.Fatalf("moore move: %s", text(resp))
		}
	})
	t.Run("lasker split and kayles pins by /nim move", func(t *testing.T) {
		h := newHarness(t, 1)
		h.command(alice, "start", "variant", "lasker", "heaps", "3 4 5", "first", "me")
		if resp := h.command(alice, "move", "heap", "C", "split", "2+3"); isEphemeral(resp) || !strings.Contains(text(resp), "splits C") {
			t.Fatalf("lasker split: %s", text(resp))
		}
		h.channel = chanB
		h.command(alice, "start", "variant", "kayles", "heaps", "3 4 5", "first", "me")
		wantUserError(t, h.command(alice, "move", "heap", "B", "take", 2), "say which pin")
		if resp := h.command(alice, "move", "heap", "B", "pin", 2, "take", 2); isEphemeral(resp) || !strings.Contains(text(resp), "B") {
			t.Fatalf("kayles pins: %s", text(resp))
		}
		if ms := h.moves(h.game().ID); ms[0].Move.Kind != engine.Knock || ms[0].Move.Take != 2 {
			t.Fatalf("kayles move stored as %+v", ms[0].Move)
		}
	})
}

func TestInformationCommands(t *testing.T) {
	h := newHarness(t, 1)
	r := h.command(alice, "analyze", "position", "3 4 5")
	if !isEphemeral(r) || !strings.Contains(text(r), "player to move wins") || !strings.Contains(text(r), "```") || !strings.Contains(text(r), "A2") {
		t.Fatalf("analyze: %s", text(r))
	}
	r = h.command(alice, "analyze", "position", "wythoff 3 5", "public", true)
	if isEphemeral(r) || !strings.Contains(text(r), "player to move loses") {
		t.Fatalf("public analyze: %s", text(r))
	}
	for _, v := range engine.Variants() {
		r := h.command(alice, "rules", "variant", string(v))
		if !isEphemeral(r) || len(r.Data.Embeds) != 1 || len(r.Data.Embeds[0].Description) < 50 {
			t.Fatalf("rules %s: %s", v, text(r))
		}
	}
	r = h.command(alice, "stats")
	if !strings.Contains(text(r), "No finished games") {
		t.Fatalf("stats: %s", text(r))
	}
	if r := h.handle(h.interaction("ping.json", fields{})); r.Type != discordgo.InteractionResponsePong {
		t.Fatalf("ping: %+v", r)
	}
}

func TestAutocomplete(t *testing.T) {
	h := newHarness(t, 1)
	r := h.autocomplete(alice, "start", "variant", "wythoff", "heaps", "")
	if r.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(r.Data.Choices) == 0 || r.Data.Choices[0].Value != "4 7" {
		t.Fatalf("heaps suggestions for wythoff: %+v", r.Data)
	}
	r = h.autocomplete(alice, "start", "heaps", "2 5")
	if len(r.Data.Choices) == 0 || r.Data.Choices[0].Value != "2 5" {
		t.Fatalf("typed heaps first: %+v", r.Data.Choices)
	}
	r = h.autocomplete(alice, "analyze", "position", "kay")
	if len(r.Data.Choices) != 1 || r.Data.Choices[0].Value != "kayles 5 8" {
		t.Fatalf("analyze suggestions: %+v", r.Data.Choices)
	}
	h.command(alice, "start", "first", "me", "heaps", "3 4 5")
	r = h.autocomplete(alice, "move", "heap", "")
	if len(r.Data.Choices) != 3 || r.Data.Choices[2].Value != "C" {
		t.Fatalf("heap suggestions: %+v", r.Data.Choices)
	}
	r = h.autocomplete(alice, "move", "notation", "C")
	if len(r.Data.Choices) == 0 || len(r.Data.Choices) > 25 {
		t.Fatalf("move suggestions: %d", len(r.Data.Choices))
	}
	if r := h.autocomplete(bob, "move", "heap", ""); len(r.Data.Choices) != 0 {
		t.Fatalf("suggestions to someone not playing: %+v", r.Data.Choices)
	}
}

func TestDefinitionsWithinDiscordLimits(t *testing.T) {
	defs := Definitions()
	if len(defs) != 1 || defs[0].Name != "nim" {
		t.Fatalf("want one /nim command, got %d", len(defs))
	}
	subs := map[string]bool{}
	var walk func(path string, o []*discordgo.ApplicationCommandOption)
	walk = func(path string, o []*discordgo.ApplicationCommandOption) {
		if len(o) > 25 {
			t.Errorf("%s: %d options, over 25", path, len(o))
		}
		required := true
		for _, x := range o {
			p := path + " " + x.Name
			if !namePattern.MatchString(x.Name) {
				t.Errorf("%s: name not lowercase 1-32", p)
			}
			if n := len([]rune(x.Description)); n < 1 || n > 100 {
				t.Errorf("%s: description %d characters", p, n)
			}
			if len(x.Choices) > 25 {
				t.Errorf("%s: %d choices", p, len(x.Choices))
			}
			if x.Autocomplete && len(x.Choices) > 0 {
				t.Errorf("%s: autocomplete and choices are exclusive", p)
			}
			for _, c := range x.Choices {
				if n := len([]rune(c.Name)); n < 1 || n > 100 {
					t.Errorf("%s: choice %q", p, c.Name)
				}
			}
			if x.Required && !required {
				t.Errorf("%s: required option after an optional one", p)
			}
			required = x.Required
			if x.Type == discordgo.ApplicationCommandOptionSubCommand {
				subs[x.Name] = true
				walk(p, x.Options)
			}
		}
	}
	if !namePattern.MatchString(defs[0].Name) || len(defs[0].Description) > 100 {
		t.Errorf("command name/description")
	}
	walk("/nim", defs[0].Options)
	for _, s := range []string{"start", "move", "hint", "resign", "status", "rules", "analyze", "stats", "leaderboard", "end", "puzzle", "daily", "learn"} {
		if !subs[s] {
			t.Errorf("missing /nim %s", s)
		}
	}
	// Every variant is offered by /nim start.
	for _, o := range defs[0].Options {
		if o.Name != "start" {
			continue
		}
		for _, x := range o.Options {
			if x.Name == optVariant && len(x.Choices) != len(engine.Variants()) {
				t.Errorf("start offers %d variants, the engine %d", len(x.Choices), len(engine.Variants()))
			}
		}
	}
	// And every subcommand has a route.
	s := New(Config{})
	for name := range subs {
		if s.mux[discordgo.InteractionApplicationCommand].match("nim/"+name) == nil {
			t.Errorf("no route for /nim %s", name)
		}
	}
}

func TestInternalErrorIsAnApologyWithReference(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me")
	// A closed store is an internal failure, not the user's fault.
	if err := h.db.Close(); err != nil {
		t.Fatal(err)
	}
	i := h.interaction("application_command.json", fields{UserID: alice, Sub: "status", Type: 2})
	resp, _, _ := h.svc.Handle(context.Background(), i)
	if !isEphemeral(resp) || !strings.Contains(resp.Data.Content, "Sorry") || !strings.Contains(resp.Data.Content, "reference ") {
		t.Fatalf("internal error answer: %q", resp.Data.Content)
	}
	ref := resp.Data.Content[strings.LastIndex(resp.Data.Content, "reference ")+len("reference ") : len(resp.Data.Content)-1]
	logs := h.logs.String()
	if !strings.Contains(logs, "ref="+ref) || !strings.Contains(logs, "interaction="+i.ID) {
		t.Fatalf("the log must carry the reference %s and interaction id: %s", ref, logs)
	}
	if strings.Contains(logs, i.Token) {
		t.Fatalf("the token leaked into the log")
	}
	h.open() // for the cleanup's Close
}

// A start is one store transaction with its saved answer (and, when nimbot
// moves first, its opening move). If the answer cannot be saved — the
// process dying before it, or here a failing disk — no game is left
// behind, so the redelivered interaction is answered with its board, not
// "This channel already has a game".
func TestStartAfterCrashShowsTheUnpostedBoard(t *testing.T) {
	for _, first := range []string{firstMe, firstOpponent} {
		t.Run(first, func(t *testing.T) {
			h := newHarness(t, 1)
			ctx := context.Background()
			failSaves(t, h, true)
			start := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Options: opts("heaps", "2 5", "first", first), Type: 2})
			if resp := h.handle(start); !strings.Contains(resp.Data.Content, "reference") {
				t.Fatalf("want an apology while answers cannot be saved: %s", text(resp))
			}
			if g, err := h.db.ChannelGame(ctx, chanA); !errors.Is(err, match.ErrNotFound) {
				t.Fatalf("a game was left behind without its answer: %+v, %v", g, err)
			}
			failSaves(t, h, false)
			resp := h.handle(start)
			if isEphemeral(resp) || !hasKind(resp, heapKind) {
				t.Fatalf("want the board: %s", text(resp))
			}
			g := h.game()
			if wantPly := map[string]int{firstMe: 0, firstOpponent: 1}[first]; g.Ply != wantPly {
				t.Fatalf("game at ply %d, want %d", g.Ply, wantPly)
			}
			// Redelivered again, it gets the very same board.
			again := h.handle(start)
			a, _ := json.Marshal(resp)
			b, _ := json.Marshal(again)
			if string(a) != string(b) {
				t.Fatalf("redelivered start answered differently:\n%s\n%s", a, b)
			}
			wantUserError(t, h.command(bob, "start"), fmt.Sprintf("already has a game (game #%d)", g.ID))
			h.boardSent(resp)
			if got := h.game(); got.ID != g.ID || got.Ply != g.Ply || got.MessageID != h.message {
				t.Fatalf("board not recorded: %+v", got)
			}
		})
	}
}

// failSaves makes every attempt to save an interaction's answer fail (as a
// full disk would), or stops doing so.
func failSaves(t *testing.T, h *harness, fail bool) {
	t.Helper()
	db, err := sql.Open("sqlite3", h.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := `DROP TRIGGER fail_saves`
	if fail {
		q = `CREATE TRIGGER fail_saves BEFORE INSERT ON interactions BEGIN SELECT RAISE(ABORT, 'disk full'); END`
	}
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

// Interactions nimbot cannot make sense of are answered, never a panic.
func TestMalformedInteractions(t *testing.T) {
	h := newHarness(t, 1)
	for name, i := range map[string]*discordgo.Interaction{
		"component without data": {ID: "1", Type: discordgo.InteractionMessageComponent, ChannelID: chanA, Member: &discordgo.Member{User: &discordgo.User{ID: alice}}},
		"command without data":   {ID: "2", Type: discordgo.InteractionApplicationCommand, ChannelID: chanA, User: &discordgo.User{ID: alice}},
		"unknown type":           {ID: "3", Type: 99, ChannelID: chanA},
		"nil":                    nil,
	} {
		t.Run(name, func(t *testing.T) {
			resp, _, _ := h.svc.Handle(context.Background(), i)
			if resp == nil || !isEphemeral(resp) {
				t.Fatalf("want an ephemeral answer, got %+v", resp)
			}
		})
	}
}

func TestStatusTypeAndFilters(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me")
	g := h.game()
	first := h.message
	resp := h.command(bob, "status")
	if isEphemeral(resp) || !strings.Contains(text(resp), "<@"+alice+"> to move") {
		t.Fatalf("status: %s", text(resp))
	}
	if got := h.game().MessageID; got == first || got != h.message {
		t.Fatalf("status must make the re-posted board the one edited: %q (first %q, new %q)", got, first, h.message)
	}
	m := h.click(alice, TypeControl{Game: g.ID, Ply: 0}.CustomID())
	if m.Type != discordgo.InteractionResponseModal || m.Data.CustomID != (TypedModal{Game: g.ID, Ply: 0}.CustomID()) || len(m.Data.Title) > 45 {
		t.Fatalf("type a move: %+v", m.Data)
	}
	wantUserError(t, h.click(bob, TypeControl{Game: g.ID, Ply: 0}.CustomID()), "You are not playing")
	h.click(alice, ResignControl{Game: g.ID, Ply: 0}.CustomID())
	for _, v := range engine.Variants() {
		want := variantTitle(locale.For(locale.English), v)
		if strings.ContainsAny(want, "({,") || want == "" {
			t.Fatalf("title of %s: %q", v, want)
		}
		st := h.command(alice, "stats", "variant", string(v))
		if !strings.Contains(text(st), want) {
			t.Fatalf("stats for %s: %s", v, text(st))
		}
		if v == engine.Nim && !strings.Contains(text(st), "**0** wins · **1** loss") {
			t.Fatalf("stats for nim after a resignation: %s", text(st))
		}
		lb := h.command(alice, "leaderboard", "variant", string(v))
		if !strings.Contains(text(lb), want) {
			t.Fatalf("leaderboard for %s: %s", v, text(lb))
		}
	}
}

// BoardSent records boards only: a hint (ephemeral, with hint/ controls) or
// a stats message must not take the board's place.
func TestBoardSentIgnoresOtherMessages(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me")
	g := h.game()
	board := g.MessageID
	hint := h.click(alice, HintControl{Game: g.ID, Ply: g.Ply}.CustomID())
	ctx := context.Background()
	i := h.interaction("message_component.json", fields{UserID: alice, CustomID: HintControl{Game: g.ID, Ply: g.Ply}.CustomID(), ComponentType: 2})
	msgs := []*discordgo.Message{
		{ID: "1260000000000000001", Flags: discordgo.MessageFlagsEphemeral, Components: hint.Data.Components, Embeds: hint.Data.Embeds},
		{ID: "1260000000000000002", Components: hint.Data.Components, Embeds: hint.Data.Embeds}, // flags lost on the way
		{ID: "1260000000000000003", Embeds: h.command(alice, "stats").Data.Embeds},
		nil,
	}
	for _, m := range msgs {
		if err := h.svc.BoardSent(ctx, i, m); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.game().MessageID; got != board {
		t.Fatalf("the board moved to %q (was %q)", got, board)
	}
}

// Two boards of one game (two /nim status) whose fetches of @original
// finish out of order, the older board's last: the newer stays recorded,
// so the deadline's edit goes to it, not to the board above it.
func TestBoardSentOutOfOrder(t *testing.T) {
	h := newHarness(t, 1)
	ctx := context.Background()
	h.command(alice, "start", "first", "me")
	g := h.game()
	status := func() (*discordgo.Interaction, *discordgo.Message) {
		t.Helper()
		i := h.interaction("application_command.json", fields{UserID: alice, Sub: "status", Type: 2})
		resp := h.handle(i)
		if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || isEphemeral(resp) {
			t.Fatalf("/nim status: %d %s", resp.Type, text(resp))
		}
		return i, h.posted(resp, h.nextID())
	}
	i1, older := status()
	i2, newer := status()
	if err := h.svc.BoardSent(ctx, i2, newer); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.BoardSent(ctx, i1, older); err != nil {
		t.Fatal(err)
	}
	if got := h.gameByID(g.ID).MessageID; got != newer.ID {
		t.Fatalf("board %q recorded, want the newest, %q (the older was %q)", got, newer.ID, older.ID)
	}
	h.now = h.now.Add(DefaultBotTurn)
	edits, err := h.svc.Expire(ctx)
	if err != nil || len(edits) != 1 || edits[0].ID != newer.ID {
		t.Fatalf("the deadline's edit: %+v %v; want one, of %q", edits, err, newer.ID)
	}
}

// Answers that change nothing on replayable routes are not saved (each save
// is a durable write); a redelivery of one is answered afresh, the same way.
// Answers that change something are saved with the change, and a
// redelivery gets them back.
func TestOnlyAnswersThatChangeSomethingAreSaved(t *testing.T) {
	h := newHarness(t, 1)
	ctx := context.Background()
	saved := func(t *testing.T, key string, want bool) {
		t.Helper()
		_, err := h.db.Response(ctx, key)
		switch {
		case want && err != nil:
			t.Fatalf("interaction %s: answer not saved: %v", key, err)
		case !want && !errors.Is(err, match.ErrNotFound):
			t.Fatalf("interaction %s: answer saved (%v), though it changed nothing", key, err)
		}
	}
	same := func(t *testing.T, a, b *discordgo.InteractionResponse) {
		t.Helper()
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("redelivery answered differently:\n%s\n%s", ja, jb)
		}
	}
	start := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Options: opts("first", "me", "heaps", "3 4 5"), Type: 2, ID: "1390000000000000201"})
	resp := h.handle(start)
	h.boardSent(resp)
	saved(t, AnswerKey(start), true)
	g := h.game()

	t.Run("HeapPick", func(t *testing.T) {
		pick := h.clickID(alice, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 1}.CustomID(), "1390000000000000202")
		if !hasID(pick, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 1, Take: 4}.CustomID()) {
			t.Fatalf("pick: %s", text(pick))
		}
		saved(t, h.clickKey(alice, "1390000000000000202"), false)
		same(t, pick, h.clickID(alice, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 1}.CustomID(), "1390000000000000202"))
	})
	t.Run("UserError", func(t *testing.T) {
		wrong := h.clickID(bob, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 1}.CustomID(), "1390000000000000203")
		wantUserError(t, wrong, "not playing")
		saved(t, h.clickKey(bob, "1390000000000000203"), false)
		same(t, wrong, h.clickID(bob, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 1}.CustomID(), "1390000000000000203"))
	})
	t.Run("Hints", func(t *testing.T) {
		// The first hint at a ply is recorded, with its answer; another look
		// at the same ply changes nothing.
		first := h.clickID(alice, HintControl{Game: g.ID, Ply: g.Ply}.CustomID(), "1390000000000000204")
		saved(t, h.clickKey(alice, "1390000000000000204"), true)
		level2 := h.clickID(alice, HintControl{Game: g.ID, Ply: g.Ply, Level: 2}.CustomID(), "1390000000000000205")
		saved(t, h.clickKey(alice, "1390000000000000205"), false)
		same(t, level2, h.clickID(alice, HintControl{Game: g.ID, Ply: g.Ply, Level: 2}.CustomID(), "1390000000000000205"))
		same(t, first, h.clickID(alice, HintControl{Game: g.ID, Ply: g.Ply}.CustomID(), "1390000000000000204"))
		// /nim hint names no ply: replayed later it could record a hint
		// the player never asked for, so its answer is always saved.
		cmd := h.interaction("application_command.json", fields{UserID: alice, Sub: "hint", Type: 2, ID: "1390000000000000206"})
		h.handle(cmd)
		saved(t, AnswerKey(cmd), true)
	})
	t.Run("Move", func(t *testing.T) {
		m := winningMove(t, g)
		move := h.clickID(alice, MoveControl{Game: g.ID, Ply: g.Ply, Heap: m.Heap, Take: m.Take}.CustomID(), "1390000000000000207")
		if move.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("move: %s", text(move))
		}
		saved(t, h.clickKey(alice, "1390000000000000207"), true)
		same(t, move, h.clickID(alice, MoveControl{Game: g.ID, Ply: g.Ply, Heap: m.Heap, Take: m.Take}.CustomID(), "1390000000000000207"))
		if got := h.game(); got.Ply != g.Ply+2 {
			t.Fatalf("game at ply %d after a redelivered move, want %d", got.Ply, g.Ply+2)
		}
		// The pick from before, redelivered now: stale, still unsaved.
		wantUserError(t, h.clickID(alice, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 1}.CustomID(), "1390000000000000202"), "out of date")
		saved(t, h.clickKey(alice, "1390000000000000202"), false)
	})
	t.Run("ReadOnly", func(t *testing.T) {
		rules := h.interaction("application_command.json", fields{UserID: alice, Sub: "rules", Type: 2, ID: "1390000000000000208"})
		same(t, h.handle(rules), h.handle(rules))
		saved(t, AnswerKey(rules), false)
	})
}

// BoardWanted: bot fetches and records a new board only while its game is
// on and no newer board of it is recorded; other messages never.
func TestBoardWanted(t *testing.T) {
	h := newHarness(t, 1)
	ctx := context.Background()
	start := h.command(alice, "start", "first", "me")
	g := h.game()
	recorded, err := strconv.ParseUint(g.MessageID, 10, 64)
	if err != nil {
		t.Fatalf("the harness recorded no board: %q", g.MessageID)
	}
	// Interactions made just before and just after the recorded board.
	before := &discordgo.Interaction{ID: strconv.FormatUint(recorded-1, 10)}
	after := &discordgo.Interaction{ID: strconv.FormatUint(recorded+1, 10)}
	hint := h.click(alice, HintControl{Game: g.ID, Ply: g.Ply}.CustomID())
	gone := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{CustomID: ResignControl{Game: g.ID + 100, Ply: 0}.CustomID(), Label: "x"}}}}}}
	cases := []struct {
		name string
		i    *discordgo.Interaction
		resp *discordgo.InteractionResponse
		want bool
	}{
		{"LiveGameOlderBoardRecorded", after, start, true},
		{"NewerBoardRecorded", before, start, false},
		{"Hint", after, hint, false},
		{"Stats", after, h.command(alice, "stats"), false},
		{"NoData", after, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource}, false},
		{"GameGone", after, gone, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, err := h.svc.BoardWanted(ctx, c.i, c.resp); err != nil || got != c.want {
				t.Errorf("BoardWanted = %v, %v; want %v", got, err, c.want)
			}
		})
	}
	t.Run("LiveGameNoBoardRecorded", func(t *testing.T) {
		if err := h.db.SetMessageID(ctx, g.ID, ""); err != nil {
			t.Fatal(err)
		}
		defer h.db.SetMessageID(ctx, g.ID, g.MessageID)
		if got, err := h.svc.BoardWanted(ctx, before, start); err != nil || !got {
			t.Errorf("BoardWanted = %v, %v; want true", got, err)
		}
	})
	t.Run("Finished", func(t *testing.T) {
		h.click(alice, ResignControl{Game: g.ID, Ply: g.Ply}.CustomID())
		if over, err := h.db.Game(ctx, g.ID); err != nil || !over.Status.Finished() {
			t.Fatalf("after resigning: %v, %v", over, err)
		}
		if got, err := h.svc.BoardWanted(ctx, after, start); err != nil || got {
			t.Errorf("BoardWanted = %v, %v for a finished game; want false", got, err)
		}
	})
}

var userMention = regexp.MustCompile(`<@!?(\d+)>`)

// pinged returns whom Discord would notify for resp's message: the users
// mentioned in its content (mentions in embeds never notify) that its
// allowed_mentions lets through, all of them when it has none.
func pinged(resp *discordgo.InteractionResponse) []string {
	var out []string
	for _, m := range userMention.FindAllStringSubmatch(resp.Data.Content, -1) {
		am := resp.Data.AllowedMentions
		if am == nil || slices.Contains(am.Parse, discordgo.AllowedMentionTypeUsers) || slices.Contains(am.Users, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestStatusOfAChallengePingsNoOne: the challenge pings the challenged
// player once; /nim status re-posts the pending challenge naming them but
// pinging no one. It used to carry the challenge's own allowed_mentions, so
// anyone in the channel could ping the challenged player again and again.
func TestStatusOfAChallengePingsNoOne(t *testing.T) {
	h := newHarness(t, 1)
	resp := h.command(alice, "start", "opponent", user(bob), "heaps", "1 2 3")
	if got := pinged(resp); !slices.Equal(got, []string{bob}) {
		t.Fatalf("the challenge pings %v, want bob once", got)
	}
	for _, who := range []string{carol, alice, bob, carol} {
		resp := h.command(who, "status")
		if isEphemeral(resp) || !strings.Contains(resp.Data.Content, "<@"+bob+">") {
			t.Fatalf("status of the challenge: %s", text(resp))
		}
		if got := pinged(resp); len(got) != 0 {
			t.Fatalf("status by %s pings %v (allowed_mentions %+v), want no one", usernames[who], got, resp.Data.AllowedMentions)
		}
	}
	if g := h.game(); g.Status != match.Pending {
		t.Fatalf("status changed the challenge: %s", g.Status)
	}
}

// TestPrivate: the routes marked private are those whose every answer is
// ephemeral, so a transport may defer them ephemerally: /nim hint (a
// refusal or the hint), /nim rules, /nim analyze unless public. Everything
// else may answer in public (a board, stats, the leaderboard) and is not
// private. Each private case's answer is checked to be ephemeral, so a
// handler that starts answering in public shows up here.
func TestPrivate(t *testing.T) {
	h := newHarness(t, 1)
	cmd := func(sub string, kv ...any) func() *discordgo.Interaction {
		return func() *discordgo.Interaction {
			return h.interaction("application_command.json", fields{UserID: alice, Sub: sub, Options: opts(kv...), Type: 2})
		}
	}
	cases := []struct {
		name    string
		i       func() *discordgo.Interaction
		private bool
		public  bool // its answer is public (checked for the cases not private)
	}{
		{"hint with no game", cmd("hint"), true, false},
		{"start", cmd("start", "first", "me"), false, true},
		{"hint", cmd("hint", "level", 2), true, false},
		{"hint refused", cmd("hint", "level", 7), true, false},
		{"rules", cmd("rules", "variant", "wythoff"), true, false},
		{"analyze", cmd("analyze", "position", "3 4 5"), true, false},
		{"analyze, public false", cmd("analyze", "position", "3 4 5", "public", false), true, false},
		{"analyze unreadable", cmd("analyze", "position", "nim 3 x"), true, false},
		{"analyze in public", cmd("analyze", "position", "wythoff 3 5", "public", true), false, true},
		{"stats", cmd("stats"), false, true},
		{"leaderboard", cmd("leaderboard"), false, true},
		{"puzzle", cmd("puzzle", "theme", "nimsum"), true, false},
		{"puzzle streak", cmd("puzzle", "streak", true), true, false},
		{"puzzle leaderboard", cmd("leaderboard", "puzzles", true), false, true},
		{"daily", cmd("daily"), true, false},
		{"learn", cmd("learn"), true, false},
		{"status", cmd("status"), false, true},
		{"autocomplete", func() *discordgo.Interaction {
			return h.interaction("application_command.json", fields{UserID: alice, Sub: "analyze", Options: `[{"name":"position","type":3,"value":"kay","focused":true}]`, Type: 4})
		}, false, false},
		{"click", func() *discordgo.Interaction {
			g := h.game()
			return h.interaction("message_component.json", fields{UserID: alice, CustomID: HintControl{Game: g.ID, Ply: g.Ply}.CustomID(), ComponentType: 2, MessageID: h.message})
		}, false, false},
		{"ping", func() *discordgo.Interaction { return h.interaction("ping.json", fields{}) }, false, false},
	}
	for _, c := range cases {
		i := c.i()
		if got := h.svc.Private(i); got != c.private {
			t.Errorf("%s: Private = %v, want %v", c.name, got, c.private)
		}
		resp := h.handle(i)
		h.boardSent(resp)
		switch {
		case c.private && !isEphemeral(resp):
			t.Errorf("%s: private, yet answered in public: %s", c.name, text(resp))
		case c.public && isEphemeral(resp):
			t.Errorf("%s: want a public answer, got: %s", c.name, text(resp))
		}
	}
	if h.svc.Private(nil) {
		t.Error("Private(nil) = true")
	}
}
