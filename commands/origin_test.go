package commands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/internal/pgtest"
	"nimbot/match"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// More channels: a pending challenge in a server, and in a group DM.
const (
	chanE = "1220000000000000005"
	chanF = "1220000000000000006"
)

// manageMessages is a member's permissions with Manage Messages, as
// Discord sends them (a string).
const manageMessages = "8192"

// userObject is a user as Discord sends it.
func userObject(who string) map[string]any {
	return map[string]any{"id": who, "username": usernames[who], "discriminator": "0", "avatar": nil, "global_name": usernames[who], "public_flags": 0}
}

// memberObject is who as a server's member, with permissions.
func memberObject(who, permissions string) map[string]any {
	return map[string]any{"user": userObject(who), "roles": []any{}, "joined_at": "2024-05-01T12:00:00.000000+00:00",
		"permissions": permissions, "deaf": false, "mute": false, "flags": 0, "pending": false, "nick": nil, "avatar": nil}
}

// inGroupDM turns a server's payload (the fixtures of a server) into the
// same interaction sent by who in a group DM where alice installed nimbot
// to her account, as application_command_group_dm.json has it.
func inGroupDM(who string) func(map[string]any) {
	return func(m map[string]any) {
		for _, k := range []string{"guild_id", "guild", "guild_locale", "member"} {
			delete(m, k)
		}
		m["user"] = userObject(who)
		m["context"] = 2
		m["authorizing_integration_owners"] = map[string]any{"1": alice}
		m["channel"] = map[string]any{"id": m["channel_id"], "type": 3, "flags": 0}
		m["app_permissions"] = "1126999418470401"
	}
}

// whoOf is the id of the user a payload's member or user names.
func whoOf(m map[string]any) string {
	if mem, ok := m["member"].(map[string]any); ok {
		return mem["user"].(map[string]any)["id"].(string)
	}
	return m["user"].(map[string]any)["id"].(string)
}

// forgery changes a genuine payload into one Discord never sends for the
// place of the game it acts on; false when it does not apply to the
// payload (a clicked message on a slash command).
type forgery struct {
	name  string
	forge func(m map[string]any) bool
}

// asDM moves a server's payload out of servers, context ctx, in the same
// channel: for a channel whose game is a server's.
func asDM(ctx int) func(map[string]any) bool {
	return func(m map[string]any) bool {
		who := whoOf(m)
		for _, k := range []string{"guild_id", "guild", "guild_locale", "member"} {
			delete(m, k)
		}
		m["user"] = userObject(who)
		m["context"] = ctx
		if ctx == 1 {
			m["authorizing_integration_owners"] = map[string]any{"0": "0"}
		} else {
			m["authorizing_integration_owners"] = map[string]any{"1": who}
		}
		return true
	}
}

// messageElsewhere says the clicked message is in another channel.
func messageElsewhere(m map[string]any) bool {
	msg, ok := m["message"].(map[string]any)
	if ok {
		msg["channel_id"] = chanDM
	}
	return ok
}

// serverForgeries are forged places for a game in a server: each a
// combination Discord never sends, or a genuine one of another place than
// the game's.
var serverForgeries = []forgery{
	{"context 1 with a guild id", func(m map[string]any) bool { m["context"] = 1; return true }},
	{"context 2 with a guild id", func(m map[string]any) bool { m["context"] = 2; return true }},
	{"an unknown context", func(m map[string]any) bool { m["context"] = 7; return true }},
	{"a guild id without a member", func(m map[string]any) bool {
		m["user"] = m["member"].(map[string]any)["user"]
		delete(m, "member")
		return true
	}},
	{"a member beside another user", func(m map[string]any) bool {
		other := bob
		if whoOf(m) == bob {
			other = carol
		}
		m["user"] = userObject(other)
		return true
	}},
	{"another server's install", func(m map[string]any) bool {
		m["authorizing_integration_owners"] = map[string]any{"0": otherGuild}
		return true
	}},
	// A permission bit counts only inside the game's own server.
	{"another server's guild id, with Manage Messages there", func(m map[string]any) bool {
		m["guild_id"] = otherGuild
		m["guild"] = map[string]any{"features": []any{}, "id": otherGuild, "locale": "en-US"}
		m["authorizing_integration_owners"] = map[string]any{"0": otherGuild}
		m["member"].(map[string]any)["permissions"] = manageMessages
		return true
	}},
	{"no guild id: a DM with nimbot in the server's channel", asDM(1)},
	{"no guild id: a group DM in the server's channel", asDM(2)},
	{"a clicked message in another channel", messageElsewhere},
}

