package match

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"nimbot/engine"
)

// TestGlickoPaperExample reproduces the worked example of Glickman's
// "Example of the Glicko-2 system" to the decimals the paper prints. The
// paper rounds as it goes: g(φj) to four decimals and E to three before
// steps 3 and 4, and step 8 converts step 7's rounded μ' and φ' back to the
// Glicko scale, so its r' = 1464.06 is 173.7178 × (−0.2069) + 1500 where
// the unrounded update gives 1464.05. The test follows the same rounding,
// with the implementation's g, E, σ', μ' and φ'.
func TestGlickoPaperExample(t *testing.T) {
	player := Glicko{Rating: 1500, Deviation: 200, Volatility: 0.06}
	opponents := []GlickoResult{
		{Opponent: Glicko{Rating: 1400, Deviation: 30}, Score: 1},
		{Opponent: Glicko{Rating: 1550, Deviation: 100}, Score: 0},
		{Opponent: Glicko{Rating: 1700, Deviation: 300}, Score: 0},
	}
	got := player.Update(opponents, 0.5)
	printed := func(decimals int, x float64) string { return strconv.FormatFloat(x, 'f', decimals, 64) }
	rounded := func(decimals int, x float64) float64 { v, _ := strconv.ParseFloat(printed(decimals, x), 64); return v }
	check := func(step, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %s, the paper prints %s", step, got, want)
		}
	}
	// Steps 3 and 4 from the paper's rounded g and E.
	mu := (player.Rating - 1500) / GlickoScale
	var vInv, sum float64
	for j, r := range opponents {
		g := rounded(4, glickoG(r.Opponent.Deviation/GlickoScale))
		e := rounded(3, 1/(1+math.Exp(-g*(mu-(r.Opponent.Rating-1500)/GlickoScale))))
		check(fmt.Sprintf("g(φ%d)", j+1), printed(4, g), []string{"0.9955", "0.9531", "0.7242"}[j])
		check(fmt.Sprintf("E%d", j+1), printed(3, e), []string{"0.639", "0.432", "0.303"}[j])
		vInv += g * g * e * (1 - e)
		sum += g * (r.Score - e)
	}
	check("step 3: v", printed(4, 1/vInv), "1.7785")
	check("step 4: Δ", printed(4, sum/vInv), "-0.4834")
	// The paper prints σ' cut, not rounded, to five decimals (0.059996).
	check("step 5: σ'", printed(5, math.Floor(got.Volatility*1e5)/1e5), "0.05999")
	muNew, phiNew := (got.Rating-1500)/GlickoScale, got.Deviation/GlickoScale
	check("step 7: φ'", printed(4, phiNew), "0.8722")
	check("step 7: μ'", printed(4, muNew), "-0.2069")
	check("step 8: r'", printed(2, GlickoScale*rounded(4, muNew)+1500), "1464.06")
	check("step 8: RD'", printed(2, GlickoScale*rounded(4, phiNew)), "151.52")
	// Step 5 alone, from the paper's printed v and Δ.
	if s := newVolatility(200/GlickoScale, 0.06, 1.7785, -0.4834, 0.5); math.Abs(s-0.05999) > 0.00001 {
		t.Errorf("step 5 from the paper's v and Δ gives σ' = %.6f, the paper 0.05999", s)
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
