package engine

import (
	"slices"
	"strconv"
)

func init() {
	variants[Kayles] = func(r Rules) game { return kaylesGame{misere: r.Misere} }
}

// kaylesGame is Kayles: rows of pins; a move knocks down one pin or two
// neighbouring pins, which may split a row in two.
//
// Normal play sums the rows' Grundy values (kaylesG) by XOR. Misère play has
// no closed form — the misère Nim rule on the Grundy values is wrong here (a
// row of 8 is a win for the mover, rows of 1 and 5 a loss) — so it is solved
// by an exhaustive memoized search (search.go), within kaylesMisereMaxTotal
// pins, whose answers for every such position are kept in a table
// (kayles_table.go).
type kaylesGame struct{ misere bool }

// name is the game's name, for refusals that say it.
func (g kaylesGame) name() Phrase { return Rules{Variant: Kayles, Misere: g.misere}.NamePhrase() }

// Kayles's refusals of a move: its heaps are rows, what they hold pins.
var (
	pErrKaylesKind     = def("err.move.kayles.kind", "", "{{.Game}}: knock down one pin or two neighbouring pins of one row (like B4 or B4-5)")
	pErrKaylesNoRow    = def("err.move.kayles.no_row", "", "{{.Game}}: there is no row {{.Row}} ({{.Rows}})")
	pErrKaylesRowEmpty = def("err.move.kayles.row_empty", "", "{{.Game}}: row {{.Row}} has no pins standing")
	pErrKaylesTake     = def("err.move.kayles.take", "", "{{.Game}}: knock down one pin or two neighbouring pins, not {{.Take}}")
	pErrKaylesFromOne  = def("err.move.kayles.from_one", "", "{{.Game}}: pins are numbered from 1, not {{.Pin}}")
	pErrKaylesPin      = def("err.move.kayles.pin", "", "{{.Game}}: pin {{.Pin}} is not standing in row {{.Row}} (it has {{.Has}})")
	pErrKaylesPins     = def("err.move.kayles.pins", "", "{{.Game}}: pins {{.First}} and {{.Second}} are not both standing in row {{.Row}} (it has {{.Has}})")
	pErrKaylesLeaves   = def("err.move.kayles.leaves", "", "{{.Game}}: knocking down {{.Pins}} of row {{.Row}} leaves {{.Left}} and {{.Right}} pins, not {{.A}} and {{.B}}")
	pRowsNone          = def("err.rows.none", "", "there are no rows")
	pRowsOne           = def("err.rows.only", "", "the only row is A")
	pRowsRange         = def("err.rows.range", "", "the rows are A to {{.Last}}")
)

// rowRange says which rows exist, as labelRange says which heaps do.
func rowRange(n int) Phrase {
	switch n {
	case 0:
		return P(pRowsNone)
	case 1:
		return P(pRowsOne)
	}
	return P(pRowsRange, "Last", HeapLabel(n-1))
}

// kaylesPeriodStart is where the Grundy values become periodic: from n = 71
// on, g(n) = kaylesPeriod[n mod 12]. Below it they come from the recurrence.
const kaylesPeriodStart = 71

// kaylesPeriod is the period-12 tail of the Kayles Grundy values (Guy and
// Smith); kaylesGrundy in the tests checks it against the recurrence.
var kaylesPeriod = [12]int64{4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7}

// kaylesSmall holds g(n) for n < kaylesPeriodStart, by the mex recurrence:
// g(n) is the least value not among g(a) ⊕ g(b) for a + b = n−1 or n−2.
var kaylesSmall = func() [kaylesPeriodStart]int64 {
	var g [kaylesPeriodStart]int64
	for n := 1; n < kaylesPeriodStart; n++ {
		seen := map[int64]bool{}
		for t := 1; t <= 2 && t <= n; t++ {
			for a := 0; a <= n-t; a++ {
				seen[g[a]^g[n-t-a]] = true
			}
		}
		for seen[g[n]] {
			g[n]++
		}
	}
	return g
}()

// kaylesG is the Grundy value of a row of n pins.
func kaylesG(n int64) int64 {
	if n < kaylesPeriodStart {
		return kaylesSmall[n]
	}
	return kaylesPeriod[n%12]
}

func (g kaylesGame) check(p Position) error {
	if g.misere {
		// Rows stay small enough for the search's byte-sized row lengths.
		return checkShape(g.name, p, maxHeapsClosed, kaylesMisereMaxRow)
	}
	return checkShape(g.name, p, maxHeapsClosed, MaxHeapSize)
}

