package commands

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// TestNotationExampleLocalized checks, for every variant in every shipped
// language, that the typed-move form's placeholder and /nim move's advice
// to name a heap show how moves are typed in the reader's language (the
// variant's notation phrase), as /nim rules does; English reads as the
// engine's table.
func TestNotationExampleLocalized(t *testing.T) {
	for _, lang := range locale.Languages() {
		t.Run(lang, func(t *testing.T) {
			p := locale.For(lang)
			s := speaker{newHarness(t, 3), lang}
			for _, v := range engine.Variants() {
				d, _ := engine.Describe(v)
				want := p.Phrase(d.NotationPhrase())
				if lang == locale.English && want != d.Notation {
					t.Fatalf("%s: English notation %q, engine's %q", v, want, d.Notation)
				}
				if resp := s.command(alice, "start", "variant", string(v), "first", "me"); isEphemeral(resp) {
					t.Fatalf("%s: start refused: %s", v, text(resp))
				}
				g := s.game()
				resp := s.click(alice, TypeControl{Game: g.ID, Ply: g.Ply}.CustomID())
				if resp.Type != discordgo.InteractionResponseModal {
					t.Fatalf("%s: the typed-move button answered %s", v, text(resp))
				}
				if ti := deref(rowOf(resp.Data.Components[0]).Components[0]).(discordgo.TextInput); ti.Placeholder != want {
					t.Errorf("%s: placeholder %q, want %q", v, ti.Placeholder, want)
				}
				if len(g.Position.Heaps) > 1 {
					// An amount without a heap, where there are several.
					if resp := s.command(alice, "move", "take", 1); !isEphemeral(resp) || !strings.Contains(text(resp), want) {
						t.Errorf("%s: take:1 without a heap answered %q, want the example %q", v, text(resp), want)
					}
				}
				s.command(alice, "end")
			}
		})
	}
	checkNothingMissing(t)
}

