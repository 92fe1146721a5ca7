package engine

import (
	"strconv"
	"strings"
)

func init() {
	variants[Fibonacci] = func(r Rules) game { return fibonacciGame{misere: r.Misere} }
}

// fibTerms holds the Fibonacci numbers 1, 2, 3, 5, 8, … that Zeckendorf
// representations are made of, up to the first one beyond MaxHeapSize.
var fibTerms = func() []int64 {
	f := []int64{1, 2}
	for f[len(f)-1] <= 2*MaxHeapSize {
		f = append(f, f[len(f)-1]+f[len(f)-2])
	}
	return f
}()

// zeckendorf writes n ≥ 0 as a sum of non-consecutive Fibonacci numbers,
// largest first (Zeckendorf's theorem: the greedy choice gives the unique
// such sum). zeckendorf(0) is empty.
func zeckendorf(n int64) []int64 {
	var terms []int64
	for i := len(fibTerms) - 1; i >= 0 && n > 0; i-- {
		if fibTerms[i] <= n {
			terms = append(terms, fibTerms[i])
			n -= fibTerms[i]
		}
	}
	return terms
}

// zmin is the smallest term of n's Zeckendorf representation, n ≥ 1.
func zmin(n int64) int64 {
	t := zeckendorf(n)
	return t[len(t)-1]
}

// fibonacciGame is Fibonacci Nim: one heap, Position.Limit is the most the
// player to move may take (the opening limit is n−1, and after taking t the
// next limit is 2t).
//
// Normal play: (n, L) is a win for the mover iff the smallest Zeckendorf term
// z of n is at most L. Misère play is normal play on one token fewer: nobody
// wants to take the last token, so the last token is dead weight and the game
// is really about the n−1 others (N iff n ≥ 2 and zmin(n−1) ≤ L); only the
// finished positions differ, where the player who cannot move wins.
type fibonacciGame struct{ misere bool }

// name is the game's name, for refusals that say it.
func (g fibonacciGame) name() Phrase { return Rules{Variant: Fibonacci, Misere: g.misere}.NamePhrase() }

// Fibonacci's refusals of a position: one heap, and a limit.
var (
	pErrFibHeaps         = def("err.position.fibonacci.heaps", "", "{{.Game}} is played on one heap, not {{.Heaps}}")
	pErrFibHeapNegative  = def("err.position.fibonacci.heap_negative", "", "{{.Game}}: the heap has {{.Has}}; it cannot be negative")
	pErrFibHeapMax       = def("err.position.fibonacci.heap_max", "", "{{.Game}}: the heap has {{.Has}}; it holds at most {{.Max}}")
	pErrFibLimitNegative = def("err.position.fibonacci.limit_negative", "", "{{.Game}}: the limit is {{.Limit}}; it cannot be negative")
	pErrFibLimitMax      = def("err.position.fibonacci.limit_max", "", "{{.Game}}: the limit is {{.Limit}}; it is at most {{.Max}}")
)

func (g fibonacciGame) check(p Position) error {
	if len(p.Heaps) != 1 {
		return invalid(pErrFibHeaps, "Game", g.name(), "Heaps", len(p.Heaps))
	}
	n := p.Heaps[0]
	if n < 0 {
		return invalid(pErrFibHeapNegative, "Game", g.name(), "Has", n)
	}
	if n > MaxHeapSize {
		return invalid(pErrFibHeapMax, "Game", g.name(), "Has", n, "Max", MaxHeapSize)
	}
	if p.Limit < 0 {
		return invalid(pErrFibLimitNegative, "Game", g.name(), "Limit", p.Limit)
	}
	if p.Limit > 2*MaxHeapSize {
		return invalid(pErrFibLimitMax, "Game", g.name(), "Limit", p.Limit, "Max", 2*MaxHeapSize)
	}
	return nil
}

func (g fibonacciGame) limits() Limits { return Limits{MaxHeaps: 1, MaxHeap: MaxHeapSize} }

func (g fibonacciGame) over(p Position) bool { return p.Heaps[0] == 0 || p.Limit == 0 }

