package terminal

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestRendererText(t *testing.T) {
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	r := renderer{names: map[string]string{"11": "player1"}, now: func() time.Time { return now }}
	in1h := now.Add(time.Hour).Unix()
	tests := []struct{ in, want string }{
		{"<@11> to move", "@player1 to move"},
		{"<@!11> and <@99>", "@player1 and @99"},
		{"**bold** and `A2`", "bold and A2"},
		{"move <t:" + itoa(in1h) + ":R>", "move in 1 hour"},
		{"ended <t:" + itoa(now.Add(-3*time.Minute).Unix()) + ":R>", "ended 3 minutes ago"},
		{"at <t:" + itoa(in1h) + ":f>", "at 04:00 UTC, Nov 22"},
		{"<:stone:123> <a:spin:456>", ":stone: :spin:"},
		{"```\nA ●●●\n```", "A ●●●"},
		{"-# small print\nnot small", "small print\nnot small"},
		// User text is echoed escaped (commands' escapeMarkdown): shown as typed.
		{"cannot read \"\\*\\*x\\*\\*\\`y\\`\\@everyone\\<\\@11\\> a\\\\b\"", "cannot read \"**x**`y`@everyone<@11> a\\b\""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := r.text(tt.in); got != tt.want {
				t.Errorf("text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestRendererMessage prints an embed and numbers the components across
// rows, marking disabled ones and links, whatever Go types they were built
// with (the JSON trip gives them their decoded types).
func TestRendererMessage(t *testing.T) {
	min1 := 1
	resp := discordgo.InteractionResponseData{
		Content: "hello <@11>",
		Embeds: []*discordgo.MessageEmbed{{
			Title: "Nim", Description: "A │ ●●● 3",
			Fields: []*discordgo.MessageEmbedField{{Name: "Turn", Value: "<@11>"}, {Name: "Log", Value: "1. a\n2. b"}},
			Footer: &discordgo.MessageEmbedFooter{Text: "Game #1"},
		}},
		Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "A · 3", CustomID: "a"},
				&discordgo.Button{Label: "B · 0", CustomID: "b", Disabled: true},
				discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.com"},
			}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.SelectMenu{CustomID: "m", Placeholder: "Pick", MinValues: &min1, Options: []discordgo.SelectMenuOption{{Label: "C", Value: "2", Default: true}}},
			}},
		},
		Flags: discordgo.MessageFlagsEphemeral,
	}
	raw, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var m discordgo.Message
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	items := renderer{names: map[string]string{"11": "player1"}}.message(&out, &m, true, "nimbot")
	want := `--- nimbot (only you can see this) ---
hello @player1
== Nim ==
A │ ●●● 3
Turn: @player1
Log:
  1. a
  2. b
(Game #1)
[1] A · 3  [2] B · 0 (disabled)  [3] Rules <https://example.com>
[4] Pick ▾ C

`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if len(items) != 4 {
		t.Fatalf("%d items, want 4", len(items))
	}
	if b, ok := items[1].component.(*discordgo.Button); !ok || b.CustomID != "b" || !b.Disabled {
		t.Errorf("item 2 = %#v", items[1].component)
	}
	if s, ok := items[3].component.(*discordgo.SelectMenu); !ok || s.CustomID != "m" {
		t.Errorf("item 4 = %#v", items[3].component)
	}
}

func TestRelative(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{30 * time.Second, "in 30 seconds"},
		{time.Minute, "in 1 minute"},
		{59*time.Minute + 59*time.Second, "in 59 minutes"},
		{24 * time.Hour, "in 24 hours"},
		{72 * time.Hour, "in 3 days"},
		{-2 * time.Hour, "2 hours ago"},
	}
	for _, tt := range tests {
		if got := relative(tt.d); got != tt.want {
			t.Errorf("relative(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
