package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// The notation is short text people type and share. A game is
//
//	[variant] [normal|misere] [k=K] [set=1,3,4] [target=T] [count=C] [limit=L] heaps
//
// with heaps written "3 4 5", "3-4-5" or "3,4,5", never with a heap's
// digits grouped ("1,000" and "2 500" are refused: see ParseHeaps). No
// variant means Nim; the 21 game is misère unless it says normal, every
// other game normal unless it says misere. FormatGame writes the canonical
// form ("3 4 5", "nim misere 3 4 5", "subtraction k=3 10 12", "21",
// "fibonacci 20 limit=4", "3, 500"), which ParseGame reads back to the same
// rules and position.
//
// A move is "B3" (take 3 from heap B), "AB3" (Wythoff: 3 from both), "A2 C1"
// (Moore: several heaps at once), "B=2+3" (Lasker: split B into 2 and 3),
// "B4" or "B4-5" (Kayles: knock down pin 4, or pins 4 and 5, of row B,
// counting from 1) and "+3" (the 21 game: say 3 more). Blanks inside a move
// are read where they cannot change it: "B 3" is B3, "B = 2 + 3" is B=2+3
// (see joinSpaced).

// ParseGame reads a game in the notation above: "3 4 5", "nim misere 3-4-5",
// "subtraction k=3 10 12", "subtraction set=1,3,4 7 9", "21", "21 k=3
// target=21 count=5", "fibonacci 20", "fibonacci 20 limit=4", "moore k=2 3 5
// 6", "wythoff 3 5", "lasker 4 7", "kayles 5 8". Errors wrap ErrInvalid (or
// ErrTooLarge for a position beyond the engine's Limits).
func ParseGame(s string) (Rules, Position, error) {
	fields := strings.Fields(strings.ToLower(s))
	if len(fields) == 0 {
		return Rules{}, Position{}, invalid(pErrGameDescribe)
	}
	r := Rules{Variant: Nim}
	if v, ok := Lookup(fields[0]); ok {
		r.Variant = v
		fields = fields[1:]
	}
	conventionSet := false
	d, _ := describe(r.Variant)
	r.Misere = d.Misere
	var heapText []string
	var count, limit *int64
	seen := map[string]bool{}
	for _, f := range fields {
		key, val, isParam := strings.Cut(f, "=")
		if !isParam {
			switch f {
			case "normal", "misere", "misère":
				if conventionSet {
					return Rules{}, Position{}, invalid(pErrGameConvention)
				}
				conventionSet = true
				r.Misere = f != "normal"
				continue
			}
			if _, ok := Lookup(f); ok && !isDigits(f) {
				return Rules{}, Position{}, invalid(pErrGameNameFirst, "Word", quoted(f))
			}
			heapText = append(heapText, f)
			continue
		}
		if seen[key] {
			return Rules{}, Position{}, invalid(pErrGameTwice, "Key", Lit(key))
		}
		seen[key] = true
		switch key {
		case "k", "target":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return Rules{}, Position{}, invalid(pErrGamePositive, "Key", Lit(key), "Value", quoted(val))
			}
			if key == "k" {
				r.K = n
			} else {
				r.Target = n
			}
		case "set":
			for _, part := range strings.Split(val, ",") {
				n, err := strconv.Atoi(part)
				if err != nil {
					return Rules{}, Position{}, invalid(pErrGameSet, "Value", quoted(val))
				}
				r.Set = append(r.Set, n)
			}
		case "count", "limit":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n < 0 {
				return Rules{}, Position{}, invalid(pErrGameNumber, "Key", Lit(key), "Value", quoted(val))
			}
			if key == "count" {
				count = &n
			} else {
				limit = &n
			}
		default:
			return Rules{}, Position{}, invalid(pErrGameUnknown, "Key", Lit(key))
		}
	}
	r, err := r.Normalize()
	if err != nil {
		return Rules{}, Position{}, err
	}
	if count != nil && !d.Counting {
		return Rules{}, Position{}, invalid(pErrGameNoCount, "Game", r.NamePhrase())
	}
	if limit != nil && !d.Limit {
		return Rules{}, Position{}, invalid(pErrGameNoLimit, "Game", r.NamePhrase())
	}
	var heaps []int64
	if len(heapText) > 0 {
		heaps, err = ParseHeaps(strings.Join(heapText, " "))
		if err != nil {
			return Rules{}, Position{}, err
		}
	}
	if d.Counting {
		if count != nil && heaps != nil {
			return Rules{}, Position{}, invalid(pErrGameCountOnce, "Game", r.NamePhrase(), "Said", Lit(strconv.FormatInt(*count, 10)))
		}
		if count != nil {
			heaps = []int64{*count}
		}
	} else if len(heaps) == 0 {
		return Rules{}, Position{}, invalid(pErrGameHeaps, "Game", r.NamePhrase(), "Example", quoted(exampleFor(r.Variant)))
	}
	p, err := r.Start(heaps)
	if err != nil {
		return Rules{}, Position{}, err
	}
	if limit != nil {
		p.Limit = *limit
		if err := r.Check(p); err != nil {
			return Rules{}, Position{}, err
		}
	}
	return r, p, nil
}

