package commands

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestHintSpeaksUserLanguage: a hint's verdict, explanation, table and
// the move it suggests come in the asking user's language.
func TestHintSpeaksUserLanguage(t *testing.T) {
	h := newHarness(t, 1)
	h.command(alice, "start", "first", "me")
	i := h.interaction("application_command.json", fields{UserID: alice, Sub: "hint", Options: opts("level", 3), Type: 2})
	i.Locale = "de"
	got := text(h.handle(i))
	for _, want := range []string{"stellung: ", "Haufen", "```", "nimmt "} {
		if !strings.Contains(got, want) {
			t.Errorf("German hint lacks %q:\n%s", want, got)
		}
	}
	for _, english := range []string{"Winning:", "Losing:", "takes "} {
		if strings.Contains(got, english) {
			t.Errorf("German hint has English %q:\n%s", english, got)
		}
	}
}

// TestMoveLogSpeaksGameLanguage: the board's move log describes each move
// in the game's language, whoever played it.
func TestMoveLogSpeaksGameLanguage(t *testing.T) {
	h := newHarness(t, 1)
	start := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Options: opts("first", "me"), Type: 2})
	start.Locale = "de"
	h.boardSent(h.handle(start))
	g := h.game()
	m := winningMove(t, g)
	value, _ := json.Marshal(g.Rules.FormatMove(g.Position, m))
	submit := fields{UserID: alice, CustomID: TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), Value: string(value), ID: "1390000000000000078"}
	got := text(h.handle(h.interaction("modal_submit.json", submit)))
	if !strings.Contains(got, "nimmt ") || strings.Contains(got, "takes ") {
		t.Fatalf("move log not in German:\n%s", got)
	}
}
