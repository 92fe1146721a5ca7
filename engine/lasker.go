package engine

import (
	"math/bits"
	"slices"
	"strconv"
)

func init() {
	variants[Lasker] = func(r Rules) game { return laskerGame{misere: r.Misere} }
}

// laskerGame is Lasker's Nim: take one or more from one heap, or split a heap
// into two non-empty heaps.
//
// Normal play: the Grundy value of a heap is g(4m+1) = 4m+1, g(4m+2) = 4m+2,
// g(4m+3) = 4m+4, g(4m+4) = 4m+3, and a position is P iff the XOR of its
// heaps' values is 0. Misère play is tame: the same rule while some heap has
// 2 or more, and with only heaps of 0 and 1 left, P iff their number is odd.
type laskerGame struct{ misere bool }

// name is the game's name, for refusals that say it.
func (g laskerGame) name() Phrase { return Rules{Variant: Lasker, Misere: g.misere}.NamePhrase() }

// Lasker's refusals of a move.
var (
	pErrLaskerTooFew = def("err.move.lasker.too_few", "", "{{.Game}}: heap {{.Heap}} has {{.Has}}, too few to split (a split needs 2 or more)")
	pErrLaskerParts  = def("err.move.lasker.parts", "", "{{.Game}}: both parts must be non-empty and add up to {{.Has}}")
	pErrLaskerKind   = def("err.move.lasker.kind", "", "{{.Game}}: take from one heap (like B3) or split one in two (like B=2+3)")
)

func (g laskerGame) check(p Position) error {
	return checkShape(g.name, p, maxHeapsClosed, MaxHeapSize)
}

func (g laskerGame) limits() Limits {
	return Limits{MaxHeaps: maxHeapsClosed, MaxHeap: MaxHeapSize}
}

func (g laskerGame) over(p Position) bool { return allZero(p.Heaps) }

// laskerG is the Grundy value of a heap of h. It swaps 4m+3 and 4m+4 and
// fixes everything else, so it is its own inverse.
func laskerG(h int64) int64 {
	switch h % 4 {
	case 3:
		return h + 1
	case 0:
		if h > 0 {
			return h - 1
		}
	}
	return h
}

func (g laskerGame) legal(p Position) []Move {
	var ms []Move
	for i, h := range p.Heaps {
		for t := int64(1); t <= h; t++ {
			ms = append(ms, Move{Kind: Take, Heap: i, Take: t})
		}
		for a := int64(1); a < h; a++ {
			ms = append(ms, Move{Kind: Split, Heap: i, Parts: [2]int64{a, h - a}})
		}
	}
	return ms
}

func (g laskerGame) validate(p Position, m Move) error {
	switch m.Kind {
	case Take:
		return validateTake(g.name, p, m)
	case Split:
		if m.Heap < 0 || m.Heap >= len(p.Heaps) {
			return movePhrase(m, pErrNoHeap, "Heap", HeapLabel(m.Heap), "Heaps", labelRange(len(p.Heaps)))
		}
		h := p.Heaps[m.Heap]
		if h < 2 {
			return movePhrase(m, pErrLaskerTooFew, "Game", g.name(), "Heap", HeapLabel(m.Heap), "Has", h)
		}
		if m.Parts[0] < 1 || m.Parts[1] < 1 || m.Parts[0] > h || m.Parts[1] != h-m.Parts[0] {
			return movePhrase(m, pErrLaskerParts, "Game", g.name(), "Has", h)
		}
		return nil
	}
	return movePhrase(m, pErrLaskerKind, "Game", g.name())
}

// reachable bounds the heaps a game from p can hold: splitting a heap of h
// as often as it goes leaves h heaps of 1, and takes add none; empty heaps
// stay in place.
func (g laskerGame) reachable(p Position) int64 { return heapsOrOne(p) }

func (g laskerGame) apply(p Position, m Move) Position {
	if m.Kind == Split {
		p.Heaps = slices.Insert(p.Heaps, m.Heap+1, m.Parts[1])
		p.Heaps[m.Heap] = m.Parts[0]
		return p
	}
	return applyTake(p, m)
}