// The refusals of a game in the notation (ParseGame). Keys, values and
// examples are notation, the same in every language.
var (
	pErrGameDescribe   = def("err.game.describe", "", `describe a game, like "3 4 5" or "nim misere 3-4-5"`)
	pErrGameConvention = def("err.game.convention", "", "say normal or misere once")
	pErrGameNameFirst  = def("err.game.name_first", "", "name the game first: {{.Word}} comes after other words")
	pErrGameTwice      = def("err.game.twice", "", "{{.Key}}= is given twice")
	pErrGamePositive   = def("err.game.positive", "", "{{.Key}}= needs a whole number of at least 1, not {{.Value}}")
	pErrGameSet        = def("err.game.set", "", "set= needs amounts like set=1,3,4, not {{.Value}}")
	pErrGameNumber     = def("err.game.number", "", "{{.Key}}= needs a whole number, not {{.Value}}")
	pErrGameUnknown    = def("err.game.unknown", "", "unknown setting {{.Key}}=: use k=, set=, target=, count= or limit=")
	pErrGameNoCount    = def("err.game.no_count", "", "{{.Game}} has no count=")
	pErrGameNoLimit    = def("err.game.no_limit", "", "{{.Game}} has no limit=")
	pErrGameCountOnce  = def("err.game.count_once", "", "{{.Game}}: give the count once, as count={{.Said}}")
	pErrGameHeaps      = def("err.game.heaps", "", "{{.Game}}: give the heaps, like {{.Example}}")
)

func exampleFor(v Variant) string {
	if d, ok := describe(v); ok {
		for _, e := range d.Examples {
			if strings.HasPrefix(e, string(v)+" ") && !strings.ContainsAny(e, "=") && !strings.Contains(e, "misere") {
				return e
			}
		}
	}
	return string(v) + " 3 4 5"
}

// FormatGame writes rules and position in the canonical notation, which
// ParseGame reads back exactly.
func FormatGame(r Rules, p Position) string {
	n, err := r.Normalize()
	if err == nil {
		r = n
	}
	var parts []string
	// Bare heaps mean Nim, except that a first heap of 21 would read as the
	// 21 game.
	if r.Variant != Nim || r.Misere || (len(p.Heaps) > 0 && p.Heaps[0] == 21) {
		parts = append(parts, string(r.Variant))
	}
	if r.Variant == TwentyOne {
		if !r.Misere {
			parts = append(parts, "normal")
		}
	} else if r.Misere {
		parts = append(parts, "misere")
	}
	switch r.Variant {
	case Subtraction:
		if len(r.Set) > 0 {
			parts = append(parts, "set="+strings.Trim(setString(r.Set), "{}"))
		} else {
			parts = append(parts, fmt.Sprintf("k=%d", r.K))
		}
	case Moore:
		parts = append(parts, fmt.Sprintf("k=%d", r.K))
	case TwentyOne:
		var c int64
		if len(p.Heaps) == 1 {
			c = int64(r.Target) - p.Heaps[0]
		}
		// All three settings, or none when they are all the defaults.
		if r.K != 3 || r.Target != 21 || c != 0 {
			parts = append(parts, fmt.Sprintf("k=%d", r.K), fmt.Sprintf("target=%d", r.Target), fmt.Sprintf("count=%d", c))
		}
		return strings.Join(parts, " ")
	}
	parts = append(parts, FormatHeaps(p.Heaps))
	if r.Variant == Fibonacci && len(p.Heaps) == 1 && p.Limit != p.Heaps[0]-1 {
		parts = append(parts, fmt.Sprintf("limit=%d", p.Limit))
	}
	return strings.Join(parts, " ")
}

