package engine

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// verdicter is implemented by variants that can say in their own theory why
// a position is won or lost, in one line.
type verdicter interface {
	verdict(p Position) Phrase
}

// The verdicts of variants without a theory of their own.
var (
	pVerdictWinningCount = def("verdict.winning_count", "Winning: {{.Count}} of your moves leaves your opponent lost.", "Winning: {{.Count}} of your moves leave your opponent lost.")
	pVerdictLosing       = def("verdict.losing", "", "Losing: every move leaves your opponent a won position; hold out and hope for a mistake.")
)

// Hint gives the three levels of help for the player to move: the verdict,
// the move the engine would play (in a lost position, its best hold-out,
// with how it was judged in HoldOut), and the explanation in the variant's
// theory. A finished game gets ErrGameOver.
func (r Rules) Hint(p Position) (Hint, error) {
	r, g, err := r.game()
	if err != nil {
		return Hint{}, err
	}
	if err := checkAll(r, g, p); err != nil {
		return Hint{}, err
	}
	if isOver(g, p) {
		return Hint{}, ErrGameOver
	}
	a := analyze(r, g, p)
	m, hold := best(r, g, p, a)
	h := Hint{MoverWins: a.MoverWins, Move: m, HoldOut: hold, Explanation: g.explain(p, a)}
	if v, ok := g.(verdicter); ok {
		h.Verdict = v.verdict(p)
	} else if a.MoverWins {
		h.Verdict = P(pVerdictWinningCount, "Count", a.WinningCount)
	} else {
		h.Verdict = P(pVerdictLosing)
	}
	return h, nil
}

// mistakeRate is how often each difficulty plays a random move instead of
// the best one.
func mistakeRate(d Difficulty) (float64, error) {
	switch d {
	case Easy:
		return 0.6, nil
	case Medium:
		return 0.3, nil
	case Hard:
		return 0.1, nil
	case Perfect:
		return 0, nil
	}
	return 0, invalidf("no difficulty %q: choose easy, medium, hard or perfect", string(d))
}

// Choose picks the bot's move. At Perfect it plays a winning move whenever
// there is one, the one that wins soonest where the game tree is small enough
// to search; in a lost position it plays the move that holds out longest
// (where the search can measure every move) and leaves the fewest winning
// replies. Easy, Medium and Hard play a random
// legal move instead with probability 0.6, 0.3 and 0.1, drawn from rng
// (which Perfect never touches and may be nil).
func (r Rules) Choose(p Position, d Difficulty, rng *rand.Rand) (Move, error) {
	rate, err := mistakeRate(d)
	if err != nil {
		return Move{}, err
	}
	r, g, err := r.game()
	if err != nil {
		return Move{}, err
	}
	if err := checkAll(r, g, p); err != nil {
		return Move{}, err
	}
	if isOver(g, p) {
		return Move{}, ErrGameOver
	}
	if rate > 0 {
		if rng == nil {
			return Move{}, invalidf("difficulty %s needs a random source", d)
		}
		if rng.Float64() < rate {
			if m, ok := randomMove(g, p, rng); ok {
				return m, nil
			}
		}
	}
	return bestMove(r, g, p, analyze(r, g, p)), nil
}

// bestMove is best without how it was judged.
func bestMove(r Rules, g game, p Position, a Analysis) Move {
	m, _ := best(r, g, p, a)
	return m
}

