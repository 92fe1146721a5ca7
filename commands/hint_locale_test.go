package commands

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestHintAnalyzeAutocompleteSpeakUserLanguage: the hint's own words (title,
// suggestion, buttons, footer), /nim analyze's verdict and heading, and
// /nim start's heap suggestions come in the asking user's language, not
// only the engine's phrases inside them.
func TestHintAnalyzeAutocompleteSpeakUserLanguage(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me", "heaps", "3 4 5")
	german := func(fixture string, f fields) *discordgo.InteractionResponse {
		i := h.interaction(fixture, f)
		i.Locale = "de"
		return h.handle(i)
	}
	r := german("application_command.json", fields{UserID: alice, Sub: "hint", Options: opts("level", 1), Type: 2})
	e := r.Data.Embeds[0]
	if !strings.Contains(e.Title, "Tipp — Stufe 1") || !strings.Contains(e.Footer.Text, "Spiel #") || !strings.Contains(e.Description, "Zugprotokoll") {
		t.Errorf("German hint's own words in English: %q %q %q", e.Title, e.Footer.Text, e.Description)
	}
	var labels []string
	for _, row := range r.Data.Components {
		for _, c := range row.(discordgo.ActionsRow).Components {
			labels = append(labels, c.(discordgo.Button).Label)
		}
	}
	if strings.Join(labels, "|") != "Zug zeigen|Erklär warum" {
		t.Errorf("German hint buttons: %q", labels)
	}
	r = german("application_command.json", fields{UserID: alice, Sub: "hint", Options: opts("level", 3), Type: 2})
	if d := r.Data.Embeds[0].Description; !strings.Contains(d, "Probier **`") || !strings.Contains(d, "**Warum**") || strings.Contains(d, "Try **") {
		t.Errorf("German hint suggestion:\n%s", d)
	}

	r = german("application_command.json", fields{UserID: alice, Sub: "analyze", Options: opts("position", "3 4 5"), Type: 2})
	if d := r.Data.Embeds[0].Description; !strings.Contains(d, "**Wer am Zug ist, gewinnt**") || !strings.Contains(d, "**Der einzige Gewinnzug:**") {
		t.Errorf("German analyze:\n%s", d)
	}

	list := []map[string]any{{"name": "heaps", "type": 3, "value": "2 5", "focused": true}}
	b, _ := json.Marshal(list)
	r = german("application_command.json", fields{UserID: alice, Sub: "start", Options: string(b), Type: 4})
	if len(r.Data.Choices) == 0 || r.Data.Choices[0].Name != "2 5 (2 Haufen)" {
		t.Errorf("German typed heaps suggestion: %+v", r.Data.Choices)
	}
	var random bool
	for _, c := range r.Data.Choices {
		random = random || strings.HasSuffix(c.Name, "(zufällige Haufen)")
	}
	list[0]["value"] = "random"
	b, _ = json.Marshal(list)
	r = german("application_command.json", fields{UserID: alice, Sub: "start", Options: string(b), Type: 4})
	for _, c := range r.Data.Choices {
		random = random || strings.HasSuffix(c.Name, "(zufällige Haufen)")
	}
	if !random {
		t.Errorf("German random heaps suggestion: %+v", r.Data.Choices)
	}
}

// TestJapaneseMovesReadAsSuggestions: a move described in Japanese is in
// the plain (dictionary) form, which reads right both where it suggests a
// move (the hint's "try A1", the analysis's winning moves, the board's
// menu) and where it records one (the move log); the past tense it had
// ("A から 1 取った", "took 1 from A") made every suggestion read as done.
func TestJapaneseMovesReadAsSuggestions(t *testing.T) {
	s := speaker{newHarness(t, 1), "ja"}
	board := s.command(alice, "start", "heaps", "3 4 6", "first", "me")
	var labels []string
	for _, row := range board.Data.Components {
		for _, c := range row.(discordgo.ActionsRow).Components {
			if m, ok := c.(discordgo.SelectMenu); ok {
				for _, o := range m.Options {
					labels = append(labels, o.Label)
				}
			}
		}
	}
	if !slices.Contains(labels, "A から 1 取る") {
		t.Errorf("the board's move menu: %q", labels)
	}
	hint := s.command(alice, "hint", "level", 3).Data.Embeds[0].Description
	if !strings.Contains(hint, "**`A1`** を試してみてください（A から 1 取る）。") {
		t.Errorf("the hint's suggestion:\n%s", hint)
	}
	analysis := s.command(alice, "analyze", "position", "3 4 6").Data.Embeds[0].Description
	if !strings.Contains(analysis, "`A1` — A から 1 取る") {
		t.Errorf("the analysis's winning move:\n%s", analysis)
	}
	played := text(s.command(alice, "move", "notation", "A1"))
	if !strings.Contains(played, "A から 1 取る") {
		t.Errorf("the move log:\n%s", played)
	}
	for _, got := range append(labels, hint, analysis, played) {
		if strings.Contains(got, "取った") {
			t.Errorf("a move in the past tense: %q", got)
		}
	}
}
