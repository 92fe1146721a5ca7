package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

func init() {
	variants[Subtraction] = func(r Rules) game { return newSubGame(r) }
}

// Bounds on subtraction sets: small enough that the Grundy sequence's period
// is found quickly, large enough for every set people play.
const (
	maxSetSize    = 8
	maxSetElement = 64
	// maxGrundyScan is how far the mex recurrence runs looking for the period.
	maxGrundyScan = 1 << 20
)

// subGame is a subtraction game on several heaps: take 1..k from one heap
// (S(1..k), Grundy value h mod (k+1)), or any amount in a finite set (Grundy
// values from the mex recurrence, eventually periodic).
//
// Misère play uses "misère Nim on the Grundy values": P iff (some value ≥ 2
// and their XOR is 0) or (every value ≤ 1 and an odd number of them are 1).
// For S(1..k) this is proven (NIM.md). For other sets it is NOT proven: it
// held with no exception for every S ⊆ {1..9} on 2 heaps ≤ 40, 3 heaps ≤ 20
// and 4 heaps ≤ 12 (NIM.md), and TestSubtractionMisereSets checks it against
// exhaustive search for every S ⊆ {1..8} on 2 heaps ≤ 24 and 3 heaps ≤ 11.
// Beyond those sets and sizes the engine trusts the rule unproven.
type subGame struct {
	misere bool
	k      int64    // S(1..k) when set is nil
	set    []int64  // the amounts, ascending
	tab    *grundyT // the set's Grundy sequence
	rules  Rules    // for the game's name (the 21 game's, when it is one)
}

func newSubGame(r Rules) *subGame {
	g := &subGame{misere: r.Misere, rules: r}
	if len(r.Set) > 0 {
		for _, s := range r.Set {
			g.set = append(g.set, int64(s))
		}
		g.tab, _ = grundyTable(r.Set) // Normalize has checked it
	} else {
		g.k = int64(r.K)
	}
	return g
}

// grundyT is an eventually periodic Grundy sequence: values[n] for
// n < start+period, then values[start + (n-start) mod period].
type grundyT struct {
	values        []int64
	start, period int64
}

func (t *grundyT) at(n int64) int64 {
	if n < int64(len(t.values)) {
		return t.values[n]
	}
	return t.values[t.start+(n-t.start)%t.period]
}

// grundyCached bounds the tables kept: any set a user types is a key,
// so months of them would otherwise grow without end. The bounds keep
// every set a server plays (a table's values: its preperiod and period)
// and cost a few MiB at most.
const (
	grundyCachedSets   = 1024
	grundyCachedValues = 1 << 20
)

// grundyCache keeps the tables of the sets asked for lately, and the sets
// found to have none (so that a set that fails is not scanned again).
var grundyCache = struct {
	sync.Mutex
	sets   map[string]grundyEntry
	values int // the values the tables hold
}{sets: map[string]grundyEntry{}}

type grundyEntry struct {
	t   *grundyT
	err error
}

// size is what an entry counts against grundyCachedValues.
func (e grundyEntry) size() int {
	if e.t == nil {
		return 1
	}
	return len(e.t.values) + 1
}

// keepGrundy caches e under key, first dropping entries (any: Go's map
// order) until it fits within the bounds.
func keepGrundy(key string, e grundyEntry) {
	c := &grundyCache
	c.Lock()
	defer c.Unlock()
	if old, ok := c.sets[key]; ok {
		c.values -= old.size()
		delete(c.sets, key)
	}
	for k, old := range c.sets {
		if len(c.sets) < grundyCachedSets && c.values+e.size() <= grundyCachedValues {
			break
		}
		c.values -= old.size()
		delete(c.sets, k)
	}
	c.sets[key] = e
	c.values += e.size()
}

// grundyTable runs the mex recurrence g(n) = mex{g(n-s) : s ∈ set, s ≤ n}
// until a window of max(set) values repeats. The window determines every
// later value, so the first repeat gives the shortest preperiod and period.
func grundyTable(set []int) (*grundyT, error) {
	key := fmt.Sprint(set)
	grundyCache.Lock()
	e, ok := grundyCache.sets[key]
	grundyCache.Unlock()
	if ok {
		return e.t, e.err
	}
	t, err := scanGrundy(set)
	keepGrundy(key, grundyEntry{t, err})
	return t, err
}

