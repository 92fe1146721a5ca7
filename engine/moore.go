package engine

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

func init() {
	variants[Moore] = func(r Rules) game { return mooreGame{misere: r.Misere, k: r.K} }
}

// mooreBits covers every heap up to MaxHeapSize (< 2^40).
const mooreBits = 40

// mooreBudget bounds the work of listing winning moves: the sum over the
// subsets of at most k heaps of 4^size, each unit being one pass over 40 bits.
const mooreBudget = 25_000

// mooreGame is Moore's Nim_k: take from one up to k heaps at once. P iff for
// every bit the number of heaps with that bit set is 0 mod k+1 (normal play);
// in misère play, with only heaps of 0 and 1, P iff the number of 1-heaps is
// 1 mod k+1.
type mooreGame struct {
	misere bool
	k      int
}

// name is the game's name, for refusals that say it.
func (g mooreGame) name() Phrase {
	return Rules{Variant: Moore, K: g.k, Misere: g.misere}.NamePhrase()
}

// Moore's refusals of a move. Count is k, or the heaps a move names: one
// heap reads in the singular.
var (
	pErrMooreKind  = def("err.move.moore.kind", "{{.Game}}: take from up to {{.Count}} heap at once (like B3)", "{{.Game}}: take from up to {{.Count}} heaps at once (like A2 C1)")
	pErrMooreNames = def("err.move.moore.names", "{{.Game}}: the move names {{.Count}} heap but there are {{.Heaps}}", "{{.Game}}: the move names {{.Count}} heaps but there are {{.Heaps}}")
	pErrMooreEach  = def("err.move.moore.each", "", "take at least 1 from each heap you touch")
	pErrMooreMost  = def("err.move.moore.most", "{{.Game}}: take from at most {{.Count}} heap at once, not {{.Touched}}", "{{.Game}}: take from at most {{.Count}} heaps at once, not {{.Touched}}")
)

func (g mooreGame) check(p Position) error {
	return checkShape(g.name, p, maxHeapsClosed, MaxHeapSize)
}

// limits: listing every winning move looks at every set of at most k heaps,
// so the number of heaps is bounded by the budget; the sizes are not.
func (g mooreGame) limits() Limits {
	n := 1
	for n < maxHeapsClosed && mooreCost(n+1, g.k) <= mooreBudget {
		n++
	}
	return Limits{MaxHeaps: n, MaxHeap: MaxHeapSize}
}

// cost: each unit of mooreCost is a pass over 40 bits, about 8 heap visits.
func (g mooreGame) cost(p Position) int {
	return int(min(8*mooreCost(len(nonEmpty(p.Heaps)), g.k), 1<<30)) + 1
}

func mooreCost(n, k int) float64 {
	var c, binom float64 = 0, 1
	for s := 1; s <= min(n, k); s++ {
		binom = binom * float64(n-s+1) / float64(s)
		c += binom * math.Pow(4, float64(s))
	}
	return c
}

func (g mooreGame) over(p Position) bool { return allZero(p.Heaps) }

