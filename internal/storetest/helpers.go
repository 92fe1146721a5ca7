package storetest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// Epoch is the suite's clock start: a fixed, round time.
var Epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Clock returns a deterministic clock that starts at Epoch and advances one
// millisecond per read.
func Clock() func() time.Time {
	var n atomic.Int64
	return func() time.Time { return Epoch.Add(time.Duration(n.Add(1)) * time.Millisecond) }
}

// nim is plain Nim, normal play.
var nim = engine.Rules{Variant: engine.Nim}

// NewGame returns an active game of Nim on heaps in channel between players.
func NewGame(channel string, players [2]string, heaps ...int64) *match.Game {
	return &match.Game{
		GuildID:   "guild",
		ChannelID: channel,
		Rules:     nim,
		Start:     engine.Position{Heaps: heaps},
		Players:   players,
		Status:    match.Active,
		Hints:     true,
		CreatedBy: players[0],
	}
}

// MustCreate creates g in s, failing tb if it cannot.
func MustCreate(tb testing.TB, s match.Storage, g *match.Game) *match.Game {
	tb.Helper()
	if err := s.CreateGame(context.Background(), g); err != nil {
		tb.Fatal(err)
	}
	return g
}

// Take is the suite's own move: take n from heap h. Stores never look
// inside moves; the suite applies them with Apply to check replays.
func Take(h int, n int64) engine.Move { return engine.Move{Kind: engine.Take, Heap: h, Take: n} }

// Apply plays a Take on a copy of p.
func Apply(p engine.Position, m engine.Move) (engine.Position, error) {
	if m.Kind != engine.Take || m.Heap < 0 || m.Heap >= len(p.Heaps) || m.Take < 1 || m.Take > p.Heaps[m.Heap] {
		return p, fmt.Errorf("illegal test move %+v in %v", m, p.Heaps)
	}
	q := engine.Position{Heaps: append([]int64(nil), p.Heaps...)}
	q.Heaps[m.Heap] -= m.Take
	return q, nil
}

// Over reports whether every heap of p is empty.
func Over(p engine.Position) bool {
	for _, h := range p.Heaps {
		if h > 0 {
			return false
		}
	}
	return true
}

// Play commits moves for g as seen now, finishing it as Won by whoever
// moves last if the heaps run out.
func Play(tb testing.TB, s match.Storage, g *match.Game, moves ...engine.Move) *match.Game {
	tb.Helper()
	c, err := Change(g, moves...)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := s.Commit(context.Background(), c)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// Change builds the Change that plays moves on g.
func Change(g *match.Game, moves ...engine.Move) (match.Change, error) {
	c := match.Change{GameID: g.ID, Ply: g.Ply, From: g.Status, Moves: moves, Position: g.Position, Status: match.Active}
	for i, m := range moves {
		var err error
		if c.Position, err = Apply(c.Position, m); err != nil {
			return c, err
		}
		if Over(c.Position) {
			c.Status = match.Won
			c.Winner = g.Players[(g.Ply+i)%2]
			c.Moves = moves[:i+1]
			break
		}
	}
	return c, nil
}

// CheckGame verifies a game is whole, through the contract alone: ply
// equals the number of moves, the position is the replay of the moves,
// players alternate, and it is Won exactly when its heaps are empty.
func CheckGame(tb testing.TB, s match.Storage, id int64) {
	tb.Helper()
	ctx := context.Background()
	g, err := s.Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	moves, err := s.Moves(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	if len(moves) != g.Ply {
		tb.Errorf("game %d: ply %d but %d moves", id, g.Ply, len(moves))
	}
	p := g.Start
	for i, m := range moves {
		if m.Ply != i || m.Player != g.Players[i%2] {
			tb.Errorf("game %d: move %d is ply %d by %s", id, i, m.Ply, m.Player)
		}
		if p, err = Apply(p, m.Move); err != nil {
			tb.Errorf("game %d: %v", id, err)
		}
	}
	if !reflect.DeepEqual(p.Heaps, g.Position.Heaps) {
		tb.Errorf("game %d: position %v, replay gives %v", id, g.Position.Heaps, p.Heaps)
	}
	if (g.Status == match.Won) != Over(p) {
		tb.Errorf("game %d: status %s with heaps %v", id, g.Status, p.Heaps)
	}
}

// atOnce runs n requests at once: prepare(i) builds request i in its own
// goroutine and returns it, as a func; all of them are then released
// together, so that they race, and atOnce returns when all are done.
func atOnce(n int, prepare func(i int) (send func())) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			send := prepare(i)
			<-start
			send()
		})
	}
	close(start)
	wg.Wait()
}
