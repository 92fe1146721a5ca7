package bot_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/internal/metrics"
)

// scrape returns the value of the series (a name and its labels, as
// Prometheus writes them) in m's /metrics, and whether there is one.
func scrape(t *testing.T, m *metrics.Metrics, series string) (float64, bool) {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	v, ok, err := metrics.Sample(rec.Body, series)
	if err != nil {
		t.Fatal(err)
	}
	return v, ok
}

// TestGatewayMetrics: in gateway mode the interactions, their REST
// callbacks and the game's moves are counted, through the real Session
// against the stand-in.
func TestGatewayMetrics(t *testing.T) {
	e := newEnv(t)
	m := metrics.New(metrics.Config{Route: commands.Route})
	session := e.fd.session(t)
	session.Client.Transport = m.Transport(session.Client.Transport)
	e.svc = commands.New(commands.Config{DB: m.Storage(e.db), Now: e.clock.Now, Log: e.log})
	openGateway(t, e, bot.GatewayConfig{Session: session, Commands: commands.Definitions(), Metrics: m})

	boardID := e.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"})
	e.playOut(e.channelGame().ID, boardID, alice)
	for _, want := range []struct {
		series string
		min    float64
	}{
		{`nimbot_interactions_total{outcome="ok",route="nim/start"}`, 1},
		{`nimbot_interactions_total{outcome="ok",route="play"}`, 1},
		{`nimbot_interaction_duration_seconds_count{route="play"}`, 1},
		// The bulk overwrite and a callback per interaction.
		{`nimbot_discord_rest_calls_total{outcome="2xx"}`, 3},
		{`nimbot_moves_total`, 2},
	} {
		if v, ok := scrape(t, m, want.series); !ok || v < want.min {
			t.Errorf("%s = %v (found %v), want at least %v", want.series, v, ok, want.min)
		}
	}
	if v, _ := scrape(t, m, `nimbot_database_errors_total{kind="error"}`); v != 0 {
		t.Errorf("%v database errors counted in a game that had none", v)
	}
}

// TestSchedulerMetrics: a game ended at its deadline is counted.
func TestSchedulerMetrics(t *testing.T) {
	he := newHTTPEnv(t, nil)
	peopleGame(t, he)
	m := metrics.New(metrics.Config{})
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: he.svc, Session: he.fd.session(t), Log: he.log, Metrics: m})
	ctx := context.Background()
	sched.Tick(ctx)
	if v, _ := scrape(t, m, "nimbot_deadlines_settled_total"); v != 0 {
		t.Fatalf("%v deadlines settled before any passed", v)
	}
	he.clock.Advance(24*time.Hour + time.Minute)
	if n := sched.Tick(ctx); n != 1 {
		t.Fatalf("Tick after the deadline sent %d edits, want 1", n)
	}
	if v, _ := scrape(t, m, "nimbot_deadlines_settled_total"); v != 1 {
		t.Errorf("%v deadlines settled, want 1", v)
	}
}
