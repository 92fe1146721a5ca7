package engine

import (
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"testing"
)

// puzzleSeeds is how many seeds of every theme and level the claim tests
// draw: fewer under -race or -short, where the brute force is slow.
func puzzleSeeds() uint32 {
	if testing.Short() || raceEnabled {
		return 6
	}
	return 20
}

// bruteFor is the brute-force solver for a puzzle's rules (the move
// generators the agreement tests use, written from the rules alone), and
// whether the position is small enough for it: sums of heaps are searched
// as multisets (sumTree), so their size is the number of multisets below
// the position; Fibonacci's is heap times limit.
func bruteFor(r Rules, p Position) (children func(Position) []Position, multiset, small bool) {
	takeUpTo := func(k int) func(Position) []Position {
		return takeChildren(func(_ Position, _ int, n int64) bool { return n <= int64(k) })
	}
	var total, biggest int64
	for _, h := range p.Heaps {
		total += h
		biggest = max(biggest, h)
	}
	multisets := new(big.Int).Binomial(biggest+int64(len(p.Heaps)), int64(len(p.Heaps)))
	fewMultisets := multisets.Cmp(big.NewInt(150_000)) <= 0
	switch r.Variant {
	case Nim:
		return takeChildren(anyTake), true, fewMultisets
	case Subtraction:
		if len(r.Set) > 0 {
			set := r.Set
			return takeChildren(func(_ Position, _ int, n int64) bool { return slices.Contains(set, int(n)) }), true, fewMultisets
		}
		return takeUpTo(r.K), true, fewMultisets
	case TwentyOne:
		return takeUpTo(r.K), false, true
	case Greedy:
		return takeChildren(func(p Position, i int, _ int64) bool { return p.Heaps[i] == slices.Max(p.Heaps) }), true, fewMultisets
	case Fibonacci:
		return fibonacciChildren, false, p.Heaps[0] <= 200
	case Wythoff:
		return wythoffChildren, false, true
	case Moore:
		return mooreChildren(r.K), true, fewMultisets
	case Lasker:
		return laskerChildren, true, total <= 30
	case Kayles:
		return kaylesChildren, true, total <= 34
	}
	return nil, false, false
}

// solvers keeps one brute force per rules across the puzzles of a test, so
// its memo serves them all.
type solvers map[string]any

func (s solvers) check(t *testing.T, r Rules, p Position) bool {
	t.Helper()
	children, multiset, small := bruteFor(r, p)
	if !small {
		return false
	}
	key := fmt.Sprintf("%+v", r)
	if multiset {
		st, ok := s[key].(*sumTree)
		if !ok {
			st = newSumTree(r.Misere, children)
			s[key] = st
		}
		st.root = posKey(p)
		agreeWinning(t, r, st.tree, p)
		return true
	}
	g, ok := s[key].(*treeGame)
	if !ok {
		g = &treeGame{misere: r.Misere, children: children}
		s[key] = g
	}
	agreeWinning(t, r, g, p)
	return true
}

// agreeWinning is checkAgreement's comparison of the verdict and of the
// complete set of winning moves (by the positions they lead to). It leaves
// out checkAgreement's check of shorter listings, which Moore's Nim with
// k=3 on five heaps fails (mooreGame.winning(p, 3) is not the start of the
// full list for [7 3 3 5 7]): puzzles use the full list alone. It returns
// the engine's analysis.
func agreeWinning(t *testing.T, r Rules, g *treeGame, p Position) Analysis {
	t.Helper()
	a, err := r.Analyze(p)
	if err != nil {
		t.Fatalf("%v %v: Analyze: %v", r, p, err)
	}
	if want := g.wins(p); a.MoverWins != want {
		t.Fatalf("%v %v: engine says mover wins=%v, brute force says %v", r, p, a.MoverWins, want)
	}
	var got []string
	for _, m := range a.Winning {
		next, err := r.Apply(p, m)
		if err != nil {
			t.Fatalf("%v %v: winning move %+v is illegal: %v", r, p, m, err)
		}
		got = append(got, posKey(next))
	}
	slices.Sort(got)
	if want := g.winningChildren(p); !slices.Equal(got, want) || a.WinningCount != int64(len(want)) {
		t.Fatalf("%v %v: engine's winning moves lead to %v (count %d), brute force's to %v", r, p, got, a.WinningCount, want)
	}
	return a
}

