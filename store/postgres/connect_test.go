package postgres

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// TestOpenGivesUpOnSilentServer: a server that accepts the TCP
// connection and then says nothing would hold Open (and so nimbot's start)
// until a signal; the connect timeout ends it with an error, and one the
// operator set in the connection string wins over the default.
func TestOpenGivesUpOnSilentServer(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var held []net.Conn
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
			go io.Copy(io.Discard, c) // read the startup message, answer nothing
		}
	}()
	base := fmt.Sprintf("host=127.0.0.1 port=%d user=nimbot dbname=nimbot sslmode=disable", ln.Addr().(*net.TCPAddr).Port)
	for _, tc := range []struct {
		name string
		url  string
		cfg  time.Duration
		want time.Duration
	}{
		{"Default", base, 0, DefaultConnectTimeout},
		{"FromConfig", base, time.Second, time.Second},
		{"FromURL", base + " connect_timeout=1", time.Hour, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			began := time.Now()
			db, err := Open(ctx, Config{URL: tc.url, ConnectTimeout: tc.cfg})
			took := time.Since(began)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded against a server that says nothing")
			}
			if took < tc.want-100*time.Millisecond || took > tc.want+5*time.Second {
				t.Errorf("Open gave up after %v (%v); want about %v", took.Round(10*time.Millisecond), err, tc.want)
			}
		})
	}
}
