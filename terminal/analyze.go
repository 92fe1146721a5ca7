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

// analyzeUsage is the --help text; the variants and their flags come from
// the engine's descriptions.
func analyzeUsage() string {
	var b strings.Builder
	b.WriteString("usage: analyze [--variant V] [--misere | --normal]")
	for _, name := range engine.SettingNames() {
		meta := strings.ToUpper(name)
		if settingKind(name) == engine.IntSet {
			meta = "1,3,4"
		}
		fmt.Fprintf(&b, " [--%s %s]", name, meta)
	}
	b.WriteString(" [--limit L] [--json] HEAPS...\n\nVariants: ")
	var names []string
	for i, d := range engine.Descriptions() {
		n := string(d.Variant)
		if i == 0 {
			n += " (default)"
		}
		names = append(names, n)
	}
	b.WriteString(strings.Join(names, ", ") + ".\n")
	for _, d := range engine.Descriptions() {
		var notes []string
		switch {
		case d.Counting:
			notes = append(notes, "HEAPS is the count said so far (default 0)")
		case d.Heaps > 0:
			notes = append(notes, fmt.Sprintf("exactly %s %s", numberWord(d.Heaps), plural(d.Heap, d.Heaps)))
		}
		for _, s := range d.Settings {
			note := fmt.Sprintf("--%s: %s", s.Name, s.Doc)
			if s.Default != 0 {
				note += fmt.Sprintf(" (default %d)", s.Default)
			}
			if s.Excludes != "" && s.Kind == engine.IntSet {
				note += fmt.Sprintf(" (not with --%s)", s.Excludes)
			}
			notes = append(notes, note)
		}
		if d.Limit {
			notes = append(notes, "--limit: the most that may be taken now (default: the opening limit, heap - 1)")
		}
		if d.Misere {
			notes = append(notes, "misère unless --normal")
		}
		if len(notes) > 0 {
			fmt.Fprintf(&b, "  %-12s %s\n", d.Variant, strings.Join(notes, "; "))
		}
	}
	b.WriteString(`HEAPS are sizes separated by spaces, commas or dashes: 3 4 5, 3,4,5 or 3-4-5.

Examples:
  analyze 3 4 5
  analyze --misere 1 1 2
  analyze --variant subtraction --set 1,3,4 7 9
  analyze --variant fibonacci --limit 4 17
  analyze --json --variant kayles 5 8
`)
	return b.String()
}

func numberWord(n int) string {
	if n >= 0 && n < 10 {
		return [...]string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}[n]
	}
	return strconv.Itoa(n)
}

