// Package locale is nimbot's message catalog: the product's text in every
// language it ships.
//
// The catalog is parsed at start by github.com/nicksnyder/go-i18n/v2, a
// maintained library that brings CLDR plural rules and go-i18n's message
// file format; numbers are formatted per language by golang.org/x/text.
// Its messages come from two places, each the one home of its text:
//
//   - messages/<area>.<lang>.json, embedded in the binary: one file per part
//     of the product (definitions: the slash command's names and
//     descriptions; the boards, hints and errors of package commands) and
//     per language. English (<area>.en.json) holds each id's text.
//   - the engine's phrases (engine.Phrases): verdicts, explanations, moves
//     described, rules, refusals. Their English is defined in package
//     engine, beside the code that says them; their translations are here,
//     in messages/<area>.<lang>.json with no English file of their own
//     (explain, rules, engine-refusal).
//
// Every other language is named by its Discord locale code (de, fr,
// es-ES, pt-BR, ja) and must hold every id English holds, with the same
// template fields and the plural forms its language needs, which the
// package's tests check. A Discord locale with no catalog of its own reads
// the one of its base language (es-419 reads es-ES), in replies (For) and
// in the command's names and descriptions alike (Localizations, Served).
// A Printer (For) renders messages in one language;
// a message its language lacks is shown in English and recorded
// (Missing), so a test that renders everything in every language finds it.
//
// Every message is rendered by go-i18n's own Localizer, which chooses
// the plural form by CLDR's rules; a message without arguments is rendered
// once, at load.
package locale
