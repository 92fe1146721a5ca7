package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/match"
)

// TestStartKeepsLocale: a game speaks the challenger's language, whoever
// clicks later; a locale no Discord client sends is not kept.
func TestStartKeepsLocale(t *testing.T) {
	for _, tc := range []struct{ sent, want string }{
		{"de", "de"},
		{"pt-BR", "pt-BR"},
		{"", ""},
		{"es-419", "es-419"},
		{strings.Repeat("x", match.MaxLocale+1), ""},
		// PostgreSQL's text refuses a NUL (SQLite stores it): the stores
		// must never be asked to keep one.
		{"de\x00", ""},
		{"de'--", ""},
		{"日本", ""},
	} {
		t.Run(tc.sent, func(t *testing.T) {
			h := newHarness(t, 1)
			i := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Options: opts("first", "me"), Type: 2})
			i.Locale = discordgo.Locale(tc.sent)
			if resp := h.handle(i); isEphemeral(resp) {
				t.Fatalf("start refused: %s", text(resp))
			}
			if got := h.game().Locale; got != tc.want {
				t.Fatalf("game locale %q, want %q", got, tc.want)
			}
		})
	}
}

// TestDefinitionInstalls: /nim is declared for both installs (server and
// user) and all three contexts (server, DM with nimbot, other DMs and group
// DMs), as the JSON Discord receives says.
func TestDefinitionInstalls(t *testing.T) {
	defs := Definitions()
	if len(defs) != 1 {
		t.Fatalf("%d definitions", len(defs))
	}
	b, err := json.Marshal(defs[0])
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		IntegrationTypes []int `json:"integration_types"`
		Contexts         []int `json:"contexts"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.IntegrationTypes, []int{0, 1}) || !reflect.DeepEqual(got.Contexts, []int{0, 1, 2}) {
		t.Fatalf("integration_types %v, contexts %v; want [0 1], [0 1 2]", got.IntegrationTypes, got.Contexts)
	}
}

// place is where a test plays: the fixtures of its slash commands and
// clicks, so one game can be played in a DM or a group DM as Discord sends
// them there (no guild_id, context 1 or 2, authorizing_integration_owners).
type place struct {
	h              *harness
	command, click string
}

var (
	// userDM is a DM with nimbot, nimbot installed to the user's account.
	userDM = func(h *harness) place {
		return place{h, "application_command_dm_user.json", "message_component_dm_user.json"}
	}
	// groupDM is a group DM of alice, bob and carol, where alice installed
	// nimbot to her account: nimbot is no member.
	groupDM = func(h *harness) place {
		return place{h, "application_command_group_dm.json", "message_component_group_dm.json"}
	}
)

func (p place) run(who, sub string, kv ...any) *discordgo.InteractionResponse {
	p.h.t.Helper()
	f := fields{UserID: who, Sub: sub, Options: opts(kv...), Type: 2}
	for k := 0; k+1 < len(kv); k += 2 {
		if u, ok := kv[k+1].(user); ok {
			f.Resolved = fmt.Sprintf(`{"users": {%q: {"id": %q, "username": %q, "discriminator": "0", "avatar": null, "public_flags": 0}}}`, string(u), string(u), usernames[string(u)])
		}
	}
	return p.h.commandWith(p.command, f)
}

func (p place) press(who, customID string) *discordgo.InteractionResponse {
	p.h.t.Helper()
	resp := p.h.handle(p.h.interaction(p.click, fields{UserID: who, CustomID: customID, ComponentType: 2, MessageID: p.h.message}))
	p.h.boardSent(resp)
	return resp
}

// playOutIn plays g to its end with the board's buttons (heap, then
// amount), each player taking a winning move when there is one.
func playOutIn(t *testing.T, p place, g *match.Game) *match.Game {
	t.Helper()
	for steps := 0; g.Status == match.Active; steps++ {
		if steps > 50 {
			t.Fatal("game did not finish")
		}
		who, m := g.ToMove(), winningMove(t, g)
		if pick := p.press(who, HeapControl{Game: g.ID, Ply: g.Ply, Heap: m.Heap}.CustomID()); pick.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("heap pick: %d %s", pick.Type, text(pick))
		}
		resp := p.press(who, MoveControl{Game: g.ID, Ply: g.Ply, Heap: m.Heap, Take: m.Take}.CustomID())
		if resp.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("move %v: %d %s", m, resp.Type, text(resp))
		}
		next := p.h.gameByID(g.ID)
		if next.Ply <= g.Ply {
			t.Fatalf("move %v did not advance the game: %s", m, text(resp))
		}
		g = next
	}
	return g
}

// TestUserInstallDM plays a game against nimbot in a DM with nimbot
// installed to the user's account (context 1): nimbot's own channel, so
// the scheduler may still edit its board.
func TestUserInstallDM(t *testing.T) {
	h := newHarness(t, 3)
	h.channel = chanDM
	p := userDM(h)
	wantUserError(t, p.run(alice, "start", "opponent", user(bob)), locale.For("fr").T("start.err.challenge_in_dm", "OpponentOption", optionName(optOpponent)))
	resp := p.run(alice, "start", "first", "me", "difficulty", "hard")
	if isEphemeral(resp) || resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
		t.Fatalf("start: %s", text(resp))
	}
	g := h.game()
	if g.GuildID != "" || g.Locale != "fr" || g.InteractionOnly || g.Players != [2]string{alice, match.BotID} || g.MessageID != h.message {
		t.Fatalf("DM game: %+v", g)
	}
	if g = playOutIn(t, p, g); g.Status != match.Won || g.Winner != alice {
		t.Fatalf("perfect play from 3 4 5 moving first wins: %s %q", g.Status, g.Winner)
	}
	if resp := p.run(alice, "stats"); !strings.Contains(text(resp), locale.For("fr").T("info.stats.wins", "Count", 1)) {
		t.Fatalf("stats in the DM: %s", text(resp))
	}
}

// TestUserInstallGroupDM plays a challenge between two people in a group
// DM where nimbot is installed to alice's account only (context 2):
// everything goes through interaction responses, and the deadline scheduler
// sends no edit it could not make.
func TestUserInstallGroupDM(t *testing.T) {
	h := newHarness(t, 1)
	h.channel = chanB
	p := groupDM(h)
	resp := p.run(alice, "start", "opponent", user(bob), "first", "me", "heaps", "1 2 3")
	if isEphemeral(resp) {
		t.Fatalf("challenge in a group DM: %s", text(resp))
	}
	g := h.game()
	if g.GuildID != "" || !g.InteractionOnly || g.Locale != "de" || g.Status != match.Pending {
		t.Fatalf("group DM challenge: %+v", g)
	}
	wantUserError(t, p.press(carol, AcceptControl{Game: g.ID}.CustomID()), "This challenge is for")
	if resp := p.press(bob, AcceptControl{Game: g.ID}.CustomID()); resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("accept: %d %s", resp.Type, text(resp))
	}
	g = h.game()
	// The board says what happens at the deadline, in the game's language.
	if b := text(p.press(alice, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 2}.CustomID())); !strings.Contains(b, "beim nächsten Klick") {
		t.Fatalf("the board does not say how the deadline is settled: %s", b)
	}
	g = playOutIn(t, p, g)
	if g.Status != match.Won || !g.IsPlayer(g.Winner) {
		t.Fatalf("group DM game: %s %q", g.Status, g.Winner)
	}

	t.Run("DeadlineSettledAtNextClick", func(t *testing.T) {
		ctx := context.Background()
		h.now = h.now.Add(time.Hour)
		p.run(alice, "start", "opponent", user(bob), "first", "me")
		g := h.game()
		p.press(bob, AcceptControl{Game: g.ID}.CustomID())
		board := h.message
		h.now = h.now.Add(DefaultPeopleTurn + time.Minute)
		edits, err := h.svc.Expire(ctx)
		if err != nil || len(edits) != 0 {
			t.Fatalf("Expire must send no edit nimbot cannot make here: %+v %v", edits, err)
		}
		if g := h.gameByID(g.ID); g.Status != match.Timeout || g.Winner != bob {
			t.Fatalf("after the deadline: %s %q", g.Status, g.Winner)
		}
		// alice's next click on the stale board draws the settled board over it.
		h.message = board
		resp := p.press(alice, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID())
		if resp.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(resp) || !strings.Contains(text(resp), "<@"+bob+">") || hasID(resp, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID()) {
			t.Fatalf("click after the deadline: %d %s %v", resp.Type, text(resp), customIDs(resp))
		}
		// A click on another message (an old board) is told, not redrawn.
		h.message = "1250000000000000077"
		wantUserError(t, p.press(alice, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID()), "over")
	})
}

// TestEndRightsAndScopes: /nim end is the players' in a DM or group DM (a
// payload claiming Manage Messages there changes nothing), the players' and
// moderators' in a server; /nim stats and /nim leaderboard count per server
// and, outside servers, per DM or group DM channel.
func TestEndRightsAndScopes(t *testing.T) {
	h := newHarness(t, 1)
	p := groupDM(h)
	h.channel = chanB
	p.run(alice, "start", "opponent", user(bob), "first", "me")
	g := h.game()
	p.press(bob, AcceptControl{Game: g.ID}.CustomID())
	// The refusal speaks the payload's locale.
	i := h.interaction(p.command, fields{UserID: carol, Sub: "end", Options: "[]", Type: 2})
	onlyPlayers := locale.For(string(i.Locale)).T("play.err.end_rights_players")
	wantUserError(t, p.run(carol, "end"), onlyPlayers)
	// A hostile payload: a member with Manage Messages in a group DM, which
	// Discord never sends (TestForgedPlaces tries every such payload).
	i.Member = &discordgo.Member{User: i.User, Permissions: discordgo.PermissionManageMessages}
	wantUserError(t, h.handle(i), locale.For(string(i.Locale)).T("play.err.bad_place"))
	if s := h.gameByID(g.ID).Status; s != match.Active {
		t.Fatalf("carol ended the game: %s", s)
	}
	if resp := p.run(bob, "end"); isEphemeral(resp) || h.gameByID(g.ID).Status != match.Ended {
		t.Fatalf("a player ends: %s", text(resp))
	}

	// In a server, a member with Manage Messages may end someone's game.
	h.channel = chanA
	h.command(alice, "start")
	gg := h.game()
	h.commandWith("application_command.json", fields{UserID: modID, Sub: "end", Permissions: "8192"})
	if s := h.gameByID(gg.ID).Status; s != match.Ended {
		t.Fatalf("a moderator could not end a server game: %s", s)
	}

	// alice wins once in the group DM: its table, not the server's nor
	// another DM's, counts it.
	h.channel = chanB
	h.now = h.now.Add(time.Hour) // past the challenge cooldown
	p.run(alice, "start", "opponent", user(bob), "first", "me", "heaps", "1")
	g = h.game()
	p.press(bob, AcceptControl{Game: g.ID}.CustomID())
	if g = playOutIn(t, p, h.game()); g.Winner != alice {
		t.Fatalf("winner %q", g.Winner)
	}
	if lb := text(p.run(carol, "leaderboard")); !strings.Contains(lb, "<@"+alice+">") || !strings.Contains(lb, "<@"+bob+">") {
		t.Fatalf("group DM leaderboard: %s", lb)
	}
	if st := text(p.run(carol, "stats", "user", user(alice))); !strings.Contains(st, locale.For("de").T("info.stats.wins", "Count", 1)) {
		t.Fatalf("group DM stats: %s", st)
	}
	if lb := text(h.command(carol, "leaderboard")); strings.Contains(lb, "<@"+alice+">") {
		t.Fatalf("the server's leaderboard counts a group DM's game: %s", lb)
	}
	h.channel = chanDM
	if lb := text(userDM(h).run(alice, "leaderboard")); strings.Contains(lb, "<@"+bob+">") {
		t.Fatalf("another DM's leaderboard counts the group DM's game: %s", lb)
	}
}