// laskerStats is what the rules look at: the XOR of the Grundy values, and
// how many heaps hold 2 or more and exactly 1.
func laskerStats(heaps []int64) nimStats {
	var s nimStats
	for _, h := range heaps {
		s.x ^= laskerG(h)
		if h >= 2 {
			s.big++
		} else if h == 1 {
			s.ones++
		}
	}
	return s
}

func (g laskerGame) moverWins(p Position) bool { return laskerStats(p.Heaps).moverWins(g.misere) }

// winning derives every winning move from the rule, heap by heap. With the
// other heaps' XOR r, the new part(s) of heap i must have Grundy XOR r (or,
// in misère play when nothing of 2 or more would remain, leave an odd number
// of 1-heaps). A take can reach one size only (g is a bijection); the splits
// with g(a)⊕g(h−a) = r are counted and listed by laskerSplits without
// walking all h−1 of them.
func (g laskerGame) winning(p Position, max int) ([]Move, int64) {
	s := laskerStats(p.Heaps)
	var ms []Move
	var n int64
	add := func(m Move) {
		n++
		if len(ms) < max {
			ms = append(ms, m)
		}
	}
	for i, h := range p.Heaps {
		if h == 0 {
			continue
		}
		// The others, as if heap i were empty (g(h) ≥ 2 iff h ≥ 2, and
		// g(h) = 1 iff h = 1, so the counts by value are counts by size).
		rest := s.with(laskerG(h), 0)
		// With no other heap of 2 or more, misère play may come down to
		// the number of 1-heaps.
		endgame := g.misere && rest.big == 0
		// Take: to one target size.
		target := laskerG(rest.x)
		if endgame {
			target = int64(1 - rest.ones%2) // leave an odd number of 1-heaps
		}
		if target < h {
			add(Move{Kind: Take, Heap: i, Take: h - target})
		}
		// Split.
		if h < 2 {
			continue
		}
		if endgame && h == 2 {
			// 2 → 1+1 leaves only 1-heaps: wins iff their number is then odd.
			if rest.ones%2 == 1 {
				add(Move{Kind: Split, Heap: i, Parts: [2]int64{1, 1}})
			}
			continue
		}
		// Some part is 2 or more (or another heap is): the XOR rule decides.
		left := max - len(ms)
		if left < 0 {
			left = 0
		}
		as, c := laskerSplits(h, rest.x, left)
		n += c
		for _, a := range as {
			ms = append(ms, Move{Kind: Split, Heap: i, Parts: [2]int64{a, h - a}})
		}
	}
	return ms, n
}

// laskerSplits counts the splits of h into a + (h−a), 1 ≤ a < h, with
// g(a) ⊕ g(h−a) = w, and lists the first max values of a in increasing order.
//
// Write a non-zero x as 4p + r: g(x) = 4q + s with (q, s) = (p, 1), (p, 2),
// (p+1, 0), (p−1, 3) for r = 1, 2, 3, 0. For each choice of residues
// (r_a, r_b) with r_a + r_b ≡ h (mod 4) and s_a ⊕ s_b = w mod 4, the high
// parts must satisfy q_a + q_b = T (fixed by h) and q_a ⊕ q_b = W = w/4.
// Since x + y = (x ⊕ y) + 2(x ∧ y), that means q_a ∧ q_b = A = (T − W)/2 with
// A ∧ W = 0, and then q_a = A plus any subset of W's bits: 2^popcount(W)
// solutions, less the ones that would make a or b zero or negative.
func laskerSplits(h, w int64, max int) ([]int64, int64) {
	if h < 2 {
		return nil, 0
	}
	// s and c of x by x mod 4, and the least q that keeps x ≥ 1.
	sOf := [4]int64{3, 1, 2, 0}
	cOf := [4]int64{-1, 0, 0, 1}
	loOf := [4]int64{0, 0, 0, 1}
	var as []int64
	var count int64
	W := w >> 2
	for ra := int64(0); ra < 4; ra++ {
		rb := ((h-ra)%4 + 4) % 4
		if sOf[ra]^sOf[rb] != w&3 || ra+rb > h {
			continue
		}
		T := (h-ra-rb)/4 + cOf[ra] + cOf[rb]
		if T < W || (T-W)%2 != 0 {
			continue
		}
		A := (T - W) / 2
		if A&W != 0 {
			continue
		}
		ok := func(sub int64) bool { // q_a = A|sub, q_b = A|(W^sub) within bounds
			return A|sub >= loOf[ra] && A|(W^sub) >= loOf[rb]
		}
		c := int64(1) << bits.OnesCount64(uint64(W))
		if A == 0 {
			// Only q = 0 can fall below its bound of 1.
			if !ok(0) {
				c--
			}
			if W != 0 && !ok(W) {
				c--
			}
		}
		count += c
		// Subsets of W in increasing order give increasing q_a, so
		// increasing a; max of them per class is enough for the merge.
		listed := 0
		for sub := int64(0); listed < max; sub = (sub - W) & W {
			if ok(sub) {
				q := A | sub
				as = append(as, 4*(q-cOf[ra])+ra)
				listed++
			}
			if sub == W {
				break
			}
		}
	}
	slices.Sort(as)
	if len(as) > max {
		as = as[:max]
	}
	return as, count
}

