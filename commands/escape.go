package commands

import (
	"fmt"
	"io"
	"strings"
	"unicode"
)

// markdownSpecial are the characters Discord's markdown can read as markup
// inside a line: emphasis and code (* _ ~ ` |), quotes (>), mentions, custom
// emoji, timestamps and slash-command links (< > @ :), masked links
// ([ ] ( )), headings and lists (# -), and the backslash itself. A colon
// escaped also keeps "https://…" from becoming a link. Discord hides a
// backslash before any ASCII punctuation, so escaping one that would have
// meant nothing changes nothing a reader sees.
const markdownSpecial = "\\*_~`|<>@:[]()#-"

// escapeMarkdown makes s show exactly as it was typed when it is put in a
// message: every markdown character is escaped with a backslash, line breaks
// and tabs become spaces (a line break would start a heading or a quote),
// and other control and invisible format characters (U+202E reverses the
// text after it) are dropped.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '\n' || c == '\r' || c == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(c) || unicode.Is(unicode.Cf, c):
			// dropped
		case strings.ContainsRune(markdownSpecial, c):
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// userText is text a user typed (an option value, a modal field, a menu
// value, a custom_id), on its way into a message. Formatted with %q it is
// escaped and put in double quotes, with %s escaped only: nimbot never
// echoes what a user typed as markdown.
type userText string

// quote is s cut to n characters, to be echoed with %q or %s.
func quote(s string, n int) userText { return userText(truncate(s, n)) }

// Format writes u escaped (see escapeMarkdown); the verb q adds quotes.
func (u userText) Format(f fmt.State, verb rune) {
	s := escapeMarkdown(string(u))
	if verb == 'q' {
		s = `"` + s + `"`
	}
	io.WriteString(f, s)
}