// FormatHeaps writes heaps as ParseHeaps reads them: "3 4 5", or "3, 500"
// where spaces alone would read as one number with its digits grouped
// ("3 500" could be 3500, which ParseHeaps refuses).
func FormatHeaps(heaps []int64) string {
	s := make([]string, len(heaps))
	for i, h := range heaps {
		s[i] = strconv.FormatInt(h, 10)
	}
	if spaced := strings.Join(s, " "); findGrouped(spaced, MaxHeapSize).parts == nil {
		return spaced
	}
	return strings.Join(s, ", ")
}

// ParseHeaps reads heap sizes written "3 4 5", "3-4-5" or "3,4,5". A dash
// between two numbers separates them ("3-4", "3 - 4"); one that starts a
// number ("-3", "3,-4", "3 -4") is a minus sign, refused. Heaps that could
// be one number with its digits grouped by threes ("1,000", "2 500") are
// refused, and so is a heap with a leading zero ("05", "000"; "0" alone is
// a heap of 0): see findGrouped. Errors wrap ErrInvalid (and ErrAmbiguous
// for those two) and name the offending heap.
func ParseHeaps(s string) ([]int64, error) { return ParseHeapsUpTo(s, MaxHeapSize) }

// ParseHeapsUpTo is ParseHeaps for a caller whose heaps go up to limit
// only (at most MaxHeapSize): a run that would group into a number larger
// than limit can only be heaps, so it is read as heaps ("100 200 300" where
// heaps go up to 9999), not refused as ambiguous. Heaps larger than limit
// are not refused here; the caller checks its own bound.
func ParseHeapsUpTo(s string, limit int64) ([]int64, error) {
	parts := strings.FieldsFunc(s, isHeapSeparator)
	if len(parts) == 0 {
		return nil, invalid(pErrHeapsEmpty)
	}
	if hasMinusSign(s) {
		return nil, invalid(pErrHeapsNegative)
	}
	if len(parts) > maxHeapsClosed {
		return nil, tooLargeInput(pErrHeapsMany, "Max", maxHeapsClosed, "Heaps", len(parts))
	}
	if g := findGrouped(s, min(limit, MaxHeapSize)); g.parts != nil {
		return nil, g.refusal()
	}
	heaps := make([]int64, len(parts))
	for i, p := range parts {
		if len(p) > 1 && p[0] == '0' && isDigits(p) {
			return nil, ambiguous(pErrHeapsLeadingZero, "Heap", HeapLabel(i), "Text", quoted(p), "Size", Lit(strings.TrimLeft(p[:len(p)-1], "0")+p[len(p)-1:]))
		}
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			if isDigits(p) {
				return nil, tooLargeInput(pErrHeapsLarge, "Heap", HeapLabel(i), "Size", Lit(p), "Max", MaxHeapSize)
			}
			return nil, invalid(pErrHeapsNotSize, "Heap", HeapLabel(i), "Text", quoted(p))
		}
		if n > MaxHeapSize {
			return nil, tooLargeInput(pErrHeapsLarge, "Heap", HeapLabel(i), "Size", n, "Max", MaxHeapSize)
		}
		heaps[i] = n
	}
	return heaps, nil
}

// hasMinusSign reports whether a dash in heaps s reads as a minus sign:
// one first of all, or one before a number that does not follow a number
// ("3,-4", "3--4") or is glued to the number after it but not to the one
// before ("3 -4"). As a plain separator these read as positive heaps, a
// position the player did not give.
func hasMinusSign(s string) bool {
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	for i := 0; i < len(s); i++ {
		if s[i] != '-' {
			continue
		}
		prev := strings.TrimRightFunc(s[:i], isBlank)
		if prev == "" {
			return true
		}
		if next := strings.TrimLeftFunc(s[i+1:], isBlank); next == "" || !digit(next[0]) {
			continue // no number follows: nothing is negative
		}
		afterOther := !digit(prev[len(prev)-1])              // "3,-4", "3--4"
		gluedAfter := isBlank(rune(s[i-1])) && digit(s[i+1]) // "3 -4"
		if afterOther || gluedAfter {
			return true
		}
	}
	return false
}

