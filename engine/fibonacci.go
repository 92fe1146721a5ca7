package engine

import (
	"fmt"
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

func (g fibonacciGame) name() string {
	if g.misere {
		return "Misère Fibonacci Nim"
	}
	return "Fibonacci Nim"
}

func (g fibonacciGame) check(p Position) error {
	if len(p.Heaps) != 1 {
		return invalidf("%s is played on one heap, not %d", g.name(), len(p.Heaps))
	}
	n := p.Heaps[0]
	if n < 0 {
		return invalidf("%s: the heap has %d; it cannot be negative", g.name(), n)
	}
	if n > MaxHeapSize {
		return invalidf("%s: the heap has %d; it holds at most %d", g.name(), n, MaxHeapSize)
	}
	if p.Limit < 0 {
		return invalidf("%s: the limit is %d; it cannot be negative", g.name(), p.Limit)
	}
	if p.Limit > 2*MaxHeapSize {
		return invalidf("%s: the limit is %d; it is at most %d", g.name(), p.Limit, 2*MaxHeapSize)
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
	if err := validateTake(g.name(), p, m); err != nil {
		return err
	}
	if m.Take > p.Limit {
		if p.Limit == p.Heaps[0]-1 && m.Take == p.Heaps[0] {
			return moveErr(m, "%s: at most %d this turn (the first move may not take the whole heap)", g.name(), p.Limit)
		}
		return moveErr(m, "%s: at most %d this turn (twice what was just taken)", g.name(), p.Limit)
	}
	return nil
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

func (g fibonacciGame) verdict(p Position) string {
	if g.over(p) {
		return "The game is over."
	}
	e := g.effective(p.Heaps[0])
	if e == 0 {
		return "Losing: only the last token is left, and in misère play whoever takes it loses."
	}
	terms := zeckendorf(e)
	z := terms[len(terms)-1]
	of := ""
	if g.misere {
		of = fmt.Sprintf(" (play as if on %d: nobody wants the last token)", e)
	}
	if z <= p.Limit {
		return fmt.Sprintf("Winning: %d = %s%s, and its smallest term %d is within your limit of %d.", e, joinInts(terms, " + "), of, z, p.Limit)
	}
	return fmt.Sprintf("Losing: %d = %s%s, and its smallest term %d is more than your limit of %d.", e, joinInts(terms, " + "), of, z, p.Limit)
}

func (g fibonacciGame) explain(p Position) Explanation {
	n := p.Heaps[0]
	ex := Explanation{Theory: "Zeckendorf"}
	step := func(format string, args ...any) { ex.Steps = append(ex.Steps, fmt.Sprintf(format, args...)) }
	if g.over(p) {
		if n == 0 {
			step("The heap is empty, so the game is over.")
		} else {
			step("Nothing may be taken (the limit is 0), so the game is over.")
		}
		if g.misere {
			step("In misère play the player who cannot move wins.")
		} else {
			step("In normal play the player who cannot move loses.")
		}
		return ex
	}
	step("Every whole number is one sum of Fibonacci numbers (1, 2, 3, 5, 8, 13, …) with no two neighbours: its Zeckendorf representation.")
	e := g.effective(n)
	if g.misere {
		step("In misère play nobody wants the last token, so play as in normal play on %d, one fewer than the heap.", e)
		if e == 0 {
			step("Only the last token is left: the player to move must take it and loses.")
			return ex
		}
	}
	terms := zeckendorf(e)
	z := terms[len(terms)-1]
	ex.Table = &Table{Header: []string{"heap", "Zeckendorf terms", "smallest", "limit"},
		Rows: [][]string{{strconv.FormatInt(e, 10), joinInts(terms, " + "), strconv.FormatInt(z, 10), strconv.FormatInt(p.Limit, 10)}}}
	step("%d = %s.", e, joinInts(terms, " + "))
	if z <= p.Limit {
		step("The smallest term, %d, is at most the limit %d, so the player to move wins.", z, p.Limit)
		ms, _ := g.winning(p, MaxListedMoves)
		rest := e - z
		switch {
		case rest == 0 && g.misere:
			step("Taking %d leaves only the last token, which the opponent must take.", z)
		case rest == 0:
			step("Taking %d empties the heap.", z)
		default:
			left := ""
			if g.misere {
				left = fmt.Sprintf(" (%d with the last token)", rest+1)
			}
			step("Taking %d leaves %d = %s%s with a limit of %d, below its smallest term %d: the opponent cannot take that term, and whatever they take you can answer the same way.",
				z, rest, joinInts(terms[:len(terms)-1], " + "), left, 2*z, zmin(rest))
		}
		if len(ms) > 1 {
			var ts []int64
			for _, m := range ms {
				ts = append(ts, m.Take)
			}
			step("Every winning move: take %s (each leaves a heap whose smallest term is more than twice the take).", joinInts(ts, " or "))
		}
	} else {
		step("The smallest term, %d, is more than the limit %d, so the player to move loses against perfect play: any take t leaves a heap whose smallest term is at most 2t, which the opponent may take.", z, p.Limit)
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
