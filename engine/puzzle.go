package engine

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Theme is the idea a puzzle exercises, one per row of shared/NIM.md's table
// that a player can learn: a puzzle of a theme is solved by that theory.
type Theme string

// The puzzle themes, in the order lessons teach them. A theme's value is
// the first part of a puzzle's id, so it never changes once published.
const (
	// ThemeTwentyOne: the 21 game, say the next multiple.
	ThemeTwentyOne Theme = "21"
	// ThemeResidues: take-away games S(1..k) and subtraction sets, heaps
	// read by their residues or Grundy values.
	ThemeResidues Theme = "residues"
	// ThemeNimSum: Bouton's nim-sum in normal-play Nim.
	ThemeNimSum Theme = "nimsum"
	// ThemeMisere: misère Nim's endgame, where the normal move loses.
	ThemeMisere Theme = "misere"
	// ThemeGreedy: Greedy Nim's count of largest heaps.
	ThemeGreedy Theme = "greedy"
	// ThemeZeckendorf: Fibonacci Nim and the smallest Zeckendorf term.
	ThemeZeckendorf Theme = "zeckendorf"
	// ThemeWythoff: Wythoff's game and its pairs.
	ThemeWythoff Theme = "wythoff"
	// ThemeGrundy: Grundy values of Lasker's Nim and Kayles.
	ThemeGrundy Theme = "grundy"
	// ThemeMoore: Moore's Nim_k, bits counted mod k+1.
	ThemeMoore Theme = "moore"
)

// Themes lists every puzzle theme in the order lessons teach them.
func Themes() []Theme {
	return []Theme{ThemeTwentyOne, ThemeResidues, ThemeNimSum, ThemeMisere, ThemeGreedy,
		ThemeZeckendorf, ThemeWythoff, ThemeGrundy, ThemeMoore}
}

// PuzzleLevels is how many levels of size each theme has: level 1 is the
// smallest positions, PuzzleLevels the largest.
const PuzzleLevels = 5

// Puzzle is a position where the player to move wins, with everything a
// puzzle page needs to know about it. The same ID always gives the same
// puzzle: it names the theme, the level and the seed it was drawn from.
type Puzzle struct {
	ID    string
	Theme Theme
	Level int
	Seed  uint32
	Rules Rules // normalized
	Start Position
	// Moves is how many of the solver's moves the puzzle lasts: each must
	// keep the win, against the engine's perfect defence in between
	// (Rules.Choose at Perfect). 1 or 2; a game that ends sooner ends the
	// puzzle, solved.
	Moves int
	// Winning is every winning first move (Rules.Analyze's list, complete:
	// puzzles are drawn with few winning moves).
	Winning []Move
	// Legal is how many legal first moves there are.
	Legal int
	// Difficulty estimates the puzzle's rating before anyone has tried it
	// (on the Glicko scale, 1500 the middle): what must be computed, how
	// few of the moves win, and how many moves the puzzle lasts.
	Difficulty int
}

// puzzleDraws is how many candidate positions one seed tries before it
// gives up; the tests show that every theme, level and seed tried finds
// one well within it.
const puzzleDraws = 400

// PuzzleID is the id of the puzzle of theme, level and seed.
func PuzzleID(t Theme, level int, seed uint32) string {
	return string(t) + "." + strconv.Itoa(level) + "." + strconv.FormatUint(uint64(seed), 10)
}

// ParsePuzzleID reads an id written by PuzzleID. It refuses anything else
// with ErrInvalid (ids arrive in custom_ids a client may have forged).
func ParsePuzzleID(id string) (Theme, int, uint32, error) {
	parts := strings.Split(id, ".")
	if len(parts) != 3 || !slices.Contains(Themes(), Theme(parts[0])) {
		return "", 0, 0, invalidf("no puzzle %q", id)
	}
	level, err := strconv.Atoi(parts[1])
	if err != nil || level < 1 || level > PuzzleLevels || parts[1] != strconv.Itoa(level) {
		return "", 0, 0, invalidf("no puzzle %q", id)
	}
	seed, err := strconv.ParseUint(parts[2], 10, 32)
	if err != nil || parts[2] != strconv.FormatUint(seed, 10) {
		return "", 0, 0, invalidf("no puzzle %q", id)
	}
	return Theme(parts[0]), level, uint32(seed), nil
}

