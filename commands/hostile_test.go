package commands

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// More channels and another server, for requests that reach across them.
const (
	chanC       = "1220000000000000003"
	chanD       = "1220000000000000004"
	otherGuild  = "1219999999999999999"
	otherGuildC = "1229999999999999991"
)

// mutated renders a fixture, lets mutate change its JSON object (drop a
// field, forge one) and decodes the result as discordgo decodes Discord's
// payloads.
func (h *harness) mutated(fixture string, f fields, mutate func(map[string]any)) *discordgo.Interaction {
	h.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(h.render(fixture, f), &m); err != nil {
		h.t.Fatalf("fixture %s: %v", fixture, err)
	}
	if mutate != nil {
		mutate(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		h.t.Fatal(err)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(b, &i); err != nil {
		h.t.Fatalf("mutated %s does not decode: %v\n%s", fixture, err, b)
	}
	return &i
}

// clickIn clicks customID as who in the given server and channel.
func (h *harness) clickIn(who, guild, channel, customID string) *discordgo.InteractionResponse {
	h.t.Helper()
	return h.handle(h.interaction("message_component.json", fields{UserID: who, GuildID: guild, ChannelID: channel, CustomID: customID, ComponentType: 2}))
}

// inDM turns a guild payload into the same payload sent in a DM with who.
func inDM(who string) func(map[string]any) {
	return func(m map[string]any) {
		delete(m, "guild_id")
		delete(m, "guild")
		delete(m, "member")
		m["user"] = map[string]any{"id": who, "username": usernames[who], "discriminator": "0", "avatar": nil, "global_name": usernames[who], "public_flags": 0}
		m["channel"] = map[string]any{"id": m["channel_id"], "type": 1, "flags": 0}
		m["context"] = 1
		// A guild install's owner in a DM with nimbot is "0".
		m["authorizing_integration_owners"] = map[string]any{"0": "0"}
	}
}

// withCommandOptions replaces a command's options (one subcommand, as
// the fixture has them) with what rewrite makes of that subcommand.
func withCommandOptions(rewrite func(sub any) []any) func(map[string]any) {
	return func(m map[string]any) {
		d := m["data"].(map[string]any)
		d["options"] = rewrite(d["options"].([]any)[0])
	}
}

func noGameIn(t *testing.T, h *harness, channel string) {
	t.Helper()
	if g, err := h.db.ChannelGame(context.Background(), channel); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("channel %s has game %+v (%v), want none", channel, g, err)
	}
}

func noLogs(t *testing.T, h *harness) {
	t.Helper()
	if h.logs.Len() > 0 {
		t.Fatalf("logged as internal errors:\n%s", h.logs)
	}
}

// A board control acts only on the game of the channel it was clicked in:
// a player of game X clicking X's controls in channel Y must neither move X
// nor draw X's board over Y's.
func TestControlActsOnlyInItsChannel(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "heaps", "3 4 5 30", "first", "me") // X in A
	x := h.game()
	h.channel = chanB
	h.command(alice, "start", "heaps", "3 4 5", "first", "me") // Y in B
	y := h.game()
	h.channel = chanC
	h.command(carol, "start", "opponent", user(bob)) // a challenge in C
	c := h.game()
	h.channel = chanD
	h.command(alice, "start", "opponent", user(bob))
	d := h.game()
	h.click(bob, AcceptControl{Game: d.ID}.CustomID())
	h.command(bob, "resign") // a finished game in D

	h.channel = chanB
	ply := x.Ply
	cases := map[string]func() *discordgo.InteractionResponse{
		"move": func() *discordgo.InteractionResponse {
			return h.click(alice, MoveControl{Game: x.ID, Ply: ply, Heap: 0, Take: 1}.CustomID())
		},
		"heap": func() *discordgo.InteractionResponse {
			return h.click(alice, HeapControl{Game: x.ID, Ply: ply, Heap: 0}.CustomID())
		},
		"heapsel": func() *discordgo.InteractionResponse {
			return h.choose(alice, HeapMenuControl{Game: x.ID, Ply: ply}.CustomID(), "0")
		},
		"play": func() *discordgo.InteractionResponse {
			return h.choose(alice, MoveMenuControl{Game: x.ID, Ply: ply, Slot: "0"}.CustomID(), "A1")
		},
		"ask": func() *discordgo.InteractionResponse {
			return h.click(alice, AskControl{Game: x.ID, Ply: ply, Heap: 3}.CustomID())
		},
		"amount": func() *discordgo.InteractionResponse {
			return h.submit(alice, AmountModal{Game: x.ID, Ply: ply, Heap: 3}.CustomID(), "2")
		},
		"type": func() *discordgo.InteractionResponse {
			return h.click(alice, TypeControl{Game: x.ID, Ply: ply}.CustomID())
		},
		"typed": func() *discordgo.InteractionResponse {
			return h.submit(alice, TypedModal{Game: x.ID, Ply: ply}.CustomID(), "A1")
		},
		"hint": func() *discordgo.InteractionResponse {
			return h.click(alice, HintControl{Game: x.ID, Ply: ply}.CustomID())
		},
		"hint 3": func() *discordgo.InteractionResponse {
			return h.click(alice, HintControl{Game: x.ID, Ply: ply, Level: 3}.CustomID())
		},
		"resign": func() *discordgo.InteractionResponse {
			return h.click(alice, ResignControl{Game: x.ID, Ply: ply}.CustomID())
		},
		"accept":  func() *discordgo.InteractionResponse { return h.click(bob, AcceptControl{Game: c.ID}.CustomID()) },
		"decline": func() *discordgo.InteractionResponse { return h.click(bob, DeclineControl{Game: c.ID}.CustomID()) },
		"rematch in a free channel": func() *discordgo.InteractionResponse {
			return h.clickIn(alice, guildID, "1220000000000000005", RematchControl{Game: d.ID}.CustomID())
		},
	}
	for name, do := range cases {
		t.Run(name, func(t *testing.T) {
			wantUserError(t, do(), "another channel")
		})
	}
	// The same channel id named with another server: another place.
	wantUserError(t, h.clickIn(alice, otherGuild, chanA, MoveControl{Game: x.ID, Ply: ply, Heap: 0, Take: 1}.CustomID()), "another place")
	if got := h.gameByID(x.ID); got.Ply != x.Ply || got.Status != match.Active {
		t.Fatalf("game X changed from another channel: %+v", got)
	}
	if got := h.gameByID(y.ID); got.Ply != y.Ply || got.Status != match.Active {
		t.Fatalf("game Y changed: %+v", got)
	}
	if got := h.gameByID(c.ID); got.Status != match.Pending {
		t.Fatalf("the challenge in C was answered from B: %s", got.Status)
	}
	noGameIn(t, h, "1220000000000000005")
	if hinted, _ := h.db.HintUsed(context.Background(), x.ID, x.Ply, alice); hinted {
		t.Fatalf("a hint for X was recorded from another channel")
	}
	noLogs(t, h)

	// In its own channel the same control still works.
	h.channel = chanA
	if resp := h.click(alice, MoveControl{Game: x.ID, Ply: ply, Heap: 0, Take: 1}.CustomID()); isEphemeral(resp) {
		t.Fatalf("move in its own channel: %s", text(resp))
	}
}

