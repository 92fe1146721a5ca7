package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/store"
)

// server is nimbot's HTTP interactions endpoint in this process, built as
// main.go's runServe builds it.
type server struct {
	url    string
	path   string // the database file
	db     *store.DB
	srv    *http.Server
	h      *bot.HTTP
	stopSc context.CancelFunc
	scDone chan struct{}
	rest   *standIn
	logs   *countingHandler

	closeOnce sync.Once
	closeErr  error
	// boards is what the work after the answers cost, counted by close.
	boards boardCounts
}

// boardCounts is what recording the boards' message ids cost over a run:
// REST fetches of @original, and the writes that recorded an id, against
// the games played.
type boardCounts struct {
	games, fetches, recorded int64
	// running is how many of the fetches were made before shutdown (which
	// makes the waiting ones due at once).
	running int64
	delay   time.Duration // bot's FetchDelay
}

// startServer starts the server; opts adjust its bot.HTTPConfig.
func startServer(ctx context.Context, path string, pub ed25519.PublicKey, retention time.Duration, opts ...func(*bot.HTTPConfig)) (*server, error) {
	db, err := store.Open(ctx, store.Config{Path: path, Synchronous: "FULL"})
	if err != nil {
		return nil, err
	}
	logs := &countingHandler{}
	log := slog.New(logs)
	// main.go's newService with serve's defaults (BOT_TURN_TIMEOUT 1h,
	// PEOPLE_TURN_TIMEOUT 24h).
	// The load's players challenge each other (and rematch) far faster than
	// people do; the challenge cooldown, which now covers rematches too,
	// would refuse most of it. A nanosecond keeps the check on the path
	// (its query is part of the cost measured) without refusing.
	svc := commands.New(commands.Config{DB: db, Log: log, BotTurn: time.Hour, PeopleTurn: 24 * time.Hour, ChallengeCooldown: time.Nanosecond})
	session, err := bot.NewSession("load-test-token")
	if err != nil {
		db.Close()
		return nil, err
	}
	rest := newStandIn()
	session.Client = &http.Client{Transport: rest, Timeout: 20 * time.Second}
	cfg := bot.HTTPConfig{Service: svc, PublicKey: pub, Session: session, Checks: bot.DatabaseChecks(db, bot.DefaultMinFree), Log: log,
		FetchDelay: bot.FetchDelayFor(10 * time.Minute)}
	for _, o := range opts {
		o(&cfg)
	}
	rest.keep = max(cfg.FetchDelay, 0) + 20*time.Second
	h := bot.NewHTTP(cfg)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(logs, slog.LevelError),
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		db.Close()
		return nil, err
	}
	go srv.Serve(ln)
	scCtx, stopSc := context.WithCancel(context.Background())
	done := make(chan struct{})
	sc := bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: session, Log: log, PruneAnswers: db.PruneInteractions, Retention: retention})
	go func() { defer close(done); sc.Run(scCtx) }()
	return &server{url: "http://" + ln.Addr().String(), path: path, db: db, srv: srv, h: h, stopSc: stopSc, scDone: done, rest: rest, logs: logs}, nil
}

// close shuts down as serve does: stop the scheduler, finish the requests in
// flight and the work after them, close the store. Before the store
// closes it counts what recording the boards cost (boards). Only the first
// call does anything.
func (s *server) close() error {
	s.closeOnce.Do(func() { s.closeErr = s.shutdown() })
	return s.closeErr
}

func (s *server) shutdown() error {
	s.boards.running = s.rest.fetches.Load()
	s.stopSc()
	<-s.scDone
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if werr := s.h.Wait(ctx); err == nil {
		err = werr
	}
	s.boards.fetches = s.rest.fetches.Load()
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	if qerr := s.countBoards(ctx); err == nil {
		err = qerr
	}
	return err
}

// countBoards reads how many games were played and how many of them have
// their board's message id recorded: one write each (SetMessageID), as
// every game here posts one board.
func (s *server) countBoards(ctx context.Context) error {
	ro, err := sql.Open("sqlite3", "file:"+url.PathEscape(s.path)+"?mode=ro&_query_only=on")
	if err != nil {
		return err
	}
	defer ro.Close()
	return ro.QueryRowContext(ctx, `SELECT count(*), count(NULLIF(message_id, '')) FROM games`).Scan(&s.boards.games, &s.boards.recorded)
}

