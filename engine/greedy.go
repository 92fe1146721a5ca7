package engine

import (
	"slices"
	"strconv"
)

func init() {
	variants[Greedy] = func(r Rules) game { return greedyGame{misere: r.Misere} }
}

// greedyGame is Greedy Nim: take one or more, but only from a largest heap.
// Normal play: P iff the number of non-empty largest heaps is even. Misère:
// the same while the largest heap holds 2 or more; with only heaps of 0 and 1,
// P iff the number of 1-heaps is odd (all empty: N).
type greedyGame struct{ misere bool }

// name is the game's name, for refusals that say it.
func (g greedyGame) name() Phrase { return Rules{Variant: Greedy, Misere: g.misere}.NamePhrase() }

func (g greedyGame) check(p Position) error {
	return checkShape(g.name, p, maxHeapsClosed, MaxHeapSize)
}

func (g greedyGame) limits() Limits { return Limits{MaxHeaps: maxHeapsClosed, MaxHeap: MaxHeapSize} }

func (g greedyGame) over(p Position) bool { return allZero(p.Heaps) }

// top is the largest heap and how many heaps have it (0 when all are empty).
func top(h []int64) (max int64, count int) {
	for _, v := range h {
		switch {
		case v > max:
			max, count = v, 1
		case v == max && v > 0:
			count++
		}
	}
	return max, count
}

func (g greedyGame) legal(p Position) []Move {
	m, _ := top(p.Heaps)
	var ms []Move
	for i, h := range p.Heaps {
		if h == m && h > 0 {
			for t := int64(1); t <= h; t++ {
				ms = append(ms, Move{Kind: Take, Heap: i, Take: t})
			}
		}
	}
	return ms
}

// largest names the largest heaps, "A", "A or D".
func (g greedyGame) largest(p Position) Phrase {
	m, _ := top(p.Heaps)
	var ls []Phrase
	for i, h := range p.Heaps {
		if h == m && h > 0 {
			ls = append(ls, Lit(HeapLabel(i)))
		}
	}
	return orPhrase(ls)
}

// pErrGreedyLargest refuses a take from a heap that is not a largest one.
var pErrGreedyLargest = def("err.move.greedy.largest", "", "{{.Game}}: take from a largest heap, {{.Heaps}}")

func (g greedyGame) validate(p Position, m Move) error {
	if err := validateTake(g.name, p, m); err != nil {
		return err
	}
	if mx, _ := top(p.Heaps); p.Heaps[m.Heap] != mx {
		return movePhrase(m, pErrGreedyLargest, "Game", g.name(), "Heaps", g.largest(p))
	}
	return nil
}

// legalTest finds the largest heap once, so each move is then judged in
// O(1) (validate scans every heap to name the largest ones).
func (g greedyGame) legalTest(p Position) func(Move) bool {
	mx, _ := top(p.Heaps)
	return func(m Move) bool {
		return m.Kind == Take && m.Heap >= 0 && m.Heap < len(p.Heaps) &&
			p.Heaps[m.Heap] == mx && m.Take >= 1 && m.Take <= mx && mx > 0
	}
}

func (g greedyGame) apply(p Position, m Move) Position { return applyTake(p, m) }

func greedyMoverWins(max int64, count int, misere bool) bool {
	if misere && max <= 1 {
		return count%2 == 0 // count is the number of 1-heaps here
	}
	return count%2 == 1
}

func (g greedyGame) moverWins(p Position) bool {
	m, c := top(p.Heaps)
	return greedyMoverWins(m, c, g.misere)
}

// winning works on one largest heap at a time: its new size v ranges over
// 0..max-1, and the verdict after the move depends only on how v compares
// with the other heaps and with 1 and 2. So the range splits into a few
// intervals, each judged once by the rule; all largest heaps behave alike.
func (g greedyGame) winning(p Position, limit int) ([]Move, int64) {
	mx, cnt := top(p.Heaps)
	if mx == 0 {
		return nil, 0
	}
	// The others: every heap but one largest heap.
	var others []int64
	skipped := false
	for _, h := range p.Heaps {
		if h == mx && !skipped {
			skipped = true
			continue
		}
		others = append(others, h)
	}
	oMax, oCnt := top(others)
	after := func(v int64) bool { // mover (the opponent) wins after the heap goes to v
		switch {
		case v > oMax:
			return greedyMoverWins(v, 1, g.misere)
		case v == oMax && v > 0:
			return greedyMoverWins(v, oCnt+1, g.misere)
		}
		return greedyMoverWins(oMax, oCnt, g.misere)
	}
	// Breakpoints: 0, 1, 2, oMax and oMax+1 cut 0..mx-1 into intervals on
	// which after is constant.
	cuts := []int64{0, 1, 2, 3, oMax, oMax + 1, mx}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	type span struct{ lo, hi int64 } // target sizes lo..hi, inclusive
	var wins []span
	var per int64
	for i := 0; i+1 < len(cuts); i++ {
		lo, hi := cuts[i], min(cuts[i+1]-1, mx-1)
		if lo > hi {
			continue
		}
		// One representative per interval: the intervals are [c, next c),
		// and after's value can change only at a cut.
		if !after(lo) {
			wins = append(wins, span{lo, hi})
			per += hi - lo + 1
		}
	}
	var ms []Move
	for i, h := range p.Heaps {
		if h != mx {
			continue
		}
		// Smaller takes first: larger targets first.
		for j := len(wins) - 1; j >= 0 && len(ms) < limit; j-- {
			for v := wins[j].hi; v >= wins[j].lo && len(ms) < limit; v-- {
				ms = append(ms, takeMove(p, i, v))
			}
		}
	}
	return ms, per * int64(cnt)
}