// most is the most the player to move may take: the limit, or the whole heap.
func (g fibonacciGame) most(p Position) int64 { return min(p.Limit, p.Heaps[0]) }

func (g fibonacciGame) legal(p Position) []Move {
	var ms []Move
	for t := int64(1); t <= g.most(p); t++ {
		ms = append(ms, Move{Kind: Take, Heap: 0, Take: t})
	}
	return ms
}

func (g fibonacciGame) validate(p Position, m Move) error {
	if err := validateTake(g.name, p, m); err != nil {
		return err
	}
	if m.Take > p.Limit {
		return movePhrase(m, g.limitReason(p), "Game", g.name(), "Limit", p.Limit)
	}
	return nil
}

// Why a take over the limit is refused. The position does not record
// whether a move has been made: the opening's limit is the heap less one,
// a later one twice the last take, so only an odd limit tells them apart.
var (
	pErrFibFirst  = def("err.move.fibonacci.first", "", "{{.Game}}: at most {{.Limit}} this turn (the first move may not take the whole heap)")
	pErrFibTwice  = def("err.move.fibonacci.twice", "", "{{.Game}}: at most {{.Limit}} this turn (twice what was just taken)")
	pErrFibEither = def("err.move.fibonacci.either", "", "{{.Game}}: at most {{.Limit}} this turn (the first move may not take the whole heap, and each later one at most twice what was just taken)")
	pErrFibLimit  = def("err.move.fibonacci.limit", "", "{{.Game}}: at most {{.Limit}} this turn")
)

// Why a Fibonacci heap that is not empty has no move: the limit is 0, which
// play reaches only at the opening on a heap of 1 (a later limit is twice
// a take); a position set by hand may have it elsewhere.
var (
	pNoMoveFibFirst = def("nomove.fibonacci.first", "", "the first move may not take the whole heap, and the heap holds only 1")
	pNoMoveFibLimit = def("nomove.fibonacci.limit", "", "the most that may be taken now is 0")
)

func (g fibonacciGame) whyNoMove(p Position) Phrase {
	if p.Heaps[0] == 1 {
		return P(pNoMoveFibFirst)
	}
	return P(pNoMoveFibLimit)
}

// limitReason is the phrase that says why p's limit holds. A take over it
// can only be the whole heap when the limit is the heap less one.
func (g fibonacciGame) limitReason(p Position) string {
	opening := p.Limit == p.Heaps[0]-1
	switch {
	case p.Limit%2 == 1 && opening:
		return pErrFibFirst // no take doubles to an odd limit
	case p.Limit%2 == 1:
		return pErrFibLimit // a position set by hand, neither opening nor reply
	case opening:
		return pErrFibEither // the opening on an odd heap, or a reply that looks like it
	}
	return pErrFibTwice
}

func (g fibonacciGame) apply(p Position, m Move) Position {
	p.Heaps[0] -= m.Take
	p.Limit = 2 * m.Take
	return p
}

// effective is the heap the rule looks at: n in normal play, n−1 in misère
// play (the last token is never taken willingly).
func (g fibonacciGame) effective(n int64) int64 {
	if g.misere {
		return n - 1
	}
	return n
}

func (g fibonacciGame) moverWins(p Position) bool {
	if g.over(p) {
		return g.misere
	}
	e := g.effective(p.Heaps[0])
	return e >= 1 && zmin(e) <= p.Limit
}

// winning derives the winning moves from the rule. A move t from heap e (the
// effective heap) wins iff it empties it or leaves m = e−t with zmin(m) > 2t.
// Then t < zmin(m)/2 < the Fibonacci number below zmin(m), so the Zeckendorf
// terms of t and m together are those of e: every winning t is a sum of the
// smallest few terms of e. There are at most about 60 such sums, and each is
// tested against the rule, so the list is complete and exact.
func (g fibonacciGame) winning(p Position, max int) ([]Move, int64) {
	if g.over(p) {
		return nil, 0
	}
	e := g.effective(p.Heaps[0])
	terms := zeckendorf(e)
	var ms []Move
	var n int64
	var t int64
	for i := len(terms) - 1; i >= 0; i-- {
		t += terms[i]
		if t > g.most(p) {
			break
		}
		if m := e - t; m == 0 || zmin(m) > 2*t {
			n++
			if len(ms) < max {
				ms = append(ms, Move{Kind: Take, Heap: 0, Take: t})
			}
		}
	}
	return ms, n
}

