package engine

import (
	"slices"
	"testing"
)

// takeChildren is the brute-force move generator for games where a move takes
// an allowed amount from one heap; ok says whether t may be taken from heap i.
func takeChildren(ok func(p Position, i int, t int64) bool) func(Position) []Position {
	return func(p Position) []Position {
		var kids []Position
		for i, h := range p.Heaps {
			for t := int64(1); t <= h; t++ {
				if ok(p, i, t) {
					c := slices.Clone(p.Heaps)
					c[i] -= t
					kids = append(kids, Position{Heaps: c})
				}
			}
		}
		return kids
	}
}

func anyTake(Position, int, int64) bool { return true }

// exhaustive runs checkAgreement on every position of 1..maxHeaps heaps of
// sizes 0..maxSize, in both conventions.
func exhaustive(t *testing.T, r Rules, children func(Position) []Position, maxHeaps int, maxSize int64) {
	t.Helper()
	for _, misere := range []bool{false, true} {
		r := r
		r.Misere = misere
		g := &treeGame{misere: misere, children: children}
		for n := 1; n <= maxHeaps; n++ {
			eachHeaps(n, maxSize, func(h []int64) {
				checkAgreement(t, r, g, Position{Heaps: h})
			})
		}
	}
}

func TestNimAgreement(t *testing.T) {
	heaps, size := 5, int64(7)
	if testing.Short() {
		heaps, size = 4, 5
	}
	exhaustive(t, Rules{Variant: Nim}, takeChildren(anyTake), heaps, size)
}
