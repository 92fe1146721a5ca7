package commands

import (
	"bytes"
	"html/template"
	"time"

	"golang.org/x/text/language"

	"nimbot/commands/locale"
	"nimbot/match"
)

// The public pages an operator links from the Developer Portal (General
// Information: Privacy Policy URL, Terms of Service URL): what nimbot
// keeps, why and for how long, and its terms, in the reader's language.
// Plain HTML from html/template, no script; every text is the catalog's
// (page.*), every setting the operator's (PageSettings). The README's
// "Data and privacy" table is the same table.

// PageSettings are what the pages say that the operator decides.
type PageSettings struct {
	// OperatorName and OperatorContact (an e-mail address or URL) name
	// who runs this nimbot and where to write (OPERATOR_NAME,
	// OPERATOR_CONTACT); either may be empty.
	OperatorName, OperatorContact string
	// Retention is how long saved answers are kept; ForgetAfter the grace
	// period after a user removes nimbot; IdleAfter how long a server may
	// go without a game before it is forgotten.
	Retention, ForgetAfter, IdleAfter time.Duration
}

// Pages names the pages Page renders.
var Pages = []string{"privacy", "terms"}

// pageLangs are the catalog's languages as tags, in Languages' order
// (English first: the matcher's fallback).
var pageLangs = func() []language.Tag {
	var tags []language.Tag
	for _, l := range locale.Languages() {
		tags = append(tags, language.Make(l))
	}
	return tags
}()

var pageMatcher = language.NewMatcher(pageLangs)

// PageLanguage is the catalog language ("en", "de", "pt-BR"…) an
// Accept-Language header prefers; English when it names none of them or
// does not parse.
func PageLanguage(acceptLanguage string) string {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return locale.English
	}
	_, i, conf := pageMatcher.Match(tags...)
	if conf == language.No {
		return locale.English
	}
	return locale.Languages()[i]
}

// pageRow is one row of the privacy page's table.
type pageRow struct{ What, Why, Kept string }

// pageData is what pageTemplate fills in.
type pageData struct {
	Lang, Title string
	Paragraphs  []string
	Head        pageRow
	Rows        []pageRow
	Contact     string
	// PrivacyLink and PrivacyPath link the terms to the privacy page.
	PrivacyLink, PrivacyPath string
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:sans-serif;max-width:48em;margin:2em auto;padding:0 1em;line-height:1.5}table{border-collapse:collapse}th,td{border:1px solid #999;padding:.4em;text-align:left;vertical-align:top}</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{range .Paragraphs}}<p>{{.}}</p>
{{end}}{{if .Rows}}<table>
<tr><th>{{.Head.What}}</th><th>{{.Head.Why}}</th><th>{{.Head.Kept}}</th></tr>
{{range .Rows}}<tr><td>{{.What}}</td><td>{{.Why}}</td><td>{{.Kept}}</td></tr>
{{end}}</table>
{{end}}{{if .PrivacyLink}}<p><a href="{{.PrivacyPath}}">{{.PrivacyLink}}</a></p>
{{end}}<p>{{.Contact}}</p>
</body>
</html>
`))

// RenderPages renders every page in every catalog language once, with s's
// settings, and returns what serves them (bot.HTTPConfig.Pages): page name
// in the language acceptLanguage prefers, that language, and false for a
// page there is none of. The pages change only with the settings, so a
// request costs a lookup, not a rendering.
func RenderPages(s PageSettings) func(name, acceptLanguage string) ([]byte, string, bool) {
	rendered := map[[2]string][]byte{}
	for _, name := range Pages {
		for _, lang := range locale.Languages() {
			rendered[[2]string{name, lang}], _ = Page(name, lang, s)
		}
	}
	return func(name, acceptLanguage string) ([]byte, string, bool) {
		lang := PageLanguage(acceptLanguage)
		page, ok := rendered[[2]string{name, lang}]
		return page, lang, ok
	}
}

// Page renders page name ("privacy" or "terms") in lang (PageLanguage),
// with s's settings; false for a page there is none of.
func Page(name, lang string, s PageSettings) ([]byte, bool) {
	p := locale.For(lang)
	operator := s.OperatorName
	if operator == "" {
		operator = p.T("page.operator_unnamed")
	}
	d := pageData{Lang: p.Lang(), Head: pageRow{p.T("page.col.what"), p.T("page.col.why"), p.T("page.col.kept")}}
	d.Contact = p.T("page.contact_missing")
	if s.OperatorContact != "" {
		d.Contact = p.T("page.contact", "Contact", s.OperatorContact)
	}
	switch name {
	case "privacy":
		d.Title = p.T("page.privacy.title")
		d.Paragraphs = []string{p.T("page.privacy.intro", "Operator", operator)}
		row := func(kind string, args ...any) pageRow {
			return pageRow{p.T("page.privacy." + kind + ".what"), p.T("page.privacy."+kind+".why", args...), p.T("page.privacy."+kind+".kept", args...)}
		}
		d.Rows = []pageRow{
			row("games", "Idle", p.Phrase(duration(s.IdleAfter)), "Tombstone", match.Tombstone),
			row("stats", "StatsCommand", subName("stats")),
			row("teaching"),
			row("daily"),
			row("answers", "Retention", p.Phrase(duration(s.Retention))),
			row("removed", "Grace", p.Phrase(duration(s.ForgetAfter))),
			row("memory", "For", p.Phrase(duration(recentBoardsFor))),
			row("logs"),
		}
		d.Paragraphs = append(d.Paragraphs, p.T("page.privacy.not"))
		d.Paragraphs = append(d.Paragraphs, p.T("page.privacy.delete", "PrivacyCommand", subName(subPrivacy), "Tombstone", match.Tombstone))
	case "terms":
		d.Title = p.T("page.terms.title")
		d.Paragraphs = []string{p.T("page.terms.intro", "Operator", operator), p.T("page.terms.fair"), p.T("page.terms.discord")}
		d.PrivacyLink, d.PrivacyPath = p.T("page.terms.privacy"), "privacy"
	default:
		return nil, false
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, d); err != nil {
		// Every field is a string: html/template escapes and never fails
		// on them.
		panic(err)
	}
	return b.Bytes(), true
}