// groupDMForgeries are forged places for a game in a group DM.
var groupDMForgeries = []forgery{
	// The issue's own case: a server's payload, Manage Messages and all,
	// for a group DM's channel.
	{"a guild id and a member with Manage Messages", func(m map[string]any) bool {
		who := whoOf(m)
		delete(m, "user")
		m["guild_id"] = guildID
		m["guild"] = map[string]any{"features": []any{}, "id": guildID, "locale": "en-US"}
		m["member"] = memberObject(who, manageMessages)
		m["context"] = 0
		m["authorizing_integration_owners"] = map[string]any{"0": guildID}
		return true
	}},
	{"a guild id in context 2", func(m map[string]any) bool { m["guild_id"] = guildID; return true }},
	{"a guild id and a member in context 2", func(m map[string]any) bool {
		m["guild_id"] = guildID
		m["member"] = memberObject(whoOf(m), manageMessages)
		return true
	}},
	{"a member outside a server, with Manage Messages", func(m map[string]any) bool {
		m["member"] = memberObject(whoOf(m), manageMessages)
		return true
	}},
	{"a member instead of the user outside a server", func(m map[string]any) bool {
		m["member"] = memberObject(whoOf(m), manageMessages)
		delete(m, "user")
		return true
	}},
	{"a server's install in a group DM", func(m map[string]any) bool {
		m["authorizing_integration_owners"] = map[string]any{"0": "0"}
		return true
	}},
	{"a server's install in a DM with nimbot", func(m map[string]any) bool {
		m["context"] = 1
		m["authorizing_integration_owners"] = map[string]any{"0": guildID}
		return true
	}},
	{"an unknown context", func(m map[string]any) bool { m["context"] = 3; return true }},
	{"a clicked message in another channel", messageElsewhere},
}

// gameRoute is one route that reads or changes a game, as a payload: who
// sends what, on which of a place's games.
type gameRoute struct {
	name string
	game string // "live" (alice to move), "done" (over, with moves), "pending" (carol challenged bob)
	who  string
	// Exactly one of the following: a slash command (/nim sub, options),
	// a button, a select menu (custom_id, values) or a modal (custom_id,
	// value).
	sub, options string
	button       func(g *match.Game) string
	menu         func(g *match.Game) (string, string)
	modal        func(g *match.Game) (string, string)
	permissions  string
	// also is a refusal the route may give a forged place besides the two
	// place refusals, for a request that reaches a game from elsewhere by
	// design (a review, shown anywhere in its server).
	also string
}

var gameRoutes = []gameRoute{
	{name: "move button", game: "live", who: alice, button: func(g *match.Game) string {
		return MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 1}.CustomID()
	}},
	{name: "heap button", game: "live", who: alice, button: func(g *match.Game) string {
		return HeapControl{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID()
	}},
	{name: "heap menu", game: "live", who: alice, menu: func(g *match.Game) (string, string) {
		return HeapMenuControl{Game: g.ID, Ply: g.Ply}.CustomID(), `["0"]`
	}},
	{name: "move menu", game: "live", who: alice, menu: func(g *match.Game) (string, string) {
		return MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: "0"}.CustomID(), `["A1"]`
	}},
	{name: "amount button", game: "live", who: alice, button: func(g *match.Game) string {
		return AskControl{Game: g.ID, Ply: g.Ply, Heap: 2}.CustomID()
	}},
	{name: "amount form", game: "live", who: alice, modal: func(g *match.Game) (string, string) {
		return AmountModal{Game: g.ID, Ply: g.Ply, Heap: 2}.CustomID(), `"1"`
	}},
	{name: "type button", game: "live", who: alice, button: func(g *match.Game) string {
		return TypeControl{Game: g.ID, Ply: g.Ply}.CustomID()
	}},
	{name: "typed move form", game: "live", who: alice, modal: func(g *match.Game) (string, string) {
		return TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), `"A1"`
	}},
	{name: "hint button", game: "live", who: alice, button: func(g *match.Game) string {
		return HintControl{Game: g.ID, Ply: g.Ply}.CustomID()
	}},
	{name: "resign button", game: "live", who: alice, button: func(g *match.Game) string {
		return ResignControl{Game: g.ID, Ply: g.Ply}.CustomID()
	}},
	{name: "/nim move", game: "live", who: alice, sub: "move", options: opts("heap", "A", "take", 1)},
	{name: "/nim hint", game: "live", who: alice, sub: "hint"},
	{name: "/nim resign", game: "live", who: alice, sub: "resign"},
	{name: "/nim end by a player", game: "live", who: bob, sub: "end"},
	{name: "/nim end by a moderator", game: "live", who: modID, sub: "end", permissions: manageMessages},
	{name: "/nim status", game: "live", who: carol, sub: "status"},
	{name: "/nim start", game: "live", who: carol, sub: "start"},
	{name: "/nim stats", game: "live", who: carol, sub: "stats", options: opts("user", user(alice))},
	{name: "/nim leaderboard", game: "live", who: carol, sub: "leaderboard"},
	{name: "accept", game: "pending", who: bob, button: func(g *match.Game) string { return AcceptControl{Game: g.ID}.CustomID() }},
	{name: "decline", game: "pending", who: bob, button: func(g *match.Game) string { return DeclineControl{Game: g.ID}.CustomID() }},
	{name: "rematch", game: "done", who: alice, button: func(g *match.Game) string { return RematchControl{Game: g.ID}.CustomID() }},
	{name: "review", game: "done", who: alice, button: func(g *match.Game) string { return ReviewControl{Game: g.ID}.CustomID() },
		also: "review.err.elsewhere"},
}

