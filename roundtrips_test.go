package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/jackc/pgx/v5"

	"nimbot/commands"
	"nimbot/internal/pgtest"
	"nimbot/store/postgres"
)

// roundTrips counts the exchanges with PostgreSQL a pgx tracer sees: a
// statement sent alone is one, a batch is one however many statements it
// carries (pgx's pipeline mode).
type roundTrips struct{ n atomic.Int64 }

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (r *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// TestRoundTrips plays the routes of a game against nimbot through
// commands on PostgreSQL and counts each one's round trips to the server,
// once every statement is prepared on the connection (pgx's statement
// cache): the cost per interaction that bounds moves per second on one
// server. Each route is held to the count it has, so one that grows is
// seen.
func TestRoundTrips(t *testing.T) {
	ctx := context.Background()
	rt := &roundTrips{}
	// One connection, so that the warm-up prepares every statement where
	// the measured pass runs.
	db, err := postgres.Open(ctx, postgres.Config{URL: pgtest.DB(t), Tracer: rt, MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := commands.New(commands.Config{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	c := newClient(t, ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize)))
	send := func(body []byte) (answer, int64) {
		t.Helper()
		var i discordgo.Interaction
		if err := json.Unmarshal(body, &i); err != nil {
			t.Fatal(err)
		}
		before := rt.n.Load()
		_, encoded, _ := svc.Handle(ctx, &i)
		n := rt.n.Load() - before
		a := answer{status: 200, body: encoded}
		if err := json.Unmarshal(encoded, &a.resp); err != nil {
			t.Fatal(err)
		}
		return a, n
	}
	// start: the batch, COMMIT (the game's id is reserved ahead, a block
	// of them in one round trip now and then; a live game in the channel
	// is found by the insert, and a saved answer only when a write finds
	// the interaction answered). hint: the channel's game, one statement.
	// heap pick: the board. move, after the hint (which drops the board
	// this process kept of the game): the board, and the batch that
	// commits; next move, on the board the last move left (kept: commands'
	// recentBoards): the batch alone. end, a move that ends the game, on
	// the board its start left: the turn, then the result and statistics
	// with COMMIT. rated end, the same between two people: their ratings,
	// locked, are read before the result is written.
	want := map[string]int64{"start": 2, "heap pick": 1, "move": 2, "next move": 1, "hint": 2, "end": 2, "rated end": 3}
	for pass := range 2 {
		got := map[string]int64{}
		channel := c.newChannel()
		a, n := send(c.command(channel, "start", map[string]any{"heaps": "5 6 7", "first": "me"}))
		if a.typ() != 4 {
			t.Fatalf("/nim start: %s", a.body)
		}
		got["start"] = n
		board := a.message(nil)
		_, n = send(c.command(channel, "hint", nil))
		got["hint"] = n
		if ctl, ok := heapControl(board); ok {
			a, n := send(c.click(channel, board, ctl))
			if a.typ() != 7 {
				t.Fatalf("heap click %s: %s", ctl.id, a.body)
			}
			got["heap pick"] = n
			board = a.message(board)
		}
		ctl, ok := findControl(t, board)
		if !ok || !isMove(t, ctl.id) {
			t.Fatalf("no move control on the board: %v", board["components"])
		}
		a, n = send(c.click(channel, board, ctl))
		if a.typ() != 7 {
			t.Fatalf("move click %s: %s", ctl.id, a.body)
		}
		got["move"] = n
		// The next move, on the board the last one left: decided on the
		// board kept from that commit (commands' recentBoards), with no read.
		board = a.message(board)
		if ctl, ok := heapControl(board); ok {
			a, _ := send(c.click(channel, board, ctl))
			board = a.message(board)
		}
		if ctl, ok = findControl(t, board); !ok || !isMove(t, ctl.id) {
			t.Fatalf("no move control on the board after a move: %v", board["components"])
		}
		a, n = send(c.click(channel, board, ctl))
		if a.typ() != 7 {
			t.Fatalf("next move click %s: %s", ctl.id, a.body)
		}
		got["next move"] = n

		// One heap of one: the first move takes it and ends the game.
		channel = c.newChannel()
		a, _ = send(c.command(channel, "start", map[string]any{"heaps": "1", "first": "me"}))
		got["end"] = lastMove(t, send, c.click, channel, a.message(nil))

		// The same between two people, new ones each pass: a challenger
		// waits a minute before the next challenge.
		challenger, rival := c.id(), c.id()
		clickAs := func(who string) func(string, map[string]any, control) []byte {
			return func(channel string, board map[string]any, ctl control) []byte {
				return as(t, c.click(channel, board, ctl), who)
			}
		}
		channel = c.newChannel()
		start := c.command(channel, "start", map[string]any{"heaps": "1", "first": "me"})
		a, _ = send(as(t, challenge(t, start, rival), challenger))
		board = a.message(nil)
		a, _ = send(clickAs(rival)(channel, board, acceptControl(t, board)))
		if a.typ() != 7 {
			t.Fatalf("accepting the challenge: %s", a.body)
		}
		got["rated end"] = lastMove(t, send, clickAs(challenger), channel, a.message(board))
		if pass == 0 {
			continue // every statement is prepared now
		}
		t.Logf("round trips per interaction: %v", got)
		for route, n := range want {
			if got[route] != n {
				t.Errorf("%s: %d round trips, want %d", route, got[route], n)
			}
		}
	}
}

// heapControl returns the first heap picker on board (the first step of a
// two-step move), if it has one.
func heapControl(board map[string]any) (control, bool) {
	rows, _ := board["components"].([]any)
	for _, r := range rows {
		row, _ := r.(map[string]any)
		items, _ := row["components"].([]any)
		for _, it := range items {
			c, _ := it.(map[string]any)
			id, _ := c["custom_id"].(string)
			if disabled, _ := c["disabled"].(bool); disabled || id == "" {
				continue
			}
			parsed, err := commands.ParseControl(id)
			if err != nil {
				continue
			}
			switch parsed.(type) {
			case commands.HeapControl:
				return control{id: id}, true
			case commands.HeapMenuControl:
				if opts, _ := c["options"].([]any); len(opts) > 0 {
					v, _ := opts[0].(map[string]any)["value"].(string)
					return control{id: id, value: v}, true
				}
			}
		}
	}
	return control{}, false
}

// lastMove clicks the first move on board, which must end the game, and
// returns the click's round trips.
func lastMove(t *testing.T, send func([]byte) (answer, int64), click func(string, map[string]any, control) []byte,
	channel string, board map[string]any) int64 {
	t.Helper()
	ctl, ok := findControl(t, board)
	if !ok || !isMove(t, ctl.id) {
		t.Fatalf("no move control on the board: %v", board["components"])
	}
	a, n := send(click(channel, board, ctl))
	if a.typ() != 7 {
		t.Fatalf("move click %s: %s", ctl.id, a.body)
	}
	if ctl, ok := findControl(t, a.message(board)); ok {
		t.Fatalf("the game goes on after its last move: %s is offered", ctl.id)
	}
	return n
}

// challenge returns the /nim start command body with rival as its
// opponent, resolved as Discord resolves a user option.
func challenge(t *testing.T, body []byte, rival string) []byte {
	t.Helper()
	return edit(t, body, func(m map[string]any) {
		data := m["data"].(map[string]any)
		sub := data["options"].([]any)[0].(map[string]any)
		opts, _ := sub["options"].([]any)
		sub["options"] = append(opts, map[string]any{"name": "opponent", "type": 6, "value": rival})
		data["resolved"] = map[string]any{
			"users": map[string]any{rival: map[string]any{"id": rival, "username": "player" + rival, "discriminator": "0",
				"global_name": "Player " + rival, "avatar": nil, "public_flags": 0}},
			"members": map[string]any{rival: map[string]any{"roles": []any{}, "joined_at": "2024-05-01T12:00:00.000000+00:00",
				"permissions": "2248473465835073", "flags": 0}},
		}
	})
}

// as returns the interaction body as sent by user instead.
func as(t *testing.T, body []byte, user string) []byte {
	t.Helper()
	return edit(t, body, func(m map[string]any) {
		u := m["member"].(map[string]any)["user"].(map[string]any)
		u["id"], u["username"], u["global_name"] = user, "player"+user, "Player "+user
	})
}

// edit decodes body, applies f, and encodes it again.
func edit(t *testing.T, body []byte, f func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// acceptControl returns the challenge board's Accept button.
func acceptControl(t *testing.T, board map[string]any) control {
	t.Helper()
	rows, _ := board["components"].([]any)
	for _, r := range rows {
		items, _ := r.(map[string]any)["components"].([]any)
		for _, it := range items {
			id, _ := it.(map[string]any)["custom_id"].(string)
			if c, err := commands.ParseControl(id); err == nil {
				if _, ok := c.(commands.AcceptControl); ok {
					return control{id: id}
				}
			}
		}
	}
	t.Fatalf("no Accept on the challenge: %v", board["components"])
	return control{}
}
