package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestConnAnswers reads answers in the forms an HTTP/1.1 server may give
// them, written raw on loopback: chunked (with an extension and a
// trailer), by Content-Length, until the close, after a 100 Continue, and
// in several malformed ways, each an error that does not resend the
// request (it was answered).
func TestConnAnswers(t *testing.T) {
	big := strings.Repeat("0123456789", 500)
	cases := []struct {
		name, raw string
		status    int
		body      string
		keep      bool // the next request goes on the same connection
		fails     bool
	}{
		{name: "length", raw: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello", status: 200, body: "hello", keep: true},
		{name: "chunked", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nhel\r\n2\r\nlo\r\n0\r\nX-Trailer: 1\r\n\r\n", status: 200, body: "hello", keep: true},
		{name: "chunked big", raw: "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1388\r\n" + big + "\r\n0\r\n\r\n", status: 200, body: big, keep: true},
		{name: "empty", raw: "HTTP/1.1 204 No Content\r\n\r\n", status: 204, keep: true},
		{name: "close", raw: "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbad", status: 400, body: "bad"},
		{name: "until close", raw: "HTTP/1.1 200 OK\r\n\r\nhello", status: 200, body: "hello"},
		{name: "HTTP/1.0", raw: "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", status: 200, body: "ok"},
		{name: "HTTP/1.0 keep-alive", raw: "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok", status: 200, body: "ok", keep: true},
		{name: "continue", raw: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", status: 200, body: "ok", keep: true},
		{name: "cut in the body", raw: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello", fails: true},
		{name: "cut in a chunk", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", fails: true},
		{name: "cut in the head", raw: "HTTP/1.1 200 OK\r\nContent-Len", fails: true},
		{name: "bad status", raw: "HTTP/1.1 2x0 OK\r\n\r\n", fails: true},
		{name: "not HTTP", raw: "SSH-2.0-OpenSSH\r\n\r\n", fails: true},
		{name: "bad length", raw: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", fails: true},
		{name: "two lengths", raw: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nok", fails: true},
		{name: "bad chunk", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", fails: true},
		{name: "chunk without CRLF", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n0\r\n\r\n", fails: true},
		{name: "gzip", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", fails: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			var requests atomic.Int32
			done := make(chan struct{})
			go func() {
				defer close(done)
				for {
					nc, err := ln.Accept()
					if err != nil {
						return
					}
					br := bufio.NewReader(nc)
					for {
						r, err := http.ReadRequest(br)
						if err != nil {
							break
						}
						io.Copy(io.Discard, r.Body)
						if requests.Add(1) == 1 {
							nc.Write([]byte(tc.raw))
							if tc.fails || !tc.keep {
								break
							}
						} else {
							nc.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnext"))
						}
					}
					nc.Close()
				}
			}()
			c, err := newConn("http://" + ln.Addr().String() + "/interactions")
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			status, out, err := c.post(ctx, []byte("1767268800"), []byte{10, 11}, []byte("hello"))
			switch {
			case tc.fails && err == nil:
				t.Fatalf("no error: %d %q", status, out)
			case tc.fails:
				if n := requests.Load(); n != 1 {
					t.Errorf("an answered request was sent %d times", n)
				}
			case err != nil || status != tc.status || string(out) != tc.body:
				t.Fatalf("got %d %q %v, want %d %q", status, out, err, tc.status, tc.body)
			case (c.c != nil) != tc.keep:
				t.Errorf("connection kept open: %v, want %v", c.c != nil, tc.keep)
			}
			if !tc.fails {
				// The next request: on the same connection if it was kept, else
				// on a new one.
				if status, out, err := c.post(ctx, []byte("1767268800"), []byte{10, 11}, []byte("again")); err != nil || status != 200 || string(out) != "next" {
					t.Errorf("the next request: %d %q %v", status, out, err)
				}
			}
			c.close()
			ln.Close()
			<-done
		})
	}
}
