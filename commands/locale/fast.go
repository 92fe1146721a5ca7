package locale

import (
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"text/template"
	"text/template/parse"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"nimbot/engine"
)

// Boards render a dozen messages with arguments per click, and go-i18n
// renders each by executing a text/template over a map (reflection, a
// buffer, the map itself): 7.5 % of the server's CPU under load. Nearly
// every message is literal text and {{.Name}} fields, so the catalog
// compiles those at load into segments and renders them by concatenation.
// go-i18n stays the authority: it parses the files, it chooses the plural
// form (asked once per count and language, see Printer.form), and it
// renders everything the compiled form does not cover (another action in a
// template, an argument of another type, a message the language lacks),
// exactly as before. TestFastEqualsI18n holds the two paths to the same
// output for every message in every language.

// A plural form, as CLDR and go-i18n name them.
const (
	formZero = iota
	formOne
	formTwo
	formFew
	formMany
	formOther
	nForms
)

var formNames = [nForms]string{"zero", "one", "two", "few", "many", "other"}

// compiled is one message in one language: each plural form the message
// defines, compiled when it can be.
type compiled struct {
	// defined is which forms the message has (go-i18n renders "other" in
	// place of a form the message lacks); forms are their compiled bodies,
	// nil for one that is not only text and fields.
	defined [nForms]bool
	forms   [nForms]*body
	// plural: the message has a form other than "other", so a Count
	// argument must be looked at.
	plural bool
}

// body is a template that is literal text and {{.Name}} fields only.
type body struct {
	segs []segment
	// fields are the distinct names the body reads; text is the length of
	// its literal text (the output's size, less the fields').
	fields []string
	text   int
}

// segment is literal text, or (field) the name of an argument.
type segment struct {
	s     string
	field bool
}

// compileMessage compiles each form of m. go-i18n parses a form with
// text/template under its default options (missingkey=default), so this
// parses with the same package and accepts only the trees whose execution
// it reproduces: text, and actions that print one top-level field.
func compileMessage(m *i18n.Message) *compiled {
	c := &compiled{}
	srcs := [nForms]string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other}
	for f, src := range srcs {
		if src == "" {
			continue
		}
		c.defined[f] = true
		if f != formOther {
			c.plural = true
		}
		if m.LeftDelim == "" && m.RightDelim == "" {
			c.forms[f] = compileBody(src)
		}
	}
	return c
}

func compileBody(src string) *body {
	if !strings.Contains(src, "{{") {
		return &body{segs: []segment{{s: src}}, text: len(src)}
	}
	t, err := template.New("").Parse(src)
	if err != nil || len(t.Templates()) != 1 || t.Tree == nil {
		return nil
	}
	b := &body{}
	for _, n := range t.Tree.Root.Nodes {
		switch n := n.(type) {
		case *parse.TextNode:
			b.segs = append(b.segs, segment{s: string(n.Text)})
			b.text += len(n.Text)
		case *parse.ActionNode:
			name, ok := plainField(n)
			if !ok {
				return nil
			}
			b.segs = append(b.segs, segment{s: name, field: true})
			if !contains(b.fields, name) {
				b.fields = append(b.fields, name)
			}
		default:
			return nil
		}
	}
	return b
}

// plainField is the name in an action {{.Name}}: no variables, functions,
// pipelines or nested fields.
func plainField(n *parse.ActionNode) (string, bool) {
	p := n.Pipe
	if p == nil || p.IsAssign || len(p.Decl) != 0 || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return "", false
	}
	f, ok := p.Cmds[0].Args[0].(*parse.FieldNode)
	if !ok || len(f.Ident) != 1 {
		return "", false
	}
	return f.Ident[0], true
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// compileAll compiles every message of every language.
func compileAll(messages map[string]map[string]*i18n.Message) map[string]map[string]*compiled {
	out := make(map[string]map[string]*compiled, len(messages))
	for lang, ms := range messages {
		out[lang] = make(map[string]*compiled, len(ms))
		for id, m := range ms {
			out[lang][id] = compileMessage(m)
		}
	}
	return out
}

// args are a message's arguments as T takes them (name, value pairs), as
// a map, or as a phrase carries them (ph: its map, or P's compact form),
// read in place: no map is built per call.
type args struct {
	pairs []any
	m     map[string]any
	ph    *engine.Phrase
	// strs are TStr's name, value pairs, read without boxing a value.
	strs []string
}

// str is the string argument name of strs, the last one given.
func (a args) str(name string) (string, bool) {
	for i := len(a.strs) - 2; i >= 0; i -= 2 {
		if a.strs[i] == name {
			return a.strs[i+1], true
		}
	}
	return "", false
}

// get is the argument name; for pairs, the last one given, as the map T
// builds for go-i18n keeps it.
func (a args) get(name string) (any, bool) {
	if a.ph != nil {
		return a.ph.Arg(name)
	}
	if a.m != nil {
		v, ok := a.m[name]
		return v, ok
	}
	for i := len(a.pairs) - 2; i >= 0; i -= 2 {
		if a.pairs[i].(string) == name {
			return a.pairs[i+1], true
		}
	}
	return nil, false
}