// best is the perfect player's move (a is p's analysis) and, in a lost
// position, how it was judged as a hold-out.
func best(r Rules, g game, p Position, a Analysis) (Move, HoldOut) {
	s := newSearcher(g, r.Misere, p)
	if a.MoverWins && len(a.Winning) > 0 {
		if s == nil {
			return a.Winning[0], HoldOutUnjudged
		}
		bestM, bestR := a.Winning[0], math.MaxInt
		for _, m := range a.Winning {
			rem := s.remoteness(s.child(0, p, m))
			if s.aborted {
				return a.Winning[0], HoldOutUnjudged
			}
			if rem < bestR {
				bestM, bestR = m, rem
			}
		}
		return bestM, HoldOutUnjudged
	}
	// Lost (or, with a broken rule, no listed win): hold out.
	cands, every := holdoutCandidates(g, p)
	type score struct {
		rem     int
		replies int64
	}
	if len(cands) == 0 {
		if len(a.Winning) > 0 {
			return a.Winning[0], HoldOutUnjudged
		}
		return Move{}, HoldOutUnjudged // unreachable for a game that is not over
	}
	if len(cands) == 1 {
		if every {
			return cands[0], HoldOutLongest // the only move
		}
		return cands[0], HoldOutUnjudged // a large position: one candidate fits the budget
	}
	scores := make([]score, len(cands))
	for i, m := range cands {
		var q Position
		if s != nil {
			q = s.child(0, p, m) // used only in this iteration
		} else {
			q = g.apply(clonePos(p), m)
		}
		scores[i].rem = -1
		if s != nil && !s.aborted {
			scores[i].rem = s.remoteness(q)
		}
		if !isOver(g, q) {
			_, scores[i].replies = g.winning(q, 0)
		} else if r.Misere {
			// The opponent cannot move and has won: no hold-out at all,
			// though it leaves no winning reply to count.
			scores[i].replies = math.MaxInt64
		}
	}
	measured := s != nil && !s.aborted
	if !measured {
		// Remoteness known for only some candidates would bias the choice.
		for i := range scores {
			scores[i].rem = -1
		}
	}
	best := 0
	for i, sc := range scores {
		if sc.rem > scores[best].rem || (sc.rem == scores[best].rem && sc.replies < scores[best].replies) {
			best = i
		}
	}
	switch {
	case !every:
		return cands[best], HoldOutUnjudged // the best of a sample
	case measured:
		return cands[best], HoldOutLongest
	}
	return cands[best], HoldOutFewestReplies
}

// maxHoldoutWork bounds the work of judging a lost position's candidate
// moves (candidates times heaps; judging one heap applies the move and
// counts the winning replies), so that Choose keeps within its 5 ms on the
// largest positions, Nim and Greedy Nim on 64 heaps of 64.
const maxHoldoutWork = 1 << 14

// holdoutCandidates are the moves judged in a lost position: every legal move
// when there are few (every is then true), else small takes from as many
// heaps as the budget allows.
// Judging a move costs a pass over the heaps, or the variant's cost where
// it has one (Moore's Nim: every set of up to k heaps), and the budget
// holds for both: judging all 377 legal moves of 13 heaps of 1 at k = 3,
// each at Moore's cost, would take far longer than a Choose may.
func holdoutCandidates(g game, p Position) (ms []Move, every bool) {
	perMove, cost := max(1, len(p.Heaps)), len(p.Heaps)+1
	c, costly := g.(coster)
	if costly {
		cost = c.cost(p)
		perMove = cost
	}
	if legalIsSmall(g, p) {
		all := g.legal(p)
		if costly {
			// Many of them lead to the same heaps in another order (on
			// heaps of 1 most do), the same game: one of each is judged.
			all = distinctResults(g, p, all)
		}
		if len(all) > 0 && len(all)*perMove <= maxHoldoutWork*4 {
			return all, true
		}
	}
	limit := max(1, maxHoldoutWork/cost)
	legal := legalTest(g, p)
	// The moves tried carry no Takes, so these fields tell them apart.
	type key struct {
		kind  MoveKind
		heap  int
		take  int64
		parts [2]int64
	}
	seen := map[key]bool{}
	try := func(m Move) {
		k := key{m.Kind, m.Heap, m.Take, m.Parts}
		if len(ms) < limit && !seen[k] && legal(m) {
			seen[k] = true
			ms = append(ms, m)
		}
	}
	// Small takes keep the game long; the other kinds get a few samples
	// each, so every variant has candidates without listing its moves.
	try(Move{Kind: Diagonal, Take: 1})
	for i, h := range p.Heaps {
		if h == 0 {
			continue
		}
		for _, t := range []int64{1, 2, 3, h} {
			if t <= h {
				try(Move{Kind: Take, Heap: i, Take: t})
			}
		}
		try(Move{Kind: Knock, Heap: i, Take: 1, Parts: [2]int64{0, h - 1}})
		try(Move{Kind: Knock, Heap: i, Take: 1, Parts: [2]int64{h / 2, h - 1 - h/2}})
		try(Move{Kind: Knock, Heap: i, Take: 2, Parts: [2]int64{0, h - 2}})
		try(Move{Kind: Split, Heap: i, Parts: [2]int64{1, h - 1}})
		try(Move{Kind: Split, Heap: i, Parts: [2]int64{h / 2, h - h/2}})
	}
	// Subtraction sets may allow none of those takes: try every amount a
	// set can hold, heap by heap, until some are found.
	for i, h := range p.Heaps {
		if len(ms) > 0 {
			break
		}
		for t := int64(1); t <= min(h, maxSetElement); t++ {
			try(Move{Kind: Take, Heap: i, Take: t})
		}
	}
	return ms, false
}

