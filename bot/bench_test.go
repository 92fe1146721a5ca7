package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
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
	benchMoves(b, func(h http.Handler) func(*http.Request) (int, []byte) {
		return func(req *http.Request) (int, []byte) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			return w.Code, w.Body.Bytes()
		}
	})
}

// BenchmarkHTTPLoopbackMove is BenchmarkHTTPMove through net/http on
// loopback, as Discord reaches the endpoint: one keep-alive connection, the
// server's connection goroutine, the response written to the socket. The
// CPU figure is the whole process's, the client's share included.
func BenchmarkHTTPLoopbackMove(b *testing.B) {
	benchMoves(b, func(h http.Handler) func(*http.Request) (int, []byte) {
		srv := httptest.NewServer(h)
		b.Cleanup(srv.Close)
		c := srv.Client()
		return func(req *http.Request) (int, []byte) {
			u, err := url.Parse(srv.URL + req.URL.Path)
			if err != nil {
				b.Fatal(err)
			}
			req.URL, req.Host = u, u.Host
			res, err := c.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			if err != nil {
				b.Fatal(err)
			}
			return res.StatusCode, body
		}
	})
}

// benchEndpoint is a store on a new file (synchronous=NORMAL: the disk is
// not what these benchmarks time), the real Service on it, and the HTTP
// endpoint for testKey(7); the store closes when b's run ends.
func benchEndpoint(b *testing.B) (*store.DB, *commands.Service, *bot.HTTP) {
	db, err := store.Open(context.Background(), store.Config{Path: filepath.Join(b.TempDir(), "nimbot.db"), Synchronous: "NORMAL"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	svc := commands.New(commands.Config{DB: db, Rand: rand.New(rand.NewPCG(1, 2)), Log: slog.New(slog.DiscardHandler)})
	h := bot.NewHTTP(bot.HTTPConfig{Service: svc, PublicKey: testKey(7).pub, Log: slog.New(slog.DiscardHandler)})
	return db, svc, h
}

// benchMoves times moves through the endpoint that serve makes of the
// handler.
func benchMoves(b *testing.B, serve func(http.Handler) func(*http.Request) (int, []byte)) {
	db, svc, h := benchEndpoint(b)
	key := testKey(7)
	do := serve(h)
	p := newPayloads(b, testChannel)
	var message map[string]any
	if err := json.Unmarshal(fixture(b, "component.json"), &message); err != nil {
		b.Fatal(err)
	}
	msg, _ := json.Marshal(message["message"])
	var (
		g   *match.Game
		err error
		cpu time.Duration
	)
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
			if resp, _, _ := svc.Handle(context.Background(), &i); resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
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
		b.StartTimer()
		c0 := cpuclock.Process()
		code, resp := do(req)
		cpu += cpuclock.Process() - c0
		b.StopTimer()
		if code != http.StatusOK || !bytes.HasPrefix(resp, []byte(`{"type":7,`)) {
			b.Fatalf("move: status %d: %s", code, resp)
		}
		if g, err = db.Game(context.Background(), g.ID); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}

// BenchmarkHTTPLoopbackPick is clicks that pick a heap (Nim 10 20 30, too
// large for a menu of moves) on loopback, from 8 keep-alive connections at
// once, as Discord delivers clicks under load: verify, decode, one store
// read of the game, render and encode the board with its amount menu, and
// the write. A pick changes nothing, so the same signed requests are sent
// over and over. The CPU figure is the whole process's, the clients'
// included.
func BenchmarkHTTPLoopbackPick(b *testing.B) {
	db, svc, h := benchEndpoint(b)
	key := testKey(7)
	srv := httptest.NewServer(h)
	defer srv.Close()
	p := newPayloads(b, testChannel)
	var i discordgo.Interaction
	if err := json.Unmarshal(p.command(alice, "start", opt{"heaps", "10 20 30"}, opt{"first", "me"}, opt{"difficulty", "perfect"}), &i); err != nil {
		b.Fatal(err)
	}
	if resp, _, _ := svc.Handle(context.Background(), &i); resp.Type != discordgo.InteractionResponseChannelMessageWithSource {
		b.Fatalf("start: type %d", resp.Type)
	}
	g, err := db.ChannelGame(context.Background(), testChannel)
	if err != nil {
		b.Fatal(err)
	}
	var message map[string]any
	if err := json.Unmarshal(fixture(b, "component.json"), &message); err != nil {
		b.Fatal(err)
	}
	msg, _ := json.Marshal(message["message"])
	type signed struct{ body, stamp, sig string }
	var reqs []signed
	for n := range 16 {
		body := p.click(alice, msg, commands.HeapControl{Game: g.ID, Ply: g.Ply, Heap: n % 3}.CustomID())
		r := key.request(b, srv.URL+"/interactions", body, time.Now())
		reqs = append(reqs, signed{string(body), r.Header.Get("X-Signature-Timestamp"), r.Header.Get("X-Signature-Ed25519")})
	}
	tr := srv.Client().Transport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	c := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	var next atomic.Int64
	b.SetParallelism(4) // 8 connections on 2 CPUs
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuclock.Process()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s := reqs[next.Add(1)%int64(len(reqs))]
			req, err := http.NewRequest(http.MethodPost, srv.URL+"/interactions", strings.NewReader(s.body))
			if err != nil {
				b.Error(err)
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Signature-Timestamp", s.stamp)
			req.Header.Set("X-Signature-Ed25519", s.sig)
			res, err := c.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusOK || !bytes.HasPrefix(body, []byte(`{"type":7,`)) {
				b.Errorf("pick: status %d, %v: %.200s", res.StatusCode, err, body)
				return
			}
		}
	})
	b.ReportMetric(float64((cpuclock.Process()-c0).Microseconds())/float64(b.N), "cpu-µs/op")
}