// TestPuzzleClaims draws puzzles of every theme and level and checks what
// each claims: the player to move wins; the winning moves it states are
// exactly the legal moves into a position the engine calls lost, and, where
// the position is small enough, exactly the brute force's; one in three
// legal moves wins at most; a two-move puzzle leaves a second move to find
// after every winning move and the engine's defence, and that move exists
// (by the brute force too); a misère endgame's winning moves are not normal
// play's. The same id gives the same puzzle.
func TestPuzzleClaims(t *testing.T) {
	brute := solvers{}
	for _, theme := range Themes() {
		for level := 1; level <= PuzzleLevels; level++ {
			t.Run(fmt.Sprintf("%s/%d", theme, level), func(t *testing.T) {
				checked, twoMove := 0, 0
				for seed := range puzzleSeeds() {
					z, err := NewPuzzle(theme, level, seed)
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if again, err := PuzzleByID(z.ID); err != nil || !reflect.DeepEqual(again, z) {
						t.Fatalf("%s drawn again gives %+v, %v; first %+v", z.ID, again, err, z)
					}
					checkPuzzleMoves(t, z)
					if brute.check(t, z.Rules, z.Start) {
						checked++
					}
					if z.Moves == 2 {
						twoMove++
						checkSecondMove(t, z, brute)
					}
					if theme == ThemeMisere {
						normal := z.Rules
						normal.Misere = false
						na, err := normal.Analyze(z.Start)
						if err != nil || slices.EqualFunc(na.Winning, z.Winning, sameMove) {
							t.Errorf("%s: a misère endgame whose winning moves are normal play's (%v)", z.ID, err)
						}
					}
				}
				t.Logf("%d puzzles checked by the brute force, %d lasting two moves", checked, twoMove)
				if level <= 3 && checked == 0 {
					t.Errorf("no puzzle of level %d was small enough for the brute force", level)
				}
			})
		}
	}
}

// checkPuzzleMoves checks the winning set against every legal move,
// each judged by the engine's verdict on the position it leads to.
func checkPuzzleMoves(t *testing.T, z Puzzle) {
	t.Helper()
	a, err := z.Rules.Analyze(z.Start)
	if err != nil || !a.MoverWins {
		t.Fatalf("%s: the player to move does not win (%v)", z.ID, err)
	}
	legal := z.Rules.Legal(z.Start)
	if len(legal) != z.Legal || len(legal) == 0 {
		t.Fatalf("%s: %d legal moves, the puzzle says %d", z.ID, len(legal), z.Legal)
	}
	var wins []Move
	for _, m := range legal {
		q, err := z.Rules.Apply(z.Start, m)
		if err != nil {
			t.Fatalf("%s: legal move %+v: %v", z.ID, m, err)
		}
		qa, err := z.Rules.Analyze(q)
		if err != nil {
			t.Fatalf("%s: after %+v: %v", z.ID, m, err)
		}
		if !qa.MoverWins {
			wins = append(wins, m)
		}
	}
	if !slices.EqualFunc(wins, z.Winning, sameMove) {
		t.Fatalf("%s: the moves into lost positions are %+v, the puzzle states %+v", z.ID, wins, z.Winning)
	}
	if 3*len(z.Winning) > z.Legal {
		t.Errorf("%s: %d of %d moves win: not a puzzle", z.ID, len(z.Winning), z.Legal)
	}
	if z.Difficulty < 400 || z.Difficulty > 3000 {
		t.Errorf("%s: difficulty %d", z.ID, z.Difficulty)
	}
}

// checkSecondMove plays every winning first move of a two-move puzzle and
// the engine's defence, and checks that the player then has a winning
// move, by the engine and, where small enough, the brute force.
func checkSecondMove(t *testing.T, z Puzzle, brute solvers) {
	t.Helper()
	for _, m := range z.Winning {
		q, _ := z.Rules.Apply(z.Start, m)
		reply, err := z.Rules.Choose(q, Perfect, nil)
		if err != nil {
			t.Fatalf("%s after %+v: the defence: %v", z.ID, m, err)
		}
		q, err = z.Rules.Apply(q, reply)
		if err != nil || z.Rules.Over(q) {
			t.Fatalf("%s after %+v and %+v: over or illegal (%v)", z.ID, m, reply, err)
		}
		a, err := z.Rules.Analyze(q)
		if err != nil || !a.MoverWins || len(a.Winning) == 0 {
			t.Fatalf("%s after %+v and %+v: no second winning move (%v)", z.ID, m, reply, err)
		}
		brute.check(t, z.Rules, q)
	}
}

