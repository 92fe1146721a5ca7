package locale

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed messages/*.json
var files embed.FS

// English is the fallback language: the default name and description
// Discord shows when a user's locale has no translation.
const English = "en"

// shipped are the translated locales, by Discord's locale codes (the
// AvailableLocalesEnum of Discord's API schema).
var shipped = []discordgo.Locale{discordgo.German, discordgo.French, discordgo.SpanishES, discordgo.PortugueseBR, discordgo.Japanese}

// catalog is parsed once: the files are part of the binary, so a bad one is
// a build defect that every test run reports (the init panics).
var catalog = func() *book {
	b := &book{bundle: i18n.NewBundle(language.English), ids: map[string][]string{}, text: map[string]map[string]string{}}
	entries, err := files.ReadDir("messages")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		buf, err := files.ReadFile(path.Join("messages", e.Name()))
		if err != nil {
			panic(err)
		}
		f, err := b.bundle.ParseMessageFileBytes(buf, e.Name())
		if err != nil {
			panic(fmt.Sprintf("locale: %s: %v", e.Name(), err))
		}
		lang := strings.TrimSuffix(e.Name(), ".json")
		b.text[lang] = map[string]string{}
		for _, m := range f.Messages {
			b.ids[lang] = append(b.ids[lang], m.ID)
		}
		slices.Sort(b.ids[lang])
	}
	// Render every message once through the library, in its own language
	// only, so lookups later are plain map reads (Definitions runs them by
	// the hundred) and a message the library cannot render fails at start.
	for lang, ids := range b.ids {
		lc := i18n.NewLocalizer(b.bundle, lang)
		for _, id := range ids {
			s, tag, err := lc.LocalizeWithTag(&i18n.LocalizeConfig{MessageID: id})
			if err != nil || tag != language.Make(lang) {
				panic(fmt.Sprintf("locale: %s %s: %v (tag %v)", lang, id, err, tag))
			}
			b.text[lang][id] = s
		}
	}
	return b
}()

type book struct {
	bundle *i18n.Bundle
	// ids are the message ids each file defines, and text their rendered
	// text, by file name without ".json" (the language code).
	ids  map[string][]string
	text map[string]map[string]string
}

// Locales lists the translated Discord locales, English excluded.
func Locales() []discordgo.Locale { return slices.Clone(shipped) }

// IDs lists the message ids the file of lang ("en", "de", "pt-BR")
// defines, sorted; nil for a language with no file.
func IDs(lang string) []string { return slices.Clone(catalog.ids[lang]) }

// Text returns message id in lang ("en" or a Discord locale code), and
// false when lang's own file lacks it: no silent fallback to English, so a
// missing translation is seen, not shown in the wrong language.
func Text(lang, id string) (string, bool) {
	s, ok := catalog.text[lang][id]
	return s, ok
}

// Localizations returns id in every translated locale that has it, the
// shape of discordgo's NameLocalizations and DescriptionLocalizations; nil
// when none has it.
func Localizations(id string) map[discordgo.Locale]string {
	var m map[discordgo.Locale]string
	for _, l := range shipped {
		if s, ok := Text(string(l), id); ok {
			if m == nil {
				m = map[discordgo.Locale]string{}
			}
			m[l] = s
		}
	}
	return m
}
