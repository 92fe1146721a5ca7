package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"nimbot/engine"
	"nimbot/match"
)

// runPuzzleContract runs the puzzle part of the contract (PuzzleStorage).
func runPuzzleContract(t *testing.T, open func(*testing.T) match.Storage) {
	t.Run("PuzzleAttempts", func(t *testing.T) { testPuzzleAttempts(t, open(t)) })
	t.Run("PuzzleDoubleClick", func(t *testing.T) { testPuzzleDoubleClick(t, open(t)) })
	t.Run("PuzzleRace", func(t *testing.T) { testPuzzleRace(t, open(t)) })
}

// attempt is a rated attempt by user at puzzle, keyed by key, in guild g1.
func attempt(key, user, puzzle string, solved bool) match.PuzzleAttempt {
	return match.PuzzleAttempt{AttemptKey: key, UserID: user, Scope: "g1", PuzzleID: puzzle, Theme: engine.ThemeNimSum,
		Initial: match.Glicko{Rating: 1500, Deviation: 300, Volatility: 0.06}, Solved: solved, Rated: true}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func sameGlicko(a, b match.Glicko) bool {
	return near(a.Rating, b.Rating) && near(a.Deviation, b.Deviation) && near(a.Volatility, b.Volatility)
}

// warmUp gives user attempts at puzzles of their own until their deviation
// says they are known (match.ProvisionalDeviation), so that their attempts
// move puzzles too.
func warmUp(t *testing.T, db match.Storage, user string) {
	t.Helper()
	ctx := context.Background()
	for i := 0; ; i++ {
		s, err := db.PuzzleStats(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		if s.Rating.Deviation <= match.ProvisionalDeviation {
			return
		}
		if i == 20 {
			t.Fatalf("%s still provisional after 20 attempts: %+v", user, s)
		}
		if _, err := db.RecordPuzzleAttempt(ctx, attempt(fmt.Sprint("warm-", user, i), user, fmt.Sprint("nimsum.1.", 1000+i), i%2 == 0)); err != nil {
			t.Fatal(err)
		}
	}
}

// testPuzzleAttempts: a user with no attempt has the initial rating; a
// rated first attempt moves the user's rating by match's rule and is
// counted; a retry at the same puzzle is counted but not rated; a known
// user's attempt moves the puzzle, and the next attempt at it starts from
// the moved rating; casual attempts keep the best streak; the board of a
// scope holds its members, best first; PuzzlesSeen knows what was tried;
// refusals and a used interaction write nothing.
func testPuzzleAttempts(t *testing.T, db match.Storage) {
	ctx := context.Background()
	s, err := db.PuzzleStats(ctx, "ann")
	if err != nil || !sameGlicko(s.Rating, match.NewGlicko()) || s.Attempted != 0 || s.Solved != 0 || s.BestStreak != 0 {
		t.Fatalf("a newcomer's puzzle stats: %+v, %v", s, err)
	}
	a := attempt("k1", "ann", "nimsum.2.5", true)
	out, err := db.RecordPuzzleAttempt(ctx, a)
	wantPlayer, wantPuzzle := match.RatePuzzleAttempt(match.NewGlicko(), a.Initial, true, a.Theme)
	if err != nil || !out.Rated || !out.Solved || !near(out.Player, wantPlayer.Rating) || !near(out.PlayerChange, wantPlayer.Rating-1500) ||
		!near(out.Puzzle, wantPuzzle.Rating) {
		t.Fatalf("first attempt: %+v, %v; want player %v, puzzle %v", out, err, wantPlayer.Rating, wantPuzzle.Rating)
	}
	if read, err := db.PuzzleAttemptOutcome(ctx, "k1"); err != nil || read != out {
		t.Fatalf("the attempt read back: %+v, %v; recorded %+v", read, err, out)
	}
	if _, err := db.PuzzleAttemptOutcome(ctx, "k0"); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("an unknown attempt: %v", err)
	}
	s, err = db.PuzzleStats(ctx, "ann")
	if err != nil || !sameGlicko(s.Rating, wantPlayer) || s.Attempted != 1 || s.Solved != 1 {
		t.Fatalf("after one solved attempt: %+v, %v; want rating %+v", s, err, wantPlayer)
	}
	// A retry is counted, not rated.
	out, err = db.RecordPuzzleAttempt(ctx, attempt("k2", "ann", "nimsum.2.5", false))
	if err != nil || out.Rated || out.PlayerChange != 0 || out.PuzzleChange != 0 || near(out.Player, 1500) {
		t.Fatalf("a retry: %+v, %v", out, err)
	}
	if s2, err := db.PuzzleStats(ctx, "ann"); err != nil || !sameGlicko(s2.Rating, wantPlayer) || s2.Attempted != 2 || s2.Solved != 1 {
		t.Fatalf("after a retry: %+v, %v", s2, err)
	}

	// A known user moves the puzzle; the next attempt at it starts there.
	warmUp(t, db, "bob")
	before, err := db.PuzzleStats(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	out, err = db.RecordPuzzleAttempt(ctx, attempt("k3", "bob", "wythoff.3.9", false))
	p, z := match.RatePuzzleAttempt(before.Rating, match.Glicko{Rating: 1500, Deviation: 300, Volatility: 0.06}, false, engine.ThemeNimSum)
	if err != nil || !out.Rated || out.PuzzleChange <= 0 || !near(out.Puzzle, z.Rating) || !near(out.Player, p.Rating) {
		t.Fatalf("a known user's failure: %+v, %v; want player %v, puzzle %v", out, err, p.Rating, z.Rating)
	}
	next, err := db.RecordPuzzleAttempt(ctx, attempt("k4", "ann", "wythoff.3.9", true))
	if err != nil || !near(next.Puzzle-next.PuzzleChange, z.Rating) {
		t.Fatalf("the next attempt at the puzzle starts from %v, want %v (%v)", next.Puzzle-next.PuzzleChange, z.Rating, err)
	}

	// Streaks: casual attempts, the longest run kept.
	for i, streak := range []int{3, 5, 2} {
		c := attempt(fmt.Sprint("streak-", i), "cid", fmt.Sprint("greedy.1.", i), true)
		c.Rated, c.Streak, c.Scope = false, streak, "g2"
		if out, err := db.RecordPuzzleAttempt(ctx, c); err != nil || out.Rated || out.PlayerChange != 0 {
			t.Fatalf("a streak attempt: %+v, %v", out, err)
		}
	}
	if s, err := db.PuzzleStats(ctx, "cid"); err != nil || s.BestStreak != 5 || s.Attempted != 3 || !sameGlicko(s.Rating, match.NewGlicko()) {
		t.Fatalf("after streaks of 3, 5 and 2: %+v, %v", s, err)
	}

	// Boards: g1 holds ann and bob, best first; g2 cid alone.
	board, err := db.PuzzleLeaderboard(ctx, "g1", 10)
	if err != nil || len(board) != 2 || board[0].Rating.Rating < board[1].Rating.Rating {
		t.Fatalf("g1's puzzle board: %+v, %v", board, err)
	}
	if names := []string{board[0].UserID, board[1].UserID}; !slices.Contains(names, "ann") || !slices.Contains(names, "bob") {
		t.Fatalf("g1's puzzle board: %v", names)
	}
	if board, err := db.PuzzleLeaderboard(ctx, "g2", 10); err != nil || len(board) != 1 || board[0].UserID != "cid" || board[0].BestStreak != 5 {
		t.Fatalf("g2's puzzle board: %+v, %v", board, err)
	}
	if board, err := db.PuzzleLeaderboard(ctx, "g1", 1); err != nil || len(board) != 1 {
		t.Fatalf("g1's board of one: %+v, %v", board, err)
	}

	// nimsum.2.5: ann solved, then retried and failed; wythoff.3.9: bob
	// failed, ann solved.
	for _, c := range []struct {
		id               string
		attempts, solves int
	}{{"nimsum.2.5", 2, 1}, {"wythoff.3.9", 2, 1}, {"moore.1.1", 0, 0}} {
		if a, s, err := db.PuzzleCounts(ctx, c.id); err != nil || a != c.attempts || s != c.solves {
			t.Fatalf("%s counts %d attempts, %d solves (%v); want %d, %d", c.id, a, s, err, c.attempts, c.solves)
		}
	}
	seen, err := db.PuzzlesSeen(ctx, "ann", []string{"nimsum.2.5", "wythoff.3.9", "moore.1.1"})
	if err != nil || !seen["nimsum.2.5"] || !seen["wythoff.3.9"] || seen["moore.1.1"] || len(seen) != 2 {
		t.Fatalf("PuzzlesSeen: %v, %v", seen, err)
	}
	if _, err := db.PuzzlesSeen(ctx, "ann", make([]string, match.MaxPuzzlesSeen+1)); !errors.Is(err, match.ErrInvalid) {
		t.Fatalf("PuzzlesSeen of too many ids: %v", err)
	}

	// Refusals write nothing.
	for _, bad := range []match.PuzzleAttempt{
		{UserID: "dan", Scope: "g1", PuzzleID: "nimsum.1.1", Initial: match.NewGlicko()},
		func() match.PuzzleAttempt { b := attempt("bad-1", "dan", "nimsum.1.1", true); b.Streak = -1; return b }(),
		func() match.PuzzleAttempt {
			b := attempt("bad-2", "dan", "nimsum.1.1", true)
			b.Initial = match.Glicko{}
			return b
		}(),
		func() match.PuzzleAttempt {
			b := attempt("bad-3", "dan", "nimsum.1.1", true)
			b.AttemptKey = string(make([]byte, match.MaxPuzzleKey+1))
			return b
		}(),
	} {
		if _, err := db.RecordPuzzleAttempt(ctx, bad); !errors.Is(err, match.ErrInvalid) {
			t.Fatalf("attempt %+v: %v, want ErrInvalid", bad, err)
		}
	}
	if s, err := db.PuzzleStats(ctx, "dan"); err != nil || s.Attempted != 0 {
		t.Fatalf("refused attempts were counted: %+v, %v", s, err)
	}

	// The interaction is saved with the attempt; a second attempt answering
	// the same interaction writes nothing.
	with := attempt("k5", "eve", "nimsum.1.2", true)
	with.InteractionID, with.Response = "puzzle-1", []byte("solved")
	if _, err := db.RecordPuzzleAttempt(ctx, with); err != nil {
		t.Fatal(err)
	}
	if resp, err := db.Response(ctx, "puzzle-1"); err != nil || string(resp) != "solved" {
		t.Fatalf("the attempt's answer: %q, %v", resp, err)
	}
	with.AttemptKey = "k6"
	if _, err := db.RecordPuzzleAttempt(ctx, with); !errors.Is(err, match.ErrDuplicate) || match.IsDuplicateAttempt(err) {
		t.Fatalf("an attempt answering a used interaction: %v", err)
	}
	if s, err := db.PuzzleStats(ctx, "eve"); err != nil || s.Attempted != 1 {
		t.Fatalf("the refused attempt was counted: %+v, %v", s, err)
	}
	if seen, err := db.PuzzlesSeen(ctx, "eve", []string{"nimsum.1.2"}); err != nil || !seen["nimsum.1.2"] {
		t.Fatalf("PuzzlesSeen: %v, %v", seen, err)
	}
}

// testPuzzleDoubleClick: the same attempt sent many times at once, as
// double clicks and redeliveries do (each its own interaction), counts
// once: one is recorded, every other gets ErrDuplicate with the first's
// outcome, and the ratings moved once.
func testPuzzleDoubleClick(t *testing.T, db match.Storage) {
	ctx := context.Background()
	warmUp(t, db, "ann")
	before, err := db.PuzzleStats(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	outs := make([]match.PuzzleOutcome, n)
	errs := make([]error, n)
	atOnce(n, func(i int) func() {
		a := attempt("click", "ann", "misere.2.3", true)
		a.InteractionID, a.Response = fmt.Sprint("click-", i), fmt.Append(nil, "answer ", i)
		return func() { outs[i], errs[i] = db.RecordPuzzleAttempt(ctx, a) }
	})
	recorded := -1
	for i := range n {
		switch {
		case errs[i] == nil && recorded >= 0:
			t.Fatalf("clicks %d and %d were both recorded", recorded, i)
		case errs[i] == nil:
			recorded = i
		case !match.IsDuplicateAttempt(errs[i]) || !errors.Is(errs[i], match.ErrDuplicate):
			t.Fatalf("click %d: %v", i, errs[i])
		}
	}
	if recorded < 0 {
		t.Fatal("no click was recorded")
	}
	for i := range n {
		if !near(outs[i].Player, outs[recorded].Player) || !near(outs[i].PuzzleChange, outs[recorded].PuzzleChange) ||
			outs[i].Rated != outs[recorded].Rated || outs[i].Solved != outs[recorded].Solved {
			t.Fatalf("click %d's outcome %+v, the recorded one %+v", i, outs[i], outs[recorded])
		}
		_, err := db.Response(ctx, fmt.Sprint("click-", i))
		if (i == recorded) != (err == nil) {
			t.Fatalf("click %d (recorded: %v): its answer: %v", i, i == recorded, err)
		}
	}
	after, err := db.PuzzleStats(ctx, "ann")
	want, _ := match.RatePuzzleAttempt(before.Rating, match.Glicko{Rating: 1500, Deviation: 300, Volatility: 0.06}, true, engine.ThemeNimSum)
	if err != nil || after.Attempted != before.Attempted+1 || after.Solved != before.Solved+1 || !sameGlicko(after.Rating, want) {
		t.Fatalf("after %d clicks: %+v, %v; before %+v, want rating %+v", n, after, err, before, want)
	}
}

// testPuzzleRace: known users finishing one puzzle at once all count, one
// after the other: the puzzle's rating moves through every attempt in some
// order (each attempt starts from the rating the previous one left), and
// ends where the last one left it.
func testPuzzleRace(t *testing.T, db match.Storage) {
	ctx := context.Background()
	const n = 8
	for i := range n {
		warmUp(t, db, fmt.Sprint("user", i))
	}
	outs := make([]match.PuzzleOutcome, n)
	errs := make([]error, n)
	// A settled puzzle (small deviation) moves by amounts below the cap,
	// which differ from attempt to attempt.
	settled := match.Glicko{Rating: 1500, Deviation: 80, Volatility: 0.06}
	atOnce(n, func(i int) func() {
		a := attempt(fmt.Sprint("race-", i), fmt.Sprint("user", i), "grundy.3.3", i%3 == 0)
		a.Initial = settled
		return func() { outs[i], errs[i] = db.RecordPuzzleAttempt(ctx, a) }
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
		if !outs[i].Rated || outs[i].PuzzleChange == 0 {
			t.Fatalf("attempt %d did not move the puzzle: %+v", i, outs[i])
		}
	}
	// Follow the chain from the initial rating: some order of the attempts
	// must take it from one to the next (ratings may come back to a value,
	// so every order is searched).
	used := make([]bool, n)
	var chain func(cur float64, left int) (float64, bool)
	chain = func(cur float64, left int) (float64, bool) {
		if left == 0 {
			return cur, true
		}
		for i, o := range outs {
			if !used[i] && near(o.Puzzle-o.PuzzleChange, cur) {
				used[i] = true
				if end, ok := chain(o.Puzzle, left-1); ok {
					return end, true
				}
				used[i] = false
			}
		}
		return 0, false
	}
	cur, ok := chain(settled.Rating, n)
	if !ok {
		t.Fatalf("no order of the attempts chains from %v: an update was lost (%+v)", settled.Rating, outs)
	}
	// One more attempt starts where the chain ended.
	warmUp(t, db, "last")
	out, err := db.RecordPuzzleAttempt(ctx, attempt("race-last", "last", "grundy.3.3", true))
	if err != nil || !near(out.Puzzle-out.PuzzleChange, cur) {
		t.Fatalf("the next attempt starts from %v, the chain ended at %v (%v)", out.Puzzle-out.PuzzleChange, cur, err)
	}
}
