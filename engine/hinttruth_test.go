package engine

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHintTextIsTrue holds what a hint tells a player to the independent
// solver of bruteforce_test.go, over every small position of every variant
// in both conventions. checkAgreement proves the engine's verdicts and move
// lists; this proves the words around them: the verdict's "Winning" or
// "Losing", every move a step recommends (it must leave the opponent lost),
// every count of winning moves, every "the player to move wins/loses", and
// every "make the XOR 0" (each move that does so must win, which misère
// play breaks when only one heap holds 2 or more). Grundy values here come
// from the mex recurrence over the rules of play, not from the engine.
//
// Every phrase a verdict or an explanation uses must be listed in
// hintClaims, with the check of what it asserts or as a general statement
// of the theory: a new phrase is reviewed here before it ships.
func TestHintTextIsTrue(t *testing.T) {
	short := testing.Short() || raceEnabled
	pick := func(full, small []int64) []int64 {
		if short {
			return small
		}
		return full
	}
	var cases []truthCase
	sum := func(name string, r Rules, children func(Position) []Position, bounds []int64) {
		cases = append(cases, truthCase{name: name, rules: r, children: children, sum: true, canon: true,
			each: func(f func(Position)) { eachSmall(bounds, f) }})
	}
	sum("nim", Rules{Variant: Nim}, takeChildren(anyTake), pick([]int64{9, 7, 5, 4}, []int64{7, 5, 3}))
	for k := 1; k <= 3; k++ {
		sum(fmt.Sprintf("S(1..%d)", k), Rules{Variant: Subtraction, K: k},
			takeChildren(func(_ Position, _ int, n int64) bool { return n <= int64(k) }), pick([]int64{12, 9, 6}, []int64{9, 6, 4}))
	}
	for _, set := range [][]int{{1, 3, 4}, {2, 5, 6}} {
		sum(setString(set), Rules{Variant: Subtraction, Set: set},
			takeChildren(func(_ Position, _ int, n int64) bool { return slices.Contains(set, int(n)) }), pick([]int64{14, 10, 6}, []int64{10, 7, 4}))
	}
	sum("lasker", Rules{Variant: Lasker}, laskerChildren, pick([]int64{16, 9, 6, 4}, []int64{12, 7, 4}))
	sum("kayles", Rules{Variant: Kayles}, kaylesChildren, pick([]int64{18, 10, 6, 4}, []int64{14, 7, 4}))
	cases = append(cases,
		truthCase{name: "greedy", rules: Rules{Variant: Greedy}, canon: true,
			children: takeChildren(func(p Position, i int, _ int64) bool { return p.Heaps[i] == slices.Max(p.Heaps) }),
			each:     func(f func(Position)) { eachSmall(pick([]int64{8, 6, 5, 4}, []int64{6, 4, 3}), f) }},
		truthCase{name: "wythoff", rules: Rules{Variant: Wythoff}, children: wythoffChildren,
			each: func(f func(Position)) {
				eachHeaps(2, pick([]int64{25}, []int64{14})[0], func(h []int64) { f(Position{Heaps: h}) })
			}},
		truthCase{name: "fibonacci", rules: Rules{Variant: Fibonacci}, children: fibonacciChildren,
			each: func(f func(Position)) {
				for n := int64(0); n <= pick([]int64{34}, []int64{22})[0]; n++ {
					for l := int64(0); l <= 2*n+2; l++ {
						f(Position{Heaps: []int64{n}, Limit: l})
					}
				}
			}},
	)
	for k := 1; k <= 3; k++ {
		cases = append(cases, truthCase{name: fmt.Sprintf("moore k=%d", k), rules: Rules{Variant: Moore, K: k}, canon: true,
			children: mooreChildren(k), each: func(f func(Position)) { eachSmall(pick([]int64{7, 6, 4, 3}, []int64{5, 4, 2}), f) }})
	}
	for k := 1; k <= 4; k++ {
		for _, target := range []int{1, 7, 21} {
			k, target := k, target
			cases = append(cases, truthCase{name: fmt.Sprintf("21 k=%d target=%d", k, target), rules: Rules{Variant: TwentyOne, K: k, Target: target},
				children: takeChildren(func(_ Position, _ int, n int64) bool { return n <= int64(k) }),
				each: func(f func(Position)) {
					for h := int64(0); h <= int64(target); h++ {
						f(Position{Heaps: []int64{h}})
					}
				}})
		}
	}
	used := map[string]bool{}
	for _, tc := range cases {
		for _, misere := range []bool{false, true} {
			r := tc.rules
			r.Misere = misere
			t.Run(fmt.Sprintf("%s misere=%v", tc.name, misere), func(t *testing.T) {
				o := newOracle(misere, tc.children, tc.canon)
				var gr *grundyOf
				if tc.sum {
					gr = &grundyOf{children: tc.children, memo: map[int64]int64{}}
				}
				failures := 0
				tc.each(func(p Position) {
					if failures >= 5 {
						return
					}
					if msg := checkHintText(r, p, o, gr, used); msg != "" {
						failures++
						t.Errorf("%s: %s", FormatGame(r, p), msg)
					}
				})
			})
		}
	}
	// A check the sweep never ran proves nothing: each must meet its phrase.
	for _, id := range slices.Sorted(maps.Keys(hintClaims)) {
		if hintClaims[id] != nil && !used[id] {
			t.Errorf("no position of the sweep says %s: its check never ran", id)
		}
	}
}

