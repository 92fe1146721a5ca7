package engine

import (
	"slices"
	"strconv"
	"sync"
)

// Misère Kayles has no closed form, so it is solved by exhaustive memoized
// search over canonical positions: the multiset of row lengths (sorted, empty
// rows dropped), since neither the order of the rows nor empty rows change
// the game.
//
// A position's key is the pair of sums Σ h1[len], Σ h2[len] over its rows,
// with h1, h2 fixed pseudo-random 64-bit words per length (a Zobrist-style
// hash). It updates in O(1) per move, so the search neither sorts nor builds
// a key when a child is already known. Two different positions
// share a key only if both sums collide: about 2^-120 per pair, far below
// any chance of meeting it within the few million positions a search sees.
//
// Solved positions go into one process-wide table guarded by a mutex: the
// outcome of a Kayles position is a fact, so keeping it across calls only
// saves time (Choose and Review ask about neighbouring positions again and
// again). The table is emptied when full, so memory stays bounded.

// kaylesMisereMaxTotal is the most pins misère Kayles accepts in all: the
// largest total the search solves from an empty table within 50 ms on one
// core, with margin. Play within it reads kayles_table.go's table, which
// covers exactly these positions.
const kaylesMisereMaxTotal = 40

// kaylesMisereMaxRow bounds a row's length in the search (lengths are bytes).
const kaylesMisereMaxRow = 255

// kaylesHash1 and kaylesHash2 are the per-length hash words; length 0 (an
// empty row) hashes to 0, so it is the same as no row.
var kaylesHash1, kaylesHash2 = func() (a, b [256]uint64) {
	s := uint64(0x6b61796c6573) // a fixed seed: the table is deterministic
	next := func() uint64 {     // splitmix64
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for i := 1; i < 256; i++ {
		a[i], b[i] = next(), next()
	}
	return a, b
}()

// kaylesG8 is kaylesG for the row lengths the search handles, as a table.
var kaylesG8 = func() (g [256]int64) {
	for n := range g {
		g[n] = kaylesG(int64(n))
	}
	return g
}()

// kaylesIsOne and kaylesIsBig say whether a row's Grundy value is 1, or 2
// or more.
var kaylesIsOne, kaylesIsBig = func() (one, big [256]int) {
	for n, g := range kaylesG8 {
		if g == 1 {
			one[n] = 1
		} else if g >= 2 {
			big[n] = 1
		}
	}
	return one, big
}()

// kaylesSlot is one entry of the memo: k1 with its low bit set (0 marks an
// empty slot), and k2 with its low bit replaced by the outcome.
type kaylesSlot struct{ k1, k2 uint64 }

// kaylesMemo is an open-addressing hash table of solved positions.
type kaylesMemo struct {
	slots []kaylesSlot
	used  int
}

// kaylesMemoMaxSlots bounds the table: 2^21 slots of 16 bytes, 32 MiB. A
// search at the limit fills about 50,000.
const kaylesMemoMaxSlots = 1 << 21

func (t *kaylesMemo) get(k1, k2 uint64) (win, ok bool) {
	if len(t.slots) == 0 {
		return false, false
	}
	mask := uint64(len(t.slots) - 1)
	a := k1 | 1
	for i := k1 & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.k1 == 0 {
			return false, false
		}
		if s.k1 == a && s.k2>>1 == k2>>1 {
			return s.k2&1 == 1, true
		}
	}
}

func (t *kaylesMemo) put(k1, k2 uint64, win bool) {
	if 2*(t.used+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	a := k1 | 1
	b := k2 &^ 1
	if win {
		b |= 1
	}
	for i := k1 & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.k1 == 0 {
			*s = kaylesSlot{a, b}
			t.used++
			return
		}
		if s.k1 == a && s.k2>>1 == b>>1 {
			s.k2 = b
			return
		}
	}
}

// grow doubles the table, or empties it when it is at its bound.
func (t *kaylesMemo) grow() {
	n := 2 * len(t.slots)
	if n == 0 {
		n = 1 << 16
	}
	if n > kaylesMemoMaxSlots {
		clear(t.slots)
		t.used = 0
		return
	}
	old := t.slots
	t.slots = make([]kaylesSlot, n)
	t.used = 0
	mask := uint64(n - 1)
	for _, s := range old {
		if s.k1 == 0 {
			continue
		}
		for i := s.k1 & mask; ; i = (i + 1) & mask {
			if t.slots[i].k1 == 0 {
				t.slots[i] = s
				t.used++
				break
			}
		}
	}
}

// kaylesCache is the process-wide memo of misère Kayles outcomes.
var kaylesCache struct {
	sync.Mutex
	memo kaylesMemo
}

// resetKaylesCache empties the memo, so benchmarks can time a cold search.
func resetKaylesCache() {
	kaylesCache.Lock()
	kaylesCache.memo = kaylesMemo{}
	kaylesCache.Unlock()
}

// kaylesSearch is one search under the cache's lock.
type kaylesSearch struct {
	memo *kaylesMemo
	// rows[d] is the scratch row list for a child at depth d, reused for
	// every child at that depth.
	rows [][]uint8
	// kids[d] holds the children at depth d left for the second pass.
	kids [][]kaylesChild
}

