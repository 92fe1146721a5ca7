package bot_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/match"
)

// openGateway connects a real discordgo Session through the stand-in and
// delivers interactions as INTERACTION_CREATE dispatches. A cfg.Session
// given is used as it is (it must reach the stand-in).
func openGateway(t *testing.T, e *env, cfg bot.GatewayConfig) *bot.Gateway {
	t.Helper()
	if cfg.Session == nil {
		cfg.Session = e.fd.session(t)
	}
	cfg.Service = e.svc
	if cfg.Log == nil {
		cfg.Log = e.log
	}
	g := bot.NewGateway(cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := g.Open(ctx); err != nil {
		t.Fatal(err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			g.Close(context.Background())
		}
	})
	e.deliver = func(payload json.RawMessage) *discordgo.InteractionResponse {
		return e.fd.sendInteraction(t, payload)
	}
	return g
}

// TestGatewayGame runs the real Session against the stand-in: Hello,
// Identify with no intents, Ready, heartbeats, the bulk overwrite, and one
// whole game against the bot delivered as INTERACTION_CREATE events and
// answered by interaction callbacks.
func TestGatewayGame(t *testing.T) {
	e := newEnv(t)
	// A short fetch delay: the board of the live game is fetched and
	// recorded through the gateway's path too.
	g := openGateway(t, e, bot.GatewayConfig{Commands: commands.Definitions(), GuildID: "1190000000000000001", FetchDelay: time.Millisecond})

	t.Run("Identify", func(t *testing.T) {
		e.fd.mu.Lock()
		id := e.fd.identify
		e.fd.mu.Unlock()
		if id == nil {
			t.Fatal("no Identify received")
		}
		if id.Intents != 0 {
			t.Errorf("intents = %d, want 0: interactions need none", id.Intents)
		}
		if id.Token != "Bot "+fakeToken {
			t.Errorf("identify token is not the bot token")
		}
	})
	t.Run("Heartbeat", func(t *testing.T) {
		select {
		case <-e.fd.heartbeat:
		case <-time.After(10 * time.Second):
			t.Fatal("no heartbeat")
		}
	})
	t.Run("Register", func(t *testing.T) {
		puts := e.fd.Calls("PUT", "/applications/"+fakeAppID+"/guilds/1190000000000000001/commands")
		if len(puts) != 1 {
			t.Fatalf("bulk overwrites = %d, want 1", len(puts))
		}
		var cmds []map[string]any
		if err := json.Unmarshal(puts[0].Body, &cmds); err != nil {
			t.Fatal(err)
		}
		if len(cmds) != len(commands.Definitions()) || cmds[0]["name"] != "nim" {
			t.Errorf("registered %s", puts[0].Body)
		}
	})

	boardID := e.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"}, opt{"difficulty", "easy"})
	game := e.channelGame()
	e.waitBoardRecorded(game.ID, boardID)
	end := e.playOut(game.ID, boardID, alice)

	if end.Status != match.Won {
		t.Errorf("status = %s, want won", end.Status)
	}
	if end.MessageID != boardID {
		t.Errorf("stored board message = %q, want %q (BoardSent after fetching @original)", end.MessageID, boardID)
	}
	if got := len(e.fd.Calls("GET", "/messages/@original")); got == 0 {
		t.Error("@original was never fetched")
	}
	moves, err := e.db.Moves(context.Background(), game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != end.Ply {
		t.Errorf("%d moves stored, ply %d", len(moves), end.Ply)
	}
	if _, _, ok := findControl(t, e.fd.Message(t, boardID), is[commands.RematchControl]); !ok {
		t.Errorf("finished board has no Rematch button: %s", e.fd.Message(t, boardID))
	}
	for _, c := range e.fd.Calls("POST", "/callback") {
		if c.Auth != "Bot "+fakeToken {
			t.Errorf("callback without the bot's authorization")
		}
	}
	if err := g.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestGatewayShutdown: an interaction in flight when Close is called is still
// answered, and Close returns only after that.
func TestGatewayShutdown(t *testing.T) {
	e := newEnv(t)
	g := openGateway(t, e, bot.GatewayConfig{AppID: fakeAppID, DeferAfter: time.Minute})
	msgID := e.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"})
	var (
		msg    json.RawMessage
		cid    string
		values []string
		ok     bool
	)
	for step := 0; ; step++ {
		msg = e.fd.Message(t, msgID)
		if cid, values, ok = findControl(t, msg, is[commands.MoveControl], is[commands.MoveMenuControl], is[commands.HeapControl], is[commands.HeapMenuControl]); !ok {
			t.Fatalf("no control on the board: %s", msg)
		}
		if isMove(t, cid) || step == 3 {
			break
		}
		// A heap pick writes nothing, so it would not wait for the lock
		// below: pick first, then hold the move.
		payload := e.p.click(alice, msg, cid, values...)
		msgID = e.messageOf(payload, e.deliver(payload))
	}
	// The handler that answered the last interaction may still be
	// returning; the count below must be the click's alone.
	waitInFlight(t, g, 0)
	// Hold the database's write lock so the move waits inside Handle.
	release := lockDatabase(t, e.path)
	payload := e.p.click(alice, msg, cid, values...)
	var hdr struct{ ID, Token string }
	json.Unmarshal(payload, &hdr)
	wait := e.fd.expect(hdr.ID, hdr.Token, payload)
	e.fd.dispatch("INTERACTION_CREATE", payload)
	// Close only once the interaction is being handled: one that arrives
	// after Close began is not taken, by design.
	waitInFlight(t, g, 1)
	closed := make(chan error, 1)
	go func() { closed <- g.Close(context.Background()) }()
	release()
	select {
	case resp := <-wait:
		if ephemeral(resp) && len(resp.Data.Components) == 0 {
			t.Errorf("the click in flight was refused: %s", describe(resp))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the interaction in flight was not answered")
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if is[commands.MoveControl](control(t, cid)) && e.channelGame().Ply < 1 {
		t.Error("the move in flight was not applied")
	}
}

// waitInFlight waits until g is answering exactly n interactions.
func waitInFlight(t *testing.T, g *bot.Gateway, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); g.InFlight() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d interactions in flight, want %d", g.InFlight(), n)
		}
	}
}

// TestGatewayDeferred: a click that waits on the database longer than
// DeferAfter gets a deferred update by callback at once, and the board is
// finished by editing @original once the move is made.
func TestGatewayDeferred(t *testing.T) {
	e := newEnv(t)
	openGateway(t, e, bot.GatewayConfig{AppID: fakeAppID, DeferAfter: time.Second})
	challengeID := e.start(alice, opt{"opponent", bob}, opt{"heaps", "3 4 5"}, opt{"first", "me"})
	boardID := e.accept(bob, challengeID)
	game := e.channelGame()
	msgID := boardID
	for step := 0; step < 3; step++ {
		msg := e.fd.Message(t, msgID)
		cid, values, ok := findControl(t, msg, is[commands.MoveControl], is[commands.MoveMenuControl], is[commands.HeapControl], is[commands.HeapMenuControl])
		if !ok {
			t.Fatalf("no control: %s", msg)
		}
		payload := e.p.click(alice, msg, cid, values...)
		if !isMove(t, cid) {
			msgID = e.messageOf(payload, e.deliver(payload))
			continue
		}
		release := lockDatabase(t, e.path)
		resp := e.deliver(payload)
		if resp.Type != discordgo.InteractionResponseDeferredMessageUpdate {
			t.Fatalf("want a deferred update while the store is locked, got %s", describe(resp))
		}
		release()
		for deadline := time.Now().Add(20 * time.Second); len(e.fd.Calls("PATCH", "/messages/@original")) == 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the deferred click was never finished")
			}
		}
		if g := e.game(game.ID); g.Ply != 1 {
			t.Errorf("ply %d after the deferred move, want 1", g.Ply)
		}
		return
	}
	t.Fatal("no move control reached")
}