func isBlank(c rune) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isHeapSeparator(c rune) bool { return isBlank(c) || c == ',' || c == '-' }

// grouped is a run of heaps text that reads as one number with its digits
// grouped by threes: the run as typed, and its parts ("2,500": "2", "500").
type grouped struct {
	text  string
	parts []string
}

// findGrouped returns the first run of heaps text s that could be one
// number written with its digits grouped by threes, the way people write
// numbers: "1,000" and "2,500" in English, "1 000" and "12 345" in French
// and other languages that group with a space. Read as separate heaps these
// are a game nobody asked for ("1,000" was the heaps 1 and 0, a game over in
// one move), so ParseHeaps refuses them, saying how to write either reading.
//
// A run is a chain of heaps joined by the same mark: a bare comma, with no
// blank either side ("2,500"; "2, 500" is a list), or blanks alone. It reads
// as a grouped number when it is one as a whole: a first part of 1 to 3
// digits not starting with 0, then parts of exactly 3 digits, and a number
// no larger than limit (MaxHeapSize, or a caller's tighter bound): past that
// it is no heap the caller takes, so only the heaps are meant ("833 833 833
// 833 833" is five heaps). The whole
// chain and not any two heaps in it, because a writer does not separate
// heaps and group digits with the same mark: in "3 4 500" the spaces
// separate heaps, so the 500 is a heap; in "2 500" or "100 200 300" nothing
// says which the spaces do. The cost is that a game like "3 500" must be
// written "3, 500" or "3-500" (a comma and a space, or a dash, group digits
// nowhere); FormatHeaps writes it so. A dot or an apostrophe ("1.000",
// "1'000") is no separator, so those are refused as no heap size already.
func findGrouped(s string, limit int64) grouped {
	type number struct{ start, end int }
	var nums []number
	for i := 0; i < len(s); {
		if isHeapSeparator(rune(s[i])) {
			i++
			continue
		}
		j := i
		for j < len(s) && !isHeapSeparator(rune(s[j])) {
			j++
		}
		nums = append(nums, number{i, j})
		i = j
	}
	// mark is what joins number k to number k+1: ',' for a bare comma, ' '
	// for blanks alone, 0 for anything else.
	mark := func(k int) byte {
		sep := s[nums[k].end:nums[k+1].start]
		if sep == "," {
			return ','
		}
		if strings.TrimFunc(sep, isBlank) == "" {
			return ' '
		}
		return 0
	}
	for a := range nums {
		for _, m := range []byte{',', ' '} {
			if a > 0 && mark(a-1) == m {
				continue // not the start of a chain of m
			}
			b := a
			for b+1 < len(nums) && mark(b) == m {
				b++
			}
			if b == a {
				continue
			}
			first := s[nums[a].start:nums[a].end]
			ok := len(first) <= 3 && isDigits(first) && first[0] != '0'
			for k := a + 1; ok && k <= b; k++ {
				part := s[nums[k].start:nums[k].end]
				ok = len(part) == 3 && isDigits(part)
			}
			if !ok {
				continue
			}
			g := grouped{text: s[nums[a].start:nums[b].end]}
			for k := a; k <= b; k++ {
				g.parts = append(g.parts, s[nums[k].start:nums[k].end])
			}
			if n, err := strconv.ParseInt(strings.Join(g.parts, ""), 10, 64); err == nil && n <= limit {
				return g
			}
		}
	}
	return grouped{}
}

// refusal says how to write g as one heap, and as separate heaps unless a
// part has a leading zero ("1,000" can only be a thousand).
func (g grouped) refusal() error {
	number := Lit(strings.Join(g.parts, ""))
	for _, p := range g.parts[1:] {
		if p[0] == '0' {
			return ambiguous(pErrHeapsGroupedNumber, "Text", quoted(g.text), "Number", number)
		}
	}
	return ambiguous(pErrHeapsGrouped, "Text", quoted(g.text), "Number", number, "Apart", Lit(strings.Join(g.parts, ", ")))
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// splitLabel splits "B3" into "B" and "3" (letters first, then the rest).
func splitLabel(s string) (label, rest string) {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return s[:i], s[i:]
}

// parseAmount reads a positive amount in a move.
func parseAmount(s, move string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if isDigits(s) {
			return 0, invalid(pErrMoveAmountLarge, "Move", quoted(move), "Amount", Lit(s))
		}
		return 0, invalid(pErrMoveNotMove, "Move", quoted(move))
	}
	return n, nil
}

