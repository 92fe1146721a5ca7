package engine

import "fmt"

func init() {
	variants[TwentyOne] = func(r Rules) game {
		return &twentyOneGame{sub: &subGame{misere: r.Misere, k: int64(r.K), rules: r}, target: int64(r.Target), misere: r.Misere}
	}
}

// twentyOneGame is the 21 game: players count up by 1..k and whoever says the
// target makes the last move. It is S(1..k) on one heap holding target minus
// the count, so the theory is the subtraction game's; only the words differ.
type twentyOneGame struct {
	sub    *subGame
	target int64
	misere bool
}

func (g *twentyOneGame) count(p Position) int64 { return g.target - p.Heaps[0] }

// The 21 game's refusals of a position (its one heap is the count still to
// go) and of a move.
var (
	pErr21OneCount = def("err.position.21.one_count", "", "{{.Game}}: give the count said so far, one number")
	pErr21Count    = def("err.position.21.count", "", "{{.Game}}: the count runs from 0 to {{.Target}}, not {{.Said}}")
	pErr21Heaps    = def("err.position.21.heaps", "", "{{.Game}} is played on one count, not {{.Heaps}} heaps")
	pErr21Say      = def("err.move.21.say", "", "{{.Game}}: say 1 to {{.K}} more (like +3)")
	pErr21SayNot   = def("err.move.21.say_not", "", "{{.Game}}: say 1 to {{.K}} more, not {{.Take}}")
	pErr21Reach    = def("err.move.21.reach", "", "the count is {{.Said}}: you can say at most {{.Left}} more to reach {{.Target}}")
)

func (g *twentyOneGame) start(heaps []int64) (Position, error) {
	var c int64
	switch len(heaps) {
	case 0:
	case 1:
		c = heaps[0]
	default:
		return Position{}, invalid(pErr21OneCount, "Game", g.sub.name())
	}
	if c < 0 || c > g.target {
		return Position{}, invalid(pErr21Count, "Game", g.sub.name(), "Target", g.target, "Said", c)
	}
	return Position{Heaps: []int64{g.target - c}}, nil
}

func (g *twentyOneGame) check(p Position) error {
	if len(p.Heaps) != 1 {
		return invalid(pErr21Heaps, "Game", g.sub.name(), "Heaps", len(p.Heaps))
	}
	if p.Heaps[0] < 0 || p.Heaps[0] > g.target {
		return invalid(pErr21Count, "Game", g.sub.name(), "Target", g.target, "Said", g.target-p.Heaps[0])
	}
	if p.Limit != 0 {
		return invalid(pErrShapeLimit, "Game", g.sub.name())
	}
	return nil
}

func (g *twentyOneGame) limits() Limits { return Limits{MaxHeaps: 1, MaxHeap: MaxHeapSize} }

func (g *twentyOneGame) over(p Position) bool { return p.Heaps[0] == 0 }

func (g *twentyOneGame) legal(p Position) []Move { return g.sub.legal(p) }

func (g *twentyOneGame) validate(p Position, m Move) error {
	if m.Kind != Take || m.Heap != 0 {
		return movePhrase(m, pErr21Say, "Game", g.sub.name(), "K", g.sub.k)
	}
	if m.Take < 1 || m.Take > g.sub.k {
		return movePhrase(m, pErr21SayNot, "Game", g.sub.name(), "K", g.sub.k, "Take", m.Take)
	}
	if left := p.Heaps[0]; m.Take > left {
		return movePhrase(m, pErr21Reach, "Said", g.count(p), "Left", left, "Target", g.target)
	}
	return nil
}

func (g *twentyOneGame) apply(p Position, m Move) Position { return applyTake(p, m) }

func (g *twentyOneGame) moverWins(p Position) bool { return g.sub.moverWins(p) }

func (g *twentyOneGame) winning(p Position, max int) ([]Move, int64) { return g.sub.winning(p, max) }

// losingRemainder is the distance to the target that is lost for the player
// to move: 1 mod (k+1) in misère play (you must then say the target), 0 in normal play.
func (g *twentyOneGame) losingRemainder() int64 {
	if g.misere {
		return 1
	}
	return 0
}

