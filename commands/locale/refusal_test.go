package locale

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"nimbot/engine"
)

// refusalRules are the rules the drive plays: every variant in both
// conventions, and the settings whose refusals read differently (one
// amount or several, k of 1, another target).
func refusalRules() []engine.Rules {
	var rs []engine.Rules
	for _, v := range engine.Variants() {
		for _, misere := range []bool{false, true} {
			rs = append(rs, engine.Rules{Variant: v, Misere: misere})
		}
	}
	return append(rs,
		engine.Rules{Variant: engine.Subtraction, K: 1},
		engine.Rules{Variant: engine.Subtraction, Set: []int{3}},
		engine.Rules{Variant: engine.Subtraction, Set: []int{1, 3, 4}},
		engine.Rules{Variant: engine.Moore, K: 1},
		engine.Rules{Variant: engine.Moore, K: 3},
		engine.Rules{Variant: engine.TwentyOne, K: 5, Target: 30},
	)
}

// refusalHeaps are positions for the drive: playable ones of one to three
// heaps, empty heaps, and shapes no variant takes (none, negative, past the
// largest heap).
var refusalHeaps = [][]int64{
	{}, {0}, {1}, {2}, {3}, {7}, {20}, {0, 0}, {0, 3}, {3, 0}, {2, 5}, {3, 3}, {1, 2, 3}, {3, 4, 5}, {1, 1, 1},
	{-1}, {4, -2}, {engine.MaxHeapSize + 1}, {2, engine.MaxHeapSize + 1},
}

// refusalMoves are moves of every kind, legal and not, on a position of n
// heaps: each heap and one either side, amounts around the heaps' sizes,
// knocks of every width, splits that add up and that do not, several
// heaps at once and takes lists of the wrong length.
func refusalMoves(n int) []engine.Move {
	var ms []engine.Move
	for i := -1; i <= n; i++ {
		for _, t := range []int64{-1, 0, 1, 2, 3, 4, 6, 8} {
			ms = append(ms,
				engine.Move{Kind: engine.Take, Heap: i, Take: t},
				engine.Move{Kind: engine.Diagonal, Heap: i, Take: t},
				engine.Move{Kind: engine.Split, Heap: i, Parts: [2]int64{t, 1}},
				engine.Move{Kind: engine.Knock, Heap: i, Take: 1, Parts: [2]int64{t, 0}},
				engine.Move{Kind: engine.Knock, Heap: i, Take: 2, Parts: [2]int64{t, 0}},
			)
		}
		for _, take := range []int64{0, 3} {
			ms = append(ms, engine.Move{Kind: engine.Knock, Heap: i, Take: take, Parts: [2]int64{0, 0}})
		}
		ms = append(ms,
			engine.Move{Kind: engine.Knock, Heap: i, Take: 1, Parts: [2]int64{-1, 0}},
			engine.Move{Kind: engine.Knock, Heap: i, Take: 1, Parts: [2]int64{math.MaxInt64, 0}})
	}
	for _, takes := range [][]int64{{1}, {1, 1}, {1, 1, 1}, {0, 0, 0}, {-1, 1, 0}, {9, 0, 0}, {1, 0, 0, 0}, {2, 2, 2, 2}} {
		ms = append(ms, engine.Move{Kind: engine.Multi, Takes: takes})
	}
	return ms
}

// refusalGames are typed games ParseGame refuses.
var refusalGames = []string{
	"", "nim", "chess 3 4", "nim misere normal 3", "3 nim", "nim k=2 k=3 4", "subtraction k=x 4", "subtraction k=0 4",
	"subtraction set=1,a 4", "fibonacci 20 limit=-1", "nim color=red 3", "nim 3 count=2", "nim 3 limit=2",
	"21 count=3 5", "kayles", "nim k=3 4 5", "subtraction k=2 set=1,2 4", "subtraction set=0,2 4",
	"subtraction set=1,2,3,4,5,6,7,8,9 4", "moore k=9 3 4", "21 target=0", "21 count=22", "21 3 4",
	"-3 4", "3 x", "3,-4", "99999999999999999999", "fibonacci 3 4", "fibonacci 20 limit=9999999999999",
	"wythoff 3 4 5", "21 limit=3", "nim ,", "nim " + strings.Repeat("1 ", 10_001),
	"1,000", "2 500", "3 05",
}