// truthCase is one family of small positions with its rules of play.
type truthCase struct {
	name     string
	rules    Rules
	children func(Position) []Position // the exact positions the legal moves lead to
	sum      bool                      // a sum of independent heaps: Grundy values apply
	canon    bool                      // heap order and empty heaps do not matter
	each     func(func(Position))
}

// oracle answers who wins from the solver's game tree, with positions
// reduced to a multiset of heaps where their order cannot matter.
type oracle struct {
	exact func(Position) []Position
	canon bool
	tree  *treeGame
}

func newOracle(misere bool, exact func(Position) []Position, canon bool) *oracle {
	o := &oracle{exact: exact, canon: canon}
	o.tree = &treeGame{misere: misere, children: func(p Position) []Position {
		kids := exact(p)
		for i, k := range kids {
			kids[i] = o.key(k)
		}
		return kids
	}}
	return o
}

func (o *oracle) key(p Position) Position {
	if o.canon {
		return multisetPos(p)
	}
	return p
}

func (o *oracle) wins(p Position) bool { return o.tree.wins(o.key(p)) }

// winningKids lists the exact positions the mover's winning moves lead to,
// each once.
func (o *oracle) winningKids(p Position) []Position {
	var out []Position
	seen := map[string]bool{}
	for _, c := range o.exact(p) {
		if k := posKey(c); !seen[k] && !o.wins(c) {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// grundyOf is a heap's Grundy value by the mex recurrence over the rules of
// play: a move from one heap may leave several (a split), worth their XOR.
type grundyOf struct {
	children func(Position) []Position
	memo     map[int64]int64
}

func (g *grundyOf) heap(h int64) int64 {
	if v, ok := g.memo[h]; ok {
		return v
	}
	seen := map[int64]bool{}
	for _, c := range g.children(Position{Heaps: []int64{h}}) {
		seen[g.xor(c.Heaps)] = true
	}
	var v int64
	for seen[v] {
		v++
	}
	g.memo[h] = v
	return v
}

func (g *grundyOf) xor(heaps []int64) int64 {
	var x int64
	for _, h := range heaps {
		x ^= g.heap(h)
	}
	return x
}

// hintFacts is what a claim is checked against: one position and the truth
// about it.
type hintFacts struct {
	r  Rules
	p  Position
	o  *oracle
	gr *grundyOf // nil unless the game is a sum of heaps
}

// hintClaim checks what one phrase asserts about the position; it returns
// what is false, or "".
type hintClaim func(f hintFacts, ph Phrase) string

// checkHintText checks the verdict and every step of p's hint.
// used records the phrases met.
func checkHintText(r Rules, p Position, o *oracle, gr *grundyOf, used map[string]bool) string {
	h, err := r.Hint(p)
	if err == ErrGameOver {
		return ""
	}
	if err != nil {
		return "Hint: " + err.Error()
	}
	f := hintFacts{r: r, p: p, o: o, gr: gr}
	wins := o.wins(p)
	if h.MoverWins != wins {
		return fmt.Sprintf("Hint says mover wins=%v, the solver %v", h.MoverWins, wins)
	}
	word := map[bool]string{true: "Winning", false: "Losing"}[wins]
	if v := h.Verdict.String(); !strings.HasPrefix(v, word) {
		return fmt.Sprintf("verdict %q, the solver says %s", v, word)
	}
	for _, ph := range append([]Phrase{h.Verdict}, h.Explanation.Steps...) {
		claim, ok := hintClaims[ph.ID]
		used[ph.ID] = true
		if !ok {
			return fmt.Sprintf("phrase %s (%q) is not in hintClaims: say what it claims", ph.ID, ph)
		}
		if claim == nil {
			continue
		}
		if msg := claim(f, ph); msg != "" {
			return fmt.Sprintf("%q: %s", ph, msg)
		}
	}
	return ""
}

// hintClaims is every phrase of a verdict or an explanation: nil for a
// general statement of the theory (or a verdict's bare "Winning"/"Losing",
// checked for every verdict), else the check of its claim about the position.
var hintClaims = map[string]hintClaim{
	// Nim.
	pVerdictOnesEven:  nil,
	pVerdictOnesOdd:   nil,
	pVerdictNimSwitch: claimSwitchTake,
	pVerdictNimSum:    claimZeroWins,
	pVerdictNimZero:   nil,
	pNimBinary:        claimXORArg("Sum"),
	pNimMisere:        nil,
	pNimSwitch:        nil,
	pNimOnesEven:      claimWins,
	pNimOnesOdd:       claimLoses,
	pNimZeroLoses:     nil,
	pNimZero:          claimLoses,
	pNimMove:          claimTakeWins,
	pNimSwitchMove:    claimTakeWins,
	// Subtraction games.
	pVerdictSubOnesEven:     nil,
	pVerdictSubOnesOdd:      nil,
	pVerdictSubSwitch:       claimSwitchTake,
	pVerdictSubResidues:     nil,
	pVerdictSubGrundy:       nil,
	pVerdictSubResiduesZero: nil,
	pVerdictSubGrundyZero:   nil,
	pSubResidues:            nil,
	pSubPeriod:              nil,
	pSubBefore:              nil,
	pSubSpragueGrundy:       nil,
	pSubSum:                 claimXORArg("Sum"),
	pSubMisere:              nil,
	pSubUnproven:            nil,
	pSubAllZero:             nil,
	pSubLost:                claimLoses,
	pSubMove:                claimTakeWins,
	// Lasker's Nim.
	pVerdictLaskerXOR:    claimZeroWins,
	pVerdictLaskerZero:   nil,
	pVerdictLaskerSwitch: claimSwitchTake,
	pLaskerWorth:         nil,
	pLaskerXOR:           claimXORArg("XOR"),
	pLaskerOnesEven:      claimWins,
	pLaskerOnesOdd:       claimLoses,
	pLaskerTame:          nil,
	pLaskerZero:          claimLoses,
	pLaskerNonZero:       claimZeroWins,
	pLaskerSwitch:        claimLaskerSwitch,
	pLaskerSplitOnes:     claimSplitWins,
	pLaskerSplit:         claimSplitWins,
	pLaskerTakeOnes:      claimTakeWins,
	pLaskerTake:          claimTakeWins,
	pAllWinning:          claimCount,
	// Kayles.
	pVerdictKaylesXOR:        claimZeroWins,
	pVerdictKaylesZero:       nil,
	pVerdictKaylesSearchWin:  claimCount,
	pVerdictKaylesSearchLose: nil,
	pKaylesWorth:             nil,
	pKaylesPeriod:            nil,
	pKaylesXOR:               claimXORArg("XOR"),
	pKaylesZero:              claimLoses,
	pKaylesNonZero:           claimZeroWins,
	pKaylesMove:              claimKnockWins,
	pKMSearch:                nil,
	pKMNimWrongWins:          claimMisereNimSays(true),
	pKMNimWrongLoses:         claimMisereNimSays(false),
	pKMLoses:                 claimLoses,
	pKMWins:                  claimAll(claimWins, claimCount),
	pKMMove:                  claimKnockWins,
	// Greedy Nim.
	pVerdictGreedyOnesEven: nil,
	pVerdictGreedyOnesOdd:  nil,
	pVerdictGreedyOdd:      nil,
	pVerdictGreedyEven:     nil,
	pGreedyTouch:           nil,
	pGreedyEven:            nil,
	pGreedyMisere:          nil,
	pGreedyHere:            nil,
	pGreedyLost:            claimLoses,
	pGreedyMove:            claimAll(claimTakeWins, claimMovesCount),
	// Moore's Nim (the move itself is a described move, from the analysis
	// checkAgreement proves; its count is checked here).
	pVerdictMooreOnesWin:  nil,
	pVerdictMooreOnesLose: nil,
	pVerdictMooreBit:      nil,
	pVerdictMooreZero:     nil,
	pMooreBinary:          nil,
	pMooreTheorem:         nil,
	pMooreMisere:          nil,
	pMooreLost:            claimLoses,
	pMooreMove:            claimMovesCount,
	// Wythoff.
	pVerdictWythoffWin:  nil,
	pVerdictWythoffLose: nil,
	pWythoffPairs:       nil,
	pWythoffMisere:      nil,
	pWythoffLoses:       claimLoses,
	pWythoffWins:        claimWins,
	pWythoffDiagonal:    claimDiagonalWins,
	pWythoffTake:        claimTakeWins,
	// Fibonacci Nim.
	pVerdictFibLastToken:  nil,
	pVerdictFibWin:        nil,
	pVerdictFibWinMisere:  nil,
	pVerdictFibLose:       nil,
	pVerdictFibLoseMisere: nil,
	pFibZeckendorf:        nil,
	pFibMisere:            nil,
	pFibLastToken:         claimLoses,
	pFibSum:               nil,
	pFibWins:              claimWins,
	pFibTakeLast:          claimFibTakeWins,
	pFibTakeAll:           claimFibTakeWins,
	pFibTake:              claimFibTakeWins,
	pFibTakeMisere:        claimFibTakeWins,
	pFibEvery:             claimFibEvery,
	pFibLoses:             claimLoses,
	// The 21 game.
	pVerdict21Win:  claimSayWins,
	pVerdict21Lose: nil,
	p21Misere:      nil,
	p21Normal:      nil,
	p21Answer:      nil,
	p21Lost:        claimLoses,
	p21Say:         claimSayWins,
	p21SayThen:     claimSayWins,
}

func claimWins(f hintFacts, _ Phrase) string {
	if !f.o.wins(f.p) {
		return "says the player to move wins; the solver says they lose"
	}
	return ""
}

func claimLoses(f hintFacts, _ Phrase) string {
	if f.o.wins(f.p) {
		return "says the player to move loses; the solver says they win"
	}
	return ""
}

func claimAll(cs ...hintClaim) hintClaim {
	return func(f hintFacts, ph Phrase) string {
		for _, c := range cs {
			if msg := c(f, ph); msg != "" {
				return msg
			}
		}
		return ""
	}
}

// claimZeroWins: the player to move wins by making the Grundy values' XOR
// 0, so some move does, and every move that does leaves the opponent lost.
func claimZeroWins(f hintFacts, _ Phrase) string {
	if f.gr == nil {
		return "speaks of an XOR in a game that is no sum of heaps"
	}
	if !f.o.wins(f.p) {
		return "says the player to move wins; the solver says they lose"
	}
	any := false
	for _, c := range f.o.exact(f.p) {
		if f.gr.xor(c.Heaps) != 0 {
			continue
		}
		any = true
		if f.o.wins(c) {
			return fmt.Sprintf("says making the XOR 0 wins, but the move to %v makes it 0 and the opponent wins", c.Heaps)
		}
	}
	if !any {
		return "says a move can make the XOR 0; none can"
	}
	return ""
}

// claimSwitchTake: only one heap's value is 2 or more, and taking from it
// down to a value of 0 or 1 with an odd number of 1s left wins.
func claimSwitchTake(f hintFacts, _ Phrase) string {
	if f.gr == nil {
		return "speaks of values in a game that is no sum of heaps"
	}
	big := -1
	for i, h := range f.p.Heaps {
		if f.gr.heap(h) >= 2 {
			if big >= 0 {
				return "says only one heap holds 2 or more; more do"
			}
			big = i
		}
	}
	if big < 0 {
		return "says one heap holds 2 or more; none does"
	}
	found := false
	for t := int64(1); t <= f.p.Heaps[big]; t++ {
		c := Position{Heaps: slices.Clone(f.p.Heaps)}
		c.Heaps[big] -= t
		if !slices.ContainsFunc(f.o.exact(f.p), func(k Position) bool { return posKey(k) == posKey(c) }) {
			continue // not a legal take
		}
		ones, small := 0, true
		for _, h := range c.Heaps {
			v := f.gr.heap(h)
			small = small && v <= 1
			if v == 1 {
				ones++
			}
		}
		if !small || ones%2 == 0 {
			continue
		}
		found = true
		if f.o.wins(c) {
			return fmt.Sprintf("says the switch wins, but the move to %v leaves the opponent a win", c.Heaps)
		}
	}
	if !found {
		return "says the big heap can be cut to leave an odd number of 1s; no take does"
	}
	return ""
}

// claimLaskerSwitch checks misère Lasker's switch step: heap Heap is the one
// heap of 2 or more; the moves that win are exactly those leaving only 0s
// and 1s with an odd number of 1s, and the splits that keep a part of 2 or
// more and make the XOR 0; a move to XOR 0 with only 0s and 1s left loses.
func claimLaskerSwitch(f hintFacts, ph Phrase) string {
	i, msg := heapArg(f.p, ph, "Heap")
	if msg != "" {
		return msg
	}
	for j, h := range f.p.Heaps {
		if (h >= 2) != (j == i) {
			return fmt.Sprintf("names heap %s as the only one of 2 or more", HeapLabel(i))
		}
	}
	if !f.o.wins(f.p) {
		return "says the player to move wins; the solver says they lose"
	}
	for _, c := range f.o.exact(f.p) {
		ones, big := 0, 0
		for _, h := range c.Heaps {
			if h >= 2 {
				big++
			} else if h == 1 {
				ones++
			}
		}
		x := f.gr.xor(c.Heaps)
		split := len(c.Heaps) > len(f.p.Heaps)
		said := (big == 0 && ones%2 == 1) || (split && big > 0 && x == 0)
		if said != !f.o.wins(c) {
			return fmt.Sprintf("the move to %v: the step says it wins=%v, the solver %v", c.Heaps, said, !f.o.wins(c))
		}
		if big == 0 && x == 0 && !f.o.wins(c) {
			return fmt.Sprintf("says a move to XOR 0 with only 0s and 1s loses; the move to %v wins", c.Heaps)
		}
	}
	return ""
}

// claimMisereNimSays checks "the misère Nim rule on the Grundy values would
// say the player to move wins (or loses)".
func claimMisereNimSays(wins bool) hintClaim {
	return func(f hintFacts, _ Phrase) string {
		x, big, ones := f.gr.xor(f.p.Heaps), false, 0
		for _, h := range f.p.Heaps {
			v := f.gr.heap(h)
			big = big || v >= 2
			if v == 1 {
				ones++
			}
		}
		if says := (big && x != 0) || (!big && ones%2 == 0); says != wins {
			return fmt.Sprintf("says the misère Nim rule gives wins=%v; it gives %v", wins, says)
		}
		return ""
	}
}

// claimXORArg: the argument name is the XOR of the heaps' Grundy values.
func claimXORArg(name string) hintClaim {
	return func(f hintFacts, ph Phrase) string {
		v, ok := intArg(ph, name)
		if !ok {
			return "has no number " + name
		}
		if f.gr == nil {
			return "speaks of an XOR in a game that is no sum of heaps"
		}
		if x := f.gr.xor(f.p.Heaps); v != x {
			return fmt.Sprintf("says the XOR is %d; it is %d", v, x)
		}
		return ""
	}
}

// claimCount: Count is the number of winning moves.
func claimCount(f hintFacts, ph Phrase) string {
	n, ok := intArg(ph, "Count")
	if !ok {
		return "has no Count"
	}
	if want := len(f.o.winningKids(f.p)); n != int64(want) {
		return fmt.Sprintf("counts %d winning moves; there are %d", n, want)
	}
	return ""
}

// claimMovesCount: the phrase Moves counts the winning moves.
func claimMovesCount(f hintFacts, ph Phrase) string {
	v, _ := ph.Arg("Moves")
	inner, ok := v.(Phrase)
	if !ok || inner.ID != pWinningMoves {
		return "has no count of winning moves"
	}
	return claimCount(f, inner)
}

// leavesLost reports whether the move to c leaves the opponent lost.
func leavesLost(f hintFacts, c Position) string {
	if !slices.ContainsFunc(f.o.exact(f.p), func(k Position) bool { return posKey(k) == posKey(c) }) {
		return fmt.Sprintf("recommends a move to %v, which is not legal", c.Heaps)
	}
	if f.o.wins(c) {
		return fmt.Sprintf("recommends the move to %v, which leaves the opponent a win", c.Heaps)
	}
	return ""
}

func claimTakeWins(f hintFacts, ph Phrase) string {
	i, msg := heapArg(f.p, ph, "Heap")
	if msg != "" {
		return msg
	}
	t, ok := intArg(ph, "Take")
	if !ok {
		return "has no Take"
	}
	c := Position{Heaps: slices.Clone(f.p.Heaps)}
	c.Heaps[i] -= t
	return leavesLost(f, c)
}

func claimDiagonalWins(f hintFacts, ph Phrase) string {
	t, ok := intArg(ph, "Take")
	if !ok {
		return "has no Take"
	}
	return leavesLost(f, Position{Heaps: []int64{f.p.Heaps[0] - t, f.p.Heaps[1] - t}})
}

// claimSplitWins: split heap Heap into A and B (1 and 1 when the phrase
// names no parts).
func claimSplitWins(f hintFacts, ph Phrase) string {
	i, msg := heapArg(f.p, ph, "Heap")
	if msg != "" {
		return msg
	}
	a, okA := intArg(ph, "A")
	b, okB := intArg(ph, "B")
	if !okA && !okB {
		a, b = 1, 1
	}
	c := Position{Heaps: slices.Clone(f.p.Heaps)}
	c.Heaps[i] = a
	c.Heaps = slices.Insert(c.Heaps, i+1, b)
	if msg := leavesLost(f, c); msg != "" {
		return msg
	}
	if g, ok := intArg(ph, "G"); ok {
		others := slices.Delete(slices.Clone(f.p.Heaps), i, i+1)
		if x := f.gr.xor(others); g != x {
			return fmt.Sprintf("says the other heaps XOR to %d; they XOR to %d", g, x)
		}
	}
	return ""
}

// claimKnockWins: knock pins out of row Row, leaving rows A and B.
func claimKnockWins(f hintFacts, ph Phrase) string {
	i, msg := heapArg(f.p, ph, "Row")
	if msg != "" {
		return msg
	}
	a, okA := intArg(ph, "A")
	b, okB := intArg(ph, "B")
	if !okA || !okB {
		return "has no rows A and B"
	}
	c := Position{Heaps: slices.Clone(f.p.Heaps)}
	c.Heaps[i] = a
	if b > 0 {
		c.Heaps = slices.Insert(c.Heaps, i+1, b)
	}
	return leavesLost(f, c)
}

func claimFibTakeWins(f hintFacts, ph Phrase) string {
	z, ok := intArg(ph, "Z")
	if !ok {
		return "has no Z"
	}
	return leavesLost(f, Position{Heaps: []int64{f.p.Heaps[0] - z}, Limit: 2 * z})
}

// claimFibEvery: Takes lists every winning take, and only those.
func claimFibEvery(f hintFacts, ph Phrase) string {
	var said []int64
	var walk func(v any)
	walk = func(v any) {
		if q, ok := v.(Phrase); ok && q.ID == pOr {
			a, _ := q.Arg("A")
			b, _ := q.Arg("B")
			walk(a)
			walk(b)
			return
		}
		if n, ok := toInt(v); ok {
			said = append(said, n)
		}
	}
	v, _ := ph.Arg("Takes")
	walk(v)
	var want []int64
	for _, c := range f.o.winningKids(f.p) {
		want = append(want, f.p.Heaps[0]-c.Heaps[0])
	}
	slices.Sort(said)
	slices.Sort(want)
	if !slices.Equal(said, want) {
		return fmt.Sprintf("lists the winning takes %v; they are %v", said, want)
	}
	return ""
}

// claimSayWins: saying Say leaves the opponent lost.
func claimSayWins(f hintFacts, ph Phrase) string {
	say, ok := intArg(ph, "Say")
	if !ok {
		return "has no Say"
	}
	return leavesLost(f, Position{Heaps: []int64{int64(f.r.Target) - say}})
}

// heapArg reads a heap's letter.
func heapArg(p Position, ph Phrase, name string) (int, string) {
	v, _ := ph.Arg(name)
	s, _ := v.(string)
	for i := range p.Heaps {
		if HeapLabel(i) == s {
			return i, ""
		}
	}
	return 0, fmt.Sprintf("names no heap of the position as %s (%v)", name, v)
}

// intArg reads a number, given as an integer or as digits.
func intArg(ph Phrase, name string) (int64, bool) {
	v, ok := ph.Arg(name)
	if !ok {
		return 0, false
	}
	return toInt(v)
}

func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case string:
		x, err := strconv.ParseInt(n, 10, 64)
		return x, err == nil
	case Phrase:
		if n.ID == "" {
			return toInt(n.Text)
		}
	}
	return 0, false
}
