package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The construction the client used before payloads were appended as bytes
// and answers read by hand: encoding/json over maps and structs. The tests
// below hold the new code to it.

func oldUser(id string) map[string]any {
	short := id[max(0, len(id)-4):]
	return map[string]any{"id": id, "username": "player" + short, "global_name": "Player " + short, "discriminator": "0", "avatar": nil, "public_flags": 0}
}

type oldInteraction struct {
	AppPermissions string          `json:"app_permissions"`
	AppID          string          `json:"application_id"`
	Channel        map[string]any  `json:"channel"`
	ChannelID      string          `json:"channel_id"`
	Context        int             `json:"context"`
	Data           any             `json:"data"`
	Entitlements   []any           `json:"entitlements"`
	GuildID        string          `json:"guild_id"`
	GuildLocale    string          `json:"guild_locale"`
	ID             string          `json:"id"`
	Locale         string          `json:"locale"`
	Member         map[string]any  `json:"member"`
	Message        json.RawMessage `json:"message,omitempty"`
	Token          string          `json:"token"`
	Type           int             `json:"type"`
	Version        int             `json:"version"`
}

func oldBase(p *player, who string, typ int, id, token string) oldInteraction {
	return oldInteraction{
		AppPermissions: "562949953601536", AppID: appID,
		Channel:   map[string]any{"id": p.channel, "guild_id": p.guild, "name": "nim-games", "type": 0, "flags": 0, "permissions": "2248473465835073"},
		ChannelID: p.channel, Entitlements: []any{}, GuildID: p.guild, GuildLocale: "en-US",
		ID: id, Locale: "en-US", Token: token, Type: typ, Version: 1,
		Member: map[string]any{"user": oldUser(who), "roles": []string{}, "joined_at": "2024-05-01T12:00:00.000000+00:00",
			"permissions": "2248473465835073", "deaf": false, "mute": false, "flags": 0, "pending": false},
	}
}

// oldStart is the old start's options and resolved data, for p's users.
func oldStart(p *player) ([]map[string]any, any) {
	opts := []map[string]any{{"name": "heaps", "type": 3, "value": p.l.heaps}}
	var resolved any
	if p.isPeople() {
		opts = append(opts,
			map[string]any{"name": "opponent", "type": 6, "value": p.users[1]},
			map[string]any{"name": "first", "type": 3, "value": "me"})
		resolved = map[string]any{
			"users":   map[string]any{p.users[1]: oldUser(p.users[1])},
			"members": map[string]any{p.users[1]: map[string]any{"roles": []string{}, "joined_at": "2024-05-01T12:00:00.000000+00:00", "permissions": "2248473465835073", "flags": 0}},
		}
	}
	return opts, resolved
}

func oldCommand(p *player, who, sub string, opts []map[string]any, resolved any, id, token string) []byte {
	in := oldBase(p, who, 2, id, token)
	if opts == nil {
		opts = []map[string]any{}
	}
	data := map[string]any{"id": "1300000000000000001", "name": "nim", "type": 1,
		"options": []map[string]any{{"name": sub, "type": 1, "options": opts}}}
	if resolved != nil {
		data["resolved"] = resolved
	}
	in.Data = data
	body, _ := json.Marshal(in)
	return body
}

// oldBoard is what the old client kept of an answer for the next click.
type oldBoard struct {
	msgID      string
	content    string
	components json.RawMessage
	embeds     json.RawMessage
}

func oldClick(p *player, b *oldBoard, who, customID, value, id, token string) []byte {
	in := oldBase(p, who, 3, id, token)
	data := map[string]any{"component_type": 2, "custom_id": customID}
	if value != "" {
		data["component_type"] = 3
		data["values"] = []string{value}
	}
	in.Data = data
	in.Message = oldMessage(b, p.channel)
	body, _ := json.Marshal(in)
	return body
}

