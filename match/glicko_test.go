package match

import (
	"math"
	"testing"

	"nimbot/engine"
)

// TestGlickoPaperExample reproduces the worked example of Glickman's
// "Example of the Glicko-2 system": a player rated 1500, RD 200, σ 0.06,
// τ 0.5, beats 1400/RD 30 and loses to 1550/RD 100 and 1700/RD 300. The
// paper prints r' = 1464.06, RD' = 151.52, σ' = 0.05999; it rounds its
// intermediate steps, so exact arithmetic lands within 0.01 of each.
func TestGlickoPaperExample(t *testing.T) {
	player := Glicko{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got := player.Update([]GlickoResult{
		{Opponent: Glicko{Rating: 1400, Deviation: 30}, Score: 1},
		{Opponent: Glicko{Rating: 1550, Deviation: 100}, Score: 0},
		{Opponent: Glicko{Rating: 1700, Deviation: 300}, Score: 0},
	}, 0.5)
	for _, c := range []struct {
		name           string
		got, want, tol float64
	}{
		{"rating", got.Rating, 1464.06, 0.01},
		{"deviation", got.Deviation, 151.52, 0.01},
		{"volatility", got.Volatility, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.6f, the paper prints %v", c.name, c.got, c.want)
		}
	}
	// The paper's intermediate figures, on its Glicko-2 scale: v = 1.7785,
	// Δ = −0.4834, and the new volatility's step 5 from them.
	if s := newVolatility(200/GlickoScale, 0.06, 1.7785, -0.4834, 0.5); math.Abs(s-0.05999) > 0.00001 {
		t.Errorf("step 5 gives σ' = %.6f, the paper 0.05999", s)
	}
}

// TestGlickoNoGames checks step 6 alone: a period without games leaves the
// rating and widens the deviation to sqrt(φ² + σ²).
func TestGlickoNoGames(t *testing.T) {
	g := Glicko{Rating: 1700, Deviation: 50, Volatility: 0.06}.Update(nil, GlickoTau)
	want := math.Sqrt(math.Pow(50/GlickoScale, 2)+0.06*0.06) * GlickoScale
	if g.Rating != 1700 || math.Abs(g.Deviation-want) > 1e-9 || g.Volatility != 0.06 {
		t.Errorf("after a period without games: %+v, want deviation %.4f", g, want)
	}
}

// TestRatePuzzleAttempt checks the puzzle policy: solving raises the player
// and lowers the puzzle, failing the opposite; a provisional player leaves
// the puzzle alone; a puzzle moves at most MaxPuzzleChange, and half as far
// in the 21 game; deviations stay within their bounds.
func TestRatePuzzleAttempt(t *testing.T) {
	known := Glicko{Rating: 1500, Deviation: 80, Volatility: 0.06}
	puzzle := Glicko{Rating: 1500, Deviation: 300, Volatility: 0.06}
	p, z := RatePuzzleAttempt(known, puzzle, true, engine.ThemeNimSum)
	if p.Rating <= known.Rating || z.Rating >= puzzle.Rating {
		t.Errorf("solved: player %v -> %v, puzzle %v -> %v", known.Rating, p.Rating, puzzle.Rating, z.Rating)
	}
	if puzzle.Rating-z.Rating != MaxPuzzleChange {
		t.Errorf("an unsure puzzle solved by a known player moved %v, want the cap %v", puzzle.Rating-z.Rating, MaxPuzzleChange)
	}
	if z.Deviation >= puzzle.Deviation || p.Deviation < MinDeviation {
		t.Errorf("deviations: puzzle %v -> %v, player %v", puzzle.Deviation, z.Deviation, p.Deviation)
	}
	p, z = RatePuzzleAttempt(known, puzzle, false, engine.ThemeNimSum)
	if p.Rating >= known.Rating || z.Rating != puzzle.Rating+MaxPuzzleChange {
		t.Errorf("failed: player %v -> %v, puzzle %v -> %v", known.Rating, p.Rating, puzzle.Rating, z.Rating)
	}
	settled := Glicko{Rating: 1500, Deviation: 60, Volatility: 0.06}
	_, full := RatePuzzleAttempt(known, settled, false, engine.ThemeNimSum)
	_, half := RatePuzzleAttempt(known, settled, false, engine.ThemeTwentyOne)
	if d, h := full.Rating-settled.Rating, half.Rating-settled.Rating; d <= 0 || d >= MaxPuzzleChange || math.Abs(h-d/2) > 1e-9 {
		t.Errorf("a settled puzzle moved %v, in the 21 game %v: want half", d, h)
	}
	newcomer := NewGlicko()
	p, z = RatePuzzleAttempt(newcomer, puzzle, false, engine.ThemeNimSum)
	if z != puzzle || p.Rating >= newcomer.Rating {
		t.Errorf("a newcomer's failure moved the puzzle to %+v (player %+v)", z, p)
	}
	worn := Glicko{Rating: 1500, Deviation: MinDeviation, Volatility: 0.06}
	for range 50 {
		worn, _ = RatePuzzleAttempt(worn, settled, true, engine.ThemeNimSum)
	}
	if worn.Deviation < MinDeviation || worn.Volatility > MaxVolatility {
		t.Errorf("after 50 attempts: %+v", worn)
	}
}

func TestPuzzleGlicko(t *testing.T) {
	z, err := engine.NewPuzzle(engine.ThemeNimSum, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	if g := PuzzleGlicko(z); g.Rating != float64(z.Difficulty) || g.Deviation != 300 {
		t.Errorf("PuzzleGlicko = %+v for difficulty %d", g, z.Difficulty)
	}
}
