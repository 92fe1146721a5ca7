package commands_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
)

// TestRoute: every route name comes from nimbot's own commands and control
// kinds; whatever else a client sends is "other", so counts by route stay
// as few as the routes.
func TestRoute(t *testing.T) {
	sub := func(name string) []*discordgo.ApplicationCommandInteractionDataOption {
		return []*discordgo.ApplicationCommandInteractionDataOption{{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand}}
	}
	click := func(id string) *discordgo.Interaction {
		return &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: id}}
	}
	for _, tc := range []struct {
		i    *discordgo.Interaction
		want string
	}{
		{&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{Name: "nim", Options: sub("start")}}, "nim/start"},
		{&discordgo.Interaction{Type: discordgo.InteractionApplicationCommandAutocomplete, Data: discordgo.ApplicationCommandInteractionData{Name: "nim", Options: sub("move")}}, "autocomplete/nim/move"},
		{&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{Name: "nim", Options: sub("x" + strings.Repeat("y", 30))}}, "other"},
		{&discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Data: discordgo.ApplicationCommandInteractionData{Name: "other-bot"}}, "other"},
		{click(commands.AcceptControl{Game: 7}.CustomID()), "accept"},
		{click("accept/not-a-number"), "accept"},
		{click("made-up/1/2"), "other"},
		{click(strings.Repeat("z", 100)), "other"},
		{&discordgo.Interaction{Type: discordgo.InteractionMessageComponent}, "other"},
		{&discordgo.Interaction{Type: 99}, "other"},
	} {
		if got := commands.Route(tc.i); got != tc.want {
			t.Errorf("Route(%+v) = %q, want %q", tc.i.Data, got, tc.want)
		}
	}
}
