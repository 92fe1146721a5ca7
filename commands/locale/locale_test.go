package locale

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
)

// TestCatalogComplete fails when a shipped locale lacks a message English
// has (it would show English) or has one English lacks (a stale or
// misspelt id), when a translation uses other template fields than its
// English (a field it invents renders "<no value>"; one it drops loses a
// number), and when it lacks a plural form its language needs.
func TestCatalogComplete(t *testing.T) {
	en := IDs(English)
	if len(en) == 0 {
		t.Fatal("no English messages")
	}
	for _, l := range Locales() {
		lang := string(l)
		ids := IDs(lang)
		for _, id := range en {
			if !slices.Contains(ids, id) {
				t.Errorf("%s lacks %s", l, id)
				continue
			}
			if got, want := Fields(lang, id), Fields(English, id); !slices.Equal(got, want) {
				t.Errorf("%s %s uses fields %v, English %v", l, id, got, want)
			}
			if slices.Contains(Forms(English, id), "one") && lang != "ja" && !slices.Contains(Forms(lang, id), "one") {
				t.Errorf("%s %s has no \"one\" form (English has)", l, id)
			}
			if !slices.Contains(Forms(lang, id), "other") {
				t.Errorf("%s %s has no \"other\" form", l, id)
			}
		}
		for _, id := range ids {
			if !slices.Contains(en, id) {
				t.Errorf("%s has %s, which English lacks", l, id)
			}
		}
	}
}

// TestCommandsByParameter checks that no message names a subcommand of
// /nim in its text: Discord shows the user the subcommand's localized
// name, so a message passes it ("/nim {{.StartCommand}}", from
// nim.start.name) rather than writing the English one, in any language.
func TestCommandsByParameter(t *testing.T) {
	literal := regexp.MustCompile(`/nim [^{]`)
	for lang, msgs := range catalog.messages {
		for id, m := range msgs {
			for _, body := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
				if at := literal.FindStringIndex(body); at != nil {
					t.Errorf("%s %s names a subcommand in its text: %q", lang, id, body[at[0]:min(len(body), at[0]+20)])
				}
			}
		}
	}
}

// TestFilesAreLocales checks each message file is named
// <area>.<language>.json, with English or a shipped Discord locale code,
// so none is loaded and never offered.
func TestFilesAreLocales(t *testing.T) {
	entries, err := files.ReadDir("messages")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !slices.Contains(Languages(), langOfFile(name)) || strings.Count(name, ".") != 2 {
			t.Errorf("message file %s is not <area>.<language>.json with a shipped language", name)
		}
	}
}

func TestText(t *testing.T) {
	if s, ok := Text("de", "nim.hint.name"); !ok || s != "tipp" {
		t.Errorf("de nim.hint.name: %q %v", s, ok)
	}
	if s, ok := Text("pt-BR", "choice.first.me"); !ok || s != "eu" {
		t.Errorf("pt-BR choice.first.me: %q %v", s, ok)
	}
	for _, c := range []struct{ lang, id string }{{"de", "no.such.id"}, {"it", "nim.hint.name"}, {"", "nim.hint.name"}} {
		if s, ok := Text(c.lang, c.id); ok {
			t.Errorf("%q %q: %q, want none (no fallback)", c.lang, c.id, s)
		}
	}
	m := Localizations("nim.desc")
	if len(m) != len(Served()) || m[discordgo.Japanese] == "" {
		t.Errorf("nim.desc localizations: %v", m)
	}
	if _, ok := m[English]; ok {
		t.Error("English is the default text, not a localization")
	}
	if Localizations("no.such.id") != nil {
		t.Error("localizations of a missing id")
	}
}

// TestServed checks that the command's localizations reach every Discord
// locale whose replies are translated, in the language of those replies:
// es-419 users, answered in es-ES, see /nim's names in es-ES too, and no
// locale For answers in English gets a localization.
func TestServed(t *testing.T) {
	for _, l := range discordLocales {
		lang := For(string(l)).Lang()
		if got := slices.Contains(Served(), l); got != (lang != English) {
			t.Errorf("%s: served %v, but For answers in %s", string(l), got, lang)
		}
		// English is the default text, never a localization.
		want, ok := "", false
		if lang != English {
			want, ok = Text(lang, "nim.move.name")
		}
		if got, has := Localizations("nim.move.name")[l]; has != ok || got != want {
			t.Errorf("%s: /nim move is localized as %q (present %v), want %s's %q (present %v)", string(l), got, has, lang, want, ok)
		}
	}
	if m := Localizations("nim.move.name"); m[discordgo.SpanishLATAM] != m[discordgo.SpanishES] || m[discordgo.SpanishLATAM] == "" {
		t.Errorf("es-419 %q, es-ES %q", m[discordgo.SpanishLATAM], m[discordgo.SpanishES])
	}
	for _, l := range Locales() {
		if !slices.Contains(Served(), l) {
			t.Errorf("shipped locale %s is not served", string(l))
		}
	}
	// discordgo's list of locales lags Discord's, never leads it.
	for l := range discordgo.Locales {
		if l != discordgo.Unknown && !slices.Contains(discordLocales, l) {
			t.Errorf("discordgo knows locale %q, which discordLocales lacks", l)
		}
	}
}