// PuzzleByID is the puzzle an id names (NewPuzzle of its parts).
func PuzzleByID(id string) (Puzzle, error) {
	t, level, seed, err := ParsePuzzleID(id)
	if err != nil {
		return Puzzle{}, err
	}
	return NewPuzzle(t, level, seed)
}

// NewPuzzle draws the puzzle of theme t at level (1..PuzzleLevels) from
// seed. It is pure: the same arguments give the same puzzle on every
// machine and every run, because the positions are drawn from a PCG stream
// (whose output Go specifies) by this file's own arithmetic.
func NewPuzzle(t Theme, level int, seed uint32) (Puzzle, error) {
	gen, ok := themeGens[t]
	if !ok {
		return Puzzle{}, invalidf("no puzzle theme %q", string(t))
	}
	if level < 1 || level > PuzzleLevels {
		return Puzzle{}, invalidf("puzzle levels run from 1 to %d, not %d", PuzzleLevels, level)
	}
	d := &draw{src: rand.NewPCG(uint64(seed), themeStream(t, level))}
	for range puzzleDraws {
		r, p := gen(d, level)
		if z, ok := qualify(r, p, t, level); ok {
			z.Seed = seed
			z.ID = PuzzleID(t, level, seed)
			return z, nil
		}
	}
	return Puzzle{}, invalidf("puzzle %s found no position", PuzzleID(t, level, seed))
}

// themeStream keys the random stream by theme and level, so that one seed
// gives unrelated positions in different themes.
func themeStream(t Theme, level int) uint64 {
	h := uint64(14695981039346656037) // FNV-1a, written out so it is plainly fixed
	for i := 0; i < len(t); i++ {
		h = (h ^ uint64(t[i])) * 1099511628211
	}
	return h ^ uint64(level)
}

// draw is a source of small random numbers with its arithmetic fixed here,
// so a puzzle id means the same position in every Go release.
type draw struct{ src *rand.PCG }

// in returns a number in lo..hi (the tiny bias of the modulo does not matter
// for drawing positions).
func (d *draw) in(lo, hi int64) int64 {
	return lo + int64(d.src.Uint64()%uint64(hi-lo+1))
}

// heaps returns n heaps of lo..hi.
func (d *draw) heaps(n int, lo, hi int64) []int64 {
	h := make([]int64, n)
	for i := range h {
		h[i] = d.in(lo, hi)
	}
	return h
}

