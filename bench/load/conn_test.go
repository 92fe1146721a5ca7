package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConn posts through a channel's own connection to a real net/http
// server on loopback: the request carries the headers Discord's does, the
// connection is kept alive, a kept-alive connection the server closed is
// replaced without an error, a request the server drops is an error (sent
// at most twice), "Connection: close" is honoured, and the context cuts a
// request off.
func TestConn(t *testing.T) {
	var mu sync.Mutex
	var remotes []string
	var drops atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		remotes = append(remotes, r.RemoteAddr)
		mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		switch string(body) {
		case "drop":
			drops.Add(1)
			c, _, _ := w.(http.Hijacker).Hijack()
			c.Close()
			return
		case "close":
			w.Header().Set("Connection", "close")
		case "slow":
			time.Sleep(2 * time.Second)
		}
		if r.Method != http.MethodPost || r.URL.Path != "/interactions" || r.Header.Get("Content-Type") != "application/json" ||
			r.Header.Get("X-Signature-Ed25519") != "0a0b" || r.Header.Get("X-Signature-Timestamp") != "1767268800" ||
			r.Header.Get("User-Agent") != "Discord-Interactions/1.0 (+https://discord.com)" {
			http.Error(w, "bad request: "+r.Method+" "+r.URL.Path+" "+r.Header.Get("X-Signature-Ed25519"), http.StatusBadRequest)
			return
		}
		w.Write(append([]byte("echo "), body...))
	}))
	defer srv.Close()
	c, err := newConn(srv.URL + "/interactions")
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	ctx := context.Background()
	post := func(body string) (int, string, error) {
		status, out, err := c.post(ctx, []byte("1767268800"), []byte{10, 11}, []byte(body))
		return status, string(out), err
	}
	last := func() string {
		mu.Lock()
		defer mu.Unlock()
		return remotes[len(remotes)-1]
	}
	for i := 0; i < 3; i++ {
		if status, out, err := post("hello"); err != nil || status != 200 || out != "echo hello" {
			t.Fatalf("post: %d %q %v", status, out, err)
		}
	}
	first := last()
	mu.Lock()
	if remotes[0] != first || remotes[1] != first {
		t.Errorf("not kept alive: %v", remotes)
	}
	mu.Unlock()

	// The server closes the idle connection: the next post goes on a new one.
	srv.CloseClientConnections()
	time.Sleep(50 * time.Millisecond)
	if status, out, err := post("again"); err != nil || status != 200 || out != "echo again" {
		t.Fatalf("after the server closed the connection: %d %q %v", status, out, err)
	}
	if last() == first {
		t.Errorf("the answer came on the closed connection %s", first)
	}

	// Dropped unanswered on a kept-alive connection: sent again once on a
	// new one, then the error.
	if _, _, err := post("drop"); err == nil {
		t.Error("no error for a request the server dropped")
	}
	if n := drops.Load(); n != 2 {
		t.Errorf("a dropped request was sent %d times, want 2", n)
	}
	// … and on a new connection, not sent again.
	if _, _, err := post("drop"); err == nil || drops.Load() != 3 {
		t.Errorf("dropped on a new connection: %v, sent %d times in all", err, drops.Load())
	}

	if status, out, err := post("close"); err != nil || status != 200 || out != "echo close" {
		t.Fatalf("Connection: close: %d %q %v", status, out, err)
	}
	if c.c != nil {
		t.Error("the connection stayed open after Connection: close")
	}
	if status, out, err := post("hello"); err != nil || status != 200 || out != "echo hello" {
		t.Fatalf("after Connection: close: %d %q %v", status, out, err)
	}

	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, _, err := c.post(cctx, []byte("1767268800"), []byte{10, 11}, []byte("slow")); err == nil || time.Since(start) > time.Second {
		t.Errorf("a cancelled request: %v after %v", err, time.Since(start))
	}
	if status, _, err := post("hello"); err != nil || status != 200 {
		t.Errorf("after a cancelled request: %d %v", status, err)
	}
}
