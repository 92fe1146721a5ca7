package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// conn is one channel's keep-alive HTTP/1.1 connection to the server. A
// channel sends one request at a time, so it writes the request and reads
// the answer on its own goroutine: net/http's Transport hands each request
// to a writing and a reading goroutine per connection, and those hand-offs
// cost this tool more CPU than the JSON of the request. Its reads and
// writes are raw system calls on the descriptor (see rawReader). The
// answer is read by readAnswer, which reads what this tool needs of HTTP/1.1 (status,
// Content-Length or chunked body, Connection) without http.ReadResponse's
// header map and body objects.
type conn struct {
	addr, host, path string
	c                net.Conn
	// rc is c's descriptor, read and written by rawRead and rawWrite.
	rc syscall.RawConn
	br *bufio.Reader
	// The read or write in progress on rc: its buffers, and what it did.
	rbuf            []byte
	rn              int
	rerr, werr      error
	wbufs           [2][]byte
	readFn, writeFn func(fd uintptr) bool // rawRead and rawWrite, bound once
	used            bool                  // an answer was read on c: it is a kept-alive connection
	head            []byte
	scratch         []byte // a chunked answer's body, before it is copied out
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
		rc, err := nc.(*net.TCPConn).SyscallConn()
		if err != nil {
			nc.Close()
			return 0, nil, err
		}
		c.c, c.rc, c.used = nc, rc, false
		if c.br == nil {
			c.readFn, c.writeFn = c.rawRead, c.rawWrite
			c.br = bufio.NewReaderSize(rawReader{c}, 8<<10)
		} else {
			c.br.Reset(rawReader{c})
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
	if err := c.write(h, body); err != nil {
		return 0, nil, err
	}
	// Wait for the answer's first byte apart: a connection closed before it
	// is io.EOF, which post retries; one closed mid-answer is
	// io.ErrUnexpectedEOF, which it does not.
	if _, err := c.br.Peek(1); err != nil {
		return 0, nil, err
	}
	status, out, keep, err := c.readAnswer()
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return 0, nil, err
	}
	c.used = true
	if !keep {
		c.close()
	}
	return status, out, nil
}

// maxAnswer bounds an answer's body: nothing grows without bound.
const maxAnswer = 16 << 20

// readAnswer reads one HTTP/1.1 response from c.br, as http.ReadResponse
// and the body's reader did for this tool, without their header map,
// Response and body objects: the status, the body (by Content-Length,
// chunked, or until the connection closes), and whether the connection
// stays open after it (not after "Connection: close", an HTTP/1.0 answer
// without keep-alive, or a body that ran to the close). Informational
// (1xx) answers are skipped, as net/http's client skips them.
func (c *conn) readAnswer() (status int, body []byte, keep bool, err error) {
	for {
		line, err := c.line()
		if err != nil {
			return 0, nil, false, err
		}
		// "HTTP/1.1 200 OK": the version, a space, three digits.
		if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' || (len(line) > 12 && line[12] != ' ') {
			return 0, nil, false, fmt.Errorf("malformed HTTP status line %q", line)
		}
		status, err = strconv.Atoi(string(line[9:12]))
		if err != nil || status < 100 {
			return 0, nil, false, fmt.Errorf("malformed HTTP status code %q", line[9:12])
		}
		keep = line[7] == '1' // HTTP/1.1 keeps the connection unless told
		length, chunked := int64(-1), false
		for {
			h, err := c.line()
			if err != nil {
				return 0, nil, false, err
			}
			if len(h) == 0 {
				break
			}
			colon := bytes.IndexByte(h, ':')
			if colon <= 0 {
				return 0, nil, false, fmt.Errorf("malformed HTTP header line %q", h)
			}
			name, value := h[:colon], bytes.TrimSpace(h[colon+1:])
			switch {
			case bytes.EqualFold(name, []byte("Content-Length")):
				n, err := strconv.ParseInt(string(value), 10, 64)
				if err != nil || n < 0 || (length >= 0 && n != length) {
					return 0, nil, false, fmt.Errorf("bad Content-Length %q", value)
				}
				length = n
			case bytes.EqualFold(name, []byte("Transfer-Encoding")):
				if !bytes.EqualFold(value, []byte("chunked")) {
					return 0, nil, false, fmt.Errorf("unsupported Transfer-Encoding %q", value)
				}
				chunked = true
			case bytes.EqualFold(name, []byte("Connection")):
				for _, tok := range bytes.Split(value, []byte(",")) {
					switch tok = bytes.TrimSpace(tok); {
					case bytes.EqualFold(tok, []byte("close")):
						keep = false
					case bytes.EqualFold(tok, []byte("keep-alive")) && line[7] == '0':
						keep = true
					}
				}
			}
		}
		if status >= 200 || status == http.StatusSwitchingProtocols {
			if status == http.StatusNoContent || status == http.StatusNotModified {
				return status, []byte{}, keep, nil
			}
			switch {
			case chunked:
				body, err = c.chunked()
			case length >= 0:
				if length > maxAnswer {
					return 0, nil, false, fmt.Errorf("an answer of %d bytes", length)
				}
				body = make([]byte, length)
				_, err = io.ReadFull(c.br, body)
			default:
				// No length: the body runs until the server closes.
				keep = false
				body, err = io.ReadAll(io.LimitReader(c.br, maxAnswer))
			}
			return status, body, keep, err
		}
		// 1xx: the real answer follows.
	}
}