// distinctResults keeps the first of ms that leads to each position, up to
// the order of its heaps (appendCanonKey): the rest are the same game, and score
// the same as hold-outs. Sorting every result makes this only for variants
// whose judging costs far more (coster).
func distinctResults(g game, p Position, ms []Move) []Move {
	seen := make(map[string]bool, len(ms))
	var key []byte
	scratch := make([]int64, 0, 2*len(p.Heaps))
	out := ms[:0:0]
	for _, m := range ms {
		key = appendCanonKey(key[:0], scratch, g.apply(clonePos(p), m))
		if !seen[string(key)] {
			seen[string(key)] = true
			out = append(out, m)
		}
	}
	return out
}

// legalTester is implemented by variants whose validate scans the whole
// position (Greedy Nim looks for the largest heap): legalTest summarizes p
// once and then tells a legal move in O(1), so judging every heap's moves
// stays linear rather than quadratic in the number of heaps.
type legalTester interface {
	legalTest(p Position) func(Move) bool
}

// legalTest returns a test of legality for moves in p: the variant's own
// when it has one, else validate (which formats no message for a legal move).
func legalTest(g game, p Position) func(Move) bool {
	if lt, ok := g.(legalTester); ok {
		return lt.legalTest(p)
	}
	return func(m Move) bool { return g.validate(p, m) == nil }
}

// coster is implemented by variants whose analysis costs more than a pass
// over the heaps; cost is in those units (one unit is about one heap visited).
type coster interface {
	cost(p Position) int
}

// legalIsSmall says whether listing every legal move is cheap.
func legalIsSmall(g game, p Position) bool { return fewMoves(g, p, 8192) }

// randomMove draws a legal move from rng: uniformly when the moves are few,
// else a random take from a random heap (retried until legal).
func randomMove(g game, p Position, rng *rand.Rand) (Move, bool) {
	if legalIsSmall(g, p) {
		ms := g.legal(p)
		if len(ms) == 0 {
			return Move{}, false
		}
		return ms[rng.IntN(len(ms))], true
	}
	legal := legalTest(g, p)
	for range 64 {
		i := rng.IntN(len(p.Heaps))
		if p.Heaps[i] == 0 {
			continue
		}
		m := Move{Kind: Take, Heap: i, Take: rng.Int64N(p.Heaps[i]) + 1}
		if legal(m) {
			return m, true
		}
	}
	ms, _ := holdoutCandidates(g, p)
	if len(ms) == 0 {
		return Move{}, false
	}
	return ms[rng.IntN(len(ms))], true
}

func clonePos(p Position) Position {
	return Position{Heaps: slices.Clone(p.Heaps), Limit: p.Limit}
}