// standIn answers the REST calls bot makes to Discord, on loopback instead
// of discord.com: after a response that posted a new message, bot fetches
// @original, and the stand-in returns the message the client recorded for
// that interaction token (waiting briefly, as the client may record it just
// after bot asks).
//
// When bot answered with a deferral, the real answer arrives here as an edit
// of @original or a follow-up message; the stand-in hands it to the client
// waiting for it, as Discord would show it.
type standIn struct {
	mu     sync.Mutex
	msgs   map[string]chan []byte // token → the message the client posted
	follow map[string]chan []byte // token → the answer sent after a deferral
	// posts are the tokens of msgs in the order posted, from postsHead on:
	// a message bot never fetches (its game was over when the fetch was
	// due) is forgotten keep after it was posted, so msgs stays bounded.
	posts     []post
	postsHead int
	keep      time.Duration
	// fetches counts the GETs of @original.
	fetches atomic.Int64
}

// post is a message posted at a time, by its interaction token.
type post struct {
	token string
	at    time.Time
}

func newStandIn() *standIn {
	return &standIn{msgs: map[string]chan []byte{}, follow: map[string]chan []byte{}}
}

func (d *standIn) slot(token string) chan []byte { return d.slotIn(d.msgs, token) }

func (d *standIn) slotIn(m map[string]chan []byte, token string) chan []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := m[token]
	if c == nil {
		c = make(chan []byte, 1)
		m[token] = c
	}
	return c
}

// followUp waits for the answer bot sends after a deferral.
func (d *standIn) followUp(token string, wait time.Duration) ([]byte, bool) {
	c := d.slotIn(d.follow, token)
	defer func() {
		d.mu.Lock()
		delete(d.follow, token)
		d.mu.Unlock()
	}()
	select {
	case b := <-c:
		return b, true
	case <-time.After(wait):
		return nil, false
	}
}

// delivered records an answer bot sent through the webhook, and returns the
// message Discord would return for it.
func (d *standIn) delivered(token string, body []byte) []byte {
	select {
	case d.slotIn(d.follow, token) <- body:
	default:
	}
	var msg map[string]any
	if json.Unmarshal(body, &msg) != nil {
		msg = map[string]any{}
	}
	msg["id"] = snowflake()
	out, _ := json.Marshal(msg)
	return out
}

// posted records the message a response created, as Discord would, and
// forgets those posted more than keep ago that bot did not fetch.
func (d *standIn) posted(token string, msg []byte) {
	select {
	case d.slot(token) <- msg:
	default:
	}
	now := time.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.posts = append(d.posts, post{token, now})
	for d.postsHead < len(d.posts) && now.Sub(d.posts[d.postsHead].at) > d.keep {
		delete(d.msgs, d.posts[d.postsHead].token)
		d.posts[d.postsHead] = post{}
		d.postsHead++
	}
	if d.postsHead > len(d.posts)/2 {
		d.posts = append(d.posts[:0], d.posts[d.postsHead:]...)
		d.postsHead = 0
	}
}

// RoundTrip serves /webhooks/{app}/{token}/messages/@original (GET, PATCH),
// follow-ups, and channel message edits; anything else is a 404 as Discord
// would send it.
func (d *standIn) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	segs := strings.Split(strings.TrimPrefix(req.URL.Path, "/"), "/")
	// api/v9/webhooks/{app}/{token}: a follow-up message.
	if len(segs) == 5 && segs[2] == "webhooks" && req.Method == http.MethodPost {
		return jsonResponse(req, http.StatusOK, d.delivered(segs[4], body)), nil
	}
	// api/v9/webhooks/{app}/{token}/messages/@original
	if len(segs) >= 7 && segs[2] == "webhooks" && segs[5] == "messages" && segs[6] == "@original" {
		token := segs[4]
		switch req.Method {
		case http.MethodPatch:
			return jsonResponse(req, http.StatusOK, d.delivered(token, body)), nil
		case http.MethodGet:
			d.fetches.Add(1)
			c := d.slot(token)
			t := time.NewTimer(3 * time.Second)
			defer t.Stop()
			select {
			case msg := <-c:
				d.mu.Lock()
				delete(d.msgs, token)
				d.mu.Unlock()
				return jsonResponse(req, http.StatusOK, msg), nil
			case <-t.C:
				d.mu.Lock()
				delete(d.msgs, token)
				d.mu.Unlock()
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
		case http.MethodDelete:
			return jsonResponse(req, http.StatusNoContent, nil), nil
		}
	}
	return jsonResponse(req, http.StatusNotFound, []byte(`{"message": "Unknown Message", "code": 10008}`)), nil
}

func jsonResponse(req *http.Request, status int, body []byte) *http.Response {
	return &http.Response{
		StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)), Request: req,
	}
}

// countingHandler is the server's slog.Handler: it counts warnings and
// errors and keeps the first few, so the report can say whether the server
// complained, without a log line per request slowing the load.
type countingHandler struct {
	mu     sync.Mutex
	n      int
	sample []string
}

func (h *countingHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n++
	if len(h.sample) < 3 {
		h.sample = append(h.sample, r.Level.String()+" "+b.String())
	}
	return nil
}

func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }

func (h *countingHandler) counts() (int, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n, append([]string(nil), h.sample...)
}