func (g kaylesGame) limits() Limits {
	if g.misere {
		return Limits{MaxHeaps: kaylesMisereMaxTotal, MaxHeap: kaylesMisereMaxTotal, MaxTotal: kaylesMisereMaxTotal}
	}
	return Limits{MaxHeaps: maxHeapsClosed, MaxHeap: MaxHeapSize}
}

func (g kaylesGame) over(p Position) bool { return allZero(p.Heaps) }

func (g kaylesGame) legal(p Position) []Move {
	var ms []Move
	for i, n := range p.Heaps {
		for t := int64(1); t <= 2 && t <= n; t++ {
			for j := int64(0); j <= n-t; j++ {
				ms = append(ms, Move{Kind: Knock, Heap: i, Take: t, Parts: [2]int64{j, n - t - j}})
			}
		}
	}
	return ms
}

func (g kaylesGame) validate(p Position, m Move) error {
	if m.Kind != Knock {
		return movePhrase(m, pErrKaylesKind, "Game", g.name())
	}
	if m.Heap < 0 || m.Heap >= len(p.Heaps) {
		return movePhrase(m, pErrKaylesNoRow, "Game", g.name(), "Row", HeapLabel(m.Heap), "Rows", rowRange(len(p.Heaps)))
	}
	row, n := HeapLabel(m.Heap), p.Heaps[m.Heap]
	if n == 0 {
		return movePhrase(m, pErrKaylesRowEmpty, "Game", g.name(), "Row", row)
	}
	if m.Take != 1 && m.Take != 2 {
		return movePhrase(m, pErrKaylesTake, "Game", g.name(), "Take", m.Take)
	}
	if m.Parts[0] < 0 {
		return movePhrase(m, pErrKaylesFromOne, "Game", g.name(), "Pin", m.Parts[0]+1)
	}
	// Pins are numbered from 1; compare before adding, so a huge number
	// cannot wrap around.
	first := uint64(m.Parts[0]) + 1
	if m.Take == 1 && m.Parts[0] > n-1 {
		return movePhrase(m, pErrKaylesPin, "Game", g.name(), "Pin", first, "Row", row, "Has", n)
	}
	if m.Take == 2 && m.Parts[0] > n-2 {
		return movePhrase(m, pErrKaylesPins, "Game", g.name(), "First", first, "Second", first+1, "Row", row, "Has", n)
	}
	if right := n - m.Take - m.Parts[0]; m.Parts[1] != right {
		return movePhrase(m, pErrKaylesLeaves, "Game", g.name(), "Pins", kaylesPinsPhrase(m), "Row", row,
			"Left", m.Parts[0], "Right", right, "A", m.Parts[0], "B", m.Parts[1])
	}
	return nil
}

// The pins a knock takes, as an explanation names them.
var (
	pPinsTwo = def("explain.kayles.pins_two", "", "pins {{.First}} and {{.Second}}")
	pPinsOne = def("explain.kayles.pin_one", "", "pin {{.Pin}}")
)

// kaylesPinsPhrase names the pins a knock takes, numbered from 1: "pin 4",
// "pins 4 and 5".
func kaylesPinsPhrase(m Move) Phrase {
	if m.Take == 2 {
		return P(pPinsTwo, "First", m.Parts[0]+1, "Second", m.Parts[0]+2)
	}
	return P(pPinsOne, "Pin", m.Parts[0]+1)
}

// reachable bounds the rows a game from p can hold: a knock adds at most one
// row (an end knock leaves an empty row behind) and takes at least one pin,
// and emptied rows stay in place, so a row of h pins ends in at most h rows.
func (g kaylesGame) reachable(p Position) int64 { return heapsOrOne(p) }

func (g kaylesGame) apply(p Position, m Move) Position {
	p.Heaps[m.Heap] = m.Parts[0]
	if m.Parts[1] > 0 {
		p.Heaps = slices.Insert(p.Heaps, m.Heap+1, m.Parts[1])
	}
	return p
}

func (g kaylesGame) moverWins(p Position) bool {
	if g.misere {
		return kaylesMisereWins(p.Heaps)
	}
	return kaylesXOR(p.Heaps) != 0
}

func kaylesXOR(rows []int64) int64 {
	var x int64
	for _, n := range rows {
		x ^= kaylesG(n)
	}
	return x
}

