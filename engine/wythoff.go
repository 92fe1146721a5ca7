package engine

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
)

func init() {
	variants[Wythoff] = func(r Rules) game { return wythoffGame{misere: r.Misere} }
}

// wythoffGame is Wythoff's game: two heaps; take from one, or the same
// amount from both.
//
// Normal play: the P-positions are the Wythoff pairs {a_k, b_k}, a_k =
// ⌊kφ⌋ = (k + ⌊√(5k²)⌋)/2 and b_k = a_k + k, computed in exact integer
// arithmetic (a float φ goes wrong long before heaps of 10^12). Every
// positive integer lies in exactly one pair, so each heap size has one
// partner, and each difference k one pair. Misère play swaps the first two
// pairs: {0,1} and {2,2} replace {0,0} and {1,2}; from k = 2 on the pairs are
// the same.
type wythoffGame struct{ misere bool }

// name is the game's name, for refusals that say it.
func (g wythoffGame) name() Phrase { return Rules{Variant: Wythoff, Misere: g.misere}.NamePhrase() }

// Wythoff's refusals of a position and of a move.
var (
	pErrWythoffHeaps     = def("err.position.wythoff.heaps", "", "{{.Game}} is played on two heaps, not {{.Heaps}}")
	pErrWythoffBothEmpty = def("err.move.wythoff.both_empty", "", "{{.Game}}: heap {{.Heap}} is empty, so you cannot take from both heaps")
	pErrWythoffBothMost  = def("err.move.wythoff.both_most", "", "{{.Game}}: heap {{.Heap}} has {{.Has}}, so you can take at most {{.Has}} from both heaps")
	pErrWythoffKind      = def("err.move.wythoff.kind", "", "{{.Game}}: take the same amount from both heaps, or from one")
)

func (g wythoffGame) check(p Position) error {
	if len(p.Heaps) != 2 {
		return invalid(pErrWythoffHeaps, "Game", g.name(), "Heaps", len(p.Heaps))
	}
	return checkShape(g.name, p, 2, MaxHeapSize)
}

func (g wythoffGame) limits() Limits { return Limits{MaxHeaps: 2, MaxHeap: MaxHeapSize} }

func (g wythoffGame) over(p Position) bool { return allZero(p.Heaps) }

func (g wythoffGame) legal(p Position) []Move {
	var ms []Move
	for i, h := range p.Heaps {
		for t := int64(1); t <= h; t++ {
			ms = append(ms, Move{Kind: Take, Heap: i, Take: t})
		}
	}
	for t := int64(1); t <= min(p.Heaps[0], p.Heaps[1]); t++ {
		ms = append(ms, Move{Kind: Diagonal, Take: t})
	}
	return ms
}

func (g wythoffGame) validate(p Position, m Move) error {
	switch m.Kind {
	case Take:
		return validateTake(g.name, p, m)
	case Diagonal:
		if m.Take < 1 {
			return movePhrase(m, pErrTakeOne)
		}
		if lo := min(p.Heaps[0], p.Heaps[1]); m.Take > lo {
			if lo == 0 {
				return movePhrase(m, pErrWythoffBothEmpty, "Game", g.name(), "Heap", HeapLabel(lowHeap(p)))
			}
			return movePhrase(m, pErrWythoffBothMost, "Game", g.name(), "Heap", HeapLabel(lowHeap(p)), "Has", lo)
		}
		return nil
	}
	return movePhrase(m, pErrWythoffKind, "Game", g.name())
}

// lowHeap is the index of the smaller heap (A when they are equal).
func lowHeap(p Position) int {
	if p.Heaps[1] < p.Heaps[0] {
		return 1
	}
	return 0
}

func (g wythoffGame) apply(p Position, m Move) Position {
	if m.Kind == Diagonal {
		p.Heaps[0] -= m.Take
		p.Heaps[1] -= m.Take
		return p
	}
	return applyTake(p, m)
}