// A review is shown only in the server its game was played in, or for a
// game in DMs to its players: game ids are sequential, so anything looser
// lets anyone read every server's games by counting.
func TestReviewOnlyInItsServer(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "opponent") // nimbot opens: one move to review
	g := h.game()
	h.command(alice, "resign")

	t.Run("same server, another channel", func(t *testing.T) {
		if resp := h.clickIn(carol, guildID, chanB, ReviewControl{Game: g.ID}.CustomID()); !strings.Contains(text(resp), "Review") {
			t.Fatalf("review in its server: %s", text(resp))
		}
	})
	t.Run("another server", func(t *testing.T) {
		wantUserError(t, h.clickIn(carol, otherGuild, otherGuildC, ReviewControl{Game: g.ID}.CustomID()), "played elsewhere")
	})
	t.Run("a DM", func(t *testing.T) {
		i := h.mutated("message_component.json", fields{UserID: carol, ChannelID: chanDM, CustomID: ReviewControl{Game: g.ID}.CustomID(), ComponentType: 2}, inDM(carol))
		wantUserError(t, h.handle(i), "played elsewhere")
	})

	// A game in DMs: its player may review it, nobody else.
	h.channel = chanDM
	h.commandWith("application_command_dm.json", fields{UserID: alice, ChannelID: chanDM, Sub: "start", Options: opts("first", "opponent")})
	dm := h.game()
	h.commandWith("application_command_dm.json", fields{UserID: alice, ChannelID: chanDM, Sub: "resign"})
	t.Run("DM game, its player", func(t *testing.T) {
		i := h.mutated("message_component.json", fields{UserID: alice, ChannelID: chanDM, CustomID: ReviewControl{Game: dm.ID}.CustomID(), ComponentType: 2}, inDM(alice))
		if resp := h.handle(i); !strings.Contains(text(resp), "Review") {
			t.Fatalf("review by its player: %s", text(resp))
		}
	})
	t.Run("DM game, someone else", func(t *testing.T) {
		wantUserError(t, h.clickIn(carol, guildID, chanA, ReviewControl{Game: dm.ID}.CustomID()), "played elsewhere")
		i := h.mutated("message_component.json", fields{UserID: carol, ChannelID: "1220000000000000098", CustomID: ReviewControl{Game: dm.ID}.CustomID(), ComponentType: 2}, inDM(carol))
		wantUserError(t, h.handle(i), "played elsewhere")
	})
	noLogs(t, h)
}