func oldMessage(b *oldBoard, channel string) json.RawMessage {
	msg, _ := json.Marshal(map[string]any{
		"id": b.msgID, "channel_id": channel, "application_id": appID, "type": 20,
		"author":  map[string]any{"id": appID, "username": "nimbot", "discriminator": "0000", "bot": true, "avatar": nil},
		"content": b.content, "components": b.components, "embeds": b.embeds,
		"attachments": []any{}, "mentions": []any{}, "mention_roles": []any{}, "pinned": false, "tts": false,
		"timestamp": "2026-01-01T12:00:00.000000+00:00", "edited_timestamp": nil, "flags": 0,
	})
	return msg
}

type oldData struct {
	Content    string          `json:"content"`
	Flags      int             `json:"flags"`
	Components json.RawMessage `json:"components"`
	Embeds     json.RawMessage `json:"embeds"`
}

type oldResponse struct {
	Type int      `json:"type"`
	Data *oldData `json:"data"`
}

type oldComponent struct {
	Type       int                      `json:"type"`
	CustomID   string                   `json:"custom_id"`
	Disabled   bool                     `json:"disabled"`
	Options    []struct{ Value string } `json:"options"`
	Components []oldComponent           `json:"components"`
}

// sameJSON fails unless got and want hold the same JSON: the same fields,
// with the same values (numbers as written), whatever their order.
func sameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	decode := func(b []byte) any {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s: %v in %s", what, err, b)
		}
		return v
	}
	if !reflect.DeepEqual(decode(got), decode(want)) {
		t.Fatalf("%s differs\nnew: %s\nold: %s", what, got, want)
	}
}

// sameDecoding fails unless decodeAnswer (or decodeData, when data) reads
// body as json.Unmarshal read it into the old structs: both refuse it, or
// both read the same type, flags, content, components and embeds.
func sameDecoding(t *testing.T, body []byte, data bool) {
	t.Helper()
	var old oldResponse
	var oldErr, err error
	var typ int
	var d *answerData
	if data {
		oldErr = json.Unmarshal(body, &old.Data)
		d, err = decodeData(body)
	} else {
		oldErr = json.Unmarshal(body, &old)
		typ, d, err = decodeAnswer(body)
	}
	if (err == nil) != (oldErr == nil) {
		t.Fatalf("%q: decoding error %v, json.Unmarshal's %v", body, err, oldErr)
	}
	if err != nil {
		return
	}
	if typ != old.Type || (d == nil) != (old.Data == nil) {
		t.Fatalf("%q: type %d data %v, json.Unmarshal's type %d data %v", body, typ, d != nil, old.Type, old.Data != nil)
	}
	if d == nil {
		return
	}
	o := old.Data
	if d.flags != o.Flags || d.text() != o.Content || !bytes.Equal(d.components, o.Components) || !bytes.Equal(d.embeds, o.Embeds) {
		t.Fatalf("%q: read flags %d content %q components %q embeds %q; json.Unmarshal's %d %q %q %q",
			body, d.flags, d.text(), d.components, d.embeds, o.Flags, o.Content, o.Components, o.Embeds)
	}
	var comps []oldComponent
	var compErr error
	if len(o.Components) > 0 {
		compErr = json.Unmarshal(o.Components, &comps)
	}
	if (d.compErr == nil) != (compErr == nil) {
		t.Fatalf("%q: components error %v, json.Unmarshal's %v", body, d.compErr, compErr)
	}
	if compErr == nil && componentsString(d.comps) != oldComponentsString(comps) {
		t.Fatalf("%q: components %s, json.Unmarshal's %s", body, componentsString(d.comps), oldComponentsString(comps))
	}
}

func componentsString(cs []component) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "{%d %q %v %q %s}", c.typ, c.customID, c.disabled, c.options, componentsString(c.components))
	}
	return b.String()
}

