package bot_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/engine"
	"nimbot/match"
)

// played gives who a finished game against nimbot and a finished game
// with bob in db, so that forgetting them has something to delete.
func played(t *testing.T, db match.Storage, who string, channel string) {
	t.Helper()
	ctx := context.Background()
	for i, opponent := range []string{match.BotID, bob.ID} {
		g := &match.Game{GuildID: "1300000000000000001", ChannelID: channel + string(rune('0'+i)), Rules: engine.Rules{Variant: engine.Nim},
			Start: engine.Position{Heaps: []int64{1}}, Players: [2]string{who, opponent}, Status: match.Active, CreatedBy: who}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, From: match.Active, Moves: []engine.Move{{Kind: engine.Take, Heap: 0, Take: 1}},
			Position: engine.Position{Heaps: []int64{0}}, Status: match.Won, Winner: who}); err != nil {
			t.Fatal(err)
		}
	}
}

// holds reports whether db holds anything about userID.
func holds(t *testing.T, db match.Storage, userID string) bool {
	t.Helper()
	held, err := db.Holdings(context.Background(), userID)
	if err != nil {
		t.Fatal(err)
	}
	return len(held) > 0
}

// sentAt is a webhook event fixture with its timestamp set to when, in
// the form Discord's documented example has (UTC, no zone).
func sentAt(t *testing.T, name string, when time.Time) []byte {
	t.Helper()
	b := fixture(t, name)
	const documented = `"timestamp": "2024-10-18T14:42:53.064834"`
	if !bytes.Contains(b, []byte(documented)) {
		t.Fatalf("%s has no timestamp %s", name, documented)
	}
	return bytes.Replace(b, []byte(documented), []byte(`"timestamp": "`+when.UTC().Format("2006-01-02T15:04:05.000000")+`"`), 1)
}

// eventsEnv serves bot.HTTP with webhook events on loopback, over env's
// SQLite store.
type eventsEnv struct {
	*env
	key signer
	url string
	h   *bot.HTTP
}

func newEventsEnv(t *testing.T, forget bool, grace time.Duration) *eventsEnv {
	t.Helper()
	e := newEnv(t)
	ee := &eventsEnv{env: e, key: testKey(7)}
	cfg := bot.HTTPConfig{Service: e.svc, PublicKey: ee.key.pub, Session: e.fd.session(t), Now: e.clock.Now, Log: e.log, ForgetAfter: grace}
	if forget {
		cfg.Forget = e.db
	}
	ee.h = bot.NewHTTP(cfg)
	srv := httptest.NewServer(ee.h)
	t.Cleanup(func() {
		srv.Close()
		ee.h.Wait(context.Background())
	})
	ee.url = srv.URL + bot.EventsPath
	return ee
}