// Challenges one user sends at once in several channels all pass the
// cooldown's look before any is created: the store decides again as it
// creates them, so one challenge pings bob, and the rest are told to wait.
func TestChallengesAtOnceObeyTheCooldown(t *testing.T) {
	h := newHarness(t, 1)
	channels := []string{chanA, chanB, chanC, chanD}
	is := make([]*discordgo.Interaction, len(channels))
	for k, ch := range channels {
		is[k] = h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Options: opts("opponent", user(bob)), Type: 2, ChannelID: ch, ID: h.nextID()})
	}
	resps := make([]*discordgo.InteractionResponse, len(is))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for k, i := range is {
		wg.Go(func() {
			<-start
			resps[k], _, _ = h.svc.Handle(context.Background(), i)
		})
	}
	close(start)
	wg.Wait()
	challenges := 0
	for k, resp := range resps {
		if isEphemeral(resp) {
			wantUserError(t, resp, "Wait")
			noGameIn(t, h, channels[k])
			continue
		}
		challenges++
	}
	if challenges != 1 {
		t.Fatalf("%d challenges sent at once were created, want 1", challenges)
	}
	noLogs(t, h)
}

// A rematch between people is a challenge, and waits out the challenge
// cooldown like /nim start: rematch and /nim end in turns must not ping the
// opponent as fast as they are clicked, nor games against nimbot in between
// reset the wait.
func TestRematchObeysTheCooldown(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "opponent", user(bob))
	g := h.game()
	h.click(bob, AcceptControl{Game: g.ID}.CustomID())
	h.command(bob, "resign")
	h.now = h.now.Add(2 * DefaultChallengeCooldown)

	if resp := h.click(alice, RematchControl{Game: g.ID}.CustomID()); isEphemeral(resp) {
		t.Fatalf("first rematch: %s", text(resp))
	}
	first := h.game()
	h.command(alice, "end")
	h.now = h.now.Add(time.Second)
	wantUserError(t, h.click(alice, RematchControl{Game: g.ID}.CustomID()), "Wait")
	// A game against nimbot in between does not reset the cooldown.
	h.command(alice, "start")
	h.command(alice, "end")
	wantUserError(t, h.click(alice, RematchControl{Game: g.ID}.CustomID()), "Wait")
	wantUserError(t, h.command(alice, "start", "opponent", user(bob)), "Wait")
	noGameIn(t, h, chanA)
	if got := h.gameByID(first.ID); got.Status != match.Ended {
		t.Fatalf("first rematch: %s", got.Status)
	}
	// The other player's cooldown is their own.
	if resp := h.click(bob, RematchControl{Game: g.ID}.CustomID()); isEphemeral(resp) {
		t.Fatalf("bob's rematch: %s", text(resp))
	}
	h.command(bob, "end")
	// Once the cooldown is over, a rematch is a challenge again.
	h.now = h.now.Add(DefaultChallengeCooldown)
	if resp := h.click(alice, RematchControl{Game: g.ID}.CustomID()); isEphemeral(resp) {
		t.Fatalf("rematch after the cooldown: %s", text(resp))
	}
	noLogs(t, h)
}

