package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// sumTree runs the brute-force solver on games that are sums of heaps
// (Lasker's Nim, Kayles), where a move's exact board (heap order, empty
// heaps) matters only at the position under test. Below it, positions are
// compared as multisets — the order of the heaps and empty heaps do not
// change a sum — which keeps the solver's tree small enough for three and
// four heaps. The move generator itself knows no theory.
type sumTree struct {
	tree *treeGame
	root string
}

func newSumTree(misere bool, exact func(Position) []Position) *sumTree {
	s := &sumTree{}
	s.tree = &treeGame{misere: misere, children: func(p Position) []Position {
		kids := exact(p)
		if posKey(p) == s.root {
			return kids
		}
		for i, k := range kids {
			kids[i] = multisetPos(k)
		}
		return kids
	}}
	return s
}

// multisetPos sorts the non-empty heaps.
func multisetPos(p Position) Position {
	var h []int64
	for _, v := range p.Heaps {
		if v > 0 {
			h = append(h, v)
		}
	}
	slices.Sort(h)
	return Position{Heaps: h}
}

func (s *sumTree) check(t *testing.T, r Rules, p Position) {
	t.Helper()
	s.root = posKey(p)
	checkAgreement(t, r, s.tree, p)
}

// eachSmall calls f with every position of 1..len(bounds) heaps where
// heap count n has sizes 0..bounds[n-1].
func eachSmall(bounds []int64, f func(Position)) {
	for n, b := range bounds {
		eachHeaps(n+1, b, func(h []int64) { f(Position{Heaps: h}) })
	}
}

