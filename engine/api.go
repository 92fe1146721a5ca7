package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxHeapSize is the largest heap any closed-form variant accepts. Heaps this
// large are played by their rule alone: no search ever walks them.
const MaxHeapSize int64 = 1_000_000_000_000

// invalid returns an error wrapping ErrInvalid that says phrase id, a
// message a player can act on, in any language (PhraseError).
func invalid(id string, nameValues ...any) error {
	return &invalidError{ph: P(id, nameValues...)}
}

// invalidf is invalid for a message only a program reads (a malformed
// JSON move, a difficulty the caller never offered): its phrase is the
// English as a literal. What a player typed or chose is refused with
// invalid and a phrase, which every language has.
func invalidf(format string, args ...any) error {
	return &invalidError{ph: Lit(fmt.Sprintf(format, args...))}
}

// ambiguous is invalid for text that reads two ways (ErrAmbiguous).
func ambiguous(id string, nameValues ...any) error {
	return &invalidError{ph: P(id, nameValues...), ambiguous: true}
}

// invalidError carries a phrase and matches ErrInvalid with errors.Is,
// without prefixing the message with "invalid:" (players read it as is).
type invalidError struct {
	ph        Phrase
	ambiguous bool // also matches ErrAmbiguous
}

func (e *invalidError) Error() string { return e.ph.String() }
func (e *invalidError) Is(target error) bool {
	return target == ErrInvalid || (e.ambiguous && target == ErrAmbiguous)
}

// Phrase says the error in any language (PhraseError).
func (e *invalidError) Phrase() Phrase { return e.ph }

// tooLarge returns an error wrapping ErrTooLarge that says phrase id, which
// names the limit.
func tooLarge(id string, nameValues ...any) error {
	return &tooLargeError{ph: P(id, nameValues...)}
}

type tooLargeError struct {
	ph      Phrase
	invalid bool // also matches ErrInvalid (a notation that names too much)
}

func (e *tooLargeError) Error() string { return e.ph.String() }
func (e *tooLargeError) Is(target error) bool {
	return target == ErrTooLarge || (e.invalid && target == ErrInvalid)
}

// Phrase says the error in any language (PhraseError).
func (e *tooLargeError) Phrase() Phrase { return e.ph }

// tooLargeInput is for text that asks for more than any game holds: the
// notation is wrong (ErrInvalid) and the position would be too large (ErrTooLarge).
func tooLargeInput(id string, nameValues ...any) error {
	return &tooLargeError{ph: P(id, nameValues...), invalid: true}
}

// quoted is user text quoted as %q quotes it, a literal in every language.
func quoted(s string) Phrase { return Lit(strconv.Quote(s)) }

// The refusals of positions a player gave (Start, Check, Playable).
var (
	pErrGiveHeap      = def("err.position.give_heap", "", "{{.Game}}: give at least one heap")
	pErrGrow          = def("err.position.grow", "", "{{.Game}}: play could grow this position to {{.Heaps}} heaps, past the {{.Max}} that can be played perfectly")
	pErrLimitHeaps    = def("err.position.limit_heaps", "", "{{.Game}}: at most {{.Max}} heaps can be played perfectly, this has {{.Heaps}}")
	pErrLimitHeap     = def("err.position.limit_heap", "", "{{.Game}}: heaps of at most {{.Max}} can be played perfectly, heap {{.Heap}} has {{.Has}}")
	pErrLimitTotal    = def("err.position.limit_total", "", "{{.Game}}: at most {{.Max}} in all can be played perfectly, this has {{.Total}}")
	pErrShapeHeaps    = def("err.position.max_heaps", "", "{{.Game}}: at most {{.Max}} heaps, not {{.Heaps}}")
	pErrShapeNegative = def("err.position.negative", "", "{{.Game}}: heap {{.Heap}} has {{.Has}}; heaps cannot be negative")
	pErrShapeHeap     = def("err.position.max_heap", "", "{{.Game}}: heap {{.Heap}} has {{.Has}}; heaps hold at most {{.Max}}")
	pErrShapeLimit    = def("err.position.no_limit", "", "{{.Game}} has no move limit")
)

