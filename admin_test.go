package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// freeAddr returns a loopback address nothing listens on (for a moment).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// get returns the status and body of a GET of url.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// sample returns the value of the series line of /metrics that starts
// with series (a name and its labels, as Prometheus writes them), and
// whether there is one.
func sample(metrics, series string) (float64, bool) {
	for _, line := range strings.Split(metrics, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return v, err == nil
		}
	}
	return 0, false
}

// TestAdmin runs `nimbot serve` as main wires it, with ADMIN_ADDR, plays a
// game's first move with signed interactions, and scrapes the admin
// listener's /metrics: every series nimbot exports is there, counting
// what was sent. /metrics and pprof answer on ADMIN_ADDR alone, not on
// the public HTTP_ADDR nor on HEALTH_ADDR.
func TestAdmin(t *testing.T) {
	addr, healthAddr, adminAddr := freeAddr(t), freeAddr(t), freeAddr(t)
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, ed25519.SeedSize))
	for k, v := range map[string]string{
		// An app id: serve registers the commands, a REST call that fails
		// here (no Discord), and is counted.
		"DISCORD_TOKEN": "admin-test-token.not-a-secret", "DISCORD_APP_ID": "1170000000000000001", "DEV_GUILD_ID": "",
		"DISCORD_PUBLIC_KEY": hex.EncodeToString(priv.Public().(ed25519.PublicKey)),
		"DATABASE_PATH":      filepath.Join(t.TempDir(), "nimbot.db"), "DATABASE_SYNCHRONOUS": "", "DATABASE_URL": "",
		"HTTP_ADDR": addr, "HEALTH_ADDR": healthAddr, "ADMIN_ADDR": adminAddr, "INTERACTION_RETENTION": "",
		"LOG_LEVEL": "debug", "BOT_TURN_TIMEOUT": "", "PEOPLE_TURN_TIMEOUT": "",
	} {
		t.Setenv(k, v)
	}
	serve := startServe(t, addr)
	defer serve.stop(t)
	out := &serve.out

	url := "http://" + addr + "/interactions"
	c := newClient(t, priv)
	channel := c.newChannel()
	board, ctl := c.toMove(url, channel, c.start(url, channel))
	if a := c.post(url, c.click(channel, board, ctl)); a.err != nil || a.typ() != 7 {
		t.Fatalf("move click: %d %v %s", a.status, a.err, a.body)
	}
	// A request signed with another key: refused, and counted so.
	c.priv = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{6}, ed25519.SeedSize))
	if a := c.post(url, c.command(channel, "status", nil)); a.status != http.StatusUnauthorized {
		t.Fatalf("a request signed with another key: %d, want 401", a.status)
	}

	// The registration's REST call fails in the background; wait for it
	// to be counted.
	var metrics string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		status, body := get(t, "http://"+adminAddr+"/metrics")
		if status != http.StatusOK {
			t.Fatalf("admin /metrics: %d %s", status, body)
		}
		metrics = body
		if n, _ := sample(metrics, `nimbot_discord_rest_calls_total{outcome="error"}`); n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no failed REST call counted:\n%s\n%s", metrics, out.String())
		}
	}
	for _, want := range []struct {
		series string
		min    float64 // the least value it must have
	}{
		{`nimbot_interactions_total{outcome="ok",route="nim/start"}`, 1},
		{`nimbot_interactions_total{outcome="ok",route="play"}`, 1},
		{`nimbot_interactions_total{outcome="refused",route="unverified"}`, 1},
		{`nimbot_interaction_duration_seconds_count{route="play"}`, 1},
		{`nimbot_interaction_duration_seconds_bucket{route="nim/start",le="+Inf"}`, 1},
		// The player's move and nimbot's reply.
		{`nimbot_moves_total`, 2},
		{`nimbot_games_in_progress`, 1},
		{`nimbot_deadlines_settled_total`, 0},
		{`nimbot_database_errors_total{kind="timeout"}`, 0},
		{`nimbot_database_errors_total{kind="error"}`, 0},
		{`nimbot_discord_rest_calls_total{outcome="2xx"}`, 0},
		{`nimbot_gateway_shards{state="ok"}`, 0},
		{`go_goroutines`, 1},
		{`process_cpu_seconds_total`, 0},
		{`process_resident_memory_bytes`, 1},
	} {
		v, ok := sample(metrics, want.series)
		if !ok {
			t.Errorf("/metrics has no %s", want.series)
		} else if v < want.min {
			t.Errorf("%s = %v, want at least %v", want.series, v, want.min)
		}
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", metrics)
	}
	if v, _ := sample(metrics, `nimbot_database_errors_total{kind="error"}`); v != 0 {
		t.Errorf("database errors counted in a game that had none: %v", v)
	}

	// What is the operator's is on the admin listener alone.
	if status, body := get(t, "http://"+adminAddr+"/debug/pprof/"); status != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Errorf("admin /debug/pprof/: %d %.200s", status, body)
	}
	if status, _ := get(t, "http://"+adminAddr+"/debug/pprof/cmdline"); status != http.StatusOK {
		t.Errorf("admin /debug/pprof/cmdline: %d", status)
	}
	for _, listener := range []string{addr, healthAddr} {
		for _, path := range []string{"/metrics", "/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/goroutine"} {
			if status, body := get(t, "http://"+listener+path); status != http.StatusNotFound {
				t.Errorf("%s%s answers %d, want 404: %.200s", listener, path, status, body)
			}
		}
	}
}