// TestCommandsNamedAsDiscordShows checks, in every shipped language, that
// the answers which tell a player what to send name the subcommands and
// options as Discord shows them to that player (nim.<sub>.name,
// opt.<option>.name), never by their English names where those differ,
// and that English reads as it always has, byte for byte.
func TestCommandsNamedAsDiscordShows(t *testing.T) {
	for _, lang := range locale.Languages() {
		t.Run(lang, func(t *testing.T) {
			p := locale.For(lang)
			sub := func(s string) string { return "/nim " + p.Phrase(subName(s)) }
			opt := func(o string) string { return p.Phrase(optionName(o)) }
			// english finds a subcommand or option by its English name, where
			// lang names it otherwise.
			var english []*regexp.Regexp
			for _, s := range []string{subStart, subMove, subHint, subStatus, subAnalyze, subEnd} {
				if p.Phrase(subName(s)) != s {
					english = append(english, regexp.MustCompile(`/nim `+s+`\b`))
				}
			}
			for _, o := range []string{optTake, optHeap, optPin, optOpponent, optVariant, optNotation, optMisere, optHints, optLevel} {
				if opt(o) != o {
					english = append(english, regexp.MustCompile(`\b`+o+`\b`))
				}
			}
			s := speaker{newHarness(t, 3), lang}
			// check: resp names each of want, nothing in English where lang
			// names it otherwise, and in English reads was (as before).
			check := func(what string, resp *discordgo.InteractionResponse, was string, want ...string) {
				t.Helper()
				got := text(resp)
				for _, w := range want {
					if !strings.Contains(got, w) {
						t.Errorf("%s: no %q in %q", what, w, got)
					}
				}
				for _, re := range english {
					if m := re.FindString(got); m != "" {
						t.Errorf("%s: names %q in English: %q", what, m, got)
					}
				}
				if lang == locale.English && !strings.Contains(got, was) {
					t.Errorf("%s: %q, want as before %q", what, got, was)
				}
			}
			// nextChannel gives each game a channel of its own.
			n := 0
			nextChannel := func() {
				n++
				s.channel = fmt.Sprintf("12200000000000003%02d", n)
			}

			nextChannel()
			check("no game", s.command(alice, "move", "take", 1),
				"There is no game in this channel. Start one with /nim start.", sub(subStart))
			check("rules", s.command(alice, "rules", "variant", "nim"),
				"**How to play here:** `/nim start variant:nim` against nimbot, or add `opponent:` to challenge someone. Click a heap, then an amount, or type any move (\"B3\" takes 3 from heap B) with ⌨️ Type a move or `/nim move notation:`; 💡 Hint explains the winning idea. Any variant can be played misère (`misere:True`).",
				"`"+sub(subStart)+" "+opt(optVariant)+":nim`", "`"+opt(optOpponent)+":`",
				"`"+sub(subMove)+" "+opt(optNotation)+":`", "`"+opt(optMisere)+":True`")
			check("hints against nimbot", s.command(alice, "start", "hints", false),
				"the hints option is for games between people.", opt(optHints))
			check("challenging oneself", s.command(alice, "start", "opponent", user(alice)),
				"or leave opponent empty to play nimbot.", opt(optOpponent))

			s.command(alice, "start", "heaps", "3 4 5", "first", "me")
			check("a second game", s.command(alice, "start"),
				"finish it first, or use /nim end to end it.", sub(subEnd))
			check("no heap", s.command(alice, "move", "take", 1),
				"Say which heap with the heap option (the heaps are A to C), and how many with take.", opt(optHeap), opt(optTake))
			check("no amount", s.command(alice, "move", "heap", "B"),
				"Say how many to take with the take option, like heap:B take:1.", opt(optHeap)+":B "+opt(optTake)+":1")

			// Options Discord's own client would not send, refused before any
			// handler reads them, are named as the reader's Discord names them
			// too.
			raw := func(sub, options string) *discordgo.InteractionResponse {
				return s.send("application_command.json", fields{UserID: alice, Sub: sub, Options: options, Type: 2})
			}
			check("take below its minimum", s.command(alice, "move", "heap", "A", "take", 0),
				"The option take must be from 1 to 9,007,199,254,740,992; 0 is out of range", opt(optTake))
			check("take not whole", s.command(alice, "move", "heap", "A", "take", 2.5),
				"The option take must be a whole number", opt(optTake))
			check("take as text", raw(subMove, `[{"name":"heap","type":3,"value":"A"},{"name":"take","type":3,"value":"2"}]`),
				"The option take must be a whole number", opt(optTake))
			check("heap too long", s.command(alice, "move", "heap", "ABCD", "take", 1),
				"The option heap is at most 3 characters long", opt(optHeap))
			check("level outside its choices", s.command(alice, "hint", "level", 4),
				"The option level must be one of 1, 2, 3", opt(optLevel))
			check("an option twice", raw(subMove, `[{"name":"take","type":4,"value":1},{"name":"take","type":4,"value":2}]`),
				"the option take is given twice", opt(optTake))
			check("an undeclared option", raw(subMove, `[{"name":"rated","type":5,"value":true}]`),
				`/nim move has no option "rated"`, sub(subMove))
			check("an empty option", raw(subMove, `[null]`),
				"/nim move carries an empty option", sub(subMove))

			nextChannel()
			s.command(alice, "start", "variant", "21", "first", "me")
			check("no count", s.command(alice, "move"),
				"Say how many more numbers to say with the take option, like take:2.", opt(optTake)+":2")

			nextChannel()
			s.command(alice, "start", "variant", "wythoff", "first", "me")
			check("both without an amount", s.command(alice, "move", "both", true),
				"Say how many to take from both heaps with the take option.", opt(optTake))

			nextChannel()
			s.command(alice, "start", "variant", "kayles", "heaps", "5", "first", "me")
			d, _ := engine.Describe(engine.Kayles)
			check("no pin", s.command(alice, "move", "heap", "A"),
				"In Kayles, say which pin to knock down with the pin option (counted from 1 at the left of row A), and take:2 to knock it and the next one.",
				p.Phrase(d.TitlePhrase()), opt(optPin), opt(optTake)+":2")
		})
	}
	checkNothingMissing(t)
}