func (g kaylesGame) winning(p Position, max int) ([]Move, int64) {
	if g.misere {
		return kaylesMisereWinning(p, max)
	}
	x := kaylesXOR(p.Heaps)
	if x == 0 {
		return nil, 0
	}
	var ms []Move
	var count int64
	for i, n := range p.Heaps {
		r := x ^ kaylesG(n) // what the rest of row i must be worth
		for t := int64(1); t <= 2 && t <= n; t++ {
			js, c := kaylesSplits(n-t, r, max-len(ms))
			count += c
			for _, j := range js {
				ms = append(ms, Move{Kind: Knock, Heap: i, Take: t, Parts: [2]int64{j, n - t - j}})
			}
		}
	}
	return ms, count
}

// kaylesSplits counts the ways to leave m pins as rows j and m−j (0 ≤ j ≤ m)
// with g(j) ⊕ g(m−j) = w, and lists the first max values of j in increasing
// order. The count comes from kaylesSplitCount in constant time; the list
// walks j only until it has max of them, skipping a long row's periodic
// middle when no residue class there can match.
func kaylesSplits(m, w int64, max int) ([]int64, int64) {
	count := kaylesSplitCount(m, w)
	if count == 0 || max <= 0 {
		return nil, count
	}
	var js []int64
	try := func(lo, hi int64) {
		for j := lo; j <= hi && len(js) < max; j++ {
			if kaylesG(j)^kaylesG(m-j) == w {
				js = append(js, j)
			}
		}
	}
	const p = kaylesPeriodStart
	if m < kaylesLongRow {
		try(0, m)
		return js, count
	}
	try(0, p-1)
	if kaylesMiddleMatches(m, w) {
		try(p, m-p)
	}
	try(m-p+1, m)
	return js, count
}

// kaylesLongRow is where kaylesSplits stops walking every split: from here
// on both ends (j < 71 and m−j < 71) see only periodic values opposite them.
const kaylesLongRow = 2*kaylesPeriodStart + 24

// kaylesMaxValue bounds the Grundy values of Kayles (all are below 16), so
// XORs of them are below 16 too.
const kaylesMaxValue = 16

// kaylesShortCounts[m][w] counts the splits of m < kaylesLongRow pins into
// two rows worth w together; kaylesEndCounts[m mod 12][w] counts those with
// j < 71 for a long row (the other end mirrors it).
var kaylesShortCounts, kaylesEndCounts = func() (short [kaylesLongRow][kaylesMaxValue]int64, ends [12][kaylesMaxValue]int64) {
	for m := int64(0); m < kaylesLongRow; m++ {
		for j := int64(0); j <= m; j++ {
			short[m][kaylesG(j)^kaylesG(m-j)]++
		}
	}
	for r := int64(0); r < 12; r++ {
		m := kaylesLongRow + r // any long row with this residue
		for j := int64(0); j < kaylesPeriodStart; j++ {
			ends[(m % 12)][kaylesG(j)^kaylesG(m-j)]++
		}
	}
	return short, ends
}()

// kaylesMiddleMatches reports whether some j in a long row's middle
// (both parts of 71 or more) has g(j) ⊕ g(m−j) = w.
func kaylesMiddleMatches(m, w int64) bool {
	for c := int64(0); c < 12; c++ {
		if kaylesPeriod[c]^kaylesPeriod[((m-c)%12+12)%12] == w {
			return true
		}
	}
	return false
}

// kaylesSplitCount is the number of j in 0..m with g(j) ⊕ g(m−j) = w.
func kaylesSplitCount(m, w int64) int64 {
	if w < 0 || w >= kaylesMaxValue || m < 0 {
		return 0
	}
	if m < kaylesLongRow {
		return kaylesShortCounts[m][w]
	}
	count := 2 * kaylesEndCounts[m%12][w]
	lo, hi := int64(kaylesPeriodStart), m-kaylesPeriodStart
	for c := int64(0); c < 12; c++ {
		if kaylesPeriod[c]^kaylesPeriod[((m-c)%12+12)%12] == w {
			first := lo + ((c-lo)%12+12)%12 // the least j ≥ lo with j ≡ c
			if first <= hi {
				count += (hi-first)/12 + 1
			}
		}
	}
	return count
}

