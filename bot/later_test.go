package bot_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"nimbot/bot"
	"nimbot/match"
)

// liveGame is a game against nimbot started in a channel of its own, left
// waiting for its player's move.
type liveGame struct {
	id    int64
	board string    // the message its start posted
	token string    // the start's interaction token
	asked time.Time // just before the start was sent
}

// startLive starts game n of the test in a channel and with a player of
// its own (interaction ids apart from the other channels').
func startLive(t *testing.T, e *env, n int) liveGame {
	t.Helper()
	channel := "13100000000000000" + strconv.Itoa(10+n)
	p := newPayloads(t, channel)
	p.n.Store(int64(1000 * (n + 1)))
	u := user{"12100000000000001" + strconv.Itoa(10+n), "player" + strconv.Itoa(n)}
	payload := p.command(u, "start", opt{"heaps", "3 4 5"}, opt{"first", "me"})
	asked := time.Now()
	resp := e.deliver(payload)
	if ephemeral(resp) {
		t.Fatalf("start %d: %s", n, describe(resp))
	}
	g, err := e.db.ChannelGame(context.Background(), channel)
	if err != nil {
		t.Fatalf("start %d: no game: %v", n, err)
	}
	token := tokenOf(t, payload)
	return liveGame{id: g.ID, board: e.fd.Original(token), token: token, asked: asked}
}

// fetchesOf are the fetches of @original made with token.
func fetchesOf(e *env, token string) []restCall {
	var out []restCall
	for _, c := range e.fd.Calls("GET", "/messages/@original") {
		if strings.Contains(c.Path, "/"+token+"/") {
			out = append(out, c)
		}
	}
	return out
}

// TestFetchDelay: a new board is fetched from Discord and recorded only
// when its fetch is due, FetchDelay after the answer, and only if its game
// is still on then; a game over by then costs no REST call and no write.
func TestFetchDelay(t *testing.T) {
	const delay = time.Second
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.FetchDelay = delay })

	// Queued first: a game alice plays out at once against perfect nimbot.
	started := time.Now()
	doneBoard := he.start(alice, opt{"heaps", "2 3 4"}, opt{"first", "me"}, opt{"difficulty", "perfect"})
	done := he.channelGame()
	// Queued second: a game left waiting for its player.
	live := startLive(t, he.env, 0)
	if end := he.playOut(done.ID, doneBoard, alice); end.Status != match.Won {
		t.Fatalf("status %s", end.Status)
	}
	if took := time.Since(started); took > delay*8/10 {
		t.Skipf("the game took %v to play, too close to the %v delay to tell the finished game's fetch from the live one's", took, delay)
	}

	he.waitBoardRecorded(live.id, live.board)
	// One queue, served in order: the finished game's fetch was due first,
	// so it is settled by now.
	if got := he.fd.Calls("GET", "/messages/@original"); len(got) != 1 {
		t.Errorf("%d fetches of @original, want 1 (the live game's board)", len(got))
	}
	if got := he.game(done.ID).MessageID; got != "" {
		t.Errorf("the finished game's board was recorded (%q); its game was over before the fetch was due", got)
	}
	fetches := fetchesOf(he.env, live.token)
	if len(fetches) != 1 {
		t.Fatalf("%d fetches of the live game's board, want 1", len(fetches))
	}
	if early := fetches[0].At.Sub(live.asked); early < delay {
		t.Errorf("the live game's board was fetched %v after its start was sent, before the %v delay", early, delay)
	}
}

// TestFetchDelayFull: past MaxDelayed waiting fetches, a new board is
// fetched at once, as with no delay; the waiting ones stay queued.
func TestFetchDelayFull(t *testing.T) {
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.FetchDelay, c.MaxDelayed = time.Hour, 1 })
	queued := startLive(t, he.env, 0)
	overflow := startLive(t, he.env, 1)
	he.waitBoardRecorded(overflow.id, overflow.board)
	if n := len(fetchesOf(he.env, queued.token)); n != 0 {
		t.Errorf("the queued board was fetched %d times before its hour was up", n)
	}
	if got := he.game(queued.id).MessageID; got != "" {
		t.Errorf("the queued board was recorded (%q) before its fetch was due", got)
	}
	if err := he.h.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := he.game(queued.id).MessageID; got != queued.board {
		t.Errorf("after Wait: queued board recorded as %q, want %q", got, queued.board)
	}
}

// TestFetchDelayShutdown: shutdown does not wait for the delay: the fetches
// still waiting are due at once, within Wait's context; the finished
// games' are skipped. With Discord's API hanging they are abandoned when
// the context ends (the games are saved; only the message ids are not).
func TestFetchDelayShutdown(t *testing.T) {
	t.Run("HTTP", func(t *testing.T) {
		he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.FetchDelay = time.Hour })
		doneBoard := he.start(alice, opt{"heaps", "2 3 4"}, opt{"first", "me"}, opt{"difficulty", "perfect"})
		done := he.channelGame()
		live := startLive(t, he.env, 0)
		he.playOut(done.ID, doneBoard, alice)
		ctx, cancel := context.WithTimeout(context.Background(), bot.FollowupGrace)
		defer cancel()
		if err := he.h.Wait(ctx); err != nil {
			t.Fatalf("Wait: %v", err)
		}
		if got := he.game(live.id).MessageID; got != live.board {
			t.Errorf("live game's board recorded as %q, want %q", got, live.board)
		}
		if n := len(he.fd.Calls("GET", "/messages/@original")); n != 1 {
			t.Errorf("%d fetches of @original, want 1 (the live game's board)", n)
		}
		if got := he.game(done.ID).MessageID; got != "" {
			t.Errorf("the finished game's board was recorded (%q)", got)
		}
	})
	t.Run("Gateway", func(t *testing.T) {
		e := newEnv(t)
		g := openGateway(t, e, bot.GatewayConfig{AppID: fakeAppID, FetchDelay: time.Hour})
		live := startLive(t, e, 0)
		if err := g.Close(context.Background()); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if got := e.game(live.id).MessageID; got != live.board {
			t.Errorf("live game's board recorded as %q, want %q", got, live.board)
		}
	})
	t.Run("APIHanging", func(t *testing.T) {
		he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.FetchDelay = time.Hour })
		live := startLive(t, he.env, 0)
		hang := make(chan struct{})
		he.fd.mu.Lock()
		he.fd.hang = hang
		he.fd.mu.Unlock()
		t.Cleanup(func() { close(hang) })
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		if err := he.h.Wait(ctx); err == nil {
			t.Error("Wait reported nothing abandoned with the API hanging")
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("Wait took %v with a 100 ms context", took)
		}
		if n := len(fetchesOf(he.env, live.token)); n != 1 {
			t.Errorf("%d fetches of the live board, want 1 (made due by Wait, then abandoned)", n)
		}
		if g := he.game(live.id); g.Status != match.Active || g.MessageID != "" {
			t.Errorf("game %s, board %q: want it saved and active, its board unrecorded", g.Status, g.MessageID)
		}
	})
}
