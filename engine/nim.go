package engine

import (
	"strconv"
)

func init() {
	variants[Nim] = func(r Rules) game { return nimGame{misere: r.Misere} }
}

// maxHeapsClosed is how many heaps the closed-form variants take: every
// operation on them is linear in the number of heaps.
const maxHeapsClosed = 10_000

// nimGame is Nim: take one or more from one heap. Normal play is Bouton's
// rule (P iff the nim-sum is 0); misère play is the same until the move that
// would leave only heaps of 0 and 1, where the parity of 1-heaps flips.
type nimGame struct{ misere bool }

// name is the game's name, for refusals that say it.
func (g nimGame) name() Phrase { return Rules{Variant: Nim, Misere: g.misere}.NamePhrase() }

func (g nimGame) check(p Position) error {
	return checkShape(g.name, p, maxHeapsClosed, MaxHeapSize)
}

func (g nimGame) limits() Limits {
	return Limits{MaxHeaps: maxHeapsClosed, MaxHeap: MaxHeapSize}
}

func (g nimGame) over(p Position) bool { return allZero(p.Heaps) }

func allZero(h []int64) bool {
	for _, v := range h {
		if v != 0 {
			return false
		}
	}
	return true
}

func (g nimGame) legal(p Position) []Move {
	// Sized up front: the bot's search lists the moves of every position
	// it visits.
	var n int64
	for _, h := range p.Heaps {
		n += h
	}
	ms := make([]Move, 0, min(n, MaxLegalMoves))
	for i, h := range p.Heaps {
		for t := int64(1); t <= h; t++ {
			ms = append(ms, Move{Kind: Take, Heap: i, Take: t})
		}
	}
	return ms
}

func (g nimGame) validate(p Position, m Move) error { return validateTake(g.name, p, m) }

func (g nimGame) apply(p Position, m Move) Position { return applyTake(p, m) }

// nimStats is what the Nim rules look at: the nim-sum, how many heaps hold 2
// or more, and how many hold exactly 1. Updating it for one changed heap is
// O(1), which keeps listing winning moves linear for 10,000 heaps.
type nimStats struct {
	x         int64
	big, ones int
}

func statsOf(values []int64) nimStats {
	var s nimStats
	for _, v := range values {
		s.add(v, 1)
	}
	return s
}

func (s *nimStats) add(v int64, sign int) {
	s.x ^= v
	if v >= 2 {
		s.big += sign
	} else if v == 1 {
		s.ones += sign
	}
}

// with returns the stats after one value changes from old to v.
func (s nimStats) with(old, v int64) nimStats {
	s.add(old, -1)
	s.add(v, 1)
	return s
}

// moverWins is Bouton's rule, with the misère twist when every value is 0 or 1.
func (s nimStats) moverWins(misere bool) bool {
	if misere && s.big == 0 {
		return s.ones%2 == 0
	}
	return s.x != 0
}

func (g nimGame) moverWins(p Position) bool { return statsOf(p.Heaps).moverWins(g.misere) }

// winning derives every winning move from the rule: a move into a P-position
// either makes the nim-sum 0 (heap h goes to h⊕X) or, in misère play, leaves
// only heaps of 0 and 1 (the heap goes to 0 or 1). Testing those candidates
// covers every winning move without enumerating all takes.
func (g nimGame) winning(p Position, max int) ([]Move, int64) {
	s := statsOf(p.Heaps)
	var ms []Move
	var n int64
	for i, h := range p.Heaps {
		cands := []int64{h ^ s.x}
		if g.misere {
			cands = []int64{h ^ s.x, 1, 0}
		}
		// Canonical order is smaller takes first: larger targets first.
		sortDesc(cands)
		var last int64 = -1
		for _, v := range cands {
			if v >= h || v < 0 || v == last {
				continue
			}
			last = v
			if !s.with(h, v).moverWins(g.misere) {
				n++
				if len(ms) < max {
					ms = append(ms, takeMove(p, i, v))
				}
			}
		}
	}
	return ms, n
}

func sortDesc(v []int64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] > v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// Nim's verdicts; misère Lasker's Nim, in the endgame of 1-heaps, says the same.
var (
	pVerdictOnesEven  = def("verdict.nim.ones_even", "", "Winning: only heaps of 1 are left and there are {{.Count}} of them (even); take one and leave an odd number.")
	pVerdictOnesOdd   = def("verdict.nim.ones_odd", "Losing: only {{.Count}} heap of 1 is left; in misère play you will take the last one.", "Losing: only heaps of 1 are left and there are {{.Count}} of them (odd); in misère play you will take the last one.")
	pVerdictNimSwitch = def("verdict.nim.switch", "", "Winning: only one heap holds 2 or more; cut it to 0 or 1 so that an odd number of 1-heaps is left (the misère endgame switch).")
	pVerdictNimSum    = def("verdict.nim.sum", "", "Winning: the nim-sum is {{.Sum}}, not 0, so a move can make it 0.")
	pVerdictNimZero   = def("verdict.nim.zero", "", "Losing: the nim-sum is 0, so every move makes it non-zero for your opponent.")
)

