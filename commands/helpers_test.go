package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
	"nimbot/store"
	"nimbot/store/postgres"
)

// Ids used across the tests, shaped like Discord snowflakes.
const (
	appID   = "1200000000000000000"
	guildID = "1210000000000000000"
	chanA   = "1220000000000000001"
	chanB   = "1220000000000000002"
	chanDM  = "1220000000000000099"
	alice   = "1230000000000000001"
	bob     = "1230000000000000002"
	carol   = "1230000000000000003"
	modID   = "1230000000000000009"
	botUser = "1240000000000000001" // some other bot
)

var usernames = map[string]string{alice: "alice", bob: "bob", carol: "carol", modID: "mod", botUser: "otherbot"}

// fixtures are the interaction payloads in testdata/, shaped after Discord's
// documentation, with the per-test fields templated.
var fixtures = template.Must(template.ParseGlob("testdata/*.json"))

// fields fill a fixture.
type fields struct {
	AppID, GuildID, ChannelID, ID, UserID, Username, Permissions string
	Type                                                         int
	Sub, Options, Resolved                                       string
	CustomID, Values, Value                                      string
	ComponentType                                                int
	MessageID                                                    string
	MessageFlags                                                 int
	// MessageComponents is the clicked message's components as Discord
	// sends them (JSON); when empty, render fills in those the harness saw
	// the message get (harness.shown).
	MessageComponents string
}

// harnessStore is a store a harness opens: match.Storage, closed at the end.
type harnessStore interface {
	match.Storage
	Close() error
}

// harness is a Service over a real SQLite file (or, with pg set, a real
// PostgreSQL database), a fixed clock and a seeded random source.
type harness struct {
	t       testing.TB
	path    string
	pg      string // a PostgreSQL URL (pgtest.DB); "" for SQLite at path
	db      harnessStore
	svc     *Service
	now     time.Time
	seed    uint64
	n       int
	logs    *bytes.Buffer
	channel string
	// message is the id the "bot" gave the last new board message.
	message string
	sync    string // store.Config.Synchronous
	// shown is what each message nimbot posted shows now, by id: its
	// components in JSON, as Discord fills them into the message of a
	// click on it. Posting a board sets them, and a click answered with
	// UPDATE_MESSAGE replaces them.
	shownMu sync.Mutex
	shown   map[string]string
}

func newHarness(t testing.TB, seed uint64) *harness {
	return newHarnessSync(t, seed, "NORMAL")
}

func newHarnessSync(t testing.TB, seed uint64, sync string) *harness {
	t.Helper()
	return newHarnessOn(t, seed, sync, "")
}

// newHarnessOn is newHarnessSync on the PostgreSQL database at url, or on
// SQLite when url is "".
func newHarnessOn(t testing.TB, seed uint64, sync, url string) *harness {
	t.Helper()
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "nimbot.db"), pg: url, now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), seed: seed, logs: &bytes.Buffer{}, channel: chanA, sync: sync}
	h.open()
	t.Cleanup(func() { h.db.Close() })
	return h
}

func (h *harness) clock() time.Time { return h.now }

// open opens the store and a fresh Service over it, as a restarted process would.
func (h *harness) open() {
	h.t.Helper()
	// NORMAL: the tests commit thousands of turns, and on this shared disk
	// one fsync has been seen to stall for seconds; FULL's durability is the
	// store's to test. The benchmark sets FULL, as production runs.
	var db harnessStore
	var err error
	if h.pg != "" {
		db, err = postgres.Open(context.Background(), postgres.Config{URL: h.pg, Now: h.clock})
	} else {
		db, err = store.Open(context.Background(), store.Config{Path: h.path, Now: h.clock, Synchronous: h.sync})
	}
	if err != nil {
		h.t.Fatalf("open store: %v", err)
	}
	h.db = db
	h.svc = New(Config{
		DB: db, Now: h.clock, Rand: rand.New(rand.NewPCG(h.seed, 1)),
		Log: slog.New(slog.NewTextHandler(h.logs, nil)),
	})
}

