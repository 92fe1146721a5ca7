package engine

import (
	"slices"
	"strconv"
	"testing"
)

// treeGame is the independent solver the engine is checked against: plain
// memoized minimax over a game tree described only by a move generator that
// the test writes from the rules of play, with no theory at all. children
// returns the exact positions (heap order kept) that the legal moves lead to,
// using the same board convention as Move (a Split or Knock puts Parts[0] in
// place of the heap and inserts Parts[1] after it when it is non-empty).
type treeGame struct {
	misere   bool
	children func(p Position) []Position
	memo     map[string]bool
}

// posKey writes p as fmt.Sprint(p.Heaps, "/", p.Limit) would ("[1 2 3]/0"),
// several times faster: the brute force spends most of its time here.
func posKey(p Position) string {
	b := make([]byte, 0, 4*len(p.Heaps)+8)
	b = append(b, '[')
	for i, h := range p.Heaps {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, h, 10)
	}
	b = append(b, "]/"...)
	b = strconv.AppendInt(b, p.Limit, 10)
	return string(b)
}

// wins reports whether the player to move wins with perfect play.
func (g *treeGame) wins(p Position) bool {
	if g.memo == nil {
		g.memo = map[string]bool{}
	}
	k := posKey(p)
	if v, ok := g.memo[k]; ok {
		return v
	}
	kids := g.children(p)
	win := g.misere // no move: the player to move wins only in misère play
	if len(kids) > 0 {
		win = false
		for _, c := range kids {
			if !g.wins(c) {
				win = true
				break
			}
		}
	}
	g.memo[k] = win
	return win
}

// winningChildren lists the keys of the positions a winning move leads to.
func (g *treeGame) winningChildren(p Position) []string {
	var keys []string
	for _, c := range g.children(p) {
		if !g.wins(c) {
			keys = append(keys, posKey(c))
		}
	}
	slices.Sort(keys)
	return keys
}

// checkAgreement compares the engine with the independent solver on one
// position: the verdict and the complete set of winning moves
// (agreeWinning), and that a shorter listing is the full list's start.
func checkAgreement(t *testing.T, r Rules, g *treeGame, p Position) {
	t.Helper()
	a := agreeWinning(t, r, g, p)
	// Explanations cite the analysis's first moves (Analysis.first) for
	// what a shorter listing would give: so a shorter listing must be
	// exactly the list's start, with the same count.
	_, eg, err := r.game()
	if err != nil || isOver(eg, p) {
		return
	}
	for _, n := range []int{1, 3} {
		ms, c := eg.winning(p, n)
		want, wc := a.first(n)
		if c != wc || !slices.EqualFunc(ms, want, sameMove) {
			t.Fatalf("%v %v: winning(p, %d) gives %+v (count %d), the analysis starts %+v (count %d)", r, p, n, ms, c, want, wc)
		}
	}
}

// sameMove reports whether two moves are the same move.
func sameMove(x, y Move) bool {
	return x.Kind == y.Kind && x.Heap == y.Heap && x.Take == y.Take && x.Parts == y.Parts && slices.Equal(x.Takes, y.Takes)
}

// eachHeaps calls f with every heap vector of n heaps of sizes 0..max.
func eachHeaps(n int, max int64, f func([]int64)) {
	h := make([]int64, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			f(slices.Clone(h))
			return
		}
		for v := int64(0); v <= max; v++ {
			h[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}
