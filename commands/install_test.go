package commands

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// TestStartKeepsLocale: a game speaks the challenger's language, whoever
// clicks later; a locale no Discord client sends is not kept.
func TestStartKeepsLocale(t *testing.T) {
	for _, tc := range []struct{ sent, want string }{
		{"de", "de"},
		{"pt-BR", "pt-BR"},
		{"", ""},
		{strings.Repeat("x", match.MaxLocale+1), ""},
	} {
		t.Run(tc.sent, func(t *testing.T) {
			h := newHarness(t, 1)
			i := h.interaction("application_command.json", fields{UserID: alice, Sub: "start", Options: opts("first", "me"), Type: 2})
			i.Locale = discordgo.Locale(tc.sent)
			if resp := h.handle(i); isEphemeral(resp) {
				t.Fatalf("start refused: %s", text(resp))
			}
			if got := h.game().Locale; got != tc.want {
				t.Fatalf("game locale %q, want %q", got, tc.want)
			}
		})
	}
}
