package engine

// HeapLabel names heap i as players see it: 0→"A" … 25→"Z", 26→"AA", 27→"AB",
// like spreadsheet columns. A negative i has no label and gives "?".
func HeapLabel(i int) string {
	if i < 0 {
		return "?"
	}
	var b []byte
	for i++; i > 0; i = (i - 1) / 26 {
		b = append(b, byte('A'+(i-1)%26))
	}
	for l, r := 0, len(b)-1; l < r; l, r = l+1, r-1 {
		b[l], b[r] = b[r], b[l]
	}
	return string(b)
}

// labelIndex is HeapLabel's inverse; it returns -1 for anything else.
func labelIndex(s string) int {
	if s == "" || len(s) > 4 {
		return -1
	}
	n := 0
	for _, c := range s {
		switch {
		case c >= 'A' && c <= 'Z':
			n = n*26 + int(c-'A'+1)
		case c >= 'a' && c <= 'z':
			n = n*26 + int(c-'a'+1)
		default:
			return -1
		}
	}
	return n - 1
}

// labelRange says which heaps exist: "the heaps are A to C", "the only heap is A".
func labelRange(n int) Phrase {
	switch n {
	case 0:
		return P(pHeapsNone)
	case 1:
		return P(pHeapsOne)
	}
	return P(pHeapsRange, "Last", HeapLabel(n-1))
}

var (
	pHeapsNone  = def("err.heaps.none", "", "there are no heaps")
	pHeapsOne   = def("err.heaps.only", "", "the only heap is A")
	pHeapsRange = def("err.heaps.range", "", "the heaps are A to {{.Last}}")
)

// orPhrase joins phrases as "A", "A or D", "A, B or D", in the reader's
// language.
func orPhrase(items []Phrase) Phrase { return listPhrase(items, pErrOr) }

// movePhrase builds the *MoveError a validator returns: why m is refused,
// as phrase id with its arguments. Every refusal is a phrase, so a player
// reads it in their language (TestRefusalsInEveryLocale in package locale
// renders them all).
func movePhrase(m Move, id string, nameValues ...any) error {
	ph := P(id, nameValues...)
	return &MoveError{Move: m, Reason: ph.String(), phrase: ph}
}

// The refusals of a move every heap game shares.
var (
	pErrNoHeap      = def("err.move.no_heap", "", "no heap {{.Heap}}: {{.Heaps}}")
	pErrOneHeap     = def("err.move.one_heap", "", "{{.Game}}: take from one heap at a time (like B3)")
	pErrTakeOne     = def("err.move.take_one", "", "take at least 1")
	pErrHeapEmpty   = def("err.move.heap_empty", "", "heap {{.Heap}} is empty")
	pErrHeapTooMany = def("err.move.too_many", "", "heap {{.Heap}} has {{.Has}}, you asked for {{.Take}}")
)

// validateTake checks a Take move against the heaps: the heap exists, the
// amount is at least 1 and at most what the heap holds. Variant rules (which
// amounts, which heaps) are checked by the caller afterwards. name is the
// game's name, asked for only when a refusal says it (every move is
// validated; few are refused).
func validateTake(name func() Phrase, p Position, m Move) error {
	if m.Kind != Take {
		return movePhrase(m, pErrOneHeap, "Game", name())
	}
	if m.Heap < 0 || m.Heap >= len(p.Heaps) {
		return movePhrase(m, pErrNoHeap, "Heap", HeapLabel(m.Heap), "Heaps", labelRange(len(p.Heaps)))
	}
	if m.Take < 1 {
		return movePhrase(m, pErrTakeOne)
	}
	h := p.Heaps[m.Heap]
	if h == 0 {
		return movePhrase(m, pErrHeapEmpty, "Heap", HeapLabel(m.Heap))
	}
	if m.Take > h {
		return movePhrase(m, pErrHeapTooMany, "Heap", HeapLabel(m.Heap), "Has", h, "Take", m.Take)
	}
	return nil
}

// applyTake applies a validated Take to p, which the caller owns.
func applyTake(p Position, m Move) Position {
	p.Heaps[m.Heap] -= m.Take
	return p
}

// takeMove is the Take move from heap i to size v.
func takeMove(p Position, i int, v int64) Move {
	return Move{Kind: Take, Heap: i, Take: p.Heaps[i] - v}
}

// taker is implemented by variants that bound how much one Take removes by
// their own rules (a subtraction set, 1..k, Fibonacci's limit).
type taker interface {
	// takes returns the allowed amounts when they are a set, else nil and
	// the most one Take may remove from a heap of h in p.
	takeBounds(p Position, h int64) (set []int64, top int64)
}

// Takes lists the amounts one Take from heap i may remove by the rules' own
// bounds (a subtraction set, 1..K, Fibonacci's limit), smallest first, and
// at most limit of them: enough for a menu to know when it would overflow.
// Constraints between heaps (Greedy Nim's largest heap) are left to Apply.
// An invalid heap or rules give nil.
func (r Rules) Takes(p Position, i int, limit int) []int64 {
	_, g, err := r.game()
	if err != nil || i < 0 || i >= len(p.Heaps) || limit < 1 {
		return nil
	}
	h := p.Heaps[i]
	top := h
	if t, ok := g.(taker); ok {
		set, most := t.takeBounds(p, h)
		if set != nil {
			var out []int64
			for _, s := range set {
				if s <= h && len(out) < limit {
					out = append(out, s)
				}
			}
			return out
		}
		top = min(top, most)
	}
	top = min(top, int64(limit))
	out := make([]int64, 0, max(top, 0))
	for t := int64(1); t <= top; t++ {
		out = append(out, t)
	}
	return out
}