func (g nimGame) verdict(p Position) Phrase {
	s := statsOf(p.Heaps)
	if g.misere && s.big == 0 {
		if s.ones%2 == 0 {
			return P(pVerdictOnesEven, "Count", s.ones)
		}
		return P(pVerdictOnesOdd, "Count", s.ones)
	}
	if g.misere && s.big == 1 {
		// The winning move here leaves only 0s and 1s: the switch, not the nim-sum.
		return P(pVerdictNimSwitch)
	}
	if s.x != 0 {
		return P(pVerdictNimSum, "Sum", s.x)
	}
	return P(pVerdictNimZero)
}

// binaryTable is seed 004's table: each value in decimal and binary, with the
// nim-sum as the total row. label names row i; it is nil when there are too
// many rows to read (the steps then carry the sum alone).
func binaryTable(first Phrase, label func(i int) Phrase, values []int64) *Table {
	if len(values) > maxTableRows {
		return nil
	}
	var x, max int64
	for _, v := range values {
		x ^= v
		if v > max {
			max = v
		}
	}
	width := len(strconv.FormatInt(max, 2))
	bin := func(v int64) string {
		s := strconv.FormatInt(v, 2)
		for len(s) < width {
			s = "0" + s
		}
		return s
	}
	t := &Table{Header: []Phrase{first, P(pColDecimal), P(pColBinary)}}
	for i, v := range values {
		t.Rows = append(t.Rows, row(label(i), strconv.FormatInt(v, 10), bin(v)))
	}
	t.Total = row(P(pColNimSum), strconv.FormatInt(x, 10), bin(x))
	return t
}

// maxTableRows keeps an explanation's table readable (and inside a Discord embed).
const maxTableRows = 26

func heapRow(i int) Phrase { return P(pColHeapName, "Heap", HeapLabel(i)) }

// Nim's explanation.
var (
	pTheoryNimSum    = def("explain.theory.nim_sum", "", "nim-sum")
	pTheoryMisereNim = def("explain.theory.misere_nim", "", "misère nim")
	pNimBinary       = def("explain.nim.binary", "", "Write each heap in binary and add the columns without carrying (XOR): the nim-sum is {{.Sum}}.")
	pNimMisere       = def("explain.nim.misere", "", "In misère play the last mover loses, but the nim-sum still decides while some heap holds 2 or more: leave a nim-sum of 0.")
	pNimSwitch       = def("explain.nim.switch", "", "The endgame switch: when your move would leave only heaps of 0 and 1, leave an odd number of 1-heaps instead, so your opponent takes the last one.")
	pNimOnesEven     = def("explain.nim.ones_even", "", "Every heap holds 0 or 1 and there are {{.Count}} heaps of 1: take one to leave an odd number, and you win.")
	pNimOnesOdd      = def("explain.nim.ones_odd", "Every heap holds 0 or 1 and {{.Count}} heap holds 1: the player to move takes the last one and loses.", "Every heap holds 0 or 1 and there are {{.Count}} heaps of 1 (odd): the player to move takes the last one and loses.")
	pNimZeroLoses    = def("explain.nim.zero_loses", "", "A nim-sum of 0 is lost for the player to move: every move changes it, and the other player can always bring it back to 0 until the heaps run out.")
	pNimZero         = def("explain.nim.zero", "", "The nim-sum is 0, so the player to move loses against perfect play; the best try is a small take that keeps the game long.")
	pNimMove         = def("explain.nim.move", "", "Heap {{.Heap}}: {{.Size}} ⊕ {{.Sum}} = {{.Target}} is less than {{.Size}}, so take {{.Take}} from {{.Heap}} to leave a nim-sum of 0.")
	pNimSwitchMove   = def("explain.nim.switch_move", "", "Take {{.Take}} from {{.Heap}}: that leaves only heaps of 0 and 1, an odd number of them 1.")
)

func (g nimGame) explain(p Position, a Analysis) Explanation {
	s := statsOf(p.Heaps)
	e := Explanation{Theory: P(pTheoryNimSum), Table: binaryTable(P(pColHeap), heapRow, p.Heaps)}
	if g.misere {
		e.Theory = P(pTheoryMisereNim)
	}
	e.Steps = append(e.Steps, P(pNimBinary, "Sum", s.x))
	if g.misere {
		e.Steps = append(e.Steps, P(pNimMisere))
		e.Steps = append(e.Steps, P(pNimSwitch))
		if s.big == 0 {
			if s.ones%2 == 0 {
				e.Steps = append(e.Steps, P(pNimOnesEven, "Count", s.ones))
			} else {
				e.Steps = append(e.Steps, P(pNimOnesOdd, "Count", s.ones))
			}
			return e
		}
	} else {
		e.Steps = append(e.Steps, P(pNimZeroLoses))
	}
	if s.x == 0 {
		e.Steps = append(e.Steps, P(pNimZero))
		return e
	}
	ms, _ := a.first(3)
	for _, m := range ms {
		h := p.Heaps[m.Heap]
		v := h - m.Take
		if v == h^s.x {
			e.Steps = append(e.Steps, P(pNimMove, "Heap", HeapLabel(m.Heap), "Size", h, "Sum", s.x, "Target", v, "Take", m.Take))
		} else {
			e.Steps = append(e.Steps, P(pNimSwitchMove, "Take", m.Take, "Heap", HeapLabel(m.Heap)))
		}
	}
	return e
}
