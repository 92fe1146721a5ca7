package locale

import (
	"slices"
	"strings"
	"testing"

	"nimbot/engine"
)

// counts are Count arguments that reach each plural form of every shipped
// language (CLDR's 0, 1, 2–4, 5+, 11, 21, the 100s, thousands and a
// million, which French, Spanish and Portuguese call "many"), negatives
// and the integer types T is given.
var counts = []any{0, 1, 2, 3, 5, 11, 21, 100, 1000, 1000000, -1, -21, int64(1001), int32(2), int64(101)}

// recorded runs f with an empty record of missing messages and returns
// what f recorded; the record as it was is restored when t ends.
func recorded(t *testing.T, f func()) []string {
	saved := Missing()
	t.Cleanup(func() {
		missing.Clear()
		for _, k := range saved {
			missing.Store(k, true)
		}
	})
	missing.Clear()
	f()
	return Missing()
}

// TestEveryMessageRenders renders every message of every language with
// each of its fields given (a string, a number, an engine phrase) and with
// every count, through T and through Phrase: each is the language's own
// text with every field filled, nothing is recorded missing, and T and
// Phrase agree.
func TestEveryMessageRenders(t *testing.T) {
	var plural string
	for _, id := range engine.PhraseIDs() {
		if slices.Equal(Fields(English, id), []string{"Count"}) && slices.Contains(Forms(English, id), "one") {
			plural = id
			break
		}
	}
	if plural == "" {
		t.Fatal("no engine phrase with only a Count and a singular")
	}
	fill := []any{"B3", "<@123456789012345678> **x** `A2 C1`", 7, int64(1234567), engine.P(plural, "Count", 1), engine.Lit("A")}
	miss := recorded(t, func() {
		for _, lang := range Languages() {
			p := For(lang)
			for _, id := range IDs(English) {
				for k, c := range counts {
					args := map[string]any{}
					for j, f := range Fields(English, id) {
						args[f] = fill[(k+j)%len(fill)]
					}
					if _, ok := args["Count"]; ok {
						args["Count"] = c
					}
					var pairs []any
					for name, v := range args {
						pairs = append(pairs, name, v)
					}
					viaT, viaPhrase := p.T(id, pairs...), p.Phrase(engine.Phrase{ID: id, Args: args})
					if viaT == "" || strings.Contains(viaT, "<no value>") || viaT == id {
						t.Errorf("%s %s %v: %q", lang, id, args, viaT)
					}
					if viaPhrase != viaT {
						t.Errorf("%s %s %v: T %q, Phrase %q", lang, id, args, viaT, viaPhrase)
					}
					if _, ok := args["Count"]; !ok {
						break // one rendering is enough without a count
					}
				}
			}
		}
	})
	if len(miss) > 0 {
		t.Errorf("recorded missing: %v", miss)
	}
}

// TestMissingIsRecorded: a field not given renders as go-i18n renders it
// and is recorded, and so is an id no language has, shown as itself.
func TestMissingIsRecorded(t *testing.T) {
	var id string
	for _, m := range IDs(English) {
		if len(Fields(English, m)) > 0 && !slices.Contains(Fields(English, m), "Count") {
			id = m
			break
		}
	}
	if id == "" {
		t.Fatal("no message with a field other than Count")
	}
	var s, unknown string
	miss := recorded(t, func() {
		s = For("de").T(id)
		unknown = For("de").T("no.such.message", "Count", 2)
	})
	if !strings.Contains(s, "<no value>") {
		t.Errorf("de %s without its fields: %q", id, s)
	}
	if unknown != "no.such.message" {
		t.Errorf("an unknown id renders %q", unknown)
	}
	if want := []string{"de " + id, "de no.such.message", "en no.such.message"}; !slices.Equal(miss, want) {
		t.Errorf("recorded %v, want %v", miss, want)
	}
}

// TestArguments: a phrase argument is rendered in the printer's language,
// an integer is written as the language writes numbers, and a Count picks
// the plural form.
func TestArguments(t *testing.T) {
	var plural, field string
	for _, id := range engine.PhraseIDs() {
		if slices.Equal(Fields(English, id), []string{"Count"}) && slices.Contains(Forms(English, id), "one") {
			plural = id
			break
		}
	}
	for _, id := range IDs(English) {
		if f := Fields(English, id); len(f) == 1 && f[0] != "Count" {
			field = id
			break
		}
	}
	if plural == "" || field == "" {
		t.Fatalf("no message to test with: %q %q", plural, field)
	}
	name := Fields(English, field)[0]
	de := For("de")
	ph := engine.P(plural, "Count", 5)
	if s := de.T(field, name, ph); !strings.Contains(s, de.Phrase(ph)) {
		t.Errorf("de %s with a phrase: %q lacks %q", field, s, de.Phrase(ph))
	}
	if s := de.T(field, name, 1234567); !strings.Contains(s, "1.234.567") {
		t.Errorf("de %s with 1234567: %q", field, s)
	}
	en := For(English)
	one, two := en.Phrase(engine.P(plural, "Count", 1)), en.Phrase(engine.P(plural, "Count", 2))
	if strings.ReplaceAll(two, "2", "1") == one {
		t.Errorf("%s: the same form for 1 and 2: %q, %q", plural, one, two)
	}
}
