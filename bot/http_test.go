package bot_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/match"
)

// signer plays Discord's part in HTTP mode: it signs each request with the
// application's private key.
type signer struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

// testKey is a fixed key pair, so failures reproduce.
func testKey(seed byte) signer {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
	return signer{pub: priv.Public().(ed25519.PublicKey), priv: priv}
}

// request builds a POST signed over timestamp+body.
func (s signer) request(t testing.TB, url string, body []byte, ts time.Time) *http.Request {
	t.Helper()
	stamp := strconv.FormatInt(ts.Unix(), 10)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(s.priv, append([]byte(stamp), body...))))
	return req
}

// httpEnv serves bot.HTTP on loopback, its REST calls going to the stand-in.
type httpEnv struct {
	*env
	key signer
	srv *httptest.Server
	h   *bot.HTTP
}

func newHTTPEnv(t *testing.T, mod func(*bot.HTTPConfig)) *httpEnv {
	t.Helper()
	e := newEnv(t)
	he := &httpEnv{env: e, key: testKey(7)}
	cfg := bot.HTTPConfig{
		Service: e.svc, PublicKey: he.key.pub, Session: e.fd.session(t),
		Checks: bot.DatabaseChecks(e.db, 1), Now: e.clock.Now, Log: e.log,
	}
	if mod != nil {
		mod(&cfg)
	}
	he.h = bot.NewHTTP(cfg)
	he.srv = httptest.NewServer(he.h)
	t.Cleanup(func() {
		he.srv.Close()
		he.h.Wait(context.Background())
	})
	e.deliver = func(payload json.RawMessage) *discordgo.InteractionResponse {
		t.Helper()
		status, body := he.post(he.key.request(t, he.srv.URL+"/interactions", payload, e.clock.Now()))
		if status != http.StatusOK {
			t.Fatalf("status %d: %s", status, body)
		}
		resp, err := decodeResponse(body)
		if err != nil {
			t.Fatalf("response %s: %v", body, err)
		}
		// Discord now does what the response says; the bot may fetch it.
		e.fd.delivered(tokenOf(t, payload), payload, resp)
		return resp
	}
	return he
}

func (he *httpEnv) post(req *http.Request) (int, []byte) {
	he.t.Helper()
	res, err := he.srv.Client().Do(req)
	if err != nil {
		he.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, body
}

func TestHTTPPing(t *testing.T) {
	he := newHTTPEnv(t, nil)
	status, body := he.post(he.key.request(t, he.srv.URL+"/interactions", fixture(t, "ping.json"), he.clock.Now()))
	if status != http.StatusOK || strings.TrimSpace(string(body)) != `{"type":1}` {
		t.Fatalf("PING: %d %s, want 200 {\"type\":1}", status, body)
	}
}

// TestHTTPFraming: every answer goes out with its Content-Length, so the
// whole response is one write to the socket: chunked framing costs a second
// write (the last chunk) per request, and Discord reads the answer no
// sooner.
func TestHTTPFraming(t *testing.T) {
	he := newHTTPEnv(t, nil)
	check := func(what string, payload []byte, wantType string) []byte {
		t.Helper()
		res, err := he.srv.Client().Do(he.key.request(t, he.srv.URL+"/interactions", payload, he.clock.Now()))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), `{"type":`+wantType) {
			t.Fatalf("%s: %d %s", what, res.StatusCode, body)
		}
		if len(res.TransferEncoding) != 0 || res.ContentLength != int64(len(body)) {
			t.Errorf("%s: transfer encoding %q, content length %d for %d bytes", what, res.TransferEncoding, res.ContentLength, len(body))
		}
		if ct := res.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: content type %q", what, ct)
		}
		return body
	}
	check("ping", fixture(t, "ping.json"), "1")
	start := he.p.command(alice, "start", opt{"heaps", "10 20 30"}, opt{"first", "me"}, opt{"difficulty", "perfect"})
	resp, err := decodeResponse(check("start", start, "4"))
	if err != nil {
		t.Fatal(err)
	}
	he.fd.delivered(tokenOf(t, start), start, resp)
	board := he.fd.Message(t, he.fd.Original(tokenOf(t, start)))
	g := he.channelGame()
	pick := commands.HeapControl{Game: g.ID, Ply: g.Ply, Heap: 1}.CustomID()
	check("heap pick", he.p.click(alice, board, pick), "7")
	check("refusal", he.p.click(carol, board, pick), "4")
}

