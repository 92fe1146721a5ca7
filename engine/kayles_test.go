package engine

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// kaylesChildren is Kayles from the rules of play: knock down one pin or two
// neighbouring pins of one row; the pins to the left stay in the row's
// place, the pins to the right become a new row after it.
func kaylesChildren(p Position) []Position {
	var kids []Position
	for i, n := range p.Heaps {
		for t := int64(1); t <= 2 && t <= n; t++ {
			for left := int64(0); left+t <= n; left++ {
				c := slices.Clone(p.Heaps)
				c[i] = left
				if right := n - t - left; right > 0 {
					c = slices.Insert(c, i+1, right)
				}
				kids = append(kids, Position{Heaps: c})
			}
		}
	}
	return kids
}

func TestKaylesAgreement(t *testing.T) {
	// Every position of one row up to 34 pins, two rows up to 17 each, and
	// three or four rows with up to 18 pins in all.
	single, pair, total := int64(34), int64(17), int64(18)
	if testing.Short() || raceEnabled {
		single, pair, total = 20, 10, 12
	}
	for _, misere := range []bool{false, true} {
		r := Rules{Variant: Kayles, Misere: misere}
		s := newSumTree(misere, kaylesChildren)
		eachSmall([]int64{single, pair}, func(p Position) { s.check(t, r, p) })
		for n := 3; n <= 4; n++ {
			eachHeaps(n, total, func(h []int64) {
				var sum int64
				for _, v := range h {
					sum += v
				}
				if sum <= total {
					s.check(t, r, Position{Heaps: h})
				}
			})
		}
	}
}

// TestKaylesGrundy checks kaylesG (the table and the period-12 rule from 71
// on) against the mex recurrence computed here, and that the exceptions to
// the period are exactly those NIM.md lists.
func TestKaylesGrundy(t *testing.T) {
	const n = 1200
	var g [n]int64
	for m := 1; m < n; m++ {
		seen := map[int64]bool{}
		for k := 1; k <= 2 && k <= m; k++ {
			for a := 0; a+k <= m; a++ {
				seen[g[a]^g[m-k-a]] = true
			}
		}
		for seen[g[m]] {
			g[m]++
		}
	}
	var exceptions []int
	for m := 0; m < n; m++ {
		if kaylesG(int64(m)) != g[m] {
			t.Fatalf("g(%d) = %d, the recurrence says %d", m, kaylesG(int64(m)), g[m])
		}
		if g[m] != kaylesPeriod[m%12] {
			exceptions = append(exceptions, m)
		}
	}
	want := []int{0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70}
	if !slices.Equal(exceptions, want) {
		t.Errorf("exceptions to the period: %v, want %v", exceptions, want)
	}
}

// TestKaylesSplits checks the residue-class count against walking every
// split, on rows long enough to use it.
func TestKaylesSplits(t *testing.T) {
	for m := int64(0); m <= 420; m++ {
		for w := int64(-1); w < 20; w++ {
			var want []int64
			for j := int64(0); j <= m; j++ {
				if kaylesG(j)^kaylesG(m-j) == w {
					want = append(want, j)
				}
			}
			got, c := kaylesSplits(m, w, 1000)
			if !slices.Equal(got, want) || c != int64(len(want)) {
				t.Fatalf("m=%d w=%d: got %v (%d), want %v", m, w, got, c, want)
			}
			if len(want) > 3 {
				if got, c := kaylesSplits(m, w, 3); !slices.Equal(got, want[:3]) || c != int64(len(want)) {
					t.Fatalf("m=%d w=%d cut at 3: got %v (%d)", m, w, got, c)
				}
			}
		}
	}
}

// TestKaylesSplitCount checks the constant-time count against counting
// every split, for rows up to 1,500 pins.
func TestKaylesSplitCount(t *testing.T) {
	for m := int64(0); m <= 1500; m++ {
		var want [20]int64
		for j := int64(0); j <= m; j++ {
			want[kaylesG(j)^kaylesG(m-j)]++
		}
		for w := range want {
			if got := kaylesSplitCount(m, int64(w)); got != want[w] {
				t.Fatalf("m=%d w=%d: count %d, want %d", m, w, got, want[w])
			}
		}
	}
}

func TestKaylesNamedCases(t *testing.T) {
	tests := []struct {
		name   string
		misere bool
		rows   []int64
		wins   bool
	}{
		{"misère: a row of 8 is a win", true, []int64{8}, true},
		{"misère: rows 1 and 5 are a loss", true, []int64{1, 5}, false},
		{"misère: rows 5 and 1 are a loss", true, []int64{5, 1}, false},
		{"misère: one pin loses", true, []int64{1}, false},
		{"misère: no pins left, the mover wins", true, []int64{0}, true},
		{"normal: rows 1 and 5 (g = 1 ⊕ 4) are a win", false, []int64{1, 5}, true},
		{"normal: rows 3 and 3 are a loss", false, []int64{3, 3}, false},
		{"normal: a row of 12 pins and one of 4 (g 4 ⊕ 1)", false, []int64{12, 4}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Rules{Variant: Kayles, Misere: tc.misere}.Analyze(Position{Heaps: tc.rows})
			if err != nil {
				t.Fatal(err)
			}
			over := slices.Max(tc.rows) == 0
			if a.MoverWins != tc.wins || (a.WinningCount > 0) != (tc.wins && !over) {
				t.Errorf("got %+v, want wins=%v", a, tc.wins)
			}
		})
	}
}

