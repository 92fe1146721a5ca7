package locale

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/width"

	"nimbot/engine"
)

// explainGames reach every verdict and explanation branch the engine has:
// each variant in normal and misère play, won and lost, the 1-heap
// endgames, Fibonacci's and Wythoff's edge cases.
var explainGames = []string{
	"nim 3 4 5", "nim 1 2 3", "nim misere 0 2 1", "nim misere 1 1", "nim misere 1 1 1", "nim misere 5 1",
	"subtraction k=3 10 12", "subtraction k=3 4 4", "subtraction misere k=3 4 4", "subtraction misere k=3 1 1",
	"subtraction set=1,3,4 7 9", "subtraction set=2,5,6 7 9", "subtraction misere set=1,2,4 7 9", "subtraction set=1,3,4 2 2",
	"21", "21 count=1", "21 count=4", "21 normal count=3",
	"greedy 5 5 5 2", "greedy 5 5 2", "greedy misere 1 1", "greedy misere 1 1 1",
	"moore k=2 3 5 6", "moore k=2 1 2 3", "moore misere k=2 1 1", "moore misere k=2 1 1 1",
	"lasker 3 5", "lasker 1 2 3", "lasker misere 1 1", "lasker misere 1 1 1", "lasker misere 4 1",
	"kayles 5 3", "kayles 4 4", "kayles misere 8", "kayles misere 1 5", "kayles misere 6 2",
	"fibonacci 17", "fibonacci 13", "fibonacci misere 17", "fibonacci misere 14", "fibonacci misere 2",
	"wythoff 3 5", "wythoff 4 7", "wythoff misere 2 2", "wythoff misere 6 9",
}

// TestExplanationsInEveryLocale renders every hint the engine gives for
// explainGames (verdict, theory, steps, table, the move described) in
// every shipped language: none may fall back to English or leave a field
// unfilled, and each must read differently from the English.
func TestExplanationsInEveryLocale(t *testing.T) {
	for _, game := range explainGames {
		r, p, err := engine.ParseGame(game)
		if err != nil {
			t.Errorf("%s: %v", game, err)
			continue
		}
		h, err := r.Hint(p)
		if err != nil {
			t.Errorf("%s: %v", game, err)
			continue
		}
		phrases := append([]engine.Phrase{h.Verdict, h.Explanation.Theory, r.DescribeMove(p, h.Move)}, h.Explanation.Steps...)
		render := func(pr *Printer) string {
			var text []string
			for _, ph := range phrases {
				text = append(text, pr.Phrase(ph))
			}
			if h.Explanation.Table != nil {
				text = append(text, h.Explanation.Table.Lines(pr.Phrase)...)
			}
			return strings.Join(text, "\n")
		}
		english := render(For(English))
		for _, l := range Locales() {
			pr := For(string(l))
			for _, ph := range phrases {
				s := pr.Phrase(ph)
				if strings.Contains(s, "<no value>") || (ph.ID != "" && s == ph.ID) {
					t.Errorf("%s %s: %s renders %q", game, l, ph.ID, s)
				}
			}
			if pr.Phrase(h.Verdict) == h.Verdict.String() {
				t.Errorf("%s %s: the verdict reads as in English: %q", game, l, h.Verdict.String())
			}
			if text := render(pr); strings.Contains(text, "<no value>") || text == english {
				t.Errorf("%s %s: the hint reads as in English or leaves a field unfilled:\n%s", game, l, text)
			}
		}
	}
	for _, m := range Missing() {
		for _, prefix := range []string{"verdict.", "explain.", "move.", "table."} {
			if strings.Contains(m, " "+prefix) {
				t.Errorf("missing: %s", m)
			}
		}
	}
}

// TestTablesLineUpInEveryLocale lays out every explanation table of
// explainGames in every language and measures each line as a terminal
// draws it (golang.org/x/text/width: East Asian Wide and Fullwidth
// characters take two columns): every line must end at the same column,
// or a Japanese heading has pushed the digits under it out of line.
func TestTablesLineUpInEveryLocale(t *testing.T) {
	columns := func(s string) int {
		n := 0
		for _, r := range s {
			switch width.LookupRune(r).Kind() {
			case width.EastAsianWide, width.EastAsianFullwidth:
				n += 2
			default:
				n++
			}
		}
		return n
	}
	tables := 0
	for _, game := range explainGames {
		r, p, err := engine.ParseGame(game)
		if err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		h, err := r.Hint(p)
		if err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		tb := h.Explanation.Table
		if tb == nil || len(tb.Rows) == 0 || len(tb.Rows[0]) < 2 {
			continue
		}
		tables++
		// The table's rows in the order Lines lays them out, rules apart.
		rows := append([][]engine.Phrase{tb.Header}, tb.Rows...)
		rows = append(rows, tb.Total)
		rows = slices.DeleteFunc(rows, func(r []engine.Phrase) bool { return len(r) == 0 })
		for _, lang := range Languages() {
			pr := For(lang)
			lines := slices.DeleteFunc(tb.Lines(pr.Phrase), func(l string) bool { return strings.Trim(l, "-") == "" })
			if len(lines) != len(rows) {
				t.Fatalf("%s %s: %d lines for %d rows", game, lang, len(lines), len(rows))
			}
			end := -1
			for i, l := range lines {
				// A row whose last cell is empty ends short (Lines trims it).
				if pr.Phrase(rows[i][len(rows[i])-1]) == "" {
					continue
				}
				if end < 0 {
					end = columns(l)
				}
				if columns(l) != end {
					t.Errorf("%s %s: the table's columns do not line up:\n%s", game, lang, strings.Join(tb.Lines(pr.Phrase), "\n"))
					break
				}
			}
		}
	}
	if tables == 0 {
		t.Fatal("no explanation had a table")
	}
}