// placeGames are one place's games: live, done and pending, each in its
// channel, with the message its board is in.
type placeGames struct {
	name      string
	forgeries []forgery
	// genuine turns a server's payload into this place's (nil: a server).
	genuine  func(who string) func(map[string]any)
	games    map[string]*match.Game
	channels map[string]string
	boards   map[string]string
}

// setUpPlaces starts, in a server and in a group DM, a game between alice
// and bob with alice to move, a game against nimbot that alice resigned
// after nimbot's opening move, and carol's challenge to bob.
func setUpPlaces(t *testing.T, h *harness) []*placeGames {
	t.Helper()
	server := &placeGames{name: "server", forgeries: serverForgeries,
		games: map[string]*match.Game{}, channels: map[string]string{"live": chanA, "done": chanC, "pending": chanE}, boards: map[string]string{}}
	dm := &placeGames{name: "group DM", forgeries: groupDMForgeries, genuine: inGroupDM,
		games: map[string]*match.Game{}, channels: map[string]string{"live": chanB, "done": chanD, "pending": chanF}, boards: map[string]string{}}
	p := groupDM(h)
	for _, pl := range []*placeGames{server, dm} {
		run := h.command
		press := h.click
		if pl == dm {
			run, press = p.run, p.press
		}
		h.channel = pl.channels["live"]
		run(alice, "start", "opponent", user(bob), "first", "me", "heaps", "3 4 5")
		press(bob, AcceptControl{Game: h.game().ID}.CustomID())
		h.channel = pl.channels["done"]
		run(alice, "start", "first", "opponent")
		run(alice, "resign")
		h.channel = pl.channels["pending"]
		run(carol, "start", "opponent", user(bob))
		for k, ch := range pl.channels {
			g, err := h.db.ChannelGame(context.Background(), ch)
			if k == "done" {
				g, err = h.lastGameIn(ch)
			}
			if err != nil {
				t.Fatalf("%s %s game: %v", pl.name, k, err)
			}
			pl.games[k] = g
			pl.boards[k] = g.MessageID
		}
		if g := pl.games["live"]; g.Status != match.Active || g.ToMove() != alice || pl.games["done"].Status != match.Resigned || pl.games["pending"].Status != match.Pending {
			t.Fatalf("%s: set-up went wrong: %+v", pl.name, pl.games)
		}
	}
	noLogs(t, h)
	return []*placeGames{server, dm}
}

