package commands

import (
	"encoding/json"
	"reflect"
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

// TestDefinitionInstalls: /nim is declared for both installs (server and
// user) and all three contexts (server, DM with nimbot, other DMs and group
// DMs), as the JSON Discord receives says.
func TestDefinitionInstalls(t *testing.T) {
	defs := Definitions()
	if len(defs) != 1 {
		t.Fatalf("%d definitions", len(defs))
	}
	b, err := json.Marshal(defs[0])
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		IntegrationTypes []int `json:"integration_types"`
		Contexts         []int `json:"contexts"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.IntegrationTypes, []int{0, 1}) || !reflect.DeepEqual(got.Contexts, []int{0, 1, 2}) {
		t.Fatalf("integration_types %v, contexts %v; want [0 1], [0 1 2]", got.IntegrationTypes, got.Contexts)
	}
}
