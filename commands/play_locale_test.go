package commands

import (
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
