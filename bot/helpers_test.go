package bot_test

import (
	"encoding/json"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
)

// user is a Discord user in the fixtures.
type user struct{ ID, Name string }

var (
	alice = user{"1200000000000000001", "alice"}
	bob   = user{"1200000000000000002", "bob"}
	carol = user{"1200000000000000003", "carol"}
)

// answerKey is the key the store saves the answer to payload under.
func answerKey(t testing.TB, payload []byte) string {
	t.Helper()
	var i discordgo.Interaction
	if err := json.Unmarshal(payload, &i); err != nil {
		t.Fatalf("payload: %v", err)
	}
	return commands.AnswerKey(&i)
}

// payloads builds interaction payloads from the documented fixtures in
// testdata/, each with a fresh id and token.
type payloads struct {
	t       testing.TB
	channel string
	guild   string // "": the fixtures' guild
	// groupDM makes the payloads a group DM's, nimbot installed to alice's
	// account: no guild, context 2, authorizing_integration_owners {"1": alice}.
	groupDM bool
	// n counts the interactions made, from a start of their own in each
	// channel: ids are unique per bot, and the store answers a repeated id
	// with the saved answer.
	n atomic.Int64
}

func newPayloads(t testing.TB, channel string) *payloads {
	return &payloads{t: t, channel: channel}
}

// inGuild returns payloads for another channel, in guild.
func (p *payloads) inGuild(channel, guild string, first int64) *payloads {
	q := &payloads{t: p.t, channel: channel, guild: guild}
	q.n.Store(first)
	return q
}

func (p *payloads) load(name string) map[string]any {
	p.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(fixture(p.t, name), &m); err != nil {
		p.t.Fatalf("%s: %v", name, err)
	}
	n := p.n.Add(1)
	m["id"] = strconv.FormatInt(1210000000000000000+n, 10)
	m["token"] = "interaction-token-" + p.channel + "-" + strconv.FormatInt(n, 10)
	m["channel_id"] = p.channel
	if ch, ok := m["channel"].(map[string]any); ok {
		ch["id"] = p.channel
		if p.guild != "" {
			ch["guild_id"] = p.guild
		}
	}
	if p.guild != "" {
		m["guild_id"] = p.guild
		// A guild install's owner is the server it is in.
		if owners, ok := m["authorizing_integration_owners"].(map[string]any); ok && owners["0"] != nil {
			owners["0"] = p.guild
		}
	}
	if p.groupDM {
		for _, k := range []string{"guild_id", "guild", "guild_locale"} {
			delete(m, k)
		}
		m["context"] = 2
		m["authorizing_integration_owners"] = map[string]any{"1": alice.ID}
		m["channel"] = map[string]any{"id": p.channel, "type": 3, "flags": 0, "name": nil, "icon": nil, "owner_id": alice.ID,
			"recipients": []any{map[string]any{"id": alice.ID, "username": alice.Name}, map[string]any{"id": bob.ID, "username": bob.Name}}}
		m["user"] = m["member"].(map[string]any)["user"]
	}
	return m
}

func setUser(m map[string]any, u user) {
	if mu, ok := m["user"].(map[string]any); ok {
		// A DM's payload: the user alone, no member.
		delete(m, "member")
		mu["id"], mu["username"], mu["global_name"] = u.ID, u.Name, u.Name
		return
	}
	member := m["member"].(map[string]any)
	mu := member["user"].(map[string]any)
	mu["id"], mu["username"], mu["global_name"] = u.ID, u.Name, u.Name
}

func (p *payloads) marshal(m map[string]any) json.RawMessage {
	p.t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		p.t.Fatal(err)
	}
	return b
}

// opt is one option of a slash command: a string, an int or a user.
type opt struct {
	Name  string
	Value any
}

// command is /nim <sub> with options, from u.
func (p *payloads) command(u user, sub string, opts ...opt) json.RawMessage {
	p.t.Helper()
	m := p.load("command.json")
	setUser(m, u)
	var os []any
	users := map[string]any{}
	for _, o := range opts {
		var typ int
		value := o.Value
		switch v := o.Value.(type) {
		case string:
			typ = 3
		case int:
			typ = 4
		case bool:
			typ = 5
		case user:
			typ, value = 6, v.ID
			users[v.ID] = map[string]any{"id": v.ID, "username": v.Name, "global_name": v.Name, "discriminator": "0", "avatar": nil, "public_flags": 0}
		default:
			p.t.Fatalf("option %s: unsupported type %T", o.Name, o.Value)
		}
		os = append(os, map[string]any{"name": o.Name, "type": typ, "value": value})
	}
	data := m["data"].(map[string]any)
	data["options"] = []any{map[string]any{"name": sub, "type": 1, "options": os}}
	if len(users) > 0 {
		data["resolved"] = map[string]any{"users": users}
	}
	return p.marshal(m)
}

// click is a press of the button customID on message, from u; values makes
// it a select menu choice.
func (p *payloads) click(u user, message json.RawMessage, customID string, values ...string) json.RawMessage {
	p.t.Helper()
	m := p.load("component.json")
	setUser(m, u)
	var msg map[string]any
	if err := json.Unmarshal(message, &msg); err != nil {
		p.t.Fatal(err)
	}
	m["message"] = msg
	data := m["data"].(map[string]any)
	data["custom_id"] = customID
	if values != nil {
		data["component_type"] = 3
		data["values"] = values
	}
	return p.marshal(m)
}