func plural(noun string, n int) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

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
		fmt.Fprint(out, analyzeUsage())
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(errOut, "analyze: %s\n", clipWords(err.Error()))
		// Too large first: the engine marks heaps past its limits in the
		// text as invalid notation too, but they are positions beyond its
		// published limits, which ExitRefused promises.
		if errors.Is(err, engine.ErrTooLarge) {
			return ExitRefused
		}
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
// them) and builds the rules and the position. The settings' flags are the
// engine's setting names; a variant takes those its description lists.
func parseAnalyze(args []string) (analyzeRequest, error) {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, by Analyze
	variant := fs.String("variant", string(engine.Variants()[0]), "")
	misere := fs.Bool("misere", false, "")
	normal := fs.Bool("normal", false, "")
	ints := map[string]*int64{}
	texts := map[string]*string{}
	for _, name := range engine.SettingNames() {
		if settingKind(name) == engine.IntSet {
			texts[name] = fs.String(name, "", "")
		} else {
			ints[name] = fs.Int64(name, 0, "")
		}
	}
	limit := fs.Int64("limit", 0, "")
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

	v, ok := engine.Lookup(*variant)
	if !ok {
		return analyzeRequest{}, usagef("unknown variant %q: use one of %s", clip(*variant), variantNames())
	}
	d, _ := engine.Describe(v)

	// Flags the variant has no use for are refused rather than ignored: a
	// silently ignored --k would answer a different question than was asked.
	for _, name := range append(engine.SettingNames(), "limit") {
		if setFlags[name] && !takesFlag(d, name) {
			return analyzeRequest{}, usagef("--%s does not apply to %s (it applies to %s)", name, v, flagUsers(name))
		}
	}
	for _, s := range d.Settings {
		if s.Excludes != "" && setFlags[s.Name] && setFlags[s.Excludes] {
			return analyzeRequest{}, usagef("give either --%s or --%s, not both", s.Name, s.Excludes)
		}
	}

	r := engine.Rules{Variant: v, Misere: *misere}
	for _, s := range d.Settings {
		if !setFlags[s.Name] {
			continue
		}
		var vals []int64
		if s.Kind == engine.IntSet {
			set, err := parseSet(s.Name, *texts[s.Name])
			if err != nil {
				return analyzeRequest{}, err
			}
			vals = set
		} else {
			if n := *ints[s.Name]; n < 1 {
				return analyzeRequest{}, usagef("--%s must be at least 1, got %d", s.Name, n)
			}
			vals = []int64{*ints[s.Name]}
		}
		var err error
		if r, err = r.With(s.Name, vals...); err != nil {
			return analyzeRequest{}, usagef("--%s: %v", s.Name, err)
		}
	}
	if setFlags["misere"] && setFlags["normal"] && *misere == *normal {
		return analyzeRequest{}, usagef("give either --misere or --normal, not both")
	}
	if setFlags["normal"] {
		r.Misere = !*normal
	}
	if !setFlags["misere"] && !setFlags["normal"] {
		// A game with a traditional convention (the 21 game is misère:
		// whoever says 21 loses) plays it, as in the engine's notation.
		r.Misere = d.Misere
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
		if errors.Is(err, engine.ErrTooLarge) {
			// A heap, or a count of heaps, past the engine's limits.
			return analyzeRequest{}, startError(r, err)
		}
		if err != nil {
			return analyzeRequest{}, usagef("cannot read the heaps %q: %v", clip(joined), err)
		}
	}
	switch {
	case d.Counting:
		if len(heaps) > 1 {
			return analyzeRequest{}, usagef("%s takes one number, the count said so far; got %d", d.Title, len(heaps))
		}
	case d.Heaps > 0:
		if len(heaps) != d.Heaps {
			return analyzeRequest{}, usagef("%s is played on %s %s; got %d", d.Title, numberWord(d.Heaps), plural(d.Heap, d.Heaps), len(heaps))
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

// settingKind is the kind of the setting called name in the first variant
// that takes it.
func settingKind(name string) engine.SettingKind {
	for _, d := range engine.Descriptions() {
		if s, ok := d.Setting(name); ok {
			return s.Kind
		}
	}
	return engine.Int
}

// takesFlag reports whether the variant uses the flag called name: one of
// its settings, or --limit for a game whose position carries a limit.
func takesFlag(d engine.Description, name string) bool {
	if name == "limit" {
		return d.Limit
	}
	_, ok := d.Setting(name)
	return ok
}

// startError words a refused position: too large is the engine declining
// (exit 1, with its limits); anything else is the user's input (exit 2).
func startError(r engine.Rules, err error) error {
	if errors.Is(err, engine.ErrTooLarge) {
		return fmt.Errorf("too large to solve perfectly: %w", err)
	}
	return usagef("%v", err)
}

func parseSet(name, s string) ([]int64, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields) == 0 {
		return nil, usagef("--%s needs amounts, e.g. --%s 1,3,4", name, name)
	}
	var out []int64
	for _, f := range fields {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil || n < 1 {
			return nil, usagef("--%s: %q is not a positive whole number (write --%s 1,3,4)", name, clip(f), name)
		}
		out = append(out, n)
	}
	return out, nil
}

func variantNames() string {
	var names []string
	for _, v := range engine.Variants() {
		names = append(names, string(v))
	}
	return strings.Join(names, ", ")
}

func flagUsers(name string) string {
	var users []string
	for _, d := range engine.Descriptions() {
		if takesFlag(d, name) {
			users = append(users, string(d.Variant))
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
	d, _ := engine.Describe(r.Variant)
	switch {
	case d.Limit:
		var n int64
		if len(p.Heaps) > 0 {
			n = p.Heaps[0]
		}
		return struct {
			Heap  int64 `json:"heap"`
			Limit int64 `json:"limit"`
		}{n, p.Limit}
	case d.Counting:
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
	d, _ := engine.Describe(r.Variant)
	switch {
	case d.Counting:
		left := int64(0)
		if len(p.Heaps) > 0 {
			left = p.Heaps[0]
		}
		return fmt.Sprintf("count %d, target %d, say 1 to %d more", int64(r.Target)-left, r.Target, r.K)
	case d.Limit:
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
	return d.Heap + "s " + strings.Join(parts, " ")
}

// writeExplanation renders an engine.Explanation: numbered steps, then the
// table with its columns aligned (first column left, the rest right, as
// numbers read best) and the total under a rule.
func writeExplanation(w io.Writer, e engine.Explanation) {
	if len(e.Steps) == 0 && e.Table == nil {
		return
	}
	title := "Why"
	if theory := e.Theory.String(); theory != "" {
		title += " (" + theory + ")"
	}
	fmt.Fprintln(w, title+":")
	for i, s := range e.Steps {
		fmt.Fprintf(w, "  %d. %s\n", i+1, s)
	}
	if e.Table != nil {
		for _, line := range e.Table.Lines(nil) {
			fmt.Fprintln(w, "  "+line)
		}
	}
}

// clipWords clips each word of an error message far longer than clip
// leaves one. The messages of the flag package and the engine quote the
// argument they refuse whole, and one argument can be megabytes long; the
// rest of the message, which says what to do, is kept, and so is input
// this package already clipped.
func clipWords(msg string) string {
	words := strings.Split(msg, " ")
	for i, w := range words {
		if utf8.RuneCountInString(w) <= 2*clipRunes {
			continue
		}
		c := clip(w)
		if strings.HasPrefix(w, `"`) {
			c += `"`
		}
		words[i] = c
	}
	return strings.Join(words, " ")
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