// A custom_id naming a route of another interaction type is a bad request,
// answered as one, never a panic in a handler that reads data its
// interaction does not carry.
func TestRoutesAreSeparatePerInteractionType(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "heaps", "3 4 5", "first", "me")
	g := h.game()
	cases := map[string]func() *discordgo.InteractionResponse{
		"a command on a button":    func() *discordgo.InteractionResponse { return h.click(alice, "nim/start") },
		"a command on a menu":      func() *discordgo.InteractionResponse { return h.choose(alice, "nim/move", "A1") },
		"a command in a modal":     func() *discordgo.InteractionResponse { return h.submit(alice, "nim/move", "A1") },
		"autocomplete on a button": func() *discordgo.InteractionResponse { return h.click(alice, "autocomplete/nim/start") },
		"a modal's route on a button": func() *discordgo.InteractionResponse {
			return h.click(alice, TypedModal{Game: g.ID, Ply: g.Ply}.CustomID())
		},
		"a modal's route on a menu": func() *discordgo.InteractionResponse {
			return h.choose(alice, AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID(), "1")
		},
		"a menu's route in a modal": func() *discordgo.InteractionResponse {
			return h.submit(alice, MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: "0"}.CustomID(), "A1")
		},
		"a heap menu's route in a modal": func() *discordgo.InteractionResponse {
			return h.submit(alice, HeapMenuControl{Game: g.ID, Ply: g.Ply}.CustomID(), "0")
		},
		"a button's route in a modal": func() *discordgo.InteractionResponse {
			return h.submit(alice, MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 1}.CustomID(), "1")
		},
		"a hint button's route in a modal": func() *discordgo.InteractionResponse {
			return h.submit(alice, HintControl{Game: g.ID, Ply: g.Ply}.CustomID(), "1")
		},
		"a challenge button's route in a modal": func() *discordgo.InteractionResponse { return h.submit(bob, AcceptControl{Game: g.ID}.CustomID(), "1") },
	}
	for name, do := range cases {
		t.Run(name, func(t *testing.T) { wantUserError(t, do(), "Bad request") })
	}
	if got := h.game(); got.Ply != g.Ply {
		t.Fatalf("a mismatched route moved the game: %+v", got)
	}
	noLogs(t, h)
}

// A custom_id longer than Discord's 100 characters is none of nimbot's:
// it is refused before any route splits it, and one of 100 that names no
// control is answered as unknown.
func TestLongCustomIDIsRefused(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "heaps", "3 4 5", "first", "me")
	g := h.game()
	long := MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 1}.CustomID() + strings.Repeat("/", 1<<20)
	wantUserError(t, h.click(alice, long), "longer than the 100 characters")
	wantUserError(t, h.submit(alice, long, "A1"), "longer than the 100 characters")
	wantUserError(t, h.click(alice, strings.Repeat("é", 101)), "longer than the 100 characters")
	wantUserError(t, h.click(alice, strings.Repeat("é", 100)), "does not know that control")
	if got := h.game(); got.Ply != g.Ply {
		t.Fatalf("a long custom_id moved the game: %+v", got)
	}
	noLogs(t, h)
}