// kaylesChild is a move in canonical terms: one row of length n becomes rows
// a and b (either may be 0).
type kaylesChild struct {
	n, a, b uint8
	k1, k2  uint64
}

// canonicalRows sorts the non-empty rows and hashes them.
func canonicalRows(heaps []int64) ([]uint8, uint64, uint64) {
	rows := make([]uint8, 0, len(heaps))
	var k1, k2 uint64
	for _, h := range heaps {
		if h > 0 {
			rows = append(rows, uint8(h))
			k1 += kaylesHash1[h]
			k2 += kaylesHash2[h]
		}
	}
	slices.Sort(rows)
	return rows, k1, k2
}

// wins reports whether the player to move wins misère Kayles from rows
// (sorted, no zeros) with key (k1, k2).
func (s *kaylesSearch) wins(rows []uint8, k1, k2 uint64, depth int) bool {
	if len(rows) == 0 {
		return true // no move left: in misère play the player to move wins
	}
	if w, ok := s.memo.get(k1, k2); ok {
		return w
	}
	s.ensure(depth)
	// First pass: a child already known to be lost for the opponent
	// settles it without searching.
	kids := s.kids[depth][:0]
	front := 0
	// The Grundy XOR and the counts of rows worth 1 and 2 or more, for
	// move ordering only (see below).
	var x int64
	var ones, big int
	for _, n := range rows {
		g := kaylesG8[n]
		x ^= g
		ones += kaylesIsOne[n]
		big += kaylesIsBig[n]
	}
	for i, n := range rows {
		if i > 0 && rows[i-1] == n {
			continue // equal rows give the same children
		}
		for t := uint8(1); t <= 2 && t <= n; t++ {
			for a := uint8(0); 2*a <= n-t; a++ { // (a, b) and (b, a) are the same
				b := n - t - a
				c1 := k1 - kaylesHash1[n] + kaylesHash1[a] + kaylesHash1[b]
				c2 := k2 - kaylesHash2[n] + kaylesHash2[a] + kaylesHash2[b]
				if c1 == 0 && c2 == 0 {
					// The last pins: taking them loses in misère play,
					// unless the opponent has a move (not the case here).
					continue
				}
				w, ok := s.memo.get(c1, c2)
				if ok {
					if !w {
						s.kids[depth] = kids
						s.memo.put(k1, k2, true)
						return true
					}
					continue
				}
				kids = append(kids, kaylesChild{n, a, b, c1, c2})
				// The misère Nim rule on Grundy values is wrong for
				// Kayles, but right often enough to be a good guess:
				// children it calls lost are searched first.
				cx := x ^ kaylesG8[n] ^ kaylesG8[a] ^ kaylesG8[b]
				cbig := big - kaylesIsBig[n] + kaylesIsBig[a] + kaylesIsBig[b]
				cones := ones - kaylesIsOne[n] + kaylesIsOne[a] + kaylesIsOne[b]
				if (cbig > 0 && cx == 0) || (cbig == 0 && cones%2 == 1) {
					kids[front], kids[len(kids)-1] = kids[len(kids)-1], kids[front]
					front++
				}
			}
		}
	}
	s.kids[depth] = kids
	// Second pass: search the unknown children.
	win := false
	for i := 0; i < len(s.kids[depth]); i++ {
		c := s.kids[depth][i]
		child := s.childRows(rows, c, depth)
		if !s.wins(child, c.k1, c.k2, depth+1) {
			win = true
			break
		}
	}
	s.memo.put(k1, k2, win)
	return win
}

// ensure makes room for the scratch slices of depth.
func (s *kaylesSearch) ensure(depth int) {
	for len(s.kids) <= depth {
		s.kids = append(s.kids, nil)
		s.rows = append(s.rows, nil)
	}
}

// childRows builds the sorted rows after one row of c.n becomes c.a and c.b,
// in the scratch slice for depth.
func (s *kaylesSearch) childRows(rows []uint8, c kaylesChild, depth int) []uint8 {
	out := s.rows[depth][:0]
	removed := false
	for _, r := range rows {
		if !removed && r == c.n {
			removed = true
			continue
		}
		out = append(out, r)
	}
	for _, v := range [2]uint8{c.a, c.b} {
		if v == 0 {
			continue
		}
		i, _ := slices.BinarySearch(out, v)
		out = slices.Insert(out, i, v)
	}
	s.rows[depth] = out
	return out
}

// kaylesMisereWins is the misère outcome of the rows: from the table within
// kaylesMisereMaxTotal pins, else by search.
func kaylesMisereWins(heaps []int64) bool {
	rows, k1, k2 := canonicalRows(heaps)
	if w, ok := kaylesTableWins(rows); ok {
		return w
	}
	return kaylesSearchWins(rows, k1, k2)
}

// kaylesSearchWins is the misère outcome of the sorted rows by search alone
// (it writes and checks the table).
func kaylesSearchWins(rows []uint8, k1, k2 uint64) bool {
	kaylesCache.Lock()
	defer kaylesCache.Unlock()
	s := kaylesSearch{memo: &kaylesCache.memo}
	return s.wins(rows, k1, k2, 0)
}

