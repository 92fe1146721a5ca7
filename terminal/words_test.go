package terminal

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"nimbot/commands"
)

// noEnglishScript walks a session through the terminal's own words: its
// welcome and help, a refusal of each kind of mistyped line, a menu's and
// a form's prompts, the keyboard passing between players, the goodbye.
// Commands are typed with their English names, which every language reads.
var noEnglishScript = []string{
	"help", "foo", "/as 3", "/as", "0", "/", "/foo", "/nim", "/nim foo", "/nim start foo",
	"/nim start heaps:", "/nim start k:abc", "/nim start k:0", "/nim start k:99999999999999999999",
	"/nim start misere:maybe", "/nim start opponent:zz", "/nim start first:nobody",
	"/nim start heaps:1 heaps:2", "/nim rules variant:x", "9",
	"/nim start heaps:3 4 5 first:me", "9", "4 2",
	"7", "x", "/cancel", // the move menu: a wrong pick, then closed
	"5", "/cancel", // the type-a-move form, closed
	"/as 2", "/as 1", "/nim resign",
	"/nim start opponent:2 heaps:3 first:me", "2", // player2 is challenged, and declines
	"quit",
}

// englishLines are the terminal's own English, each a piece no line in
// another language may show.
var englishLines = []string{
	"nimbot in the terminal", "Type help for the commands", "No game in this channel yet", "against nimbot",
	"Type a slash command", "All subcommands", "A number presses", "there are no buttons", "there is no button",
	"takes nothing after its number", "by number", "to close the menu", "menu closed", "a form;", "form closed",
	"is not a button number", "I don't understand", "has no subcommand", "needs a subcommand", "has no option",
	"is not one of", "not a whole number", "the least allowed", "the most allowed", "is not true or false", "no user",
	"Usage:", "Now typing as", "is challenged", "to move: now typing", "board updated", "Bye.", "<whole number>",
	"<text>", "<true|false>", "pick>", "form>", "(button)", "(e.g.", "[optional", "a whole number goes",
	"given twice", "no value after", "switches back",
}

// TestPlayNoEnglish runs one session in every language nimbot speaks and
// fails on a line of the terminal's own English, or any line the English
// session printed that has a word besides names and notation: what reads
// the same in every language is a board's rows, a user's name, a move.
func TestPlayNoEnglish(t *testing.T) {
	run := func(lang string) string {
		c := newTestConfig(filepath.Join(t.TempDir(), "nimbot.db"))
		var out bytes.Buffer
		in := strings.NewReader(strings.Join(noEnglishScript, "\n") + "\n")
		if err := playOnLang(context.Background(), c, lang, in, &out); err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		return out.String()
	}
	english := run("en")
	mustContain(t, english, englishLines[:6]...)
	seen := map[string]bool{}
	for _, l := range strings.Split(english, "\n") {
		seen[strings.TrimSpace(l)] = true
	}
	word := regexp.MustCompile(`\p{L}[\p{L}\p{M}']*`)
	notation := map[string]bool{"nim": true, "nimbot": true, "player": true, "kayles": true, "bot": true, "help": true, "quit": true, "as": true, "cancel": true}
	for _, lang := range commands.Languages()[1:] {
		out := run(lang)
		for _, e := range englishLines {
			if strings.Contains(out, e) {
				t.Errorf("%s session shows the English %q:\n%s", lang, e, out)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			l = strings.TrimSpace(l)
			if !seen[l] || strings.HasPrefix(l, "/") {
				continue // new words, or a command as typed ("/nim status")
			}
			var prose []string
			for _, f := range strings.Fields(l) {
				if !strings.HasPrefix(f, "/") && !strings.Contains(f, ":") {
					prose = append(prose, f) // not a command or option as typed
				}
			}
			for _, w := range word.FindAllString(strings.Join(prose, " "), -1) {
				if len([]rune(w)) > 1 && !notation[strings.ToLower(w)] {
					t.Errorf("%s session prints the English session's line %q (%q)", lang, l, w)
					break
				}
			}
		}
	}
}
