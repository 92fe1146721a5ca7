package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"nimbot/commands"
)

// Ids shared by every interaction of a run. Everything else (channels,
// users, interactions, messages) gets a fresh snowflake, so runs against one
// database never collide.
const (
	appID   = "1200000000000000000"
	discord = "https://discord.com"
)

// discordEpoch is the first millisecond of 2015, where snowflakes count from.
const discordEpoch = 1420070400000

// lastSnowflake is the last id snowflake returned.
var lastSnowflake atomic.Uint64

// snowflake returns a new unique id in Discord's format: the milliseconds
// since discordEpoch in its high bits, and larger than every id returned
// before it, as Discord's ids are in the order it makes them. The stores
// keep the larger of two board ids (match.ReplacesBoard), so an id that
// went back (the wall clock stepped back, or a 22-bit sequence wrapped
// within a millisecond) would leave an older board recorded.
func snowflake() string {
	now := uint64(time.Now().UnixMilli()-discordEpoch) << 22
	for {
		last := lastSnowflake.Load()
		next := max(now, last+1)
		if lastSnowflake.CompareAndSwap(last, next) {
			return strconv.FormatUint(next, 10)
		}
	}
}

// loader drives the channels against one endpoint.
type loader struct {
	urls   []string // channel i sends to urls[i mod len(urls)]
	key    ed25519.PrivateKey
	client *http.Client
	opts   options
	heaps  string
	rest   *standIn // nil with -addr: nobody fetches @original here
	// server, when the server is another process this tool can see,
	// reports that process's own CPU per pass.
	server *serverProc
	// freshPeople gives each game between people two new users, and skips
	// their rematches: a serve this tool did not build in process keeps the
	// default challenge cooldown (a minute per user), which would refuse
	// the same people challenging again seconds later.
	freshPeople bool
	players     []*player

	// retry, in the fault scenarios, makes a player resend a request that got
	// no answer (as Discord does not, but a test of durability must) instead
	// of counting it as an error; stopOnRefused makes it stop instead.
	retry         bool
	stopOnRefused bool
	ackMoves      bool
	// signalled is when SIGTERM was sent (Unix ns), to count the requests
	// in flight at that moment.
	signalled atomic.Int64
	// sent counts every request sent, for a server's CPU over its whole
	// run.
	sent atomic.Int64
}

func newLoader(urls []string, priv ed25519.PrivateKey, o options, heaps []int64, srv *server) *loader {
	hs := make([]string, len(heaps))
	for i, h := range heaps {
		hs[i] = strconv.FormatInt(h, 10)
	}
	// One keep-alive connection per channel: each sends its next request
	// only after the answer to the last.
	l := &loader{opts: o, heaps: strings.Join(hs, " "), key: priv, client: &http.Client{Transport: &http.Transport{
		MaxIdleConns: o.channels, MaxIdleConnsPerHost: o.channels, IdleConnTimeout: time.Minute, DisableCompression: true,
	}}}
	if srv != nil {
		l.rest = srv.rest
	}
	for _, u := range urls {
		l.urls = append(l.urls, u+"/interactions")
	}
	people := int(float64(o.channels)*o.people + 0.5)
	guilds := []string{snowflake(), snowflake(), snowflake(), snowflake()}
	for i := 0; i < o.channels; i++ {
		p := &player{l: l, url: l.urls[i%len(l.urls)], rng: rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano()))),
			channel: snowflake(), guild: guilds[i%len(guilds)]}
		p.users[0] = snowflake()
		if i < people {
			p.users[1] = snowflake()
		}
		l.players = append(l.players, p)
	}
	return l
}

// close closes the channels' connections; call it once they are done.
func (l *loader) close() { l.client.CloseIdleConnections() }

