package engine

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestEdgeCases are the edges NIM.md names, where the seeds' formulas fail.
func TestEdgeCases(t *testing.T) {
	tests := []struct {
		name      string
		game      string
		moverWins bool
		winning   []string // every winning move, canonical order
	}{
		{"nim([1]) normal takes the last one, not 0", "1", true, []string{"A1"}},
		{"nim([1,1]) normal is lost", "1 1", false, nil},
		{"nim([1]) misère is lost", "nim misere 1", false, nil},
		{"nim misère [1,1] is won", "nim misere 1 1", true, []string{"A1", "B1"}},
		{"nim misère all ≤1, even", "nim misere 1 0 1 1 1", true, []string{"A1", "C1", "D1", "E1"}},
		{"nim misère [2,2] is lost", "nim misere 2 2", false, nil},
		{"nim misère endgame switch", "nim misere 0 2 1", true, []string{"B2"}},
		{"nim misère [5,1,1] leaves odd 1-heaps", "nim misere 5 1 1", true, []string{"A4"}},
		{"S(1..1) [1,2]: the residue wraps upwards", "subtraction k=1 1 2", true, []string{"A1", "B1"}},
		{"misère S(1..1) [2] is N", "subtraction misere k=1 2", true, []string{"A1"}},
		{"misère S(1..3) all residues 0: take k", "subtraction misere k=3 4 8", true, []string{"A3", "B3"}},
		{"misère S(1..3) one heap n ≡ 1 is lost", "subtraction misere k=3 9", false, nil},
		{"S(1..3) normal [4] is lost", "subtraction k=3 4", false, nil},
		{"{2,5,6} heap 1 has no move and counts as finished", "subtraction set=2,5,6 1 1", false, nil},
		{"{2,5,6} misère heap 1 alone: no move, mover wins", "subtraction misere set=2,5,6 1", true, nil},
		{"{1,3,4} [2] is lost", "subtraction set=1,3,4 2", false, nil},
		{"21 from 0 is lost for the first player", "21", false, nil},
		{"21 from 1: say 4", "21 k=3 target=21 count=1", true, []string{"+3"}},
		{"21 from 20: say 21 and lose", "21 k=3 target=21 count=20", false, nil},
		{"Greedy [0,0,3]", "greedy 0 0 3", true, []string{"C3"}},
		{"Greedy [2,2] is lost", "greedy 2 2", false, nil},
		{"Greedy [3,3,1]", "greedy 3 3 1", false, nil},
		{"Greedy misère [1,1]", "greedy misere 1 1", true, []string{"A1", "B1"}},
		{"Greedy misère [2,2]", "greedy misere 2 2", false, nil},
		{"Moore k=2 [1,1,1] is lost", "moore k=2 1 1 1", false, nil},
		{"Moore k=2 [1,1] take both", "moore k=2 1 1", true, []string{"A1 B1"}},
		{"Moore misère k=2 [1,1]: leave one", "moore misere k=2 1 1", true, []string{"A1", "B1"}},
		{"Moore misère k=2 [1,1,1,1] is lost", "moore misere k=2 1 1 1 1", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, p, err := ParseGame(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			a, err := r.Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range a.Winning {
				got = append(got, r.FormatMove(p, m))
			}
			if a.MoverWins != tt.moverWins || !slices.Equal(got, tt.winning) || a.WinningCount != int64(len(tt.winning)) {
				t.Fatalf("%s: mover wins %v, winning %v (count %d); want %v, %v", tt.game, a.MoverWins, got, a.WinningCount, tt.moverWins, tt.winning)
			}
		})
	}
}

// TestMisereSubtractionAllResidueZeroCorrection guards the one-heap misère
// S(1..k) rule of NIM.md: P iff n ≡ 1 (mod k+1).
func TestMisereSubtractionSingleHeap(t *testing.T) {
	for k := 1; k <= 6; k++ {
		r := Rules{Variant: Subtraction, K: k, Misere: true}
		for n := int64(0); n <= 40; n++ {
			a, err := r.Analyze(Position{Heaps: []int64{n}})
			if err != nil {
				t.Fatal(err)
			}
			if want := n%int64(k+1) != 1; a.MoverWins != want {
				t.Fatalf("k=%d n=%d: mover wins %v, want %v", k, n, a.MoverWins, want)
			}
		}
	}
}

