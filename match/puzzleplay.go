package match

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"nimbot/engine"
)

// PuzzleState is where a puzzle run stands.
type PuzzleState uint8

// The states of a puzzle run.
const (
	// PuzzleSolving: the solver is to move.
	PuzzleSolving PuzzleState = iota
	// PuzzleSolved: every move kept the win for as long as the puzzle
	// lasts (or the game ended in the solver's favour).
	PuzzleSolved
	// PuzzleFailed: a move gave the win away.
	PuzzleFailed
)

// PuzzleRun is one attempt at a puzzle in progress: the solver's moves,
// the engine's perfect defence in between, and, once failed, what went
// wrong. It is rebuilt from the solver's moves alone (ReplayPuzzle), since
// the defence is deterministic: a custom_id carrying the puzzle id and the
// moves is the whole state, and no row holds an unfinished attempt.
type PuzzleRun struct {
	Puzzle engine.Puzzle
	// Position is the position now: the solver's to move while Solving.
	Position engine.Position
	// Played are the solver's moves; Replies the defence's, one after each
	// of Played but the last when the run ended on it.
	Played  []engine.Move
	Replies []engine.Move
	State   PuzzleState
	// On failure: the position the losing move was played in, the winning
	// moves there (what would have won), and the defence's answer to the
	// losing move (how it is punished).
	FailedAt   engine.Position
	Better     []engine.Move
	Refutation engine.Move
}

// StartPuzzle is a run of z with no move played.
func StartPuzzle(z engine.Puzzle) *PuzzleRun {
	return &PuzzleRun{Puzzle: z, Position: clonePosition(z.Start)}
}

// ReplayPuzzle rebuilds the run of z after the solver's moves. An illegal
// move, or a move after the run ended, is an error (the moves came from a
// custom_id a client may have forged).
func ReplayPuzzle(z engine.Puzzle, moves []engine.Move) (*PuzzleRun, error) {
	run := StartPuzzle(z)
	for _, m := range moves {
		if err := run.Play(m); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// Play plays the solver's move m. A winning move keeps the run going, with
// the defence's reply played, or solves it; a losing one fails it. An
// illegal move is refused with the engine's *engine.MoveError and changes
// nothing (a slip of the hand is not a wrong idea); a move after the run
// ended is ErrOver.
func (run *PuzzleRun) Play(m engine.Move) error {
	if run.State != PuzzleSolving {
		return ErrOver
	}
	r := run.Puzzle.Rules
	next, err := r.Apply(run.Position, m)
	if err != nil {
		return err
	}
	a, err := r.Analyze(next)
	if err != nil {
		return err
	}
	run.Played = append(run.Played, m)
	if a.MoverWins {
		// The opponent to move wins (a finished game counts too: in misère
		// play the player who cannot move has won).
		before, err := r.Analyze(run.Position)
		if err != nil {
			return err
		}
		run.State, run.FailedAt, run.Better = PuzzleFailed, run.Position, before.Winning
		if !r.Over(next) {
			if run.Refutation, err = r.Choose(next, engine.Perfect, nil); err != nil {
				return err
			}
		}
		run.Position = next
		return nil
	}
	if r.Over(next) || len(run.Played) >= run.Puzzle.Moves {
		run.State, run.Position = PuzzleSolved, next
		return nil
	}
	reply, err := r.Choose(next, engine.Perfect, nil)
	if err != nil {
		return err
	}
	if next, err = r.Apply(next, reply); err != nil {
		return err
	}
	run.Replies = append(run.Replies, reply)
	run.Position = next
	if r.Over(next) {
		// The defence made the last move from a lost position: only in
		// misère play, where that loses.
		run.State = PuzzleSolved
	}
	return nil
}

// MovesLeft is how many more of the solver's moves the puzzle asks for.
func (run *PuzzleRun) MovesLeft() int {
	if run.State != PuzzleSolving {
		return 0
	}
	return run.Puzzle.Moves - len(run.Played)
}

func clonePosition(p engine.Position) engine.Position {
	return engine.Position{Heaps: slices.Clone(p.Heaps), Limit: p.Limit}
}

// puzzleCandidates is how many puzzles NextPuzzle draws before it settles
// for the nearest unseen one.
const puzzleCandidates = 36

// puzzleWindows are the distances from the rating NextPuzzle accepts, in
// turn: near first, wider when too few puzzles are that near.
var puzzleWindows = []float64{75, 150, 300, 600}

// NextPuzzle chooses a puzzle near rating, of theme ("" for any), not one
// seen reports seen (nil: none seen), from seed: the same arguments give
// the same puzzle. It draws candidates at random themes (or theme) and
// levels and takes the first within the narrowest window that has one; if
// every candidate was seen it returns the nearest anyway.
func NextPuzzle(rating float64, theme engine.Theme, seen func(id string) bool, seed uint64) (engine.Puzzle, error) {
	if theme != "" && !slices.Contains(engine.Themes(), theme) {
		return engine.Puzzle{}, ErrInvalid
	}
	// PCG's output is specified; the arithmetic on it is this file's, so
	// every instance and release draws the same (the daily puzzle).
	src := rand.NewPCG(seed, 0x6e696d707a6c)
	pick := func(n int) int { return int(src.Uint64() % uint64(n)) }
	themes := engine.Themes()
	var cands []engine.Puzzle
	for range puzzleCandidates {
		t := theme
		if t == "" {
			t = themes[pick(len(themes))]
		}
		z, err := engine.NewPuzzle(t, 1+pick(engine.PuzzleLevels), uint32(src.Uint64()>>32))
		if err != nil {
			return engine.Puzzle{}, err
		}
		cands = append(cands, z)
	}
	dist := func(z engine.Puzzle) float64 { return math.Abs(float64(z.Difficulty) - rating) }
	unseen := func(z engine.Puzzle) bool { return seen == nil || !seen(z.ID) }
	for _, w := range puzzleWindows {
		for _, z := range cands {
			if dist(z) <= w && unseen(z) {
				return z, nil
			}
		}
	}
	best := -1
	for i, z := range cands {
		if best < 0 || (unseen(z) && !unseen(cands[best])) || (unseen(z) == unseen(cands[best]) && dist(z) < dist(cands[best])) {
			best = i
		}
	}
	return cands[best], nil
}

// StreakRating is the difficulty the n-th puzzle of a streak (from 0) is
// drawn near: a ladder from 900 up by 150 every three puzzles, to 2700
// (the way puzzle sites climb from easy to hard until the first mistake).
func StreakRating(n int) float64 { return min(900+150*float64(n/3), 2700) }

// StreakPuzzle is the n-th puzzle of the streak drawn from seed.
func StreakPuzzle(seed uint64, n int) (engine.Puzzle, error) {
	return NextPuzzle(StreakRating(n), "", nil, seed^uint64(n)*0x9e3779b97f4a7c15)
}

// DailyPuzzle is the puzzle of the UTC day of t, the same on every
// instance: drawn near 1500 from the day's number.
func DailyPuzzle(t time.Time) (engine.Puzzle, error) {
	return NextPuzzle(1500, "", nil, uint64(DayNumber(t))*0x2545f4914f6cdd1d+1)
}