// searchBudget is how many distinct positions a remoteness search may visit,
// and searchWork how many moves it may follow, before giving up (the bot then
// falls back on the rule's first move). They keep Choose within its 5 ms at
// every variant's limits.
const (
	searchBudget = 2_500
	searchWork   = 5_000
)

// costPerWork converts a coster's cost into searchWork: a unit of cost is
// some hundreds of times cheaper than a move followed, and without the
// charge a search could spend far past its budget listing winning moves
// (Moore's Nim, k = 4, on 7 or 8 small heaps).
const costPerWork = 256

// searcher computes remoteness (the number of moves left with perfect play:
// the winner hurries, the loser delays) by memoized search. The verdict of
// every position comes from the variant's rule, so winning positions only
// look at their winning moves.
type searcher struct {
	g       game
	costly  coster // g, where listing winning moves costs more than a move
	misere  bool
	memo    map[string]int
	work    int
	aborted bool
	// heaps are the positions being searched, one buffer per depth
	// (child), and key and sorted the scratch of a memo key (key), reused
	// because a search follows thousands of moves.
	heaps  [][]int64
	key    []byte
	sorted []int64
}

// child is the position after m in p, written into depth's buffer: it is
// valid until the next child of the same depth, which is all a search
// needs (it keeps keys, never positions).
func (s *searcher) child(depth int, p Position, m Move) Position {
	for len(s.heaps) <= depth {
		s.heaps = append(s.heaps, nil)
	}
	q := s.g.apply(Position{Heaps: append(s.heaps[depth][:0], p.Heaps...), Limit: p.Limit}, m)
	s.heaps[depth] = q.Heaps[:0] // apply may have grown it (a split)
	return q
}

// newSearcher returns a searcher when p's game tree is plausibly small enough
// to finish within the budget, else nil (a search that gives up is wasted
// time). Where moves only shrink heaps, the product of (heap+1) bounds the
// positions; where they split rows (Lasker, Kayles), the number of ways to
// write every total up to p's as a sum of rows does.
func newSearcher(g game, misere bool, p Position) *searcher {
	size := 1.0
	var total int64
	for _, h := range p.Heaps {
		size *= float64(h + 1)
		total += h
		if size > 1e5 {
			return nil
		}
	}
	// A root with more moves than the search may follow would only give
	// up; and listing them (below) is the cost to avoid.
	if !fewMoves(g, p, searchWork) {
		return nil
	}
	// Only the variants whose moves add heaps split or knock; the others'
	// moves need not be listed to know.
	splits := false
	if _, ok := g.(grower); ok {
		for _, m := range g.legal(p) {
			if m.Kind == Split || m.Kind == Knock {
				splits = true
				break
			}
		}
	}
	if splits && partitionsUpTo(total) > searchBudget {
		return nil
	}
	c, _ := g.(coster)
	return &searcher{g: g, costly: c, misere: misere, memo: map[string]int{}}
}

// partitionsUpTo is the number of multisets of positive rows with sum at
// most n: p(0) + p(1) + … + p(n).
func partitionsUpTo(n int64) float64 {
	parts := make([]float64, n+1)
	parts[0] = 1
	for k := int64(1); k <= n; k++ {
		for j := k; j <= n; j++ {
			parts[j] += parts[j-k]
		}
	}
	var sum float64
	for _, v := range parts {
		sum += v
	}
	return sum
}

// appendCanonKey appends to b a key that identifies p up to heap order and
// empty heaps, which no variant's play depends on, sorting its heaps in
// scratch.
func appendCanonKey(b []byte, scratch []int64, p Position) []byte {
	hs := scratch[:0]
	for _, h := range p.Heaps {
		if h != 0 {
			hs = append(hs, h)
		}
	}
	slices.Sort(hs)
	b = binary.AppendVarint(b, p.Limit)
	for _, h := range hs {
		b = binary.AppendUvarint(b, uint64(h))
	}
	return b
}

