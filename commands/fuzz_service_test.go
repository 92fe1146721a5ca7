package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// FuzzService feeds raw interaction JSON, decoded as discordgo decodes
// Discord's payloads, through the whole Service over a real SQLite file:
// every route of every interaction type, forged, truncated or mistyped.
// Whatever arrives is answered with a well-formed response, never by a
// panic (the recoverer logs one as "panic: ..."), and never by an internal
// error: a hostile payload is the client's mistake, not ours.
func FuzzService(f *testing.F) {
	h := newHarness(f, 1)
	for _, seed := range serviceSeeds(h) {
		f.Add(seed)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, raw []byte) {
		var i discordgo.Interaction
		if err := json.Unmarshal(raw, &i); err != nil {
			return // discordgo would have dropped it before nimbot saw it
		}
		h.logs.Reset()
		resp, _, _ := h.svc.Handle(ctx, &i)
		if resp == nil {
			t.Fatalf("no response to %s", raw)
		}
		checkResponse(t, resp)
		if logs := h.logs.String(); logs != "" {
			if strings.Contains(logs, "panic") {
				t.Fatalf("a handler panicked on %s:\n%s", raw, logs)
			}
			t.Fatalf("an internal error on %s:\n%s", raw, logs)
		}
		if resp.Type == discordgo.InteractionResponsePong && i.Type != discordgo.InteractionPing {
			t.Fatalf("PONG to an interaction of type %d", i.Type)
		}
	})
}

