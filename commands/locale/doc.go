// Package locale is nimbot's message catalog: the product's text in every
// language it ships, read by package commands alone.
//
// The catalog is one JSON file per language in messages/, embedded in the
// binary and parsed at start by github.com/nicksnyder/go-i18n/v2, a
// maintained library that also brings CLDR plural rules and language
// matching (golang.org/x/text/language) for the board and hint text that
// will come here next. English (en.json) is the fallback and the reference
// set of message ids; every other file is named by its Discord locale code
// (de, fr, es-ES, pt-BR, ja) and must hold every id English holds, which
// the package's tests check.
//
// This first slice holds the slash command's names, descriptions and choice
// names; boards, hints and errors are still English, in package commands.
package locale