// send posts body to /events, signed with key, and returns the status,
// Content-Type and body.
func (ee *eventsEnv) send(key signer, body []byte) (int, string, string) {
	ee.t.Helper()
	res, err := http.DefaultClient.Do(key.request(ee.t, ee.url, body, ee.clock.Now()))
	if err != nil {
		ee.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Content-Type"), string(b)
}

// TestWebhookEvents: Discord's webhook events at their own path, signed
// like interactions. A PING is 204 with no body; a bad signature 401;
// APPLICATION_DEAUTHORIZED forgets the user once the grace period has
// passed on the scheduler's clock, not before; APPLICATION_AUTHORIZED in
// between cancels it; an event nimbot does not read is acknowledged; a
// signed payload that is not an event is 400 and changes nothing.
func TestWebhookEvents(t *testing.T) {
	const grace = 30 * 24 * time.Hour
	if off := newEventsEnv(t, false, grace); true {
		if status, _, _ := off.send(off.key, fixture(t, "webhook_ping.json")); status != http.StatusNotFound {
			t.Errorf("/events without Forget: %d, want 404", status)
		}
	}
	ee := newEventsEnv(t, true, grace)
	ping := fixture(t, "webhook_ping.json")
	if status, ctype, body := ee.send(ee.key, ping); status != http.StatusNoContent || body != "" || ctype == "" {
		t.Errorf("PING: %d %q %q, want 204, no body, a Content-Type", status, ctype, body)
	}
	for name, key := range map[string]signer{"another key": testKey(8)} {
		if status, _, _ := ee.send(key, ping); status != http.StatusUnauthorized {
			t.Errorf("PING signed with %s: %d, want 401", name, status)
		}
	}
	unsigned, _ := http.NewRequest(http.MethodPost, ee.url, strings.NewReader(string(ping)))
	if res, err := http.DefaultClient.Do(unsigned); err != nil || res.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned PING: %v %v, want 401", res.StatusCode, err)
	}
	if res, err := http.Get(ee.url); err != nil || res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %v %v, want 405", res.StatusCode, err)
	}

	played(t, ee.db, alice.ID, "1400000000000000001")
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: ee.svc, Session: ee.fd.session(t), Log: ee.log, Now: ee.clock.Now, Forget: ee.db})
	deauth := sentAt(t, "webhook_deauthorized.json", ee.clock.Now())
	// A bad signature changes nothing.
	if status, _, _ := ee.send(testKey(8), deauth); status != http.StatusUnauthorized {
		t.Fatalf("APPLICATION_DEAUTHORIZED, badly signed: %d", status)
	}
	ee.clock.Advance(grace)
	sched.Tick(context.Background())
	if !holds(t, ee.db, alice.ID) {
		t.Fatal("a badly signed APPLICATION_DEAUTHORIZED forgot alice")
	}
	if status, _, body := ee.send(ee.key, deauth); status != http.StatusNoContent || body != "" {
		t.Fatalf("APPLICATION_DEAUTHORIZED: %d %q", status, body)
	}
	// Discord retries an event it thinks went unanswered: the first time
	// stays the one that counts.
	ee.clock.Advance(time.Hour)
	if status, _, _ := ee.send(ee.key, deauth); status != http.StatusNoContent {
		t.Fatalf("APPLICATION_DEAUTHORIZED again: %d", status)
	}
	ee.clock.Advance(grace - time.Hour - time.Second)
	sched.Tick(context.Background())
	if !holds(t, ee.db, alice.ID) {
		t.Fatal("alice was forgotten before the grace period ended")
	}
	ee.clock.Advance(time.Second)
	sched.Tick(context.Background())
	if holds(t, ee.db, alice.ID) {
		t.Fatal("alice is remembered after the grace period")
	}
	if !holds(t, ee.db, bob.ID) {
		t.Fatal("forgetting alice forgot bob")
	}

	// Deauthorized, then authorized again: kept.
	played(t, ee.db, alice.ID, "1400000000000000011")
	deauth = sentAt(t, "webhook_deauthorized.json", ee.clock.Now())
	if status, _, _ := ee.send(ee.key, deauth); status != http.StatusNoContent {
		t.Fatal(status)
	}
	ee.clock.Advance(grace / 2)
	authorized := ee.clock.Now()
	if status, _, _ := ee.send(ee.key, sentAt(t, "webhook_authorized.json", authorized)); status != http.StatusNoContent {
		t.Fatalf("APPLICATION_AUTHORIZED: %d", status)
	}
	ee.clock.Advance(grace)
	sched.Tick(context.Background())
	if !holds(t, ee.db, alice.ID) {
		t.Fatal("alice, who authorized nimbot again, was forgotten")
	}

	// A deauthorization Discord sent before that authorization, delivered
	// after it (a retry), is older than what is known: alice stays.
	ee.clock.Advance(time.Minute)
	if status, _, _ := ee.send(ee.key, sentAt(t, "webhook_deauthorized.json", authorized.Add(-time.Minute))); status != http.StatusNoContent {
		t.Fatalf("a late APPLICATION_DEAUTHORIZED: %d", status)
	}
	ee.clock.Advance(grace + time.Hour)
	sched.Tick(context.Background())
	if !holds(t, ee.db, alice.ID) {
		t.Fatal("a deauthorization older than alice's authorization, delivered late, forgot her")
	}

	// What nimbot does not read is acknowledged; what is no event is 400.
	if status, _, _ := ee.send(ee.key, fixture(t, "webhook_entitlement.json")); status != http.StatusNoContent {
		t.Errorf("ENTITLEMENT_CREATE: %d, want 204", status)
	}
	for _, body := range []string{
		``, `[]`, `{}`, `{"type": 2}`, `{"type": 1}`, `{"type": 1, "event": {"type": "APPLICATION_DEAUTHORIZED"}}`,
		`{"type": 1, "event": {"type": "APPLICATION_DEAUTHORIZED", "data": {"user": {"id": "bot"}}}}`,
		`{"type": 1, "event": {"type": "APPLICATION_DEAUTHORIZED", "data": {"user": {"id": ""}}}}`,
		`{"type": 1, "event": {"type": "APPLICATION_DEAUTHORIZED", "timestamp": "2024-10-18T14:42:53.064834", "data": {"user": {"id": "7"}}}}`,
		`{"type": 1, "event": {"type": "APPLICATION_DEAUTHORIZED", "data": {"user": {"id": "1200000000000000001"}}}}`,
		`{"type": 1, "event": {"type": "APPLICATION_DEAUTHORIZED", "timestamp": "yesterday", "data": {"user": {"id": "1200000000000000001"}}}}`,
		`{"type": "0"}`,
	} {
		if status, _, _ := ee.send(ee.key, []byte(body)); status != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", body, status)
		}
	}
	ee.clock.Advance(grace)
	sched.Tick(context.Background())
	if !holds(t, ee.db, alice.ID) {
		t.Fatal("a malformed event forgot alice")
	}
}

