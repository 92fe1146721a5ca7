package match

import (
	"math"

	"nimbot/engine"
)

// Glicko is a Glicko-2 rating on the Glicko scale (Glickman, "Example of
// the Glicko-2 system"): the rating, its deviation (how unsure it is: 350
// knows nothing) and its volatility (how erratic the results are). Puzzle
// players and puzzles each carry one; an attempt is a game between them.
type Glicko struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// The Glicko-2 constants of puzzle ratings.
const (
	// GlickoScale converts between the Glicko scale and Glicko-2's (the
	// paper's 173.7178 = 400/ln 10).
	GlickoScale = 173.7178
	// GlickoTau constrains how fast volatility changes; the paper suggests
	// 0.3 to 1.2, and puzzle sites use 0.75.
	GlickoTau = 0.75
	// glickoEpsilon is the paper's convergence tolerance for the volatility.
	glickoEpsilon = 0.000001
)

// NewGlicko is a rating about which nothing is known yet: 1500, deviation
// 350, volatility 0.06 (the paper's defaults).
func NewGlicko() Glicko { return Glicko{Rating: 1500, Deviation: 350, Volatility: 0.06} }

// GlickoResult is one game of a rating period: the opponent's rating
// before it and the score (1 a win, 0 a loss, 0.5 a draw).
type GlickoResult struct {
	Opponent Glicko
	Score    float64
}

// Update is the rating after one rating period with the given results,
// by the paper's steps 1 to 8 with system constant tau. With no results
// only the deviation grows (step 6).
func (g Glicko) Update(results []GlickoResult, tau float64) Glicko {
	mu := (g.Rating - 1500) / GlickoScale
	phi := g.Deviation / GlickoScale
	sigma := g.Volatility
	if len(results) == 0 {
		return Glicko{Rating: g.Rating, Deviation: math.Sqrt(phi*phi+sigma*sigma) * GlickoScale, Volatility: sigma}
	}
	// Step 3 and 4: the estimated variance v and improvement delta.
	var vInv, sum float64
	for _, r := range results {
		muJ := (r.Opponent.Rating - 1500) / GlickoScale
		gJ := glickoG(r.Opponent.Deviation / GlickoScale)
		e := 1 / (1 + math.Exp(-gJ*(mu-muJ)))
		vInv += gJ * gJ * e * (1 - e)
		sum += gJ * (r.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	sigma = newVolatility(phi, sigma, v, delta, tau)
	// Steps 6 to 8.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Glicko{Rating: muNew*GlickoScale + 1500, Deviation: phiNew * GlickoScale, Volatility: sigma}
}

// glickoG is the paper's g(φ), which discounts an opponent's rating by how
// unsure it is.
func glickoG(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// newVolatility is step 5 of the paper: the root of f by the Illinois
// algorithm, started as the paper says.
func newVolatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > glickoEpsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// The bounds of puzzle ratings. A deviation never falls below
// MinDeviation, so a rating keeps moving after thousands of attempts, nor
// rises past NewGlicko's; volatility is kept below MaxVolatility so one
// erratic run cannot make a rating jump for good.
const (
	MinDeviation  = 45
	MaxVolatility = 0.1
	// ProvisionalDeviation: a player whose deviation is above it is not
	// known yet, and their attempts leave the puzzle's rating alone (a
	// newcomer failing a puzzle says little about the puzzle).
	ProvisionalDeviation = 200
	// MaxPuzzleChange caps how far one attempt moves a puzzle's rating:
	// puzzles are tried by many, and no single attempt should redefine one.
	MaxPuzzleChange = 20
)

// themeWeight scales how far an attempt moves a puzzle of the theme: a
// theme whose rule gives the answer away once known (the 21 game: say the
// next multiple) says less about the puzzle than about the player.
func themeWeight(t engine.Theme) float64 {
	if t == engine.ThemeTwentyOne {
		return 0.5
	}
	return 1
}

// RatePuzzleAttempt is both ratings after a rated attempt: the player
// scored 1 against the puzzle if they solved it, 0 if not, and the puzzle
// the opposite. The player's rating moves by Glicko-2 (tau GlickoTau); the
// puzzle's moves less (MaxPuzzleChange, themeWeight) and not at all when
// the player is provisional. Only a player's first attempt at a puzzle is
// rated: callers record retries without calling this.
func RatePuzzleAttempt(player, puzzle Glicko, solved bool, theme engine.Theme) (Glicko, Glicko) {
	score := 0.0
	if solved {
		score = 1
	}
	newPlayer := bound(player.Update([]GlickoResult{{Opponent: puzzle, Score: score}}, GlickoTau))
	if player.Deviation > ProvisionalDeviation {
		return newPlayer, puzzle
	}
	p := bound(puzzle.Update([]GlickoResult{{Opponent: player, Score: 1 - score}}, GlickoTau))
	change := (p.Rating - puzzle.Rating) * themeWeight(theme)
	p.Rating = puzzle.Rating + min(max(change, -MaxPuzzleChange), MaxPuzzleChange)
	return newPlayer, p
}

// bound keeps a rating's deviation and volatility within the bounds above.
func bound(g Glicko) Glicko {
	g.Deviation = min(max(g.Deviation, MinDeviation), 350)
	g.Volatility = min(g.Volatility, MaxVolatility)
	return g
}

// PuzzleGlicko is the rating an unplayed puzzle starts with: its estimated
// difficulty, with a deviation that lets the first attempts move it fast.
func PuzzleGlicko(z engine.Puzzle) Glicko {
	return Glicko{Rating: float64(z.Difficulty), Deviation: 300, Volatility: 0.06}
}
