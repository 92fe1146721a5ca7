package match

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"nimbot/engine"
)

// samplePuzzles are puzzles of every theme and level, a few seeds each.
func samplePuzzles(t *testing.T) []engine.Puzzle {
	t.Helper()
	var zs []engine.Puzzle
	for _, theme := range engine.Themes() {
		for level := 1; level <= engine.PuzzleLevels; level++ {
			for seed := range uint32(3) {
				z, err := engine.NewPuzzle(theme, level, seed)
				if err != nil {
					t.Fatal(err)
				}
				zs = append(zs, z)
			}
		}
	}
	return zs
}

func sameMoves(a, b []engine.Move) bool {
	return reflect.DeepEqual(a, b) || (len(a) == 0 && len(b) == 0)
}

// TestPuzzleRunSolved plays every winning first move of every sample
// puzzle, then any winning move while the run asks for more: the run is
// solved after the puzzle's number of moves (or sooner, if the game ends
// in the solver's favour), with the defence's reply after each move but
// the last, and can be replayed from the solver's moves alone.
func TestPuzzleRunSolved(t *testing.T) {
	for _, z := range samplePuzzles(t) {
		for _, first := range z.Winning {
			run := StartPuzzle(z)
			m := first
			for run.State == PuzzleSolving {
				if len(run.Played) >= z.Moves {
					t.Fatalf("%s: still solving after %d moves", z.ID, len(run.Played))
				}
				if err := run.Play(m); err != nil {
					t.Fatalf("%s: winning move %+v: %v", z.ID, m, err)
				}
				if run.State == PuzzleFailed {
					t.Fatalf("%s: the winning move %+v failed the run", z.ID, m)
				}
				if run.State == PuzzleSolving {
					a, err := z.Rules.Analyze(run.Position)
					if err != nil || !a.MoverWins {
						t.Fatalf("%s: after the defence the solver does not win (%v)", z.ID, err)
					}
					m = a.Winning[len(a.Winning)-1]
				}
			}
			if len(run.Played) != z.Moves && !z.Rules.Over(run.Position) {
				t.Fatalf("%s: solved after %d of %d moves with the game still on", z.ID, len(run.Played), z.Moves)
			}
			if len(run.Replies) != len(run.Played)-1 && !(z.Rules.Misere && len(run.Replies) == len(run.Played)) {
				t.Fatalf("%s: %d moves, %d replies", z.ID, len(run.Played), len(run.Replies))
			}
			if run.MovesLeft() != 0 {
				t.Fatalf("%s: a solved run has %d moves left", z.ID, run.MovesLeft())
			}
			again, err := ReplayPuzzle(z, run.Played)
			if err != nil || !reflect.DeepEqual(again, run) {
				t.Fatalf("%s: replayed %+v, %v; played %+v", z.ID, again, err, run)
			}
			if err := run.Play(first); !errors.Is(err, ErrOver) {
				t.Fatalf("%s: a move after the end: %v", z.ID, err)
			}
		}
	}
}

// TestPuzzleRunFailed plays a losing first move in every sample puzzle:
// the run fails at the start, names every winning move there as what would
// have won, and the defence's answer is a winning move for it.
func TestPuzzleRunFailed(t *testing.T) {
	for _, z := range samplePuzzles(t) {
		var losing engine.Move
		found := false
		for _, m := range z.Rules.Legal(z.Start) {
			if !slices.ContainsFunc(z.Winning, func(w engine.Move) bool { return reflect.DeepEqual(w, m) }) {
				losing, found = m, true
				break
			}
		}
		if !found {
			t.Fatalf("%s: every move wins", z.ID)
		}
		run, err := ReplayPuzzle(z, []engine.Move{losing})
		if err != nil {
			t.Fatal(err)
		}
		if run.State != PuzzleFailed || !reflect.DeepEqual(run.FailedAt, z.Start) || !sameMoves(run.Better, z.Winning) {
			t.Fatalf("%s: after the losing %+v: %+v", z.ID, losing, run)
		}
		if z.Rules.Over(run.Position) {
			continue
		}
		a, err := z.Rules.Analyze(run.Position)
		if err != nil || !slices.ContainsFunc(a.Winning, func(w engine.Move) bool { return reflect.DeepEqual(w, run.Refutation) }) {
			t.Fatalf("%s: the refutation %+v is not a winning move (%v)", z.ID, run.Refutation, err)
		}
	}
}