// TestFor maps every Discord locale (the AvailableLocalesEnum of Discord's
// API schema) and hostile strings to a shipped language.
func TestFor(t *testing.T) {
	for locale, want := range map[string]string{
		"de": "de", "fr": "fr", "es-ES": "es-ES", "es-419": "es-ES", "pt-BR": "pt-BR", "ja": "ja",
		"en-US": "en", "en-GB": "en", "it": "en", "zh-CN": "en", "": "en", "-": "en", "de-\x00": "de",
		strings.Repeat("x", 10000): "en",
	} {
		if got := For(locale).Lang(); got != want {
			t.Errorf("For(%.20q) = %s, want %s", locale, got, want)
		}
	}
}

// TestNumbers formats whole numbers as each language writes them.
func TestNumbers(t *testing.T) {
	for lang, want := range map[string]string{"en": "1,234,567", "de": "1.234.567", "es-ES": "1.234.567", "pt-BR": "1.234.567", "ja": "1,234,567"} {
		if got := For(lang).Number(1234567); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := For("fr").Number(1234567); strings.ReplaceAll(strings.ReplaceAll(got, "\u202f", " "), "\u00a0", " ") != "1 234 567" {
		t.Errorf("fr: %q", got)
	}
	if got := For("de").Number(-999); got != "-999" {
		t.Errorf("de -999: %q", got)
	}
}

// TestPhrasesAreEnglish renders an engine phrase through the catalog and
// checks it reads as the engine's own English, with numbers formatted.
func TestPhrasesAreEnglish(t *testing.T) {
	ids := engine.PhraseIDs()
	if len(ids) == 0 {
		t.Skip("the engine defines no phrases yet")
	}
	for _, id := range ids {
		if !slices.Contains(IDs(English), id) {
			t.Errorf("engine phrase %s is not in the English catalog", id)
		}
	}
}

// countNeverOne are the English messages with a Count field and no "one"
// form, each with why none is needed: the rest count heaps, moves or
// knocks, and one of them with Count 1 reads "1 heaps share" without one.
var countNeverOne = map[string]string{
	"verdict.greedy.even":           "an even number of largest heaps, never 1",
	"verdict.greedy.ones_even":      "an even number of heaps of 1, never 1",
	"verdict.nim.ones_even":         "an even number of heaps of 1, never 1",
	"explain.nim.ones_even":         "an even number of heaps of 1, never 1",
	"explain.lasker.ones_even":      "an even number of heaps of 1, never 1",
	"verdict.subtraction.ones_even": "an even number of values 1, never 1",
	"verdict.moore.ones_win":        "a number of heaps of 1 that is not 1 mod k+1, never 1",
	"explain.all_winning":           "said only when more winning moves exist than the steps show, so 2 or more",
	"verdict.21.lose":               "the count said so far in the 21 game, not a number of things",
	"explain.21.lost":               "the count said so far in the 21 game, not a number of things",
	"analyze.more":                  "“…and 1 more” reads right with any number",
	"review.more":                   "“…and 1 more” reads right with any number",
}

// TestCountedMessagesHaveOne: every English message that takes a Count has
// a singular form, or is listed in countNeverOne with the reason it needs
// none. (TestCatalogComplete then asks the same form of each language
// whose grammar has one.)
func TestCountedMessagesHaveOne(t *testing.T) {
	for _, id := range IDs(English) {
		if !slices.Contains(Fields(English, id), "Count") {
			if _, listed := countNeverOne[id]; listed {
				t.Errorf("%s is listed in countNeverOne but takes no Count", id)
			}
			continue
		}
		_, listed := countNeverOne[id]
		one := slices.Contains(Forms(English, id), "one")
		switch {
		case !one && !listed:
			t.Errorf("%s takes a Count but has no \"one\" form: with 1 it reads %q", id, For(English).T(id, countArgs(id, 1)...))
		case one && listed:
			t.Errorf("%s has a \"one\" form but is listed in countNeverOne", id)
		case one:
			if m := catalog.messages[English][id]; m.One == m.Other {
				t.Errorf("%s: the \"one\" form is the other: %q", id, m.One)
			}
		}
	}
}

// countArgs are arguments for every field of English message id: Count
// n, the others 7.
func countArgs(id string, n int) []any {
	var kv []any
	for _, f := range Fields(English, id) {
		if f == "Count" {
			kv = append(kv, f, n)
		} else {
			kv = append(kv, f, 7)
		}
	}
	return kv
}

// TestJapaneseMovesPlainForm: every Japanese move description ends in the
// plain form (取る, 倒す), never the past (取った): the same words name a
// move played in the log and a move suggested by a hint or an analysis.
func TestJapaneseMovesPlainForm(t *testing.T) {
	n := 0
	for _, id := range IDs("ja") {
		if !strings.HasPrefix(id, "move.") {
			continue
		}
		n++
		var kv []any
		for _, f := range Fields(English, id) {
			kv = append(kv, f, "X")
		}
		if s := For("ja").T(id, kv...); strings.HasSuffix(s, "た") || strings.HasSuffix(s, "だ") {
			t.Errorf("ja %s is in the past tense: %q", id, s)
		}
	}
	if n == 0 {
		t.Fatal("no Japanese move descriptions")
	}
}
