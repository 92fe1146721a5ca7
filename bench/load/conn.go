package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// conn is one channel's keep-alive HTTP/1.1 connection to the server. A
// channel sends one request at a time, so it writes the request and reads
// the answer on its own goroutine: net/http's Transport hands each request
// to a writing and a reading goroutine per connection, and those hand-offs
// cost this tool more CPU than the JSON of the request. The answer is still
// parsed by net/http (http.ReadResponse).
type conn struct {
	addr, host, path string
	c                net.Conn
	br               *bufio.Reader
	used             bool // an answer was read on c: it is a kept-alive connection
	head             []byte
	// watched is the context whose end unblocks c; stopWatch ends that.
	watched   context.Context
	stopWatch func() bool
}

// requestTimeout bounds one exchange, as the http.Client's Timeout did.
const requestTimeout = 30 * time.Second

func newConn(rawURL string) (*conn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("%s: only http:// is supported", rawURL)
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	return &conn{addr: addr, host: u.Host, path: u.RequestURI()}, nil
}

// post sends body, signed with sig and ts, and returns the answer's status
// and body. A kept-alive connection the server closed before reading the
// request (nothing came back) is replaced and the request sent once more,
// as net/http does for its idle connections; any other failure closes the
// connection and is returned.
func (c *conn) post(ctx context.Context, ts, sig, body []byte) (int, []byte, error) {
	for {
		reused := c.c != nil && c.used
		status, resp, err := c.exchange(ctx, ts, sig, body)
		if err == nil {
			return status, resp, nil
		}
		c.close()
		if !reused || ctx.Err() != nil || !closedUnread(err) {
			return 0, nil, err
		}
	}
}

// closedUnread reports whether err says the peer closed the connection
// without answering: no byte of an answer came.
func closedUnread(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

func (c *conn) exchange(ctx context.Context, ts, sig, body []byte) (int, []byte, error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	if c.c == nil {
		d := net.Dialer{Timeout: 2 * time.Second}
		nc, err := d.DialContext(ctx, "tcp", c.addr)
		if err != nil {
			return 0, nil, err
		}
		c.c, c.used = nc, false
		if c.br == nil {
			c.br = bufio.NewReaderSize(nc, 8<<10)
		} else {
			c.br.Reset(nc)
		}
	}
	if c.watched != ctx {
		// A request in flight when ctx ends is cut off, as
		// http.NewRequestWithContext's would be.
		if c.stopWatch != nil {
			c.stopWatch()
		}
		nc := c.c
		c.watched = ctx
		c.stopWatch = context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	}
	c.c.SetDeadline(time.Now().Add(requestTimeout))
	h := append(c.head[:0], "POST "...)
	h = append(h, c.path...)
	h = append(h, " HTTP/1.1\r\nHost: "...)
	h = append(h, c.host...)
	h = append(h, "\r\nUser-Agent: Discord-Interactions/1.0 (+https://discord.com)\r\nContent-Type: application/json\r\nContent-Length: "...)
	h = strconv.AppendInt(h, int64(len(body)), 10)
	h = append(h, "\r\nX-Signature-Ed25519: "...)
	h = hex.AppendEncode(h, sig)
	h = append(h, "\r\nX-Signature-Timestamp: "...)
	h = append(h, ts...)
	h = append(h, "\r\n\r\n"...)
	c.head = h
	bufs := net.Buffers{h, body}
	if _, err := bufs.WriteTo(c.c); err != nil {
		return 0, nil, err
	}
	// Wait for the answer's first byte apart: http.ReadResponse reports a
	// connection closed before it as io.ErrUnexpectedEOF, like one closed
	// mid-answer, and post must tell the two apart.
	if _, err := c.br.Peek(1); err != nil {
		return 0, nil, err
	}
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return 0, nil, err
	}
	var out []byte
	if n := resp.ContentLength; n >= 0 && n <= 16<<20 {
		out = make([]byte, n)
		_, err = io.ReadFull(resp.Body, out)
	} else {
		out, err = io.ReadAll(resp.Body)
	}
	resp.Body.Close()
	if err != nil {
		return 0, nil, err
	}
	c.used = true
	if resp.Close {
		c.close()
	}
	return resp.StatusCode, out, nil
}

// close closes the connection; the next request dials anew.
func (c *conn) close() {
	if c.stopWatch != nil {
		c.stopWatch()
		c.stopWatch, c.watched = nil, nil
	}
	if c.c != nil {
		c.c.Close()
		c.c = nil
	}
}