// scanGrundy is grundyTable's scan, uncached.
func scanGrundy(set []int) (*grundyT, error) {
	m := slices.Max(set)
	seen := map[string]int{}
	var vals []int64
	window := func(n int) string {
		var b strings.Builder
		for _, v := range vals[n : n+m] {
			b.WriteString(strconv.FormatInt(v, 36))
			b.WriteByte(',')
		}
		return b.String()
	}
	for n := 0; n < maxGrundyScan; n++ {
		var used uint64
		for _, s := range set {
			if s <= n && vals[n-s] < 64 {
				used |= 1 << vals[n-s]
			}
		}
		g := int64(0)
		for used&(1<<g) != 0 {
			g++
		}
		vals = append(vals, g)
		if w := n + 1 - m; w >= 0 {
			k := window(w)
			if first, ok := seen[k]; ok {
				// Cloned: the cache counts what a table holds.
				return &grundyT{values: slices.Clone(vals[:w]), start: int64(first), period: int64(w - first)}, nil
			}
			seen[k] = w
		}
	}
	// NamePhrase's "Subtraction {1,3,4}", built here: NamePhrase reads the
	// descriptions, whose initialisation calls this function.
	name := P(pNameParams, "Game", P(Description{Variant: Subtraction}.phraseID("title")), "Params", Lit(setString(set)))
	return nil, invalid(pErrSubPeriod, "Game", name, "Max", maxGrundyScan)
}

// Subtraction's refusals of a set and of a move.
var (
	pErrSubPeriod  = def("err.rules.subtraction.period", "", "{{.Game}}: its Grundy values do not repeat within {{.Max}} heap sizes; choose a smaller set")
	pErrSubExactly = def("err.move.subtraction.exactly", "", "{{.Game}}: take exactly {{.Amount}}")
	pErrSubUpTo    = def("err.move.subtraction.up_to", "", "{{.Game}}: take 1 to {{.K}}")
	pErrSubAmounts = def("err.move.subtraction.amounts", "", "{{.Game}}: take {{.Amounts}}")
)

// name is the game's name, for refusals that say it.
func (g *subGame) name() Phrase { return g.rules.NamePhrase() }

func (g *subGame) grundy(h int64) int64 {
	if g.tab != nil {
		return g.tab.at(h)
	}
	return h % (g.k + 1)
}

func (g *subGame) check(p Position) error {
	return checkShape(g.name, p, maxHeapsClosed, MaxHeapSize)
}

func (g *subGame) limits() Limits { return Limits{MaxHeaps: maxHeapsClosed, MaxHeap: MaxHeapSize} }

func (g *subGame) minTake() int64 {
	if g.set != nil {
		return g.set[0]
	}
	return 1
}

func (g *subGame) over(p Position) bool {
	for _, h := range p.Heaps {
		if h >= g.minTake() {
			return false
		}
	}
	return true
}

// pNoMoveSet is why heaps that are not all empty allow no move: a set's
// least amount is more than any heap holds (S(1..k) can always take 1).
var pNoMoveSet = def("nomove.subtraction.set", "", "every heap holds less than {{.Least}}, the least amount the set {{.Set}} lets you take")

func (g *subGame) whyNoMove(Position) Phrase {
	if g.set == nil {
		return P(pNoMoveRules) // unreachable: a non-empty heap can give 1
	}
	return P(pNoMoveSet, "Least", g.minTake(), "Set", Lit(setString(int64sToInts(g.set))))
}

// takes lists the amounts one may take from a heap of h, ascending.
func (g *subGame) takes(h int64) []int64 {
	var ts []int64
	if g.set != nil {
		for _, s := range g.set {
			if s <= h {
				ts = append(ts, s)
			}
		}
		return ts
	}
	for t := int64(1); t <= min(g.k, h); t++ {
		ts = append(ts, t)
	}
	return ts
}

func (g *subGame) legal(p Position) []Move {
	var ms []Move
	for i, h := range p.Heaps {
		for _, t := range g.takes(h) {
			ms = append(ms, Move{Kind: Take, Heap: i, Take: t})
		}
	}
	return ms
}

// refuse says which amounts the rules allow, refusing m.
func (g *subGame) refuse(m Move) error {
	switch {
	case g.set == nil && g.k == 1:
		return movePhrase(m, pErrSubExactly, "Game", g.name(), "Amount", 1)
	case g.set == nil:
		return movePhrase(m, pErrSubUpTo, "Game", g.name(), "K", g.k)
	case len(g.set) == 1:
		return movePhrase(m, pErrSubExactly, "Game", g.name(), "Amount", g.set[0])
	}
	amounts := make([]Phrase, len(g.set))
	for i, v := range g.set {
		amounts[i] = Lit(strconv.FormatInt(v, 10))
	}
	return movePhrase(m, pErrSubAmounts, "Game", g.name(), "Amounts", orPhrase(amounts))
}

func (g *subGame) validate(p Position, m Move) error {
	if err := validateTake(g.name, p, m); err != nil {
		return err
	}
	ok := m.Take <= g.k
	if g.set != nil {
		ok = slices.Contains(g.set, m.Take)
	}
	if !ok {
		return g.refuse(m)
	}
	return nil
}

