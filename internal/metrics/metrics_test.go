package metrics_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/internal/metrics"
	"nimbot/match"
	"nimbot/store"
)

// scrape returns the value of the series in m's /metrics, and whether
// there is one.
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

func want(t *testing.T, m *metrics.Metrics, series string, v float64) {
	t.Helper()
	if got, ok := scrape(t, m, series); !ok || got != v {
		t.Errorf("%s = %v (found %v), want %v", series, got, ok, v)
	}
}

// TestStorage: the answers of the storage contract are no database
// errors; a call that ran out of time is a timeout; one the caller
// cancelled is neither; a closed database's failure is an error.
func TestStorage(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, store.Config{Path: filepath.Join(t.TempDir(), "nimbot.db")})
	if err != nil {
		t.Fatal(err)
	}
	m := metrics.New(metrics.Config{})
	s := m.Storage(db)
	// The gauge apart: each scrape reads it, and counts its failures.
	gauge := metrics.New(metrics.Config{})
	gauge.GamesInProgress(db.GamesInProgress)

	if _, err := s.Game(ctx, 42); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("an unknown game: %v", err)
	}
	if _, err := s.ChannelGame(ctx, "1"); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("a channel without a game: %v", err)
	}
	want(t, m, `nimbot_database_errors_total{kind="error"}`, 0)
	want(t, gauge, `nimbot_games_in_progress`, 0)

	expired, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	if _, err := s.Game(expired, 42); err == nil {
		t.Fatal("no error past the deadline")
	}
	want(t, m, `nimbot_database_errors_total{kind="timeout"}`, 1)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Game(cancelled, 42); err == nil {
		t.Fatal("no error once cancelled")
	}
	want(t, m, `nimbot_database_errors_total{kind="timeout"}`, 1)
	want(t, m, `nimbot_database_errors_total{kind="error"}`, 0)

	db.Close()
	if _, err := s.Game(ctx, 42); err == nil {
		t.Fatal("no error from a closed database")
	}
	want(t, m, `nimbot_database_errors_total{kind="error"}`, 1)
	// The gauge's read fails too: -1, and counted.
	want(t, gauge, `nimbot_games_in_progress`, -1)
	if v, _ := scrape(t, gauge, `nimbot_database_errors_total{kind="error"}`); v < 1 {
		t.Errorf("the gauge's failed read was not counted")
	}
}

// TestTransport counts each REST call by its outcome.
func TestTransport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		w.WriteHeader(code)
	}))
	defer srv.Close()
	m := metrics.New(metrics.Config{})
	c := &http.Client{Transport: m.Transport(nil)}
	for _, code := range []int{200, 204, 404, 429, 502} {
		res, err := c.Get(srv.URL + "/" + strconv.Itoa(code))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	if _, err := c.Get("http://127.0.0.1:1/"); err == nil {
		t.Fatal("a closed port answered")
	}
	for outcome, n := range map[string]float64{"2xx": 2, "4xx": 1, "429": 1, "5xx": 1, "error": 1} {
		want(t, m, `nimbot_discord_rest_calls_total{outcome="`+outcome+`"}`, n)
	}
}

// TestInteraction: outcomes come from the answer; routes from Route, and
// never from what a client sent.
func TestInteraction(t *testing.T) {
	m := metrics.New(metrics.Config{Route: func(i *discordgo.Interaction) string { return "nim/start" }})
	i := &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand}
	m.Interaction(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{}}, time.Millisecond)
	m.Interaction(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}, time.Millisecond)
	m.Interaction(i, nil, time.Millisecond)
	m.Interaction(&discordgo.Interaction{Type: discordgo.InteractionPing}, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}, 0)
	m.Refused()
	want(t, m, `nimbot_interactions_total{outcome="ok",route="nim/start"}`, 1)
	want(t, m, `nimbot_interactions_total{outcome="ephemeral",route="nim/start"}`, 1)
	want(t, m, `nimbot_interactions_total{outcome="failed",route="nim/start"}`, 1)
	want(t, m, `nimbot_interactions_total{outcome="ok",route="ping"}`, 1)
	want(t, m, `nimbot_interactions_total{outcome="refused",route="unverified"}`, 1)
	want(t, m, `nimbot_interaction_duration_seconds_count{route="nim/start"}`, 3)

	var none *metrics.Metrics // counts nothing, and is safe to call
	none.Interaction(i, nil, 0)
	none.Refused()
	none.Deadlines(1)
}

// TestSample: a series is read by its whole name and labels, never by a
// prefix of a longer one; an absent series is not ok, and a value that is
// not a number is an error.
func TestSample(t *testing.T) {
	page := `# HELP a_total A.
# TYPE a_total counter
a_total_more 9
a_total{kind="x"} 2
a_total 3.5
b_seconds NaN-ish
`
	for _, tt := range []struct {
		series string
		want   float64
		ok     bool
		err    bool
	}{
		{"a_total", 3.5, true, false},
		{`a_total{kind="x"}`, 2, true, false},
		{`a_total{kind="y"}`, 0, false, false},
		{"b_seconds", 0, false, true},
	} {
		v, ok, err := metrics.Sample(strings.NewReader(page), tt.series)
		if v != tt.want || ok != tt.ok || (err != nil) != tt.err {
			t.Errorf("%s: %v %v %v, want %v %v (error %v)", tt.series, v, ok, err, tt.want, tt.ok, tt.err)
		}
	}
}