// refusalMoveTexts are typed moves ParseMove refuses, by game.
var refusalMoveTexts = map[string][]string{
	"3 4 5":           {"", " ", "D3", "AB", "3", "B99999999999999999999", "Bx", "B3x", "B=2", "B=x+1", "A1 Bx", "A0 B1", "A1 A2", "x1 B1", "1 1"},
	"kayles 5":        {"4-6", "9", "A2-4"},
	"kayles 0 3":      {"A1"},
	"wythoff 3 5":     {""},
	"moore k=2 3 5 6": {"", "A1 Bx", "A0 B1", "A1 A2", "x1 B1"},
	"lasker 4 7":      {""},
	"21":              {""},
}

// drive collects every refusal the engine gives for the rules, positions,
// moves and typed text above, and every reason a position with pieces has
// no move.
func drive(t *testing.T) []engine.Phrase {
	t.Helper()
	var out []engine.Phrase
	seen := map[string]bool{}
	// Each message once: the drive says most of them many times.
	keep := func(ph engine.Phrase) {
		if key := ph.ID + "\x00" + ph.String(); !seen[key] {
			seen[key] = true
			out = append(out, ph)
		}
	}
	add := func(what string, err error) {
		t.Helper()
		if err == nil || errors.Is(err, engine.ErrGameOver) {
			return
		}
		var pe engine.PhraseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %q says no phrase, so it reads in English in every language", what, err)
			return
		}
		keep(pe.Phrase())
	}
	for _, r := range refusalRules() {
		for _, heaps := range refusalHeaps {
			_, err := r.Start(heaps)
			add("Start", err)
			// Only Fibonacci has a limit; the others refuse any.
			limits := []int64{0, 1}
			if r.Variant == engine.Fibonacci {
				limits = []int64{0, 1, 2, 3, 4, 6, -1, 3 * engine.MaxHeapSize}
			}
			for _, limit := range limits {
				p := engine.Position{Heaps: heaps, Limit: limit}
				add("Check", r.Check(p))
				add("Playable", r.Playable(p))
				if why, ok := r.WhyNoMove(p); ok {
					keep(why)
				}
				for _, m := range refusalMoves(len(heaps)) {
					_, err := r.Apply(p, m)
					add(r.Name()+" Apply", err)
				}
			}
		}
	}
	for _, p := range []struct {
		r     engine.Rules
		heaps []int64
	}{
		{engine.Rules{Variant: engine.Subtraction, Set: []int{3, 4}}, []int64{1, 2}},
		{engine.Rules{Variant: engine.Fibonacci}, []int64{1}},
		{engine.Rules{Variant: engine.Moore, K: 2}, slices.Repeat([]int64{1}, 200)},
		{engine.Rules{Variant: engine.Kayles, Misere: true}, []int64{30, 30}},
		{engine.Rules{Variant: engine.Kayles, Misere: true}, []int64{50}},
		{engine.Rules{Variant: engine.Kayles, Misere: true}, []int64{300}},
		{engine.Rules{Variant: engine.Lasker}, []int64{engine.MaxHeapSize}},
		{engine.Rules{Variant: engine.Nim}, slices.Repeat([]int64{1}, 10_001)},
	} {
		pos, err := p.r.Start(p.heaps)
		add("Start", err)
		add("Playable", p.r.Playable(engine.Position{Heaps: p.heaps}))
		if why, ok := p.r.WhyNoMove(pos); ok {
			keep(why)
		}
	}
	for _, r := range []engine.Rules{
		{}, {Variant: "chess"}, {Variant: engine.Nim, K: 3}, {Variant: engine.Nim, Set: []int{1}},
		{Variant: engine.Subtraction, K: -1}, {Variant: engine.Subtraction, K: 2, Set: []int{1}},
		{Variant: engine.Moore, K: 9}, {Variant: engine.TwentyOne, Target: -4},
		{Variant: engine.Subtraction, Set: []int{1, 2, 3, 4, 5, 6, 7, 8, 9}}, {Variant: engine.Subtraction, Set: []int{0}},
	} {
		_, err := r.Normalize()
		add("Normalize", err)
	}
	for _, w := range []struct {
		name   string
		values []int64
	}{{"set", []int64{0}}, {"color", []int64{1}}, {"k", nil}, {"k", []int64{0}}} {
		_, err := engine.Rules{Variant: engine.Subtraction}.With(w.name, w.values...)
		add("With", err)
	}
	for _, s := range refusalGames {
		_, _, err := engine.ParseGame(s)
		add("ParseGame "+s, err)
	}
	for game, moves := range refusalMoveTexts {
		r, p, err := engine.ParseGame(game)
		if err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		for _, s := range moves {
			_, err := r.ParseMove(p, s)
			add("ParseMove "+s, err)
		}
		_, err = r.ParseMove(engine.Position{}, "A3")
		add("ParseMove with no heaps", err)
	}
	return out
}