// kaylesMisereWinning tests every legal move by looking up (within the
// table) or searching the position it leads to: the winning moves are those
// into a lost position.
func kaylesMisereWinning(p Position, max int) ([]Move, int64) {
	if ms, n, ok := kaylesTableWinning(p, max); ok {
		return ms, n
	}
	return kaylesSearchWinning(p, max)
}

// kaylesSearchWinning is kaylesMisereWinning by search alone.
func kaylesSearchWinning(p Position, max int) ([]Move, int64) {
	rows, k1, k2 := canonicalRows(p.Heaps)
	kaylesCache.Lock()
	defer kaylesCache.Unlock()
	s := kaylesSearch{memo: &kaylesCache.memo}
	if !s.wins(rows, k1, k2, 0) {
		return nil, 0
	}
	s.ensure(0)
	var ms []Move
	var count int64
	for i, h := range p.Heaps {
		n := uint8(h)
		for t := uint8(1); t <= 2 && t <= n; t++ {
			for a := uint8(0); a <= n-t; a++ {
				b := n - t - a
				c := kaylesChild{n, a, b,
					k1 - kaylesHash1[n] + kaylesHash1[a] + kaylesHash1[b],
					k2 - kaylesHash2[n] + kaylesHash2[a] + kaylesHash2[b]}
				if c.k1 == 0 && c.k2 == 0 {
					continue // taking the last pins loses in misère play
				}
				w, ok := s.memo.get(c.k1, c.k2) // skips building rows when known
				if !ok {
					w = s.wins(s.childRows(rows, c, 0), c.k1, c.k2, 1)
				}
				if !w {
					count++
					if len(ms) < max {
						ms = append(ms, Move{Kind: Knock, Heap: i, Take: int64(t), Parts: [2]int64{int64(a), int64(b)}})
					}
				}
			}
		}
	}
	return ms, count
}

// Misère Kayles's explanation.
var (
	pTheorySearch    = def("explain.theory.search", "", "exhaustive search")
	pKMOver          = def("explain.kayles_misere.over", "", "No pins are left: the game is over, and in misère play the player who cannot move wins.")
	pKMSearch        = def("explain.kayles_misere.search", "", "Misère Kayles (whoever knocks down the last pin loses) has no formula a player can apply, so the engine solves it by exhaustive search: it plays out the positions reachable from here (rows as a set, since their order does not matter), remembering each one's outcome.")
	pKMNimWrongWins  = def("explain.kayles_misere.nim_wrong_wins", "", "The Grundy values above decide normal play (XOR {{.XOR}}), but the misère Nim rule on them is wrong for Kayles: it calls a row of 8 a loss and rows of 1 and 5 a win, and the search finds the opposite. Here it would say the player to move wins.")
	pKMNimWrongLoses = def("explain.kayles_misere.nim_wrong_loses", "", "The Grundy values above decide normal play (XOR {{.XOR}}), but the misère Nim rule on them is wrong for Kayles: it calls a row of 8 a loss and rows of 1 and 5 a win, and the search finds the opposite. Here it would say the player to move loses.")
	pKMLoses         = def("explain.kayles_misere.loses", "", "The search found that the player to move loses: every knock leads to a position from which the opponent wins.")
	pKMWins          = def("explain.kayles_misere.wins", "The search found that the player to move wins: {{.Count}} of the possible knocks leads to a position where every reply loses.", "The search found that the player to move wins: {{.Count}} of the possible knocks lead to a position where every reply loses.")
	pKMMove          = def("explain.kayles_misere.move", "", "Knock down {{.Pins}} of row {{.Row}}, leaving {{.A}} and {{.B}}.")
)

// kaylesMisereExplain says what the search found, and why the rule that
// works for tame games is not used.
func kaylesMisereExplain(p Position) Explanation {
	ex := Explanation{Theory: P(pTheorySearch), Table: kaylesGrundyTable(p.Heaps)}
	step := func(id string, args ...any) { ex.Steps = append(ex.Steps, P(id, args...)) }
	if allZero(p.Heaps) {
		step(pKMOver)
		return ex
	}
	step(pKMSearch)
	x := kaylesXOR(p.Heaps)
	big := false
	ones := 0
	for _, h := range p.Heaps {
		g := kaylesG(h)
		big = big || g >= 2
		if g == 1 {
			ones++
		}
	}
	nimSays := (big && x != 0) || (!big && ones%2 == 0)
	if nimSays {
		step(pKMNimWrongWins, "XOR", x)
	} else {
		step(pKMNimWrongLoses, "XOR", x)
	}
	ms, n := kaylesMisereWinning(p, 3)
	if n == 0 {
		step(pKMLoses)
		return ex
	}
	step(pKMWins, "Count", n)
	for _, m := range ms {
		// Row lengths are notation here (the rows left), shown as written.
		step(pKMMove, "Pins", kaylesPinsPhrase(m), "Row", HeapLabel(m.Heap), "A", strconv.FormatInt(m.Parts[0], 10), "B", strconv.FormatInt(m.Parts[1], 10))
	}
	return ex
}