// TestKaylesLarge checks the rule on rows up to 10^12 against its defining
// property: every listed move leads to a P-position, P-positions
// list none, and no sampled move outside the list leads to a P-position.
func TestKaylesLarge(t *testing.T) {
	g := kaylesGame{}
	for _, rows := range [][]int64{{MaxHeapSize}, {MaxHeapSize - 1, 71}, {999999999989, 70, 3}, {123456789012, 123456789012}, {5, 57, 100000000007}, {4096}, {2000, 2000, 96}} {
		p := Position{Heaps: rows}
		ms, count := g.winning(p, MaxListedMoves)
		if g.moverWins(p) != (count > 0) || len(ms) > MaxListedMoves || int64(len(ms)) > count {
			t.Fatalf("%v: %d listed of %d, wins=%v", rows, len(ms), count, g.moverWins(p))
		}
		listed := map[string]bool{}
		for _, m := range ms {
			if err := g.validate(p, m); err != nil {
				t.Fatal(err)
			}
			q := g.apply(clonePos(p), m)
			listed[posKey(q)] = true
			if g.moverWins(q) {
				t.Fatalf("%v: winning move %+v leads to %v, a win for the opponent", rows, m, q.Heaps)
			}
		}
		if len(ms) < MaxListedMoves {
			// The whole list is there: pins near either end of each row
			// and around the period start lead to P exactly when listed.
			for i, n := range rows {
				for t2 := int64(1); t2 <= 2; t2++ {
					for _, left := range []int64{0, 1, 2, 50, 70, 71, 72, 200, n - t2 - 71, n - t2 - 1, n - t2} {
						if left < 0 || left > n-t2 {
							continue
						}
						m := Move{Kind: Knock, Heap: i, Take: t2, Parts: [2]int64{left, n - t2 - left}}
						if err := g.validate(p, m); err != nil {
							t.Fatal(err)
						}
						q := g.apply(clonePos(p), m)
						if !g.moverWins(q) != listed[posKey(q)] {
							t.Fatalf("%v: %+v leads to P=%v, listed=%v", rows, m, !g.moverWins(q), listed[posKey(q)])
						}
					}
				}
			}
		}
	}
	if _, err := (Rules{Variant: Kayles}).Start([]int64{MaxHeapSize, MaxHeapSize}); err != nil {
		t.Errorf("rows of 10^12: %v", err)
	}
}

func TestKaylesMoveErrors(t *testing.T) {
	r := Rules{Variant: Kayles}
	p := Position{Heaps: []int64{3, 5}}
	tests := []struct {
		name string
		m    Move
		want string
	}{
		{"two pins past the end", Move{Kind: Knock, Heap: 1, Take: 2, Parts: [2]int64{4, 0}}, "Kayles: pins 5 and 6 are not both standing in row B (it has 5)"},
		{"pins 4 and 5 of a row of 3", Move{Kind: Knock, Heap: 0, Take: 2, Parts: [2]int64{3, 0}}, "Kayles: pins 4 and 5 are not both standing in row A (it has 3)"},
		{"one pin past the end", Move{Kind: Knock, Heap: 0, Take: 1, Parts: [2]int64{3, 0}}, "Kayles: pin 4 is not standing in row A (it has 3)"},
		{"three pins", Move{Kind: Knock, Heap: 1, Take: 3, Parts: [2]int64{0, 2}}, "Kayles: knock down one pin or two neighbouring pins, not 3"},
		{"parts do not match", Move{Kind: Knock, Heap: 1, Take: 1, Parts: [2]int64{1, 1}}, "Kayles: knocking down pin 2 of row B leaves 1 and 3 pins, not 1 and 1"},
		{"no row C", Move{Kind: Knock, Heap: 2, Take: 1}, "Kayles: there is no row C (the rows are A to B)"},
		{"a take", Move{Kind: Take, Heap: 0, Take: 1}, "Kayles: knock down one pin or two neighbouring pins of one row (like B4 or B4-5)"},
		{"pin 0", Move{Kind: Knock, Heap: 0, Take: 1, Parts: [2]int64{-1, 3}}, "Kayles: pins are numbered from 1, not 0"},
		{"a pin beyond any number", Move{Kind: Knock, Heap: 0, Take: 1, Parts: [2]int64{math.MaxInt64, math.MinInt64 + 3}}, "Kayles: pin 9223372036854775808 is not standing in row A (it has 3)"},
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
	_, err := r.Apply(Position{Heaps: []int64{0, 2}}, Move{Kind: Knock, Heap: 0, Take: 1})
	var me *MoveError
	if !errors.As(err, &me) || me.Reason != "Kayles: row A has no pins standing" {
		t.Errorf("empty row: %v", err)
	}
	// A knock keeps the board's order: the right part follows the row.
	q, err := r.Apply(Position{Heaps: []int64{7, 2}}, Move{Kind: Knock, Heap: 0, Take: 2, Parts: [2]int64{1, 4}})
	if err != nil || !slices.Equal(q.Heaps, []int64{1, 4, 2}) {
		t.Errorf("knock pins 2-3 of [7 2]: %v %v", q, err)
	}
}