// TestHTTPRejects: every request that is not a fresh, genuine POST from
// Discord is refused before anything runs: no game, no saved response, no
// REST call. The last case is the same request signed properly, so the test
// shows the refusals are not an accident of the payload.
func TestHTTPRejects(t *testing.T) {
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.MaxBody = 64 << 10 })
	url := he.srv.URL + "/interactions"
	now := he.clock.Now()
	payload := he.p.command(alice, "start", opt{"heaps", "3 4 5"})
	forger := testKey(9)
	big := append(append([]byte{}, payload[:len(payload)-1]...), []byte(`,"padding":"`+strings.Repeat("x", 64<<10)+`"}`)...)

	cases := []struct {
		name string
		req  func() *http.Request
		want int
	}{
		{"forged", func() *http.Request { return forger.request(t, url, payload, now) }, http.StatusUnauthorized},
		{"tampered", func() *http.Request {
			r := he.key.request(t, url, payload, now)
			tampered := bytes.Replace(payload, []byte("3 4 5"), []byte("1 1 1"), 1)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(tampered)), int64(len(tampered))
			return r
		}, http.StatusUnauthorized},
		{"missing signature", func() *http.Request {
			r := he.key.request(t, url, payload, now)
			r.Header.Del("X-Signature-Ed25519")
			return r
		}, http.StatusUnauthorized},
		{"missing timestamp", func() *http.Request {
			r := he.key.request(t, url, payload, now)
			r.Header.Del("X-Signature-Timestamp")
			return r
		}, http.StatusUnauthorized},
		{"malformed signature", func() *http.Request {
			r := he.key.request(t, url, payload, now)
			r.Header.Set("X-Signature-Ed25519", "not-hex")
			return r
		}, http.StatusUnauthorized},
		{"stale", func() *http.Request {
			return he.key.request(t, url, payload, now.Add(-bot.MaxTimestampAge-time.Second))
		}, http.StatusUnauthorized},
		{"future", func() *http.Request {
			return he.key.request(t, url, payload, now.Add(bot.MaxTimestampSkew+time.Second))
		}, http.StatusUnauthorized},
		{"oversized", func() *http.Request { return he.key.request(t, url, big, now) }, http.StatusRequestEntityTooLarge},
		{"oversized without length", func() *http.Request {
			r := he.key.request(t, url, big, now)
			r.ContentLength = -1 // chunked: the cap must hold while reading
			return r
		}, http.StatusRequestEntityTooLarge},
		{"wrong method", func() *http.Request {
			r := he.key.request(t, url, payload, now)
			r.Method = http.MethodGet
			return r
		}, http.StatusMethodNotAllowed},
		{"PUT", func() *http.Request {
			r := he.key.request(t, url, payload, now)
			r.Method = http.MethodPut
			return r
		}, http.StatusMethodNotAllowed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if status, body := he.post(c.req()); status != c.want {
				t.Errorf("status %d (%s), want %d", status, body, c.want)
			}
		})
	}
	t.Run("NothingWritten", func(t *testing.T) {
		if _, err := he.db.ChannelGame(context.Background(), testChannel); !isNotFound(err) {
			t.Errorf("a rejected request started a game (err %v)", err)
		}
		if _, err := he.db.Response(context.Background(), answerKey(t, payload)); !isNotFound(err) {
			t.Errorf("a rejected request saved a response (err %v)", err)
		}
		he.fd.mu.Lock()
		calls := len(he.fd.calls)
		he.fd.mu.Unlock()
		if calls != 0 {
			t.Errorf("%d REST calls after rejected requests", calls)
		}
	})
	t.Run("GenuineAccepted", func(t *testing.T) {
		if resp := he.deliver(payload); ephemeral(resp) {
			t.Fatalf("refused: %s", describe(resp))
		}
		if _, err := he.db.ChannelGame(context.Background(), testChannel); err != nil {
			t.Errorf("the genuine request started no game: %v", err)
		}
	})
}

// TestHTTPUnusableKey: an endpoint configured with a public key that cannot
// verify anything (main refuses such a key with bot.CheckPublicKey) answers
// every request 401, however it is signed; with a key of the wrong length
// crypto/ed25519.Verify used to panic on each request.
func TestHTTPUnusableKey(t *testing.T) {
	for name, key := range map[string]ed25519.PublicKey{
		"WrongLength":    testKey(7).pub[:31],
		"NotACurvePoint": ed25519.PublicKey(bytes.Repeat([]byte{0xab}, ed25519.PublicKeySize)),
	} {
		t.Run(name, func(t *testing.T) {
			if bot.CheckPublicKey(key) == nil {
				t.Fatalf("CheckPublicKey accepts %x", key)
			}
			he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.PublicKey = key })
			if status, body := he.post(he.key.request(t, he.srv.URL+"/interactions", fixture(t, "ping.json"), he.clock.Now())); status != http.StatusUnauthorized {
				t.Errorf("status %d (%s), want 401", status, body)
			}
		})
	}
}