// themeGens draw one candidate position of a theme at a level; qualify
// keeps it or asks for another.
var themeGens = map[Theme]func(d *draw, level int) (Rules, Position){
	ThemeTwentyOne: func(d *draw, level int) (Rules, Position) {
		r := Rules{Variant: TwentyOne, Misere: true, K: 3, Target: 21}
		switch level {
		case 2:
			r.Target = int(d.in(25, 40))
		case 3:
			r.K, r.Target = int(d.in(4, 6)), int(d.in(30, 50))
		case 4:
			r.K, r.Target, r.Misere = int(d.in(4, 7)), int(d.in(40, 80)), false
		case 5:
			r.K, r.Target, r.Misere = int(d.in(6, 9)), int(d.in(60, 99)), d.in(0, 1) == 1
		}
		return r, Position{Heaps: []int64{d.in(2, int64(r.Target))}}
	},
	ThemeResidues: func(d *draw, level int) (Rules, Position) {
		sets := [][]int{{1, 2, 4}, {1, 3, 4}, {2, 5, 6}}
		r := Rules{Variant: Subtraction}
		var n int
		var hi int64
		switch level {
		case 1:
			r.K, n, hi = int(d.in(2, 4)), 2, 12
		case 2:
			r.K, n, hi = int(d.in(2, 6)), 3, 20
		case 3:
			r.K, n, hi, r.Misere = int(d.in(3, 7)), 3, 30, d.in(0, 1) == 1
		case 4:
			r.Set, n, hi = sets[d.in(0, 1)], 3, 20
		default:
			r.Set, n, hi, r.Misere = sets[d.in(1, 2)], 3, 24, d.in(0, 1) == 1
		}
		return r, Position{Heaps: d.heaps(n, 1, hi)}
	},
	ThemeNimSum: func(d *draw, level int) (Rules, Position) {
		n := []int{3, 3, 4, 4, 5}[level-1]
		hi := []int64{7, 15, 15, 31, 63}[level-1]
		return Rules{Variant: Nim}, Position{Heaps: d.heaps(n, 1, hi)}
	},
	ThemeMisere: func(d *draw, level int) (Rules, Position) {
		// The endgame: one heap of 2 or more among heaps of 0 and 1, where
		// the nim-sum's move is wrong (with two such heaps, misère play's
		// winning moves are normal play's).
		ones := []int64{2, 3, 4, 6, 8}[level-1]
		big := []int64{5, 9, 15, 31, 63}[level-1]
		h := d.heaps(int(ones), 0, 1)
		h = append(h, d.in(2, big))
		for i := len(h) - 1; i > 0; i-- {
			j := d.in(0, int64(i))
			h[i], h[j] = h[j], h[i]
		}
		return Rules{Variant: Nim, Misere: true}, Position{Heaps: h}
	},
	ThemeGreedy: func(d *draw, level int) (Rules, Position) {
		n := []int{3, 4, 4, 5, 6}[level-1]
		hi := []int64{5, 8, 12, 16, 24}[level-1]
		r := Rules{Variant: Greedy, Misere: level >= 3 && d.in(0, 1) == 1}
		h := d.heaps(n, 1, hi)
		// Ties at the top are the theme: copy the largest heap once or twice.
		top := slices.Max(h)
		for c := d.in(1, 2); c > 0; c-- {
			h[d.in(0, int64(n-1))] = top
		}
		return r, Position{Heaps: h}
	},
	ThemeZeckendorf: func(d *draw, level int) (Rules, Position) {
		hi := []int64{20, 60, 150, 400, 1000}[level-1]
		n := d.in(5, hi)
		limit := n - 1
		if level >= 2 && d.in(0, 2) > 0 {
			limit = d.in(1, min(n-1, 2*int64(bits.Len64(uint64(n)))+4))
		}
		return Rules{Variant: Fibonacci, Misere: level == 5 && d.in(0, 1) == 1}, Position{Heaps: []int64{n}, Limit: limit}
	},
	ThemeWythoff: func(d *draw, level int) (Rules, Position) {
		hi := []int64{8, 15, 30, 60, 120}[level-1]
		r := Rules{Variant: Wythoff, Misere: level >= 4 && d.in(0, 2) == 0}
		return r, Position{Heaps: d.heaps(2, 1, hi)}
	},
	ThemeGrundy: func(d *draw, level int) (Rules, Position) {
		// Sizes stay where the brute force of the tests reaches: Grundy
		// values are the point, not big numbers.
		switch level {
		case 1:
			return Rules{Variant: Lasker}, Position{Heaps: d.heaps(2, 1, 7)}
		case 2:
			return Rules{Variant: Lasker}, Position{Heaps: d.heaps(3, 1, 8)}
		case 3:
			return Rules{Variant: Kayles}, Position{Heaps: d.heaps(2, 1, 9)}
		case 4:
			return Rules{Variant: Kayles}, Position{Heaps: d.heaps(3, 1, 8)}
		}
		if d.in(0, 1) == 0 {
			return Rules{Variant: Lasker, Misere: true}, Position{Heaps: d.heaps(3, 1, 9)}
		}
		return Rules{Variant: Kayles}, Position{Heaps: d.heaps(3, 2, 11)}
	},
	ThemeMoore: func(d *draw, level int) (Rules, Position) {
		k := []int{2, 2, 2, 3, 3}[level-1]
		n := []int{3, 4, 4, 5, 5}[level-1]
		hi := []int64{3, 5, 7, 7, 9}[level-1]
		return Rules{Variant: Moore, K: k, Misere: level == 5 && d.in(0, 1) == 1}, Position{Heaps: d.heaps(n, 1, hi)}
	},
}