// subsets calls f with every set of 1..k indices among idx, in lexicographic order.
func subsets(idx []int, k int, f func(s []int)) {
	var cur []int
	var rec func(from int)
	rec = func(from int) {
		for j := from; j < len(idx); j++ {
			cur = append(cur, idx[j])
			f(cur)
			if len(cur) < k {
				rec(j + 1)
			}
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
}

func nonEmpty(h []int64) []int {
	var idx []int
	for i, v := range h {
		if v > 0 {
			idx = append(idx, i)
		}
	}
	return idx
}

// mooreMove builds the canonical move taking takes[j] from heap s[j].
func mooreMove(n int, s []int, takes []int64) Move {
	if len(s) == 1 {
		return Move{Kind: Take, Heap: s[0], Take: takes[0]}
	}
	m := Move{Kind: Multi, Takes: make([]int64, n)}
	for j, i := range s {
		m.Takes[i] = takes[j]
	}
	return m
}

// legal lists single takes as Take moves and the rest as Multi, by touched
// heaps (lexicographic), then by takes (lexicographic).
func (g mooreGame) legal(p Position) []Move {
	var ms []Move
	subsets(nonEmpty(p.Heaps), g.k, func(s []int) {
		takes := make([]int64, len(s))
		var rec func(j int)
		rec = func(j int) {
			if j == len(s) {
				ms = append(ms, mooreMove(len(p.Heaps), s, takes))
				return
			}
			for t := int64(1); t <= p.Heaps[s[j]]; t++ {
				takes[j] = t
				rec(j + 1)
			}
		}
		rec(0)
	})
	return ms
}

func (g mooreGame) validate(p Position, m Move) error {
	switch m.Kind {
	case Take:
		return validateTake(g.name, p, m)
	case Multi:
	default:
		return movePhrase(m, pErrMooreKind, "Game", g.name(), "Count", g.k)
	}
	if len(m.Takes) != len(p.Heaps) {
		return movePhrase(m, pErrMooreNames, "Game", g.name(), "Count", len(m.Takes), "Heaps", len(p.Heaps))
	}
	touched := 0
	for i, t := range m.Takes {
		if t < 0 {
			return movePhrase(m, pErrMooreEach)
		}
		if t == 0 {
			continue
		}
		touched++
		if p.Heaps[i] == 0 {
			return movePhrase(m, pErrHeapEmpty, "Heap", HeapLabel(i))
		}
		if t > p.Heaps[i] {
			return movePhrase(m, pErrHeapTooMany, "Heap", HeapLabel(i), "Has", p.Heaps[i], "Take", t)
		}
	}
	if touched == 0 {
		return movePhrase(m, pErrTakeOne)
	}
	if touched > g.k {
		return movePhrase(m, pErrMooreMost, "Game", g.name(), "Count", g.k, "Touched", touched)
	}
	return nil
}

func (g mooreGame) apply(p Position, m Move) Position {
	if m.Kind == Take {
		return applyTake(p, m)
	}
	for i, t := range m.Takes {
		p.Heaps[i] -= t
	}
	return p
}

// bitCounts counts, for each bit, the heaps with that bit set.
func bitCounts(h []int64) [mooreBits + 1]int {
	var c [mooreBits + 1]int
	for _, v := range h {
		for u := uint64(v); u != 0; u &= u - 1 {
			c[bits.TrailingZeros64(u)]++
		}
	}
	return c
}

func (g mooreGame) moverWins(p Position) bool {
	if g.misere {
		if s := statsOf(p.Heaps); s.big == 0 {
			return s.ones%(g.k+1) != 1
		}
	}
	for _, c := range bitCounts(p.Heaps) {
		if c%(g.k+1) != 0 {
			return true
		}
	}
	return false
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// winning counts and lists the moves into P-positions without enumerating
// takes. For a set S of touched heaps, the new sizes must give every bit b
// exactly need_b set bits among S, where need_b = -(count in the other heaps)
// mod k+1 (|S| ≤ k, so no other sum is ≡). A digit DP from the top bit, with
// the set of heaps still equal to their old prefix as state, counts the
// assignments in which every touched heap ends strictly smaller. In misère
// play the results with only heaps of 0 and 1 follow the parity rule
// instead, and are corrected by enumerating them directly.
//
// The count is exact (saturating at MaxInt64). The list is in canonical
// order by touched heaps, and within one set of heaps by takes; when a set
// has more winning moves than the list holds, the ones listed are the first
// the DP meets (new sizes from the top bit down), then sorted.
func (g mooreGame) winning(p Position, max int) ([]Move, int64) {
	n := len(p.Heaps)
	all := bitCounts(p.Heaps)
	bigHeaps := 0 // how many heaps hold 2 or more
	for _, v := range p.Heaps {
		if v >= 2 {
			bigHeaps++
		}
	}
	var ms []Move
	var total int64
	var sc dpScratch
	subsets(nonEmpty(p.Heaps), g.k, func(S []int) {
		s := len(S)
		var need [mooreBits + 1]int
		for b := range need {
			c := all[b]
			for _, i := range S {
				c -= int(p.Heaps[i] >> b & 1)
			}
			need[b] = (g.k + 1 - c%(g.k+1)) % (g.k + 1)
			if need[b] > s {
				need[b] = -1
			}
		}
		// bigOutside: some untouched heap holds 2 or more.
		bigOutside := bigHeaps
		for _, i := range S {
			if p.Heaps[i] >= 2 {
				bigOutside--
			}
		}
		var subsetMoves []Move
		count := int64(0)
		if !slices.Contains(need[:], -1) {
			count = g.digitDP(p, S, need, g.misere && bigOutside == 0, max-len(ms), &subsetMoves, &sc)
		}
		if g.misere && bigOutside == 0 {
			// Results with only 0s and 1s: drop those the DP counted (normal
			// P) and add those misère play makes P.
			ones := 0
			for i, v := range p.Heaps {
				if v == 1 && !slices.Contains(S, i) {
					ones++
				}
			}
			for mask := 0; mask < 1<<s; mask++ {
				takes := make([]int64, s)
				ok := true
				for j, i := range S {
					nv := int64(mask >> j & 1)
					if nv >= p.Heaps[i] {
						ok = false
						break
					}
					takes[j] = p.Heaps[i] - nv
				}
				if !ok {
					continue
				}
				o := ones + bits.OnesCount(uint(mask))
				if o%(g.k+1) == 0 {
					count-- // normal P, counted by the DP; not P in misère
				}
				if o%(g.k+1) == 1 {
					count++
					subsetMoves = append(subsetMoves, mooreMove(n, S, takes))
				}
			}
		}
		slices.SortFunc(subsetMoves, func(a, b Move) int { return compareTakes(a, b, S) })
		for _, m := range subsetMoves {
			if len(ms) < max {
				ms = append(ms, m)
			}
		}
		total = satAdd(total, count)
	})
	return ms, total
}

func compareTakes(a, b Move, S []int) int {
	for _, i := range S {
		ta, tb := takeFrom(a, i), takeFrom(b, i)
		if ta != tb {
			if ta < tb {
				return -1
			}
			return 1
		}
	}
	return 0
}

func takeFrom(m Move, i int) int64 {
	if m.Kind == Take {
		if m.Heap == i {
			return m.Take
		}
		return 0
	}
	if i < len(m.Takes) {
		return m.Takes[i]
	}
	return 0
}

// dpScratch is digitDP's working memory, made once per winning call and
// reused for every set of heaps it tries (1,596 sets per call at the
// limit, 56 heaps and k = 2), where a table made for each would cost more
// than the arithmetic.
type dpScratch struct {
	cells []int64
	f     [mooreBits + 2][]int64
	// choices[s][c] lists the patterns of s bits with c of them set.
	choices [][][]int
	vals    []int64
}

// table returns f[b][mask] for s heaps, row 0 zeroed (the DP writes every
// other cell before reading it), the patterns of s bits by their count, and
// s zeroed values.
func (sc *dpScratch) table(s int) (f *[mooreBits + 2][]int64, choices [][]int, vals []int64) {
	width := 1 << s
	if need := (mooreBits + 2) * width; cap(sc.cells) < need {
		sc.cells = make([]int64, need)
	}
	for b := range sc.f {
		sc.f[b] = sc.cells[b*width : (b+1)*width]
	}
	clear(sc.f[0])
	for len(sc.choices) <= s {
		sc.choices = append(sc.choices, nil)
	}
	if sc.choices[s] == nil {
		byCount := make([][]int, s+1)
		for B := 0; B < width; B++ {
			c := bits.OnesCount(uint(B))
			byCount[c] = append(byCount[c], B)
		}
		sc.choices[s] = byCount
	}
	if cap(sc.vals) < s {
		sc.vals = make([]int64, s)
	}
	vals = sc.vals[:s]
	clear(vals)
	return &sc.f, sc.choices[s], vals
}

// digitDP counts the new sizes for the heaps in S meeting need (see winning)
// and appends up to max of the moves to out. When skipSmall is set (misère
// play with no big heap outside S) results with every touched heap ≤ 1 are
// left out of the list, since the caller judges those by the misère rule.
// Its tables are sc's.
func (g mooreGame) digitDP(p Position, S []int, need [mooreBits + 1]int, skipSmall bool, max int, out *[]Move, sc *dpScratch) int64 {
	s := len(S)
	if s == 1 {
		// One heap: need fixes every bit of the new size.
		var v int64
		for b, n := range need {
			v |= int64(n) << b
		}
		h := p.Heaps[S[0]]
		if v >= h {
			return 0
		}
		if max > 0 && !(skipSmall && v <= 1) {
			*out = append(*out, Move{Kind: Take, Heap: S[0], Take: h - v})
		}
		return 1
	}
	full := 1<<s - 1
	var hb [mooreBits + 1]int // bit b of each touched heap, as a mask over S
	for b := range hb {
		for j, i := range S {
			hb[b] |= int(p.Heaps[i]>>b&1) << j
		}
	}
	// f[b+1][mask]: completions for bits b..0 with tight set mask.
	f, choices, vals := sc.table(s)
	f[0][0] = 1
	next := func(b, mask, B int) (int, bool) {
		// A tight heap whose bit is 0 cannot take a 1.
		if B&mask&^hb[b] != 0 {
			return 0, false
		}
		// Still tight: its new bit equals its old bit.
		return mask &^ (B ^ hb[b]), true
	}
	for b := 0; b <= mooreBits; b++ {
		for mask := 0; mask <= full; mask++ {
			var c int64
			for _, B := range choices[need[b]] {
				if nm, ok := next(b, mask, B); ok {
					c = satAdd(c, f[b][nm])
				}
			}
			f[b+1][mask] = c
		}
	}
	count := f[mooreBits+1][full]
	if count == 0 || max <= 0 {
		return count
	}
	var rec func(b, mask int)
	rec = func(b, mask int) {
		if len(*out) >= max {
			return
		}
		if b < 0 {
			takes := make([]int64, s)
			small := true
			for j, i := range S {
				takes[j] = p.Heaps[i] - vals[j]
				if vals[j] >= 2 {
					small = false
				}
			}
			if skipSmall && small {
				return
			}
			*out = append(*out, mooreMove(len(p.Heaps), S, takes))
			return
		}
		for _, B := range choices[need[b]] {
			nm, ok := next(b, mask, B)
			if !ok || f[b][nm] == 0 {
				continue
			}
			for j := range vals {
				vals[j] = vals[j]&^(1<<b) | int64(B>>j&1)<<b
			}
			rec(b-1, nm)
		}
		for j := range vals {
			vals[j] &^= 1 << b
		}
	}
	rec(mooreBits, full)
	return count
}

// Moore's Nim's verdicts and explanation.
var (
	pVerdictMooreOnesWin  = def("verdict.moore.ones_win", "", "Winning: only heaps of 1 are left, {{.Count}} of them; leave a number that is 1 mod {{.Mod}}.")
	pVerdictMooreOnesLose = def("verdict.moore.ones_lose", "Losing: only {{.Count}} heap of 1 is left, and {{.Count}} is 1 mod {{.Mod}}.", "Losing: only heaps of 1 are left, {{.Count}} of them, which is 1 mod {{.Mod}}.")
	pVerdictMooreBit      = def("verdict.moore.bit", "Winning: {{.Count}} heap has the {{.Bit}}'s bit set, which is not 0 mod {{.Mod}}.", "Winning: {{.Count}} heaps have the {{.Bit}}'s bit set, which is not 0 mod {{.Mod}}.")
	pVerdictMooreZero     = def("verdict.moore.zero", "", "Losing: for every bit, the number of heaps with it set is 0 mod {{.Mod}}.")
	pTheoryBitCounts      = def("explain.theory.bit_counts", "", "bit counts mod {{.Mod}}")
	pColCountMod          = def("table.count_mod", "", "count mod {{.Mod}}")
	pMooreBinary          = def("explain.moore.binary", "Write the heaps in binary and count, for each bit, how many heaps have it set; a move may change only {{.Count}} heap.", "Write the heaps in binary and count, for each bit, how many heaps have it set; a move may change up to {{.Count}} heaps.")
	pMooreTheorem         = def("explain.moore.theorem", "", "If every count is 0 mod {{.Mod}}, any move breaks one, and the other player can restore them all: that position is lost for the player to move (Moore's theorem; with k=1 it is Nim's nim-sum).")
	pMooreMisere          = def("explain.moore.misere", "", "In misère play the same holds while some heap holds 2 or more; with only heaps of 0 and 1, leave a number of 1-heaps that is 1 mod {{.Mod}}.")
	pMooreLost            = def("explain.moore.lost", "", "Here every count is already right for your opponent: the player to move loses against perfect play.")
	pMooreMove            = def("explain.moore.move", "", "A winning move: {{.Move}} ({{.Moves}} in all).")
)

func (g mooreGame) verdict(p Position) Phrase {
	if g.misere {
		if s := statsOf(p.Heaps); s.big == 0 {
			ones := s.ones
			if ones%(g.k+1) != 1 {
				return P(pVerdictMooreOnesWin, "Count", ones, "Mod", g.k+1)
			}
			return P(pVerdictMooreOnesLose, "Count", ones, "Mod", g.k+1)
		}
	}
	c := bitCounts(p.Heaps)
	for b := mooreBits; b >= 0; b-- {
		if c[b]%(g.k+1) != 0 {
			return P(pVerdictMooreBit, "Count", c[b], "Bit", int64(1)<<b, "Mod", g.k+1)
		}
	}
	return P(pVerdictMooreZero, "Mod", g.k+1)
}

func (g mooreGame) explain(p Position, a Analysis) Explanation {
	c := bitCounts(p.Heaps)
	e := Explanation{Theory: P(pTheoryBitCounts, "Mod", g.k+1)}
	var mx int64 = 1
	for _, v := range p.Heaps {
		mx = max(mx, v)
	}
	width := len(strconv.FormatInt(mx, 2))
	if len(p.Heaps) <= maxTableRows {
		t := &Table{Header: []Phrase{P(pColHeap), P(pColDecimal), P(pColBinary)}}
		for i, v := range p.Heaps {
			b := strconv.FormatInt(v, 2)
			t.Rows = append(t.Rows, row(heapRow(i), strconv.FormatInt(v, 10), strings.Repeat("0", width-len(b))+b))
		}
		var tot strings.Builder
		for b := width - 1; b >= 0; b-- {
			tot.WriteString(strconv.Itoa(c[b] % (g.k + 1)))
		}
		t.Total = row(P(pColCountMod, "Mod", g.k+1), "", tot.String())
		e.Table = t
	}
	e.Steps = append(e.Steps, P(pMooreBinary, "Count", g.k))
	e.Steps = append(e.Steps, P(pMooreTheorem, "Mod", g.k+1))
	if g.misere {
		e.Steps = append(e.Steps, P(pMooreMisere, "Mod", g.k+1))
	}
	ms, n := a.first(1)
	if n == 0 {
		e.Steps = append(e.Steps, P(pMooreLost))
	} else {
		e.Steps = append(e.Steps, P(pMooreMove, "Move", describeMove(p, ms[0]), "Moves", P(pWinningMoves, "Count", n)))
	}
	return e
}