// TestHTTPGames plays whole games purely by signed payloads.
func TestHTTPGames(t *testing.T) {
	t.Run("VsBot", func(t *testing.T) {
		he := newHTTPEnv(t, nil)
		boardID := he.start(alice, opt{"heaps", "2 3 4"}, opt{"first", "me"}, opt{"difficulty", "perfect"})
		game := he.channelGame()
		end := he.playOut(game.ID, boardID, alice)
		if end.Status != match.Won || end.Winner != match.BotID {
			t.Errorf("status %s winner %q: perfect nimbot wins 2 3 4 once alice slips, and her first button (take 1 from A) slips", end.Status, end.Winner)
		}
		he.h.Wait(context.Background())
		he.noBoardFetched(game.ID)
	})
	t.Run("People", func(t *testing.T) {
		he := newHTTPEnv(t, nil)
		challengeID := he.start(alice, opt{"opponent", bob}, opt{"heaps", "3 5"}, opt{"first", "me"})
		boardID := he.accept(bob, challengeID)
		game := he.channelGame()
		if game.Status != match.Active {
			t.Fatalf("after Accept: status %s", game.Status)
		}
		end := he.playOut(game.ID, boardID, alice, bob)
		if end.Status != match.Won || (end.Winner != alice.ID && end.Winner != bob.ID) {
			t.Errorf("status %s winner %q", end.Status, end.Winner)
		}
		he.h.Wait(context.Background())
		he.noBoardFetched(game.ID)
	})
}

// noBoardFetched: the game finished before its board's fetch was due
// (DefaultFetchDelay; Wait made it due), so its board was neither fetched
// nor recorded.
func (he *httpEnv) noBoardFetched(id int64) {
	he.t.Helper()
	if n := len(he.fd.Calls("GET", "/messages/@original")); n != 0 {
		he.t.Errorf("@original fetched %d times for a game that was over before the fetch was due", n)
	}
	if got := he.game(id).MessageID; got != "" {
		he.t.Errorf("stored board = %q for a game that was over before the fetch was due, want none", got)
	}
}

// TestHTTPHintLevels: through the signed HTTP endpoint, the board's 💡
// button posts an ephemeral hint, and the hint's own "Show the move"
// button updates that hint in place rather than posting another: the
// click carries the hint message with its flags (64, ephemeral), which
// decide it.
func TestHTTPHintLevels(t *testing.T) {
	he := newHTTPEnv(t, nil)
	boardID := he.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"}, opt{"difficulty", "easy"})
	hintLevel := func(level func(int) bool) func(commands.Control) bool {
		return func(c commands.Control) bool {
			h, ok := c.(commands.HintControl)
			return ok && level(h.Level)
		}
	}
	board := he.fd.Message(t, boardID)
	cid, _, ok := findControl(t, board, hintLevel(func(l int) bool { return l == 0 }))
	if !ok {
		t.Fatalf("no 💡 button on the board: %s", board)
	}
	payload := he.p.click(alice, board, cid)
	resp := he.deliver(payload)
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || !ephemeral(resp) {
		t.Fatalf("💡: want a new ephemeral hint, got %s", describe(resp))
	}
	hint := he.fd.Message(t, he.messageOf(payload, resp))
	if cid, _, ok = findControl(t, hint, hintLevel(func(l int) bool { return l > 0 })); !ok {
		t.Fatalf("no level button on the hint: %s", hint)
	}
	if resp := he.deliver(he.p.click(alice, hint, cid)); resp.Type != discordgo.InteractionResponseUpdateMessage {
		t.Errorf("the hint's own %s button: want an update of the hint, got %s", cid, describe(resp))
	}
}

// TestHTTPGroupDM plays a game between two people in a group DM, nimbot
// installed to alice's account, through the signed HTTP endpoint.
func TestHTTPGroupDM(t *testing.T) {
	he := newHTTPEnv(t, nil)
	he.p.groupDM = true
	challengeID := he.start(alice, opt{"opponent", bob}, opt{"heaps", "3 5"}, opt{"first", "me"})
	boardID := he.accept(bob, challengeID)
	game := he.channelGame()
	if game.Status != match.Active || game.GuildID != "" || !game.InteractionOnly {
		t.Fatalf("after Accept: %+v", game)
	}
	end := he.playOut(game.ID, boardID, alice, bob)
	if end.Status != match.Won || (end.Winner != alice.ID && end.Winner != bob.ID) {
		t.Errorf("status %s winner %q", end.Status, end.Winner)
	}
}

