package engine

import (
	"fmt"
	"slices"
	"testing"
)

// The agreement tests (agreement_test.go, kayles_test.go) check every small
// position against a brute force written from the rules alone. Two stores of
// answers reach beyond their sizes, and are checked here the same way: the
// misère Kayles table, which TestKaylesMisereTable checks only against the
// engine's own search, and Moore's Nim for every k up to maxMooreK.

// kaylesMisereSolver is misère Kayles written from the rules alone: a move
// knocks down one pin, or two adjacent pins, of one row, which may split it
// in two; the player who knocks down the last pin loses. Positions are
// multisets of row lengths, kept sorted, so that the memo holds each once.
type kaylesMisereSolver struct {
	memo map[string]bool
}

// wins reports whether the player to move wins rows (sorted, no empty row).
func (s *kaylesMisereSolver) wins(rows []uint8) bool {
	if len(rows) == 0 {
		return true // the opponent knocked down the last pin
	}
	key := string(rows)
	if v, ok := s.memo[key]; ok {
		return v
	}
	win := false
	s.eachChild(rows, func(child []uint8) bool {
		if !s.wins(child) {
			win = true
		}
		return !win
	})
	s.memo[key] = win
	return win
}

// eachChild calls f with every position one move from rows, sorted, until f
// returns false. The slice is f's only for the call.
func (s *kaylesMisereSolver) eachChild(rows []uint8, f func([]uint8) bool) {
	child := make([]uint8, 0, len(rows)+1)
	for i, l := range rows {
		if i > 0 && rows[i-1] == l {
			continue // the same row length again: the same children
		}
		for take := uint8(1); take <= 2 && take <= l; take++ {
			for left := uint8(0); 2*left <= l-take; left++ {
				right := l - take - left
				child = append(child[:0], rows[:i]...)
				child = append(child, rows[i+1:]...)
				if left > 0 {
					child = append(child, left)
				}
				if right > 0 {
					child = append(child, right)
				}
				slices.Sort(child)
				if !f(child) {
					return
				}
			}
		}
	}
}

// TestKaylesMisereEveryStoredPosition checks the engine's answer for every
// position of misère Kayles the embedded table holds (every multiset of rows
// of up to kaylesMisereMaxTotal pins in all): who wins, and that the moves it
// calls winning are exactly the moves to a position the brute force calls
// lost. Under -race or -short it stops at 24 pins.
func TestKaylesMisereEveryStoredPosition(t *testing.T) {
	max := kaylesMisereMaxTotal
	if testing.Short() || raceEnabled {
		max = 24
	}
	r := Rules{Variant: Kayles, Misere: true}
	s := &kaylesMisereSolver{memo: map[string]bool{}}
	positions := 0
	eachRowMultiset(max, func(rows []uint8, total int) {
		if total == 0 {
			return
		}
		positions++
		p := Position{Heaps: make([]int64, len(rows))}
		for i, l := range rows {
			p.Heaps[i] = int64(l)
		}
		a, err := r.Analyze(p)
		if err != nil {
			t.Fatalf("rows %v: Analyze: %v", rows, err)
		}
		if want := s.wins(rows); a.MoverWins != want {
			t.Fatalf("rows %v: the engine says the mover wins=%v, the brute force %v", rows, a.MoverWins, want)
		}
		var got, want []string
		for _, m := range a.Winning {
			next, err := r.Apply(p, m)
			if err != nil {
				t.Fatalf("rows %v: winning move %+v is illegal: %v", rows, m, err)
			}
			got = append(got, rowsKey(next.Heaps))
		}
		s.eachChild(rows, func(child []uint8) bool {
			if !s.wins(child) {
				want = append(want, string(child))
			}
			return true
		})
		slices.Sort(got)
		got = slices.Compact(got)
		slices.Sort(want)
		want = slices.Compact(want)
		if !slices.Equal(got, want) {
			t.Fatalf("rows %v: the engine's winning moves lead to %q, the brute force's to %q", rows, got, want)
		}
	})
	if max == kaylesMisereMaxTotal && positions != kaylesTableSize-1 {
		t.Fatalf("checked %d positions, the table holds %d besides the empty one", positions, kaylesTableSize-1)
	}
}

// rowsKey is heaps as the solver keys them: the non-empty rows, sorted, one
// byte each.
func rowsKey(heaps []int64) string {
	var b []uint8
	for _, h := range heaps {
		if h > 0 {
			b = append(b, uint8(h))
		}
	}
	slices.Sort(b)
	return string(b)
}

// TestMooreAgreementEveryK checks Moore's Nim for every k the engine offers
// against the brute force, on as many heaps as it allows for that k, up to
// k+2 (so that sets of touched heaps compete), with heaps of up to 2 stones,
// and of up to 3 on one heap fewer. Where the engine allows no more than k
// heaps (k of 6 and up: Limits), a move may touch every heap; those games
// are checked all the same.
func TestMooreAgreementEveryK(t *testing.T) {
	for k := 1; k <= maxMooreK; k++ {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			r := Rules{Variant: Moore, K: k}
			heaps := min(k+2, r.Limits().MaxHeaps)
			for _, misere := range []bool{false, true} {
				r.Misere = misere
				g := &treeGame{misere: misere, children: mooreChildren(k)}
				eachHeaps(heaps, 2, func(h []int64) { checkAgreement(t, r, g, Position{Heaps: h}) })
				eachHeaps(heaps-1, 3, func(h []int64) { checkAgreement(t, r, g, Position{Heaps: h}) })
			}
		})
	}
}
