package locale

import (
	"embed"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"nimbot/engine"
)

//go:embed messages/*.json
var files embed.FS

// English is the fallback language: the default name and description
// Discord shows when a user's locale has no translation, and the text of
// every message a language lacks.
const English = "en"

// shipped are the translated locales, by Discord's locale codes (the
// AvailableLocalesEnum of Discord's API schema).
var shipped = []discordgo.Locale{discordgo.German, discordgo.French, discordgo.SpanishES, discordgo.PortugueseBR, discordgo.Japanese}

// discordLocales are the locales Discord's clients send and show
// localizations in (the AvailableLocalesEnum of Discord's API schema, which
// discordgo's list lags behind).
var discordLocales = []discordgo.Locale{
	"ar", "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr", "he", "hi", "hr", "hu", "id",
	"it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro", "ru", "sv-SE", "th", "tr", "uk", "vi", "zh-CN", "zh-TW",
}

// served are the Discord locales whose users read a translation: every one
// For maps to a shipped language other than English. That is more than
// shipped (es-419 reads es-ES), and a command's names and descriptions must
// reach the same users as its replies, or a Latin American user reads
// Spanish answers to a command they were shown in English.
var served = func() []discordgo.Locale {
	var out []discordgo.Locale
	for _, l := range discordLocales {
		if langOf(string(l)) != English {
			out = append(out, l)
		}
	}
	return out
}()

// catalog is parsed once: the files are part of the binary, so a bad one is
// a build defect that every test run reports (the init panics).
var catalog = load()

type book struct {
	bundle *i18n.Bundle
	// ids are the message ids each language defines, sorted, by language
	// code ("en", "de", "pt-BR"); text is the rendered text of those that
	// take no arguments; english the English templates (for field checks).
	ids     map[string][]string
	text    map[string]map[string]string
	english map[string]*i18n.Message
	// messages are each language's messages, by id.
	messages map[string]map[string]*i18n.Message
}

// load parses every message file (messages/<area>.<lang>.json, so each
// part of the product keeps its own file per language) and adds the
// engine's phrases as English, their one home.
func load() *book {
	b := &book{
		bundle:   i18n.NewBundle(language.English),
		ids:      map[string][]string{},
		text:     map[string]map[string]string{},
		english:  map[string]*i18n.Message{},
		messages: map[string]map[string]*i18n.Message{},
	}
	add := func(lang string, m *i18n.Message) {
		if b.messages[lang] == nil {
			b.messages[lang] = map[string]*i18n.Message{}
		}
		if _, dup := b.messages[lang][m.ID]; dup {
			panic(fmt.Sprintf("locale: %s defined twice in %s", m.ID, lang))
		}
		b.messages[lang][m.ID] = m
		b.ids[lang] = append(b.ids[lang], m.ID)
	}
	for id, t := range engine.Phrases() {
		m := &i18n.Message{ID: id, One: t.One, Other: t.Other}
		b.bundle.MustAddMessages(language.English, m)
		add(English, m)
	}
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
		lang := langOfFile(e.Name())
		for _, m := range f.Messages {
			add(lang, m)
		}
	}
	for lang := range b.ids {
		slices.Sort(b.ids[lang])
		b.text[lang] = map[string]string{}
	}
	b.english = b.messages[English]
	// Render every message that takes no arguments once, in its own
	// language only, so those lookups are plain map reads (Definitions runs
	// them by the hundred, boards by the dozen) and a message the library
	// cannot render fails at start.
	for lang, ids := range b.ids {
		lc := i18n.NewLocalizer(b.bundle, lang)
		for _, id := range ids {
			if fields(b.english[id]) != nil {
				continue
			}
			s, tag, err := lc.LocalizeWithTag(&i18n.LocalizeConfig{MessageID: id})
			if err != nil || tag != language.Make(lang) {
				panic(fmt.Sprintf("locale: %s %s: %v (tag %v)", lang, id, err, tag))
			}
			b.text[lang][id] = s
		}
	}
	return b
}