// TestHTTPConcurrentClicks: 200 clicks on one board at once. Exactly one move
// is applied; every click gets an answer.
func TestHTTPConcurrentClicks(t *testing.T) {
	he := newHTTPEnv(t, nil)
	challengeID := he.start(alice, opt{"opponent", bob}, opt{"heaps", "5 6 7"}, opt{"first", "me"})
	boardID := he.accept(bob, challengeID)
	game := he.channelGame()

	// Reach a message with a move control, as alice would.
	msgID := boardID
	var cid string
	var values []string
	for step := 0; ; step++ {
		msg := he.fd.Message(t, msgID)
		var ok bool
		if cid, values, ok = findControl(t, msg, is[commands.MoveControl], is[commands.MoveMenuControl]); ok {
			break
		}
		heap, hv, ok := findControl(t, msg, is[commands.HeapControl], is[commands.HeapMenuControl])
		if !ok || step == 3 {
			t.Fatalf("no move control: %s", msg)
		}
		payload := he.p.click(alice, msg, heap, hv...)
		msgID = he.messageOf(payload, he.deliver(payload))
	}
	msg := he.fd.Message(t, msgID)

	const n = 200
	reqs := make([]*http.Request, n)
	for k := range reqs {
		reqs[k] = he.key.request(t, he.srv.URL+"/interactions", he.p.click(alice, msg, cid, values...), he.clock.Now())
	}
	type answer struct {
		status int
		resp   *discordgo.InteractionResponse
	}
	answers := make([]answer, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for k := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res, err := he.srv.Client().Do(reqs[k])
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			answers[k].status = res.StatusCode
			answers[k].resp, _ = decodeResponse(body)
		}()
	}
	close(start)
	wg.Wait()
	he.h.Wait(context.Background())

	// Each click is answered inline: the one that moved with the updated
	// board, the others with an ephemeral refusal, or, when the machine is
	// slow enough that Handle overran DeferAfter, with a deferred update
	// finished later by REST (an edit of @original or a follow-up).
	var updated, refused, deferred int
	for k, a := range answers {
		if a.status != http.StatusOK || a.resp == nil {
			t.Fatalf("click %d: status %d, no answer", k, a.status)
		}
		switch {
		case a.resp.Type == discordgo.InteractionResponseUpdateMessage:
			updated++
		case a.resp.Type == discordgo.InteractionResponseDeferredMessageUpdate:
			deferred++
		case ephemeral(a.resp):
			refused++
		default:
			t.Errorf("click %d: unexpected answer %s", k, describe(a.resp))
		}
	}
	lateEdits := len(he.fd.Calls("PATCH", "/messages/@original"))
	followups := 0
	for _, c := range he.fd.Calls("POST", "/webhooks/") {
		if !strings.Contains(c.Path, "/messages/") {
			followups++
		}
	}
	t.Logf("%d updated, %d refused, %d deferred (%d late edits, %d follow-ups)", updated, refused, deferred, lateEdits, followups)
	if lateEdits+followups != deferred {
		t.Errorf("%d deferred clicks but %d late answers", deferred, lateEdits+followups)
	}
	if updated+lateEdits != 1 {
		t.Errorf("%d clicks updated the board, want exactly 1", updated+lateEdits)
	}
	moves, err := he.db.Moves(context.Background(), game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 {
		t.Errorf("%d moves applied, want exactly 1", len(moves))
	}
	if g := he.game(game.ID); g.Ply != 1 {
		t.Errorf("ply %d, want 1", g.Ply)
	}
}

// TestHTTPDeferred: when Handle overruns DeferAfter, Discord gets a
// deferred update at once and the board is finished by editing @original.
func TestHTTPDeferred(t *testing.T) {
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.DeferAfter = time.Second })
	challengeID := he.start(alice, opt{"opponent", bob}, opt{"heaps", "3 4 5"}, opt{"first", "me"})
	boardID := he.accept(bob, challengeID)
	game := he.channelGame()
	msgID := boardID
	for step := 0; step < 3; step++ {
		msg := he.fd.Message(t, msgID)
		cid, values, ok := findControl(t, msg, is[commands.MoveControl], is[commands.MoveMenuControl], is[commands.HeapControl], is[commands.HeapMenuControl])
		if !ok {
			t.Fatalf("no control: %s", msg)
		}
		if isMove(t, cid) {
			release := lockDatabase(t, he.path)
			payload := he.p.click(alice, msg, cid, values...)
			resp := he.deliver(payload)
			if resp.Type != discordgo.InteractionResponseDeferredMessageUpdate {
				t.Fatalf("want a deferred update while the store is locked, got %s", describe(resp))
			}
			release()
			he.h.Wait(context.Background())
			if edits := he.fd.Calls("PATCH", "/messages/@original"); len(edits) != 1 {
				t.Fatalf("%d edits of @original, want 1", len(edits))
			}
			if g := he.game(game.ID); g.Ply != 1 {
				t.Errorf("ply %d after the deferred move, want 1", g.Ply)
			}
			return
		}
		payload := he.p.click(alice, msg, cid, values...)
		msgID = he.messageOf(payload, he.deliver(payload))
	}
	t.Fatal("no move control reached")
}

// healthz is a GET of /healthz: its status and JSON body.
func (he *httpEnv) healthz(t *testing.T) (int, healthBody) {
	t.Helper()
	res, err := he.srv.Client().Get(he.srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body healthBody
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("healthz body: %v", err)
	}
	return res.StatusCode, body
}

type healthBody struct {
	Status string `json:"status"`
	Checks []struct {
		Name      string `json:"name"`
		OK        bool   `json:"ok"`
		Essential bool   `json:"essential"`
		Detail    string `json:"detail"`
		Error     string `json:"error"`
	} `json:"checks"`
}

// failed is the names of the failed checks.
func (b healthBody) failed() []string {
	var names []string
	for _, c := range b.Checks {
		if !c.OK {
			names = append(names, c.Name)
		}
	}
	return names
}