// TestVariantHints checks the hints of Fibonacci, Wythoff, Lasker and Kayles:
// the verdict agrees with the analysis, the move is a winning one when there
// is one, and the explanation speaks the variant's theory.
func TestVariantHints(t *testing.T) {
	tests := []struct {
		rules  Rules
		pos    Position
		theory string
		says   string // a phrase the verdict or the explanation must contain
	}{
		{Rules{Variant: Fibonacci}, Position{Heaps: []int64{17}, Limit: 4}, "Zeckendorf", "17 = 13 + 3 + 1"},
		{Rules{Variant: Fibonacci}, Position{Heaps: []int64{21}, Limit: 20}, "Zeckendorf", "smallest term 21 is more than your limit of 20"},
		{Rules{Variant: Fibonacci, Misere: true}, Position{Heaps: []int64{22}, Limit: 21}, "Zeckendorf", "as if on 21"},
		{Rules{Variant: Fibonacci}, Position{Heaps: []int64{MaxHeapSize}, Limit: MaxHeapSize - 1}, "Zeckendorf", "Zeckendorf representation"},
		{Rules{Variant: Wythoff}, Position{Heaps: []int64{5, 3}}, "Wythoff pairs", "(3, 5) is a Wythoff pair"},
		{Rules{Variant: Wythoff}, Position{Heaps: []int64{9, 4}}, "Wythoff pairs", "(4, 9) is not a Wythoff pair"},
		{Rules{Variant: Wythoff, Misere: true}, Position{Heaps: []int64{2, 2}}, "Wythoff pairs", "(0, 1) and (2, 2) lose"},
		{Rules{Variant: Wythoff}, Position{Heaps: []int64{MaxHeapSize, 7}}, "Wythoff pairs", "not a Wythoff pair"},
		{Rules{Variant: Lasker}, Position{Heaps: []int64{3, 4}}, "Grundy values", "XOR to 7"},
		{Rules{Variant: Lasker, Misere: true}, Position{Heaps: []int64{1, 1, 1}}, "Grundy values", "3 of them (odd)"},
		{Rules{Variant: Lasker}, Position{Heaps: []int64{1<<39 - 3, 1<<39 - 4}}, "Grundy values", "winning moves in all"},
		{Rules{Variant: Kayles}, Position{Heaps: []int64{1, 5}}, "Grundy values", "XOR to 5"},
		{Rules{Variant: Kayles}, Position{Heaps: []int64{MaxHeapSize, 3}}, "Grundy values", "period 12"},
		{Rules{Variant: Kayles, Misere: true}, Position{Heaps: []int64{8}}, "exhaustive search", "a row of 8"},
		{Rules{Variant: Kayles, Misere: true}, Position{Heaps: []int64{1, 5}}, "exhaustive search", "every knock leaves your opponent a win"},
	}
	for _, tc := range tests {
		t.Run(tc.rules.Name()+" "+FormatGame(tc.rules, tc.pos), func(t *testing.T) {
			a, err := tc.rules.Analyze(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			h, err := tc.rules.Hint(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			word := "Losing"
			if a.MoverWins {
				word = "Winning"
			}
			if h.MoverWins != a.MoverWins || !strings.HasPrefix(h.Verdict.String(), word) {
				t.Errorf("verdict %q (wins=%v), analysis says wins=%v", h.Verdict, h.MoverWins, a.MoverWins)
			}
			if h.Explanation.Theory.String() != tc.theory || len(h.Explanation.Steps) == 0 {
				t.Errorf("explanation %+v, want theory %q", h.Explanation, tc.theory)
			}
			all := h.Verdict.String() + "\n" + strings.Join(texts(h.Explanation.Steps), "\n")
			if !strings.Contains(all, tc.says) {
				t.Errorf("hint does not say %q:\n%s", tc.says, all)
			}
			next, err := tc.rules.Apply(tc.pos, h.Move)
			if err != nil {
				t.Fatalf("hinted move %+v: %v", h.Move, err)
			}
			if b, _ := tc.rules.Analyze(next); a.MoverWins && b.MoverWins {
				t.Errorf("hinted move %+v does not win", h.Move)
			}
		})
	}
}

// TestVariantNotation round-trips every legal move of a few positions of
// Fibonacci, Wythoff, Lasker and Kayles through the move notation, and the
// positions through the game notation.
func TestVariantNotation(t *testing.T) {
	tests := []struct {
		rules Rules
		pos   Position
	}{
		{Rules{Variant: Fibonacci}, Position{Heaps: []int64{20}, Limit: 6}},
		{Rules{Variant: Fibonacci, Misere: true}, Position{Heaps: []int64{20}, Limit: 19}},
		{Rules{Variant: Wythoff}, Position{Heaps: []int64{4, 6}}},
		{Rules{Variant: Lasker, Misere: true}, Position{Heaps: []int64{5, 0, 3}}},
		{Rules{Variant: Kayles}, Position{Heaps: []int64{6, 1, 3}}},
		{Rules{Variant: Kayles, Misere: true}, Position{Heaps: []int64{7}}},
	}
	for _, tc := range tests {
		s := FormatGame(tc.rules, tc.pos)
		t.Run(s, func(t *testing.T) {
			r, p, err := ParseGame(s)
			if err != nil || r.Variant != tc.rules.Variant || r.Misere != tc.rules.Misere || !slices.Equal(p.Heaps, tc.pos.Heaps) || p.Limit != tc.pos.Limit {
				t.Fatalf("ParseGame(%q) = %+v %+v %v", s, r, p, err)
			}
			for _, m := range tc.rules.Legal(tc.pos) {
				ms := tc.rules.FormatMove(tc.pos, m)
				back, err := tc.rules.ParseMove(tc.pos, ms)
				if err != nil {
					t.Fatalf("ParseMove(%q) for %+v: %v", ms, m, err)
				}
				q1, err1 := tc.rules.Apply(tc.pos, m)
				q2, err2 := tc.rules.Apply(tc.pos, back)
				if err1 != nil || err2 != nil || posKey(q1) != posKey(q2) {
					t.Fatalf("%q: %+v and %+v lead to %v and %v (%v, %v)", ms, m, back, q1, q2, err1, err2)
				}
			}
		})
	}
}

// TestVariantPlay plays Fibonacci, Wythoff, Lasker and Kayles games between
// the perfect bot and an easy one, from small and huge starts: every move
// is legal, the perfect bot never lets a won position go, and Review finds
// no mistake of the perfect side.
func TestVariantPlay(t *testing.T) {
	starts := []struct {
		variant Variant
		heaps   []int64
		maxPly  int // huge heaps: play this many moves only
	}{
		{Fibonacci, []int64{30}, 0},
		{Fibonacci, []int64{MaxHeapSize}, 12},
		{Fibonacci, []int64{956722026041}, 12}, // a Fibonacci number: the first player loses
		{Wythoff, []int64{12, 20}, 0},
		{Wythoff, []int64{618033988749, MaxHeapSize}, 12},
		{Lasker, []int64{7, 4, 9}, 0},
		{Lasker, []int64{MaxHeapSize, 3, 999999999999}, 12},
		{Kayles, []int64{9, 6}, 0},
		{Kayles, []int64{2000, 2000}, 12},
		{Kayles, []int64{MaxHeapSize, MaxHeapSize}, 12}, // lost for the first player: the bot holds out
		{Kayles, []int64{MaxHeapSize, 999999999971, 5}, 12},
	}
	for _, st := range starts {
		for _, misere := range []bool{false, true} {
			r := Rules{Variant: st.variant, Misere: misere}
			if misere && st.variant == Kayles && st.maxPly > 0 {
				continue // beyond misère Kayles' limit
			}
			t.Run(FormatGame(r, Position{Heaps: st.heaps}), func(t *testing.T) {
				p, err := r.Start(st.heaps)
				if err != nil {
					t.Fatal(err)
				}
				start := p
				rng := rand.New(rand.NewPCG(7, uint64(len(st.heaps))))
				var moves []Move
				for ply := 0; !r.Over(p) && (st.maxPly == 0 || ply < st.maxPly); ply++ {
					d := Perfect
					if ply%2 == 1 {
						d = Easy
					}
					a, err := r.Analyze(p)
					if err != nil {
						t.Fatal(err)
					}
					m, err := r.Choose(p, d, rng)
					if err != nil {
						t.Fatalf("ply %d %v: %v", ply, p, err)
					}
					q, err := r.Apply(p, m)
					if err != nil {
						t.Fatalf("ply %d %v: chose %+v: %v", ply, p, m, err)
					}
					if d == Perfect && a.MoverWins {
						if b, _ := r.Analyze(q); b.MoverWins {
							t.Fatalf("ply %d %v: perfect play let the win go with %+v", ply, p, m)
						}
					}
					moves = append(moves, m)
					p = q
				}
				if st.maxPly == 0 && !r.Over(p) {
					t.Fatalf("game did not end: %v", p)
				}
				mistakes, err := r.Review(start, moves)
				if err != nil {
					t.Fatal(err)
				}
				for _, mk := range mistakes {
					if mk.Ply%2 == 0 {
						t.Errorf("review blames the perfect side at ply %d: %+v", mk.Ply, mk)
					}
				}
			})
		}
	}
}

// TestKaylesMisereConcurrent analyzes misère Kayles positions from several
// goroutines at once: the shared memo is guarded (run with -race), and every
// goroutine gets the same answers as a lone one.
func TestKaylesMisereConcurrent(t *testing.T) {
	r := Rules{Variant: Kayles, Misere: true}
	positions := [][]int64{{8}, {1, 5}, {3, 9, 12}, {20}, {7, 7, 2}, {14, 11}}
	want := make([]Analysis, len(positions))
	for i, h := range positions {
		a, err := r.Analyze(Position{Heaps: h})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = a
	}
	resetKaylesCache()
	errs := make(chan string, 4*len(positions))
	done := make(chan bool)
	for w := 0; w < 4; w++ {
		go func() {
			for i := range positions {
				j := (i + w) % len(positions)
				a, err := r.Analyze(Position{Heaps: positions[j]})
				if err != nil || a.MoverWins != want[j].MoverWins || a.WinningCount != want[j].WinningCount {
					errs <- FormatGame(r, Position{Heaps: positions[j]})
				}
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Errorf("%s: a concurrent analysis disagreed", e)
	}
}

// checkLegal compares Rules.Legal with the brute-force move generator: the
// legal moves, applied, reach exactly the generator's positions, each once.
func checkLegal(t *testing.T, r Rules, p Position, children func(Position) []Position) {
	t.Helper()
	var got, want []string
	for _, m := range r.Legal(p) {
		q, err := r.Apply(p, m)
		if err != nil {
			t.Fatalf("%s %v: legal move %+v: %v", r.Name(), p, m, err)
		}
		got = append(got, posKey(q))
	}
	for _, c := range children(p) {
		want = append(want, posKey(c))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%s %v: Legal reaches %v, the rules of play %v", r.Name(), p, got, want)
	}
}

// TestVariantLegal checks Legal for every small position of Fibonacci,
// Wythoff, Lasker and Kayles.
func TestVariantLegal(t *testing.T) {
	for _, misere := range []bool{false, true} {
		r := Rules{Variant: Fibonacci, Misere: misere}
		for n := int64(0); n <= 20; n++ {
			for l := int64(0); l <= 42; l++ {
				checkLegal(t, r, Position{Heaps: []int64{n}, Limit: l}, fibonacciChildren)
			}
		}
		r = Rules{Variant: Wythoff, Misere: misere}
		eachHeaps(2, 12, func(h []int64) { checkLegal(t, r, Position{Heaps: h}, wythoffChildren) })
		r = Rules{Variant: Lasker, Misere: misere}
		eachSmall([]int64{12, 8, 4}, func(p Position) { checkLegal(t, r, p, laskerChildren) })
		r = Rules{Variant: Kayles, Misere: misere}
		eachSmall([]int64{12, 8, 4}, func(p Position) { checkLegal(t, r, p, kaylesChildren) })
	}
}
