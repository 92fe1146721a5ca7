package bot

import (
	"context"
	"encoding/binary"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// DefaultFetchDelay is how long after an answer that posted a new public
// message bot waits before it fetches that message (@original) to report
// it with Service.BoardSent. Most such messages are the board of a game
// against nimbot, and most of those games end within seconds: by the time
// the fetch is due Service.BoardWanted says so, and the game costs neither
// the REST call nor the write that records the id. The id serves live
// games (deadline edits, the link in the "channel busy" answer), so the
// delay must stay well below the shortest turn and challenge timeout (see
// FetchDelayFor); an interaction token, which the fetch needs, lasts 15
// minutes.
//
// Until the fetch, a second /nim start in the channel names the game by
// its number instead of linking to its board: a game that young is still
// on screen just above, so the link is not worth a fetch and a write for
// every game.
const DefaultFetchDelay = 15 * time.Second

// DefaultMaxDelayed bounds the messages waiting for their delayed fetch:
// the rate of new boards times FetchDelay, 2,000 a second for 15 s. Past
// the bound, a new message is fetched at once, as if there were no delay,
// which costs a REST call and a write for a board that most likely needs
// neither. Each waiting message keeps only what the fetch and BoardWanted
// need (a few ids, the token, the controls' custom ids), packed: about 390
// bytes in one string for a board of 3 4 5 (BenchmarkFetchLaterHeld), so
// some 15 MB at the bound, the ring included. That is what 4,096 boards
// took when they were kept as discordgo values, the bound until then.
const DefaultMaxDelayed = 32768

// FetchDelayFor returns the fetch delay for the shortest time a board may
// wait for a move or an answer before its deadline edits it: a quarter of
// it, and at most DefaultFetchDelay, so that a fetch that is late (retried,
// or queued behind a slow store) still comes before the deadline. For a
// timeout too short to divide it is -1: no delay.
func FetchDelayFor(shortestTimeout time.Duration) time.Duration {
	if d := min(DefaultFetchDelay, shortestTimeout/4); d > 0 {
		return d
	}
	return -1
}

// delayedFetches holds new public messages until their fetch is due: one
// FIFO, bounded, served by one goroutine while it is not empty. The delay
// is the same for all, so the order they came in is the order they are
// due in, and the goroutine waits for the first only.
type delayedFetches struct {
	delay time.Duration // <= 0: no delay, every fetch at once

	mu      sync.Mutex
	ring    []delayedFetch // len is the bound
	head, n int
	serving bool          // a goroutine serves the queue (counted in the responder's wg)
	hurried chan struct{} // closed by hurry: everything is due now
	closed  bool          // hurried is closed
}

// delayedFetch is one message waiting: the answer that created it,
// trimmed to what the fetch and BoardWanted read (the interaction's ids
// and token, the answer's type and flags, the custom ids of its buttons and
// menus) and packed into one string. Thousands wait at once under load,
// and the collector marks what they hold at every cycle: kept as the
// discordgo values they came in (a component tree of dozens of objects
// per board) they were most of serve's live heap, and marking them
// stretched every request's latency. Packed, each holds one object, a
// string the collector need not look into. unpack rebuilds the values
// when the fetch is due.
type delayedFetch struct {
	packed   string
	data     bool // the answer had data (flags, components)
	typ      discordgo.InteractionType
	respType discordgo.InteractionResponseType
	flags    discordgo.MessageFlags
	due      time.Time
}

// Control kinds in a packed answer.
const (
	packedButton byte = iota
	packedSelect
)

// packFetch packs what the fetch of first's message and BoardWanted read
// of i and first. The strings are copied: none of the request's or the
// answer's memory stays reachable through the queue. One pass measures,
// the next writes into a string of exactly that size: one allocation per
// board, held as it is for the delay.
func packFetch(i *discordgo.Interaction, first *discordgo.InteractionResponse, due time.Time) delayedFetch {
	f := delayedFetch{typ: i.Type, respType: first.Type, due: due}
	if first.Data != nil {
		f.data, f.flags = true, first.Data.Flags
	}
	var size packer
	size.pack(i, first)
	out := packer{b: new(strings.Builder)}
	out.b.Grow(size.n)
	out.pack(i, first)
	f.packed = out.b.String()
	return f
}

// packer packs an interaction and its answer for packFetch: into b, or,
// with b nil, only counts the bytes in n.
type packer struct {
	b *strings.Builder
	n int
}

func (p *packer) pack(i *discordgo.Interaction, first *discordgo.InteractionResponse) {
	for _, s := range [...]string{i.ID, i.AppID, i.Token, i.ChannelID, i.GuildID} {
		p.str(s)
	}
	if first.Data == nil {
		return
	}
	for _, c := range first.Data.Components {
		row, ok := actionsRow(c)
		if !ok {
			continue
		}
		p.byte('[')
		for _, cc := range row.Components {
			switch v := cc.(type) {
			case discordgo.Button:
				p.control(packedButton, v.CustomID)
			case *discordgo.Button:
				p.control(packedButton, v.CustomID)
			case discordgo.SelectMenu:
				p.control(packedSelect, v.CustomID)
			case *discordgo.SelectMenu:
				p.control(packedSelect, v.CustomID)
			}
		}
		p.byte(']')
	}
}

func (p *packer) byte(c byte) {
	if p.b == nil {
		p.n++
		return
	}
	p.b.WriteByte(c)
}

// str packs s with its length before it (cutPacked reads it back).
func (p *packer) str(s string) {
	var l [binary.MaxVarintLen64]byte
	w := binary.PutUvarint(l[:], uint64(len(s)))
	if p.b == nil {
		p.n += w + len(s)
		return
	}
	p.b.Write(l[:w])
	p.b.WriteString(s)
}

func (p *packer) control(kind byte, customID string) {
	p.byte(kind)
	p.str(customID)
}

func actionsRow(c discordgo.MessageComponent) (discordgo.ActionsRow, bool) {
	switch v := c.(type) {
	case discordgo.ActionsRow:
		return v, true
	case *discordgo.ActionsRow:
		if v != nil {
			return *v, true
		}
	}
	return discordgo.ActionsRow{}, false
}

// cutPacked returns the string packer.str put first in s, and the rest
// of s after it ("" and "" if s does not start with one).
func cutPacked(s string) (v, rest string) {
	var n uint64
	for k := 0; k < len(s) && k < binary.MaxVarintLen64; k++ {
		n |= uint64(s[k]&0x7f) << (7 * k)
		if s[k] < 0x80 {
			if n > uint64(len(s)-k-1) {
				return "", ""
			}
			return s[k+1 : k+1+int(n)], s[k+1+int(n):]
		}
	}
	return "", ""
}

// unpack rebuilds the interaction and the answer packFetch packed: i with
// its ID, AppID, Token, Type, ChannelID and GuildID, resp with its Type,
// flags and action rows of buttons and menus that carry only their custom
// ids.
func (f delayedFetch) unpack() (*discordgo.Interaction, *discordgo.InteractionResponse) {
	s := f.packed
	next := func() string {
		var v string
		v, s = cutPacked(s)
		return v
	}
	i := &discordgo.Interaction{ID: next(), AppID: next(), Token: next(), Type: f.typ, ChannelID: next(), GuildID: next()}
	resp := &discordgo.InteractionResponse{Type: f.respType}
	if !f.data {
		return i, resp
	}
	resp.Data = &discordgo.InteractionResponseData{Flags: f.flags}
	for len(s) > 0 && s[0] == '[' {
		s = s[1:]
		var row discordgo.ActionsRow
		for len(s) > 0 && s[0] != ']' {
			kind := s[0]
			s = s[1:]
			id := next()
			if kind == packedSelect {
				row.Components = append(row.Components, discordgo.SelectMenu{CustomID: id})
			} else {
				row.Components = append(row.Components, discordgo.Button{CustomID: id})
			}
		}
		s = strings.TrimPrefix(s, "]")
		resp.Data.Components = append(resp.Data.Components, row)
	}
	return i, resp
}

func (q *delayedFetches) init(delay time.Duration, max int) {
	q.delay = delay
	q.hurried = make(chan struct{})
	if delay > 0 {
		q.ring = make([]delayedFetch, max)
	}
}

// len is how many fetches are waiting.
func (q *delayedFetches) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}