// TestPuzzleRunIllegal: an illegal move is refused and changes nothing.
func TestPuzzleRunIllegal(t *testing.T) {
	z, err := engine.NewPuzzle(engine.ThemeNimSum, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	run := StartPuzzle(z)
	bad := engine.Move{Kind: engine.Take, Heap: 0, Take: z.Start.Heaps[0] + 1}
	var me *engine.MoveError
	if err := run.Play(bad); !errors.As(err, &me) {
		t.Fatalf("an illegal move: %v", err)
	}
	if run.State != PuzzleSolving || len(run.Played) != 0 || !reflect.DeepEqual(run.Position, z.Start) {
		t.Fatalf("the illegal move changed the run: %+v", run)
	}
	if _, err := ReplayPuzzle(z, []engine.Move{bad}); err == nil {
		t.Fatal("ReplayPuzzle took an illegal move")
	}
}

// TestNextPuzzle: the same arguments give the same puzzle; it is near the
// rating, of the theme asked for, and not one seen.
func TestNextPuzzle(t *testing.T) {
	for _, rating := range []float64{900, 1500, 2200} {
		for seed := range uint64(5) {
			z, err := NextPuzzle(rating, "", nil, seed)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := NextPuzzle(rating, "", nil, seed)
			if again.ID != z.ID {
				t.Fatalf("NextPuzzle(%v, seed %d) gave %s, then %s", rating, seed, z.ID, again.ID)
			}
			if d := float64(z.Difficulty) - rating; d > 300 || d < -300 {
				t.Errorf("NextPuzzle(%v, seed %d) = %s of difficulty %d", rating, seed, z.ID, z.Difficulty)
			}
			seen := map[string]bool{z.ID: true}
			other, err := NextPuzzle(rating, "", func(id string) bool { return seen[id] }, seed)
			if err != nil || other.ID == z.ID {
				t.Errorf("with %s seen, NextPuzzle gave %s, %v", z.ID, other.ID, err)
			}
		}
	}
	for _, theme := range engine.Themes() {
		z, err := NextPuzzle(1500, theme, nil, 1)
		if err != nil || z.Theme != theme {
			t.Errorf("NextPuzzle of %s gave %s, %v", theme, z.ID, err)
		}
	}
	if _, err := NextPuzzle(1500, "chess", nil, 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("NextPuzzle of an unknown theme: %v", err)
	}
	// Every candidate seen: the nearest is given all the same.
	if z, err := NextPuzzle(1500, engine.ThemeWythoff, func(string) bool { return true }, 3); err != nil || z.Theme != engine.ThemeWythoff {
		t.Errorf("with everything seen: %s, %v", z.ID, err)
	}
}

// TestStreak: the ladder rises and tops out; a streak's puzzles are fixed
// by its seed, and later puzzles are harder on average.
func TestStreak(t *testing.T) {
	for n := 1; n < 60; n++ {
		if StreakRating(n) < StreakRating(n-1) {
			t.Fatalf("the ladder falls at %d", n)
		}
	}
	if StreakRating(0) != 900 || StreakRating(1000) != 2700 {
		t.Fatalf("the ladder runs from %v to %v", StreakRating(0), StreakRating(1000))
	}
	var early, late float64
	for seed := range uint64(4) {
		for n := range 3 {
			a, err := StreakPuzzle(seed, n)
			b, _ := StreakPuzzle(seed, n)
			if err != nil || a.ID != b.ID {
				t.Fatalf("streak %d puzzle %d: %s then %s (%v)", seed, n, a.ID, b.ID, err)
			}
			early += float64(a.Difficulty)
			z, err := StreakPuzzle(seed, n+24)
			if err != nil {
				t.Fatal(err)
			}
			late += float64(z.Difficulty)
		}
	}
	if late <= early {
		t.Errorf("puzzles 24-26 of a streak average %v, the first three %v", late/12, early/12)
	}
}

// TestDailyPuzzle: one puzzle per UTC day, whatever the hour or zone.
func TestDailyPuzzle(t *testing.T) {
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	z, err := DailyPuzzle(day)
	if err != nil {
		t.Fatal(err)
	}
	tokyo := time.FixedZone("JST", 9*3600)
	for _, at := range []time.Time{day.Add(23*time.Hour + 59*time.Minute), day.In(tokyo), day.Add(12 * time.Hour).In(tokyo)} {
		if o, err := DailyPuzzle(at); err != nil || o.ID != z.ID {
			t.Errorf("at %v: %s, the day's is %s (%v)", at, o.ID, z.ID, err)
		}
	}
	ids := map[string]bool{}
	for d := range 7 {
		o, err := DailyPuzzle(day.AddDate(0, 0, d))
		if err != nil {
			t.Fatal(err)
		}
		ids[o.ID] = true
	}
	if len(ids) < 6 {
		t.Errorf("a week of daily puzzles has %d different ones: %v", len(ids), ids)
	}
}