// Fibonacci Nim's verdicts and explanation. A sum of Zeckendorf terms
// ("13 + 3 + 1") is notation, passed as a literal.
var (
	pVerdictOver          = def("verdict.over", "", "The game is over.")
	pVerdictFibLastToken  = def("verdict.fibonacci.last_token", "", "Losing: only the last token is left, and in misère play whoever takes it loses.")
	pVerdictFibWin        = def("verdict.fibonacci.win", "", "Winning: {{.N}} = {{.Terms}}, and its smallest term {{.Z}} is within your limit of {{.Limit}}.")
	pVerdictFibWinMisere  = def("verdict.fibonacci.win_misere", "", "Winning: {{.N}} = {{.Terms}} (play as if on {{.N}}: nobody wants the last token), and its smallest term {{.Z}} is within your limit of {{.Limit}}.")
	pVerdictFibLose       = def("verdict.fibonacci.lose", "", "Losing: {{.N}} = {{.Terms}}, and its smallest term {{.Z}} is more than your limit of {{.Limit}}.")
	pVerdictFibLoseMisere = def("verdict.fibonacci.lose_misere", "", "Losing: {{.N}} = {{.Terms}} (play as if on {{.N}}: nobody wants the last token), and its smallest term {{.Z}} is more than your limit of {{.Limit}}.")
	pTheoryZeckendorf     = def("explain.theory.zeckendorf", "", "Zeckendorf")
	pFibEmpty             = def("explain.fibonacci.empty", "", "The heap is empty, so the game is over.")
	pFibNoLimit           = def("explain.fibonacci.no_limit", "", "Nothing may be taken (the limit is 0), so the game is over.")
	pFibOverMisere        = def("explain.fibonacci.over_misere", "", "In misère play the player who cannot move wins.")
	pFibOverNormal        = def("explain.fibonacci.over_normal", "", "In normal play the player who cannot move loses.")
	pFibZeckendorf        = def("explain.fibonacci.zeckendorf", "", "Every whole number is one sum of Fibonacci numbers (1, 2, 3, 5, 8, 13, …) with no two neighbours: its Zeckendorf representation.")
	pFibMisere            = def("explain.fibonacci.misere", "", "In misère play nobody wants the last token, so play as in normal play on {{.N}}, one fewer than the heap.")
	pFibLastToken         = def("explain.fibonacci.last_token", "", "Only the last token is left: the player to move must take it and loses.")
	pColZeckendorf        = def("table.zeckendorf_terms", "", "Zeckendorf terms")
	pColSmallest          = def("table.smallest", "", "smallest")
	pColLimit             = def("table.limit", "", "limit")
	pFibSum               = def("explain.fibonacci.sum", "", "{{.N}} = {{.Terms}}.")
	pFibWins              = def("explain.fibonacci.wins", "", "The smallest term, {{.Z}}, is at most the limit {{.Limit}}, so the player to move wins.")
	pFibTakeLast          = def("explain.fibonacci.take_last", "", "Taking {{.Z}} leaves only the last token, which the opponent must take.")
	pFibTakeAll           = def("explain.fibonacci.take_all", "", "Taking {{.Z}} empties the heap.")
	pFibTake              = def("explain.fibonacci.take", "", "Taking {{.Z}} leaves {{.Rest}} = {{.Terms}} with a limit of {{.Limit}}, below its smallest term {{.Smallest}}: the opponent cannot take that term, and whatever they take you can answer the same way.")
	pFibTakeMisere        = def("explain.fibonacci.take_misere", "", "Taking {{.Z}} leaves {{.Rest}} = {{.Terms}} ({{.WithLast}} with the last token) with a limit of {{.Limit}}, below its smallest term {{.Smallest}}: the opponent cannot take that term, and whatever they take you can answer the same way.")
	pFibEvery             = def("explain.fibonacci.every", "", "Every winning move: take {{.Takes}} (each leaves a heap whose smallest term is more than twice the take).")
	pFibLoses             = def("explain.fibonacci.loses", "", "The smallest term, {{.Z}}, is more than the limit {{.Limit}}, so the player to move loses against perfect play: any take t leaves a heap whose smallest term is at most 2t, which the opponent may take.")
	pOr                   = def("explain.or", "", "{{.A}} or {{.B}}")
)