// hurry makes every waiting fetch due at once, and every later one too:
// shutdown has begun.
func (q *delayedFetches) hurry() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.hurried)
	}
}

// fetchLater queues the fetch of the message first, the answer to i,
// created, and reports whether it did: not when there is no delay or the
// queue is full (the caller then fetches at once, as before the delay).
func (r *responder) fetchLater(i *discordgo.Interaction, first *discordgo.InteractionResponse) bool {
	q := &r.later
	if q.delay <= 0 {
		return false
	}
	f := packFetch(i, first, time.Now().Add(q.delay))
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n == len(q.ring) {
		return false
	}
	q.ring[(q.head+q.n)%len(q.ring)] = f
	q.n++
	if !q.serving {
		q.serving = true
		r.wg.Add(1)
		go r.serveLater()
	}
	return true
}

// serveLater serves the queue until it is empty: it waits until the first
// fetch is due, asks BoardWanted, and fetches in the background (within
// the pending bound, waiting for a slot rather than dropping) when the
// message is still wanted. When shutdown gives up on the background work
// (r.base ends), what is left is abandoned; wait counts it.
func (r *responder) serveLater() {
	defer r.wg.Done()
	q := &r.later
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		q.mu.Lock()
		if q.n == 0 || r.base.Err() != nil {
			q.serving = false
			q.mu.Unlock()
			return
		}
		f := q.ring[q.head]
		q.mu.Unlock()
		if d := time.Until(f.due); d > 0 {
			t.Reset(d)
			select {
			case <-t.C:
			case <-q.hurried:
				t.Stop()
			case <-r.base.Done():
				t.Stop()
				continue
			}
		}
		q.mu.Lock()
		q.ring[q.head] = delayedFetch{} // the board is not kept past its turn
		q.head = (q.head + 1) % len(q.ring)
		q.n--
		q.mu.Unlock()
		if i, resp := f.unpack(); r.wanted(i, resp) {
			r.background(i, true, "", func(ctx context.Context) { r.fetchBoard(ctx, i) })
		}
	}
}

// wanted asks the service whether the message resp created still needs
// its id recorded; when it cannot tell, the message is fetched, as before
// the delay.
func (r *responder) wanted(i *discordgo.Interaction, resp *discordgo.InteractionResponse) bool {
	ctx, cancel := context.WithTimeout(r.base, 10*time.Second)
	defer cancel()
	ok, err := r.svc.BoardWanted(ctx, i, resp)
	if err != nil {
		r.log.Error("checking whether a new message still needs recording; fetching it", "interaction", i.ID, "err", err)
		return true
	}
	return ok
}