// TestPages: with Pages, /privacy and /terms are served as plain HTML in
// the language Accept-Language prefers, and no script may run on them;
// without, they are not served.
func TestPages(t *testing.T) {
	e := newEnv(t)
	settings := commands.PageSettings{OperatorName: "Ada", OperatorContact: "privacy@example.org", Retention: time.Hour,
		ForgetAfter: bot.DefaultForgetAfter, IdleAfter: bot.DefaultIdleAfter}
	pages := commands.RenderPages(settings)
	srv := httptest.NewServer(bot.NewHTTP(bot.HTTPConfig{Service: e.svc, PublicKey: testKey(7).pub, Log: e.log, Pages: pages}))
	t.Cleanup(srv.Close)
	get := func(method, path, accept string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	for _, c := range []struct{ path, accept, lang string }{
		{"/privacy", "de-DE,de;q=0.9", "de"}, {"/terms", "ja", "ja"}, {"/privacy", "", "en"}, {"/terms", "pt-PT", "pt-BR"},
		{"/privacy", "es-MX", "es-ES"}, {"/privacy", "fr", "fr"},
	} {
		res, body := get(http.MethodGet, c.path, c.accept)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
			res.Header.Get("Content-Language") != c.lang || !strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'none'") ||
			!strings.Contains(body, `<html lang="`+c.lang+`">`) || !strings.Contains(body, "Ada") {
			t.Errorf("GET %s (%s): %d %v\n%.200s", c.path, c.accept, res.StatusCode, res.Header, body)
		}
	}
	if res, body := get(http.MethodHead, "/privacy", "de"); res.StatusCode != http.StatusOK || body != "" {
		t.Errorf("HEAD: %d %q", res.StatusCode, body)
	}
	if res, _ := get(http.MethodPost, "/terms", ""); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /terms: %d", res.StatusCode)
	}
	bare := httptest.NewServer(bot.NewHTTP(bot.HTTPConfig{Service: e.svc, PublicKey: testKey(7).pub, Log: e.log}))
	t.Cleanup(bare.Close)
	if res, err := http.Get(bare.URL + "/privacy"); err != nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("/privacy without Pages: %v %v", res.StatusCode, err)
	}
}

// TestSchedulerForgetsIdleServers: a server whose last game changed more
// than IdleAfter ago is forgotten by the scheduler's next Tick; one with a
// game since is kept.
func TestSchedulerForgetsIdleServers(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const year = 365 * 24 * time.Hour
	played(t, e.db, alice.ID, "1400000000000000001") // in server 1300000000000000001
	e.clock.Advance(year / 2)
	g := &match.Game{GuildID: "1300000000000000002", ChannelID: "1400000000000000009", Rules: engine.Rules{Variant: engine.Nim},
		Start: engine.Position{Heaps: []int64{2}}, Players: [2]string{carol.ID, match.BotID}, Status: match.Active, CreatedBy: carol.ID}
	if err := e.db.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: e.svc, Session: e.fd.session(t), Log: e.log, Now: e.clock.Now, Forget: e.db, IdleAfter: year})
	sched.Tick(ctx)
	if !holds(t, e.db, alice.ID) {
		t.Fatal("a server idle for half a year was forgotten")
	}
	e.clock.Advance(year/2 + time.Hour)
	sched.Tick(ctx)
	if holds(t, e.db, alice.ID) || holds(t, e.db, bob.ID) {
		t.Error("the server idle for a year is remembered")
	}
	if !holds(t, e.db, carol.ID) {
		t.Error("the server with a game half a year ago was forgotten")
	}
}
