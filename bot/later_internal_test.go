package bot

import (
	"encoding/json"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// boardAnswer is the answer nimbot gives /nim start 3 4 5 (testdata/board.json,
// as commands renders it), its components decoded as discordgo decodes a
// message's: pointers to rows, buttons and menus.
func boardAnswer(t testing.TB) *discordgo.InteractionResponse {
	t.Helper()
	raw, err := os.ReadFile("testdata/board.json")
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data struct {
			Flags      discordgo.MessageFlags `json:"flags"`
			Embeds     []*discordgo.MessageEmbed
			Components []json.RawMessage `json:"components"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	resp := &discordgo.InteractionResponse{Type: body.Type, Data: &discordgo.InteractionResponseData{Flags: body.Data.Flags, Embeds: body.Data.Embeds}}
	for _, c := range body.Data.Components {
		mc, err := discordgo.MessageComponentFromJSON(c)
		if err != nil {
			t.Fatal(err)
		}
		resp.Data.Components = append(resp.Data.Components, mc)
	}
	return resp
}

// control is a button or menu as BoardWanted sees it.
type control struct {
	menu bool
	id   string
}

// rowsOf lists the action rows of cs and their buttons' and menus'
// custom ids, whether the rows and controls are values or pointers.
func rowsOf(t *testing.T, cs []discordgo.MessageComponent) [][]control {
	t.Helper()
	var rows [][]control
	for _, c := range cs {
		row, ok := actionsRow(c)
		if !ok {
			continue
		}
		var got []control
		for _, cc := range row.Components {
			switch v := cc.(type) {
			case discordgo.Button:
				got = append(got, control{false, v.CustomID})
			case *discordgo.Button:
				got = append(got, control{false, v.CustomID})
			case discordgo.SelectMenu:
				got = append(got, control{true, v.CustomID})
			case *discordgo.SelectMenu:
				got = append(got, control{true, v.CustomID})
			default:
				t.Fatalf("a %T in a row", cc)
			}
		}
		rows = append(rows, got)
	}
	return rows
}

// TestTrimFetch: a waiting fetch, trimmed and rebuilt, gives BoardWanted
// and the fetch the interaction's ids and token and the answer's type,
// flags and controls (kind and custom id, row by row), whatever bytes the
// ids hold, and nothing else.
func TestTrimFetch(t *testing.T) {
	i := &discordgo.Interaction{
		ID: "1180000000000000300", AppID: "1170000000000000001", Token: strings.Repeat("aW50ZXJhY3Rpb246", 12),
		Type: discordgo.InteractionApplicationCommand, ChannelID: "1190000000000000010", GuildID: "1190000000000000001",
		Locale: discordgo.German, Member: &discordgo.Member{User: &discordgo.User{ID: "53908232506183680"}},
	}
	odd := []string{"", "[", "]", "\x80\xff\x00", strings.Repeat("é", 50), strings.Repeat("x", 200)}
	cases := map[string]*discordgo.InteractionResponse{
		"board of 3 4 5": boardAnswer(t),
		"values, odd ids": {Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Flags: discordgo.MessageFlagsSuppressEmbeds,
			Components: []discordgo.MessageComponent{
				discordgo.TextDisplay{Content: "not a row"},
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{CustomID: odd[0]}, discordgo.SelectMenu{CustomID: odd[1]}, discordgo.Button{CustomID: odd[2]},
				}},
				discordgo.ActionsRow{},
				&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					&discordgo.SelectMenu{CustomID: odd[3]}, discordgo.Button{CustomID: odd[4]}, &discordgo.Button{CustomID: odd[5]},
				}},
			},
		}},
		"ephemeral, no components": {Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}},
		"no data": {Type: discordgo.InteractionResponseDeferredChannelMessageWithSource},
	}
	for name, resp := range cases {
		t.Run(name, func(t *testing.T) {
			due := time.Now().Add(time.Minute)
			f := trimFetch(i, resp, due)
			if !f.due.Equal(due) {
				t.Errorf("due %v, want %v", f.due, due)
			}
			gi, gr := f.i, f.answer()
			want := discordgo.Interaction{ID: i.ID, AppID: i.AppID, Token: i.Token, Type: i.Type, ChannelID: i.ChannelID, GuildID: i.GuildID}
			if gi.ID != want.ID || gi.AppID != want.AppID || gi.Token != want.Token || gi.Type != want.Type ||
				gi.ChannelID != want.ChannelID || gi.GuildID != want.GuildID || gi.Member != nil || gi.Locale != "" {
				t.Errorf("interaction %+v, want %+v", *gi, want)
			}
			if gr.Type != resp.Type {
				t.Errorf("answer type %d, want %d", gr.Type, resp.Type)
			}
			if (gr.Data == nil) != (resp.Data == nil) {
				t.Fatalf("answer data %v, want %v", gr.Data, resp.Data)
			}
			if resp.Data == nil {
				return
			}
			if gr.Data.Flags != resp.Data.Flags || gr.Data.Embeds != nil || gr.Data.Content != "" {
				t.Errorf("answer data flags %d embeds %d content %q, want flags %d and no more", gr.Data.Flags, len(gr.Data.Embeds), gr.Data.Content, resp.Data.Flags)
			}
			if got, want := rowsOf(t, gr.Data.Components), rowsOf(t, resp.Data.Components); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("controls %+v, want %+v", got, want)
			}
		})
	}
}

// BenchmarkFetchLaterHeld is what the queue of delayed fetches holds on the
// heap per waiting board of 3 4 5, beyond its ring, with 4,096 waiting:
// bytes, and objects, which the collector marks at every cycle.
func BenchmarkFetchLaterHeld(b *testing.B) {
	i := &discordgo.Interaction{ID: "1180000000000000300", AppID: "1170000000000000001", Token: strings.Repeat("aW50ZXJhY3Rpb246", 12),
		Type: discordgo.InteractionApplicationCommand, ChannelID: "1190000000000000010", GuildID: "1190000000000000001"}
	const waiting = 4096
	var held, objects float64
	for b.Loop() {
		b.StopTimer()
		var q delayedFetches
		q.init(time.Hour, waiting)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		// The answers are garbage once sent: what stays is what the queue
		// keeps of them.
		answers := make([]*discordgo.InteractionResponse, waiting)
		for k := range answers {
			answers[k] = boardAnswer(b)
		}
		b.StartTimer()
		for k, a := range answers {
			q.ring[k] = trimFetch(i, a, time.Now())
		}
		b.StopTimer()
		answers = nil
		runtime.GC()
		runtime.ReadMemStats(&after)
		held += float64(after.HeapAlloc) - float64(before.HeapAlloc)
		objects += float64(after.HeapObjects) - float64(before.HeapObjects)
		runtime.KeepAlive(&q)
		b.StartTimer()
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(held/float64(b.N)/waiting, "held-B/fetch")
	b.ReportMetric(objects/float64(b.N)/waiting, "held-objects/fetch")
}
