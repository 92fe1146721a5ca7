package bot

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// boardClick is a select-menu click on a board, as Discord sends it: the
// message it was on comes whole, embeds and components included.
const boardClick = `{"app_permissions":"562949953601536","application_id":"1170000000000000001",
"channel":{"id":"1190000000000000010","guild_id":"1190000000000000001","name":"nim","type":0},
"channel_id":"1190000000000000010","context":0,"data":{"component_type":3,"custom_id":"play/7/0/all","values":["C5"]},
"entitlements":[],"guild_id":"1190000000000000001","guild_locale":"en-US","id":"1180000000000000401","locale":"en-US",
"member":{"user":{"id":"1190000000000000100","username":"alice","global_name":"Alice","discriminator":"0","avatar":null,"public_flags":0},
"roles":[],"joined_at":"2024-05-01T12:00:00.000000+00:00","permissions":"2248473465835073","deaf":false,"mute":false,"flags":0,"pending":false},
"message":{"id":"1180000000000000500","channel_id":"1190000000000000010","application_id":"1170000000000000001","type":20,
"author":{"id":"1170000000000000001","username":"nimbot","discriminator":"0000","bot":true,"avatar":null},"content":"",
"components":[{"type":1,"components":[{"type":2,"style":2,"label":"A · 3","custom_id":"heap/7/0/0"}]},
{"type":1,"components":[{"type":3,"custom_id":"play/7/0/all","placeholder":"Or any move in one click","options":[{"label":"takes 5 from C","value":"C5","description":"typed as C5"}]}]}],
"embeds":[{"title":"Nim","description":"<@1190000000000000100> to move","color":5793266,"fields":[{"name":"A","value":"3","inline":true}]}],
"attachments":[],"mentions":[],"mention_roles":[],"pinned":false,"tts":false,"timestamp":"2026-01-01T12:00:00.000000+00:00","edited_timestamp":null,"flags":0},
"token":"tok","type":3,"version":1}`

// TestDecodeInteraction: decodeInteraction gives what discordgo's own
// decoding gives for every fixture (Discord's documented payloads) and a
// board click, except the attached message, of which it keeps the id,
// channel, flags and its components' custom ids only.
func TestDecodeInteraction(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	files = append(files, "board click")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			body := []byte(boardClick)
			if f != "board click" {
				var err error
				if body, err = os.ReadFile(f); err != nil {
					t.Fatal(err)
				}
			}
			var want, got discordgo.Interaction
			if err := json.Unmarshal(body, &want); err != nil {
				t.Fatal(err)
			}
			if err := decodeInteraction(body, &got); err != nil {
				t.Fatal(err)
			}
			if want.Message != nil {
				if got.Message == nil || got.Message.ID != want.Message.ID || got.Message.ChannelID != want.Message.ChannelID || got.Message.ID == "" ||
					got.Message.Flags != want.Message.Flags {
					t.Fatalf("message %+v, want id %q channel %q flags %d", got.Message, want.Message.ID, want.Message.ChannelID, want.Message.Flags)
				}
				if g, w := customIDs(got.Message.Components), customIDs(want.Message.Components); !reflect.DeepEqual(g, w) {
					t.Fatalf("message components' custom ids %q, want %q", g, w)
				}
				want.Message = &discordgo.Message{ID: want.Message.ID, ChannelID: want.Message.ChannelID, Flags: want.Message.Flags,
					Components: got.Message.Components}
			} else if got.Message != nil {
				t.Fatalf("a message where there is none: %+v", got.Message)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
			}
		})
	}
	var i discordgo.Interaction
	for _, bad := range []string{`{`, `{"type":3,"data":[]}`, `{"type":2,"data":"x"}`, `{"type":5,"data":{"components":7}}`, `{"message":[]}`} {
		if err := decodeInteraction([]byte(bad), &i); err == nil {
			t.Errorf("no error for %s", bad)
		}
	}
}

// TestDecodeMessageFlags: a click on an ephemeral message (a hint's "Show
// the move", testdata/component_ephemeral.json) keeps the message's flags,
// as discordgo's decoding does: they decide whether the click updates the
// hint in place or posts a new one. The fast path decodes it itself.
func TestDecodeMessageFlags(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "component_ephemeral.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want discordgo.Interaction
	if err := json.Unmarshal(body, &want); err != nil {
		t.Fatal(err)
	}
	if want.Message == nil || want.Message.Flags != discordgo.MessageFlagsEphemeral {
		t.Fatalf("the fixture's message is not ephemeral: %+v", want.Message)
	}
	var fast, std discordgo.Interaction
	if !decodeFast(body, &fast) {
		t.Fatal("decodeFast left the click to encoding/json")
	}
	if err := decodeStd(body, &std); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]*discordgo.Message{"decodeFast": fast.Message, "decodeStd": std.Message} {
		switch {
		case got == nil:
			t.Errorf("%s: no message", name)
		case got.Flags != discordgo.MessageFlagsEphemeral:
			t.Errorf("%s: message flags %d, want %d", name, got.Flags, discordgo.MessageFlagsEphemeral)
		}
	}
}

// BenchmarkDecodeClick is decoding a board click: discordgo's whole
// Interaction (board message included), and decodeInteraction.
func BenchmarkDecodeClick(b *testing.B) {
	body := []byte(boardClick)
	b.Run("discordgo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var i discordgo.Interaction
			if err := json.Unmarshal(body, &i); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lean", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var i discordgo.Interaction
			if err := decodeInteraction(body, &i); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkVerify is checking a click's signature: through
// discordgo.VerifyInteraction (which copies the body twice), and as
// HTTP.verify does it.
func BenchmarkVerify(b *testing.B) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	body := []byte(boardClick)
	now := time.Now()
	ts := strconv.FormatInt(now.Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), body...)))
	req := func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
		r.Header.Set("X-Signature-Ed25519", sig)
		r.Header.Set("X-Signature-Timestamp", ts)
		return r
	}
	b.Run("VerifyInteraction", func(b *testing.B) {
		for b.Loop() {
			if !discordgo.VerifyInteraction(req(), pub) {
				b.Fatal("bad signature")
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		h := NewHTTP(HTTPConfig{PublicKey: pub, Now: func() time.Time { return now }})
		for b.Loop() {
			if why := h.verify(req(), body); why != "" {
				b.Fatal(why)
			}
		}
	})
}

// customIDs is the custom ids of the buttons and select menus in each
// action row of cs, as discordgo decodes them or messageComponents makes
// them.
func customIDs(cs []discordgo.MessageComponent) [][]string {
	var rows [][]string
	for _, c := range cs {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		ids := []string{}
		for _, cc := range row.Components {
			switch v := cc.(type) {
			case *discordgo.Button:
				ids = append(ids, v.CustomID)
			case *discordgo.SelectMenu:
				ids = append(ids, v.CustomID)
			}
		}
		rows = append(rows, ids)
	}
	return rows
}