// line reads one line of the answer's head, without its CRLF (or LF). The
// slice is c.br's and valid until the next read.
func (c *conn) line() ([]byte, error) {
	l, err := c.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		return nil, errors.New("HTTP header line too long")
	}
	if err != nil {
		return nil, err
	}
	l = l[:len(l)-1]
	if len(l) > 0 && l[len(l)-1] == '\r' {
		l = l[:len(l)-1]
	}
	return l, nil
}

// chunked reads a chunked body (RFC 9112 section 7.1) and its trailer,
// into c.scratch, and returns a copy of exactly its size: the board keeps
// slices of it.
func (c *conn) chunked() ([]byte, error) {
	b := c.scratch[:0]
	for {
		l, err := c.line()
		if err != nil {
			return nil, err
		}
		if i := bytes.IndexByte(l, ';'); i >= 0 {
			l = l[:i] // chunk extensions
		}
		n, err := strconv.ParseUint(string(bytes.TrimSpace(l)), 16, 63)
		if err != nil {
			return nil, fmt.Errorf("malformed chunk size %q", l)
		}
		if n == 0 {
			break
		}
		if uint64(len(b))+n > maxAnswer {
			return nil, fmt.Errorf("a chunked answer over %d bytes", maxAnswer)
		}
		b = slices.Grow(b, int(n))
		if _, err := io.ReadFull(c.br, b[len(b):len(b)+int(n)]); err != nil {
			return nil, err
		}
		b = b[:len(b)+int(n)]
		if l, err := c.line(); err != nil || len(l) != 0 {
			return nil, errors.Join(err, errors.New("chunk data not followed by CRLF"))
		}
	}
	c.scratch = b
	// The trailer: header lines up to an empty one.
	for {
		l, err := c.line()
		if err != nil {
			return nil, err
		}
		if len(l) == 0 {
			return bytes.Clone(b), nil
		}
	}
}

// The connection's reads and writes are system calls made with
// syscall.RawSyscall from inside the descriptor's RawConn, not through
// net.Conn. The descriptor is non-blocking, so a call never blocks (EAGAIN
// returns to the RawConn, which parks the goroutine in the netpoller as
// net.Conn would, and honours the deadlines the same way); what it leaves
// out is the runtime's bookkeeping around a system call that may block.
// That bookkeeping wakes the runtime's monitor thread (sysmon) from its
// idle sleep at the first system call after an idle spell, and sysmon then
// polls every 20 µs, and takes back a P left in a system call: in this
// tool's profile sysmon's sleeps and wake-ups were 10 % of its CPU flat out
// and 14 % at 1,000 moves/s. A loopback writev of one request holds the
// goroutine's P for the few µs the kernel takes, as computing would.

// rawReader reads c's descriptor, for c.br.
type rawReader struct{ c *conn }

func (r rawReader) Read(p []byte) (int, error) {
	c := r.c
	if len(p) == 0 {
		return 0, nil
	}
	c.rbuf, c.rn, c.rerr = p, 0, nil
	err := c.rc.Read(c.readFn)
	c.rbuf = nil
	switch {
	case err != nil:
		return 0, err
	case c.rerr != nil:
		return 0, c.rerr
	case c.rn == 0:
		return 0, io.EOF
	}
	return c.rn, nil
}

// rawRead is one read(2) into c.rbuf; false asks the RawConn to wait until
// the descriptor is readable.
func (c *conn) rawRead(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&c.rbuf[0])), uintptr(len(c.rbuf)))
		switch e {
		case 0:
			c.rn = int(n)
			return true
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			c.rerr = os.NewSyscallError("read", e)
			return true
		}
	}
}

// write writes h and then body, whole, as net.Buffers did: one writev(2)
// unless the socket takes less.
func (c *conn) write(h, body []byte) error {
	c.wbufs, c.werr = [2][]byte{h, body}, nil
	err := c.rc.Write(c.writeFn)
	c.wbufs = [2][]byte{}
	if err != nil {
		return err
	}
	return c.werr
}

// rawWrite writes what is left of c.wbufs; false asks the RawConn to wait
// until the descriptor is writable.
func (c *conn) rawWrite(fd uintptr) bool {
	for {
		var iov [2]syscall.Iovec
		k := 0
		for _, b := range c.wbufs {
			if len(b) > 0 {
				iov[k].Base = &b[0]
				iov[k].SetLen(len(b))
				k++
			}
		}
		if k == 0 {
			return true
		}
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&iov[0])), uintptr(k))
		switch e {
		case 0:
			for i := range c.wbufs {
				m := min(int(n), len(c.wbufs[i]))
				c.wbufs[i] = c.wbufs[i][m:]
				n -= uintptr(m)
			}
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			c.werr = os.NewSyscallError("writev", e)
			return true
		}
	}
}

// close closes the connection; the next request dials anew.
func (c *conn) close() {
	if c.stopWatch != nil {
		c.stopWatch()
		c.stopWatch, c.watched = nil, nil
	}
	if c.c != nil {
		c.c.Close()
		c.c, c.rc = nil, nil
	}
}