// Fields Discord always sends are checked, not trusted: a request without
// them, or with values outside what the command declares, is refused with
// the reason and changes nothing.
func TestFieldsDiscordAlwaysSendsAreChecked(t *testing.T) {
	h := newHarness(t, 1)
	start := func(options string, mutate func(map[string]any)) *discordgo.InteractionResponse {
		return h.handle(h.mutated("application_command.json", fields{UserID: alice, Sub: "start", Type: 2, Options: options}, mutate))
	}
	cases := []struct {
		name    string
		options string
		mutate  func(map[string]any)
		want    string
	}{
		{"no member or user", "[]", func(m map[string]any) { delete(m, "member") }, "who sent it"},
		{"member without user", "[]", func(m map[string]any) { delete(m["member"].(map[string]any), "user") }, "who sent it"},
		{"user id of nimbot's own seat", "[]", func(m map[string]any) {
			m["member"].(map[string]any)["user"].(map[string]any)["id"] = match.BotID
		}, "not a Discord user id"},
		{"user id that is no snowflake", "[]", func(m map[string]any) {
			m["member"].(map[string]any)["user"].(map[string]any)["id"] = "alice"
		}, "not a Discord user id"},
		{"user id of the application", "[]", func(m map[string]any) {
			m["member"].(map[string]any)["user"].(map[string]any)["id"] = appID
		}, "does not play itself"},
		{"no channel", "[]", func(m map[string]any) { delete(m, "channel_id"); delete(m, "channel") }, "which channel"},
		{"no interaction id", "[]", func(m map[string]any) { delete(m, "id") }, "no valid id"},
		{"a guild id that is no snowflake", "[]", func(m map[string]any) { m["guild_id"] = "guild" }, "not a Discord server id"},
		{"k=0", `[{"name":"variant","type":3,"value":"subtraction"},{"name":"k","type":4,"value":0}]`, nil, "The option k must be from 1 to 20"},
		{"k=2^63", `[{"name":"variant","type":3,"value":"subtraction"},{"name":"k","type":4,"value":9223372036854775808}]`, nil, "The option k must be from 1 to 20; 9223372036854776000 is out of range"},
		// A value Discord's client could never send is echoed short, not
		// as its three hundred digits.
		{"k=1e300", `[{"name":"variant","type":3,"value":"subtraction"},{"name":"k","type":4,"value":1e300}]`, nil, "The option k must be from 1 to 20; 1e+300 is out of range"},
		{"k=10^9", `[{"name":"variant","type":3,"value":"subtraction"},{"name":"k","type":4,"value":1000000000}]`, nil, "The option k must be from 1 to 20"},
		{"k=2.5", `[{"name":"variant","type":3,"value":"subtraction"},{"name":"k","type":4,"value":2.5}]`, nil, "The option k must be a whole number"},
		{"k as text", `[{"name":"variant","type":3,"value":"subtraction"},{"name":"k","type":3,"value":"3"}]`, nil, "The option k must be a whole number"},
		{`misere:"yes"`, `[{"name":"misere","type":5,"value":"yes"}]`, nil, "The option misere must be True or False"},
		{"target=1", `[{"name":"variant","type":3,"value":"21"},{"name":"target","type":4,"value":1}]`, nil, "The option target must be from 2 to 1,000"},
		{"an unknown variant", `[{"name":"variant","type":3,"value":"chess"}]`, nil, "The option variant must be one of"},
		{"an unknown first mover", `[{"name":"first","type":3,"value":"nobody"}]`, nil, "The option first must be one of"},
		{"heaps over max_length", `[{"name":"heaps","type":3,"value":"` + strings.Repeat("1 ", 60) + `"}]`, nil, "at most 100 characters"},
		{"an undeclared option", `[{"name":"rated","type":5,"value":true}]`, nil, "has no option"},
		{"an option given twice", `[{"name":"misere","type":5,"value":true},{"name":"misere","type":5,"value":false}]`, nil, "given twice"},
		{"an option without a value", `[{"name":"misere","type":5}]`, nil, "The option misere must be True or False"},
		{"opponent: nimbot's seat", `[{"name":"opponent","type":6,"value":"bot"}]`, nil, "The option opponent must be a user"},
		// The options of /nim come as one subcommand with its options in
		// it; in any other shape they would reach the handler unchecked.
		{"an option beside the subcommand", `[]`, withCommandOptions(func(sub any) []any {
			return []any{sub, map[string]any{"name": "opponent", "type": 6, "value": strings.Repeat("x", 3000)}}
		}), "exactly one subcommand"},
		{"a subcommand group", `[{"name":"opponent","type":6,"value":"x"}]`, withCommandOptions(func(sub any) []any {
			sub.(map[string]any)["type"] = 2
			return []any{sub}
		}), "exactly one subcommand"},
		{"a null option", `[]`, withCommandOptions(func(any) []any { return []any{nil} }), "exactly one subcommand"},
		{"a null option beside the subcommand", `[]`, withCommandOptions(func(sub any) []any { return []any{sub, nil} }), "exactly one subcommand"},
		{"a null option in the subcommand", `[null]`, nil, "carries an empty option"},
		{"no subcommand", `[]`, withCommandOptions(func(any) []any { return []any{} }), "exactly one subcommand"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantUserError(t, start(c.options, c.mutate), c.want)
			noGameIn(t, h, chanA)
			noGameIn(t, h, "")
		})
	}
	t.Run("a move without a user cannot play anyone's game", func(t *testing.T) {
		h.command(alice, "start", "first", "me")
		g := h.game()
		i := h.mutated("message_component.json", fields{UserID: alice, CustomID: MoveControl{Game: g.ID, Ply: g.Ply, Heap: 0, Take: 1}.CustomID(), ComponentType: 2}, func(m map[string]any) { delete(m, "member") })
		wantUserError(t, h.handle(i), "who sent it")
		if got := h.game(); got.Ply != g.Ply {
			t.Fatalf("a user-less click moved: %+v", got)
		}
	})
	t.Run("autocomplete with a null option", func(t *testing.T) {
		i := h.mutated("application_command.json", fields{UserID: alice, Sub: "start", Type: 4, Options: `[{"name":"variant","type":3,"value":"mo","focused":true}]`},
			withCommandOptions(func(sub any) []any { return []any{sub, nil} }))
		resp := h.handle(i)
		if resp.Type != discordgo.InteractionApplicationCommandAutocompleteResult || resp.Data == nil || len(resp.Data.Choices) != 0 {
			t.Fatalf("a malformed autocomplete is answered with no choices, got %+v", resp)
		}
	})
	t.Run("hint level outside its choices", func(t *testing.T) {
		wantUserError(t, h.command(alice, "hint", "level", 4), "The option level must be one of 1, 2, 3")
	})
	t.Run("take below its minimum", func(t *testing.T) {
		wantUserError(t, h.command(alice, "move", "heap", "A", "take", 0), "The option take must be from 1 to 9,007,199,254,740,992")
	})
	noLogs(t, h)
}