// qualify makes a puzzle of a drawn position, or refuses it: the player to
// move must win, few of the legal moves may win (one in three at most, so
// that guessing rarely solves it), and a misère endgame must be one where
// normal play's winning moves are not misère's.
func qualify(r Rules, p Position, t Theme, level int) (Puzzle, bool) {
	r, err := r.Normalize()
	if err != nil {
		return Puzzle{}, false
	}
	if r.Playable(p) != nil || r.Over(p) {
		return Puzzle{}, false
	}
	a, err := r.Analyze(p)
	if err != nil || !a.MoverWins || a.WinningCount != int64(len(a.Winning)) {
		return Puzzle{}, false
	}
	legal := r.Legal(p)
	if len(legal) == 0 || 3*len(a.Winning) > len(legal) {
		return Puzzle{}, false
	}
	if t == ThemeMisere {
		normal := r
		normal.Misere = false
		na, err := normal.Analyze(p)
		if err != nil || slices.EqualFunc(na.Winning, a.Winning, sameMoveExact) {
			return Puzzle{}, false
		}
	}
	z := Puzzle{Theme: t, Level: level, Rules: r, Start: p, Moves: 1, Winning: a.Winning, Legal: len(legal)}
	if level >= 4 && lastsTwo(r, p, a.Winning) {
		z.Moves = 2
	}
	z.Difficulty = estimate(z)
	return z, true
}

// sameMoveExact reports whether two moves are the same move.
func sameMoveExact(x, y Move) bool {
	return x.Kind == y.Kind && x.Heap == y.Heap && x.Take == y.Take && x.Parts == y.Parts && slices.Equal(x.Takes, y.Takes)
}

// lastsTwo reports whether every winning first move, answered by the
// engine's perfect defence, leaves the solver a second move to find: no
// winning move and no defence ends the game.
func lastsTwo(r Rules, p Position, winning []Move) bool {
	for _, m := range winning {
		q, err := r.Apply(p, m)
		if err != nil || r.Over(q) {
			return false
		}
		reply, err := r.Choose(q, Perfect, nil)
		if err != nil {
			return false
		}
		q, err = r.Apply(q, reply)
		if err != nil || r.Over(q) {
			return false
		}
	}
	return true
}

// themeBase is each theme's rating before the position's features: how hard
// its theory is to apply at the table.
var themeBase = map[Theme]float64{
	ThemeTwentyOne: 700, ThemeGreedy: 850, ThemeResidues: 1000, ThemeNimSum: 1050,
	ThemeMisere: 1100, ThemeZeckendorf: 1200, ThemeWythoff: 1200, ThemeGrundy: 1300, ThemeMoore: 1350,
}

// estimate is a puzzle's difficulty: the theme's base, plus what the
// position asks to compute (its level, bits of the largest heap, heaps
// beyond the first), the odds against guessing (legal moves per winning move), a
// second move to find, and misère play outside its own theme.
func estimate(z Puzzle) int {
	d := themeBase[z.Theme]
	d += 60 * float64(z.Level-1) // the level's sizes: more to compute
	biggest := slices.Max(z.Start.Heaps)
	d += 45 * float64(bits.Len64(uint64(biggest)))
	d += 50 * float64(len(z.Start.Heaps)-1)
	d += 90 * math.Log2(float64(z.Legal)/float64(len(z.Winning)))
	if z.Moves > 1 {
		d += 250
	}
	if z.Rules.Variant == Kayles {
		d += 200 // Kayles' Grundy values follow no short rule below 71 pins
	}
	if z.Rules.Misere && z.Theme != ThemeMisere && z.Theme != ThemeTwentyOne {
		d += 150
	}
	d = min(max(d, 400), 3000)
	return int(math.Round(d/10) * 10)
}

// LessonPuzzle is position k of theme's lesson: k 0 is the worked
// example, 1 to 3 the exercises, at levels 1, 1, 2 and 3. They are fixed
// puzzles (their seeds are fixed here), so every learner gets the same
// lesson, and the tests check each against the brute force.
func LessonPuzzle(t Theme, k int) (Puzzle, error) {
	if k < 0 || k > 3 {
		return Puzzle{}, invalidf("a lesson has positions 0 to 3, not %d", k)
	}
	return NewPuzzle(t, max(k, 1), uint32(7919+101*k))
}
