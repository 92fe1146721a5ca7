package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/internal/cpuclock"
	"nimbot/match"
	"nimbot/store"
)

// BenchmarkHTTPPing is the endpoint's fixed cost: body cap, timestamp
// window, Ed25519 verification, decoding and answering, without the product.
func BenchmarkHTTPPing(b *testing.B) {
	key := testKey(7)
	h := bot.NewHTTP(bot.HTTPConfig{PublicKey: key.pub})
	body := fixture(b, "ping.json")
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		req := key.request(b, "http://nimbot.test/interactions", body, time.Now())
		w := httptest.NewRecorder()
		b.StartTimer()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}

// BenchmarkHTTPMove is one signed click that plays a move against nimbot,
// picked from a select menu of moves (Nim 3-4-5), through the whole
// endpoint and the real commands.Service on a SQLite file
// (synchronous=NORMAL, so the figure is CPU rather than fsync): verify,
// decode, route, engine, one store.Commit, render, encode and write the
// answer. Signing the request and starting a new game when one ends are
// not timed.
func BenchmarkHTTPMove(b *testing.B) {
	db, err := store.Open(context.Background(), store.Config{Path: filepath.Join(b.TempDir(), "nimbot.db"), Synchronous: "NORMAL"})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc := commands.New(commands.Config{DB: db, Rand: rand.New(rand.NewPCG(1, 2)), Log: slog.New(slog.DiscardHandler)})
	key := testKey(7)
	h := bot.NewHTTP(bot.HTTPConfig{Service: svc, PublicKey: key.pub, Log: slog.New(slog.DiscardHandler)})
	p := newPayloads(b, testChannel)
	var message map[string]any
	if err := json.Unmarshal(fixture(b, "component.json"), &message); err != nil {
		b.Fatal(err)
	}
	msg, _ := json.Marshal(message["message"])
	var g *match.Game
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if g == nil || g.Status != match.Active {
			// Started through the Service: the new board message would send
			// the endpoint to Discord's REST API for @original.
			var i discordgo.Interaction
			if err := json.Unmarshal(p.command(alice, "start", opt{"heaps", "3 4 5"}, opt{"first", "me"}, opt{"difficulty", "perfect"}), &i); err != nil {
				b.Fatal(err)
			}
			if resp, _ := svc.Handle(context.Background(), &i); resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
				b.Fatalf("start: type %d", resp.Type)
			}
			if g, err = db.ChannelGame(context.Background(), testChannel); err != nil {
				b.Fatal(err)
			}
		}
		m := g.Rules.Legal(g.Position)[0]
		if a, err := g.Rules.Analyze(g.Position); err == nil && len(a.Winning) > 0 {
			m = a.Winning[0]
		}
		body := p.click(alice, msg, commands.MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: "a"}.CustomID(), g.Rules.FormatMove(g.Position, m))
		req := key.request(b, "http://nimbot.test/interactions", body, time.Now())
		w := httptest.NewRecorder()
		b.StartTimer()
		c0 := cpuclock.Process()
		h.ServeHTTP(w, req)
		cpu += cpuclock.Process() - c0
		b.StopTimer()
		if w.Code != http.StatusOK || !bytes.HasPrefix(w.Body.Bytes(), []byte(`{"type":7,`)) {
			b.Fatalf("move: status %d: %s", w.Code, w.Body)
		}
		if g, err = db.Game(context.Background(), g.ID); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}
