package commands

import (
	"errors"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// engineReason is why the engine refused a player's heaps, move or
// position, as a message argument (userErr's "Reason") that the catalog
// renders in the reader's language: the engine's phrase (engine.PhraseError)
// with every text in it escaped for Markdown, since it quotes what the
// player typed. An error that is no phrase is its English, escaped.
func engineReason(err error) any {
	var pe engine.PhraseError
	if errors.As(err, &pe) {
		return escapePhrase(pe.Phrase())
	}
	return escapeMarkdown(err.Error())
}

// escapePhrase escapes the literal text and string arguments of p, and of
// the phrases inside it; the message's own text is the catalog's.
func escapePhrase(p engine.Phrase) engine.Phrase {
	if p.ID == "" {
		return engine.Lit(escapeMarkdown(p.Text))
	}
	if p.NumArgs() == 0 {
		return p
	}
	args := make(map[string]any, p.NumArgs())
	p.EachArg(func(k string, v any) bool {
		switch x := v.(type) {
		case engine.Phrase:
			v = escapePhrase(x)
			// A rule setting is named as the reader's Discord names
			// its option (k, set, target), not by the engine's word.
			if _, ok := locale.Text(locale.English, "opt."+x.Text+".name"); ok && k == "Setting" && x.ID == "" {
				v = optionName(x.Text)
			}
		case string:
			v = escapeMarkdown(x)
		}
		args[k] = v
		return true
	})
	return engine.Phrase{ID: p.ID, Args: args}
}