// TestGatewayDeferredHint: through the gateway too, a slow /nim hint is
// deferred ephemerally by callback, and the hint reaches its user alone.
func TestGatewayDeferredHint(t *testing.T) {
	e := newEnv(t)
	g := openGateway(t, e, bot.GatewayConfig{AppID: fakeAppID, DeferAfter: time.Second})
	e.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"})
	since := len(e.fd.Shown())
	release := lockDatabase(t, e.path)
	resp := e.deliver(e.p.command(alice, "hint", opt{"level", 2}))
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("want a deferral while the store is locked, got %s", describe(resp))
	}
	if !ephemeral(resp) {
		t.Errorf("want the deferral ephemeral, got %s", describe(resp))
	}
	release()
	// Close waits for the answer's REST calls.
	if err := g.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.privateAnswer(since, "Try **")
}

// fastBackoff makes the retries of a test wait milliseconds, not seconds.
func fastBackoff(t *testing.T) {
	minWait, maxWait := bot.BackoffMin, bot.BackoffMax
	bot.BackoffMin, bot.BackoffMax = 5*time.Millisecond, 20*time.Millisecond
	t.Cleanup(func() { bot.BackoffMin, bot.BackoffMax = minWait, maxWait })
}

// TestGatewayDiscordAway: an outage of Discord's API at start no longer
// ends the gateway: the connection is retried until it works, and the
// registration is retried in the background while interactions are
// answered; both show in their Status.
func TestGatewayDiscordAway(t *testing.T) {
	t.Run("GatewayRefused", func(t *testing.T) {
		fastBackoff(t)
		e := newEnv(t)
		e.fd.refuseGateway = 3
		g := openGateway(t, e, bot.GatewayConfig{Commands: commands.Definitions()})
		if n := len(e.fd.Calls("GET", "/gateway")); n != 4 {
			t.Errorf("%d GET /gateway, want 3 refused and 1 answered", n)
		}
		if state, err := g.Link().State(); state != bot.StateOK {
			t.Errorf("gateway link %s (%v), want ok", state, err)
		}
		e.start(alice, opt{"heaps", "3 4 5"})
	})
	t.Run("RegistrationRefused", func(t *testing.T) {
		fastBackoff(t)
		e := newEnv(t)
		e.fd.refuseCommands = 3
		g := openGateway(t, e, bot.GatewayConfig{Commands: commands.Definitions()})
		// Interactions are answered while the registration is retried.
		e.start(alice, opt{"heaps", "3 4 5"})
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if state, _ := g.Registration().State(); state == bot.StateOK {
				break
			}
			if time.Now().After(deadline) {
				state, err := g.Registration().State()
				t.Fatalf("registration still %s: %v", state, err)
			}
		}
		if n := len(e.fd.Calls("PUT", "/commands")); n != 4 {
			t.Errorf("%d command overwrites, want 3 refused and 1 accepted", n)
		}
	})
}