// Greedy Nim's verdicts and explanation.
var (
	pVerdictGreedyOnesEven = def("verdict.greedy.ones_even", "", "Winning: only heaps of 1 are left and there are {{.Count}} (even); take one to leave an odd number.")
	pVerdictGreedyOnesOdd  = def("verdict.greedy.ones_odd", "Losing: only {{.Count}} heap of 1 is left; you will take the last one.", "Losing: only heaps of 1 are left and there are {{.Count}} (odd); you will take the last one.")
	pVerdictGreedyOdd      = def("verdict.greedy.odd", "Winning: {{.Count}} heap has the largest size {{.Size}}, an odd number.", "Winning: {{.Count}} heaps share the largest size {{.Size}}, an odd number.")
	pVerdictGreedyEven     = def("verdict.greedy.even", "", "Losing: {{.Count}} heaps share the largest size {{.Size}}, an even number.")
	pTheoryLargest         = def("explain.theory.largest_heaps", "", "largest heaps")
	pColLargest            = def("table.largest", "", "largest")
	pColYes                = def("table.yes", "", "yes")
	pColLargestHeaps       = def("table.largest_heaps", "", "largest heaps")
	pGreedyTouch           = def("explain.greedy.touch", "", "Only a largest heap may be touched, so what matters is how many heaps share the largest size (empty heaps do not count).")
	pGreedyEven            = def("explain.greedy.even", "", "With an even number of largest heaps, any take leaves an odd number, and the opponent can make it even again: an even count is lost for the player to move.")
	pGreedyMisere          = def("explain.greedy.misere", "", "In misère play the same holds while the largest heap holds 2 or more; once only heaps of 1 are left, leave an odd number of them.")
	pGreedyHere            = def("explain.greedy.here", "Here {{.Count}} heap has the largest size {{.Size}}.", "Here {{.Count}} heaps share the largest size {{.Size}}.")
	pGreedyLost            = def("explain.greedy.lost", "", "Every move leaves a won position for the opponent: the player to move loses against perfect play.")
	pGreedyMove            = def("explain.greedy.move", "", "Take {{.Take}} from {{.Heap}}, for example ({{.Moves}} in all), to leave your opponent a lost count.")
	pWinningMoves          = def("explain.winning_moves", "{{.Count}} winning move", "{{.Count}} winning moves")
)

func (g greedyGame) verdict(p Position) Phrase {
	mx, c := top(p.Heaps)
	if g.misere && mx <= 1 {
		if c%2 == 0 {
			return P(pVerdictGreedyOnesEven, "Count", c)
		}
		return P(pVerdictGreedyOnesOdd, "Count", c)
	}
	if c%2 == 1 {
		return P(pVerdictGreedyOdd, "Count", c, "Size", mx)
	}
	return P(pVerdictGreedyEven, "Count", c, "Size", mx)
}

func (g greedyGame) explain(p Position, a Analysis) Explanation {
	mx, c := top(p.Heaps)
	e := Explanation{Theory: P(pTheoryLargest)}
	if len(p.Heaps) <= maxTableRows {
		t := &Table{Header: []Phrase{P(pColHeap), P(pColSize), P(pColLargest)}}
		for i, h := range p.Heaps {
			mark := Lit("")
			if h == mx && h > 0 {
				mark = P(pColYes)
			}
			t.Rows = append(t.Rows, row(HeapLabel(i), strconv.FormatInt(h, 10), mark))
		}
		t.Total = row(P(pColLargestHeaps), strconv.FormatInt(mx, 10), strconv.Itoa(c))
		e.Table = t
	}
	e.Steps = append(e.Steps, P(pGreedyTouch))
	e.Steps = append(e.Steps, P(pGreedyEven))
	if g.misere {
		e.Steps = append(e.Steps, P(pGreedyMisere))
	}
	e.Steps = append(e.Steps, P(pGreedyHere, "Count", c, "Size", mx))
	ms, n := a.first(1)
	if n == 0 {
		e.Steps = append(e.Steps, P(pGreedyLost))
	} else {
		m := ms[0]
		e.Steps = append(e.Steps, P(pGreedyMove, "Take", m.Take, "Heap", HeapLabel(m.Heap), "Moves", P(pWinningMoves, "Count", n)))
	}
	return e
}