// restart closes the store and opens it again with a new Service.
func (h *harness) restart() {
	h.t.Helper()
	if err := h.db.Close(); err != nil {
		h.t.Fatalf("close store: %v", err)
	}
	h.open()
}

func (h *harness) nextID() string {
	h.n++
	return fmt.Sprintf("13%017d", h.n)
}

// render fills a fixture into the raw JSON Discord would send.
func (h *harness) render(fixture string, f fields) []byte {
	h.t.Helper()
	if f.AppID == "" {
		f.AppID = appID
	}
	if f.GuildID == "" {
		f.GuildID = guildID
	}
	if f.ChannelID == "" {
		f.ChannelID = h.channel
	}
	if f.ID == "" {
		f.ID = h.nextID()
	}
	if f.Username == "" {
		f.Username = usernames[f.UserID]
	}
	if f.Permissions == "" {
		f.Permissions = "2248473465835073" // a regular member: no Manage Messages
	}
	if f.Options == "" {
		f.Options = "[]"
	}
	if f.MessageID == "" {
		f.MessageID = "1250000000000000001"
	}
	if f.Value == "" {
		f.Value = `""`
	}
	if f.MessageComponents == "" {
		f.MessageComponents = h.shownOf(f.MessageID)
	}
	var buf bytes.Buffer
	if err := fixtures.ExecuteTemplate(&buf, fixture, f); err != nil {
		h.t.Fatalf("fixture %s: %v", fixture, err)
	}
	return buf.Bytes()
}

// interaction builds an interaction from a fixture and decodes it exactly as
// discordgo decodes Discord's payloads.
func (h *harness) interaction(fixture string, f fields) *discordgo.Interaction {
	h.t.Helper()
	b := h.render(fixture, f)
	var i discordgo.Interaction
	if err := json.Unmarshal(b, &i); err != nil {
		h.t.Fatalf("fixture %s does not decode: %v\n%s", fixture, err, b)
	}
	return &i
}

// handle runs i through the Service and checks the response against
// Discord's limits.
func (h *harness) handle(i *discordgo.Interaction) *discordgo.InteractionResponse {
	h.t.Helper()
	resp, encoded, _ := h.svc.Handle(context.Background(), i)
	if resp == nil {
		h.t.Fatalf("Handle returned nil")
	}
	checkResponse(h.t, resp)
	// The bytes the HTTP endpoint sends in place of resp must be resp, and
	// every answer has them.
	if enc, _ := json.Marshal(resp); !bytes.Equal(encoded, enc) {
		h.t.Fatalf("Handle's JSON is not its response:\n%s\n%s", encoded, enc)
	}
	if resp.Type == discordgo.InteractionResponseUpdateMessage && i.Message != nil && resp.Data != nil && resp.Data.Components != nil {
		h.show(i.Message.ID, resp.Data.Components)
	}
	return resp
}

// show records that message id now shows components.
func (h *harness) show(id string, components []discordgo.MessageComponent) {
	h.t.Helper()
	b, err := json.Marshal(components)
	if err != nil {
		h.t.Fatalf("marshal components: %v", err)
	}
	h.shownMu.Lock()
	defer h.shownMu.Unlock()
	if h.shown == nil {
		h.shown = map[string]string{}
	}
	h.shown[id] = string(b)
}

// shownOf is the components message id shows, in JSON; "" for a message
// the harness did not see posted.
func (h *harness) shownOf(id string) string {
	h.shownMu.Lock()
	defer h.shownMu.Unlock()
	return h.shown[id]
}