// Normalize fills in the variant's defaults (its Description's Settings:
// Subtraction K=3 unless Set is given; TwentyOne K=3, Target=21; Moore K=2)
// and validates the rules against the settings' bounds. Its errors wrap
// ErrInvalid and say what to change.
func (r Rules) Normalize() (Rules, error) {
	r.Set = slices.Clone(r.Set)
	d, ok := describe(r.Variant)
	if _, registered := variants[r.Variant]; !ok || !registered {
		if r.Variant == "" {
			return r, invalid(pErrRulesNoGame, "Games", variantList())
		}
		return r, invalid(pErrRulesUnknown, "Name", quoted(string(r.Variant)), "Games", variantList())
	}
	for _, name := range ruleFields {
		if r.given(name) {
			if _, ok := d.Setting(name); !ok {
				if name == "set" {
					return r, invalid(pErrRulesTakesNoSet, "Game", d.TitlePhrase())
				}
				return r, invalid(pErrRulesTakesNo, "Game", d.TitlePhrase(), "Setting", Lit(name))
			}
		}
	}
	if r.K < 0 {
		return r, invalid(pErrRulesKMin, "K", r.K)
	}
	for _, s := range d.Settings {
		if s.Excludes != "" && r.given(s.Name) && r.given(s.Excludes) {
			x, _ := d.Setting(s.Excludes)
			return r, invalid(pErrRulesNotBoth, "Game", d.TitlePhrase(), "A", s.article(), "B", x.article())
		}
	}
	for _, s := range d.Settings {
		switch s.Kind {
		case Int:
			f := r.intField(s.Name)
			if *f == 0 && s.Default != 0 && !(s.Excludes != "" && r.given(s.Excludes)) {
				*f = s.Default
			}
			if v := int64(*f); *f != 0 && (v < s.Min || v > s.Max) {
				if v >= s.Min {
					return r, invalid(pErrRulesAtMost, "Game", d.TitlePhrase(), "Setting", Lit(s.Name), "Max", s.Max, "Value", v)
				}
				return r, invalid(pErrRulesRange, "Game", d.TitlePhrase(), "Setting", Lit(s.Name), "Min", s.Min, "Max", s.Max, "Value", v)
			}
		case IntSet:
			if len(r.Set) == 0 {
				continue
			}
			// A set is its distinct amounts: 1,1,1 is {1}, so the limit
			// counts them after duplicates are gone.
			slices.Sort(r.Set)
			r.Set = slices.Compact(r.Set)
			if len(r.Set) > s.MaxLen {
				return r, invalid(pErrRulesSetSize, "Game", d.TitlePhrase(), "Max", s.MaxLen, "Has", len(r.Set))
			}
			for _, v := range r.Set {
				if int64(v) < s.Min || int64(v) > s.Max {
					return r, invalid(pErrRulesSetRange, "Game", d.TitlePhrase(), "Min", s.Min, "Max", s.Max, "Value", v)
				}
			}
		}
	}
	if d.validate != nil {
		if err := d.validate(r); err != nil {
			return r, err
		}
	}
	if len(r.Set) == 0 {
		r.Set = nil
	}
	return r, nil
}

// ruleFields are the settings Rules has a field for; a variant's
// Description says which of them it takes. IntSet settings are "set" alone:
// the refusals of a set say "set".
var ruleFields = []string{"k", "set", "target"}

// The refusals of rules (Normalize, With). A setting's name is notation
// ("k", "target"), the same in every language.
var (
	pErrRulesNoGame     = def("err.rules.no_game", "", "no game named: choose one of {{.Games}}")
	pErrRulesUnknown    = def("err.rules.unknown_game", "", "no game called {{.Name}}: choose one of {{.Games}}")
	pErrRulesTakesNo    = def("err.rules.takes_no", "", "{{.Game}} takes no {{.Setting}}")
	pErrRulesTakesNoSet = def("err.rules.takes_no_set", "", "{{.Game}} takes no subtraction set")
	pErrRulesKMin       = def("err.rules.k_min", "", "k must be at least 1, not {{.K}}")
	pErrRulesNotBoth    = def("err.rules.not_both", "", "{{.Game}}: give {{.A}} or {{.B}}, not both")
	pErrRulesASet       = def("err.rules.a_set", "", "a set")
	pErrRulesAtMost     = def("err.rules.at_most", "", "{{.Game}}: {{.Setting}} is at most {{.Max}}, not {{.Value}}")
	pErrRulesRange      = def("err.rules.range", "", "{{.Game}}: {{.Setting}} runs from {{.Min}} to {{.Max}}, not {{.Value}}")
	pErrRulesSetSize    = def("err.rules.set_size", "", "{{.Game}}: a set has at most {{.Max}} amounts, this one has {{.Has}}")
	pErrRulesSetRange   = def("err.rules.set_range", "", "{{.Game}}: set amounts run from {{.Min}} to {{.Max}}, not {{.Value}}")
	pErrWithSetRange    = def("err.rules.with.set_range", "", "set amounts run from 1 to {{.Max}}, not {{.Value}}")
	pErrWithNoSetting   = def("err.rules.with.no_setting", "", "no game has a setting {{.Name}}: the settings are {{.Settings}}")
	pErrWithOneNumber   = def("err.rules.with.one_number", "", "{{.Setting}} takes one number, not {{.Given}}")
	pErrWithRange       = def("err.rules.with.range", "", "{{.Setting}} runs from 1 to {{.Max}}, not {{.Value}}")
)