func TestGameOver(t *testing.T) {
	for _, game := range []string{"0 0 0", "nim misere 0", "greedy 0 0 0", "greedy misere 0 0 0", "21 count=21", "subtraction set=2,5,6 1 0 1"} {
		t.Run(game, func(t *testing.T) {
			r, p, err := ParseGame(game)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Over(p) {
				t.Fatal("not over")
			}
			a, err := r.Analyze(p)
			if err != nil || a.MoverWins != r.Misere || a.WinningCount != 0 {
				t.Fatalf("Analyze = %+v, %v; want mover wins = misère", a, err)
			}
			if _, err := r.Hint(p); !errors.Is(err, ErrGameOver) {
				t.Fatalf("Hint error %v, want ErrGameOver", err)
			}
			if _, err := r.Choose(p, Perfect, nil); !errors.Is(err, ErrGameOver) {
				t.Fatalf("Choose error %v, want ErrGameOver", err)
			}
			if _, err := r.Apply(p, Move{Kind: Take, Heap: 0, Take: 1}); !errors.Is(err, ErrGameOver) {
				t.Fatalf("Apply error %v, want ErrGameOver", err)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		game string
		m    Move
		want string
	}{
		{"3 4 3", Move{Kind: Take, Heap: 2, Take: 5}, "heap C has 3, you asked for 5"},
		{"3 4 3", Move{Kind: Take, Heap: 5, Take: 1}, "no heap F: the heaps are A to C"},
		{"3 4 3", Move{Kind: Take, Heap: -1, Take: 1}, "no heap ?: the heaps are A to C"},
		{"3 4 3", Move{Kind: Take, Heap: 0, Take: 0}, "take at least 1"},
		{"3 4 3", Move{Kind: Take, Heap: 0, Take: -2}, "take at least 1"},
		{"3 0 3", Move{Kind: Take, Heap: 1, Take: 1}, "heap B is empty"},
		{"3 4 3", Move{Kind: Diagonal, Take: 1}, "Nim: take from one heap at a time (like B3)"},
		{"greedy 5 1 2 5", Move{Kind: Take, Heap: 1, Take: 1}, "Greedy Nim: take from a largest heap, A or D"},
		{"greedy 5 1 2", Move{Kind: Take, Heap: 1, Take: 1}, "Greedy Nim: take from a largest heap, A"},
		{"subtraction k=3 9", Move{Kind: Take, Heap: 0, Take: 4}, "Subtraction S(1..3): take 1 to 3"},
		{"subtraction set=1,3,4 9", Move{Kind: Take, Heap: 0, Take: 2}, "Subtraction {1,3,4}: take 1, 3 or 4"},
		{"21 count=19", Move{Kind: Take, Heap: 0, Take: 3}, "the count is 19: you can say at most 2 more to reach 21"},
		{"21", Move{Kind: Take, Heap: 0, Take: 4}, "The 21 game: say 1 to 3 more, not 4"},
		{"moore k=2 3 4 5", Move{Kind: Multi, Takes: []int64{1, 1, 1}}, "Moore's Nim (k=2): take from at most 2 heaps at once, not 3"},
		{"moore k=2 3 4 5", Move{Kind: Multi, Takes: []int64{1, 5, 0}}, "heap B has 4, you asked for 5"},
		{"moore k=2 3 4 5", Move{Kind: Multi, Takes: []int64{1, 1}}, "Moore's Nim (k=2): the move names 2 heaps but there are 3"},
		{"moore k=2 3 4 5", Move{Kind: Multi, Takes: []int64{0, 0, 0}}, "take at least 1"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			r, p, err := ParseGame(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			before := slices.Clone(p.Heaps)
			_, err = r.Apply(p, tt.m)
			var me *MoveError
			if !errors.As(err, &me) || me.Reason != tt.want {
				t.Fatalf("Apply(%+v) error = %v, want %q", tt.m, err, tt.want)
			}
			if !slices.Equal(p.Heaps, before) {
				t.Fatal("Apply changed the position")
			}
		})
	}
}

func TestStartLimits(t *testing.T) {
	if _, err := (Rules{Variant: Nim}).Start(make([]int64, 10_001)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("10,001 heaps: %v, want ErrTooLarge", err)
	}
	if _, err := (Rules{Variant: Greedy}).Start([]int64{MaxHeapSize + 1}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a heap over 10^12: %v, want ErrTooLarge", err)
	}
	if _, err := (Rules{Variant: Moore}).Start(make([]int64, 100)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Moore with 100 heaps: %v, want ErrTooLarge", err)
	}
	p, err := (Rules{Variant: Nim}).Start([]int64{MaxHeapSize, 7})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := (Rules{Variant: Nim}).Analyze(p)
	if !a.MoverWins || a.WinningCount != 1 || a.Winning[0].Take != MaxHeapSize-7 {
		t.Fatalf("[10^12, 7]: %+v", a)
	}
	r := Rules{Variant: Greedy}
	a, _ = r.Analyze(Position{Heaps: []int64{MaxHeapSize, MaxHeapSize, MaxHeapSize}})
	if a.WinningCount != 3*MaxHeapSize || len(a.Winning) != MaxListedMoves || a.Winning[0].Take != 1 {
		t.Fatalf("Greedy [10^12 ×3]: count %d, listed %d", a.WinningCount, len(a.Winning))
	}
	if _, err := (Rules{Variant: "chess"}).Start([]int64{1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("chess: %v", err)
	}
}

// remoteness is the test's own plain minimax: how many moves remain when the
// winner hurries and the loser delays, from the children alone.
func remoteness(misere bool, children func(Position) []Position, p Position, memo map[string][2]int) (bool, int) {
	k := posKey(p)
	if v, ok := memo[k]; ok {
		return v[0] == 1, v[1]
	}
	kids := children(p)
	win, rem := misere, 0
	if len(kids) > 0 {
		win = false
		best := -1
		for _, c := range kids {
			cw, cr := remoteness(misere, children, c, memo)
			if !cw && (!win || cr+1 < best) {
				win, best = true, cr+1
			}
		}
		if !win {
			for _, c := range kids {
				_, cr := remoteness(misere, children, c, memo)
				best = max(best, cr+1)
			}
		}
		rem = best
	}
	b := 0
	if win {
		b = 1
	}
	memo[k] = [2]int{b, rem}
	return win, rem
}

// TestChoosePerfectRemoteness: when winning, the bot's move wins soonest; when
// losing, it holds out longest, then leaves the fewest winning replies.
func TestChoosePerfectRemoteness(t *testing.T) {
	cases := []struct {
		r        Rules
		children func(Position) []Position
		heaps    int
		size     int64
	}{
		{Rules{Variant: Nim}, takeChildren(anyTake), 3, 6},
		{Rules{Variant: Nim, Misere: true}, takeChildren(anyTake), 3, 6},
		{Rules{Variant: Greedy}, takeChildren(func(p Position, i int, _ int64) bool { return p.Heaps[i] == slices.Max(p.Heaps) }), 3, 5},
		{Rules{Variant: Subtraction, Set: []int{1, 3, 4}, Misere: true}, takeChildren(func(_ Position, _ int, n int64) bool { return n == 1 || n == 3 || n == 4 }), 3, 8},
		{Rules{Variant: Moore, K: 2}, mooreChildren(2), 3, 4},
		// More heaps than k: many moves reach the same heaps in another
		// order, and only one of each is judged (distinctResults).
		{Rules{Variant: Moore, K: 2}, mooreChildren(2), 4, 3},
		{Rules{Variant: Moore, K: 3, Misere: true}, mooreChildren(3), 5, 2},
	}
	for _, c := range cases {
		t.Run(c.r.Name(), func(t *testing.T) {
			memo := map[string][2]int{}
			eachHeaps(c.heaps, c.size, func(h []int64) {
				p := Position{Heaps: h}
				if c.r.Over(p) {
					return
				}
				m, err := c.r.Choose(p, Perfect, nil)
				if err != nil {
					t.Fatal(err)
				}
				q, err := c.r.Apply(p, m)
				if err != nil {
					t.Fatalf("%v: chose illegal %+v: %v", h, m, err)
				}
				win, rem := remoteness(c.r.Misere, c.children, p, memo)
				_, crem := remoteness(c.r.Misere, c.children, q, memo)
				if crem+1 != rem {
					t.Fatalf("%v: mover wins %v in %d, but the bot's move %+v leads to remoteness %d", h, win, rem, m, crem)
				}
				if !win {
					// Among the moves holding out as long, the fewest winning replies.
					a, _ := c.r.Analyze(q)
					for _, k := range c.children(p) {
						if _, kr := remoteness(c.r.Misere, c.children, k, memo); kr == crem {
							if ka, _ := c.r.Analyze(k); ka.WinningCount < a.WinningCount {
								t.Fatalf("%v: bot leaves %d winning replies, %v leaves %d", h, a.WinningCount, k.Heaps, ka.WinningCount)
							}
						}
					}
				}
			})
		})
	}
}

// TestPerfectNeverLetsGo plays Choose at every difficulty over many seeds and
// random positions: every move is legal, Perfect keeps every won position
// won, and the weaker levels do make mistakes.
func TestPerfectNeverLetsGo(t *testing.T) {
	rulesList := []Rules{
		{Variant: Nim}, {Variant: Nim, Misere: true},
		{Variant: Subtraction, K: 3}, {Variant: Subtraction, K: 2, Misere: true},
		{Variant: Subtraction, Set: []int{2, 5, 6}}, {Variant: Subtraction, Set: []int{1, 3, 4}, Misere: true},
		{Variant: TwentyOne, Misere: true}, {Variant: TwentyOne},
		{Variant: Greedy}, {Variant: Greedy, Misere: true},
		{Variant: Moore, K: 2}, {Variant: Moore, K: 3, Misere: true},
	}
	seeds := 80
	if testing.Short() {
		seeds = 20
	}
	mistakes := map[Difficulty]int{}
	for _, r := range rulesList {
		for seed := range seeds {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			heaps := []int64{rng.Int64N(12), rng.Int64N(12), rng.Int64N(30)}
			if seed%10 == 0 {
				heaps = []int64{rng.Int64N(MaxHeapSize), rng.Int64N(MaxHeapSize), rng.Int64N(5)}
			}
			p, err := r.Start(heaps)
			if r.Variant == TwentyOne {
				p, err = r.Start([]int64{rng.Int64N(22)})
			}
			if err != nil {
				t.Fatal(err)
			}
			// Huge heaps would take 10^12 moves to finish: play 40 plies.
			for ply := 0; ply < 40 && !r.Over(p); ply++ {
				a, err := r.Analyze(p)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range Difficulties() {
					m, err := r.Choose(p, d, rng)
					if err != nil {
						t.Fatalf("%s %v %s: %v", r.Name(), p.Heaps, d, err)
					}
					q, err := r.Apply(p, m)
					if err != nil {
						t.Fatalf("%s %v %s: illegal %+v: %v", r.Name(), p.Heaps, d, m, err)
					}
					if a.MoverWins && moverWinsAfter(t, r, q) {
						if d == Perfect {
							t.Fatalf("%s %v: Perfect played %+v and let the win go", r.Name(), p.Heaps, m)
						}
						mistakes[d]++
					}
				}
				m, _ := r.Choose(p, Medium, rng)
				p, _ = r.Apply(p, m)
			}
		}
	}
	for _, d := range []Difficulty{Easy, Medium, Hard} {
		if mistakes[d] == 0 {
			t.Errorf("%s never made a mistake", d)
		}
	}
	if mistakes[Easy] <= mistakes[Hard] {
		t.Errorf("easy made %d mistakes, hard %d: easy should err more", mistakes[Easy], mistakes[Hard])
	}
}

func moverWinsAfter(t *testing.T, r Rules, q Position) bool {
	t.Helper()
	a, err := r.Analyze(q)
	if err != nil {
		t.Fatal(err)
	}
	return a.MoverWins
}

func TestChooseDeterministic(t *testing.T) {
	r := Rules{Variant: Nim}
	p := Position{Heaps: []int64{3, 4, 5, 9, 11}}
	for seed := range uint64(20) {
		a, _ := r.Choose(p, Easy, rand.New(rand.NewPCG(seed, 1)))
		b, _ := r.Choose(p, Easy, rand.New(rand.NewPCG(seed, 1)))
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: %+v then %+v", seed, a, b)
		}
	}
	if _, err := r.Choose(p, "godlike", nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("unknown difficulty: %v", err)
	}
}

func TestHintNim345(t *testing.T) {
	r := Rules{Variant: Nim}
	h, err := r.Hint(Position{Heaps: []int64{3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if !h.MoverWins || !reflect.DeepEqual(h.Move, Move{Kind: Take, Heap: 0, Take: 2}) || !strings.Contains(h.Verdict.String(), "nim-sum is 2") {
		t.Fatalf("hint %+v", h)
	}
	want := [][]string{
		{"heap", "decimal", "binary"},
		{"heap A", "3", "011"}, {"heap B", "4", "100"}, {"heap C", "5", "101"},
		{"nim-sum", "2", "010"},
	}
	if h.Explanation.Theory.String() != "nim-sum" || !reflect.DeepEqual(tableText(h.Explanation.Table), want) {
		t.Fatalf("explanation %+v, table %+v", h.Explanation, h.Explanation.Table)
	}
	if !slices.ContainsFunc(texts(h.Explanation.Steps), func(s string) bool { return strings.Contains(s, "3 ⊕ 2 = 1") }) {
		t.Fatalf("steps %q lack the seed's A ⊕ X = 3 ⊕ 2 = 1", h.Explanation.Steps)
	}
}

func TestHintExplanations(t *testing.T) {
	tests := []struct {
		game, theory string
		contains     []string
	}{
		{"nim misere 0 2 1", "misère nim", []string{"odd number of 1-heaps"}},
		{"nim misere 1 1", "misère nim", []string{"2 heaps of 1"}},
		{"subtraction k=3 10 12", "residues mod 4", []string{"residue mod 4", "nim-sum of the values is 2"}},
		{"subtraction set=1,3,4 7 9", "Grundy values", []string{"period 7 from heap 0: 0101232"}},
		{"subtraction set=2,5,6 7 9", "Grundy values", []string{"period 11 from heap 0: 00110213021"}},
		{"subtraction misere set=1,2,4 7 9", "Grundy values", []string{"period 3", "not proven"}},
		{"21", "residues mod 4", []string{"Whoever says 21 loses"}},
		{"21 count=1", "residues mod 4", []string{"Say 4 (3 more); then say 8, 12, 16 and 20 in turn."}},
		{"greedy 5 5 5 2", "largest heaps", []string{"3 heaps share the largest size 5"}},
		{"moore k=2 3 5 6", "bit counts mod 3", []string{"0 mod 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			r, p, err := ParseGame(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			h, err := r.Hint(p)
			if err != nil {
				t.Fatal(err)
			}
			if h.Verdict.String() == "" || h.Explanation.Theory.String() != tt.theory {
				t.Fatalf("verdict %q theory %q", h.Verdict, h.Explanation.Theory)
			}
			all := h.Verdict.String() + "\n" + strings.Join(texts(h.Explanation.Steps), "\n")
			for _, c := range tt.contains {
				if !strings.Contains(all, c) {
					t.Errorf("explanation lacks %q:\n%s", c, all)
				}
			}
			if _, err := r.Apply(p, h.Move); err != nil {
				t.Fatalf("hint move %+v: %v", h.Move, err)
			}
		})
	}
}

func TestGrundyPeriods(t *testing.T) {
	for _, tt := range []struct {
		set           []int
		start, period int64
		seq           string
	}{
		{[]int{1, 3, 4}, 0, 7, "0101232"},
		{[]int{2, 5, 6}, 0, 11, "00110213021"},
		{[]int{1, 2, 4}, 0, 3, "012"},
		{[]int{1}, 0, 2, "01"},
	} {
		g, err := grundyTable(tt.set)
		if err != nil {
			t.Fatal(err)
		}
		if g.start != tt.start || g.period != tt.period || g.sequence(g.start, g.period) != tt.seq {
			t.Errorf("%v: period %d from %d (%s), want %d from %d (%s)", tt.set, g.period, g.start, g.sequence(g.start, g.period), tt.period, tt.start, tt.seq)
		}
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		game string
		move string
		want string
	}{
		{"3 4 5", "C2", "takes 2 from C"},
		{"wythoff 3 5", "AB3", "takes 3 from A and B"},
		{"moore k=2 3 5 6", "A2 C1", "takes 2 from A and 1 from C"},
		{"moore k=2 3 5 6", "A3 C3", "takes 3 from A and C"},
		{"lasker 4 7", "B=2+5", "splits B into 2 and 5"},
		{"kayles 5 8", "B4", "knocks down pin 4 of row B"},
		{"kayles 5 8", "B4-5", "knocks down pins 4 and 5 of row B"},
		{"21 count=4", "+3", "says 5, 6, 7"},
		{"fibonacci 20", "3", "takes 3"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			r, p, err := ParseGame(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			m, err := r.ParseMove(p, tt.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Describe(p, m); got != tt.want {
				t.Fatalf("Describe = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNormalizeAndName(t *testing.T) {
	tests := []struct {
		r    Rules
		name string
	}{
		{Rules{Variant: Nim}, "Nim"},
		{Rules{Variant: Nim, Misere: true}, "Misère Nim"},
		{Rules{Variant: Subtraction}, "Subtraction S(1..3)"},
		{Rules{Variant: Subtraction, Set: []int{4, 1, 3}}, "Subtraction {1,3,4}"},
		{Rules{Variant: TwentyOne, Misere: true}, "The 21 game"},
		{Rules{Variant: TwentyOne}, "The 21 game, normal play (saying 21 wins)"},
		{Rules{Variant: Greedy}, "Greedy Nim"},
		{Rules{Variant: Fibonacci}, "Fibonacci Nim"},
		{Rules{Variant: Moore}, "Moore's Nim (k=2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := tt.r.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			if got := n.Name(); got != tt.name {
				t.Fatalf("Name = %q, want %q", got, tt.name)
			}
			again, err := n.Normalize()
			if err != nil || !reflect.DeepEqual(again, n) {
				t.Fatalf("Normalize is not idempotent: %+v → %+v", n, again)
			}
			if l := n.Limits(); l.MaxHeaps < 1 || l.MaxHeap < 1 {
				t.Fatalf("Limits = %+v", l)
			}
		})
	}
	for _, bad := range []Rules{{}, {Variant: "chess"}, {Variant: Nim, K: 2}, {Variant: Greedy, Target: 5}, {Variant: Subtraction, K: -1}, {Variant: Subtraction, Set: []int{1, 2, 3, 4, 5, 6, 7, 8, 9}}} {
		if _, err := bad.Normalize(); !errors.Is(err, ErrInvalid) {
			t.Errorf("Normalize(%+v) error %v, want ErrInvalid", bad, err)
		}
	}
}

func ExampleRules_Analyze() {
	r, p, _ := ParseGame("nim misere 3 4 5")
	a, _ := r.Analyze(p)
	for _, m := range a.Winning {
		fmt.Println(r.FormatMove(p, m), r.Describe(p, m))
	}
	// Output:
	// A2 takes 2 from A
}

// TestEveryVariantPlays plays whole games in every variant and convention
// from several openings, Perfect against Medium, checking on every move that
// Hint and Choose agree with Analyze and that Perfect never lets a win go.
func TestEveryVariantPlays(t *testing.T) {
	openings := []string{
		"3 4 5", "nim misere 3 4 5", "subtraction k=3 10 12 7", "subtraction misere set=2,5,6 9 14",
		"21", "21 normal", "greedy 5 7 7 3", "greedy misere 4 4 1", "moore k=2 3 5 6 4", "moore misere k=3 2 7 5 1",
		"fibonacci 20", "fibonacci misere 33", "wythoff 7 12", "wythoff misere 9 4",
		"lasker 5 6 7", "lasker misere 3 8", "kayles 5 6 7", "kayles misere 4 5 6",
	}
	for _, o := range openings {
		t.Run(o, func(t *testing.T) {
			r, p, err := ParseGame(o)
			if err != nil {
				t.Fatal(err)
			}
			for seed := range uint64(5) {
				rng := rand.New(rand.NewPCG(seed, 3))
				q := clonePos(p)
				var moves []Move
				for ply := 0; !r.Over(q); ply++ {
					a, err := r.Analyze(q)
					if err != nil {
						t.Fatal(err)
					}
					h, err := r.Hint(q)
					if err != nil || h.MoverWins != a.MoverWins || h.Verdict.String() == "" || len(h.Explanation.Steps) == 0 {
						t.Fatalf("%v: hint %+v, %v; analysis %+v", q, h, err, a)
					}
					d := Perfect
					if ply%2 == 1 {
						d = Medium
					}
					m, err := r.Choose(q, d, rng)
					if err != nil {
						t.Fatal(err)
					}
					next, err := r.Apply(q, m)
					if err != nil {
						t.Fatalf("%v: %s chose illegal %+v: %v", q, d, m, err)
					}
					if d == Perfect && a.MoverWins && moverWinsAfter(t, r, next) {
						t.Fatalf("%v: Perfect played %s and let the win go", q, r.FormatMove(q, m))
					}
					if got, err := r.ParseMove(q, r.FormatMove(q, m)); err != nil || r.FormatMove(q, got) != r.FormatMove(q, m) {
						t.Fatalf("%v: move %+v does not round-trip through %q: %+v %v", q, m, r.FormatMove(q, m), got, err)
					}
					if r.Describe(q, m) == "" {
						t.Fatal("empty description")
					}
					moves = append(moves, m)
					q = next
				}
				mistakes, err := r.Review(p, moves)
				if err != nil {
					t.Fatal(err)
				}
				for _, mk := range mistakes {
					if mk.Ply%2 == 0 {
						t.Fatalf("Review blames Perfect's move at ply %d", mk.Ply)
					}
				}
			}
		})
	}
}

func TestLegalBounded(t *testing.T) {
	for _, game := range []string{"1000000000000 5", "moore k=3 5000 5000 5000", "greedy 40000 40000"} {
		r, p, err := ParseGame(game)
		if err != nil {
			t.Fatal(err)
		}
		if ms := r.Legal(p); ms != nil {
			t.Fatalf("%s: Legal listed %d moves", game, len(ms))
		}
		if r.Over(p) {
			t.Fatalf("%s: over", game)
		}
	}
	r, p, _ := ParseGame("moore k=2 2 3")
	if got := len(r.Legal(p)); got != 2+3+2*3 {
		t.Fatalf("moore k=2 2 3: %d legal moves, want 11", got)
	}
}

// TestChooseBigMoore: heaps small in total but with billions of combined
// moves must not be listed.
// TestChooseLostSubtractionSet: in a lost position with huge heaps, the
// hold-out candidates must include the set's amounts.
func TestChooseLostSubtractionSet(t *testing.T) {
	r := Rules{Variant: Subtraction, Set: []int{5, 17}}
	p := Position{Heaps: []int64{MaxHeapSize, MaxHeapSize}} // equal values: nim-sum 0
	if a, _ := r.Analyze(p); a.MoverWins {
		t.Fatal("want a lost position")
	}
	m, err := r.Choose(p, Perfect, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Apply(p, m); err != nil {
		t.Fatalf("chose %+v: %v", m, err)
	}
}

func TestChooseBigMoore(t *testing.T) {
	r, p, err := ParseGame("moore k=3 1365 1365 1365 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range Difficulties() {
		for seed := range uint64(10) {
			m, err := r.Choose(p, d, rand.New(rand.NewPCG(seed, 0)))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Apply(p, m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestChooseHugeEveryVariant: the bot answers in every variant with heaps as
// large as its Limits allow, without listing their moves.
func TestChooseHugeEveryVariant(t *testing.T) {
	for _, v := range Variants() {
		for _, misere := range []bool{false, true} {
			r := Rules{Variant: v, Misere: misere}
			l := r.Limits()
			n := min(l.MaxHeaps, 3)
			heaps := make([]int64, n)
			for i := range heaps {
				heaps[i] = l.MaxHeap - int64(i)
				if l.MaxTotal > 0 {
					heaps[i] = l.MaxTotal/int64(n) - int64(i)
				}
			}
			p, err := r.Start(heaps)
			if v == TwentyOne {
				p, err = r.Start(nil)
			}
			if err != nil {
				t.Fatalf("%s %v: %v", r.Name(), heaps, err)
			}
			for _, d := range Difficulties() {
				m, err := r.Choose(p, d, rand.New(rand.NewPCG(1, 2)))
				if err != nil {
					t.Fatalf("%s: %v", r.Name(), err)
				}
				if _, err := r.Apply(p, m); err != nil {
					t.Fatalf("%s: %s chose illegal %+v: %v", r.Name(), d, m, err)
				}
			}
			if _, err := r.Hint(p); err != nil {
				t.Fatalf("%s: Hint: %v", r.Name(), err)
			}
		}
	}
}

// TestGrundyTableMatchesMex compares the periodic table with the plain mex
// recurrence far past the detected period, for every S ⊆ {1..6} and a few
// sets with large amounts.
func TestGrundyTableMatchesMex(t *testing.T) {
	sets := [][]int{{7, 13, 20}, {5, 17, 31, 64}, {1, 64}, {3, 4, 9, 11, 40, 41, 50, 63}}
	for mask := 1; mask < 1<<6; mask++ {
		var set []int
		for b := 0; b < 6; b++ {
			if mask>>b&1 == 1 {
				set = append(set, b+1)
			}
		}
		sets = append(sets, set)
	}
	for _, set := range sets {
		tab, err := grundyTable(set)
		if err != nil {
			t.Fatal(err)
		}
		n := 3*(tab.start+tab.period) + 500
		g := make([]int64, n)
		for i := range g {
			seen := map[int64]bool{}
			for _, s := range set {
				if s <= i {
					seen[g[i-s]] = true
				}
			}
			for seen[g[i]] {
				g[i]++
			}
			if got := tab.at(int64(i)); got != g[i] {
				t.Fatalf("%v: g(%d) = %d by mex, %d by the table (period %d from %d)", set, i, g[i], got, tab.period, tab.start)
			}
		}
	}
}

// TestChooseRandomHuge: random positions with heaps up to 10^12, won and
// lost, in rules with awkward moves; every difficulty must play legally.
func TestChooseRandomHuge(t *testing.T) {
	rulesList := []Rules{
		{Variant: Subtraction, Set: []int{5, 17}}, {Variant: Subtraction, Set: []int{64}, Misere: true},
		{Variant: Subtraction, K: 1_000_000}, {Variant: Subtraction, K: 2, Misere: true},
		{Variant: Greedy, Misere: true}, {Variant: Nim, Misere: true}, {Variant: Moore, K: 4, Misere: true},
		{Variant: TwentyOne, K: 7, Target: 1_000_000_000},
	}
	for _, r := range rulesList {
		rng := rand.New(rand.NewPCG(5, 5))
		for range 20 {
			n := 1 + rng.IntN(6)
			heaps := make([]int64, n)
			for i := range heaps {
				heaps[i] = rng.Int64N(MaxHeapSize + 1)
			}
			if rng.IntN(2) == 0 && n > 1 {
				heaps[1] = heaps[0] // often a lost position
			}
			p, err := r.Start(heaps)
			if r.Variant == TwentyOne {
				p, err = r.Start([]int64{rng.Int64N(1_000_000_000)})
			}
			if err != nil {
				t.Fatalf("%s %v: %v", r.Name(), heaps, err)
			}
			if r.Over(p) {
				continue
			}
			for _, d := range Difficulties() {
				m, err := r.Choose(p, d, rng)
				if err != nil {
					t.Fatalf("%s %v %s: %v", r.Name(), p.Heaps, d, err)
				}
				if _, err := r.Apply(p, m); err != nil {
					t.Fatalf("%s %v %s: illegal %+v: %v", r.Name(), p.Heaps, d, m, err)
				}
			}
		}
	}
}

// texts is each phrase in English.
func texts(ps []Phrase) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// tableText is a table's cells in English, header, rows and total in order.
func tableText(t *Table) [][]string {
	if t == nil {
		return nil
	}
	var out [][]string
	if len(t.Header) > 0 {
		out = append(out, texts(t.Header))
	}
	for _, r := range t.Rows {
		out = append(out, texts(r))
	}
	if len(t.Total) > 0 {
		out = append(out, texts(t.Total))
	}
	return out
}

// TestHintHoldOut holds what a lost position's hint says of its move to the
// test's own minimax: HoldOutLongest only when no move holds out longer,
// HoldOutFewestReplies only when no move leaves fewer winning replies.
// Every small lost position must be measured in full (HoldOutLongest).
// The large ones are where the search runs out of budget: there the hinted
// move is not the longest (Nim 6 27 29: A1 lasts 60 plies, the best 62;
// Kayles 2 19: 18 against 20; Lasker 9 9: 22 against 26; Wythoff 53 86:
// 42 against 66), so the hint may claim only the fewest replies.
func TestHintHoldOut(t *testing.T) {
	canon := func(children func(Position) []Position) func(Position) []Position {
		return func(p Position) []Position {
			kids := children(p)
			for i, k := range kids {
				kids[i] = multisetPos(k)
			}
			return kids
		}
	}
	greedy := takeChildren(func(p Position, i int, _ int64) bool { return p.Heaps[i] == slices.Max(p.Heaps) })
	check := func(t *testing.T, r Rules, children func(Position) []Position, memo map[string][2]int, p Position) HoldOut {
		t.Helper()
		h, err := r.Hint(p)
		if err != nil {
			t.Fatalf("%s: %v", FormatGame(r, p), err)
		}
		if h.MoverWins {
			return h.HoldOut
		}
		q, err := r.Apply(p, h.Move)
		if err != nil {
			t.Fatalf("%s: hinted %+v: %v", FormatGame(r, p), h.Move, err)
		}
		replies := func(q Position) int64 {
			if r.Over(q) {
				return math.MaxInt64 // the opponent has won already
			}
			a, err := r.Analyze(q)
			if err != nil {
				t.Fatal(err)
			}
			return a.WinningCount
		}
		_, got := remoteness(r.Misere, children, q, memo)
		mine := replies(q)
		for _, m := range r.Legal(p) {
			k, _ := r.Apply(p, m)
			switch h.HoldOut {
			case HoldOutLongest:
				if _, kr := remoteness(r.Misere, children, k, memo); kr > got {
					t.Errorf("%s: hint %s holds out longest, lasting %d plies; %s lasts %d",
						FormatGame(r, p), r.FormatMove(p, h.Move), got+1, r.FormatMove(p, m), kr+1)
					return h.HoldOut
				}
			case HoldOutFewestReplies:
				if n := replies(k); n < mine {
					t.Errorf("%s: hint %s leaves the fewest winning replies, %d; %s leaves %d",
						FormatGame(r, p), r.FormatMove(p, h.Move), mine, r.FormatMove(p, m), n)
					return h.HoldOut
				}
			}
		}
		return h.HoldOut
	}
	t.Run("small", func(t *testing.T) {
		for _, c := range []struct {
			r        Rules
			children func(Position) []Position
			heaps    int
			size     int64
		}{
			{Rules{Variant: Nim}, takeChildren(anyTake), 3, 6},
			{Rules{Variant: Nim, Misere: true}, takeChildren(anyTake), 3, 6},
			{Rules{Variant: Greedy, Misere: true}, greedy, 3, 5},
			{Rules{Variant: Lasker, Misere: true}, canon(laskerChildren), 3, 5},
			{Rules{Variant: Kayles}, canon(kaylesChildren), 3, 6},
			{Rules{Variant: Wythoff, Misere: true}, wythoffChildren, 2, 12},
		} {
			memo := map[string][2]int{}
			eachHeaps(c.heaps, c.size, func(h []int64) {
				p := Position{Heaps: h}
				if c.r.Over(p) {
					return
				}
				if a, _ := c.r.Analyze(p); !a.MoverWins {
					if hold := check(t, c.r, c.children, memo, p); hold != HoldOutLongest {
						t.Errorf("%s: a small lost position judged %d, not in full", FormatGame(c.r, p), hold)
					}
				}
			})
		}
	})
	t.Run("large", func(t *testing.T) {
		for _, c := range []struct {
			game     string
			children func(Position) []Position
		}{
			{"nim 6 27 29", takeChildren(anyTake)},
			{"kayles 2 19", canon(kaylesChildren)},
			{"lasker 9 9", canon(laskerChildren)},
			{"wythoff 53 86", wythoffChildren},
		} {
			r, p, err := ParseGame(c.game)
			if err != nil {
				t.Fatal(err)
			}
			if hold := check(t, r, c.children, map[string][2]int{}, p); hold == HoldOutUnjudged {
				t.Errorf("%s: every move can be compared, but the hint's is unjudged", c.game)
			}
		}
	})
}

// TestWhyNoMove: a position that holds something but allows no move says
// why; one with a move, or with every heap empty, has nothing to say.
func TestWhyNoMove(t *testing.T) {
	fib, set3 := Rules{Variant: Fibonacci}, Rules{Variant: Subtraction, Set: []int{3, 5}}
	opening1, err := fib.Start([]int64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r    Rules
		p    Position
		want string // "" when there is nothing to say
	}{
		{fib, opening1, "the first move may not take the whole heap, and the heap holds only 1"},
		{fib, Position{Heaps: []int64{5}, Limit: 0}, "the most that may be taken now is 0"},
		{fib, Position{Heaps: []int64{5}, Limit: 2}, ""},
		{fib, Position{Heaps: []int64{0}, Limit: 2}, ""},
		{set3, Position{Heaps: []int64{1, 2}}, "every heap holds less than 3, the least amount the set {3,5} lets you take"},
		{set3, Position{Heaps: []int64{1, 3}}, ""},
		{set3, Position{Heaps: []int64{0, 0}}, ""},
		{Rules{Variant: Nim}, Position{Heaps: []int64{0, 1}}, ""},
		{Rules{Variant: Nim}, Position{Heaps: []int64{0, 0}}, ""},
		{Rules{Variant: Nim}, Position{Heaps: []int64{-1}}, ""},
	} {
		why, ok := c.r.WhyNoMove(c.p)
		if ok != (c.want != "") || why.String() != c.want {
			t.Errorf("%s %v: WhyNoMove = %q, %v; want %q", c.r.Name(), c.p, why, ok, c.want)
		}
		if ok && !c.r.Over(c.p) {
			t.Errorf("%s %v: a reason for no move, but the position has one", c.r.Name(), c.p)
		}
	}
}
