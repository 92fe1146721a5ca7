package commands

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// checkEncoding checks that encodeResponse writes resp exactly as
// encoding/json does (discordgo's MarshalJSON methods included), and that
// it wrote it itself unless resp holds what appendResponse leaves to
// encoding/json (autocomplete choices are the only such answer nimbot
// gives).
func checkEncoding(t testing.TB, resp *discordgo.InteractionResponse) {
	t.Helper()
	want, err := json.Marshal(resp)
	if err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	got, err := encodeResponse(resp)
	if err != nil {
		t.Fatalf("encodeResponse: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("encodeResponse differs from encoding/json:\n got %s\nwant %s", got, want)
	}
	if _, ok := appendResponse(nil, resp); !ok && (resp.Data == nil || len(resp.Data.Choices) == 0) {
		t.Errorf("a response nimbot sends was left to encoding/json: %s", want)
	}
}

// TestEncodeResponse covers what the Service's answers may not: every
// field appendResponse writes, set and unset, values and pointers, strings
// encoding/json escapes, and the shapes it leaves to encoding/json.
func TestEncodeResponse(t *testing.T) {
	one := 1
	hostile := "a\"b\\c<d>e&f\u2028g\u2029h\x00\x01\x1f\b\f\n\r\t\x7f é 💡 \xff\xfe end"
	row := func(c ...discordgo.MessageComponent) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: c}
	}
	full := &discordgo.InteractionResponseData{
		TTS: true, Content: hostile, Flags: discordgo.MessageFlagsEphemeral, CustomID: "c", Title: "t",
		Components: []discordgo.MessageComponent{
			row(discordgo.Button{Label: hostile, CustomID: "x"}, // style 0 goes out as primary
				discordgo.Button{Label: "u", Style: discordgo.LinkButton, URL: "https://example.com/?a=1&b=<2>", Emoji: &discordgo.ComponentEmoji{}},
				discordgo.Button{Label: "e", Style: discordgo.DangerButton, Disabled: true, CustomID: "y", SKUID: "s", ID: 7,
					Emoji: &discordgo.ComponentEmoji{Name: "🔁", ID: "12", Animated: true}},
				&discordgo.Button{Label: "p", CustomID: "z", Emoji: &discordgo.ComponentEmoji{ID: "3"}}),
			discordgo.ActionsRow{ID: 3, Components: []discordgo.MessageComponent{
				discordgo.SelectMenu{Placeholder: hostile, MinValues: &one, MaxValues: 2, Disabled: true, ID: 4, MenuType: discordgo.UserSelectMenu},
			}},
			&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				&discordgo.SelectMenu{CustomID: "m", Options: []discordgo.SelectMenuOption{
					{Label: hostile, Value: "v", Description: "d", Default: true},
					{Value: "w", Emoji: &discordgo.ComponentEmoji{Name: "x"}},
				}},
			}},
			row(),
			discordgo.ActionsRow{},
			row(discordgo.TextInput{CustomID: "i", Label: "l", Style: discordgo.TextInputParagraph, Placeholder: "p", Value: hostile,
				Required: true, MinLength: 1, MaxLength: 100, ID: 9}, &discordgo.TextInput{}),
			nil,
		},
		Embeds: []*discordgo.MessageEmbed{
			{URL: "https://example.com", Type: discordgo.EmbedTypeRich, Title: hostile, Description: hostile, Timestamp: "2026-01-01T00:00:00Z", Color: -5,
				Footer: &discordgo.MessageEmbedFooter{Text: "f", IconURL: "i", ProxyIconURL: "p"},
				Author: &discordgo.MessageEmbedAuthor{URL: "u", Name: hostile, IconURL: "i", ProxyIconURL: "p"},
				Fields: []*discordgo.MessageEmbedField{{Name: "n", Value: hostile, Inline: true}, {}, nil}},
			{Footer: &discordgo.MessageEmbedFooter{}, Author: &discordgo.MessageEmbedAuthor{}},
			{Footer: &discordgo.MessageEmbedFooter{IconURL: "i"}},
			{},
			nil,
		},
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}, Roles: []string{"1"}, Users: []string{"2", "3"}, RepliedUser: true},
	}
	ok := []*discordgo.InteractionResponse{
		nil,
		{},
		{Type: discordgo.InteractionResponsePong},
		{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{}},
		{Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{}, Embeds: []*discordgo.MessageEmbed{},
			AllowedMentions: &discordgo.MessageAllowedMentions{}}},
		{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: full},
	}
	for _, resp := range ok {
		checkEncoding(t, resp)
	}
	// Left to encoding/json, and still the same bytes.
	attachments := []*discordgo.MessageAttachment{}
	left := []*discordgo.InteractionResponse{
		{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &discordgo.InteractionResponseData{
			Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: 1}}}},
		{Data: &discordgo.InteractionResponseData{Attachments: &attachments}},
		{Data: &discordgo.InteractionResponseData{Poll: &discordgo.Poll{}}},
		{Data: &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{{Image: &discordgo.MessageEmbedImage{URL: "x"}}}}},
		{Data: &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{{Thumbnail: &discordgo.MessageEmbedThumbnail{}}}}},
		{Data: &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{{Video: &discordgo.MessageEmbedVideo{}}}}},
		{Data: &discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{{Provider: &discordgo.MessageEmbedProvider{}}}}},
		{Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{discordgo.Section{}}}},
		{Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{
			DefaultValues: []discordgo.SelectMenuDefaultValue{{ID: "1", Type: discordgo.SelectMenuDefaultValueUser}}})}}},
		{Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{
			ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}})}}},
	}
	for _, resp := range left {
		if _, ok := appendResponse(nil, resp); ok {
			t.Errorf("appendResponse wrote a shape it does not know: %+v", resp.Data)
		}
		want, _ := json.Marshal(resp)
		got, err := encodeResponse(resp)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("left to encoding/json: got %s (%v), want %s", got, err, want)
		}
	}
	// The scratch buffer is not shared with what encodeResponse returns.
	a, _ := encodeResponse(&discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: strings.Repeat("a", 100)}})
	b, _ := encodeResponse(&discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: strings.Repeat("b", 100)}})
	if bytes.Contains(a, []byte("bbb")) || !bytes.Contains(a, []byte("aaa")) {
		t.Errorf("encodeResponse's results share memory: %s %s", a, b)
	}
}

// FuzzAppendString checks appendString against encoding/json on any string.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "<a href=\"x\">&amp;</a>", "\u2028\u2029", "\x00\x1f\x7f", "\xff\xc3", "é💡\U0010FFFF", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