// TestHealthz: /healthz fails (503, naming the check) for each fault that
// stops moves from being saved, where a Ping of the open connections said
// 200: the database closed, the file deleted, the write lock held by
// another connection, too little disk; Discord being away is shown, not
// fatal.
func TestHealthz(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		he := newHTTPEnv(t, nil)
		status, body := he.healthz(t)
		if status != http.StatusOK || body.Status != "ok" || len(body.Checks) != 3 || body.failed() != nil {
			t.Fatalf("healthz: %d %+v", status, body)
		}
	})
	t.Run("Closed", func(t *testing.T) {
		he := newHTTPEnv(t, nil)
		he.db.Close()
		if status, body := he.healthz(t); status != http.StatusServiceUnavailable || !slices.Contains(body.failed(), "database_write") {
			t.Fatalf("closed database: %d %+v", status, body)
		}
	})
	t.Run("FileDeleted", func(t *testing.T) {
		he := newHTTPEnv(t, nil)
		if err := os.Remove(he.path); err != nil {
			t.Fatal(err)
		}
		if status, body := he.healthz(t); status != http.StatusServiceUnavailable || !slices.Equal(body.failed(), []string{"database_file"}) {
			t.Fatalf("deleted file: %d %+v", status, body)
		}
	})
	t.Run("WriteLockHeld", func(t *testing.T) {
		he := newHTTPEnv(t, nil)
		release := lockDatabase(t, he.path)
		defer release()
		start := time.Now()
		status, body := he.healthz(t)
		if status != http.StatusServiceUnavailable || !slices.Equal(body.failed(), []string{"database_write"}) {
			t.Fatalf("write lock held: %d %+v", status, body)
		}
		if took := time.Since(start); took > 3*bot.HealthTimeout {
			t.Errorf("healthz took %v with the lock held", took)
		}
	})
	t.Run("DiskLow", func(t *testing.T) {
		he := newHTTPEnv(t, nil)
		rec := httptest.NewRecorder()
		(&bot.Health{Checks: bot.DatabaseChecks(he.db, 1<<62), Log: he.log}).ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
		var body healthBody
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if rec.Code != http.StatusServiceUnavailable || !slices.Equal(body.failed(), []string{"disk_free"}) {
			t.Fatalf("disk low: %d %+v", rec.Code, body)
		}
	})
}

