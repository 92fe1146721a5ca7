package locale

import (
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
	if len(m) != len(Locales()) || m[discordgo.Japanese] == "" {
		t.Errorf("nim.desc localizations: %v", m)
	}
	if _, ok := m[English]; ok {
		t.Error("English is the default text, not a localization")
	}
	if Localizations("no.such.id") != nil {
		t.Error("localizations of a missing id")
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
