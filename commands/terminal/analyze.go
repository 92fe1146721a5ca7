package terminal

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"nimbot/engine"
)

// Exit codes of Analyze.
const (
	// ExitOK: the position was analysed.
	ExitOK = 0
	// ExitRefused: the question made sense but the engine refuses it (a
	// position beyond its published limits) or failed.
	ExitRefused = 1
	// ExitUsage: the command line could not be understood: an unknown flag or
	// variant, malformed heaps, a bad k or set, or a flag the variant has no
	// use for.
	ExitUsage = 2
)

const analyzeUsage = `usage: analyze [--variant V] [--misere | --normal] [--k K | --set 1,3,4] [--limit L] [--target T] [--json] HEAPS...

Variants: nim (default), subtraction, 21, greedy, fibonacci, wythoff, moore, lasker, kayles.
  subtraction  --k K (take 1..K, default 3) or --set 1,3,4 (take an amount in the set)
  21           HEAPS is the count said so far (default 0); --k (default 3), --target (default 21);
               misère (whoever says the target loses) unless --normal
  fibonacci    HEAPS is the one heap; --limit is the most that may be taken now
               (default: the opening limit, heap - 1)
  wythoff      exactly two heaps
  moore        --k K: a move takes from 1..K heaps (default 2)
HEAPS are sizes separated by spaces, commas or dashes: 3 4 5, 3,4,5 or 3-4-5.

Examples:
  analyze 3 4 5
  analyze --misere 1 1 2
  analyze --variant subtraction --set 1,3,4 7 9
  analyze --variant fibonacci --limit 4 17
  analyze --json --variant kayles 5 8
`

// usageError is a command line Analyze cannot understand (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// analyzeRequest is a parsed analyze command line.
type analyzeRequest struct {
	rules engine.Rules
	pos   engine.Position
	json  bool
}

// Analyze runs the analyze subcommand: args are the arguments after
// "analyze". It writes the answer to out and any complaint to errOut, and
// returns the process exit code: ExitOK, ExitUsage for a command line it
// cannot understand, ExitRefused for a position the engine will not solve.
func Analyze(args []string, out, errOut io.Writer) int {
	req, err := parseAnalyze(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(out, analyzeUsage)
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(errOut, "analyze: %v\n", err)
		var ue *usageError
		if errors.As(err, &ue) || errors.Is(err, engine.ErrInvalid) {
			fmt.Fprintln(errOut, "Run `analyze --help` for the flags and examples.")
			return ExitUsage
		}
		return ExitRefused
	}
	a, err := req.rules.Analyze(req.pos)
	if err != nil {
		fmt.Fprintf(errOut, "analyze: %v\n", err)
		return ExitRefused
	}
	if req.json {
		b, err := analysisJSON(req.rules, req.pos, a)
		if err != nil {
			fmt.Fprintf(errOut, "analyze: %v\n", err)
			return ExitRefused
		}
		out.Write(append(b, '\n'))
		return ExitOK
	}
	writeAnalysis(out, req.rules, req.pos, a)
	return ExitOK
}

