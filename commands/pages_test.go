package commands

import (
	"strings"
	"testing"
	"time"

	"nimbot/commands/locale"
	"nimbot/match"
)

// TestPagesInEveryLanguage renders /privacy and /terms in every language
// the catalog ships: each page speaks its language (no text falls back to
// English), says the operator's settings, carries no script, and escapes
// what the operator typed.
func TestPagesInEveryLanguage(t *testing.T) {
	s := PageSettings{OperatorName: `Ada <script>alert(1)</script>`, OperatorContact: "privacy@example.org",
		Retention: time.Hour, ForgetAfter: 30 * 24 * time.Hour, IdleAfter: 365 * 24 * time.Hour}
	for _, lang := range locale.Languages() {
		p := locale.For(lang)
		for _, name := range Pages {
			b, ok := Page(name, lang, s)
			if !ok {
				t.Fatalf("%s: no page %s", lang, name)
			}
			page := string(b)
			for _, want := range []string{`<html lang="` + lang + `">`, "Ada &lt;script&gt;", "privacy@example.org", p.T("page." + name + ".title")} {
				if !strings.Contains(page, want) {
					t.Errorf("%s %s does not contain %q", lang, name, want)
				}
			}
			if strings.Contains(strings.ToLower(page), "<script") || strings.Contains(page, "<no value>") || strings.Contains(page, "page.") {
				t.Errorf("%s %s has a script, an unfilled field or a message id:\n%s", lang, name, page)
			}
		}
		privacy, _ := Page("privacy", lang, s)
		for _, want := range []string{p.Phrase(duration(time.Hour)), p.Phrase(duration(30 * 24 * time.Hour)), p.Phrase(duration(365 * 24 * time.Hour)), match.Tombstone, p.T("nim.privacy.name")} {
			if !strings.Contains(string(privacy), want) {
				t.Errorf("%s privacy page does not say %q", lang, want)
			}
		}
	}
	if _, ok := Page("cookies", "en", s); ok {
		t.Error("a page named cookies")
	}
	unnamed, _ := Page("terms", "de", PageSettings{})
	if !strings.Contains(string(unnamed), locale.For("de").T("page.operator_unnamed")) || !strings.Contains(string(unnamed), locale.For("de").T("page.contact_missing")) {
		t.Errorf("without OPERATOR_NAME and OPERATOR_CONTACT:\n%s", unnamed)
	}
	checkNothingMissing(t)
}

// TestPageLanguage: Accept-Language picks the best of the six languages,
// English when it names none or does not parse.
func TestPageLanguage(t *testing.T) {
	for header, want := range map[string]string{
		"":                               "en",
		"de":                             "de",
		"de-AT,de;q=0.9,en;q=0.8":        "de",
		"fr-CA":                          "fr",
		"es":                             "es-ES",
		"es-419":                         "es-ES",
		"pt":                             "pt-BR",
		"pt-BR,pt;q=0.9":                 "pt-BR",
		"ja-JP":                          "ja",
		"en-GB,de;q=0.5":                 "en",
		"zh-CN":                          "en",
		"ko;q=0.9, ja;q=0.8":             "ja",
		";;;q=x":                         "en",
		strings.Repeat("de-DE-x-", 1000): "en",
	} {
		if got := PageLanguage(header); got != want {
			t.Errorf("Accept-Language %.40q: %s, want %s", header, got, want)
		}
	}
}

// TestRenderPages: the pages are rendered once, at start: every request
// for a page in a language gets the very bytes rendered then, the same
// Page renders; a page there is none of is false.
func TestRenderPages(t *testing.T) {
	s := PageSettings{OperatorName: "Ada", Retention: time.Hour}
	serve := RenderPages(s)
	for _, lang := range locale.Languages() {
		for _, name := range Pages {
			first, got, ok := serve(name, lang)
			again, _, _ := serve(name, lang)
			want, _ := Page(name, lang, s)
			if !ok || got != lang || string(first) != string(want) {
				t.Fatalf("%s in %s: %q, %v", name, lang, got, ok)
			}
			if &first[0] != &again[0] {
				t.Errorf("%s in %s was rendered again for a second request", name, lang)
			}
		}
	}
	if _, _, ok := serve("cookies", "en"); ok {
		t.Error("a page named cookies")
	}
}
