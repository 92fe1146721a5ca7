package locale

import (
	"fmt"
	"slices"
	"testing"

	"nimbot/engine"
)

// counts are the Count arguments TestFastEqualsI18n renders with: each
// plural form of every shipped language (CLDR's 0, 1, 2–4, 5+, 11, 21,
// 100s, thousands and a million, which French, Spanish and Portuguese
// call "many"), negatives and the int types T is given.
var counts = []any{0, 1, 2, 3, 5, 11, 21, 100, 1000, 1000000, -1, -21, int64(1001), int32(2), int64(101), 2000000}

// fillers are the values other fields get: notation and mentions (strings
// kept as is), numbers (formatted per language), engine phrases (rendered
// in the language first, one of them plural) and a literal.
func fillers(t *testing.T) []any {
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
	return []any{
		"B3", "<@123456789012345678> **x** `A2 C1`", 7, int64(1234567), -42,
		engine.P(plural, "Count", 1), engine.P(plural, "Count", 5), engine.Lit("A"),
	}
}

// recorded runs f with an empty record of missing messages and returns
// what f recorded.
func recorded(f func()) []string {
	missing.Clear()
	f()
	return Missing()
}

// keepMissing restores the record of missing messages when t ends, for
// the tests that read it.
func keepMissing(t *testing.T) {
	saved := Missing()
	t.Cleanup(func() {
		missing.Clear()
		for _, k := range saved {
			missing.Store(k, true)
		}
	})
}

// TestFastEqualsI18n renders every message of every shipped language with
// a spread of arguments, through T and Phrase (compiled messages where they
// apply) and through go-i18n alone (the path they replace), and expects the
// same text and the same messages recorded as missing.
func TestFastEqualsI18n(t *testing.T) {
	keepMissing(t)
	fill := fillers(t)
	for _, lang := range Languages() {
		p := For(lang)
		for _, id := range IDs(English) {
			names := slices.Clone(Fields(English, id))
			for _, f := range Fields(lang, id) {
				if !slices.Contains(names, f) {
					names = append(names, f)
				}
			}
			// compiled: the case is one the compiled message renders
			// (when the language has the message); the others are left
			// to go-i18n.
			type testCase struct {
				args     map[string]any
				compiled bool
			}
			var cases []testCase
			with := func(count any, filler func(i int) any) map[string]any {
				m := map[string]any{}
				for i, n := range names {
					m[n] = filler(i)
				}
				if count != nil {
					m["Count"] = count
				}
				return m
			}
			for i, c := range counts {
				cases = append(cases, testCase{with(c, func(j int) any { return fill[(i+j)%len(fill)] }), true})
			}
			for _, v := range fill {
				cases = append(cases, testCase{with(3, func(int) any { return v }), true})
			}
			// A field not given (go-i18n prints "<no value>" and it is
			// recorded), a phrase given but not printed (rendered all the
			// same), no arguments; a value or a Count of a type go-i18n
			// alone renders.
			if len(names) > 0 {
				m := with(2, func(int) any { return "x" })
				delete(m, names[0])
				cases = append(cases, testCase{m, true})
			}
			unused := with(5, func(int) any { return 9 })
			unused["Unused"] = engine.P("no.such.phrase", "Count", 3)
			cases = append(cases,
				testCase{unused, true},
				testCase{nil, true},
				testCase{with("3", func(int) any { return "z" }), false},
				testCase{with(uint64(4), func(int) any { return "z" }), false},
				testCase{with(int8(4), func(int) any { return "z" }), false},
			)
			if len(names) > 0 && !slices.Equal(names, []string{"Count"}) {
				cases = append(cases,
					testCase{with(nil, func(int) any { return true }), false},
					testCase{with(nil, func(int) any { return fmt.Errorf("an error") }), false},
					testCase{with(nil, func(int) any { return uint64(1) << 63 }), false},
					testCase{with(nil, func(int) any { return nil }), false},
				)
			}
			_, has := p.compiled[id]
			for _, c := range cases {
				a := c.args
				var want, viaT, viaPhrase string
				wantMiss := recorded(func() { want = p.localize(id, a, false) })
				pairs := make([]any, 0, 2*len(a))
				for k, v := range a {
					pairs = append(pairs, k, v)
				}
				tMiss := recorded(func() { viaT = p.T(id, pairs...) })
				phraseMiss := recorded(func() { viaPhrase = p.Phrase(engine.Phrase{ID: id, Args: a}) })
				if viaT != want || viaPhrase != want {
					t.Errorf("%s %s %v:\n T      %q\n Phrase %q\n go-i18n %q", lang, id, a, viaT, viaPhrase, want)
				}
				if !slices.Equal(tMiss, wantMiss) || !slices.Equal(phraseMiss, wantMiss) {
					t.Errorf("%s %s %v: missing T %v, Phrase %v, go-i18n %v", lang, id, a, tMiss, phraseMiss, wantMiss)
				}
				// The comparison means something only where the
				// compiled path ran.
				if _, ok := p.fast(id, args{m: a}); ok != (c.compiled && has) {
					t.Errorf("%s %s %v: compiled path taken %v", lang, id, a, ok)
				}
			}
		}
	}
}

// TestEveryMessageCompiles: each form of every message the catalog ships is
// text and fields only, so none costs a template execution; a message that
// needs more would still render (through go-i18n), but should be a choice.
func TestEveryMessageCompiles(t *testing.T) {
	for _, lang := range Languages() {
		for id, c := range For(lang).compiled {
			for f := range nForms {
				if c.defined[f] && c.forms[f] == nil {
					t.Errorf("%s %s: the %s form is not only text and fields", lang, id, formNames[f])
				}
			}
		}
	}
}

// TestCompile compiles the shapes a template can take: text and fields
// only, with go-i18n's trim markers, and everything else refused.
func TestCompile(t *testing.T) {
	for src, want := range map[string]string{
		"plain":                          "[plain]",
		"{{.A}} and {{ .B }}.":           "{A}[ and ]{B}[.]",
		"a {{- .A -}} b":                 "[a]{A}[b]",
		"{{.A}}{{.A}}":                   "{A}{A}",
		"{{/* note */}}x{{.A}}":          "[x]{A}",
		"{{if .A}}x{{end}}":              "nil",
		"{{.A.B}}":                       "nil",
		"{{printf \"%d\" .A}}":           "nil",
		"{{.A | print}}":                 "nil",
		"{{$x := .A}}{{$x}}":             "nil",
		"{{define \"t\"}}x{{end}}{{.A}}": "nil",
		"{{.A":                           "nil",
		"{{.}}":                          "nil",
	} {
		got := "nil"
		if b := compileBody(src); b != nil {
			got = ""
			for _, s := range b.segs {
				if s.field {
					got += "{" + s.s + "}"
				} else {
					got += "[" + s.s + "]"
				}
			}
		}
		if got != want {
			t.Errorf("%q: %s, want %s", src, got, want)
		}
	}
}
