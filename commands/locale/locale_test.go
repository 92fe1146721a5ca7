package locale

import (
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestCatalogComplete fails when a shipped locale lacks a message English
// has (it would silently show English) or has one English lacks (a stale
// or misspelt id).
func TestCatalogComplete(t *testing.T) {
	en := IDs(English)
	if len(en) == 0 {
		t.Fatal("no English messages")
	}
	for _, l := range Locales() {
		ids := IDs(string(l))
		for _, id := range en {
			if !slices.Contains(ids, id) {
				t.Errorf("%s lacks %s", l, id)
			}
		}
		for _, id := range ids {
			if !slices.Contains(en, id) {
				t.Errorf("%s has %s, which English lacks", l, id)
			}
		}
	}
}

// TestFilesAreLocales checks each message file is named by English or a
// shipped Discord locale code, so none is loaded and never offered.
func TestFilesAreLocales(t *testing.T) {
	entries, err := files.ReadDir("messages")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{English + ".json"}
	for _, l := range Locales() {
		want = append(want, string(l)+".json")
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("message files %v, want %v", got, want)
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