// TestPuzzleDifficultyRises checks the estimate against the levels: in
// every theme, each level's puzzles are harder on average than the level
// below.
func TestPuzzleDifficultyRises(t *testing.T) {
	for _, theme := range Themes() {
		prev := 0.0
		for level := 1; level <= PuzzleLevels; level++ {
			sum := 0
			const n = 40 // drawing alone is cheap, even under -race
			for seed := range uint32(n) {
				z, err := NewPuzzle(theme, level, seed)
				if err != nil {
					t.Fatal(err)
				}
				sum += z.Difficulty
			}
			mean := float64(sum) / float64(n)
			if mean <= prev {
				t.Errorf("%s: level %d averages %.0f, level %d %.0f", theme, level, mean, level-1, prev)
			}
			prev = mean
		}
	}
}

// TestPuzzleIDs checks that an id names one puzzle in one spelling, and
// that the ids published stay the same puzzles: these were drawn when the
// generator was written, and a change that moves them would change every
// stored rating's meaning.
func TestPuzzleIDs(t *testing.T) {
	for _, bad := range []string{"", "nimsum", "nimsum.1", "nimsum.0.1", "nimsum.6.1", "nimsum.1.-1",
		"nimsum.01.1", "nimsum.1.01", "nimsum.1.4294967296", "chess.1.1", "nimsum.1.1.1", "nimsum.1.+1", "NIMSUM.1.1"} {
		if _, err := PuzzleByID(bad); err == nil {
			t.Errorf("PuzzleByID(%q) gave a puzzle", bad)
		}
	}
	if _, err := NewPuzzle("chess", 1, 1); err == nil {
		t.Error("NewPuzzle of an unknown theme gave a puzzle")
	}
	if _, err := NewPuzzle(ThemeNimSum, 0, 1); err == nil {
		t.Error("NewPuzzle of level 0 gave a puzzle")
	}
	for _, tc := range []struct {
		id, game   string
		moves, est int
	}{
		{"21.1.7", "21 k=3 target=21 count=2", 1, 1070},
		{"21.5.7", "21 k=6 target=75 count=30", 2, 1690},
		{"residues.1.7", "subtraction k=4 11 3", 1, 1390},
		{"residues.5.7", "subtraction set=2,5,6 20 8 3", 2, 2070},
		{"nimsum.1.7", "6 2 5", 1, 1620},
		{"nimsum.5.7", "52 4 48 7 44", 2, 2520},
		{"misere.1.7", "nim misere 3 1 1", 1, 1500},
		{"misere.5.7", "nim misere 9 0 1 1 0 0 1 1 0", 2, 2500},
		{"greedy.1.7", "greedy 2 1 3", 1, 1180},
		{"greedy.5.7", "greedy 14 17 3 16 20 18", 2, 2200},
		{"zeckendorf.1.7", "fibonacci 18", 1, 1790},
		{"zeckendorf.5.7", "fibonacci misere 421", 1, 2600},
		{"wythoff.1.7", "wythoff 1 1", 1, 1440},
		{"wythoff.5.7", "wythoff 95, 103", 2, 2790},
		{"grundy.1.7", "lasker 4 1", 1, 1760},
		{"grundy.5.7", "kayles 4 4 9", 2, 2720},
		{"moore.1.7", "moore k=2 1 3 2", 1, 1910},
		{"moore.5.7", "moore misere k=3 8 8 1 9 8", 2, 3000},
	} {
		z, err := PuzzleByID(tc.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatGame(z.Rules, z.Start); got != tc.game || z.Moves != tc.moves || z.Difficulty != tc.est {
			t.Errorf("%s is %q in %d moves (difficulty %d), published as %q in %d (%d)", tc.id, got, z.Moves, z.Difficulty, tc.game, tc.moves, tc.est)
		}
	}
}

// TestLessonPuzzles checks every lesson's example and exercises as the
// generator's puzzles are checked, each against the brute force.
func TestLessonPuzzles(t *testing.T) {
	brute := solvers{}
	for _, theme := range Themes() {
		for k := 0; k <= 3; k++ {
			z, err := LessonPuzzle(theme, k)
			if err != nil {
				t.Fatalf("%s %d: %v", theme, k, err)
			}
			checkPuzzleMoves(t, z)
			if !brute.check(t, z.Rules, z.Start) {
				t.Errorf("%s: lesson position %d is too large for the brute force", z.ID, k)
			}
		}
	}
	if _, err := LessonPuzzle(ThemeNimSum, 4); err == nil {
		t.Error("a lesson position 4")
	}
}
