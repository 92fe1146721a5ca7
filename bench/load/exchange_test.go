package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// playOneChannel starts an in-process server on a new file with a new key,
// and a loader of one channel on heaps 3 4 5 (people "1": between people,
// "0": against nimbot), and plays turns requests of it; both close when
// tb's test (or benchmark run) ends. It returns the channel, the key it
// signs with, and the last request and its result.
func playOneChannel(tb testing.TB, people string, turns int) (p *player, priv ed25519.PrivateKey, rq *request, res result) {
	ctx := context.Background()
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := startServer(ctx, filepath.Join(tb.TempDir(), "nimbot.db"), priv.Public().(ed25519.PublicKey), time.Hour)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.close() })
	o, err := parseFlags([]string{"-channels", "1", "-people", people}, io.Discard)
	if err != nil {
		tb.Fatal(err)
	}
	l := newLoader([]string{srv.url}, priv, o, []int64{3, 4, 5}, srv)
	tb.Cleanup(l.close)
	p = l.players[0]
	for k := 0; k < turns; k++ {
		rq = p.next()
		res = p.send(ctx, rq, nil)
		if err := p.receive(rq, res, nil); err != nil {
			tb.Fatal(err)
		}
	}
	return p, priv, rq, res
}

// recordedClick plays a game between people on an in-process server up to
// its first board and returns that answer as the server sent it and the
// click a channel sends on it.
func recordedClick(tb testing.TB) (answer, click []byte) {
	p, _, _, res := playOneChannel(tb, "1", 2)
	return res.body, p.next().body()
}

// BenchmarkExchange is one request and its answer on a channel's
// kept-alive connection, at the client: the request written, the answer
// read and its body returned. The server is net/http on loopback
// answering a recorded board as bot does: length with its Content-Length
// (bot since 2b4acd2), chunked without one (bot before: net/http chunks an
// answer over 2 KiB). cpu-µs/op is the benchmark's thread alone, not the
// server's goroutines.
func BenchmarkExchange(b *testing.B) {
	answer, click := recordedClick(b)
	b.Logf("answer %d bytes; click body %d bytes", len(answer), len(click))
	for _, framing := range []string{"length", "chunked"} {
		b.Run(framing, func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				if framing == "length" {
					w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
				}
				w.Write(answer)
			}))
			defer srv.Close()
			c, err := newConn(srv.URL + "/interactions")
			if err != nil {
				b.Fatal(err)
			}
			defer c.close()
			ctx := context.Background()
			ts, sig := []byte("1767268800"), make([]byte, ed25519.SignatureSize)
			b.ReportAllocs()
			defer threadCPU(b)()
			for b.Loop() {
				status, out, err := c.post(ctx, ts, sig, click)
				if err != nil || status != http.StatusOK || !bytes.Equal(out, answer) {
					b.Fatalf("post: %d %v", status, err)
				}
			}
		})
	}
}

// BenchmarkTurn is a channel's own work between two exchanges, without
// the HTTP: take the answer (decode it, read its controls back as nimbot
// reads them), choose the next click as a person would (on a board between
// people, reading whose turn it is from the embed), build it with the
// board message attached, and sign it. people is a game between people,
// bot a game against nimbot.
func BenchmarkTurn(b *testing.B) {
	for _, people := range []string{"1", "0"} {
		name := map[string]string{"1": "people", "0": "bot"}[people]
		b.Run(name, func(b *testing.B) {
			p, _, rq, res := playOneChannel(b, people, 2)
			prev := p.b
			b.ReportAllocs()
			defer threadCPU(b)()
			for b.Loop() {
				p.b = prev
				if err := p.receive(rq, res, nil); err != nil {
					b.Fatal(err)
				}
				next := p.next()
				if next.what != "move" && next.what != "heap" {
					b.Fatalf("next is %s", next.what)
				}
				// As send signs it.
				strconv.AppendInt(next.buf[:0:tsRoom], time.Now().Unix(), 10)
				p.l.key.sign(&p.sig, next.buf)
			}
		})
	}
}
