package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"text/template"
)

// Phrase is text the engine shows a player (a verdict, a step of an
// explanation, a move described, a variant's rules, why a position or a
// move is refused) as a message id and its named arguments, so a caller can
// render it in the player's language from a message catalog. String renders
// the English the engine defines for the id.
//
// A Phrase with no ID is a literal: Text, shown as is in every language
// (a number in a table, a heap's letter, a move in notation).
type Phrase struct {
	// ID names the message; its English is Phrases()[ID].
	ID string
	// Args are the template's named arguments ({{.Sum}} reads Args["Sum"]).
	// A value may itself be a Phrase, rendered in the same language first;
	// integers are numbers a renderer may format for the language. Count,
	// when present, is the number that chooses a plural form.
	Args map[string]any
	// Text is a literal's text (ID empty).
	Text string
}

// Template is a phrase's English: Other, and One where the singular
// differs ("{{.Count}} move" / "{{.Count}} moves"). Both are text/template
// bodies over the phrase's Args, the syntax go-i18n message files use, so a
// catalog can load them as its English unchanged.
type Template struct {
	One, Other string
}

// phrases is every phrase id the engine defines, with its English. It is
// filled by def at package initialisation and read-only after.
var phrases = map[string]Template{}

// def registers a phrase's English under id at package initialisation and
// returns id, so a phrase is declared once, beside the code that says it:
//
//	var pNimSum = def("nim.explain.sum", "", "The nim-sum is {{.Sum}}.")
//
// A duplicate id or a template that does not parse is a programming error
// every test run reports (the package fails to initialise).
func def(id, one, other string) string {
	if _, dup := phrases[id]; dup {
		panic("engine: phrase " + id + " defined twice")
	}
	for _, body := range []string{one, other} {
		if _, err := template.New(id).Option("missingkey=error").Parse(body); err != nil {
			panic(fmt.Sprintf("engine: phrase %s: %v", id, err))
		}
	}
	phrases[id] = Template{One: one, Other: other}
	return id
}

// P makes the phrase id with its arguments given as name, value pairs:
// P(pNimSum, "Sum", 6).
func P(id string, nameValues ...any) Phrase {
	if len(nameValues)%2 != 0 {
		panic("engine: P(" + id + ") with an odd number of name/value arguments")
	}
	p := Phrase{ID: id}
	if len(nameValues) > 0 {
		p.Args = make(map[string]any, len(nameValues)/2)
		for i := 0; i < len(nameValues); i += 2 {
			p.Args[nameValues[i].(string)] = nameValues[i+1]
		}
	}
	return p
}

// Arg returns the argument name of p, and whether p has it.
func (p Phrase) Arg(name string) (any, bool) {
	v, ok := p.Args[name]
	return v, ok
}

// NumArgs is how many arguments p has.
func (p Phrase) NumArgs() int { return len(p.Args) }

// EachArg calls f with each of p's arguments, in no promised order, until
// f returns false.
func (p Phrase) EachArg(f func(name string, value any) bool) {
	for k, v := range p.Args {
		if !f(k, v) {
			return
		}
	}
}

// ArgMap returns p's arguments as a new map.
func (p Phrase) ArgMap() map[string]any { return maps.Clone(p.Args) }

// Lit is a literal phrase: s in every language.
func Lit(s string) Phrase { return Phrase{Text: s} }

// Phrases returns every phrase the engine can show, by id, in English: the
// reference set a message catalog translates.
func Phrases() map[string]Template { return maps.Clone(phrases) }

// PhraseIDs returns the ids of Phrases, sorted.
func PhraseIDs() []string { return slices.Sorted(maps.Keys(phrases)) }

// String renders the phrase in English.
func (p Phrase) String() string {
	if p.ID == "" {
		return p.Text
	}
	t, ok := phrases[p.ID]
	if !ok {
		return p.ID
	}
	body := t.Other
	if c, _ := p.Arg("Count"); t.One != "" && isOne(c) {
		body = t.One
	}
	tmpl, err := parsed(p.ID, body)
	if err != nil {
		return p.ID
	}
	data := make(map[string]any, p.NumArgs())
	p.EachArg(func(k string, v any) bool {
		if q, ok := v.(Phrase); ok {
			v = q.String()
		}
		data[k] = v
		return true
	})
	var b strings.Builder
	if err := tmpl.Execute(&b, data); err != nil {
		return p.ID
	}
	return b.String()
}

// isOne reports whether a Count argument is the number 1.
func isOne(v any) bool {
	switch n := v.(type) {
	case int:
		return n == 1
	case int64:
		return n == 1
	case int32:
		return n == 1
	case uint64:
		return n == 1
	}
	return false
}

// templates caches parsed English bodies: String runs in every hint and
// move log the terminal prints.
var templates sync.Map // id + "\x00" + body -> *template.Template

func parsed(id, body string) (*template.Template, error) {
	key := id + "\x00" + body
	if t, ok := templates.Load(key); ok {
		return t.(*template.Template), nil
	}
	t, err := template.New(id).Option("missingkey=error").Parse(body)
	if err != nil {
		return nil, err
	}
	templates.Store(key, t)
	return t, nil
}

// PhraseError is an error the engine returns for a player's input (a move
// or position it refuses), carrying the Phrase that says why, so a caller
// can show it in the player's language. errors.As finds it; Error is the
// English.
type PhraseError interface {
	error
	Phrase() Phrase
}