// remoteness is p's remoteness; depth is how many moves p is below the
// search's root (p itself is in the buffer of depth-1, see child).
func (s *searcher) remoteness(p Position) int { return s.remotenessAt(1, p) }

func (s *searcher) remotenessAt(depth int, p Position) int {
	if s.aborted {
		return 0
	}
	// The key's bytes look the memo up in place; only a new entry makes
	// a string of them.
	if cap(s.sorted) < len(p.Heaps) {
		s.sorted = make([]int64, 0, 2*len(p.Heaps))
	}
	s.key = appendCanonKey(s.key[:0], s.sorted, p)
	if v, ok := s.memo[string(s.key)]; ok {
		return v
	}
	if len(s.memo) >= searchBudget || s.work >= searchWork {
		s.aborted = true
		return 0
	}
	k := string(s.key)
	s.memo[k] = 0 // placeholder; positions never repeat (every move shrinks the game)
	var rem int
	switch {
	case isOver(s.g, p):
		rem = 0
	case s.g.moverWins(p):
		ms, _ := s.g.winning(p, math.MaxInt)
		s.work += len(ms)
		if s.costly != nil {
			s.work += s.costly.cost(p) / costPerWork
		}
		rem = math.MaxInt
		for _, m := range ms {
			rem = min(rem, 1+s.remotenessAt(depth+1, s.child(depth, p, m)))
		}
		if len(ms) == 0 {
			rem = 0
		}
	default:
		// Listing the moves is the cost; where they are too many for
		// what is left of the budget (Moore's k heaps at once), give up
		// before listing them.
		if !fewMoves(s.g, p, float64(searchWork-s.work)) {
			s.aborted = true
			return 0
		}
		ms := s.g.legal(p)
		s.work += len(ms)
		for _, m := range ms {
			rem = max(rem, 1+s.remotenessAt(depth+1, s.child(depth, p, m)))
		}
	}
	s.memo[k] = rem
	return rem
}

// Review replays a game from start and returns every move that turned a won
// position into a lost one, with a winning alternative. An illegal move is an
// error naming its ply.
func (r Rules) Review(start Position, moves []Move) ([]Mistake, error) {
	r, g, err := r.game()
	if err != nil {
		return nil, err
	}
	if err := checkAll(r, g, start); err != nil {
		return nil, err
	}
	var out []Mistake
	p := clonePos(start)
	for i, m := range moves {
		if err := g.check(p); err != nil {
			return out, err
		}
		if isOver(g, p) {
			return out, fmt.Errorf("move %d: %w", i+1, ErrGameOver)
		}
		if err := g.validate(p, m); err != nil {
			return out, fmt.Errorf("move %d: %w", i+1, err)
		}
		a := analyze(r, g, p)
		q := g.apply(clonePos(p), m)
		if a.MoverWins && moverWinsAt(r, g, q) {
			out = append(out, Mistake{Ply: i, Played: m, Better: bestMove(r, g, p, a), Before: clonePos(p)})
		}
		p = q
	}
	return out, nil
}

// moverWinsAt is the verdict for the player to move, counting a finished game.
func moverWinsAt(r Rules, g game, p Position) bool {
	if isOver(g, p) {
		return r.Misere
	}
	return g.moverWins(p)
}

// Describe is DescribeMove in English (the terminal, logs).
func (r Rules) Describe(p Position, m Move) string { return r.DescribeMove(p, m).String() }