// serviceSeeds sets up a game against nimbot, a challenge, a finished game
// and a game in DMs, and returns a payload for every route of every
// interaction type against them, each also sent as the other types and with
// the fields Discord always sends dropped one at a time.
func serviceSeeds(h *harness) [][]byte {
	h.channel = chanA
	h.command(alice, "start", "heaps", "3 4 5 30", "first", "me")
	live := h.game()
	h.channel = chanB
	h.command(alice, "start", "opponent", user(bob))
	challenge := h.game()
	h.channel = chanC
	h.command(alice, "start", "first", "opponent")
	done := h.game()
	h.command(alice, "resign")
	h.channel = chanDM
	h.commandWith("application_command_dm.json", fields{UserID: alice, ChannelID: chanDM, Sub: "start", Options: opts("first", "me")})
	dm := h.game()
	h.channel = chanA

	type control struct {
		channel, customID, values, value string
	}
	g, p := live.ID, live.Ply
	components := []control{
		{chanB, AcceptControl{Game: challenge.ID}.CustomID(), "", ""},
		{chanB, DeclineControl{Game: challenge.ID}.CustomID(), "", ""},
		{chanA, HeapControl{Game: g, Ply: p, Heap: 0}.CustomID(), "", ""},
		{chanA, HeapMenuControl{Game: g, Ply: p}.CustomID(), `["1"]`, ""},
		{chanA, MoveControl{Game: g, Ply: p, Heap: 0, Take: 1}.CustomID(), "", ""},
		{chanA, MoveMenuControl{Game: g, Ply: p, Slot: "0"}.CustomID(), `["A1"]`, ""},
		{chanA, AskControl{Game: g, Ply: p, Heap: 3}.CustomID(), "", ""},
		{chanA, TypeControl{Game: g, Ply: p}.CustomID(), "", ""},
		{chanA, TypeControl{Game: g, Ply: p, Slot: "0"}.CustomID(), "", ""},
		{chanA, HintControl{Game: g, Ply: p}.CustomID(), "", ""},
		{chanA, HintControl{Game: g, Ply: p, Level: 3}.CustomID(), "", ""},
		{chanA, ResignControl{Game: g, Ply: p}.CustomID(), "", ""},
		{chanC, RematchControl{Game: done.ID}.CustomID(), "", ""},
		{chanC, ReviewControl{Game: done.ID}.CustomID(), "", ""},
		{chanDM, MoveControl{Game: dm.ID, Ply: dm.Ply, Heap: 0, Take: 1}.CustomID(), "", ""},
	}
	components = append(components,
		control{chanA, "pzplay/nimsum.1.7/1300000000000000001/-", `["0"]`, ""},
		control{chanA, "pzplay/21.4.0/1300000000000000001/0", `["1"]`, ""},
		control{chanA, "pztype/wythoff.2.3/1300000000000000001/-", "", ""},
		control{chanA, "pzshare/21.1.7/1300000000000000001/0", "", ""},
		control{chanA, "pznext/grundy.3.1/1300000000000000001/0/2", "", ""},
		control{chanA, "learn/3/1", "", ""},
		control{chanA, "learnsel/0", `["4"]`, ""},
		control{chanA, "lxplay/2/0/-", `["0"]`, ""},
		control{chanA, "lxtype/5/1/-", "", ""},
	)
	modals := []control{
		{chanA, "pztyped/nimsum.2.5/1300000000000000001/-", "", `"A1"`},
		{chanA, "lxtyped/6/0/-", "", `"A1"`},
		{chanA, AmountModal{Game: g, Ply: p, Heap: 3}.CustomID(), "", `"7"`},
		{chanA, TypedModal{Game: g, Ply: p}.CustomID(), "", `"B2"`},
		{chanA, TypedModal{Game: g, Ply: p}.CustomID(), "", `"D=1+2"`},
	}
	type command struct {
		sub, options string
	}
	commands := []command{
		{"start", opts("variant", "subtraction", "k", 4, "heaps", "5 9", "misere", true, "first", "opponent", "difficulty", "hard")},
		{"start", opts("opponent", user(bob), "hints", false, "variant", "kayles", "heaps", "random 3")},
		{"start", opts("variant", "21", "target", 30, "k", 4)},
		{"start", opts("variant", "subtraction", "set", "1,3,4", "heaps", "9")},
		{"move", opts("heap", "A", "take", 1)},
		{"move", opts("notation", "B2")},
		{"move", opts("heap", "B", "pin", 2, "take", 2)},
		{"move", opts("both", true, "take", 1)},
		{"move", opts("heap", "D", "split", "1+2")},
		{"hint", opts("level", 3)},
		{"resign", "[]"},
		{"status", "[]"},
		{"rules", opts("variant", "lasker")},
		{"analyze", opts("position", "nim misere 3-4-5", "public", true)},
		{"stats", opts("user", user(bob), "variant", "nim")},
		{"leaderboard", opts("variant", "wythoff")},
		{"leaderboard", opts("puzzles", true)},
		{"puzzle", opts("theme", "grundy")},
		{"puzzle", opts("streak", true)},
		{"learn", "[]"},
		{"daily", "[]"},
		{"end", "[]"},
		{"nosuch", "[]"},
	}
	autocompletes := []command{
		{"start", `[{"name":"variant","type":3,"value":"kayles"},{"name":"heaps","type":3,"value":"3 ","focused":true}]`},
		{"move", `[{"name":"heap","type":3,"value":"","focused":true}]`},
		{"move", `[{"name":"notation","type":3,"value":"A","focused":true}]`},
		{"move", `[{"name":"take","type":4,"value":"1","focused":true}]`},
		{"analyze", `[{"name":"position","type":3,"value":"wythoff 3","focused":true}]`},
	}

	var seeds [][]byte
	add := func(b []byte) {
		seeds = append(seeds, b)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			h.t.Fatalf("seed does not decode: %v\n%s", err, b)
		}
		for _, drop := range []string{"member", "user", "channel_id", "data", "id", "guild_id", "type"} {
			if _, ok := m[drop]; !ok {
				continue
			}
			c := map[string]any{}
			for k, v := range m {
				if k != drop {
					c[k] = v
				}
			}
			mb, _ := json.Marshal(c)
			seeds = append(seeds, mb)
		}
		if mem, ok := m["member"].(map[string]any); ok {
			// A member without a user, and one whose user is nimbot's seat.
			for _, u := range []any{nil, map[string]any{"id": "bot", "username": "bot"}} {
				c := map[string]any{}
				for k, v := range m {
					c[k] = v
				}
				cm := map[string]any{}
				for k, v := range mem {
					cm[k] = v
				}
				if u == nil {
					delete(cm, "user")
				} else {
					cm["user"] = u
				}
				c["member"] = cm
				mb, _ := json.Marshal(c)
				seeds = append(seeds, mb)
			}
		}
	}
	component := func(c control, who string, componentType int) []byte {
		return h.render("message_component.json", fields{UserID: who, ChannelID: c.channel, CustomID: c.customID, Values: c.values, ComponentType: componentType})
	}
	modal := func(c control, who string) []byte {
		v := c.value
		if v == "" {
			v = `"1"`
		}
		return h.render("modal_submit.json", fields{UserID: who, ChannelID: c.channel, CustomID: c.customID, Value: v})
	}
	for _, c := range components {
		who := alice
		if strings.HasPrefix(c.customID, "accept") || strings.HasPrefix(c.customID, "decline") {
			who = bob
		}
		kind := 2
		if c.values != "" {
			kind = 3
		}
		if c.channel == chanDM {
			b := component(c, who, kind)
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			inDM(who)(m)
			b, _ = json.Marshal(m)
			add(b)
			continue
		}
		add(component(c, who, kind))
		add(modal(c, who)) // a component's route in a modal
	}
	for _, c := range modals {
		add(modal(c, alice))
		add(component(c, alice, 2)) // a modal's route on a button
	}
	for _, c := range commands {
		add(h.render("application_command.json", fields{UserID: alice, Sub: c.sub, Options: c.options, Type: 2}))
		add(component(control{chanA, "nim/" + c.sub, "", ""}, alice, 2)) // a command's route on a button
	}
	add(h.render("application_command_dm.json", fields{UserID: alice, ChannelID: chanDM, Sub: "status", Type: 2}))
	for _, c := range autocompletes {
		add(h.render("application_command.json", fields{UserID: alice, Sub: c.sub, Options: c.options, Type: 4}))
		add(component(control{chanA, "autocomplete/nim/" + c.sub, "", ""}, alice, 2))
	}
	ping, err := fixtureFile("ping.json")
	if err != nil {
		h.t.Fatal(err)
	}
	add(ping)
	// Types nimbot does not handle, with a command's data.
	for _, t := range []int{0, 6, 99} {
		add(h.render("application_command.json", fields{UserID: alice, Sub: "status", Type: t}))
	}
	return seeds
}