// sqrt5 is √5 for the first guess of ⌊k√5⌋, which wythoffA corrects exactly.
var sqrt5 = math.Sqrt(5)

// wythoffA is a_k = ⌊kφ⌋ = ⌊(k + k√5)/2⌋ = (k + ⌊√(5k²)⌋)/2, exactly: 5k² is
// held in 128 bits and the float estimate of its square root is corrected
// until x² ≤ 5k² < (x+1)².
func wythoffA(k int64) int64 {
	if k <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(k), uint64(k))
	lo5, c := bits.Mul64(lo, 5)
	hi5 := hi*5 + lo5
	lo5 = c
	// (hi5, lo5) = 5k².
	le := func(x uint64) bool { // x² ≤ 5k²
		h, l := bits.Mul64(x, x)
		return h < hi5 || (h == hi5 && l <= lo5)
	}
	x := uint64(float64(k) * sqrt5)
	for !le(x) {
		x--
	}
	for le(x + 1) {
		x++
	}
	return (k + int64(x)) / 2
}

// wythoffPair is the normal-play P-position with difference k: (a_k, b_k).
func wythoffPair(k int64) (int64, int64) {
	a := wythoffA(k)
	return a, a + k
}

// wythoffPartner is the heap size w that makes {v, w} a normal-play
// P-position. a_k and b_k are strictly increasing and together cover every
// positive integer exactly once (Beatty), so a binary search finds v in one
// of them.
func wythoffPartner(v int64) int64 {
	if v == 0 {
		return 0
	}
	// a_k ≥ k, so if v is some a_k then k ≤ v.
	lo, hi := int64(0), v
	for lo < hi {
		mid := lo + (hi-lo)/2
		if wythoffA(mid) < v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if wythoffA(lo) == v {
		return v + lo
	}
	lo, hi = 0, v
	for lo < hi {
		mid := lo + (hi-lo)/2
		if wythoffA(mid)+mid < v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return v - lo // b_lo = v: the Beatty sequences leave no gap
}

// partner is wythoffPartner under the game's convention.
func (g wythoffGame) partner(v int64) int64 {
	if g.misere && v <= 2 {
		return [3]int64{1, 0, 2}[v]
	}
	return wythoffPartner(v)
}

// pair is the P-position with difference k under the game's convention.
func (g wythoffGame) pair(k int64) (int64, int64) {
	if g.misere && k == 0 {
		return 2, 2
	}
	if g.misere && k == 1 {
		return 0, 1
	}
	return wythoffPair(k)
}

func (g wythoffGame) moverWins(p Position) bool {
	return g.partner(p.Heaps[0]) != p.Heaps[1]
}

// winning derives the winning moves from the pairs: taking from heap A can
// only win by leaving B's partner, taking from B by leaving A's partner, and
// a diagonal move keeps the difference k, so it can only win by reaching the
// pair with difference k. So there are at most three.
func (g wythoffGame) winning(p Position, max int) ([]Move, int64) {
	x, y := p.Heaps[0], p.Heaps[1]
	var ms []Move
	if v := g.partner(y); v < x {
		ms = append(ms, Move{Kind: Take, Heap: 0, Take: x - v})
	}
	if v := g.partner(x); v < y {
		ms = append(ms, Move{Kind: Take, Heap: 1, Take: y - v})
	}
	if a, _ := g.pair(absDiff(x, y)); a < min(x, y) {
		ms = append(ms, Move{Kind: Diagonal, Take: min(x, y) - a})
	}
	n := int64(len(ms))
	if len(ms) > max {
		ms = ms[:max]
	}
	return ms, n
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}

// Wythoff's verdicts and explanation. A pair "(3, 5)" is notation, passed
// as a literal.
var (
	pVerdictWythoffWin  = def("verdict.wythoff.win", "", "Winning: {{.Pair}} is not a Wythoff pair, so you can move to one.")
	pVerdictWythoffLose = def("verdict.wythoff.lose", "", "Losing: {{.Pair}} is a Wythoff pair, so every move leaves a position that is not.")
	pTheoryWythoff      = def("explain.theory.wythoff_pairs", "", "Wythoff pairs")
	pWythoffPairs       = def("explain.wythoff.pairs", "", "The losing positions for the player to move are the Wythoff pairs (a_k, b_k): a_k is the smallest number not in any earlier pair and b_k = a_k + k, so the k-th pair differs by k (a_k = ⌊kφ⌋, φ the golden ratio).")
	pWythoffMisere      = def("explain.wythoff.misere", "", "In misère play the first two pairs change: (0, 1) and (2, 2) lose instead of (0, 0) and (1, 2); from (3, 5) on the pairs are the same.")
	pColPair            = def("table.pair", "", "pair")
	pWythoffOver        = def("explain.wythoff.over", "", "Both heaps are empty: the game is over.")
	pWythoffLoses       = def("explain.wythoff.loses", "", "{{.Pair}} is a Wythoff pair, so the player to move loses: every move changes one heap (leaving a number whose partner is different) or keeps the difference (and only one pair has it), so it leaves a non-pair, from which the opponent can return to a pair.")
	pWythoffWins        = def("explain.wythoff.wins", "", "{{.Pair}} is not a Wythoff pair, so the player to move wins by moving to one.")
	pWythoffDiagonal    = def("explain.wythoff.diagonal", "", "Take {{.Take}} from both heaps: the difference stays {{.Diff}} and {{.Pair}} is the pair with that difference.")
	pWythoffTake        = def("explain.wythoff.take", "", "Take {{.Take}} from heap {{.Heap}}: {{.Pair}} is a pair.")
)

// pairLit writes a pair of heaps smaller first: "(3, 5)".
func pairLit(x, y int64) Phrase { return Lit(fmt.Sprintf("(%d, %d)", min(x, y), max(x, y))) }

func (g wythoffGame) verdict(p Position) Phrase {
	x, y := p.Heaps[0], p.Heaps[1]
	if g.moverWins(p) {
		return P(pVerdictWythoffWin, "Pair", pairLit(x, y))
	}
	return P(pVerdictWythoffLose, "Pair", pairLit(x, y))
}

func (g wythoffGame) explain(p Position, a Analysis) Explanation {
	x, y := p.Heaps[0], p.Heaps[1]
	ex := Explanation{Theory: P(pTheoryWythoff)}
	step := func(id string, args ...any) { ex.Steps = append(ex.Steps, P(id, args...)) }
	step(pWythoffPairs)
	if g.misere {
		step(pWythoffMisere)
	}
	// The pairs worth showing: the one with this difference, and those
	// holding each heap size.
	ks := map[int64]bool{absDiff(x, y): true}
	for _, v := range []int64{x, y} {
		w := g.partner(v)
		ks[absDiff(v, w)] = true
	}
	var order []int64
	for k := range ks {
		order = append(order, k)
	}
	slices.Sort(order)
	tab := &Table{Header: []Phrase{Lit("k"), P(pColPair)}}
	for _, k := range order {
		a, b := g.pair(k)
		tab.Rows = append(tab.Rows, row(strconv.FormatInt(k, 10), pairLit(a, b)))
	}
	ex.Table = tab
	if !g.moverWins(p) {
		if x == 0 && y == 0 {
			step(pWythoffOver)
			return ex
		}
		step(pWythoffLoses, "Pair", pairLit(x, y))
		return ex
	}
	step(pWythoffWins, "Pair", pairLit(x, y))
	ms := a.Winning
	for _, m := range ms {
		q := g.apply(Position{Heaps: []int64{x, y}}, m)
		switch m.Kind {
		case Diagonal:
			step(pWythoffDiagonal, "Take", m.Take, "Diff", absDiff(x, y), "Pair", pairLit(q.Heaps[0], q.Heaps[1]))
		default:
			step(pWythoffTake, "Take", m.Take, "Heap", HeapLabel(m.Heap), "Pair", pairLit(q.Heaps[0], q.Heaps[1]))
		}
	}
	return ex
}