// TestGatewayRedelivered: the gateway may deliver an INTERACTION_CREATE
// again (it replays events when a session resumes). A move delivered twice
// is made once and answered with one callback: the store's saved answer
// says it was answered, and Discord would refuse a second callback
// (40060). A re-delivery whose answer is not saved (one that changes
// nothing) is answered afresh; Discord's 40060 for it is no error. A
// callback that comes too late (10062) is logged once, with the
// interaction's age.
func TestGatewayRedelivered(t *testing.T) {
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e := newEnvLog(t, log)
	g := openGateway(t, e, bot.GatewayConfig{AppID: fakeAppID})
	boardID := e.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"}, opt{"difficulty", "easy"})
	game := e.channelGame()

	// callbacks counts the callbacks POSTed for the interaction payload.
	callbacks := func(payload json.RawMessage) int {
		var hdr struct{ ID string }
		json.Unmarshal(payload, &hdr)
		return len(e.fd.Calls("POST", "/interactions/"+hdr.ID+"/"))
	}
	// redeliver dispatches payload again and waits until the gateway is
	// done with it: it found the answer saved (logged at debug level,
	// while the gateway is still busy with it), or it answered again.
	redeliver := func(payload json.RawMessage) {
		t.Helper()
		var hdr struct{ ID string }
		json.Unmarshal(payload, &hdr)
		waitInFlight(t, g, 0)
		e.fd.dispatch("INTERACTION_CREATE", payload)
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
			if callbacks(payload) > 1 || logLine(logs.String(), "interaction="+hdr.ID, "re-delivered") != "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the re-delivered interaction was neither answered nor found answered")
			}
		}
		waitInFlight(t, g, 0)
	}

	t.Run("Move", func(t *testing.T) {
		var payload json.RawMessage
		msgID := boardID
		for step := 0; payload == nil; step++ {
			msg := e.fd.Message(t, msgID)
			cid, values, ok := findControl(t, msg, is[commands.MoveControl], is[commands.MoveMenuControl], is[commands.HeapControl], is[commands.HeapMenuControl])
			if !ok || step == 4 {
				t.Fatalf("no move control on the board: %s", msg)
			}
			click := e.p.click(alice, msg, cid, values...)
			resp := e.deliver(click)
			if isMove(t, cid) {
				payload = click
				break
			}
			msgID = e.messageOf(click, resp)
		}
		moved := e.game(game.ID)
		moves, err := e.db.Moves(context.Background(), game.ID)
		if err != nil || moved.Ply == 0 {
			t.Fatalf("the move was not made: ply %d, %v", moved.Ply, err)
		}
		redeliver(payload)
		if n := callbacks(payload); n != 1 {
			t.Errorf("%d callbacks for one interaction delivered twice, want 1", n)
		}
		again, err := e.db.Moves(context.Background(), game.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != len(moves) || e.game(game.ID).Ply != moved.Ply {
			t.Errorf("the re-delivery moved: %d moves, ply %d; want %d, %d", len(again), e.game(game.ID).Ply, len(moves), moved.Ply)
		}
		var hdr struct{ ID string }
		json.Unmarshal(payload, &hdr)
		if line := logLine(logs.String(), "interaction="+hdr.ID, "re-delivered"); !strings.Contains(line, "level=DEBUG") {
			t.Errorf("the re-delivery was not logged at debug level: %q", line)
		}
	})
	t.Run("AnsweredAfresh", func(t *testing.T) {
		// /nim rules changes nothing: its answer is not saved, and a
		// re-delivery is answered again, which Discord refuses.
		payload := e.p.command(alice, "rules")
		e.deliver(payload)
		redeliver(payload)
		if n := callbacks(payload); n != 2 {
			t.Fatalf("%d callbacks, want 2: the answer afresh and its refusal", n)
		}
		var hdr struct{ ID string }
		json.Unmarshal(payload, &hdr)
		line := logLine(logs.String(), "interaction="+hdr.ID, "code=40060")
		if line == "" || strings.Contains(line, "level=ERROR") {
			t.Errorf("Discord's 40060 was not logged below ERROR: %q", line)
		}
	})
	t.Run("TooLate", func(t *testing.T) {
		// Discord forgot it: the stand-in was not told of it (expect).
		payload := e.p.command(alice, "rules")
		var hdr struct{ ID string }
		json.Unmarshal(payload, &hdr)
		waitInFlight(t, g, 0)
		e.fd.dispatch("INTERACTION_CREATE", payload)
		for deadline := time.Now().Add(20 * time.Second); callbacks(payload) == 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("no callback")
			}
		}
		waitInFlight(t, g, 0)
		out := logs.String()
		if n := strings.Count(out, "interaction="+hdr.ID); n != 1 {
			t.Errorf("the expired interaction was logged %d times, want once:\n%s", n, out)
		}
		if line := logLine(out, "interaction="+hdr.ID, "code=10062"); !strings.Contains(line, "age=") || strings.Contains(line, "level=ERROR") {
			t.Errorf("the expired interaction was not logged below ERROR with its age: %q", line)
		}
	})
	if out := logs.String(); strings.Contains(out, "level=ERROR") {
		t.Errorf("an ERROR was logged:\n%s", out)
	}
}

// logLine returns the first line of out that contains every one of subs,
// "" if none does.
func logLine(out string, subs ...string) string {
	for line := range strings.Lines(out) {
		found := true
		for _, s := range subs {
			found = found && strings.Contains(line, s)
		}
		if found {
			return line
		}
	}
	return ""
}
