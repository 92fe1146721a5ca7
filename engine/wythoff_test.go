package engine

import (
	"errors"
	"testing"
)

// wythoffChildren is Wythoff's game from the rules of play: take any amount
// from one heap, or the same amount from both.
func wythoffChildren(p Position) []Position {
	x, y := p.Heaps[0], p.Heaps[1]
	var kids []Position
	for t := int64(1); t <= x; t++ {
		kids = append(kids, Position{Heaps: []int64{x - t, y}})
	}
	for t := int64(1); t <= y; t++ {
		kids = append(kids, Position{Heaps: []int64{x, y - t}})
	}
	for t := int64(1); t <= x && t <= y; t++ {
		kids = append(kids, Position{Heaps: []int64{x - t, y - t}})
	}
	return kids
}

func TestWythoffAgreement(t *testing.T) {
	size := int64(40)
	if testing.Short() || raceEnabled {
		size = 20
	}
	for _, misere := range []bool{false, true} {
		r := Rules{Variant: Wythoff, Misere: misere}
		g := &treeGame{misere: misere, children: wythoffChildren}
		eachHeaps(2, size, func(h []int64) { checkAgreement(t, r, g, Position{Heaps: h}) })
	}
}

// TestWythoffPairs checks the exact a_k against the pairs' definition: a_k is
// the least number in no earlier pair, b_k = a_k + k.
func TestWythoffPairs(t *testing.T) {
	used := map[int64]bool{}
	next := int64(0)
	for k := int64(0); k < 200000; k++ {
		for used[next] {
			next++
		}
		a, b := wythoffPair(k)
		if a != next || b != next+k {
			t.Fatalf("k=%d: got (%d, %d), want (%d, %d)", k, a, b, next, next+k)
		}
		used[a], used[b] = true, true
		if k > 0 && (wythoffPartner(a) != b || wythoffPartner(b) != a) {
			t.Fatalf("k=%d: partners of %d and %d are %d and %d", k, a, b, wythoffPartner(a), wythoffPartner(b))
		}
	}
}

func TestWythoffNamedCases(t *testing.T) {
	tests := []struct {
		misere bool
		x, y   int64
		wins   bool
	}{
		{false, 0, 0, false}, {false, 1, 2, false}, {false, 3, 5, false}, {false, 4, 7, false}, {false, 0, 1, true}, {false, 2, 2, true},
		{true, 0, 1, false}, {true, 1, 0, false}, {true, 2, 2, false}, {true, 3, 5, false}, {true, 0, 0, true}, {true, 1, 2, true},
	}
	for _, tc := range tests {
		r := Rules{Variant: Wythoff, Misere: tc.misere}
		a, err := r.Analyze(Position{Heaps: []int64{tc.x, tc.y}})
		if err != nil {
			t.Fatal(err)
		}
		if a.MoverWins != tc.wins {
			t.Errorf("%s (%d, %d): mover wins=%v, want %v", r.Name(), tc.x, tc.y, a.MoverWins, tc.wins)
		}
	}
}

// TestWythoffLarge checks heaps near 10^12 against the rule's defining
// property: the pairs are P (no winning move, and every move from them
// reaches an N-position for the sampled moves), every listed winning move
// reaches a pair, and an N-position has one.
func TestWythoffLarge(t *testing.T) {
	for _, misere := range []bool{false, true} {
		r := Rules{Variant: Wythoff, Misere: misere}
		for _, k := range []int64{2, 3, 1000, 123456789, 381966011250, 381966011249} {
			a, b := wythoffPair(k)
			if b > MaxHeapSize {
				t.Fatalf("k=%d: pair (%d, %d) beyond the heap bound", k, a, b)
			}
			p := Position{Heaps: []int64{a, b}}
			an, err := r.Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			if an.MoverWins || an.WinningCount != 0 {
				t.Fatalf("misère=%v pair %v: %+v", misere, p, an)
			}
			for _, d := range []int64{1, 2, 3, 17, k, a} {
				for _, m := range []Move{{Kind: Take, Heap: 0, Take: d}, {Kind: Take, Heap: 1, Take: d}, {Kind: Diagonal, Take: d}} {
					q, err := r.Apply(p, m)
					if err != nil {
						continue
					}
					checkWythoffN(t, r, q)
				}
				// Positions near the pair, in either order.
				checkWythoffN(t, r, Position{Heaps: []int64{b + d, a}})
				checkWythoffN(t, r, Position{Heaps: []int64{a + d, b + d}})
			}
		}
	}
}

// checkWythoffN asserts q is a win whose listed moves all reach a P-position.
func checkWythoffN(t *testing.T, r Rules, q Position) {
	t.Helper()
	if q.Heaps[0] > MaxHeapSize || q.Heaps[1] > MaxHeapSize {
		return
	}
	a, err := r.Analyze(q)
	if err != nil {
		t.Fatal(err)
	}
	if !a.MoverWins || a.WinningCount == 0 || a.WinningCount > 3 {
		t.Fatalf("%s %v: %+v", r.Name(), q, a)
	}
	for _, m := range a.Winning {
		next, err := r.Apply(q, m)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := r.Analyze(next); b.MoverWins {
			t.Fatalf("%s %v: winning move %+v leads to %v, a win for the opponent", r.Name(), q, m, next)
		}
	}
}

func TestWythoffMoveErrors(t *testing.T) {
	r := Rules{Variant: Wythoff}
	p := Position{Heaps: []int64{3, 5}}
	tests := []struct {
		name string
		m    Move
		want string
	}{
		{"different amounts", Move{Kind: Multi, Takes: []int64{1, 2}}, "Wythoff's game: take the same amount from both heaps, or from one"},
		{"split", Move{Kind: Split, Parts: [2]int64{1, 2}}, "Wythoff's game: take the same amount from both heaps, or from one"},
		{"diagonal too many", Move{Kind: Diagonal, Take: 4}, "Wythoff's game: heap A has 3, so you can take at most 3 from both heaps"},
		{"diagonal nothing", Move{Kind: Diagonal}, "take at least 1"},
		{"too many", Move{Kind: Take, Heap: 1, Take: 6}, "heap B has 5, you asked for 6"},
		{"no heap C", Move{Kind: Take, Heap: 2, Take: 1}, "no heap C: the heaps are A to B"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.Apply(p, tc.m)
			var me *MoveError
			if !errors.As(err, &me) || me.Reason != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
	_, err := r.Apply(Position{Heaps: []int64{0, 5}}, Move{Kind: Diagonal, Take: 1})
	var me *MoveError
	if !errors.As(err, &me) || me.Reason != "Wythoff's game: heap A is empty, so you cannot take from both heaps" {
		t.Errorf("empty heap diagonal: %v", err)
	}
	if err := r.Check(Position{Heaps: []int64{1, 2, 3}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("three heaps: %v", err)
	}
}