func oldComponentsString(cs []oldComponent) string {
	var b strings.Builder
	for _, c := range cs {
		var opts []string
		for _, o := range c.Options {
			opts = append(opts, o.Value)
		}
		fmt.Fprintf(&b, "{%d %q %v %q %s}", c.Type, c.CustomID, c.Disabled, opts, oldComponentsString(c.Components))
	}
	return b.String()
}

// TestPayloads plays games against a real in-process server, channels
// against nimbot and between people, on boards with buttons and with
// menus, and holds every interaction the client sends to the old
// construction (the same JSON, field for field) and every answer's reading
// to json.Unmarshal's.
func TestPayloads(t *testing.T) {
	ctx := context.Background()
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := startServer(ctx, filepath.Join(t.TempDir(), "nimbot.db"), priv.Public().(ed25519.PublicKey), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	seen := map[string]int{}
	for _, heaps := range [][]int64{{3, 4, 5}, {9, 16, 25}} {
		o, err := parseFlags([]string{"-channels", "2", "-people", "0.5"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		l := newLoader([]string{srv.url}, priv, o, heaps, srv)
		defer l.close()
		for _, p := range l.players {
			var ob *oldBoard
			for step := 0; step < 40; step++ {
				if step == 25 {
					p.recover() // ask for the board with /nim status
					ob = nil
				}
				rq := p.next()
				var sent struct {
					ID, Token string
					Data      struct {
						CustomID string   `json:"custom_id"`
						Values   []string `json:"values"`
					}
				}
				if err := json.Unmarshal(rq.body(), &sent); err != nil {
					t.Fatalf("%s: %v in %s", rq.what, err, rq.body())
				}
				var want []byte
				switch rq.what {
				case "start":
					opts, resolved := oldStart(p)
					want = oldCommand(p, rq.user, "start", opts, resolved, sent.ID, sent.Token)
				case "status":
					want = oldCommand(p, rq.user, "status", nil, nil, sent.ID, sent.Token)
				default:
					value := ""
					if len(sent.Data.Values) == 1 {
						value = sent.Data.Values[0]
						seen["menu"]++
					} else {
						seen["button"]++
					}
					want = oldClick(p, ob, rq.user, sent.Data.CustomID, value, sent.ID, sent.Token)
				}
				sameJSON(t, rq.what, rq.body(), want)
				seen[rq.what]++
				if p.isPeople() {
					seen["people"]++
				}

				res := p.send(ctx, rq, nil)
				if res.err != nil || res.status != 200 {
					t.Fatalf("%s: %v, HTTP %d", rq.what, res.err, res.status)
				}
				sameDecoding(t, res.body, false)
				if err := p.receive(rq, res, nil); err != nil {
					t.Fatal(err)
				}
				var r oldResponse
				json.Unmarshal(res.body, &r)
				ob = nil
				if p.b != nil && (r.Type == 4 || r.Type == 7) {
					ob = &oldBoard{msgID: p.b.msgID, content: r.Data.Content, components: r.Data.Components, embeds: r.Data.Embeds}
					sameJSON(t, "board message", p.b.message(p.channel), oldMessage(ob, p.channel))
				}
			}
		}
	}
	for _, k := range []string{"start", "status", "move", "heap", "accept", "rematch", "button", "menu", "people"} {
		if seen[k] == 0 {
			t.Errorf("no %s interaction was played: %v", k, seen)
		}
	}
	t.Log(seen)
}

// answerCorpus is answers as nimbot writes them, and answers that are not:
// broken JSON, fields of the wrong type, escapes, null, keys in another
// case. FuzzDecodeAnswer starts from it.
var answerCorpus = []string{
	`{"type":4,"data":{"content":"<@1> to move","flags":0,"components":[{"type":1,"components":[{"type":2,"custom_id":"m:1:2","disabled":false},{"type":3,"custom_id":"h:1","options":[{"label":"a","value":"1"},{"value":"2"}]}]}],"embeds":[{"description":"\u003c@123\u003e to move"}]}}`,
	`{"type":7,"data":{"content":"","flags":64}}`,
	`{"type":4,"data":{"content":"no game here","flags":64,"components":[{"type":"x"}]}}`,
	`{"type":4,"data":{"components":[{"type":"x"}]}}`,
	`{"type":4,"data":{"components":{"type":1}}}`,
	`{"type":4,"data":{"components":null,"embeds":null,"content":null,"flags":null}}`,
	`{"type":5}`,
	`{"type":4,"data":null}`,
	`null`,
	` {"TYPE":4,"Data":{"CONTENT":"x","Flags":64}} `,
	`{"type":4.5}`,
	`{"type":1e2}`,
	`{"type":"4"}`,
	`{"type":4,"data":{"flags":-0,"content":"a\"b\\c\u00e9\ud83d\ude00\/"}}`,
	`{"type":4,"data":{"content":"a` + "\xff" + `b"}}`,
	`{"type":4,"data":{"components":[null,{"type":2,"custom_id":"x","disabled":null,"options":null}]}}`,
	`{"type":4,"data":{"components":[{"type":2,"custom_id":"x","options":[1]}]}}`,
	`{"type":4,"data":{"components":[{"type":2,"custom_id":"x","disabled":"yes"}]}}`,
	`{"type":4,"da\u0074a":{"flags":64}}`,
	`{"type":4,"data":{"flags":64}}x`,
	`{"type":4,"data":{"flags":64},}`,
	`{"type":4,"data":{"flags":64}`,
	`{"type":4 "data":{}}`,
	`{"type":4,"data":{"content":"tab	in"}}`,
	`{"type":4,"data":{"content":"bad \x escape"}}`,
	`{"type":4,"data":{"content":"\u12"}}`,
	`{"type":4,"data":{"x":[1,2,{"y":[true,false,null,-1.5e+3,0.1]}],"flags":1}}`,
	`{"type":4,"data":{"x":01}}`,
	`{"type":4,"data":{"x":1.}}`,
	`{"type":4,"data":{"x":tru}}`,
	`[]`,
	``,
	`{"type":99999999999999999999}`,
	`{"type":4,"data":{"embeds":[{"description":"x"}],"embeds":"y"}}`,
	`{"type":4,"type":7,"data":{"flags":1,"flags":2}}`,
}

// TestDecodeAnswer holds decodeAnswer and decodeData to json.Unmarshal
// over the corpus.
func TestDecodeAnswer(t *testing.T) {
	for _, body := range answerCorpus {
		sameDecoding(t, []byte(body), false)
		if i := strings.Index(body, `"data":`); i >= 0 && strings.HasSuffix(body, "}}") {
			sameDecoding(t, []byte(body[i+len(`"data":`):len(body)-1]), true)
		}
	}
}

func FuzzDecodeAnswer(f *testing.F) {
	for _, body := range answerCorpus {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sameDecoding(t, body, false)
		sameDecoding(t, body, true)
	})
}

// TestMentioned: the user a board between people names, read from its
// embeds as escaped JSON, as the regular expressions the client had find
// it.
func TestMentioned(t *testing.T) {
	b := &board{embeds: []byte(`[{"title":"Nim","description":"\u003c@111\u003e challenges \u003c@222\u003e"},{"description":"\u003c@333\u003e to move"}]`)}
	if got := b.mentioned(challenged, "def"); got != "222" {
		t.Errorf("challenged: %q", got)
	}
	if got := b.mentioned(toMove, "def"); got != "333" {
		t.Errorf("to move: %q", got)
	}
	for _, embeds := range []string{``, `null`, `[]`, `[{"description":5}]`, `[{"description":"nobody"}]`, `{`} {
		b := &board{embeds: []byte(embeds)}
		if got := b.mentioned(toMove, "def"); got != "def" {
			t.Errorf("%q: %q, want the default", embeds, got)
		}
	}
	for _, tc := range []struct {
		re   string
		m    mention
		desc string
	}{
		{`challenges <@!?(\d+)>`, challenged, "<@1> challenges <@2> to Nim"},
		{`challenges <@!?(\d+)>`, challenged, "<@1> challenges <@!22>"},
		{`challenges <@!?(\d+)>`, challenged, "challenges <@> challenges <@x> challenges <@3"},
		{`challenges <@!?(\d+)>`, challenged, "challenges <@4x> challenges <@5>"},
		{`challenges <@!?(\d+)>`, challenged, "challenges<@6>"},
		{`<@!?(\d+)> to move`, toMove, "<@1> waits, <@2> to move"},
		{`<@!?(\d+)> to move`, toMove, "<@!7> to move<@8> to move"},
		{`<@!?(\d+)> to move`, toMove, "<@9> to mov"},
		{`<@!?(\d+)> to move`, toMove, "<@!!9> to move <@<@10> to move"},
		{`<@!?(\d+)> to move`, toMove, ""},
	} {
		want := ""
		if sub := regexp.MustCompile(tc.re).FindStringSubmatch(tc.desc); sub != nil {
			want = sub[1]
		}
		if got := tc.m.find(tc.desc); got != want {
			t.Errorf("%s in %q: %q, the regular expression finds %q", tc.re, tc.desc, got, want)
		}
	}
}

// TestAppendString: appendString writes what json.Marshal writes.
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain 123", "<@1> & \"q\" \\", "tab\tnl\n", "é ✓ \u2028", "\xff", "\x00\x1f\x7f"} {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	}
}