// sample plays the first channel's first two requests and returns the last
// request as sent (a click), for the floor.
func (l *loader) sample(ctx context.Context) (*sentRequest, error) {
	p := l.players[0]
	var last *sentRequest
	for k := 0; k < 2; k++ {
		rq := p.next()
		res := p.send(ctx, rq, nil)
		if res.err != nil {
			return nil, res.err
		}
		if err := p.receive(rq, res, nil); err != nil {
			return nil, err
		}
		last = &sentRequest{body: bytes.Clone(rq.body)}
	}
	return last, nil
}

// sentRequest is a request body to sign again.
type sentRequest struct{ body []byte }

// pacer spaces move clicks at a fixed rate across all channels. It never
// lets a burst catch up after a stall: a channel that comes late takes the
// next free slot from now, so a slow server shows as a lower achieved rate.
type pacer struct {
	mu       sync.Mutex
	next     time.Time
	interval time.Duration
}

func (p *pacer) wait(ctx context.Context) {
	if p == nil {
		return
	}
	p.mu.Lock()
	now := time.Now()
	slot := p.next
	if slot.Before(now) {
		slot = now
	}
	p.next = slot.Add(p.interval)
	p.mu.Unlock()
	if d := time.Until(slot); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
}

// pass runs every channel for d at rate moves/s (0: unpaced) and returns
// what was measured after the warm-up.
func (l *loader) pass(ctx context.Context, rate float64, d time.Duration) passResult {
	warm := min(d/10, time.Second)
	start := time.Now()
	w := window{from: start.Add(warm), to: start.Add(warm + d)}
	// Requests in flight at the end are finished, not abandoned: a channel
	// that dropped an answer would hold a stale board in the next pass.
	stop, cancel := context.WithDeadline(ctx, w.to)
	defer cancel()
	var pc *pacer
	if rate > 0 {
		pc = &pacer{next: start, interval: time.Duration(float64(time.Second) / rate)}
	}
	stats := make([]*passStats, len(l.players))
	var wg sync.WaitGroup
	serverCPU := l.server.window(ctx, w)
	clientCPU := cpuWindow(ctx, selfCPU, w)
	for i, p := range l.players {
		st := &passStats{win: w, keepSent: l.opts.latencyLog != ""}
		stats[i] = st
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.run(ctx, stop, pc, st)
		}()
	}
	wg.Wait()
	r := merge(rate, w, stats)
	if cpu, ok := <-serverCPU; ok {
		r.server = cpuFigures(cpu, r.requests, r.moves)
	}
	if cpu, ok := <-clientCPU; ok {
		r.client = cpuFigures(cpu, r.requests, r.moves)
	}
	return r
}

// player is one channel and its one or two people.
type player struct {
	l       *loader
	url     string // the endpoint this channel's requests go to
	rng     *rand.Rand
	channel string
	guild   string
	// users[0] starts the channel's games; users[1] is the other person, or
	// "" in a channel that plays nimbot.
	users      [2]string
	heads      [2]encodedHead // head's JSON for the channel's people
	b          *board
	recovering bool
	acks       []ack
	stopped    bool
}

// board is the last board the channel was shown.
type board struct {
	msgID   string
	content string
	// components and embeds are the answer's, as received (nil where it
	// had none), for the message a click carries (message, built once).
	components, embeds json.RawMessage
	msg                json.RawMessage
	controls           []control
	game               int64
	ply                int
}

// control is an enabled button or select menu on a board: its custom_id,
// read as nimbot reads it (commands.ParseControl).
type control struct {
	id      string
	ctl     commands.Control
	kind    int // 2 button, 3 string select
	options []string
}

// request is one interaction to send.
type request struct {
	id, token string
	body      []byte
	what      string // "start", "status", "heap", "move", "accept", "rematch", "resign"
	user      string
	move      *clicked
}

// clicked is the move a move click asked for, to check against the store.
type clicked struct {
	game     int64
	ply      int
	player   string
	heap     int
	take     int64
	notation string
}

// ack is a move the server acknowledged with a 200 and a new board.
type ack struct {
	move    clicked
	nextPly int // the ply of the board returned
}