// given reports whether the rules give the setting called name.
func (r *Rules) given(name string) bool {
	if name == "set" {
		return len(r.Set) > 0
	}
	f := r.intField(name)
	return f != nil && *f != 0
}

// intField is the field holding the Int setting called name, or nil.
func (r *Rules) intField(name string) *int {
	switch name {
	case "k":
		return &r.K
	case "target":
		return &r.Target
	}
	return nil
}

// With returns the rules with the setting called name given: one value for
// an Int setting, the amounts of an IntSet. Normalize checks the values
// against the variant's Description. Its errors wrap ErrInvalid.
func (r Rules) With(name string, values ...int64) (Rules, error) {
	r.Set = slices.Clone(r.Set)
	if name == "set" {
		r.Set = r.Set[:0]
		for _, v := range values {
			if v < 1 || v > maxSetElement {
				return r, invalid(pErrWithSetRange, "Max", maxSetElement, "Value", v)
			}
			r.Set = append(r.Set, int(v))
		}
		return r, nil
	}
	f := r.intField(name)
	switch {
	case f == nil:
		return r, invalid(pErrWithNoSetting, "Name", quoted(name), "Settings", Lit(strings.Join(ruleFields, ", ")))
	case len(values) != 1:
		return r, invalid(pErrWithOneNumber, "Setting", Lit(name), "Given", len(values))
	case values[0] < 1 || values[0] > MaxHeapSize:
		return r, invalid(pErrWithRange, "Setting", Lit(name), "Max", MaxHeapSize, "Value", values[0])
	}
	*f = int(values[0])
	return r, nil
}

// variantList names every variant as typed ("nim, subtraction, 21, …"):
// notation, the same in every language.
func variantList() Phrase {
	var names []string
	for _, v := range Variants() {
		names = append(names, string(v))
	}
	return Lit(strings.Join(names, ", "))
}

// variantTitle is the variant's display name without parameters.
func variantTitle(v Variant) string {
	if d, ok := describe(v); ok {
		return d.Title
	}
	return string(v)
}

// The parts of a game's name (NamePhrase).
var (
	pNameMisere   = def("game.name.misere", "", "Misère {{.Game}}")
	pNameParams   = def("game.name.params", "", "{{.Game}} {{.Params}}")
	pName21Target = def("game.name.21.target", "", "The {{.Target}} game")
	pName21K      = def("game.name.21.k", "", "{{.Game}} (say 1 to {{.K}} more)")
	pName21Normal = def("game.name.21.normal", "", "{{.Game}}, normal play (saying {{.Target}} wins)")
)

// NamePhrase is Name as a phrase: the variant's title (TitlePhrase), its
// parameters in notation, and the convention where it is not the usual one.
func (r Rules) NamePhrase() Phrase {
	d, ok := describe(r.Variant)
	if !ok {
		return Lit(string(r.Variant))
	}
	n := d.TitlePhrase()
	switch r.Variant {
	case Subtraction:
		if len(r.Set) > 0 {
			n = P(pNameParams, "Game", n, "Params", Lit(setString(r.Set)))
		} else {
			n = P(pNameParams, "Game", n, "Params", Lit(fmt.Sprintf("S(1..%d)", kOr(r.K, settingDefault(r.Variant, "k")))))
		}
	case TwentyOne:
		k, t := kOr(r.K, settingDefault(r.Variant, "k")), kOr(r.Target, settingDefault(r.Variant, "target"))
		if t != 21 {
			n = P(pName21Target, "Target", t)
		}
		if k != 3 {
			n = P(pName21K, "Game", n, "K", k)
		}
		if !r.Misere {
			n = P(pName21Normal, "Game", n, "Target", t)
		}
		return n
	case Moore:
		n = P(pNameParams, "Game", n, "Params", Lit(fmt.Sprintf("(k=%d)", kOr(r.K, settingDefault(r.Variant, "k")))))
	}
	if r.Misere {
		n = P(pNameMisere, "Game", n)
	}
	return n
}

