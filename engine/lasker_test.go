package engine

import (
	"errors"
	"slices"
	"testing"
)

// laskerChildren is Lasker's Nim from the rules of play: take any amount
// from one heap, or split a heap into two non-empty heaps (the left part in
// its place, the right part after it).
func laskerChildren(p Position) []Position {
	var kids []Position
	for i, h := range p.Heaps {
		for t := int64(1); t <= h; t++ {
			c := slices.Clone(p.Heaps)
			c[i] -= t
			kids = append(kids, Position{Heaps: c})
		}
		for a := int64(1); a < h; a++ {
			c := slices.Clone(p.Heaps)
			c[i] = a
			c = slices.Insert(c, i+1, h-a)
			kids = append(kids, Position{Heaps: c})
		}
	}
	return kids
}

func TestLaskerAgreement(t *testing.T) {
	bounds := []int64{30, 15, 12, 6}
	if testing.Short() || raceEnabled {
		bounds = []int64{16, 8, 5}
	}
	for _, misere := range []bool{false, true} {
		r := Rules{Variant: Lasker, Misere: misere}
		s := newSumTree(misere, laskerChildren)
		eachSmall(bounds, func(p Position) { s.check(t, r, p) })
	}
}

// TestLaskerGrundy checks the closed form against the mex recurrence.
func TestLaskerGrundy(t *testing.T) {
	const n = 400
	var g [n]int64
	for h := 1; h < n; h++ {
		seen := map[int64]bool{}
		for v := 0; v < h; v++ {
			seen[g[v]] = true
		}
		for a := 1; a < h; a++ {
			seen[g[a]^g[h-a]] = true
		}
		for seen[g[h]] {
			g[h]++
		}
	}
	for h := int64(0); h < n; h++ {
		if laskerG(h) != g[h] {
			t.Fatalf("g(%d) = %d, the recurrence says %d", h, laskerG(h), g[h])
		}
	}
}

// TestLaskerSplits checks the derived split count and list against walking
// every split.
func TestLaskerSplits(t *testing.T) {
	for h := int64(0); h <= 260; h++ {
		for w := int64(0); w < 512; w++ {
			var want []int64
			for a := int64(1); a < h; a++ {
				if laskerG(a)^laskerG(h-a) == w {
					want = append(want, a)
				}
			}
			got, n := laskerSplits(h, w, 1000)
			if !slices.Equal(got, want) || n != int64(len(want)) {
				t.Fatalf("h=%d w=%d: got %v (%d), want %v", h, w, got, n, want)
			}
			if len(want) > 2 {
				if got, n := laskerSplits(h, w, 2); !slices.Equal(got, want[:2]) || n != int64(len(want)) {
					t.Fatalf("h=%d w=%d cut at 2: got %v (%d), want %v", h, w, got, n, want[:2])
				}
			}
		}
	}
}

// TestLaskerLarge checks heaps near 10^12 against the rule's defining
// property: every listed move leads to a P-position, P-positions list none,
// and the count of splits agrees with the XOR rule's requirement.
func TestLaskerLarge(t *testing.T) {
	positions := [][]int64{
		{MaxHeapSize},
		{MaxHeapSize, MaxHeapSize - 1},
		{999999999999, 5, 123456789013},
		{1<<39 + 3, 1<<39 + 4},
		{1, 1, 1 << 38},
		{2, 1, 1},
		{734567890123, 2, 3},
	}
	for _, misere := range []bool{false, true} {
		r := Rules{Variant: Lasker, Misere: misere}
		for _, h := range positions {
			p := Position{Heaps: h}
			a, err := r.Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			if a.MoverWins != (a.WinningCount > 0) || int64(len(a.Winning)) > a.WinningCount || len(a.Winning) > MaxListedMoves {
				t.Fatalf("%v misère=%v: %d listed, count %d, wins=%v", h, misere, len(a.Winning), a.WinningCount, a.MoverWins)
			}
			for _, m := range a.Winning {
				q, err := r.Apply(p, m)
				if err != nil {
					t.Fatal(err)
				}
				if b, _ := r.Analyze(q); b.MoverWins {
					t.Fatalf("%v misère=%v: winning move %+v leads to %v, a win for the opponent", h, misere, m, q.Heaps)
				}
			}
		}
	}
	// Splitting B into parts worth g(A) = 2^39−3 in all: about 2^37 ways,
	// counted, not walked, and listed only up to MaxListedMoves.
	r := Rules{Variant: Lasker}
	a, _ := r.Analyze(Position{Heaps: []int64{1<<39 - 3, 1<<39 - 4}})
	if a.WinningCount <= MaxListedMoves || len(a.Winning) != MaxListedMoves {
		t.Errorf("expected a cut list: %d listed of %d", len(a.Winning), a.WinningCount)
	}
}

func TestLaskerMoveErrors(t *testing.T) {
	r := Rules{Variant: Lasker}
	p := Position{Heaps: []int64{1, 7}}
	tests := []struct {
		name string
		m    Move
		want string
	}{
		{"parts do not add up", Move{Kind: Split, Heap: 1, Parts: [2]int64{3, 3}}, "Lasker's Nim: both parts must be non-empty and add up to 7"},
		{"empty part", Move{Kind: Split, Heap: 1, Parts: [2]int64{0, 7}}, "Lasker's Nim: both parts must be non-empty and add up to 7"},
		{"split a 1", Move{Kind: Split, Heap: 0, Parts: [2]int64{1, 0}}, "Lasker's Nim: heap A has 1, too few to split (a split needs 2 or more)"},
		{"no heap", Move{Kind: Split, Heap: 2, Parts: [2]int64{1, 1}}, "no heap C: the heaps are A to B"},
		{"knock", Move{Kind: Knock, Heap: 1, Take: 1}, "Lasker's Nim: take from one heap (like B3) or split one in two (like B=2+3)"},
		{"take too many", Move{Kind: Take, Heap: 1, Take: 8}, "heap B has 7, you asked for 8"},
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
}