// parseAnalyze reads the flags (anywhere among the heaps, as people type
// them) and builds the rules and the position.
func parseAnalyze(args []string) (analyzeRequest, error) {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, by Analyze
	variant := fs.String("variant", "nim", "")
	misere := fs.Bool("misere", false, "")
	normal := fs.Bool("normal", false, "")
	k := fs.Int("k", 0, "")
	set := fs.String("set", "", "")
	limit := fs.Int64("limit", 0, "")
	target := fs.Int("target", 0, "")
	asJSON := fs.Bool("json", false, "")

	var heapArgs []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return analyzeRequest{}, err
			}
			return analyzeRequest{}, usagef("%v", err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		// A heap, then maybe more flags: the flag package stops at the first
		// non-flag, but "analyze 3 4 5 --json" is how people type it.
		heapArgs = append(heapArgs, rest[0])
		rest = rest[1:]
	}
	setFlags := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { setFlags[f.Name] = true })

	v := engine.Variant(strings.ToLower(strings.TrimSpace(*variant)))
	switch v {
	case "twentyone", "twenty-one":
		v = engine.TwentyOne
	}
	known := false
	for _, w := range engine.Variants() {
		known = known || w == v
	}
	if !known {
		return analyzeRequest{}, usagef("unknown variant %q: use one of %s", *variant, variantNames())
	}

	// Flags the variant has no use for are refused rather than ignored: a
	// silently ignored --k would answer a different question than was asked.
	allowed := map[engine.Variant][]string{
		engine.Subtraction: {"k", "set"},
		engine.TwentyOne:   {"k", "target"},
		engine.Fibonacci:   {"limit"},
		engine.Moore:       {"k"},
	}
	for _, name := range []string{"k", "set", "limit", "target"} {
		if setFlags[name] && !contains(allowed[v], name) {
			return analyzeRequest{}, usagef("--%s does not apply to %s (it applies to %s)", name, v, flagUsers(name, allowed))
		}
	}
	if setFlags["k"] && setFlags["set"] {
		return analyzeRequest{}, usagef("give either --k or --set, not both")
	}

	r := engine.Rules{Variant: v, Misere: *misere}
	if setFlags["k"] {
		if *k < 1 {
			return analyzeRequest{}, usagef("--k must be at least 1, got %d", *k)
		}
		r.K = *k
	}
	if setFlags["set"] {
		s, err := parseSet(*set)
		if err != nil {
			return analyzeRequest{}, err
		}
		r.Set = s
	}
	if setFlags["target"] {
		if *target < 1 {
			return analyzeRequest{}, usagef("--target must be at least 1, got %d", *target)
		}
		r.Target = *target
	}
	if setFlags["misere"] && setFlags["normal"] && *misere == *normal {
		return analyzeRequest{}, usagef("give either --misere or --normal, not both")
	}
	if setFlags["normal"] {
		r.Misere = !*normal
	}
	if v == engine.TwentyOne && !setFlags["misere"] && !setFlags["normal"] {
		// The 21 game is classically misère (whoever says 21 loses), as
		// in the engine's notation; --normal makes saying 21 a win.
		r.Misere = true
	}
	nr, err := r.Normalize()
	if err != nil {
		return analyzeRequest{}, usagef("%v", err)
	}
	r = nr

	var heaps []int64
	if len(heapArgs) > 0 {
		joined := strings.Join(heapArgs, " ")
		heaps, err = engine.ParseHeaps(joined)
		if err != nil {
			return analyzeRequest{}, usagef("cannot read the heaps %q: %v", joined, err)
		}
	}
	switch v {
	case engine.TwentyOne:
		if len(heaps) > 1 {
			return analyzeRequest{}, usagef("the 21 game takes one number, the count said so far; got %d", len(heaps))
		}
	case engine.Fibonacci:
		if len(heaps) != 1 {
			return analyzeRequest{}, usagef("Fibonacci Nim is played on one heap; got %d", len(heaps))
		}
	case engine.Wythoff:
		if len(heaps) != 2 {
			return analyzeRequest{}, usagef("Wythoff's game is played on two heaps; got %d", len(heaps))
		}
	default:
		if len(heaps) == 0 {
			return analyzeRequest{}, usagef("no heaps given: type the heap sizes, e.g. analyze 3 4 5")
		}
	}
	p, err := r.Start(heaps)
	if err != nil {
		return analyzeRequest{}, startError(r, err)
	}
	if setFlags["limit"] {
		if *limit < 1 {
			return analyzeRequest{}, usagef("--limit must be at least 1, got %d", *limit)
		}
		p.Limit = *limit
		if err := r.Check(p); err != nil {
			return analyzeRequest{}, startError(r, err)
		}
	}
	return analyzeRequest{rules: r, pos: p, json: *asJSON}, nil
}

// startError words a refused position: too large is the engine declining
// (exit 1, with its limits); anything else is the user's input (exit 2).
func startError(r engine.Rules, err error) error {
	if errors.Is(err, engine.ErrTooLarge) {
		return fmt.Errorf("too large to solve perfectly: %w", err)
	}
	return usagef("%v", err)
}