// BenchmarkRequest is a channel's own work for one click, without the
// HTTP: read the answer that drew the board, build the click on it with
// the board message attached, sign it. old is the encoding/json
// construction the client had; new is the one it has.
func BenchmarkRequest(b *testing.B) {
	// A board between people, after the challenge was accepted.
	p, priv, _, res := playOneChannel(b, "1", 2)
	answer := res.body
	ctl := p.b.controls[0]
	who, id, token := p.users[0], snowflake(), "load."+snowflake()
	b.Logf("answer %d bytes; click body %d bytes", len(answer), len(p.click(who, ctl.id, "", "move").body()))
	sign := func(body []byte) {
		ts := "1767268800"
		msg := make([]byte, 0, len(ts)+len(body))
		ed25519.Sign(priv, append(append(msg, ts...), body...))
	}
	b.Run("old", func(b *testing.B) {
		b.ReportAllocs()
		defer threadCPU(b)()
		for b.Loop() {
			var r oldResponse
			if err := json.Unmarshal(answer, &r); err != nil {
				b.Fatal(err)
			}
			var comps []oldComponent
			if err := json.Unmarshal(r.Data.Components, &comps); err != nil {
				b.Fatal(err)
			}
			ob := &oldBoard{msgID: p.b.msgID, content: r.Data.Content, components: r.Data.Components, embeds: r.Data.Embeds}
			sign(oldClick(p, ob, who, comps[0].Components[0].CustomID, "", id, token))
		}
	})
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		defer threadCPU(b)()
		for b.Loop() {
			_, d, err := decodeAnswer(answer)
			if err != nil {
				b.Fatal(err)
			}
			nb := &board{msgID: p.b.msgID, content: d.content, components: d.components, embeds: d.embeds}
			buf := p.interactionJSON(nil, who, 3, id, token, clickData(nil, d.comps[0].components[0].customID, ""), nb)
			copy(buf, "1767268800")
			ed25519.Sign(priv, buf)
		}
	})
}

// threadCPU locks the benchmark to its thread and returns a func that
// reports the thread's CPU time per op, user and system: on a shared
// machine the wall time per op counts the time other processes held the
// CPUs, this does not (the collector's work on other threads is left out).
func threadCPU(b *testing.B) func() {
	runtime.LockOSThread()
	read := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	from := read()
	return func() {
		b.ReportMetric(float64(read()-from)/float64(b.N)/float64(time.Microsecond), "cpu-µs/op")
		runtime.UnlockOSThread()
	}
}
