package commands

import (
	"strings"
	"testing"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// TestGameNamedInItsLanguage checks, in every shipped language, that the
// board's title, the challenge line and /nim start's refusal of too many
// random heaps name the game in the game's language (as the hint, review
// and analyze titles do), and that English still reads as the engine's
// Name, byte for byte.
func TestGameNamedInItsLanguage(t *testing.T) {
	for _, lang := range locale.Languages() {
		t.Run(lang, func(t *testing.T) {
			p := locale.For(lang)
			// named is the game's name in lang, after checking that the
			// test can tell it from English (so a title in English fails).
			named := func(r engine.Rules) string {
				t.Helper()
				n := p.Phrase(r.NamePhrase())
				if (lang == locale.English) != (n == r.Name()) {
					t.Fatalf("%+v is named %q in %s, %q in English", r, n, lang, r.Name())
				}
				return n
			}
			s := speaker{newHarness(t, 3), lang}

			resp := s.command(alice, "start", "variant", "21", "misere", false, "k", 5, "target", 30, "first", "me")
			if isEphemeral(resp) {
				t.Fatalf("start refused: %s", text(resp))
			}
			if got, want := resp.Data.Embeds[0].Title, named(s.game().Rules); got != want {
				t.Errorf("board title %q, want %q", got, want)
			}

			s.channel = chanB
			resp = s.command(alice, "start", "variant", "kayles", "misere", true, "opponent", user(bob))
			if isEphemeral(resp) {
				t.Fatalf("challenge refused: %s", text(resp))
			}
			g := s.game()
			want := p.T("board.challenge", "Challenged", name(bob), "Game", named(g.Rules))
			if resp.Data.Content != want {
				t.Errorf("challenge %q, want %q", resp.Data.Content, want)
			}
			if got, want := resp.Data.Embeds[0].Title, named(g.Rules); got != want {
				t.Errorf("challenge board title %q, want %q", got, want)
			}

			// Moore's Nim with k=4 is played perfectly with at most 8 heaps.
			s.channel = chanDM
			resp = s.command(alice, "start", "variant", "moore", "k", 4, "heaps", "random 12", "first", "me")
			moore := engine.Rules{Variant: engine.Moore, K: 4}
			if want := p.T("start.err.random_max", "Game", named(moore), "Max", moore.Limits().MaxHeaps); !isEphemeral(resp) || !strings.Contains(text(resp), want) {
				t.Errorf("random 12 in Moore's Nim (k=4): %q, want %q", text(resp), want)
			}
		})
	}
	checkNothingMissing(t)
}

// TestRulesTitleNamesDefaultGame checks /nim rules's title for every
// variant in every shipped language: the game /nim start plays without
// options, in the variant's own convention (the 21 game is misère, so its
// title does not say "normal play" above rules in which saying 21 loses),
// named in the reader's language; in English, the engine's Name.
func TestRulesTitleNamesDefaultGame(t *testing.T) {
	for _, lang := range locale.Languages() {
		t.Run(lang, func(t *testing.T) {
			p := locale.For(lang)
			s := speaker{newHarness(t, 3), lang}
			for _, v := range engine.Variants() {
				d, _ := engine.Describe(v)
				r, err := (engine.Rules{Variant: v, Misere: d.Misere}).Normalize()
				if err != nil {
					t.Fatal(err)
				}
				want := "📜 " + p.Phrase(r.NamePhrase())
				if lang == locale.English && want != "📜 "+r.Name() {
					t.Fatalf("%s: English name %q, engine's %q", v, want, r.Name())
				}
				if got := s.command(alice, "rules", "variant", string(v)).Data.Embeds[0].Title; got != want {
					t.Errorf("%s: title %q, want %q", v, got, want)
				}
			}
			// The 21 game by its title alone: "The 21 game", "Das 21-Spiel".
			d, _ := engine.Describe(engine.TwentyOne)
			if got, want := s.command(alice, "rules", "variant", "21").Data.Embeds[0].Title, "📜 "+p.Phrase(d.TitlePhrase()); got != want {
				t.Errorf("21: title %q, want %q", got, want)
			}
		})
	}
	checkNothingMissing(t)
}