// langOfFile is the language of a message file: "board.pt-BR.json" → "pt-BR".
func langOfFile(name string) string {
	name = strings.TrimSuffix(name, ".json")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

var fieldRE = regexp.MustCompile(`\{\{-?\s*\.([A-Za-z0-9_]+)`)

// fields lists the template fields ({{.Name}}) a message's forms use,
// sorted and without repeats; nil for a message with none (or no message).
func fields(m *i18n.Message) []string {
	if m == nil {
		return nil
	}
	var out []string
	for _, body := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		for _, sub := range fieldRE.FindAllStringSubmatch(body, -1) {
			out = append(out, sub[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Locales lists the translated Discord locales, English excluded.
func Locales() []discordgo.Locale { return slices.Clone(shipped) }

// Languages lists every language the catalog ships: English first, then
// the translated locales.
func Languages() []string {
	out := []string{English}
	for _, l := range shipped {
		out = append(out, string(l))
	}
	return out
}

// IDs lists the message ids lang ("en", "de", "pt-BR") defines, sorted;
// nil for a language with no messages. English's are the reference set:
// every file's and every engine phrase.
func IDs(lang string) []string { return slices.Clone(catalog.ids[lang]) }

// Fields lists the template fields ({{.Name}}) message id uses in lang,
// sorted: a translation must use the fields English passes it, and no
// others.
func Fields(lang, id string) []string { return fields(catalog.messages[lang][id]) }

// Forms lists the plural forms ("one", "other", …) message id defines in
// lang.
func Forms(lang, id string) []string {
	m := catalog.messages[lang][id]
	if m == nil {
		return nil
	}
	var out []string
	for _, f := range []struct {
		name, body string
	}{{"zero", m.Zero}, {"one", m.One}, {"two", m.Two}, {"few", m.Few}, {"many", m.Many}, {"other", m.Other}} {
		if f.body != "" {
			out = append(out, f.name)
		}
	}
	return out
}

// Text returns message id in lang ("en" or a Discord locale code), when it
// takes no arguments, and false when lang's own messages lack it: no
// silent fallback to English, so a missing translation is seen, not shown
// in the wrong language.
func Text(lang, id string) (string, bool) {
	s, ok := catalog.text[lang][id]
	return s, ok
}

// Served lists the Discord locales whose users read a translation (For
// maps them to a shipped language other than English): the translated
// locales and those that read one of them, es-419 as es-ES.
func Served() []discordgo.Locale { return slices.Clone(served) }

// Localizations returns id in every served Discord locale whose language
// has it (es-419 gets es-ES's text, as For answers es-419 users in es-ES),
// the shape of discordgo's NameLocalizations and DescriptionLocalizations;
// nil when none has it.
func Localizations(id string) map[discordgo.Locale]string {
	var m map[discordgo.Locale]string
	for _, l := range served {
		if s, ok := Text(langOf(string(l)), id); ok {
			if m == nil {
				m = map[discordgo.Locale]string{}
			}
			m[l] = s
		}
	}
	return m
}

// Printer renders the catalog in one language. Printers are made once per
// language and shared: For returns the same one every time.
type Printer struct {
	lang string
	tag  language.Tag
	loc  *i18n.Localizer
	num  *message.Printer
}

var printers = func() map[string]*Printer {
	m := map[string]*Printer{}
	for _, l := range Languages() {
		tag := language.Make(l)
		m[l] = &Printer{lang: l, tag: tag, loc: i18n.NewLocalizer(catalog.bundle, l), num: message.NewPrinter(tag)}
	}
	return m
}()

// For returns the printer for a Discord locale ("de", "en-US", "es-419",
// "pt-BR"; an interaction's locale or guild_locale): the shipped language
// of the same locale, else of the same base language (es-419 reads
// Spanish, en-GB English), else English. Any string is safe: the locale is
// sent by the client.
func For(locale string) *Printer { return printers[langOf(locale)] }

// langOf is For's choice, as a language code: the shipped language of the
// same locale, else of the same base language, else English. Localizations
// makes the same choice for a command's names.
func langOf(locale string) string {
	if locale == English || slices.Contains(shipped, discordgo.Locale(locale)) {
		return locale
	}
	base, _, _ := strings.Cut(locale, "-")
	for _, l := range shipped {
		b, _, _ := strings.Cut(string(l), "-")
		if base != "" && b == base {
			return string(l)
		}
	}
	return English
}

// Lang is the printer's language code ("en", "de", "pt-BR").
func (p *Printer) Lang() string { return p.lang }

// T renders message id with its arguments given as name, value pairs:
// T("board.turn", "Player", name, "Count", 3). A Count argument chooses the
// plural form; integer arguments are formatted as the language writes
// numbers (1,000 / 1.000 / 1 000); an engine.Phrase argument is rendered in
// the same language first. A message the language lacks is shown in
// English and recorded (Missing), never as its id.
func (p *Printer) T(id string, nameValues ...any) string {
	if len(nameValues)%2 != 0 {
		panic("locale: T(" + id + ") with an odd number of name/value arguments")
	}
	if len(nameValues) == 0 {
		if s, ok := catalog.text[p.lang][id]; ok {
			return s
		}
	}
	args := make(map[string]any, len(nameValues)/2)
	for i := 0; i < len(nameValues); i += 2 {
		args[nameValues[i].(string)] = nameValues[i+1]
	}
	return p.localize(id, args)
}

// Phrase renders an engine phrase in the printer's language.
func (p *Printer) Phrase(ph engine.Phrase) string {
	if ph.ID == "" {
		return ph.Text
	}
	if ph.NumArgs() == 0 {
		if s, ok := catalog.text[p.lang][ph.ID]; ok {
			return s
		}
	}
	return p.localize(ph.ID, ph.Args)
}

// localize renders message id through go-i18n, with args prepared for it
// (value) and a Count argument as the plural count.
func (p *Printer) localize(id string, args map[string]any) string {
	data := make(map[string]any, len(args))
	for k, v := range args {
		data[k] = p.value(v)
	}
	lc := &i18n.LocalizeConfig{MessageID: id, TemplateData: data}
	if c, ok := args["Count"]; ok {
		lc.PluralCount = plainCount(c)
	}
	// An error with text in the right language is a plural form the
	// translation does not define (French "many" for millions): go-i18n
	// has fallen back to its "other" form, which reads correctly.
	s, tag, _ := p.loc.LocalizeWithTag(lc)
	if s == "" || tag != p.tag || strings.Contains(s, "<no value>") {
		miss(p.lang, id)
		if s == "" {
			if p.lang != English {
				return For(English).localize(id, args)
			}
			return id
		}
	}
	return s
}

// value prepares one template argument: phrases rendered, integers
// formatted for the language.
func (p *Printer) value(v any) any {
	switch x := v.(type) {
	case engine.Phrase:
		return p.Phrase(x)
	case int:
		return p.Number(int64(x))
	case int64:
		return p.Number(x)
	case int32:
		return p.Number(int64(x))
	case uint64:
		if x <= 1<<62 {
			return p.Number(int64(x))
		}
	}
	return v
}

// plainCount is a Count argument as go-i18n's plural rules take it.
func plainCount(v any) any {
	switch x := v.(type) {
	case int, int64, int32, uint64, string:
		return x
	}
	return fmt.Sprint(v)
}

// Number formats n as the language writes whole numbers: 1,234,567 in
// English, 1.234.567 in German, 1 234 567 in French.
func (p *Printer) Number(n int64) string {
	if n > -1000 && n < 1000 {
		return strconv.FormatInt(n, 10)
	}
	return p.num.Sprint(number.Decimal(n))
}

// missing records message ids a language lacked when asked, as
// "lang id", so a test can render everything and then ask.
var missing sync.Map

func miss(lang, id string) { missing.Store(lang+" "+id, true) }

// Missing returns what was asked of a language that lacks it since the
// process started ("de board.turn"), sorted: a test renders every board,
// hint and error in every language and expects none. The set is bounded by
// the catalog's ids (never by input: ids come from the code).
func Missing() []string {
	var out []string
	missing.Range(func(k, _ any) bool {
		out = append(out, k.(string))
		return true
	})
	slices.Sort(out)
	return out
}
