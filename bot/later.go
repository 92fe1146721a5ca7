package bot

import (
	"context"
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
// need: a few ids, the token, the controls' custom ids.
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

// delayedFetch is one message waiting: the interaction and the answer that
// created it, trimmed to what the fetch and BoardWanted read (see
// trimFetch). Thousands wait at once under load, so each keeps no more:
// the answer's controls as their custom ids, row by row, rather than as
// discordgo's components.
type delayedFetch struct {
	i        *discordgo.Interaction
	respType discordgo.InteractionResponseType
	data     bool // the answer had data (flags, components)
	flags    discordgo.MessageFlags
	rows     [][]heldControl
	due      time.Time
}

// heldControl is a button, or with menu a select menu, by its custom id.
type heldControl struct {
	menu     bool
	customID string
}

// trimFetch keeps of i its ID, AppID, Token, Type, ChannelID and GuildID,
// and of first its Type, flags and action rows of buttons and menus. The
// strings are copied: none of the request's or the answer's memory stays
// reachable through the queue.
func trimFetch(i *discordgo.Interaction, first *discordgo.InteractionResponse, due time.Time) delayedFetch {
	c := strings.Clone
	f := delayedFetch{
		i: &discordgo.Interaction{ID: c(i.ID), AppID: c(i.AppID), Token: c(i.Token), Type: i.Type,
			ChannelID: c(i.ChannelID), GuildID: c(i.GuildID)},
		respType: first.Type,
		due:      due,
	}
	if first.Data == nil {
		return f
	}
	f.data, f.flags = true, first.Data.Flags
	for _, mc := range first.Data.Components {
		row, ok := actionsRow(mc)
		if !ok {
			continue
		}
		var held []heldControl
		for _, cc := range row.Components {
			switch v := cc.(type) {
			case discordgo.Button:
				held = append(held, heldControl{false, c(v.CustomID)})
			case *discordgo.Button:
				held = append(held, heldControl{false, c(v.CustomID)})
			case discordgo.SelectMenu:
				held = append(held, heldControl{true, c(v.CustomID)})
			case *discordgo.SelectMenu:
				held = append(held, heldControl{true, c(v.CustomID)})
			}
		}
		f.rows = append(f.rows, held)
	}
	return f
}

// answer rebuilds the answer trimFetch kept: its type, flags and action
// rows of buttons and menus that carry only their custom ids.
func (f delayedFetch) answer() *discordgo.InteractionResponse {
	resp := &discordgo.InteractionResponse{Type: f.respType}
	if !f.data {
		return resp
	}
	resp.Data = &discordgo.InteractionResponseData{Flags: f.flags}
	for _, held := range f.rows {
		var row discordgo.ActionsRow
		for _, hc := range held {
			if hc.menu {
				row.Components = append(row.Components, discordgo.SelectMenu{CustomID: hc.customID})
			} else {
				row.Components = append(row.Components, discordgo.Button{CustomID: hc.customID})
			}
		}
		resp.Data.Components = append(resp.Data.Components, row)
	}
	return resp
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
	f := trimFetch(i, first, time.Now().Add(q.delay))
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
		if r.wanted(f.i, f.answer()) {
			r.background(f.i, true, "", func(ctx context.Context) { r.fetchBoard(ctx, f.i) })
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
