package terminal

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
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
		{"at <t:" + itoa(in1h) + ":f>", "at 2026-11-22 04:00 UTC"},
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

// TestRendererSpeaksClientLanguage: what Discord's client draws around a
// message (a timestamp's words, the ephemeral note, a disabled button's
// and a default option's marks) comes in the session's language, as a
// Discord client in that language draws it; the message itself is the
// service's and stays as sent.
func TestRendererSpeaksClientLanguage(t *testing.T) {
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	at := func(d time.Duration, style string) string {
		return "<t:" + itoa(now.Add(d).Unix()) + ":" + style + ">"
	}
	m := &discordgo.Message{
		Content: "Zug " + at(59*time.Minute+30*time.Second, "R") + ", seit " + at(-time.Minute, "R") + ", um " + at(time.Hour, "f"),
		Components: []discordgo.MessageComponent{
			&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				&discordgo.Button{Label: "A · 0", CustomID: "a", Disabled: true},
				&discordgo.SelectMenu{CustomID: "m", Placeholder: "Zug", Disabled: true},
			}},
		},
	}
	menu := &discordgo.SelectMenu{Options: []discordgo.SelectMenuOption{{Label: "A1", Value: "A1", Default: true}}}
	for _, tc := range []struct {
		lang string
		want string
	}{
		{"en-US", "--- nimbot (only you can see this) ---\nZug in 59 minutes, seit 1 minute ago, um 2026-11-22 04:00 UTC\n[1] A · 0 (disabled)  [2] Zug ▾ (disabled)\n\n  (1) A1 (default)\n"},
		{"de", "--- nimbot (nur du kannst das sehen) ---\nZug in 59 Minuten, seit vor 1 Minute, um 22.11.2026, 04:00 UTC\n[1] A · 0 (deaktiviert)  [2] Zug ▾ (deaktiviert)\n\n  (1) A1 (Standard)\n"},
		{"ja", "--- nimbot （これはあなただけに表示されています） ---\nZug 59 分後, seit 1 分前, um 2026/11/22 04:00（UTC）\n[1] A · 0 （無効）  [2] Zug ▾ （無効）\n\n  (1) A1 （既定）\n"},
	} {
		r := renderer{now: func() time.Time { return now }, client: commands.ClientTextFor(tc.lang)}
		var out bytes.Buffer
		r.message(&out, m, true, "nimbot")
		r.menuOptions(&out, menu)
		if out.String() != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.lang, out.String(), tc.want)
		}
	}
}