// HeapIndex is HeapLabel's inverse: the index of the heap labelled label
// ("A" is 0, "AB" is 27, in either case), and false for text that labels no
// heap ("1", "A1", ""). It does not know a position: whether the heap exists
// is the caller's to check. Callers that build notation from a label
// someone typed need it, since "1" or "A1" joined to an amount reads as a
// different move.
func HeapIndex(label string) (int, bool) {
	i := labelIndex(label)
	return i, i >= 0
}

// heapIndex resolves a label against p, with the same message Apply gives.
func heapIndex(p Position, label, move string) (int, error) {
	i := labelIndex(label)
	if i < 0 || i >= len(p.Heaps) {
		return 0, invalid(pErrNoHeap, "Heap", strings.ToUpper(label), "Heaps", labelRange(len(p.Heaps)))
	}
	return i, nil
}

// ParseMove reads a move in the notation above for position p: "B3", "AB3"
// (Wythoff), "A2 C1" (Moore), "B=2+3" (Lasker), "B4" or "B4-5" (Kayles),
// "+3" or "3" (the 21 game; a bare amount works in any one-heap game, and
// bare pins, "4" or "4-5", in one-row Kayles).
// It checks the notation and that the heaps and pins exist; whether the move
// is legal is Apply's to say. Errors wrap ErrInvalid.
func (r Rules) ParseMove(p Position, s string) (Move, error) {
	n, err := r.Normalize()
	if err != nil {
		return Move{}, err
	}
	r = n
	s = strings.TrimSpace(s)
	if s == "" {
		return Move{}, invalid(pErrMoveGive, "Example", moveExample(r))
	}
	tokens := strings.Fields(strings.ReplaceAll(s, ",", " "))
	if len(tokens) == 0 {
		return Move{}, invalid(pErrMoveGive, "Example", moveExample(r))
	}
	d, _ := describe(r.Variant)
	tokens = joinSpaced(tokens, !d.Has(Multi))
	if len(tokens) > 1 {
		// Several heaps in one move are Moore's Nim's; in another game
		// Apply says it takes from one heap, in its own words.
		return parseMulti(r, p, tokens, s)
	}
	tok := tokens[0]
	if rest, ok := strings.CutPrefix(tok, "+"); ok || isDigits(tok) || (r.Variant == Kayles && isPinPair(tok)) {
		if len(p.Heaps) != 1 {
			return Move{}, invalid(pErrMoveNameHeap, "Move", quoted(s), "Example", moveExample(r))
		}
		if !ok {
			rest = tok
		}
		if r.Variant == Kayles {
			return parseKnock(p, 0, rest, s)
		}
		t, err := parseAmount(rest, s)
		if err != nil {
			return Move{}, err
		}
		return Move{Kind: Take, Heap: 0, Take: t}, nil
	}
	label, rest := splitLabel(tok)
	if label == "" || rest == "" {
		return Move{}, invalid(pErrMoveWriteLike, "Move", quoted(s), "Example", moveExample(r))
	}
	if lab := strings.ToLower(label); (lab == "ab" || lab == "ba") && len(p.Heaps) < 28 {
		t, err := parseAmount(rest, s)
		if err != nil {
			return Move{}, err
		}
		return Move{Kind: Diagonal, Take: t}, nil
	}
	i, err := heapIndex(p, label, s)
	if err != nil {
		return Move{}, err
	}
	if parts, ok := strings.CutPrefix(rest, "="); ok {
		a, b, ok := strings.Cut(parts, "+")
		if !ok {
			return Move{}, invalid(pErrMoveSplit, "Move", quoted(s), "Heap", strings.ToUpper(label))
		}
		x, err1 := parseAmount(a, s)
		y, err2 := parseAmount(b, s)
		if err1 != nil || err2 != nil {
			return Move{}, invalid(pErrMoveSplit, "Move", quoted(s), "Heap", strings.ToUpper(label))
		}
		return Move{Kind: Split, Heap: i, Parts: [2]int64{x, y}}, nil
	}
	if r.Variant == Kayles {
		return parseKnock(p, i, rest, s)
	}
	t, err := parseAmount(rest, s)
	if err != nil {
		return Move{}, err
	}
	return Move{Kind: Take, Heap: i, Take: t}, nil
}