// How a move reads in the move log.
var (
	pMoveSays      = def("move.says", "", "says {{.Numbers}}")
	pMoveCountsUp  = def("move.counts_up", "", "counts up from {{.From}} to {{.To}}")
	pMoveTakes     = def("move.takes", "", "takes {{.Take}}")
	pMoveTakesFrom = def("move.takes_from", "", "takes {{.Take}} from {{.Heap}}")
	pMoveTakesAB   = def("move.takes_both", "", "takes {{.Take}} from A and B")
	pMoveTakesList = def("move.takes_list", "", "takes {{.Parts}}")
	pMovePart      = def("move.part", "", "{{.Take}} from {{.Heap}}")
	pMoveSplits    = def("move.splits", "", "splits {{.Heap}} into {{.A}} and {{.B}}")
	pMoveKnocks2   = def("move.knocks_two", "", "knocks down pins {{.First}} and {{.Second}} of row {{.Row}}")
	pMoveKnocks1   = def("move.knocks_one", "", "knocks down pin {{.Pin}} of row {{.Row}}")
	pMoveUnknown   = def("move.unknown", "", "makes an unknown move")
	pAnd2          = def("move.and", "", "{{.A}} and {{.B}}")
	pListComma     = def("move.list", "", "{{.A}}, {{.B}}")
)

// DescribeMove phrases move m, played in position p, for the move log:
// "takes 2 from C", "takes 3 from A and B", "takes 2 from A and 1 from C",
// "splits B into 2 and 3", "knocks down pin 4 of row B", "says 5, 6, 7"
// (the 21 game).
func (r Rules) DescribeMove(p Position, m Move) Phrase {
	if r.Variant == TwentyOne && m.Kind == Take && len(p.Heaps) == 1 {
		n, err := r.Normalize()
		if err == nil {
			c := int64(n.Target) - p.Heaps[0]
			if m.Take <= 5 {
				var said []string
				for i := int64(1); i <= m.Take; i++ {
					said = append(said, fmt.Sprint(c+i))
				}
				return P(pMoveSays, "Numbers", Lit(strings.Join(said, ", ")))
			}
			return P(pMoveCountsUp, "From", c+1, "To", c+m.Take)
		}
	}
	return describeMove(p, m)
}

// andPhrase joins items as "A, B and C" in the reader's language.
func andPhrase(items []Phrase) Phrase { return listPhrase(items, pAnd2) }

// listPhrase joins items with commas and, before the last, the phrase
// last ("{{.A}} and {{.B}}", "{{.A}} or {{.B}}").
func listPhrase(items []Phrase, last string) Phrase {
	switch len(items) {
	case 0:
		return Lit("")
	case 1:
		return items[0]
	}
	head := items[0]
	for _, it := range items[1 : len(items)-1] {
		head = P(pListComma, "A", head, "B", it)
	}
	return P(last, "A", head, "B", items[len(items)-1])
}

func describeMove(p Position, m Move) Phrase {
	switch m.Kind {
	case Take:
		if len(p.Heaps) == 1 {
			return P(pMoveTakes, "Take", m.Take)
		}
		return P(pMoveTakesFrom, "Take", m.Take, "Heap", HeapLabel(m.Heap))
	case Diagonal:
		return P(pMoveTakesAB, "Take", m.Take)
	case Multi:
		var heaps, parts []Phrase
		same := true
		var first int64
		for i, t := range m.Takes {
			if t == 0 {
				continue
			}
			if first == 0 {
				first = t
			} else if t != first {
				same = false
			}
			heaps = append(heaps, Lit(HeapLabel(i)))
			parts = append(parts, P(pMovePart, "Take", t, "Heap", HeapLabel(i)))
		}
		if same && first > 0 {
			return P(pMoveTakesFrom, "Take", first, "Heap", andPhrase(heaps))
		}
		return P(pMoveTakesList, "Parts", andPhrase(parts))
	case Split:
		return P(pMoveSplits, "Heap", HeapLabel(m.Heap), "A", m.Parts[0], "B", m.Parts[1])
	case Knock:
		if m.Take == 2 {
			return P(pMoveKnocks2, "First", m.Parts[0]+1, "Second", m.Parts[0]+2, "Row", HeapLabel(m.Heap))
		}
		return P(pMoveKnocks1, "Pin", m.Parts[0]+1, "Row", HeapLabel(m.Heap))
	}
	return P(pMoveUnknown)
}
