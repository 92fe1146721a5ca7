package commands

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/bwmarrin/discordgo"
)

// hostile is text a user may type that Discord would render as markup: bold,
// code, a mass mention, a masked link, a user mention.
const hostile = "**x**`y`@everyone[a](http://e.x)<@1>"

// rawMarkup finds hostile's markup unescaped in a message.
var rawMarkup = regexp.MustCompile("\\*\\*x|`y`|(^|[^\\\\])@everyone|\\]\\(|http://|<@1>")

// TestUserTextIsEscaped sends text that renders as markdown through every
// place a user's words come back in an answer (options, modal fields, menu
// values), and checks that the answer shows them escaped, never as markup.
func TestUserTextIsEscaped(t *testing.T) {
	h := newHarness(t, 3)
	h.command(alice, "start", "heaps", "30 7", "first", "me", "difficulty", "easy")
	g := h.game()
	h.channel = chanB
	h.command(alice, "start", "variant", "kayles", "heaps", "5 6", "first", "me", "difficulty", "easy")
	kayles := h.game()
	h.channel = chanA

	escaped := escapeMarkdown(hostile)
	for _, c := range []struct {
		name string
		resp func() *discordgo.InteractionResponse
		// echo: the answer quotes what was typed (escaped), so the test
		// cannot pass by saying nothing.
		echo bool
	}{
		{"move notation", func() *discordgo.InteractionResponse { return h.command(alice, "move", "notation", hostile) }, true},
		{"typed modal", func() *discordgo.InteractionResponse {
			return h.submit(alice, TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), hostile)
		}, true},
		{"amount modal", func() *discordgo.InteractionResponse {
			return h.submit(alice, AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID(), hostile)
		}, true},
		{"move menu value", func() *discordgo.InteractionResponse {
			return h.choose(alice, MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: "a"}.CustomID(), hostile)
		}, true},
		{"analyze", func() *discordgo.InteractionResponse { return h.command(alice, "analyze", "position", hostile) }, true},
		{"start heaps", func() *discordgo.InteractionResponse {
			h.channel = "1220000000000000003"
			defer func() { h.channel = chanA }()
			return h.command(alice, "start", "heaps", hostile)
		}, true},
		{"start random", func() *discordgo.InteractionResponse {
			h.channel = "1220000000000000003"
			defer func() { h.channel = chanA }()
			return h.command(alice, "start", "heaps", "random "+hostile)
		}, true},
		{"start set", func() *discordgo.InteractionResponse {
			h.channel = "1220000000000000003"
			defer func() { h.channel = chanA }()
			return h.command(alice, "start", "variant", "subtraction", "set", hostile)
		}, true},
		{"kayles heap", func() *discordgo.InteractionResponse {
			h.channel = chanB
			defer func() { h.channel = chanA }()
			return h.command(alice, "move", "heap", "`*`", "take", 1)
		}, false},
		{"rules variant", func() *discordgo.InteractionResponse { return h.command(alice, "rules", "variant", hostile) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := c.resp()
			if !isEphemeral(resp) {
				t.Fatalf("not refused: %s", text(resp))
			}
			msg := text(resp)
			if m := rawMarkup.FindString(msg); m != "" {
				t.Errorf("the answer renders what was typed as markdown (%q):\n%s", m, msg)
			}
			if c.echo && !strings.Contains(msg, escaped) && !strings.Contains(msg, escapeMarkdown(truncate(hostile, 20))[:10]) {
				t.Errorf("the answer does not quote what was typed, escaped:\n%s", msg)
			}
		})
	}
	if h.game().Ply != g.Ply || h.gameByID(kayles.ID).Ply != kayles.Ply {
		t.Fatalf("a refused input changed a game")
	}
}

// unescapeMarkdown undoes escapeMarkdown as Discord renders it: a backslash
// before ASCII punctuation shows the punctuation alone.
var unescapeRe = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)

// FuzzEscapeMarkdown checks that escaped text has no markdown character
// left unescaped and reads back as typed, bar line breaks and invisible
// characters.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range []string{hostile, "", "a\\*b", "\\", "x\u202ey", "line\nbreak", "||spoiler||", "> quote", "# head", "<t:1:R>", "https://x.y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := escapeMarkdown(s)
		for k := 0; k < len(e); k++ {
			if e[k] == '\\' {
				k++ // the escaped character
				continue
			}
			if strings.IndexByte(markdownSpecial, e[k]) >= 0 {
				t.Fatalf("%q escapes to %q, which leaves %q bare", s, e, e[k])
			}
			if e[k] == '\n' || e[k] == '\r' {
				t.Fatalf("%q escapes to %q, which breaks the line", s, e)
			}
		}
		want := strings.Map(func(c rune) rune {
			switch {
			case c == '\n' || c == '\r' || c == '\t':
				return ' '
			case unicode.IsControl(c) || unicode.Is(unicode.Cf, c):
				return -1
			}
			return c
		}, s)
		if got := unescapeRe.ReplaceAllString(e, "$1"); got != want {
			t.Fatalf("%q escapes to %q, which reads %q, not %q", s, e, got, want)
		}
	})
}