// TestHealthzShared: /healthz is public, and its database check writes; a
// burst of requests, at once or one after another, runs the checks once,
// and a request after Reuse runs them again.
func TestHealthzShared(t *testing.T) {
	var runs atomic.Int32
	clk := &clock{now: time.Now()}
	h := &bot.Health{Reuse: time.Second, Now: clk.Now, Checks: []bot.Check{{Name: "counted", Essential: true,
		Run: func(ctx context.Context) (string, error) {
			runs.Add(1)
			time.Sleep(5 * time.Millisecond) // long enough for the burst to overlap it
			return "", nil
		}}}}
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func() {
		res, err := srv.Client().Get(srv.URL)
		if err != nil {
			t.Error(err)
			return
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"counted"`) {
			t.Errorf("healthz: %d %s", res.StatusCode, body)
		}
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(get)
	}
	wg.Wait()
	for range 20 {
		get()
	}
	clk.Advance(h.Reuse - time.Millisecond)
	get()
	if n := runs.Load(); n != 1 {
		t.Fatalf("41 requests within Reuse ran the checks %d times, want 1", n)
	}
	clk.Advance(time.Millisecond)
	get()
	if n := runs.Load(); n != 2 {
		t.Fatalf("a request after Reuse: %d runs, want 2", n)
	}
}

// TestHTTPDeferredStart: a slow /nim start is answered with a deferred
// message at once; the board replaces the placeholder (edit of @original)
// and is recorded as the game's board.
func TestHTTPDeferredStart(t *testing.T) {
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.DeferAfter = time.Second })
	release := lockDatabase(t, he.path)
	payload := he.p.command(alice, "start", opt{"heaps", "3 4 5"}, opt{"first", "me"})
	resp := he.deliver(payload)
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("want a deferred message while the store is locked, got %s", describe(resp))
	}
	release()
	he.h.Wait(context.Background())
	if edits := he.fd.Calls("PATCH", "/messages/@original"); len(edits) != 1 {
		t.Fatalf("%d edits of @original, want 1", len(edits))
	}
	boardID := he.fd.Original(tokenOf(t, payload))
	if _, _, ok := findControl(t, he.fd.Message(t, boardID), is[commands.HeapControl], is[commands.HeapMenuControl], is[commands.MoveControl]); !ok {
		t.Errorf("the placeholder did not become the board: %s", he.fd.Message(t, boardID))
	}
	if g := he.channelGame(); g.MessageID != boardID {
		t.Errorf("stored board %q, want %q", g.MessageID, boardID)
	}
	// The board names nobody to notify, so the placeholder can be it:
	// nothing else is sent.
	if n, d := len(he.fd.Calls("POST", "/webhooks/")), len(he.fd.Calls("DELETE", "/webhooks/")); n+d != 0 {
		t.Errorf("%d follow-ups and %d deletes, want none", n, d)
	}
}

// TestHTTPDeferredHint: a slow /nim hint is deferred ephemerally (Discord
// keeps a deferral's ephemeral state for the answer that replaces it), and
// the hint, the winning move, reaches its user alone: it is never shown in
// public, not even for a moment.
func TestHTTPDeferredHint(t *testing.T) {
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.DeferAfter = time.Second })
	he.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"})
	since := len(he.fd.Shown())
	release := lockDatabase(t, he.path)
	resp := he.deliver(he.p.command(alice, "hint", opt{"level", 2}))
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("want a deferral while the store is locked, got %s", describe(resp))
	}
	if !ephemeral(resp) {
		t.Errorf("want the deferral ephemeral, got %s", describe(resp))
	}
	release()
	he.h.Wait(context.Background())
	he.privateAnswer(since, "Try **")
}

// deferredStart delivers a /nim start from u while the store is
// locked, so that it is deferred, checks that the deferral is public (a
// start may post a board), then unlocks the store and waits for the
// deferred work to finish.
func (he *httpEnv) deferredStart(t *testing.T, u user, opts ...opt) {
	t.Helper()
	release := lockDatabase(t, he.path)
	resp := he.deliver(he.p.command(u, "start", opts...))
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || ephemeral(resp) {
		t.Fatalf("want a public deferral while the store is locked, got %s", describe(resp))
	}
	release()
	he.h.Wait(context.Background())
}

// TestHTTPDeferredRefusal: a slow /nim start refused because the channel
// has a game is deferred in public (a start may post a board), yet the
// refusal reaches its user alone, as a message of its own: an ephemeral
// follow-up sent straight after the deferral would have edited the public
// placeholder instead.
func TestHTTPDeferredRefusal(t *testing.T) {
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.DeferAfter = time.Second })
	he.start(alice, opt{"heaps", "3 4 5"})
	since := len(he.fd.Shown())
	he.deferredStart(t, bob, opt{"heaps", "3 4 5"})
	he.privateAnswer(since, "already has a game")
}

// TestHTTPDeferredChallenge: a slow challenge still pings the challenged
// player, which an edit of the placeholder never does: it comes as a
// message of its own, the one public message the command leaves, recorded
// as the game's board.
func TestHTTPDeferredChallenge(t *testing.T) {
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.DeferAfter = time.Second })
	since := len(he.fd.Shown())
	he.deferredStart(t, alice, opt{"opponent", bob}, opt{"heaps", "3 4 5"})
	left := he.left(since)
	if len(left) != 1 {
		t.Fatalf("%d messages left (%v), want 1: the challenge", len(left), left)
	}
	challenge := he.fd.Message(t, left[0])
	if _, _, ok := findControl(t, challenge, is[commands.AcceptControl]); !ok {
		t.Fatalf("the message left is not the challenge: %s", challenge)
	}
	if m, _ := decodeMessage(challenge); m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Errorf("the challenge is ephemeral: %s", challenge)
	}
	if pings := he.fd.Pings(); len(pings) != 1 || pings[0] != (ping{MessageID: left[0], UserID: bob.ID}) {
		t.Errorf("pings %v, want bob's, by the challenge %s", pings, left[0])
	}
	if g := he.channelGame(); g.MessageID != left[0] {
		t.Errorf("stored board %q, want the challenge %q", g.MessageID, left[0])
	}
}

// TestHTTPDeferredFollowupFails: when the follow-up that was to take a
// public placeholder's place fails, the placeholder ("↓") is deleted all
// the same rather than left pointing at nothing. Discord may answer 502
// after it made the follow-up: then the challenge is there, and still only
// the "↓" goes (a line saying it failed would be false).
func TestHTTPDeferredFollowupFails(t *testing.T) {
	for _, c := range []struct {
		name string
		made bool // the follow-up was made before the 502
	}{{"not made", false}, {"made, then 502", true}} {
		t.Run(c.name, func(t *testing.T) {
			he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.DeferAfter = time.Second })
			he.fd.mu.Lock()
			if c.made {
				he.fd.lostFollowups = 1
			} else {
				he.fd.failFollowups = 1
			}
			he.fd.mu.Unlock()
			since := len(he.fd.Shown())
			he.deferredStart(t, alice, opt{"opponent", bob}, opt{"heaps", "3 4 5"})
			if n := len(he.fd.Calls("POST", "/webhooks/")); n != 1 {
				t.Fatalf("%d follow-ups, want 1 (not retried on 502)", n)
			}
			left := he.left(since)
			for _, id := range left {
				if m, _ := decodeMessage(he.fd.Message(t, id)); m.Content == "↓" {
					t.Errorf("the placeholder %s is left pointing at nothing", id)
				}
			}
			if want := map[bool]int{false: 0, true: 1}[c.made]; len(left) != want {
				t.Errorf("%d messages left (%v), want %d", len(left), left, want)
			}
		})
	}
}

// TestHTTPDeferredConnection: while a deferred interaction's Handle is
// still running, the client's next request on the same keep-alive client
// is answered at once, not after it: the deferral tells the client to
// close that connection (Handle goes on on its goroutine).
func TestHTTPDeferredConnection(t *testing.T) {
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.DeferAfter = 200 * time.Millisecond })
	release := lockDatabase(t, he.path)
	resp := he.deliver(he.p.command(alice, "start", opt{"heaps", "3 4 5"}, opt{"first", "me"}))
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("want a deferred message while the store is locked, got %s", describe(resp))
	}
	pinged := make(chan string, 1)
	go func() {
		res, err := he.srv.Client().Do(he.key.request(t, he.srv.URL+"/interactions", fixture(t, "ping.json"), he.clock.Now()))
		if err != nil {
			pinged <- err.Error()
			return
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		pinged <- string(body)
	}()
	select {
	case body := <-pinged:
		if strings.TrimSpace(body) != `{"type":1}` {
			t.Errorf("PING answered %s", body)
		}
	case <-time.After(3 * time.Second):
		t.Error("the next request waited for the deferred interaction's Handle")
	}
	release()
	he.h.Wait(context.Background())
	if edits := he.fd.Calls("PATCH", "/messages/@original"); len(edits) != 1 {
		t.Fatalf("%d edits of @original, want 1", len(edits))
	}
}

// syncBuffer is a log destination goroutines can share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestNoTokenInLogs: when Discord cannot be reached, the failure is logged,
// but neither the interaction token (it is in webhook URLs) nor the bot
// token reaches the log.
func TestNoTokenInLogs(t *testing.T) {
	var logs syncBuffer
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) {
		c.Log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		s, err := bot.NewSession(fakeToken)
		if err != nil {
			t.Fatal(err)
		}
		target, _ := url.Parse(down.URL)
		s.Client = &http.Client{Transport: redirect{target: target}}
		c.Session = s
	})
	payload := he.p.command(alice, "start", opt{"heaps", "3 4 5"})
	he.deliver(payload)
	he.h.Wait(context.Background())
	out := logs.String()
	if !strings.Contains(out, "fetching the new message") {
		t.Fatalf("the failed fetch was not logged: %s", out)
	}
	for _, secret := range []string{tokenOf(t, payload), fakeToken} {
		if strings.Contains(out, secret) {
			t.Errorf("log contains a token: %s", out)
		}
	}
}

// TestRejectedLogSparse: anyone can send badly signed requests; each is
// refused (401), but a flood of them logs a line a second at most, the next
// one counting those left out.
func TestRejectedLogSparse(t *testing.T) {
	var logs syncBuffer
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.Log = slog.New(slog.NewTextHandler(&logs, nil)) })
	url := he.srv.URL + "/interactions"
	payload := he.p.command(alice, "start", opt{"heaps", "3 4 5"})
	forger := testKey(9)
	for k := range 50 {
		if k == 49 {
			he.clock.Advance(time.Second - time.Millisecond)
		}
		if status, body := he.post(forger.request(t, url, payload, he.clock.Now())); status != http.StatusUnauthorized {
			t.Fatalf("status %d (%s), want 401", status, body)
		}
	}
	if n := strings.Count(logs.String(), "rejected request"); n != 1 {
		t.Fatalf("50 rejected requests within a second logged %d lines, want 1:\n%s", n, logs.String())
	}
	he.clock.Advance(time.Millisecond)
	he.post(forger.request(t, url, payload, he.clock.Now()))
	if out := logs.String(); strings.Count(out, "rejected request") != 2 || !strings.Contains(out, "not_logged_before=49") {
		t.Fatalf("the next line, a second later, must count the 49 left out:\n%s", out)
	}
}

// TestHTTPPendingBound: with Discord's API hanging, the answers waiting on
// it in the background are bounded (the rest dropped and counted, their
// games saved), and shutdown does not wait past its context for them.
func TestHTTPPendingBound(t *testing.T) {
	// No fetch delay: every new board's fetch is made at once, as when the
	// delayed fetches are at their bound.
	he := newHTTPEnv(t, func(c *bot.HTTPConfig) { c.MaxPending, c.FetchDelay = 2, -1 })
	hang := make(chan struct{})
	he.fd.mu.Lock()
	he.fd.hang = hang
	he.fd.mu.Unlock()
	t.Cleanup(func() { close(hang) })
	ctx := context.Background()
	for i := range 4 {
		channel := "13000000000000000" + strconv.Itoa(10+i)
		p := newPayloads(t, channel)
		p.n.Store(int64(1000 * (i + 1))) // interaction ids of their own
		// A different player each time: one player's starts are rate limited.
		u := user{"12000000000000001" + strconv.Itoa(10+i), "player" + strconv.Itoa(i)}
		resp := he.deliver(p.command(u, "start", opt{"heaps", "3 4 5"}, opt{"first", "me"}))
		if resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
			t.Fatalf("start %d: %s", i, describe(resp))
		}
		// The game is saved whether or not its board's message id is.
		if _, err := he.db.ChannelGame(ctx, channel); err != nil {
			t.Fatalf("start %d: no game saved: %v (answer %s %+v)", i, err, describe(resp), resp.Data)
		}
	}
	if n := he.h.Dropped(); n != 2 {
		t.Errorf("%d answers dropped, want 2 (4 waiting on a hanging API, bound 2)", n)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := he.h.Wait(short); err == nil {
		t.Error("Wait reported nothing abandoned with the API hanging")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Wait took %v with a 100 ms context", took)
	}
}

// TestHTTPAnswerBytes: the endpoint answers a committed move with the bytes
// saved with it (encoded once, for the store and for Discord), and a
// redelivery of the click gets those bytes again and changes nothing.
func TestHTTPAnswerBytes(t *testing.T) {
	he := newHTTPEnv(t, nil)
	boardID := he.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"}, opt{"difficulty", "perfect"})
	g := he.channelGame()
	notation := g.Rules.FormatMove(g.Position, g.Rules.Legal(g.Position)[0])
	payload := he.p.click(alice, he.fd.Message(t, boardID), commands.MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: "a"}.CustomID(), notation)
	post := func() []byte {
		t.Helper()
		status, body := he.post(he.key.request(t, he.srv.URL+"/interactions", payload, he.clock.Now()))
		if status != http.StatusOK {
			t.Fatalf("status %d: %s", status, body)
		}
		return body
	}
	first := post()
	if !bytes.HasPrefix(first, []byte(`{"type":7,`)) {
		t.Fatalf("the move was not answered with the board: %s", first)
	}
	saved, err := he.db.Response(context.Background(), answerKey(t, payload))
	if err != nil {
		t.Fatalf("saved answer: %v", err)
	}
	if !bytes.Equal(first, saved) {
		t.Fatalf("HTTP answer differs from the saved one:\n%s\n%s", first, saved)
	}
	after := he.game(g.ID)
	if after.Ply != g.Ply+2 {
		t.Fatalf("ply %d after the move and nimbot's reply, want %d", after.Ply, g.Ply+2)
	}
	if again := post(); !bytes.Equal(again, first) {
		t.Fatalf("redelivery answered differently:\n%s\n%s", again, first)
	}
	ms, err := he.db.Moves(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g2 := he.game(g.ID); g2.Ply != after.Ply || g2.Status != after.Status || len(ms) != after.Ply {
		t.Fatalf("redelivery changed the game: ply %d status %s, %d moves", g2.Ply, g2.Status, len(ms))
	}
}

// TestHealthzPublic: the endpoint's /healthz is public (it shares the
// listener Discord must reach), and a database driver's error names the
// database's user, name and address: there a failed check says only
// bot.PublicError. The operator's own listener (HEALTH_ADDR), served by
// the same Health, shows the error, from the same run of the checks.
func TestHealthzPublic(t *testing.T) {
	const secret = "failed to connect to `user=postgres database=nimbot`: 127.0.0.1:41279 (127.0.0.1): dial error: connection refused"
	var runs atomic.Int32
	health := &bot.Health{Log: quietLog(t), Checks: []bot.Check{
		{Name: "database_write", Essential: true, Run: func(context.Context) (string, error) {
			runs.Add(1)
			return "", errors.New(secret)
		}},
		{Name: "disk_free", Essential: true, Run: func(context.Context) (string, error) { return "812 MiB free", nil }},
	}}
	h := bot.NewHTTP(bot.HTTPConfig{Health: health, Log: quietLog(t)})
	get := func(handler http.Handler) (int, string, healthBody) {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
		var body healthBody
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("healthz body %q: %v", rec.Body.String(), err)
		}
		return rec.Code, rec.Body.String(), body
	}

	code, raw, body := get(h)
	if code != http.StatusServiceUnavailable || !slices.Equal(body.failed(), []string{"database_write"}) {
		t.Fatalf("public healthz: %d %s", code, raw)
	}
	if strings.Contains(raw, "postgres") || strings.Contains(raw, "127.0.0.1") {
		t.Errorf("public healthz shows the database's details: %s", raw)
	}
	if c := body.Checks[0]; c.Error != bot.PublicError {
		t.Errorf("public healthz error %q, want %q", c.Error, bot.PublicError)
	}
	if c := body.Checks[1]; c.Detail != "812 MiB free" {
		t.Errorf("public healthz detail %q, want the check's own", c.Detail)
	}

	code, raw, body = get(health)
	if code != http.StatusServiceUnavailable || body.Checks[0].Error != secret {
		t.Errorf("operator's healthz: %d %s, want the error in full", code, raw)
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("the two listeners ran the checks %d times, want once", n)
	}
}