func parseSet(s string) ([]int, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields) == 0 {
		return nil, usagef("--set needs amounts, e.g. --set 1,3,4")
	}
	var out []int
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, usagef("--set: %q is not a positive whole number (write --set 1,3,4)", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func variantNames() string {
	var names []string
	for _, v := range engine.Variants() {
		names = append(names, string(v))
	}
	return strings.Join(names, ", ")
}

func flagUsers(name string, allowed map[engine.Variant][]string) string {
	var users []string
	for _, v := range engine.Variants() {
		if contains(allowed[v], name) {
			users = append(users, string(v))
		}
	}
	return strings.Join(users, " and ")
}

// analysisJSON is the --json answer: one object, moves in the engine's Move
// JSON shape (0-based indices) with their notation added.
func analysisJSON(r engine.Rules, p engine.Position, a engine.Analysis) ([]byte, error) {
	moves := make([]json.RawMessage, 0, len(a.Winning))
	for _, m := range a.Winning {
		b, err := moveJSON(r, p, m)
		if err != nil {
			return nil, err
		}
		moves = append(moves, b)
	}
	obj := struct {
		Variant      engine.Variant    `json:"variant"`
		Misere       bool              `json:"misere"`
		Position     any               `json:"position"`
		MoverWins    bool              `json:"mover_wins"`
		WinningMoves []json.RawMessage `json:"winning_moves"`
		WinningCount int64             `json:"winning_count"`
		Notation     string            `json:"notation"`
	}{r.Variant, r.Misere, jsonPosition(r, p), a.MoverWins, moves, a.WinningCount, engine.FormatGame(r, p)}
	return json.Marshal(obj)
}

// jsonPosition is the position as a script wants it: the heaps, except
// Fibonacci's heap and limit and the 21 game's count said so far.
func jsonPosition(r engine.Rules, p engine.Position) any {
	switch r.Variant {
	case engine.Fibonacci:
		var n int64
		if len(p.Heaps) > 0 {
			n = p.Heaps[0]
		}
		return struct {
			Heap  int64 `json:"heap"`
			Limit int64 `json:"limit"`
		}{n, p.Limit}
	case engine.TwentyOne:
		var left int64
		if len(p.Heaps) > 0 {
			left = p.Heaps[0]
		}
		return int64(r.Target) - left
	}
	heaps := p.Heaps
	if heaps == nil {
		heaps = []int64{}
	}
	return heaps
}

// moveJSON is the engine's JSON for m with "notation" appended; splicing the
// bytes keeps the engine's key order.
func moveJSON(r engine.Rules, p engine.Position, m engine.Move) (json.RawMessage, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	note, err := json.Marshal(r.FormatMove(p, m))
	if err != nil {
		return nil, err
	}
	if len(b) < 2 || b[len(b)-1] != '}' {
		return nil, fmt.Errorf("engine move JSON %s is not an object", b)
	}
	out := append([]byte{}, b[:len(b)-1]...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"notation":`...)
	out = append(out, note...)
	return append(out, '}'), nil
}

// writeAnalysis prints the verdict, the winning moves and the explanation.
func writeAnalysis(w io.Writer, r engine.Rules, p engine.Position, a engine.Analysis) {
	fmt.Fprintf(w, "%s: %s\n", r.Name(), describePosition(r, p))
	fmt.Fprintf(w, "Notation: %s\n", engine.FormatGame(r, p))
	if r.Over(p) {
		winner := "the player who made the last move"
		if !r.LastMoverWins() {
			winner = "the player to move (the last mover loses)"
		}
		fmt.Fprintf(w, "The game is over: no move is left. Winner: %s.\n", winner)
		return
	}
	if a.MoverWins {
		fmt.Fprintln(w, "The player to move wins with perfect play.")
	} else {
		fmt.Fprintln(w, "The player to move loses against perfect play: every move leaves a winning position.")
	}
	if len(a.Winning) > 0 {
		fmt.Fprintf(w, "Winning moves (%d", a.WinningCount)
		if int64(len(a.Winning)) < a.WinningCount {
			fmt.Fprintf(w, ", the first %d listed", len(a.Winning))
		}
		fmt.Fprintln(w, "):")
		notes := make([]string, len(a.Winning))
		width := 0
		for i, m := range a.Winning {
			notes[i] = r.FormatMove(p, m)
			width = max(width, utf8.RuneCountInString(notes[i]))
		}
		for i, m := range a.Winning {
			fmt.Fprintf(w, "  %s  %s\n", pad(notes[i], width, false), r.Describe(p, m))
		}
	}
	// The explanation comes from Hint, which can search where Analyze has a
	// formula; a command line should answer rather than hang, so a slow one
	// is given up (the goroutine ends with the process).
	done := make(chan engine.Hint, 1)
	go func() {
		if h, err := r.Hint(p); err == nil {
			done <- h
		}
		close(done)
	}()
	select {
	case h, ok := <-done:
		if ok {
			writeExplanation(w, h.Explanation)
		}
	case <-time.After(explainTimeout):
		fmt.Fprintf(w, "(No explanation: the engine did not produce one within %v for a position this large.)\n", explainTimeout)
	}
}

// explainTimeout bounds the wait for the engine's explanation.
const explainTimeout = 5 * time.Second

// describePosition labels the heaps the way moves name them (A=3 B=4 C=5).
func describePosition(r engine.Rules, p engine.Position) string {
	switch r.Variant {
	case engine.TwentyOne:
		left := int64(0)
		if len(p.Heaps) > 0 {
			left = p.Heaps[0]
		}
		return fmt.Sprintf("count %d, target %d, say 1 to %d more", int64(r.Target)-left, r.Target, r.K)
	case engine.Fibonacci:
		n := int64(0)
		if len(p.Heaps) > 0 {
			n = p.Heaps[0]
		}
		return fmt.Sprintf("heap %d, at most %d may be taken now", n, p.Limit)
	}
	parts := make([]string, len(p.Heaps))
	for i, h := range p.Heaps {
		parts[i] = fmt.Sprintf("%s=%d", engine.HeapLabel(i), h)
	}
	noun := "heaps"
	if r.Variant == engine.Kayles {
		noun = "rows"
	}
	return noun + " " + strings.Join(parts, " ")
}

// writeExplanation renders an engine.Explanation: numbered steps, then the
// table with its columns aligned (first column left, the rest right, as
// numbers read best) and the total under a rule.
func writeExplanation(w io.Writer, e engine.Explanation) {
	if len(e.Steps) == 0 && e.Table == nil {
		return
	}
	title := "Why"
	if e.Theory != "" {
		title += " (" + e.Theory + ")"
	}
	fmt.Fprintln(w, title+":")
	for i, s := range e.Steps {
		fmt.Fprintf(w, "  %d. %s\n", i+1, s)
	}
	if e.Table != nil {
		for _, line := range e.Table.Lines() {
			fmt.Fprintln(w, "  "+line)
		}
	}
}

// pad widens s to width runes, on the left when right is set.
func pad(s string, width int, right bool) string {
	n := width - utf8.RuneCountInString(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}