// opts renders slash-command options: name, value pairs; values typed by Go type.
func opts(kv ...any) string {
	var out []map[string]any
	for k := 0; k+1 < len(kv); k += 2 {
		name := kv[k].(string)
		o := map[string]any{"name": name, "value": kv[k+1]}
		switch v := kv[k+1].(type) {
		case int:
			o["type"] = 4
		case bool:
			o["type"] = 5
		case user:
			o["type"], o["value"] = 6, string(v)
		default:
			o["type"] = 3
		}
		out = append(out, o)
	}
	if out == nil {
		return "[]"
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// user marks an option value as a user id (option type 6).
type user string

func (h *harness) command(who, sub string, kv ...any) *discordgo.InteractionResponse {
	h.t.Helper()
	f := fields{UserID: who, Sub: sub, Options: opts(kv...), Type: 2}
	for k := 0; k+1 < len(kv); k += 2 {
		if u, ok := kv[k+1].(user); ok {
			bot := u == botUser
			f.Resolved = fmt.Sprintf(`{"users": {%q: {"id": %q, "username": %q, "discriminator": "0", "avatar": null, "bot": %t, "public_flags": 0}}}`, string(u), string(u), usernames[string(u)], bot)
		}
	}
	resp := h.handle(h.interaction("application_command.json", f))
	h.boardSent(resp)
	return resp
}

// commandAs sends a slash command with explicit fields (permissions, DMs).
func (h *harness) commandWith(fixture string, f fields) *discordgo.InteractionResponse {
	h.t.Helper()
	f.Type = 2
	resp := h.handle(h.interaction(fixture, f))
	h.boardSent(resp)
	return resp
}

func (h *harness) autocomplete(who, sub string, kv ...any) *discordgo.InteractionResponse {
	h.t.Helper()
	o := opts(kv...)
	// The last option is the one being typed.
	var list []map[string]any
	_ = json.Unmarshal([]byte(o), &list)
	if len(list) > 0 {
		list[len(list)-1]["focused"] = true
		if _, isString := list[len(list)-1]["value"].(string); !isString {
			list[len(list)-1]["value"] = fmt.Sprint(list[len(list)-1]["value"])
		}
	}
	b, _ := json.Marshal(list)
	return h.handle(h.interaction("application_command.json", fields{UserID: who, Sub: sub, Options: string(b), Type: 4}))
}

// clickKey is the key the answer to who's click with interaction id is
// saved under, in the harness's channel.
func (h *harness) clickKey(who, id string) string {
	return AnswerKey(&discordgo.Interaction{ID: id, Type: discordgo.InteractionMessageComponent, ChannelID: h.channel,
		Member: &discordgo.Member{User: &discordgo.User{ID: who}}})
}

func (h *harness) click(who, customID string) *discordgo.InteractionResponse {
	h.t.Helper()
	return h.clickID(who, customID, "")
}

// clickID clicks with a given interaction id (a redelivery reuses one).
func (h *harness) clickID(who, customID, interactionID string) *discordgo.InteractionResponse {
	h.t.Helper()
	resp := h.handle(h.interaction("message_component.json", fields{UserID: who, CustomID: customID, ComponentType: 2, ID: interactionID, MessageID: h.message}))
	h.boardSent(resp)
	return resp
}

func (h *harness) choose(who, customID string, values ...string) *discordgo.InteractionResponse {
	h.t.Helper()
	b, _ := json.Marshal(values)
	return h.handle(h.interaction("message_component.json", fields{UserID: who, CustomID: customID, ComponentType: 3, Values: string(b), MessageID: h.message}))
}

func (h *harness) submit(who, customID, value string) *discordgo.InteractionResponse {
	h.t.Helper()
	b, _ := json.Marshal(value)
	return h.handle(h.interaction("modal_submit.json", fields{UserID: who, CustomID: customID, Value: string(b), MessageID: h.message}))
}

// boardSent plays the bot's part after a response that created a message:
// it fetches @original (here: builds it from the response) and reports it.
// h.message is that message, recorded or not.
func (h *harness) boardSent(resp *discordgo.InteractionResponse) {
	h.t.Helper()
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return
	}
	id := h.nextID()
	h.show(id, resp.Data.Components)
	h.message = id
	i := h.interaction("application_command.json", fields{UserID: alice, Sub: "status", Type: 2})
	// As bot does: only a message BoardWanted asks for is fetched and
	// recorded (not the result a finished game's /nim end posts).
	wanted, err := h.svc.BoardWanted(context.Background(), i, resp)
	if err != nil {
		h.t.Fatalf("BoardWanted: %v", err)
	}
	if !wanted {
		return
	}
	if err := h.svc.BoardSent(context.Background(), i, h.posted(resp, id)); err != nil {
		h.t.Fatalf("BoardSent: %v", err)
	}
}

// posted is the message resp created, with id, as a fetch of @original
// returns it.
func (h *harness) posted(resp *discordgo.InteractionResponse, id string) *discordgo.Message {
	h.t.Helper()
	m := &discordgo.Message{ID: id, ChannelID: h.channel, Embeds: resp.Data.Embeds}
	// Round-trip the components through JSON, as a fetched message would be.
	b, err := json.Marshal(resp.Data.Components)
	if err != nil {
		h.t.Fatalf("marshal components: %v", err)
	}
	var raw []json.RawMessage
	_ = json.Unmarshal(b, &raw)
	for _, r := range raw {
		c, err := discordgo.MessageComponentFromJSON(r)
		if err != nil {
			h.t.Fatalf("component: %v", err)
		}
		m.Components = append(m.Components, c)
	}
	return m
}

// game is the channel's live game, or the latest one in it if none is live.
func (h *harness) game() *match.Game {
	h.t.Helper()
	g, err := h.db.ChannelGame(context.Background(), h.channel)
	if err != nil {
		h.t.Fatalf("channel game: %v", err)
	}
	return g
}

func (h *harness) gameByID(id int64) *match.Game {
	h.t.Helper()
	g, err := h.db.Game(context.Background(), id)
	if err != nil {
		h.t.Fatalf("game %d: %v", id, err)
	}
	return g
}

func (h *harness) moves(id int64) []match.Move {
	h.t.Helper()
	ms, err := h.db.Moves(context.Background(), id)
	if err != nil {
		h.t.Fatalf("moves: %v", err)
	}
	return ms
}

// text is everything a response shows: content, embeds, component labels.
func text(resp *discordgo.InteractionResponse) string {
	if resp.Data == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(resp.Data.Content + "\n")
	for _, e := range resp.Data.Embeds {
		b.WriteString(e.Title + "\n" + e.Description + "\n")
		if e.Footer != nil {
			b.WriteString(e.Footer.Text + "\n")
		}
	}
	for _, c := range customIDs(resp) {
		b.WriteString(c + "\n")
	}
	return b.String()
}

func isEphemeral(resp *discordgo.InteractionResponse) bool {
	return resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
}

// customIDs lists the custom_ids of a response's enabled controls.
func customIDs(resp *discordgo.InteractionResponse) []string {
	var ids []string
	if resp.Data == nil {
		return nil
	}
	for _, row := range resp.Data.Components {
		for _, c := range rowOf(row).Components {
			switch v := deref(c).(type) {
			case discordgo.Button:
				if !v.Disabled {
					ids = append(ids, v.CustomID)
				}
			case discordgo.SelectMenu:
				if !v.Disabled {
					ids = append(ids, v.CustomID)
				}
			}
		}
	}
	return ids
}

// hasKind reports whether resp offers an enabled control of kind k.
func hasKind(resp *discordgo.InteractionResponse, k anyKind) bool {
	for _, id := range customIDs(resp) {
		if c, err := ParseControl(id); err == nil && c.kindName() == k.kindName() {
			return true
		}
	}
	return false
}

func hasID(resp *discordgo.InteractionResponse, prefix string) bool {
	for _, id := range customIDs(resp) {
		if strings.HasPrefix(id, prefix) {
			return true
		}
	}
	return false
}

// wantUserError checks an ephemeral answer containing want.
func wantUserError(t *testing.T, resp *discordgo.InteractionResponse, want string) {
	t.Helper()
	if !isEphemeral(resp) {
		t.Fatalf("want an ephemeral answer containing %q, got type %d: %s", want, resp.Type, text(resp))
	}
	if !strings.Contains(resp.Data.Content, want) {
		t.Fatalf("want %q in the answer, got %q", want, resp.Data.Content)
	}
	if strings.Contains(resp.Data.Content, "reference") {
		t.Fatalf("a user error was answered as an internal error: %q", resp.Data.Content)
	}
}

var namePattern = regexp.MustCompile(`^[-_\p{Ll}\p{N}]{1,32}$`)

// checkResponse enforces Discord's limits on everything nimbot sends, as
// it is sent: encoded by encoding/json, and read back as a redelivery
// serves it.
func checkResponse(t testing.TB, resp *discordgo.InteractionResponse) {
	t.Helper()
	dec := sent(t, resp)
	d := resp.Data
	if d == nil {
		return
	}
	if strings.Contains(d.Content, "goroutine ") || strings.Contains(d.Content, ".go:") || strings.Contains(d.Content, "aW50ZXJhY3Rpb24") {
		t.Errorf("response leaks internals: %q", d.Content)
	}
	if strings.Contains(text(resp), "<@") && d.AllowedMentions == nil && resp.Type != discordgo.InteractionResponseModal {
		t.Errorf("a message naming users must say whom it may ping (allowed_mentions)")
	}
	for _, v := range limitViolations(dec) {
		t.Errorf("Discord would refuse this response: %s", v)
	}
}

// sent is resp as it leaves nimbot: encoded by encoding/json, as Handle
// saves and sends it, and decoded again as a redelivery serves it (which
// must encode to the same bytes). Limits are checked on it, so they hold
// for the JSON Discord reads, not only for the Go values.
func sent(t testing.TB, resp *discordgo.InteractionResponse) *discordgo.InteractionResponse {
	t.Helper()
	enc, err := json.Marshal(resp)
	if err != nil {
		t.Fatalf("response does not encode: %v", err)
	}
	if !json.Valid(enc) {
		t.Fatalf("response encodes to invalid JSON: %s", enc)
	}
	dec, err := decodeResponse(enc)
	if err != nil {
		t.Fatalf("saved response does not decode: %v", err)
	}
	if again, _ := json.Marshal(dec); !bytes.Equal(again, enc) {
		t.Fatalf("saved response changes on the way back:\n%s\n%s", enc, again)
	}
	return dec
}

// winningMove picks a winning move in g if there is one, else the first
// legal move, preferring plain takes (the board's buttons).
func winningMove(t testing.TB, g *match.Game) engine.Move {
	t.Helper()
	a, err := g.Rules.Analyze(g.Position)
	if err != nil {
		t.Fatalf("analyze: %v", err)
	}
	if len(a.Winning) > 0 {
		return a.Winning[0]
	}
	legal := g.Rules.Legal(g.Position)
	if len(legal) == 0 {
		t.Fatalf("no legal move in %v", g.Position)
	}
	return legal[0]
}

// rowOf returns an action row whether it is held by value (as rendered) or
// by pointer (as decoded from JSON); nil for anything else.
func rowOf(c discordgo.MessageComponent) *discordgo.ActionsRow {
	switch v := c.(type) {
	case discordgo.ActionsRow:
		return &v
	case *discordgo.ActionsRow:
		return v
	}
	return nil
}

// deref turns decoded (pointer) components into values.
func deref(c discordgo.MessageComponent) discordgo.MessageComponent {
	switch v := c.(type) {
	case *discordgo.Button:
		return *v
	case *discordgo.SelectMenu:
		return *v
	case *discordgo.TextInput:
		return *v
	}
	return c
}

// largestHeap returns the index of the first of the largest heaps.
func largestHeap(heaps []int64) int {
	big := 0
	for i, n := range heaps {
		if n > heaps[big] {
			big = i
		}
	}
	return big
}