// Kayles's verdicts and explanation (misère Kayles's are in search.go).
var (
	pVerdictKaylesSearchWin  = def("verdict.kayles.search_win", "Winning: an exhaustive search finds {{.Count}} of your knocks leaves your opponent lost.", "Winning: an exhaustive search finds {{.Count}} of your knocks leave your opponent lost.")
	pVerdictKaylesSearchLose = def("verdict.kayles.search_lose", "", "Losing: an exhaustive search finds that every knock leaves your opponent a win.")
	pVerdictKaylesXOR        = def("verdict.kayles.xor", "", "Winning: the rows' Grundy values XOR to {{.XOR}}, not 0, so a knock can make it 0.")
	pVerdictKaylesZero       = def("verdict.kayles.zero", "", "Losing: the rows' Grundy values XOR to 0, so every knock makes it non-zero for your opponent.")
	pTheoryGrundy            = def("explain.theory.grundy", "", "Grundy values")
	pKaylesWorth             = def("explain.kayles.worth", "", "Each row is worth a Nim heap of its Grundy value: the least value not reachable by knocking one or two pins, where a split row is worth the XOR of its parts.")
	pKaylesPeriod            = def("explain.kayles.period", "", "The values are periodic from 71 pins on, with period 12 (4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7 for n mod 12 = 0…11); shorter rows follow the recurrence.")
	pKaylesXOR               = def("explain.kayles.xor", "", "The XOR of the rows' values is {{.XOR}}.")
	pKaylesZero              = def("explain.kayles.zero", "", "The XOR is 0, so the player to move loses: every knock changes one row's value and makes it non-zero, and the opponent can always make it 0 again.")
	pKaylesNonZero           = def("explain.kayles.nonzero", "", "The XOR is not 0, so the player to move wins by knocking pins so that the row's remains are worth the XOR of the other rows.")
	pKaylesMove              = def("explain.kayles.move", "", "Knock down {{.Pins}} of row {{.Row}}, leaving {{.A}} and {{.B}} (values {{.GA}} ⊕ {{.GB}} = {{.G}}, what the other rows XOR to).")
	pAllWinning              = def("explain.all_winning", "", "There are {{.Count}} winning moves in all.")
	pColPins                 = def("table.pins", "", "pins")
)

func (g kaylesGame) verdict(p Position) Phrase {
	if g.misere {
		_, n := kaylesMisereWinning(p, 0)
		if n > 0 {
			return P(pVerdictKaylesSearchWin, "Count", n)
		}
		return P(pVerdictKaylesSearchLose)
	}
	if x := kaylesXOR(p.Heaps); x != 0 {
		return P(pVerdictKaylesXOR, "XOR", x)
	}
	return P(pVerdictKaylesZero)
}

func (g kaylesGame) explain(p Position, a Analysis) Explanation {
	if g.misere {
		return kaylesMisereExplain(p)
	}
	x := kaylesXOR(p.Heaps)
	ex := Explanation{Theory: P(pTheoryGrundy), Table: kaylesGrundyTable(p.Heaps)}
	step := func(id string, args ...any) { ex.Steps = append(ex.Steps, P(id, args...)) }
	step(pKaylesWorth)
	step(pKaylesPeriod)
	step(pKaylesXOR, "XOR", x)
	if x == 0 {
		step(pKaylesZero)
		return ex
	}
	step(pKaylesNonZero)
	ms, n := a.first(3)
	for _, m := range ms {
		a, b := m.Parts[0], m.Parts[1]
		step(pKaylesMove, "Pins", kaylesPinsPhrase(m), "Row", HeapLabel(m.Heap), "A", a, "B", b, "GA", kaylesG(a), "GB", kaylesG(b), "G", kaylesG(a)^kaylesG(b))
	}
	if n > int64(len(ms)) {
		step(pAllWinning, "Count", n)
	}
	return ex
}

// kaylesGrundyTable is one line per row: its length and Grundy value, with
// the XOR under the rule (nil when there are too many rows to read).
func kaylesGrundyTable(rows []int64) *Table {
	if len(rows) > maxTableRows {
		return nil
	}
	t := &Table{Header: []Phrase{P(pColRow), P(pColPins), P(pColGrundy)}}
	for i, n := range rows {
		t.Rows = append(t.Rows, lit(HeapLabel(i), strconv.FormatInt(n, 10), strconv.FormatInt(kaylesG(n), 10)))
	}
	t.Total = row(P(pColXOR), "", strconv.FormatInt(kaylesXOR(rows), 10))
	return t
}
