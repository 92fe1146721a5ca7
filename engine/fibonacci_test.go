package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// fibonacciChildren is Fibonacci Nim from the rules of play: take 1 up to
// the limit (and no more than the heap); the next limit is twice the take.
func fibonacciChildren(p Position) []Position {
	var kids []Position
	for t := int64(1); t <= p.Limit && t <= p.Heaps[0]; t++ {
		kids = append(kids, Position{Heaps: []int64{p.Heaps[0] - t}, Limit: 2 * t})
	}
	return kids
}

func TestFibonacciAgreement(t *testing.T) {
	maxN := int64(60)
	if testing.Short() || raceEnabled {
		maxN = 30
	}
	for _, misere := range []bool{false, true} {
		r := Rules{Variant: Fibonacci, Misere: misere}
		g := &treeGame{misere: misere, children: fibonacciChildren}
		for n := int64(0); n <= maxN; n++ {
			for l := int64(0); l <= 2*maxN+2; l++ {
				checkAgreement(t, r, g, Position{Heaps: []int64{n}, Limit: l})
			}
		}
	}
}

func TestFibonacciNamedCases(t *testing.T) {
	takes := func(ms []Move) []int64 {
		var ts []int64
		for _, m := range ms {
			ts = append(ts, m.Take)
		}
		return ts
	}
	tests := []struct {
		name   string
		misere bool
		p      Position
		wins   bool
		takes  []int64
	}{
		{"17 limit 4: taking 1 or 4 both win", false, Position{Heaps: []int64{17}, Limit: 4}, true, []int64{1, 4}},
		{"start on a Fibonacci number loses", false, Position{Heaps: []int64{21}, Limit: 20}, false, nil},
		{"start on 20 wins by taking 2 (20 = 13 + 5 + 2)", false, Position{Heaps: []int64{20}, Limit: 19}, true, []int64{2}},
		{"misère 21 plays like normal 20 = 13 + 5 + 2: take 2, or 20 leaving the last token", true, Position{Heaps: []int64{21}, Limit: 20}, true, []int64{2, 20}},
		{"misère 1 with a limit: must take the last token", true, Position{Heaps: []int64{1}, Limit: 2}, false, nil},
		{"misère start on 1: nothing may be taken, the mover wins", true, Position{Heaps: []int64{1}, Limit: 0}, true, nil},
		{"misère 14 limit 4 plays like normal 13 limit 4", true, Position{Heaps: []int64{14}, Limit: 4}, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Rules{Variant: Fibonacci, Misere: tc.misere}.Analyze(tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if a.MoverWins != tc.wins || !slices.Equal(takes(a.Winning), tc.takes) {
				t.Errorf("got wins=%v takes %v, want %v %v", a.MoverWins, takes(a.Winning), tc.wins, tc.takes)
			}
		})
	}
	t.Run("misère: from every start n ≥ 2 taking n−1 wins", func(t *testing.T) {
		r := Rules{Variant: Fibonacci, Misere: true}
		for n := int64(2); n <= 500; n++ {
			p, err := r.Start([]int64{n})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := r.Analyze(p)
			if !a.MoverWins || !slices.Contains(takes(a.Winning), n-1) {
				t.Fatalf("n=%d: %+v", n, a)
			}
		}
	})
}

func TestFibonacciZeckendorf(t *testing.T) {
	for n := int64(1); n <= 5000; n++ {
		terms := zeckendorf(n)
		var sum int64
		for i, z := range terms {
			sum += z
			if !slices.Contains(fibTerms, z) {
				t.Fatalf("%d: term %d is not a Fibonacci number", n, z)
			}
			if i > 0 {
				j := slices.Index(fibTerms, z)
				if fibTerms[j+1] >= terms[i-1] { // neighbours or repeats
					t.Fatalf("%d: %v has neighbouring terms", n, terms)
				}
			}
		}
		if sum != n {
			t.Fatalf("%d: %v sums to %d", n, terms, sum)
		}
	}
}