// lastGameIn is the newest game of channel ch, live or over.
func (h *harness) lastGameIn(ch string) (*match.Game, error) {
	var last *match.Game
	for id := int64(1); ; id++ {
		g, err := h.db.Game(context.Background(), id)
		if errors.Is(err, match.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		if g.ChannelID == ch {
			last = g
		}
	}
	if last == nil {
		return nil, match.ErrNotFound
	}
	return last, nil
}

// payload is rt's interaction on pl's game, genuine, then changed by
// forge when forge is not nil; false if forge does not apply.
func (rt gameRoute) payload(h *harness, pl *placeGames, forge func(map[string]any) bool) (*discordgo.Interaction, bool) {
	h.t.Helper()
	g := pl.games[rt.game]
	f := fields{UserID: rt.who, ChannelID: pl.channels[rt.game], Permissions: rt.permissions, MessageID: pl.boards[rt.game]}
	fixture := "message_component.json"
	switch {
	case rt.sub != "":
		fixture, f.Type, f.Sub, f.Options = "application_command.json", 2, rt.sub, rt.options
		if u, ok := strings.CutPrefix(rt.options, `[{"name":"user","type":6,"value":"`); ok {
			id := u[:strings.IndexByte(u, '"')]
			f.Resolved = fmt.Sprintf(`{"users": {%q: {"id": %q, "username": %q, "discriminator": "0", "avatar": null, "public_flags": 0}}}`, id, id, usernames[id])
		}
	case rt.button != nil:
		f.CustomID, f.ComponentType = rt.button(g), 2
	case rt.menu != nil:
		f.CustomID, f.Values = rt.menu(g)
		f.ComponentType = 3
	case rt.modal != nil:
		fixture = "modal_submit.json"
		f.CustomID, f.Value = rt.modal(g)
	}
	applies := true
	i := h.mutated(fixture, f, func(m map[string]any) {
		if pl.genuine != nil {
			pl.genuine(rt.who)(m)
		}
		if forge != nil {
			applies = forge(m)
		}
	})
	return i, applies
}

// state is everything the forged requests must leave as it was: every
// game (new ones included), each live game's hint mark and moves.
func (h *harness) state() string {
	h.t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for id := int64(1); ; id++ {
		g, err := h.db.Game(ctx, id)
		if errors.Is(err, match.ErrNotFound) {
			break
		}
		if err != nil {
			h.t.Fatal(err)
		}
		moves, err := h.db.Moves(ctx, id)
		if err != nil {
			h.t.Fatal(err)
		}
		fmt.Fprintf(&b, "%d %s %s ply %d %v winner %q moves %d updated %v deadline %v players %v\n",
			g.ID, g.GuildID, g.ChannelID, g.Ply, g.Status, g.Winner, len(moves), g.UpdatedAt, g.Deadline, g.Players)
		if g.Status == match.Active && g.ToMove() != match.BotID {
			hinted, err := h.db.HintUsed(ctx, id, g.Ply, g.ToMove())
			if err != nil {
				h.t.Fatal(err)
			}
			fmt.Fprintf(&b, "  hinted %v\n", hinted)
		}
	}
	for _, who := range []string{alice, bob} {
		for _, scope := range []string{guildID, otherGuild, match.Scope("", chanA), match.Scope("", chanB), match.Scope("", chanC), match.Scope("", chanD)} {
			st, err := h.db.Stats(ctx, scope, who, "")
			if err != nil {
				h.t.Fatal(err)
			}
			fmt.Fprintf(&b, "stats %s %s %+v\n", scope, who, st)
		}
	}
	return b.String()
}

// placeRefusal reports whether resp refuses a request for its place, in
// the language of i (or, for route rt, rt's own refusal of elsewhere).
func placeRefusal(i *discordgo.Interaction, resp *discordgo.InteractionResponse, rt gameRoute) bool {
	if !isEphemeral(resp) {
		return false
	}
	p := locale.For(string(i.Locale))
	got := resp.Data.Content
	for _, id := range []string{"play.err.bad_place", "play.err.place_mismatch", rt.also} {
		if id != "" && got == p.T(id) {
			return true
		}
	}
	return false
}

// TestForgedPlaces sends every route that reads or changes a game, on a
// game in a server and on one in a group DM, as each forged place: a
// combination of context, guild_id, member or user, install and channel
// Discord never sends, or a genuine place that is not the game's (another
// server, a DM in the server's channel, a server for the group DM's
// channel). Each is refused with a clear ephemeral answer and changes
// nothing; then the genuine payload of the route is not refused for its
// place, so the forged ones would have reached the game. On SQLite and on
// PostgreSQL.
func TestForgedPlaces(t *testing.T) {
	stores := []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"sqlite", func(*testing.T) string { return "" }},
		{"postgres", func(t *testing.T) string { return pgtest.DB(t) }},
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			for _, rt := range gameRoutes {
				t.Run(rt.name, func(t *testing.T) {
					h := newHarnessOn(t, 1, "NORMAL", st.url(t))
					places := setUpPlaces(t, h)
					before := h.state()
					for _, pl := range places {
						for _, fg := range pl.forgeries {
							i, applies := rt.payload(h, pl, fg.forge)
							if !applies {
								continue
							}
							resp := h.handle(i)
							if !placeRefusal(i, resp, rt) {
								t.Errorf("%s, %s: not refused for its place: %s (ephemeral %v)", pl.name, fg.name, text(resp), isEphemeral(resp))
							}
							if after := h.state(); after != before {
								t.Fatalf("%s, %s changed the store:\nbefore\n%s\nafter\n%s", pl.name, fg.name, before, after)
							}
						}
					}
					noLogs(t, h)
					for _, pl := range places {
						i, _ := rt.payload(h, pl, nil)
						if resp := h.handle(i); placeRefusal(i, resp, rt) {
							t.Errorf("%s, genuine: refused for its place: %s", pl.name, text(resp))
						}
					}
					noLogs(t, h)
				})
			}
		})
	}
}

