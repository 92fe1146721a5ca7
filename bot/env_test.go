package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
	"nimbot/match"
	"nimbot/store"
)

const testChannel = "1190000000000000010"

// clock is the test's time, moved by hand so deadlines pass on demand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// env is one test's world: the real commands.Service on a real SQLite file,
// the Discord stand-in, and a way to deliver interactions (gateway or HTTP).
type env struct {
	t       *testing.T
	fd      *fakeDiscord
	db      *store.DB
	path    string
	svc     *commands.Service
	clock   *clock
	p       *payloads
	log     *slog.Logger
	deliver func(payload json.RawMessage) *discordgo.InteractionResponse
}

// quietLog keeps the operator log out of test output unless -v.
func quietLog(t *testing.T) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvLog(t, quietLog(t))
}

// newEnvLog is newEnv with log as the service's log (and the transports',
// through env.log).
func newEnvLog(t *testing.T, log *slog.Logger) *env {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	clk := &clock{now: time.Now().UTC().Truncate(time.Second)}
	db, err := store.Open(context.Background(), store.Config{Path: path, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := commands.New(commands.Config{
		DB: db, Now: clk.Now, Rand: rand.New(rand.NewPCG(1, 2)), Log: log,
		BotTurn: time.Hour, PeopleTurn: 24 * time.Hour,
	})
	return &env{t: t, fd: newFakeDiscord(t), db: db, path: path, svc: svc, clock: clk, p: newPayloads(t, testChannel), log: log}
}

func tokenOf(t *testing.T, payload json.RawMessage) string {
	t.Helper()
	var hdr struct{ Token string }
	if err := json.Unmarshal(payload, &hdr); err != nil {
		t.Fatal(err)
	}
	return hdr.Token
}

// channelGame returns the channel's pending or active game.
func (e *env) channelGame() *match.Game {
	e.t.Helper()
	g, err := e.db.ChannelGame(context.Background(), e.p.channel)
	if err != nil {
		e.t.Fatalf("channel game: %v", err)
	}
	return g
}

func (e *env) game(id int64) *match.Game {
	e.t.Helper()
	g, err := e.db.Game(context.Background(), id)
	if err != nil {
		e.t.Fatalf("game %d: %v", id, err)
	}
	return g
}

// messageOf returns the message a response to payload shows: the clicked
// message for an update, the new one otherwise.
func (e *env) messageOf(payload json.RawMessage, resp *discordgo.InteractionResponse) string {
	e.t.Helper()
	id := e.fd.Original(tokenOf(e.t, payload))
	if id == "" {
		e.t.Fatalf("response type %d shows no message", resp.Type)
	}
	return id
}

// start runs /nim start and returns the id of the message it posted.
func (e *env) start(u user, opts ...opt) string {
	e.t.Helper()
	payload := e.p.command(u, "start", opts...)
	resp := e.deliver(payload)
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || ephemeral(resp) {
		e.t.Fatalf("/nim start: want a public message, got type %d: %s", resp.Type, describe(resp))
	}
	return e.messageOf(payload, resp)
}

// accept has u press Accept on a challenge and returns the board's message.
func (e *env) accept(u user, challengeID string) string {
	e.t.Helper()
	msg := e.fd.Message(e.t, challengeID)
	cid, _, ok := findControl(e.t, msg, is[commands.AcceptControl])
	if !ok {
		e.t.Fatalf("no Accept button on the challenge: %s", msg)
	}
	payload := e.p.click(u, msg, cid)
	resp := e.deliver(payload)
	if ephemeral(resp) {
		e.t.Fatalf("accept: %s", describe(resp))
	}
	return e.messageOf(payload, resp)
}

// move makes one move for u on the board by clicking as a person would: a
// move button if the board shows one, else a heap first and then an amount.
// It returns the response to the click that moved.
func (e *env) move(u user, boardID string) *discordgo.InteractionResponse {
	e.t.Helper()
	msgID := boardID
	for step := 0; step < 4; step++ {
		msg := e.fd.Message(e.t, msgID)
		cid, values, ok := findControl(e.t, msg, is[commands.MoveControl], is[commands.MoveMenuControl], is[commands.HeapControl], is[commands.HeapMenuControl])
		if !ok {
			e.t.Fatalf("no move control on message %s: %s", msgID, msg)
		}
		payload := e.p.click(u, msg, cid, values...)
		resp := e.deliver(payload)
		if isMove(e.t, cid) {
			return resp
		}
		if ephemeral(resp) && len(resp.Data.Components) == 0 {
			e.t.Fatalf("clicking %s: %s", cid, describe(resp))
		}
		msgID = e.messageOf(payload, resp)
	}
	e.t.Fatal("no move after four clicks")
	return nil
}

// playOut plays game id to its end, each move by whoever is to move.
func (e *env) playOut(id int64, boardID string, people ...user) *match.Game {
	e.t.Helper()
	byID := map[string]user{}
	for _, u := range people {
		byID[u.ID] = u
	}
	for n := 0; n < 100; n++ {
		g := e.game(id)
		if g.Status.Finished() {
			return g
		}
		u, ok := byID[g.ToMove()]
		if !ok {
			e.t.Fatalf("ply %d: %q is to move, not one of the players", g.Ply, g.ToMove())
		}
		resp := e.move(u, boardID)
		if ephemeral(resp) {
			e.t.Fatalf("ply %d: move refused: %s", g.Ply, describe(resp))
		}
		if after := e.game(id); after.Ply <= g.Ply {
			e.t.Fatalf("ply %d: the click did not move: %s", g.Ply, describe(resp))
		}
	}
	e.t.Fatal("game did not end in 100 moves")
	return nil
}

// findControl returns the first enabled button or select menu on msg that
// is one of kinds (in order of preference), read as nimbot reads it
// (commands.ParseControl); for a menu, values is its first option.
func findControl(t *testing.T, msg json.RawMessage, kinds ...func(commands.Control) bool) (customID string, values []string, ok bool) {
	t.Helper()
	m, err := decodeMessage(msg)
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range kinds {
		for _, row := range m.Components {
			r, isRow := row.(*discordgo.ActionsRow)
			if !isRow {
				continue
			}
			for _, c := range r.Components {
				switch c := c.(type) {
				case *discordgo.Button:
					if !c.Disabled && is(control(t, c.CustomID)) {
						return c.CustomID, nil, true
					}
				case *discordgo.SelectMenu:
					if !c.Disabled && is(control(t, c.CustomID)) && len(c.Options) > 0 {
						return c.CustomID, []string{c.Options[0].Value}, true
					}
				}
			}
		}
	}
	return "", nil, false
}

// control reads a custom_id on a board.
func control(t testing.TB, customID string) commands.Control {
	t.Helper()
	c, err := commands.ParseControl(customID)
	if err != nil {
		t.Fatalf("a board control nimbot does not read back: %v", err)
	}
	return c
}

// is reports whether c is a control of type C.
func is[C commands.Control](c commands.Control) bool {
	_, ok := c.(C)
	return ok
}

// isMove reports whether customID plays a move: a move button or a menu of
// moves.
func isMove(t testing.TB, customID string) bool {
	t.Helper()
	c := control(t, customID)
	return is[commands.MoveControl](c) || is[commands.MoveMenuControl](c)
}

func ephemeral(resp *discordgo.InteractionResponse) bool {
	return resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
}

// describe is a response in a test failure message.
func describe(resp *discordgo.InteractionResponse) string {
	b, _ := json.Marshal(resp)
	return string(b)
}

func isNotFound(err error) bool { return errors.Is(err, match.ErrNotFound) }

// waitBoardRecorded waits until the game's board message id is boardID, as
// BoardSent records it once the fetch of a new board is due.
func (e *env) waitBoardRecorded(id int64, boardID string) {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := e.game(id).MessageID
		if got == boardID {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("game %d: board %q not recorded within 10 s (stored %q)", id, boardID, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// messageText is what a message shows: its content, and its embeds' titles
// and descriptions.
func messageText(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	m, err := decodeMessage(raw)
	if err != nil {
		t.Fatal(err)
	}
	text := m.Content
	for _, e := range m.Embeds {
		text += "\n" + e.Title + "\n" + e.Description
	}
	return text
}

// left returns the messages shown after the first since versions that are
// still there, each once, in the order they were first shown.
func (e *env) left(since int) []string {
	e.t.Helper()
	var ids []string
	for _, v := range e.fd.Shown()[since:] {
		if !slices.Contains(ids, v.ID) && e.fd.Exists(v.ID) {
			ids = append(ids, v.ID)
		}
	}
	return ids
}

// privateAnswer checks that the answer to a deferred interaction reached
// its user privately: of the messages shown after the first since
// versions, exactly one is left, ephemeral and showing want; and want was
// never shown in public, not even for a moment. It returns the answer's
// message id.
func (e *env) privateAnswer(since int, want string) string {
	e.t.Helper()
	for _, v := range e.fd.Shown()[since:] {
		if v.Flags&discordgo.MessageFlagsEphemeral == 0 && strings.Contains(messageText(e.t, v.JSON), want) {
			e.t.Errorf("the private answer was shown in public (message %s): %s", v.ID, v.JSON)
		}
	}
	left := e.left(since)
	if len(left) != 1 {
		e.t.Fatalf("%d messages left of the answer (%v), want 1: the answer alone", len(left), left)
	}
	raw := e.fd.Message(e.t, left[0])
	m, err := decodeMessage(raw)
	if err != nil {
		e.t.Fatal(err)
	}
	if m.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(messageText(e.t, raw), want) {
		e.t.Fatalf("want an ephemeral message showing %q, got %s", want, raw)
	}
	return left[0]
}