func (g *subGame) apply(p Position, m Move) Position { return applyTake(p, m) }

func (g *subGame) stats(p Position) nimStats {
	var s nimStats
	for _, h := range p.Heaps {
		s.add(g.grundy(h), 1)
	}
	return s
}

func (g *subGame) moverWins(p Position) bool { return g.stats(p).moverWins(g.misere) }

// winning tests each candidate take by the rule on the Grundy values. For
// S(1..k) only the takes landing on value g⊕X, 0 or 1 can win, and each value
// is reached by at most one take in 1..k, so huge k costs nothing.
func (g *subGame) winning(p Position, max int) ([]Move, int64) {
	s := g.stats(p)
	var ms []Move
	var n int64
	var buf [3]int64 // at most three takes per heap for S(1..k)
	for i, h := range p.Heaps {
		r := g.grundy(h)
		ts := buf[:0]
		if g.set != nil {
			ts = g.set // only those ≤ h are legal; see below
		} else {
			m := g.k + 1
			for _, v := range []int64{r ^ s.x, 0, 1} {
				if v > g.k {
					continue
				}
				t := ((r-v)%m + m) % m
				if t >= 1 && t <= h && !slices.Contains(ts, t) {
					ts = append(ts, t)
				}
			}
			slices.Sort(ts)
		}
		for _, t := range ts {
			if t > h {
				break // ts is ascending
			}
			if !s.with(r, g.grundy(h-t)).moverWins(g.misere) {
				n++
				if len(ms) < max {
					ms = append(ms, Move{Kind: Take, Heap: i, Take: t})
				}
			}
		}
	}
	return ms, n
}

// The subtraction game's verdicts and explanation. A period of Grundy
// values ("0101232") and a subtraction set ("{1,3,4}") are notation, passed
// as literals.
var (
	pTheoryResidues         = def("explain.theory.residues", "", "residues mod {{.Mod}}")
	pVerdictSubOnesEven     = def("verdict.subtraction.ones_even", "", "Winning: every heap's value is 0 or 1 and {{.Count}} of them are 1 (even); leave an odd number.")
	pVerdictSubOnesOdd      = def("verdict.subtraction.ones_odd", "Losing: every heap's value is 0 or 1 and {{.Count}} of them is 1.", "Losing: every heap's value is 0 or 1 and {{.Count}} of them are 1 (odd).")
	pVerdictSubSwitch       = def("verdict.subtraction.switch", "", "Winning: only one heap has a value of 2 or more; move it to value 0 or 1 so that an odd number of values 1 is left (the misère endgame switch).")
	pVerdictSubResidues     = def("verdict.subtraction.residues", "", "Winning: the nim-sum of the residues is {{.Sum}}, not 0.")
	pVerdictSubGrundy       = def("verdict.subtraction.grundy", "", "Winning: the nim-sum of the Grundy values is {{.Sum}}, not 0.")
	pVerdictSubResiduesZero = def("verdict.subtraction.residues_zero", "", "Losing: the nim-sum of the residues is 0, so every move hands your opponent a win.")
	pVerdictSubGrundyZero   = def("verdict.subtraction.grundy_zero", "", "Losing: the nim-sum of the Grundy values is 0, so every move hands your opponent a win.")
	pColMod                 = def("table.mod", "", "mod {{.Mod}}")
	pColGrundyShort         = def("table.grundy", "", "Grundy")
	pSubResidues            = def("explain.subtraction.residues", "", "Taking 1 to {{.K}} from a heap is Nim on each heap's residue mod {{.Mod}}: whatever your opponent takes, t, you can take {{.Mod}} − t and restore the residue.")
	pSubPeriod              = def("explain.subtraction.period", "", "A heap's Grundy value is the smallest number not among the values of the heaps one move away (mex); under {{.Set}} they repeat with period {{.Period}} from heap {{.Start}}: {{.Values}}.")
	pSubBefore              = def("explain.subtraction.before", "", "Before that, heaps 0 to {{.Last}} have the values {{.Values}}.")
	pSubSpragueGrundy       = def("explain.subtraction.sprague_grundy", "", "A sum of heaps is won for the player to move exactly when the nim-sum (XOR) of the Grundy values is not 0 (Sprague–Grundy).")
	pSubSum                 = def("explain.subtraction.sum", "", "The nim-sum of the values is {{.Sum}}.")
	pSubMisere              = def("explain.subtraction.misere", "", "In misère play, play Nim on the values while some value is 2 or more; when every value is 0 or 1, leave an odd number of 1s so your opponent makes the last move.")
	pSubUnproven            = def("explain.subtraction.unproven", "", "(For subtraction sets other than 1..k this misère rule is checked by exhaustive search on small positions but not proven.)")
	pSubAllZero             = def("explain.subtraction.all_zero", "", "If every residue is 0, take {{.K}} from any heap: that leaves one residue of 1.")
	pSubLost                = def("explain.subtraction.lost", "", "No move leaves a lost position for your opponent: the player to move loses against perfect play.")
	pSubMove                = def("explain.subtraction.move", "", "Take {{.Take}} from {{.Heap}}: {{.Size}} becomes {{.Left}}, value {{.Value}}, and your opponent is left in a lost position.")
)