// unreachable are refusals the engine defines that no player input
// reaches, each with the reason.
var unreachable = map[string]string{
	"err.rules.subtraction.period": "no set within the bounds (8 amounts up to 64) is known whose Grundy values do not repeat within 2^20 heap sizes",
	"err.rows.none":                "Kayles checks the position first, so a move is never judged on no rows",
	"nomove.rules":                 "every variant whose positions can hold pieces and allow no move says why more precisely",
}

// englishWords are words of the engine's English that no notation or
// example uses: a literal holding one is English the catalog never sees.
var englishWords = regexp.MustCompile(`\b(the|is|are|of|to|or|and|not|from|at|take|heaps?|game|has|no|can|one|two|rows?|pins?|count|most|least|say|more|give)\b`)

// TestRefusalsInEveryLocale renders every refusal the engine gives a
// player (an illegal move, rules or a position it cannot take, text it
// cannot read, why a position with pieces has no move) in every shipped
// language. Each must be a phrase whose every message the language has,
// read differently from the English, and hold no English as a literal (a
// game's name or a sentence built with fmt.Sprintf, which the catalog
// never sees); every refusal the engine defines must be among them.
func TestRefusalsInEveryLocale(t *testing.T) {
	refusals := drive(t)
	titles := map[string]bool{}
	for _, d := range engine.Descriptions() {
		titles[d.Title] = true
	}
	quotes := regexp.MustCompile(`"[^"]*"`)
	reached, literals := map[string]bool{}, map[string]bool{}
	has := map[string]map[string]bool{}
	for _, l := range Locales() {
		has[string(l)] = map[string]bool{}
		for _, id := range IDs(string(l)) {
			has[string(l)][id] = true
		}
	}
	en := For(English)
	for _, ph := range refusals {
		english := en.Phrase(ph)
		ids := walk(ph, func(lit string) {
			if literals[lit] {
				return
			}
			literals[lit] = true
			// What the player typed is quoted, and may be any words.
			outside := quotes.ReplaceAllString(lit, "")
			for title := range titles {
				if strings.Contains(outside, title) {
					t.Errorf("%q: the literal %q names a game in English", english, lit)
					return
				}
			}
			if w := englishWords.FindString(outside); w != "" {
				t.Errorf("%q: the literal %q is English (%q)", english, lit, w)
			}
		})
		if ph.ID == "" {
			t.Errorf("%q is a literal: every language reads it in English", english)
			continue
		}
		for _, id := range ids {
			reached[id] = true
		}
		for _, l := range Locales() {
			lang := string(l)
			pr := For(lang)
			s := pr.Phrase(ph)
			for _, id := range ids {
				if !has[lang][id] {
					t.Errorf("%s lacks %s: %q reads %q", l, id, english, s)
				}
			}
			if s == english || strings.Contains(s, "<no value>") {
				t.Errorf("%s: %s reads %q", l, ph.ID, s)
			}
		}
	}
	for _, m := range Missing() {
		lang, id, _ := strings.Cut(m, " ")
		if lang != English && reached[id] {
			t.Errorf("missing: %s", m)
		}
	}
	for _, id := range engine.PhraseIDs() {
		if !strings.HasPrefix(id, "err.") && !strings.HasPrefix(id, "nomove.") {
			continue
		}
		if _, ok := unreachable[id]; ok {
			if reached[id] {
				t.Errorf("%s is listed as unreachable, but the drive reached it", id)
			}
			continue
		}
		if !reached[id] {
			t.Errorf("the drive never reaches %s: add the input that gives it", id)
		}
	}
}

// walk returns the ids of ph and of the phrases inside it, and calls lit
// with the text of each literal among them.
func walk(ph engine.Phrase, lit func(string)) []string {
	if ph.ID == "" {
		lit(ph.Text)
		return nil
	}
	ids := []string{ph.ID}
	ph.EachArg(func(_ string, v any) bool {
		switch x := v.(type) {
		case engine.Phrase:
			ids = append(ids, walk(x, lit)...)
		case string:
			lit(x)
		}
		return true
	})
	return ids
}