// phraseUnused renders, and drops, each engine.Phrase argument b does not
// print: go-i18n's path renders every argument before choosing a form, and
// a phrase its language lacks is recorded (Missing) even where the form
// does not show it.
func (p *Printer) phraseUnused(a args, b *body) {
	if a.ph != nil {
		a.ph.EachArg(func(name string, v any) bool {
			if ph, ok := v.(engine.Phrase); ok && !contains(b.fields, name) {
				p.Phrase(ph)
			}
			return true
		})
		return
	}
	if a.m != nil {
		for name, v := range a.m {
			if ph, ok := v.(engine.Phrase); ok && !contains(b.fields, name) {
				p.Phrase(ph)
			}
		}
		return
	}
	for i := 0; i < len(a.pairs); i += 2 {
		ph, ok := a.pairs[i+1].(engine.Phrase)
		if !ok {
			continue
		}
		name := a.pairs[i].(string)
		if contains(b.fields, name) {
			continue
		}
		last := true
		for j := i + 2; j < len(a.pairs); j += 2 {
			if a.pairs[j].(string) == name {
				last = false
			}
		}
		if last {
			p.Phrase(ph)
		}
	}
}

// fast renders message id with compiled bodies, or reports false when the
// message, its form or an argument needs go-i18n (then nothing it did is
// visible but work: a nested phrase it rendered is rendered again, and the
// misses that records are a set).
func (p *Printer) fast(id string, a args) (string, bool) {
	c := p.compiled[id]
	if c == nil {
		return "", false
	}
	// go-i18n reads a Count before it looks at the message's forms, and
	// one it cannot read fails the message, plural or not.
	f := formOther
	if _, ok := a.str("Count"); ok {
		return "", false // a string Count: go-i18n's to read, as T leaves it
	}
	if v, ok := a.get("Count"); ok {
		n, ok := intCount(v)
		if !ok {
			return "", false
		}
		if c.plural {
			if f, ok = p.form(n); !ok {
				return "", false
			}
		}
	}
	if !c.defined[f] {
		f = formOther
	}
	b := c.forms[f]
	if !c.defined[f] || b == nil {
		return "", false
	}
	var sb strings.Builder
	sb.Grow(b.text + 16*len(b.fields))
	absent := false
	for _, s := range b.segs {
		if !s.field {
			sb.WriteString(s.s)
			continue
		}
		if a.strs != nil {
			v, ok := a.str(s.s)
			if !ok {
				sb.WriteString("<no value>")
				absent = true
				continue
			}
			sb.WriteString(v)
			continue
		}
		v, ok := a.get(s.s)
		if !ok {
			sb.WriteString("<no value>")
			absent = true
			continue
		}
		if !p.write(&sb, v) {
			return "", false
		}
	}
	// Every field found and as many arguments as fields: none is unused.
	n := len(a.m) + len(a.pairs)/2 + len(a.strs)/2
	if a.ph != nil {
		n = a.ph.NumArgs()
	}
	if absent || n != len(b.fields) {
		p.phraseUnused(a, b)
	}
	out := sb.String()
	if strings.Contains(out, "<no value>") {
		miss(p.lang, id)
	}
	return out, true
}

// write prints one argument as go-i18n's path does (Printer.value, then
// text/template's printing of a string), for the types the catalog is
// given; false for any other.
func (p *Printer) write(sb *strings.Builder, v any) bool {
	switch x := v.(type) {
	case string:
		sb.WriteString(x)
	case engine.Phrase:
		sb.WriteString(p.Phrase(x))
	case int:
		p.writeNumber(sb, int64(x))
	case int64:
		p.writeNumber(sb, x)
	case int32:
		p.writeNumber(sb, int64(x))
	case uint64:
		if x > 1<<62 {
			return false
		}
		p.writeNumber(sb, int64(x))
	default:
		return false
	}
	return true
}

// writeNumber is Number without its string for the common small case.
func (p *Printer) writeNumber(sb *strings.Builder, n int64) {
	if n > -1000 && n < 1000 {
		var buf [8]byte
		sb.Write(strconv.AppendInt(buf[:0], n, 10))
		return
	}
	sb.WriteString(p.Number(n))
}

// intCount is a Count argument go-i18n reads as an integer (plainCount
// passes these through unchanged); anything else is left to go-i18n.
func intCount(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case int32:
		return int64(x), true
	}
	return 0, false
}

// formCache bounds the counts whose plural form a printer remembers: the
// counts boards say (heaps, pieces, moves) are small; a larger one asks
// go-i18n each time.
const formCache = 1024

// plurals are the plural forms go-i18n chooses: a bundle holding, in every
// shipped language, one message whose every form is its own name, so
// rendering it with a count says which form go-i18n's CLDR rules pick for
// that language, the rules the catalog's own messages are rendered with.
// golang.org/x/text's plural tables are older (CLDR 32: no "many" for a
// million in French, Spanish or Portuguese), so they are not used.
var plurals = func() *i18n.Bundle {
	b := i18n.NewBundle(language.English)
	for _, l := range Languages() {
		b.MustAddMessages(language.Make(l), &i18n.Message{
			ID: "form", Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other",
		})
	}
	return b
}()

// form is the plural form go-i18n chooses for count n in the printer's
// language; false if it cannot say.
func (p *Printer) form(n int64) (int, bool) {
	if n == math.MinInt64 {
		return 0, false
	}
	if n < 0 {
		n = -n // go-i18n's operands are the absolute value
	}
	if n < formCache {
		if f := p.forms[n].Load(); f != 0 {
			return int(f - 1), true
		}
	}
	s, err := p.plural.Localize(&i18n.LocalizeConfig{MessageID: "form", PluralCount: n})
	if err != nil {
		return 0, false
	}
	for f, name := range formNames {
		if s == name {
			if n < formCache {
				p.forms[n].Store(uint32(f) + 1)
			}
			return f, true
		}
	}
	return 0, false
}

// formTable is a printer's remembered plural forms, by count: 0 unknown,
// else the form plus one. Printers are shared across goroutines.
type formTable [formCache]atomic.Uint32
