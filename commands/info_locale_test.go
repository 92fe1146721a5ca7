package commands

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// TestInfoLocalized answers /nim rules (every variant), stats, leaderboard
// and /nim start's and the challenge buttons' refusals in every shipped
// language: each answer is in that language (the catalog's text, not
// English), stays inside Discord's limits, and no start.*, info.* message
// falls back to English because a language lacks it.
func TestInfoLocalized(t *testing.T) {
	for _, lang := range locale.Languages() {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t, 3)
			p := locale.For(lang)
			send := func(who, sub string, kv ...any) *discordgo.InteractionResponse {
				t.Helper()
				f := fields{UserID: who, Sub: sub, Options: opts(kv...), Type: 2}
				for k := 0; k+1 < len(kv); k += 2 {
					if u, ok := kv[k+1].(user); ok {
						f.Resolved = fmt.Sprintf(`{"users": {%q: {"id": %q, "username": %q, "discriminator": "0", "avatar": null, "bot": %t, "public_flags": 0}}}`, string(u), string(u), usernames[string(u)], u == botUser)
					}
				}
				i := h.interaction("application_command.json", f)
				i.Locale = discordgo.Locale(lang)
				resp := h.handle(i)
				h.boardSent(resp)
				if bad := limitViolations(resp); len(bad) > 0 {
					t.Errorf("/nim %s %v: %v", sub, kv, bad)
				}
				return resp
			}
			want := func(resp *discordgo.InteractionResponse, id string, args ...any) {
				t.Helper()
				if s := p.T(id, args...); !strings.Contains(text(resp), s) {
					t.Errorf("%s: want %q in\n%s", id, s, text(resp))
				}
			}
			for _, v := range engine.Variants() {
				resp := send(alice, "rules", "variant", string(v))
				want(resp, variantTitleID(v))
				if d, _ := engine.Describe(v); !strings.Contains(text(resp), p.Phrase(d.NotationPhrase())) {
					t.Errorf("rules of %s: no notation %q in\n%s", v, p.Phrase(d.NotationPhrase()), text(resp))
				}
				if !strings.Contains(text(resp), "`/nim "+p.T("nim.start.name")+" "+p.T("opt.variant.name")+":"+string(v)+"`") {
					t.Errorf("rules of %s: no start command in\n%s", v, text(resp))
				}
			}
			want(send(alice, "stats"), "info.stats.none", "StartCommand", subName(subStart))
			want(send(alice, "leaderboard"), "info.leaderboard.empty", "StartCommand", subName(subStart))

			want(send(alice, "start", "hints", false), "start.err.hints_vs_bot", "HintsOption", optionName(optHints))
			want(send(alice, "start", "opponent", user(alice)), "start.err.self", "OpponentOption", optionName(optOpponent))
			want(send(alice, "start", "opponent", user(botUser)), "start.err.opponent_bot", "Player", name(botUser), "OpponentOption", optionName(optOpponent))
			want(send(alice, "start", "opponent", user(bob), "difficulty", "easy"), "start.err.difficulty_vs_person")
			want(send(alice, "start", "heaps", "3 x"), "start.err.heaps_unreadable", "Text", "3 x")
			_, grouped := engine.ParseHeaps("2,500")
			want(send(alice, "start", "heaps", "2,500"), "start.err.heaps_ambiguous", "Text", "2,500", "Reason", engineReason(grouped))
			want(send(alice, "start", "heaps", "random 4 5"), "start.err.random_form", "Text", "random 4 5")
			want(send(alice, "start", "heaps", "random x"), "start.err.random_count", "Text", "x")
			want(send(alice, "start", "heaps", "random 13"), "start.err.random_too_many", "N", 13, "Max", maxBoardHeaps)
			want(send(alice, "start", "heaps", strings.Repeat("1 ", 13)), "start.err.too_many_heaps", "N", 13, "Max", maxBoardHeaps)
			want(send(alice, "start", "heaps", "3 10000"), "start.err.heap_too_big", "Heap", "B", "Size", 10000, "Max", maxBoardHeap, "AnalyzeCommand", subName(subAnalyze))
			want(send(alice, "start", "heaps", "0 0"), "start.err.no_moves")

			// A challenge, then the refusals around it.
			if resp := send(alice, "start", "opponent", user(bob)); isEphemeral(resp) {
				t.Fatalf("challenge refused: %s", text(resp))
			}
			g := h.game()
			want(send(carol, "start"), "start.err.busy_link.challenge", "Link", messageLink(g), "EndCommand", subName(subEnd))
			clickIn := func(who, customID string) *discordgo.InteractionResponse {
				i := h.interaction("message_component.json", fields{UserID: who, CustomID: customID, ComponentType: 2, MessageID: h.message})
				i.Locale = discordgo.Locale(lang)
				return h.handle(i)
			}
			want(clickIn(alice, AcceptControl{Game: g.ID}.CustomID()), "start.err.own_challenge", "Challenged", name(bob), "EndCommand", subName(subEnd))
			want(clickIn(carol, AcceptControl{Game: g.ID}.CustomID()), "start.err.not_challenged", "Challenged", name(bob), "StartCommand", subName(subStart))
			clickIn(bob, DeclineControl{Game: g.ID}.CustomID())
			want(clickIn(bob, AcceptControl{Game: g.ID}.CustomID()), "start.err.challenge_over.declined", "StartCommand", subName(subStart))

			// A finished game against nimbot, for stats and the leaderboard.
			send(alice, "start", "heaps", "1", "first", "me")
			send(alice, "resign")
			st := send(alice, "stats")
			want(st, "info.stats.title")
			want(st, "info.stats.losses", "Count", 1)
			for _, id := range locale.Missing() {
				if l, msg, _ := strings.Cut(id, " "); l == lang && (strings.HasPrefix(msg, "start.") || strings.HasPrefix(msg, "info.")) {
					t.Errorf("%s lacks %s", l, msg)
				}
			}
		})
	}
}