// Lasker's Nim's verdicts and explanation.
var (
	pVerdictLaskerXOR  = def("verdict.lasker.xor", "", "Winning: the heaps' Grundy values XOR to {{.XOR}}, not 0, so a take or a split can make it 0.")
	pVerdictLaskerZero = def("verdict.lasker.zero", "", "Losing: the heaps' Grundy values XOR to 0, so every take or split makes it non-zero for your opponent.")
	// With one heap of 2 or more, misère play turns on the switch: a move
	// that makes the XOR 0 by leaving only 0s and 1s leaves an even number
	// of 1s, and loses.
	pVerdictLaskerSwitch = def("verdict.lasker.switch", "", "Winning: only one heap holds 2 or more; take it down to 0 or 1 so that an odd number of 1-heaps is left (the misère endgame switch).")
	pLaskerWorth         = def("explain.lasker.worth", "", "Each heap is worth a Nim heap of its Grundy value: g(h) = h, except that heaps of 4m+3 and 4m+4 swap values (3 ↔ 4, 7 ↔ 8, …), because a split adds options a plain Nim heap does not have.")
	pColMod4             = def("table.size_mod_4", "", "size mod 4")
	pLaskerXOR           = def("explain.lasker.xor", "", "The XOR of the Grundy values is {{.XOR}}.")
	pLaskerOnesEven      = def("explain.lasker.ones_even", "", "Misère play: no heap has 2 or more, so the XOR no longer decides; the player who takes the last token loses. With {{.Count}} heaps of 1, the player to move wins (an even number: take one and leave an odd number).")
	pLaskerOnesOdd       = def("explain.lasker.ones_odd", "Misère play: no heap has 2 or more, so the XOR no longer decides; the player who takes the last token loses. With {{.Count}} heap of 1, the player to move loses: the last token will be theirs.", "Misère play: no heap has 2 or more, so the XOR no longer decides; the player who takes the last token loses. With {{.Count}} heaps of 1, the player to move loses (an odd number: the last one will be theirs).")
	pLaskerTame          = def("explain.lasker.tame", "", "Misère Lasker's Nim is tame: while some heap has 2 or more, play by the XOR as in normal play; the move that would leave only 0s and 1s must leave an odd number of 1-heaps instead.")
	pLaskerZero          = def("explain.lasker.zero", "", "The XOR is 0, so the player to move loses: every take or split changes one heap's value and makes the XOR non-zero, and the opponent can always bring it back to 0.")
	pLaskerNonZero       = def("explain.lasker.nonzero", "", "The XOR is not 0, so the player to move wins by making it 0: change one heap (by a take, or a split whose two parts' values XOR to the needed value).")
	pLaskerSwitch        = def("explain.lasker.switch", "", "Only heap {{.Heap}} holds 2 or more, so the player to move wins by the endgame switch: leave only heaps of 0 and 1, an odd number of them 1s (take heap {{.Heap}} down to 0 or 1; a heap of 2 may also be split into 1 and 1). A split that keeps a part of 2 or more also wins if it makes the XOR 0; making the XOR 0 by leaving only 0s and 1s loses, as that leaves an even number of 1s.")
	pLaskerSplitOnes     = def("explain.lasker.split_ones", "", "Split heap {{.Heap}} into 1 and 1: only heaps of 0 and 1 remain, an odd number of them 1s.")
	pLaskerSplit         = def("explain.lasker.split", "", "Split heap {{.Heap}} into {{.A}} and {{.B}}: g({{.A}}) ⊕ g({{.B}}) = {{.GA}} ⊕ {{.GB}} = {{.G}}, what the other heaps XOR to.")
	pLaskerTakeOnes      = def("explain.lasker.take_ones", "", "Take {{.Take}} from heap {{.Heap}}, leaving {{.Left}}: only heaps of 0 and 1 remain, an odd number of them 1s.")
	pLaskerTake          = def("explain.lasker.take", "", "Take {{.Take}} from heap {{.Heap}}, leaving {{.Left}} (Grundy value {{.G}}, what the other heaps XOR to).")
)

