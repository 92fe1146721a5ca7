package commands

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestSentResponses holds every shape of response nimbot sends, with text
// encoding/json must escape (quotes, HTML characters, U+2028 and U+2029,
// control characters), its controls held by value (as
// rendered) and by pointer (as a saved answer decodes): each is within
// Discord's limits once encoded, encodes to the same bytes when saved and
// served again, and keeps its text and its controls.
func TestSentResponses(t *testing.T) {
	one := 1
	hostile := "a\"b\\c<d>e&f\u2028g\u2029h\x00\x01\x1f\b\f\n\r\t\x7f é 💡 end"
	row := func(c ...discordgo.MessageComponent) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: c}
	}
	mentions := &discordgo.MessageAllowedMentions{Users: []string{"123456789012345678"}}
	board := &discordgo.InteractionResponseData{
		Content: hostile, AllowedMentions: mentions,
		Embeds: []*discordgo.MessageEmbed{{
			Title: hostile, Description: hostile, Color: 0x5865F2, Type: discordgo.EmbedTypeRich,
			Footer: &discordgo.MessageEmbedFooter{Text: hostile},
			Author: &discordgo.MessageEmbedAuthor{Name: hostile},
			Fields: []*discordgo.MessageEmbedField{{Name: hostile, Value: hostile, Inline: true}, {Name: "n", Value: "v"}},
		}},
		Components: []discordgo.MessageComponent{
			row(discordgo.Button{Label: hostile, CustomID: "a"}, // style 0 goes out as primary
				discordgo.Button{Label: "e", Style: discordgo.DangerButton, Disabled: true, CustomID: "b",
					Emoji: &discordgo.ComponentEmoji{Name: "🔁"}},
				&discordgo.Button{Style: discordgo.SecondaryButton, CustomID: "c&<d>", Emoji: &discordgo.ComponentEmoji{Name: "x"}}),
			&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				&discordgo.SelectMenu{CustomID: "m", Placeholder: hostile, MinValues: &one, MaxValues: 1, Options: []discordgo.SelectMenuOption{
					{Label: hostile, Value: "v", Description: hostile, Default: true},
					{Label: "w", Value: "w", Emoji: &discordgo.ComponentEmoji{Name: "x"}},
				}},
			}},
		},
	}
	modal := &discordgo.InteractionResponseData{CustomID: "modal", Title: "t", Components: []discordgo.MessageComponent{
		row(discordgo.TextInput{CustomID: "i", Label: "l", Style: discordgo.TextInputShort, Placeholder: "p", Value: hostile,
			Required: true, MinLength: 1, MaxLength: 100}),
	}}
	for name, resp := range map[string]*discordgo.InteractionResponse{
		"pong":     {Type: discordgo.InteractionResponsePong},
		"deferred": {Type: discordgo.InteractionResponseDeferredMessageUpdate},
		"board":    {Type: discordgo.InteractionResponseChannelMessageWithSource, Data: board},
		"update":   {Type: discordgo.InteractionResponseUpdateMessage, Data: board},
		// [] removes every control, null leaves them: they must stay apart.
		"no controls": {Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Content: "over", Components: []discordgo.MessageComponent{}, Embeds: []*discordgo.MessageEmbed{}}},
		"ephemeral": {Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
			Content: hostile, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: &discordgo.MessageAllowedMentions{}}},
		"modal": {Type: discordgo.InteractionResponseModal, Data: modal},
		"autocomplete": {Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &discordgo.InteractionResponseData{
			Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: hostile, Value: "3 4 5"}, {Name: "n", Value: 7}}}},
	} {
		t.Run(name, func(t *testing.T) {
			if bad := limitViolations(resp); len(bad) > 0 {
				t.Fatalf("the case itself breaks Discord's limits: %v", bad)
			}
			dec := sent(t, resp)
			for _, v := range limitViolations(dec) {
				t.Errorf("encoded, Discord would refuse it: %s", v)
			}
			if dec.Type != resp.Type || (dec.Data == nil) != (resp.Data == nil) {
				t.Fatalf("type or data lost: %+v", dec)
			}
			if resp.Data == nil {
				return
			}
			if got, want := text(dec), text(resp); got != want {
				t.Errorf("text changed:\n got %q\nwant %q", got, want)
			}
			if got, want := strings.Join(customIDs(dec), " "), strings.Join(customIDs(resp), " "); got != want {
				t.Errorf("controls changed: got %q, want %q", got, want)
			}
			if (dec.Data.Components == nil) != (resp.Data.Components == nil) || len(dec.Data.Components) != len(resp.Data.Components) {
				t.Errorf("components %v, want %v", dec.Data.Components, resp.Data.Components)
			}
		})
	}
}
