package engine

import (
	"reflect"
	"slices"
	"testing"
)

// replayStep is one move of a sample game with the verdict for the player
// about to make it.
type replayStep struct {
	move      string
	after     []int64
	moverWins bool // before the move
}

func replay(t *testing.T, game string, steps []replayStep) (Rules, Position) {
	t.Helper()
	r, p, err := ParseGame(game)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		a, err := r.Analyze(p)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if a.MoverWins != s.moverWins {
			t.Fatalf("step %d at %v: engine says mover wins=%v, the sample says %v", i, p.Heaps, a.MoverWins, s.moverWins)
		}
		m, err := r.ParseMove(p, s.move)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if p, err = r.Apply(p, m); err != nil {
			t.Fatalf("step %d: %s: %v", i, s.move, err)
		}
		if !slices.Equal(p.Heaps, s.after) {
			t.Fatalf("step %d: %s leaves %v, the sample says %v", i, s.move, p.Heaps, s.after)
		}
	}
	return r, p
}

// TestSeed004SampleGame replays seed 004's first sample game (Bob and Alice
// on 3-4-5, normal play): Bob, who moves first, wins.
func TestSeed004SampleGame(t *testing.T) {
	r, p := replay(t, "3 4 5", []replayStep{
		{"A2", []int64{1, 4, 5}, true},
		{"C3", []int64{1, 4, 2}, false},
		{"B1", []int64{1, 3, 2}, true},
		{"B1", []int64{1, 2, 2}, false},
		{"A1", []int64{0, 2, 2}, true},
		{"B1", []int64{0, 1, 2}, false},
		{"C1", []int64{0, 1, 1}, true},
		{"B1", []int64{0, 0, 1}, false},
		{"C1", []int64{0, 0, 0}, true},
	})
	if !r.Over(p) || !r.LastMoverWins() {
		t.Fatal("the game should be over with the last mover (Bob) winning")
	}
	// "In misère play he would take 2 from C leaving (0, 1, 0)."
	mr := Rules{Variant: Nim, Misere: true}
	a, err := mr.Analyze(Position{Heaps: []int64{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if !a.MoverWins || !reflect.DeepEqual(a.Winning, []Move{{Kind: Take, Heap: 2, Take: 2}}) {
		t.Fatalf("misère 0-1-2: %+v, want only C2", a)
	}
}

// TestSeed004NimSumGame replays seed 004's nim-sum game on 3-4-5, where "I"
// always leaves a nim-sum of 0, in both conventions: the games part at 0-2-1,
// where normal play takes 1 from B and misère play takes all of B.
func TestSeed004NimSumGame(t *testing.T) {
	common := []replayStep{
		{"A2", []int64{1, 4, 5}, true},
		{"C2", []int64{1, 4, 3}, false},
		{"B2", []int64{1, 2, 3}, true},
		{"C1", []int64{1, 2, 2}, false},
		{"A1", []int64{0, 2, 2}, true},
		{"C1", []int64{0, 2, 1}, false},
	}
	t.Run("normal", func(t *testing.T) {
		r, p := replay(t, "3 4 5", append(slices.Clone(common),
			replayStep{"B1", []int64{0, 1, 1}, true},
			replayStep{"C1", []int64{0, 1, 0}, false},
			replayStep{"B1", []int64{0, 0, 0}, true},
		))
		if !r.Over(p) {
			t.Fatal("not over")
		}
	})
	t.Run("misere", func(t *testing.T) {
		r, p := replay(t, "nim misere 3 4 5", append(slices.Clone(common),
			replayStep{"B2", []int64{0, 0, 1}, true},
			replayStep{"C1", []int64{0, 0, 0}, false},
		))
		if !r.Over(p) || r.LastMoverWins() {
			t.Fatal("the game should be over with the last mover losing")
		}
	})
	// Where the games part, the engine's hint is the seed's move.
	for _, tt := range []struct {
		game string
		want string
	}{{"3 4 5", "B1"}, {"nim misere 3 4 5", "B2"}} {
		r, _, _ := ParseGame(tt.game)
		p := Position{Heaps: []int64{0, 2, 1}}
		h, err := r.Hint(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.FormatMove(p, h.Move); got != tt.want {
			t.Errorf("%s at 0-2-1: hint %s, the seed plays %s", tt.game, got, tt.want)
		}
	}
}

// TestSeed003Game replays seed 003's game on 3-5-7 and reviews it: the first
// four moves each handed the opponent a won position.
func TestSeed003Game(t *testing.T) {
	steps := []replayStep{
		{"A2", []int64{1, 5, 7}, true},
		{"B3", []int64{1, 2, 7}, true},
		{"C3", []int64{1, 2, 4}, true},
		{"C4", []int64{1, 2, 0}, true},
		{"B1", []int64{1, 1, 0}, true},
		{"B1", []int64{1, 0, 0}, false},
		{"A1", []int64{0, 0, 0}, true},
	}
	r, _ := replay(t, "3 5 7", steps)
	start := Position{Heaps: []int64{3, 5, 7}}
	var moves []Move
	p := start
	for _, s := range steps {
		m, _ := r.ParseMove(p, s.move)
		moves = append(moves, m)
		p, _ = r.Apply(p, m)
	}
	mistakes, err := r.Review(start, moves)
	if err != nil {
		t.Fatal(err)
	}
	var plies []int
	for _, m := range mistakes {
		plies = append(plies, m.Ply)
		q, err := r.Apply(m.Before, m.Better)
		if err != nil {
			t.Fatalf("ply %d: better move %+v: %v", m.Ply, m.Better, err)
		}
		if a, _ := r.Analyze(q); a.MoverWins {
			t.Fatalf("ply %d: the better move %+v does not win", m.Ply, m.Better)
		}
	}
	if !slices.Equal(plies, []int{0, 1, 2, 3}) {
		t.Fatalf("mistakes at plies %v, want 0 1 2 3", plies)
	}
}