func (g laskerGame) verdict(p Position) Phrase {
	s := laskerStats(p.Heaps)
	if g.misere && s.big == 0 {
		if s.ones%2 == 0 {
			return P(pVerdictOnesEven, "Count", s.ones)
		}
		return P(pVerdictOnesOdd, "Count", s.ones)
	}
	if g.misere && s.big == 1 {
		return P(pVerdictLaskerSwitch)
	}
	if s.x != 0 {
		return P(pVerdictLaskerXOR, "XOR", s.x)
	}
	return P(pVerdictLaskerZero)
}

func (g laskerGame) explain(p Position, a Analysis) Explanation {
	s := laskerStats(p.Heaps)
	ex := Explanation{Theory: P(pTheoryGrundy)}
	step := func(id string, args ...any) { ex.Steps = append(ex.Steps, P(id, args...)) }
	step(pLaskerWorth)
	if len(p.Heaps) <= maxTableRows {
		tab := &Table{Header: []Phrase{P(pColHeap), P(pColSize), P(pColMod4), P(pColGrundy)}}
		for i, h := range p.Heaps {
			tab.Rows = append(tab.Rows, lit(HeapLabel(i), strconv.FormatInt(h, 10), strconv.FormatInt(h%4, 10), strconv.FormatInt(laskerG(h), 10)))
		}
		tab.Total = row(P(pColXOR), "", "", strconv.FormatInt(s.x, 10))
		ex.Table = tab
	}
	step(pLaskerXOR, "XOR", s.x)
	if g.misere && s.big == 0 {
		if s.ones%2 == 0 {
			step(pLaskerOnesEven, "Count", s.ones)
		} else {
			step(pLaskerOnesOdd, "Count", s.ones)
		}
		return ex
	}
	if g.misere {
		step(pLaskerTame)
	}
	if s.x == 0 {
		step(pLaskerZero)
		return ex
	}
	if g.misere && s.big == 1 {
		step(pLaskerSwitch, "Heap", HeapLabel(bigHeap(p.Heaps)))
	} else {
		step(pLaskerNonZero)
	}
	if ms, n := a.first(3); len(ms) > 0 {
		for _, m := range ms {
			switch m.Kind {
			case Split:
				a, b := m.Parts[0], m.Parts[1]
				if g.misere && s.big-1+btoi(a >= 2)+btoi(b >= 2) == 0 {
					step(pLaskerSplitOnes, "Heap", HeapLabel(m.Heap))
					continue
				}
				step(pLaskerSplit, "Heap", HeapLabel(m.Heap), "A", a, "B", b, "GA", laskerG(a), "GB", laskerG(b), "G", laskerG(a)^laskerG(b))
			default:
				v := p.Heaps[m.Heap] - m.Take
				if g.misere && s.big-btoi(p.Heaps[m.Heap] >= 2)+btoi(v >= 2) == 0 {
					step(pLaskerTakeOnes, "Take", m.Take, "Heap", HeapLabel(m.Heap), "Left", v)
				} else {
					step(pLaskerTake, "Take", m.Take, "Heap", HeapLabel(m.Heap), "Left", v, "G", laskerG(v))
				}
			}
		}
		if n > int64(len(ms)) {
			step(pAllWinning, "Count", n)
		}
	}
	return ex
}

// bigHeap is the index of the first heap of 2 or more (-1 when none is).
func bigHeap(heaps []int64) int {
	for i, h := range heaps {
		if h >= 2 {
			return i
		}
	}
	return -1
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
