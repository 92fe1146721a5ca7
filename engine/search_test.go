package engine

import (
	"slices"
	"testing"
)

// sumTree runs the brute-force solver on games that are sums of heaps
// (Lasker's Nim, Kayles), where a move's exact board (heap order, empty
// heaps) matters only at the position under test. Below it, positions are
// compared as multisets — the order of the heaps and empty heaps do not
// change a sum — which keeps the solver's tree small enough for three and
// four heaps. The move generator itself knows no theory.
type sumTree struct {
	tree *treeGame
	root string
}

func newSumTree(misere bool, exact func(Position) []Position) *sumTree {
	s := &sumTree{}
	s.tree = &treeGame{misere: misere, children: func(p Position) []Position {
		kids := exact(p)
		if posKey(p) == s.root {
			return kids
		}
		for i, k := range kids {
			kids[i] = multisetPos(k)
		}
		return kids
	}}
	return s
}

// multisetPos sorts the non-empty heaps.
func multisetPos(p Position) Position {
	var h []int64
	for _, v := range p.Heaps {
		if v > 0 {
			h = append(h, v)
		}
	}
	slices.Sort(h)
	return Position{Heaps: h}
}

func (s *sumTree) check(t *testing.T, r Rules, p Position) {
	t.Helper()
	s.root = posKey(p)
	checkAgreement(t, r, s.tree, p)
}

// eachSmall calls f with every position of 1..len(bounds) heaps where
// heap count n has sizes 0..bounds[n-1].
func eachSmall(bounds []int64, f func(Position)) {
	for n, b := range bounds {
		eachHeaps(n+1, b, func(h []int64) { f(Position{Heaps: h}) })
	}
}