// The 21 game's verdicts and explanation.
var (
	pVerdict21Win  = def("verdict.21.win", "", "Winning: say {{.Say}}, and keep leaving your opponent a count whose distance to {{.Target}} is {{.Rem}} mod {{.Mod}}.")
	pVerdict21Lose = def("verdict.21.lose", "", "Losing: the count {{.Count}} is {{.ToGo}} short of {{.Target}}, which is {{.Rem}} mod {{.Mod}}, so whatever you say your opponent can answer.")
	p21Misere      = def("explain.21.misere", "", "Whoever says {{.Target}} loses, so you want to say {{.Before}} yourself and leave your opponent one short of it.")
	p21Normal      = def("explain.21.normal", "", "Whoever says {{.Target}} wins.")
	p21Answer      = def("explain.21.answer", "", "Whatever your opponent says, 1 to {{.K}} more, you can answer so the two together add {{.Mod}}: the counts that are {{.Rem}} short of {{.Target}} modulo {{.Mod}} are the ones to say.")
	pColCount      = def("table.count", "", "count")
	pColToGo       = def("table.to_go", "", "to go")
	pColToGoMod    = def("table.to_go_mod", "", "to go mod {{.Mod}}")
	p21Lost        = def("explain.21.lost", "", "The count {{.Count}} is already such a number for your opponent's benefit: the player to move loses against perfect play.")
	p21Say         = def("explain.21.say", "", "Say {{.Say}} ({{.More}} more).")
	p21SayThen     = def("explain.21.say_then", "", "Say {{.Say}} ({{.More}} more); then say {{.Then}} in turn.")
)

func (g *twentyOneGame) verdict(p Position) Phrase {
	c, m := g.count(p), g.sub.k+1
	ms, _ := g.sub.winning(p, 1)
	if len(ms) > 0 {
		return P(pVerdict21Win, "Say", c+ms[0].Take, "Target", g.target, "Rem", g.losingRemainder(), "Mod", m)
	}
	return P(pVerdict21Lose, "Count", c, "ToGo", g.target-c, "Target", g.target, "Rem", g.losingRemainder(), "Mod", m)
}

func (g *twentyOneGame) explain(p Position, a Analysis) Explanation {
	c, m, lr := g.count(p), g.sub.k+1, g.losingRemainder()
	e := Explanation{Theory: P(pTheoryResidues, "Mod", m)}
	if g.misere {
		e.Steps = append(e.Steps, P(p21Misere, "Target", g.target, "Before", g.target-1))
	} else {
		e.Steps = append(e.Steps, P(p21Normal, "Target", g.target))
	}
	e.Steps = append(e.Steps, P(p21Answer, "K", g.sub.k, "Mod", m, "Rem", lr, "Target", g.target))
	t := &Table{Header: []Phrase{P(pColCount), P(pColToGo), P(pColToGoMod, "Mod", m)}}
	t.Rows = append(t.Rows, lit(fmt.Sprint(c), fmt.Sprint(g.target-c), fmt.Sprint((g.target-c)%m)))
	e.Table = t
	ms, _ := a.first(1)
	if len(ms) == 0 {
		e.Steps = append(e.Steps, P(p21Lost, "Count", c))
	} else {
		var safe []Phrase
		for x := c + ms[0].Take; x <= g.target && len(safe) < 6; x += m {
			safe = append(safe, Lit(fmt.Sprint(x)))
		}
		if len(safe) > 1 {
			e.Steps = append(e.Steps, P(p21SayThen, "Say", c+ms[0].Take, "More", ms[0].Take, "Then", andPhrase(safe[1:])))
		} else {
			e.Steps = append(e.Steps, P(p21Say, "Say", c+ms[0].Take, "More", ms[0].Take))
		}
	}
	return e
}

func (g *twentyOneGame) takeBounds(p Position, h int64) ([]int64, int64) {
	return g.sub.takeBounds(p, h)
}