func (g *subGame) theory() Phrase {
	if g.set == nil {
		return P(pTheoryResidues, "Mod", g.k+1)
	}
	return P(pTheoryGrundy)
}

func (g *subGame) verdict(p Position) Phrase {
	s := g.stats(p)
	if g.misere && s.big == 0 {
		if s.ones%2 == 0 {
			return P(pVerdictSubOnesEven, "Count", s.ones)
		}
		return P(pVerdictSubOnesOdd, "Count", s.ones)
	}
	if g.misere && s.big == 1 {
		return P(pVerdictSubSwitch)
	}
	if s.x != 0 {
		if g.set != nil {
			return P(pVerdictSubGrundy, "Sum", s.x)
		}
		return P(pVerdictSubResidues, "Sum", s.x)
	}
	if g.set != nil {
		return P(pVerdictSubGrundyZero)
	}
	return P(pVerdictSubResiduesZero)
}

// sequence shows one period of the Grundy values compactly: "0101232" when
// every value is a digit, else comma-separated; long ones are cut.
func (t *grundyT) sequence(from, n int64) string {
	var parts []string
	digits := true
	for i := from; i < from+n && i < from+40; i++ {
		v := t.at(i)
		if v > 9 {
			digits = false
		}
		parts = append(parts, strconv.FormatInt(v, 10))
	}
	sep := ","
	if digits {
		sep = ""
	}
	s := strings.Join(parts, sep)
	if n > 40 {
		s += "…"
	}
	return s
}

func (g *subGame) explain(p Position, a Analysis) Explanation {
	s := g.stats(p)
	e := Explanation{Theory: g.theory()}
	col := P(pColMod, "Mod", g.k+1)
	if g.set != nil {
		col = P(pColGrundyShort)
	}
	if len(p.Heaps) <= maxTableRows {
		t := &Table{Header: []Phrase{P(pColHeap), P(pColSize), col, P(pColBinary)}}
		width := len(strconv.FormatInt(max(s.x, 1), 2))
		for _, h := range p.Heaps {
			width = max(width, len(strconv.FormatInt(g.grundy(h), 2)))
		}
		bin := func(v int64) string {
			b := strconv.FormatInt(v, 2)
			return strings.Repeat("0", width-len(b)) + b
		}
		for i, h := range p.Heaps {
			v := g.grundy(h)
			t.Rows = append(t.Rows, lit(HeapLabel(i), strconv.FormatInt(h, 10), strconv.FormatInt(v, 10), bin(v)))
		}
		t.Total = row(P(pColNimSum), "", strconv.FormatInt(s.x, 10), bin(s.x))
		e.Table = t
	}
	if g.set == nil {
		e.Steps = append(e.Steps, P(pSubResidues, "K", g.k, "Mod", g.k+1))
	} else {
		e.Steps = append(e.Steps, P(pSubPeriod, "Set", Lit(setString(int64sToInts(g.set))), "Period", g.tab.period, "Start", g.tab.start, "Values", Lit(g.tab.sequence(g.tab.start, g.tab.period))))
		if g.tab.start > 0 {
			e.Steps = append(e.Steps, P(pSubBefore, "Last", g.tab.start-1, "Values", Lit(g.tab.sequence(0, g.tab.start))))
		}
		e.Steps = append(e.Steps, P(pSubSpragueGrundy))
	}
	e.Steps = append(e.Steps, P(pSubSum, "Sum", s.x))
	if g.misere {
		e.Steps = append(e.Steps, P(pSubMisere))
		if g.set != nil {
			e.Steps = append(e.Steps, P(pSubUnproven))
		} else {
			e.Steps = append(e.Steps, P(pSubAllZero, "K", g.k))
		}
	}
	ms, _ := a.first(3)
	if len(ms) == 0 {
		e.Steps = append(e.Steps, P(pSubLost))
	}
	for _, m := range ms {
		h := p.Heaps[m.Heap]
		e.Steps = append(e.Steps, P(pSubMove, "Take", m.Take, "Heap", HeapLabel(m.Heap), "Size", h, "Left", h-m.Take, "Value", g.grundy(h-m.Take)))
	}
	return e
}

func int64sToInts(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

func (g *subGame) takeBounds(_ Position, h int64) ([]int64, int64) {
	if len(g.set) > 0 {
		return g.set, 0
	}
	return nil, g.k
}