// TestModeratorRightsStayInTheirServer: Manage Messages lets a member end
// someone else's game in the game's own server, and nowhere else: not a
// game of another server, nor of a group DM, whatever the payload claims.
func TestModeratorRightsStayInTheirServer(t *testing.T) {
	h := newHarness(t, 1)
	places := setUpPlaces(t, h)
	server, dm := places[0], places[1]
	end := gameRoute{name: "/nim end", game: "live", who: modID, sub: "end", permissions: manageMessages}
	before := h.state()
	for _, c := range []struct {
		name  string
		pl    *placeGames
		forge func(map[string]any) bool
	}{
		{"another server's moderator", server, serverForgeries[6].forge},
		{"a server's moderator in a group DM", dm, groupDMForgeries[0].forge},
		{"a moderator's member in a group DM", dm, groupDMForgeries[3].forge},
	} {
		i, _ := end.payload(h, c.pl, c.forge)
		resp := h.handle(i)
		if !placeRefusal(i, resp, end) {
			t.Errorf("%s: %s", c.name, text(resp))
		}
	}
	if after := h.state(); after != before {
		t.Fatalf("a moderator from elsewhere changed the store:\n%s\n%s", before, after)
	}
	// In a group DM nobody but the players may end a game.
	i, _ := end.payload(h, dm, nil)
	wantUserError(t, h.handle(i), locale.For(string(i.Locale)).T("play.err.end_rights_players"))
	// Without Manage Messages, a member of the server may not either.
	i, _ = gameRoute{game: "live", who: carol, sub: "end"}.payload(h, server, nil)
	wantUserError(t, h.handle(i), locale.For(string(i.Locale)).T("play.err.end_rights"))
	// With it, in the game's own server, they may.
	i, _ = end.payload(h, server, nil)
	if resp := h.handle(i); isEphemeral(resp) || h.gameByID(server.games["live"].ID).Status != match.Ended {
		t.Fatalf("a moderator of the game's server: %s", text(resp))
	}
	noLogs(t, h)
}

// A payload without a context (from before contexts existed) is read from
// its other fields, not refused: outside servers as a DM with nimbot.
func TestOriginWithoutContext(t *testing.T) {
	h := newHarness(t, 1)
	h.channel = chanDM
	i := h.mutated("application_command_dm.json", fields{UserID: alice, Sub: "start", Options: opts("first", "me"), Type: 2}, func(m map[string]any) {
		delete(m, "context")
		delete(m, "authorizing_integration_owners")
	})
	if resp := h.handle(i); isEphemeral(resp) {
		t.Fatalf("a DM without a context: %s", text(resp))
	}
	if g := h.game(); g.GuildID != "" || g.InteractionOnly {
		t.Fatalf("a DM without a context: %+v", g)
	}
	h.channel = chanA
	i = h.mutated("application_command.json", fields{UserID: alice, Sub: "start", Type: 2}, func(m map[string]any) {
		delete(m, "context")
		delete(m, "authorizing_integration_owners")
	})
	if resp := h.handle(i); isEphemeral(resp) {
		t.Fatalf("a server's payload without a context: %s", text(resp))
	}
	if g := h.game(); g.GuildID != guildID {
		t.Fatalf("a server's payload without a context: %+v", g)
	}
	noLogs(t, h)
}