// TestFibonacciLarge checks the closed form on heaps near 10^12 against the
// rule's defining property: every listed move leads to a P-position, a
// P-position has no winning move, an N-position has one, and no small take
// that is left out of the list leads to a P-position.
func TestFibonacciLarge(t *testing.T) {
	heaps := []int64{MaxHeapSize, MaxHeapSize - 1, 956722026041, 956722026041 + 1, 999999999989, 591286729879, 365435296162 + 591286729879 + 1}
	limits := []int64{1, 2, 3, 7, 100, 1 << 20, 1 << 35, MaxHeapSize}
	for _, misere := range []bool{false, true} {
		r := Rules{Variant: Fibonacci, Misere: misere}
		for _, n := range heaps {
			for _, l := range limits {
				p := Position{Heaps: []int64{n}, Limit: l}
				a, err := r.Analyze(p)
				if err != nil {
					t.Fatal(err)
				}
				if a.MoverWins != (a.WinningCount > 0) {
					t.Fatalf("%v misère=%v: wins=%v but %d winning moves", p, misere, a.MoverWins, a.WinningCount)
				}
				for _, m := range a.Winning {
					q, err := r.Apply(p, m)
					if err != nil {
						t.Fatal(err)
					}
					if b, _ := r.Analyze(q); b.MoverWins {
						t.Fatalf("%v misère=%v: winning move %d leads to %v, a win for the opponent", p, misere, m.Take, q)
					}
				}
				for tk := int64(1); tk <= min(l, 3000); tk++ {
					q, _ := r.Apply(p, Move{Kind: Take, Take: tk})
					b, _ := r.Analyze(q)
					listed := slices.ContainsFunc(a.Winning, func(m Move) bool { return m.Take == tk })
					if !b.MoverWins != listed {
						t.Fatalf("%v misère=%v: take %d leads to P=%v but listed=%v", p, misere, tk, !b.MoverWins, listed)
					}
				}
			}
		}
	}
}

func TestFibonacciMoveErrors(t *testing.T) {
	r := Rules{Variant: Fibonacci}
	tests := []struct {
		name string
		p    Position
		m    Move
		want string
	}{
		{"over the limit", Position{Heaps: []int64{20}, Limit: 6}, Move{Kind: Take, Take: 7}, "Fibonacci Nim: at most 6 this turn (twice what was just taken)"},
		// An odd limit doubles no take: only the opening has it.
		{"whole heap on the first move", Position{Heaps: []int64{8}, Limit: 7}, Move{Kind: Take, Take: 8}, "Fibonacci Nim: at most 7 this turn (the first move may not take the whole heap)"},
		// 7 with a limit of 6 is the opening on 7, or 10 after a take of 3.
		{"whole heap, opening or reply", Position{Heaps: []int64{7}, Limit: 6}, Move{Kind: Take, Take: 7}, "Fibonacci Nim: at most 6 this turn (the first move may not take the whole heap, and each later one at most twice what was just taken)"},
		{"odd limit set by hand", Position{Heaps: []int64{20}, Limit: 5}, Move{Kind: Take, Take: 6}, "Fibonacci Nim: at most 5 this turn"},
		{"more than the heap", Position{Heaps: []int64{5}, Limit: 10}, Move{Kind: Take, Take: 6}, "heap A has 5, you asked for 6"},
		{"nothing", Position{Heaps: []int64{5}, Limit: 10}, Move{Kind: Take, Take: 0}, "take at least 1"},
		{"another heap", Position{Heaps: []int64{5}, Limit: 10}, Move{Kind: Take, Heap: 1, Take: 1}, "no heap B: the only heap is A"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.Apply(tc.p, tc.m)
			var me *MoveError
			if !errors.As(err, &me) || me.Reason != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if me.Phrase().ID == "" {
				t.Errorf("%q is a literal, not a phrase a player reads in their language", me.Reason)
			}
		})
	}
	// Mid-game, the limit may be the heap less one as at the start: from
	// 7, take 2 (5 left, at most 4 now). Taking all 5 is refused for
	// twice the last take; the reason must not be the first move's alone.
	t.Run("mid-game limit that looks like the opening", func(t *testing.T) {
		p, err := r.Start([]int64{7})
		if err != nil {
			t.Fatal(err)
		}
		if p, err = r.Apply(p, Move{Kind: Take, Take: 2}); err != nil {
			t.Fatal(err)
		}
		_, err = r.Apply(p, Move{Kind: Take, Take: 5})
		var me *MoveError
		if !errors.As(err, &me) || !strings.Contains(me.Reason, "twice what was just taken") {
			t.Fatalf("taking 5 of 5 after a take of 2: %v", err)
		}
	})
	if _, err := r.Apply(Position{Heaps: []int64{1}, Limit: 0}, Move{Kind: Take, Take: 1}); !errors.Is(err, ErrGameOver) {
		t.Errorf("a start on 1 is over, got %v", err)
	}
	for _, p := range []Position{{Heaps: []int64{3, 4}}, {Heaps: []int64{-1}}, {Heaps: []int64{4}, Limit: -1}} {
		if err := r.Check(p); !errors.Is(err, ErrInvalid) {
			t.Errorf("Check(%v) = %v, want ErrInvalid", p, err)
		}
	}
}