// joinSpaced joins the words of a move typed with blanks inside it back
// into the move, where the blank cannot mean anything else: a heap's label
// and the amount after it ("B 3" is B3, "AB 2" is AB2) and, where a move
// takes from one heap only (signs), either side of a sign ("+ 3", "B = 2 +
// 3", "B4 - 5"). Blanks between two digits or two letters are kept, since
// joining would make another number or label ("B1 1" is not B11, "A B2" not
// AB2), and so is the one between moves in Moore's "A2 C1", where a sign
// has no place.
func joinSpaced(words []string, signs bool) []string {
	isSign := func(c byte) bool { return c == '+' || c == '=' || c == '-' }
	isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	out := words[:1:1]
	for _, w := range words[1:] {
		last := out[len(out)-1]
		a, b := last[len(last)-1], w[0]
		if isLetter(a) && b >= '0' && b <= '9' || signs && (isSign(a) || isSign(b)) {
			out[len(out)-1] = last + w
			continue
		}
		out = append(out, w)
	}
	return out
}

// isPinPair reports whether s is two pin numbers joined by a dash, "4-5":
// bare like "4", it knocks pins of the only row, as "+4-5" does.
func isPinPair(s string) bool {
	a, b, ok := strings.Cut(s, "-")
	return ok && isDigits(a) && isDigits(b)
}

// parseKnock reads Kayles pins: "4" or "4-5", counting from 1 in row i.
func parseKnock(p Position, i int, rest, s string) (Move, error) {
	a, b, two := strings.Cut(rest, "-")
	first, err := parseAmount(a, s)
	if err != nil {
		return Move{}, err
	}
	last := first
	if two {
		if last, err = parseAmount(b, s); err != nil {
			return Move{}, err
		}
	}
	row := p.Heaps[i]
	if last != first && last != first+1 {
		return Move{}, invalid(pErrMoveKnock, "Move", quoted(s), "Row", HeapLabel(i))
	}
	if first < 1 || last > row {
		if row == 0 {
			return Move{}, invalid(pErrMoveRowEmpty, "Row", HeapLabel(i))
		}
		return Move{}, invalid(pErrMovePins, "Row", HeapLabel(i), "Pins", row, "Text", Lit(rest))
	}
	return Move{Kind: Knock, Heap: i, Take: last - first + 1, Parts: [2]int64{first - 1, row - last}}, nil
}

// parseMulti reads Moore's "A2 C1": each token a heap and an amount. Text
// it cannot read is refused with an example of the game's own moves: only
// Moore's Nim writes "A2 C1".
func parseMulti(r Rules, p Position, tokens []string, s string) (Move, error) {
	m := Move{Kind: Multi, Takes: make([]int64, len(p.Heaps))}
	for _, tok := range tokens {
		label, rest := splitLabel(tok)
		if label == "" || rest == "" {
			if d, _ := describe(r.Variant); !d.Has(Multi) {
				return Move{}, invalid(pErrMoveWriteLike, "Move", quoted(s), "Example", moveExample(r))
			}
			return Move{}, invalid(pErrMoveMulti, "Move", quoted(s))
		}
		i, err := heapIndex(p, label, s)
		if err != nil {
			return Move{}, err
		}
		t, err := parseAmount(rest, s)
		if err != nil {
			return Move{}, err
		}
		if t < 1 {
			return Move{}, invalid(pErrMoveMultiOne, "Move", quoted(s))
		}
		if m.Takes[i] != 0 {
			return Move{}, invalid(pErrMoveMultiTwice, "Move", quoted(s), "Heap", HeapLabel(i))
		}
		m.Takes[i] = t
	}
	return m, nil
}

func moveExample(r Rules) Phrase {
	or := func(a, b string) Phrase { return P(pErrOr, "A", Lit(a), "B", Lit(b)) }
	switch r.Variant {
	case TwentyOne:
		return Lit("+3")
	case Wythoff:
		return or("B3", "AB3")
	case Moore:
		return or("B3", "A2 C1")
	case Lasker:
		return or("B3", "B=2+3")
	case Kayles:
		return or("B4", "B4-5")
	}
	return Lit("B3")
}