func (g fibonacciGame) verdict(p Position) Phrase {
	if g.over(p) {
		return P(pVerdictOver)
	}
	e := g.effective(p.Heaps[0])
	if e == 0 {
		return P(pVerdictFibLastToken)
	}
	terms := zeckendorf(e)
	z := terms[len(terms)-1]
	id := map[[2]bool]string{
		{true, false}: pVerdictFibWin, {true, true}: pVerdictFibWinMisere,
		{false, false}: pVerdictFibLose, {false, true}: pVerdictFibLoseMisere,
	}[[2]bool{z <= p.Limit, g.misere}]
	return P(id, "N", e, "Terms", Lit(joinInts(terms, " + ")), "Z", z, "Limit", p.Limit)
}

func (g fibonacciGame) explain(p Position, a Analysis) Explanation {
	n := p.Heaps[0]
	ex := Explanation{Theory: P(pTheoryZeckendorf)}
	step := func(id string, args ...any) { ex.Steps = append(ex.Steps, P(id, args...)) }
	if g.over(p) {
		if n == 0 {
			step(pFibEmpty)
		} else {
			step(pFibNoLimit)
		}
		if g.misere {
			step(pFibOverMisere)
		} else {
			step(pFibOverNormal)
		}
		return ex
	}
	step(pFibZeckendorf)
	e := g.effective(n)
	if g.misere {
		step(pFibMisere, "N", e)
		if e == 0 {
			step(pFibLastToken)
			return ex
		}
	}
	terms := zeckendorf(e)
	z := terms[len(terms)-1]
	ex.Table = &Table{Header: []Phrase{P(pColHeap), P(pColZeckendorf), P(pColSmallest), P(pColLimit)},
		Rows: [][]Phrase{lit(strconv.FormatInt(e, 10), joinInts(terms, " + "), strconv.FormatInt(z, 10), strconv.FormatInt(p.Limit, 10))}}
	step(pFibSum, "N", e, "Terms", Lit(joinInts(terms, " + ")))
	if z <= p.Limit {
		step(pFibWins, "Z", z, "Limit", p.Limit)
		ms := a.Winning
		rest := e - z
		switch {
		case rest == 0 && g.misere:
			step(pFibTakeLast, "Z", z)
		case rest == 0:
			step(pFibTakeAll, "Z", z)
		case g.misere:
			step(pFibTakeMisere, "Z", z, "Rest", rest, "Terms", Lit(joinInts(terms[:len(terms)-1], " + ")), "WithLast", rest+1, "Limit", 2*z, "Smallest", zmin(rest))
		default:
			step(pFibTake, "Z", z, "Rest", rest, "Terms", Lit(joinInts(terms[:len(terms)-1], " + ")), "Limit", 2*z, "Smallest", zmin(rest))
		}
		if len(ms) > 1 {
			takes := P(pOr, "A", ms[len(ms)-2].Take, "B", ms[len(ms)-1].Take)
			for i := len(ms) - 3; i >= 0; i-- {
				takes = P(pOr, "A", ms[i].Take, "B", takes)
			}
			step(pFibEvery, "Takes", takes)
		}
	} else {
		step(pFibLoses, "Z", z, "Limit", p.Limit)
	}
	return ex
}

// joinInts writes numbers joined by sep: "13 + 3 + 1".
func joinInts(v []int64, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, sep)
}

func (g fibonacciGame) takeBounds(p Position, _ int64) ([]int64, int64) {
	if p.Limit > 0 {
		return nil, p.Limit
	}
	return nil, MaxHeapSize
}