// Name is the display name of the game, with its parameters and convention:
// "Nim", "Misère Nim", "Subtraction S(1..3)", "Subtraction {1,3,4}",
// "The 21 game", "Moore's Nim (k=2)". The 21 game is misère by tradition, so
// only its normal-play form says so.
func (r Rules) Name() string {
	n := variantTitle(r.Variant)
	switch r.Variant {
	case Subtraction:
		if len(r.Set) > 0 {
			n += " " + setString(r.Set)
		} else {
			n += fmt.Sprintf(" S(1..%d)", kOr(r.K, settingDefault(r.Variant, "k")))
		}
	case TwentyOne:
		k, t := kOr(r.K, settingDefault(r.Variant, "k")), kOr(r.Target, settingDefault(r.Variant, "target"))
		if t != 21 {
			n = fmt.Sprintf("The %d game", t)
		}
		if k != 3 {
			n += fmt.Sprintf(" (say 1 to %d more)", k)
		}
		if !r.Misere {
			n += fmt.Sprintf(", normal play (saying %d wins)", t)
		}
		return n
	case Moore:
		n += fmt.Sprintf(" (k=%d)", kOr(r.K, settingDefault(r.Variant, "k")))
	}
	if r.Misere {
		n = "Misère " + n
	}
	return n
}

// settingDefault is the default of v's setting called name (0 if none).
func settingDefault(v Variant, name string) int {
	if d, ok := describe(v); ok {
		if s, ok := d.Setting(name); ok {
			return s.Default
		}
	}
	return 0
}

func kOr(k, def int) int {
	if k == 0 {
		return def
	}
	return k
}