func (p *player) isPeople() bool { return p.users[1] != "" }

// run plays until stop ends; ctx bounds the requests themselves.
func (p *player) run(ctx, stop context.Context, pc *pacer, st *passStats) {
	for stop.Err() == nil && !p.stopped {
		rq := p.next()
		if rq.what == "move" {
			pc.wait(stop)
			if stop.Err() != nil {
				return
			}
		}
		for {
			res := p.send(ctx, rq, st)
			if res.err == nil {
				if err := p.receive(rq, res, st); err != nil {
					st.fail(err)
					p.recover()
				}
				break
			}
			if ctx.Err() != nil {
				return
			}
			if p.l.stopOnRefused {
				st.outcome(rq, res.err)
				p.stopped = true
				return
			}
			if !p.l.retry {
				st.fail(res.err)
				if stop.Err() != nil {
					// The pass is over; whether that request landed is
					// unknown, so ask for the board afresh next time.
					p.recover()
					return
				}
			} else {
				st.retries++
			}
			// Resend the same interaction: the server answers a repeat from
			// its idempotency table, so nothing is played twice.
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// recover gets the channel going again after an unexpected answer: ask for
// the board with /nim status, or start anew if there is no game.
func (p *player) recover() {
	p.b = nil
	p.recovering = true
}

// next decides the channel's next interaction from its board, as a person
// looking at it would.
func (p *player) next() *request {
	b := p.b
	switch {
	case b == nil && p.recovering:
		return p.command(p.users[0], "status", nil, "")
	case b == nil:
		return p.start()
	}
	if c := b.find(is[commands.RematchControl]); c != nil {
		if (!p.isPeople() && p.rng.IntN(2) == 0) || (p.isPeople() && p.l.freshPeople) {
			return p.start()
		}
		who := p.users[0]
		if p.isPeople() {
			who = p.users[p.rng.IntN(2)]
		}
		rq := p.click(who, c.id, "", "rematch")
		return rq
	}
	if c := b.find(is[commands.AcceptControl]); c != nil {
		// The board names who is challenged.
		return p.click(b.mentioned(challenged, p.users[1]), c.id, "", "accept")
	}
	who := p.users[0]
	if p.isPeople() {
		// The board says whose turn it is.
		who = b.mentioned(toMove, p.users[0])
	}
	// Every move the board offers, by button or menu option.
	type choice struct {
		c     control
		value string
	}
	var moves, heaps []choice
	for _, c := range b.controls {
		switch c.ctl.(type) {
		case commands.MoveControl:
			moves = append(moves, choice{c: c})
		case commands.MoveMenuControl:
			for _, v := range c.options {
				moves = append(moves, choice{c: c, value: v})
			}
		case commands.HeapControl:
			heaps = append(heaps, choice{c: c})
		case commands.HeapMenuControl:
			for _, v := range c.options {
				heaps = append(heaps, choice{c: c, value: v})
			}
		}
	}
	if len(moves) > 0 {
		ch := moves[p.rng.IntN(len(moves))]
		rq := p.click(who, ch.c.id, ch.value, "move")
		m := &clicked{game: b.game, ply: b.ply, player: who, heap: -1, notation: ch.value}
		if mc, ok := ch.c.ctl.(commands.MoveControl); ok {
			m.heap, m.take = mc.Heap, mc.Take
		}
		rq.move = m
		return rq
	}
	if len(heaps) > 0 {
		ch := heaps[p.rng.IntN(len(heaps))]
		return p.click(who, ch.c.id, ch.value, "heap")
	}
	// Nothing to click (a board asking for a typed move): resign it.
	if c := b.find(is[commands.ResignControl]); c != nil {
		return p.click(who, c.id, "", "resign")
	}
	return p.command(p.users[0], "status", nil, "")
}

// What a person reads on a board between people: the embed says who is
// challenged ("challenges <@ID>"), and whose turn it is ("<@ID> to move").
var (
	challenged = regexp.MustCompile(`challenges <@!?(\d+)>`)
	toMove     = regexp.MustCompile(`<@!?(\d+)> to move`)
)

// mentioned returns the user m finds in the board's embeds, or def.
func (b *board) mentioned(m *regexp.Regexp, def string) string {
	var embeds []struct {
		Description string `json:"description"`
	}
	if json.Unmarshal(b.embeds, &embeds) != nil {
		return def
	}
	for _, e := range embeds {
		if sub := m.FindStringSubmatch(e.Description); sub != nil {
			return sub[1]
		}
	}
	return def
}

// is reports whether c is a control of type C.
func is[C commands.Control](c commands.Control) bool {
	_, ok := c.(C)
	return ok
}

// find returns the board's first control that is, nil if none is.
func (b *board) find(is func(commands.Control) bool) *control {
	for i := range b.controls {
		if is(b.controls[i].ctl) {
			return &b.controls[i]
		}
	}
	return nil
}

// start is /nim start: against nimbot, or a challenge to the channel's
// other person with the challenger moving first.
func (p *player) start() *request {
	if p.isPeople() && p.l.freshPeople {
		p.users = [2]string{snowflake(), snowflake()}
	}
	opts := []option{{name: "heaps", typ: 3, value: p.l.heaps}}
	resolved := ""
	if p.isPeople() {
		opts = append(opts, option{name: "opponent", typ: 6, value: p.users[1]}, option{name: "first", typ: 3, value: "me"})
		resolved = p.users[1]
	}
	return p.command(p.users[0], "start", opts, resolved)
}

// command is an APPLICATION_COMMAND for /nim sub; resolved, if not "", is
// the user option Discord resolves.
func (p *player) command(who, sub string, opts []option, resolved string) *request {
	id, token := snowflake(), "load."+snowflake()
	return &request{id: id, token: token, body: p.commandJSON(who, sub, opts, resolved, id, token), what: sub, user: who}
}

// click is a MESSAGE_COMPONENT on the current board: a button, or a select
// menu with one value.
func (p *player) click(who, customID, value, what string) *request {
	id, token := snowflake(), "load."+snowflake()
	return &request{id: id, token: token, body: p.clickJSON(who, customID, value, id, token, p.b), what: what, user: who}
}

// result is one request's outcome at the transport level.
type result struct {
	status   int
	body     []byte
	err      error
	from, to time.Time
}

// send signs rq with a fresh timestamp and posts it.
func (p *player) send(ctx context.Context, rq *request, st *passStats) result {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := ed25519.Sign(p.l.key, append([]byte(ts), rq.body...))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(rq.body))
	if err != nil {
		return result{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", ts)
	p.l.sent.Add(1)
	r := result{from: time.Now()}
	res, err := p.l.client.Do(req)
	if err != nil {
		r.err = err
		return r
	}
	r.status = res.StatusCode
	r.body, r.err = io.ReadAll(res.Body)
	res.Body.Close()
	if r.err == nil {
		r.to = time.Now()
	}
	return r
}

// receive checks an answer and takes the board it carries.
func (p *player) receive(rq *request, res result, st *passStats) error {
	var typ int
	var data *answerData
	if res.status == http.StatusOK {
		var a answer
		if err := json.Unmarshal(res.body, &a); err != nil {
			return fmt.Errorf("%s: decoding the answer: %v", rq.what, err)
		}
		typ, data = a.Type, a.Data
	}
	if typ == 5 || typ == 6 {
		// A deferral: bot sends the answer through the webhook once it has
		// it, and the person sees it then.
		if st != nil {
			st.deferred++
		}
		if p.l.rest == nil {
			if st != nil {
				st.record(rq, res)
			}
			return fmt.Errorf("%s: deferred, and the follow-up goes to Discord, not here", rq.what)
		}
		b, ok := p.l.rest.followUp(rq.token, 30*time.Second)
		res.to = time.Now()
		if st != nil {
			st.record(rq, res)
		}
		if !ok {
			return fmt.Errorf("%s: deferred, and no answer followed within 30 s", rq.what)
		}
		if err := json.Unmarshal(b, &data); err != nil {
			return fmt.Errorf("%s: decoding the deferred answer: %v", rq.what, err)
		}
		typ = 7 // an update of the clicked board, or of the "thinking" message
		if rq.what == "start" || rq.what == "status" || rq.what == "rematch" {
			p.b = nil
		}
	} else if st != nil {
		st.record(rq, res)
	}
	if at := p.l.signalled.Load(); at != 0 && st != nil && res.from.UnixNano() < at && res.to.UnixNano() > at {
		st.inFlight++
	}
	if res.status != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d: %.200s", rq.what, res.status, res.body)
	}
	if data == nil {
		return fmt.Errorf("%s: answer of type %d without data", rq.what, typ)
	}
	if data.Flags&64 != 0 {
		if p.recovering && rq.what == "status" {
			// "There is no game in this channel": start one.
			p.recovering = false
			p.b = nil
			return nil
		}
		return fmt.Errorf("%s: ephemeral answer %q", rq.what, data.Content)
	}
	p.recovering = false
	comps, err := data.components()
	if err != nil {
		return fmt.Errorf("%s: decoding components: %v", rq.what, err)
	}
	nb := &board{content: data.Content, components: data.Components, embeds: data.Embeds, game: -1}
	switch typ {
	case 4: // CHANNEL_MESSAGE_WITH_SOURCE: a new message in the channel
		nb.msgID = snowflake()
		if p.l.rest != nil {
			msg := nb.message(p.channel)
			p.l.rest.posted(rq.token, msg)
		}
	case 7: // UPDATE_MESSAGE: the board clicked on, redrawn
		if p.b != nil {
			nb.msgID = p.b.msgID
		} else {
			nb.msgID = snowflake()
		}
	default:
		return fmt.Errorf("%s: unexpected answer type %d", rq.what, typ)
	}
	if bad := nb.addControls(comps); bad != nil {
		return fmt.Errorf("%s: the board carries a control nimbot does not read back: %v", rq.what, bad)
	}
	if nb.game < 0 || len(nb.controls) == 0 {
		return fmt.Errorf("%s: the answer carries no board", rq.what)
	}
	if rq.move != nil && st != nil && st.win.has(res.to) {
		st.moves++
	}
	if rq.move != nil && p.l.ackMoves {
		p.acks = append(p.acks, ack{move: *rq.move, nextPly: nb.ply})
	}
	if nb.find(is[commands.RematchControl]) != nil && st != nil && st.win.has(res.to) {
		st.games++
	}
	p.b = nb
	return nil
}

// addControls reads the custom_ids in cs (rows included) back as nimbot
// reads them, takes the board's game and ply from the first, and adds the
// enabled ones to the board's controls. It returns the last custom_id
// that does not read, if any does not.
func (nb *board) addControls(cs []component) (bad error) {
	for _, c := range cs {
		if c.Type == 1 {
			if err := nb.addControls(c.Components); err != nil {
				bad = err
			}
			continue
		}
		if c.CustomID == "" {
			continue
		}
		parsed, err := commands.ParseControl(c.CustomID)
		if err != nil {
			bad = err
			continue
		}
		if nb.game < 0 {
			game, ply := parsed.Target()
			nb.game = game
			if ply >= 0 {
				nb.ply = ply
			}
		}
		if c.Disabled {
			continue
		}
		ctl := control{id: c.CustomID, ctl: parsed, kind: c.Type}
		for _, o := range c.Options {
			ctl.options = append(ctl.options, o.Value)
		}
		nb.controls = append(nb.controls, ctl)
	}
	return bad
}

// isRefused reports whether err is a refused connection: nothing listens.
func isRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }
