package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestPayloads plays games against a real in-process server, channels
// against nimbot and between people, on boards with buttons and with
// menus, and reads every interaction the client sends as discordgo reads
// Discord's: of its type, from its user, in its channel, and a click with
// the board message it was made on.
func TestPayloads(t *testing.T) {
	ctx := context.Background()
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := startServer(ctx, filepath.Join(t.TempDir(), "nimbot.db"), priv.Public().(ed25519.PublicKey), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	seen := map[string]int{}
	for _, heaps := range [][]int64{{3, 4, 5}, {9, 16, 25}} {
		o, err := parseFlags([]string{"-channels", "2", "-people", "0.5"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		l := newLoader([]string{srv.url}, priv, o, heaps, srv)
		defer l.close()
		for _, p := range l.players {
			for step := 0; step < 40; step++ {
				if step == 25 {
					p.recover() // ask for the board with /nim status
				}
				before := p.b
				rq := p.next()
				var i discordgo.Interaction
				if err := json.Unmarshal(rq.body, &i); err != nil {
					t.Fatalf("%s: %v in %s", rq.what, err, rq.body)
				}
				if i.ID != rq.id || i.Token != rq.token || i.ChannelID != p.channel || i.GuildID != p.guild ||
					i.Member == nil || i.Member.User == nil || i.Member.User.ID != rq.user {
					t.Fatalf("%s: read as %+v", rq.what, i)
				}
				switch rq.what {
				case "start", "status":
					if i.Type != discordgo.InteractionApplicationCommand || i.ApplicationCommandData().Name != "nim" ||
						i.ApplicationCommandData().Options[0].Name != rq.what {
						t.Fatalf("%s: read as %+v", rq.what, i.Data)
					}
				default:
					d := i.MessageComponentData()
					if i.Type != discordgo.InteractionMessageComponent || before == nil {
						t.Fatalf("%s: type %d", rq.what, i.Type)
					}
					if i.Message == nil || i.Message.ID != before.msgID || len(i.Message.Components) == 0 {
						t.Fatalf("%s: the click carries no board message: %+v", rq.what, i.Message)
					}
					if len(d.Values) == 1 {
						seen["menu"]++
					} else {
						seen["button"]++
					}
				}
				seen[rq.what]++
				if p.isPeople() {
					seen["people"]++
				}
				res := p.send(ctx, rq, nil)
				if res.err != nil || res.status != 200 {
					t.Fatalf("%s: %v, HTTP %d", rq.what, res.err, res.status)
				}
				if err := p.receive(rq, res, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, k := range []string{"start", "status", "move", "heap", "accept", "rematch", "button", "menu", "people"} {
		if seen[k] == 0 {
			t.Errorf("no %s interaction was played: %v", k, seen)
		}
	}
	t.Log(seen)
}

// TestMentioned: the user a board between people names, read from its
// embeds.
func TestMentioned(t *testing.T) {
	b := &board{embeds: []byte(`[{"title":"Nim","description":"\u003c@111\u003e challenges \u003c@222\u003e"},{"description":"\u003c@!333\u003e to move"}]`)}
	if got := b.mentioned(challenged, "def"); got != "222" {
		t.Errorf("challenged: %q", got)
	}
	if got := b.mentioned(toMove, "def"); got != "333" {
		t.Errorf("to move: %q", got)
	}
	for _, embeds := range []string{``, `null`, `[]`, `[{"description":5}]`, `[{"description":"nobody"}]`, `{`} {
		b := &board{embeds: []byte(embeds)}
		if got := b.mentioned(toMove, "def"); got != "def" {
			t.Errorf("%q: %q, want the default", embeds, got)
		}
	}
}