func setString(set []int) string {
	parts := make([]string, len(set))
	for i, s := range set {
		parts[i] = strconv.Itoa(s)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// game returns the normalized rules and their game, or the validation error.
func (r Rules) game() (Rules, game, error) {
	n, err := r.Normalize()
	if err != nil {
		return r, nil, err
	}
	return n, variants[n.Variant](n), nil
}

// Limits are the largest positions the engine solves perfectly within 50 ms on
// one core for these rules; Start refuses anything larger. Invalid rules have
// zero Limits.
func (r Rules) Limits() Limits {
	_, g, err := r.game()
	if err != nil {
		return Limits{}
	}
	return g.limits()
}

// starter is implemented by variants whose opening position is not simply the
// heaps given (TwentyOne counts up; Fibonacci sets its first limit).
type starter interface {
	start(heaps []int64) (Position, error)
}

// overer is implemented by variants that can tell a finished position without
// listing every legal move (which, with heaps of 10^12, they could not).
type overer interface {
	over(p Position) bool
}

// Start builds the opening position from the heaps a player typed. TwentyOne
// takes [count said so far] or nil; Fibonacci takes [n] and sets Limit n-1.
// Positions beyond Limits are refused with an error wrapping ErrTooLarge.
func (r Rules) Start(heaps []int64) (Position, error) {
	r, g, err := r.game()
	if err != nil {
		return Position{}, err
	}
	var p Position
	if s, ok := g.(starter); ok {
		p, err = s.start(slices.Clone(heaps))
		if err != nil {
			return Position{}, err
		}
	} else {
		if len(heaps) == 0 {
			return Position{}, invalid(pErrGiveHeap, "Game", r.NamePhrase())
		}
		p = Position{Heaps: slices.Clone(heaps)}
		if r.Variant == Fibonacci && len(heaps) == 1 && heaps[0] > 0 {
			p.Limit = heaps[0] - 1
		}
	}
	if err := checkAll(r, g, p); err != nil {
		return Position{}, err
	}
	return p, nil
}

// grower is implemented by variants whose moves add heaps (Lasker's splits,
// Kayles' knocks): reachable bounds the number of heaps of every position a
// game from p can reach, empty heaps included.
type grower interface {
	reachable(p Position) int64
}

// heapsOrOne is the sum over p's heaps of max(h, 1): the most heaps a game
// from p can hold when every move adds at most one heap and takes at least
// one piece, and empty heaps stay in place.
func heapsOrOne(p Position) int64 {
	var n int64
	for _, h := range p.Heaps {
		n += max(h, 1)
	}
	return n
}

// Playable checks that a whole game from p stays within Limits: p itself,
// and, where moves add heaps, every position play can reach. A game that
// grew past MaxHeaps mid-play could be neither chosen in nor drawn, so
// callers starting a game (not analysing one position) ask this after
// Start. The error wraps ErrTooLarge and says how far the game could grow.
func (r Rules) Playable(p Position) error {
	r, g, err := r.game()
	if err != nil {
		return err
	}
	if err := checkAll(r, g, p); err != nil {
		return err
	}
	gr, ok := g.(grower)
	if !ok {
		return nil
	}
	if n, max := gr.reachable(p), int64(g.limits().MaxHeaps); max > 0 && n > max {
		return tooLarge(pErrGrow, "Game", r.NamePhrase(), "Heaps", n, "Max", max)
	}
	return nil
}

// Check validates a position's shape and bounds for these rules, and that it
// lies within Limits (else the error wraps ErrTooLarge).
func (r Rules) Check(p Position) error {
	r, g, err := r.game()
	if err != nil {
		return err
	}
	return checkAll(r, g, p)
}

func checkAll(r Rules, g game, p Position) error {
	if err := g.check(p); err != nil {
		return err
	}
	return checkLimits(r, g.limits(), p)
}

func checkLimits(r Rules, l Limits, p Position) error {
	if l.MaxHeaps > 0 && len(p.Heaps) > l.MaxHeaps {
		return tooLarge(pErrLimitHeaps, "Game", r.NamePhrase(), "Max", l.MaxHeaps, "Heaps", len(p.Heaps))
	}
	var total int64
	for i, h := range p.Heaps {
		if l.MaxHeap > 0 && h > l.MaxHeap {
			return tooLarge(pErrLimitHeap, "Game", r.NamePhrase(), "Max", l.MaxHeap, "Heap", HeapLabel(i), "Has", h)
		}
		total += h
	}
	if l.MaxTotal > 0 && total > l.MaxTotal {
		return tooLarge(pErrLimitTotal, "Game", r.NamePhrase(), "Max", l.MaxTotal, "Total", total)
	}
	return nil
}

// checkShape is the common shape check for games on a list of heaps: between
// 1 and maxHeaps heaps, each between 0 and maxHeap, and no Limit. name is
// the game's name, asked for only when a refusal says it.
func checkShape(name func() Phrase, p Position, maxHeaps int, maxHeap int64) error {
	if len(p.Heaps) == 0 {
		return invalid(pErrGiveHeap, "Game", name())
	}
	if len(p.Heaps) > maxHeaps {
		return tooLarge(pErrShapeHeaps, "Game", name(), "Max", maxHeaps, "Heaps", len(p.Heaps))
	}
	for i, h := range p.Heaps {
		if h < 0 {
			return invalid(pErrShapeNegative, "Game", name(), "Heap", HeapLabel(i), "Has", h)
		}
		if h > maxHeap {
			return tooLarge(pErrShapeHeap, "Game", name(), "Heap", HeapLabel(i), "Has", h, "Max", maxHeap)
		}
	}
	if p.Limit != 0 {
		return invalid(pErrShapeLimit, "Game", name())
	}
	return nil
}

// MaxLegalMoves is the most moves Legal lists. Heaps of 10^12 have 10^12
// moves; such positions are played through Analyze, Hint and ParseMove.
const MaxLegalMoves = 1 << 16

// Legal lists every legal move in canonical order (heap by heap, smaller takes
// first). It returns nil for an invalid or over-limit position, and for one
// that may have more than MaxLegalMoves moves (use Over to tell a finished game).
func (r Rules) Legal(p Position) []Move {
	r, g, err := r.game()
	if err != nil || checkAll(r, g, p) != nil || !fewMoves(g, p, MaxLegalMoves) {
		return nil
	}
	return g.legal(p)
}

// fewMoves bounds the number of legal moves from above: every variant has at
// most two moves per token (Kayles' knocks, Lasker's takes and splits), but
// Moore's combine heaps, so there the bound is the product of the heap sizes.
func fewMoves(g game, p Position, limit float64) bool {
	var sum int64
	prod := 1.0
	for _, h := range p.Heaps {
		sum += h
		prod *= float64(h + 1)
	}
	if _, ok := g.(mooreGame); ok {
		return prod <= limit
	}
	return 2*float64(sum) <= limit
}

// Apply returns the position after m. An illegal move gets a *MoveError saying
// exactly why; a finished game gets ErrGameOver. It never panics and never
// changes p.
func (r Rules) Apply(p Position, m Move) (Position, error) {
	g, err := r.validate(p, m)
	if err != nil {
		return Position{}, err
	}
	q := Position{Heaps: slices.Clone(p.Heaps), Limit: p.Limit}
	m.Takes = slices.Clone(m.Takes)
	return g.apply(q, m), nil
}

// Validate returns the error Apply would return for m in p (nil for a legal
// move) without building the position after it: a board checks dozens of
// candidate moves for its menus, and each Apply copies the heaps.
func (r Rules) Validate(p Position, m Move) error {
	_, err := r.validate(p, m)
	return err
}

// ApplyTo plays m on *p in place: the position Apply returns, written over
// *p's heaps (which it may grow), so replaying a game's moves copies the
// heaps once rather than once per move. *p must own its heaps: pass a copy,
// never a position something else holds. On an error *p is unchanged.
func (r Rules) ApplyTo(p *Position, m Move) error {
	g, err := r.validate(*p, m)
	if err != nil {
		return err
	}
	m.Takes = slices.Clone(m.Takes)
	*p = g.apply(*p, m)
	return nil
}

// validate is Apply's checks: the rules, the position, a finished game,
// and the move; it returns the game that applies m.
func (r Rules) validate(p Position, m Move) (game, error) {
	_, g, err := r.game()
	if err != nil {
		return nil, err
	}
	if err := g.check(p); err != nil {
		return nil, err
	}
	if isOver(g, p) {
		return nil, ErrGameOver
	}
	if err := g.validate(p, m); err != nil {
		return nil, err
	}
	return g, nil
}

func isOver(g game, p Position) bool {
	if o, ok := g.(overer); ok {
		return o.over(p)
	}
	for _, h := range p.Heaps {
		if h != 0 {
			return len(g.legal(p)) == 0
		}
	}
	return true
}

// Over reports whether no legal move is left (an invalid position counts as over).
func (r Rules) Over(p Position) bool {
	_, g, err := r.game()
	if err != nil || g.check(p) != nil {
		return true
	}
	return isOver(g, p)
}

// noMoveExplainer is implemented by variants where a position can hold
// pieces yet allow no move: it says why.
type noMoveExplainer interface {
	whyNoMove(p Position) Phrase
}

// pNoMoveRules is why a position holding pieces has no move, where the
// variant has nothing more precise to say.
var pNoMoveRules = def("nomove.rules", "", "the rules allow no move from here")

// WhyNoMove says why the rules allow no move in p although some heap still
// holds something (Fibonacci's opening on a heap of 1, heaps smaller than
// every amount of a subtraction set), as a phrase a player can read. It is
// false when p has a legal move, is invalid, or has every heap empty
// (which says why by itself).
func (r Rules) WhyNoMove(p Position) (Phrase, bool) {
	_, g, err := r.game()
	if err != nil || g.check(p) != nil || !isOver(g, p) || allZero(p.Heaps) {
		return Phrase{}, false
	}
	if e, ok := g.(noMoveExplainer); ok {
		return e.whyNoMove(p), true
	}
	return P(pNoMoveRules), true
}

// LastMoverWins reports who won a finished game: the player who made the last
// move in normal play, the other one in misère play.
func (r Rules) LastMoverWins() bool { return !r.Misere }

// Analyze gives the perfect-play verdict for the player to move and every
// winning move (at most MaxListedMoves listed, WinningCount counts them all).
func (r Rules) Analyze(p Position) (Analysis, error) {
	r, g, err := r.game()
	if err != nil {
		return Analysis{}, err
	}
	if err := checkAll(r, g, p); err != nil {
		return Analysis{}, err
	}
	return analyze(r, g, p), nil
}

func analyze(r Rules, g game, p Position) Analysis {
	if isOver(g, p) {
		return Analysis{MoverWins: r.Misere}
	}
	moves, n := g.winning(p, MaxListedMoves)
	return Analysis{MoverWins: g.moverWins(p), Winning: moves, WinningCount: n}
}

// first returns a's first n winning moves (fewer if it lists fewer) and
// how many there are in all: what a game's winning(p, n) gives, since the
// list is in canonical order. An explanation cites them from the analysis
// Hint has made instead of listing the moves again (Moore's Nim pays a
// pass over every set of up to k heaps for a listing, however short).
func (a Analysis) first(n int) ([]Move, int64) {
	return a.Winning[:min(n, len(a.Winning))], a.WinningCount
}

// maxMooreK bounds Moore's k: a move touches at most this many heaps.
const maxMooreK = 8