// The refusals of heaps and moves a player typed. Move and Text are the
// player's text, quoted or as typed; heap letters and examples are
// notation.
var (
	pErrOr                 = def("err.or", "", "{{.A}} or {{.B}}")
	pErrHeapsEmpty         = def("err.heaps.empty", "", "give the heap sizes, like 3 4 5")
	pErrHeapsNegative      = def("err.heaps.negative", "", "heaps cannot be negative")
	pErrHeapsMany          = def("err.heaps.many", "", "at most {{.Max}} heaps, not {{.Heaps}}")
	pErrHeapsLarge         = def("err.heaps.large", "", "heap {{.Heap}}: {{.Size}} is too large; heaps hold at most {{.Max}}")
	pErrHeapsNotSize       = def("err.heaps.not_size", "", "heap {{.Heap}}: {{.Text}} is not a heap size; write whole numbers like 3 4 5")
	pErrHeapsLeadingZero   = def("err.heaps.leading_zero", "", "heap {{.Heap}}: write {{.Text}} without leading zeros, as {{.Size}}")
	pErrHeapsGrouped       = def("err.heaps.grouped", "", "{{.Text}} could be the number {{.Number}} with its digits grouped, or separate heaps: write {{.Number}} for one heap, or {{.Apart}} for separate heaps")
	pErrHeapsGroupedNumber = def("err.heaps.grouped_number", "", "{{.Text}} reads as the number {{.Number}} with its digits grouped: write it as {{.Number}}, with no separator inside a heap")
	pErrMoveAmountLarge    = def("err.move.amount_large", "", "{{.Move}}: {{.Amount}} is more than any heap holds")
	pErrMoveNotMove        = def("err.move.not_move", "", "{{.Move}} is not a move: write a heap and an amount, like B3")
	pErrMoveGive           = def("err.move.give", "", "give a move, like {{.Example}}")
	pErrMoveNameHeap       = def("err.move.name_heap", "", "{{.Move}}: name the heap too, like {{.Example}}")
	pErrMoveWriteLike      = def("err.move.write_like", "", "{{.Move}} is not a move: write it like {{.Example}}")
	pErrMoveSplit          = def("err.move.split", "", "{{.Move}}: write a split like {{.Heap}}=2+3")
	pErrMoveKnock          = def("err.move.knock", "", "{{.Move}}: knock down one pin or two side by side, like {{.Row}}4 or {{.Row}}4-5")
	pErrMoveRowEmpty       = def("err.move.row_empty", "", "row {{.Row}} has no pins left")
	pErrMovePins           = def("err.move.pins", "", "row {{.Row}} has pins 1 to {{.Pins}}, not {{.Text}}")
	pErrMoveMulti          = def("err.move.multi", "", "{{.Move}} is not a move: write each heap and amount, like A2 C1")
	pErrMoveMultiOne       = def("err.move.multi_one", "", "{{.Move}}: take at least 1 from each heap you name")
	pErrMoveMultiTwice     = def("err.move.multi_twice", "", "{{.Move}} names heap {{.Heap}} twice")
)

// FormatMove writes m, a move in position p, in the notation ParseMove reads.
func (r Rules) FormatMove(p Position, m Move) string {
	switch m.Kind {
	case Take:
		if r.Variant == TwentyOne {
			return fmt.Sprintf("+%d", m.Take)
		}
		return fmt.Sprintf("%s%d", HeapLabel(m.Heap), m.Take)
	case Diagonal:
		return fmt.Sprintf("AB%d", m.Take)
	case Multi:
		var parts []string
		for i, t := range m.Takes {
			if t != 0 {
				parts = append(parts, fmt.Sprintf("%s%d", HeapLabel(i), t))
			}
		}
		return strings.Join(parts, " ")
	case Split:
		return fmt.Sprintf("%s=%d+%d", HeapLabel(m.Heap), m.Parts[0], m.Parts[1])
	case Knock:
		if m.Take == 2 {
			return fmt.Sprintf("%s%d-%d", HeapLabel(m.Heap), m.Parts[0]+1, m.Parts[0]+2)
		}
		return fmt.Sprintf("%s%d", HeapLabel(m.Heap), m.Parts[0]+1)
	}
	return "?"
}