// fixtureFile is a fixture that needs no fields.
func fixtureFile(name string) ([]byte, error) {
	var b strings.Builder
	if err := fixtures.ExecuteTemplate(&b, name, nil); err != nil {
		return nil, fmt.Errorf("fixture %s: %w", name, err)
	}
	return []byte(b.String()), nil
}

// FuzzServiceFields is FuzzService with the mutations aimed: most byte-level
// mutations of JSON are no longer JSON, so this target keeps each seed
// well-formed and puts the fuzzed text or number into one field a hostile
// client controls (a custom_id, a menu value, a modal's text, an option's
// value or name, a user, channel, server or interaction id, the type).
func FuzzServiceFields(f *testing.F) {
	h := newHarness(f, 2)
	seeds := serviceSeeds(h)
	for k := range 12 {
		f.Add(uint16(k*7), uint8(k), "move/1/0/0/1", int64(k))
		f.Add(uint16(k*11), uint8(k), "A1", int64(-k))
	}
	ctx := context.Background()
	execs := 0
	f.Fuzz(func(t *testing.T, seed uint16, kind uint8, s string, n int64) {
		var m map[string]any
		if err := json.Unmarshal(seeds[int(seed)%len(seeds)], &m); err != nil {
			t.Fatal(err)
		}
		// A fresh interaction id, or the saved answer of the seed's first
		// delivery would answer every mutation of it.
		execs++
		m["id"] = fmt.Sprintf("14%017d", execs)
		data, _ := m["data"].(map[string]any)
		sub := func() map[string]any {
			if data == nil {
				return nil
			}
			opts, _ := data["options"].([]any)
			if len(opts) == 0 {
				return nil
			}
			o, _ := opts[0].(map[string]any)
			return o
		}
		firstOption := func() map[string]any {
			o := sub()
			if o == nil {
				return nil
			}
			opts, _ := o["options"].([]any)
			if len(opts) == 0 {
				return nil
			}
			x, _ := opts[int(n&0xff)%len(opts)].(map[string]any)
			return x
		}
		switch kind % 13 {
		case 0:
			if data != nil {
				data["custom_id"] = s
			}
		case 1:
			if data != nil {
				data["values"] = []any{s}
			}
		case 2:
			if data != nil {
				data["components"] = []any{map[string]any{"type": 1, "components": []any{map[string]any{"type": 4, "custom_id": "value", "value": s}}}}
			}
		case 3:
			if o := firstOption(); o != nil {
				o["value"] = s
			}
		case 4:
			if o := firstOption(); o != nil {
				o["value"] = n
			}
		case 5:
			if o := firstOption(); o != nil {
				o["type"] = n
			}
		case 6:
			if o := sub(); o != nil {
				o["name"] = s
			}
		case 7:
			if mem, ok := m["member"].(map[string]any); ok {
				if u, ok := mem["user"].(map[string]any); ok {
					u["id"] = s
				}
			} else if u, ok := m["user"].(map[string]any); ok {
				u["id"] = s
			}
		case 8:
			m["channel_id"] = s
		case 9:
			m["guild_id"] = s
		case 10:
			m["type"] = n
		case 11:
			if o := firstOption(); o != nil {
				o["focused"] = true
				o["value"] = s
			}
			m["type"] = 4
		case 12:
			m["id"] = s
		}
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var i discordgo.Interaction
		if err := json.Unmarshal(raw, &i); err != nil {
			return
		}
		h.logs.Reset()
		resp, _, _ := h.svc.Handle(ctx, &i)
		if resp == nil {
			t.Fatalf("no response to %s", raw)
		}
		checkResponse(t, resp)
		if logs := h.logs.String(); logs != "" {
			t.Fatalf("an internal error or panic on %s:\n%s", raw, logs)
		}
	})
}
