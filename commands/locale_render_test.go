package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/match"
)

// renderLangs are the languages the localization tests speak: every
// shipped one, and Discord locales that reach them through their base
// language (es-419 reads Spanish, en-GB English) or have none (zh-CN reads
// English).
func renderLangs() []string {
	return append(locale.Languages(), "es-419", "en-GB", "zh-CN")
}

// speaker is a harness whose every interaction carries one Discord locale,
// as a user of that language sends them.
type speaker struct {
	*harness
	lang string
}

func (s speaker) send(fixture string, f fields) *discordgo.InteractionResponse {
	s.t.Helper()
	i := s.interaction(fixture, f)
	i.Locale = discordgo.Locale(s.lang)
	resp := s.handle(i)
	checkLocalized(s.t, s.lang, resp)
	return resp
}

func (s speaker) command(who, sub string, kv ...any) *discordgo.InteractionResponse {
	s.t.Helper()
	f := fields{UserID: who, Sub: sub, Options: opts(kv...), Type: 2}
	for k := 0; k+1 < len(kv); k += 2 {
		if u, ok := kv[k+1].(user); ok {
			f.Resolved = fmt.Sprintf(`{"users": {%q: {"id": %q, "username": %q, "discriminator": "0", "avatar": null, "bot": false, "public_flags": 0}}}`, string(u), string(u), usernames[string(u)])
		}
	}
	resp := s.send("application_command.json", f)
	s.boardSent(resp)
	return resp
}

func (s speaker) click(who, customID string) *discordgo.InteractionResponse {
	s.t.Helper()
	resp := s.send("message_component.json", fields{UserID: who, CustomID: customID, ComponentType: 2, MessageID: s.message})
	s.boardSent(resp)
	return resp
}

func (s speaker) choose(who, customID string, values ...string) *discordgo.InteractionResponse {
	s.t.Helper()
	return s.send("message_component.json", fields{UserID: who, CustomID: customID, ComponentType: 3, Values: jsonList(values), MessageID: s.message})
}

func (s speaker) submit(who, customID, value string) *discordgo.InteractionResponse {
	s.t.Helper()
	return s.send("modal_submit.json", fields{UserID: who, CustomID: customID, Value: fmt.Sprintf("%q", value), MessageID: s.message})
}

func jsonList(vs []string) string {
	q := make([]string, len(vs))
	for k, v := range vs {
		q[k] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// shownText is every text of a response a user can see: content, embeds
// (title, description, fields, footer), button labels, select menus'
// placeholders and options, a modal's title and inputs.
func shownText(resp *discordgo.InteractionResponse) []string {
	d := resp.Data
	if d == nil {
		return nil
	}
	out := []string{d.Content, d.Title}
	for _, e := range d.Embeds {
		out = append(out, e.Title, e.Description)
		for _, f := range e.Fields {
			out = append(out, f.Name, f.Value)
		}
		if e.Footer != nil {
			out = append(out, e.Footer.Text)
		}
	}
	for _, c := range d.Components {
		row := rowOf(c)
		if row == nil {
			continue
		}
		for _, x := range row.Components {
			switch v := deref(x).(type) {
			case discordgo.Button:
				out = append(out, v.Label)
			case discordgo.SelectMenu:
				out = append(out, v.Placeholder)
				for _, o := range v.Options {
					out = append(out, o.Label, o.Description)
				}
			case discordgo.TextInput:
				out = append(out, v.Label, v.Placeholder)
			}
		}
	}
	for _, ch := range d.Choices {
		out = append(out, ch.Name)
	}
	return out
}

// checkLocalized checks what a response shows in lang: no template left a
// field unfilled and no message id shows instead of its text. (Discord's
// limits are the harness's check, on every response.)
func checkLocalized(t testing.TB, lang string, resp *discordgo.InteractionResponse) {
	t.Helper()
	for _, s := range shownText(resp) {
		if strings.Contains(s, "<no value>") {
			t.Errorf("%s: a template field was left unfilled: %q", lang, s)
		}
		for _, prefix := range []string{"board.", "control.", "play.", "hint.", "start.", "err."} {
			if strings.HasPrefix(s, prefix) && !strings.Contains(s, " ") {
				t.Errorf("%s: a message id is shown instead of its text: %q", lang, s)
			}
		}
	}
}

// checkEdits checks deadline edits (Expire's) as the responses are
// checked: within Discord's limits, every field filled.
func checkEdits(t *testing.T, lang string, edits []*discordgo.MessageEdit) {
	t.Helper()
	for _, e := range edits {
		data := &discordgo.InteractionResponseData{AllowedMentions: e.AllowedMentions}
		if e.Content != nil {
			data.Content = *e.Content
		}
		if e.Embeds != nil {
			data.Embeds = *e.Embeds
		}
		if e.Components != nil {
			data.Components = *e.Components
		}
		resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: data}
		checkResponse(t, resp)
		checkLocalized(t, lang, resp)
	}
}

// checkNothingMissing fails the test for every message a language lacked
// when asked (locale.Missing: shown in English instead, or with a field
// unfilled). The record is the process's, so any test's rendering counts:
// nothing anywhere should fall back.
func checkNothingMissing(t *testing.T) {
	t.Helper()
	for _, m := range locale.Missing() {
		t.Errorf("fell back to English or left a field empty: %s", m)
	}
}

// TestBoardsInEveryLanguage draws every board of TestBoardsStayWithinDiscordLimits
// (every variant, its largest start, long games, the compact heap lists
// and paged heap menus of multiplied heaps; pending, active, won, resigned
// and ended) in every translated language, as the game's language, and
// checks each against Discord's limits, that nothing fell back to English
// and that every field was filled. (English is that test's; the Discord
// locales that map to a shipped language draw the same boards.)
func TestBoardsInEveryLanguage(t *testing.T) {
	cases := boardCases(t)
	for _, l := range locale.Locales() {
		lang := string(l)
		for _, c := range cases {
			for _, b := range boardGames(t, c) {
				g := *b.g
				g.Locale = lang
				b.g = &g
				states := []board{b}
				if g.Status == match.Active && !g.VsBot() {
					// A heap picked, and the heap menu's last page.
					s := b
					s.selected = len(g.Position.Heaps) - 1
					states = append(states, s)
				}
				for _, s := range states {
					name := fmt.Sprintf("%s: %s after %d moves (%s), heap %d, page %d", lang, c.name, len(c.moves), g.Status, s.selected, s.page)
					resp := s.response(discordgo.InteractionResponseChannelMessageWithSource)
					for _, v := range limitViolations(sent(t, resp)) {
						t.Errorf("%s: %s", name, v)
					}
					checkLocalized(t, name, resp)
					if strings.Count(resp.Data.Embeds[0].Description, "```")%2 != 0 {
						t.Errorf("%s: a code block is left open", name)
					}
				}
				if t.Failed() {
					return
				}
			}
		}
	}
	checkNothingMissing(t)
}

// TestServiceInEveryLanguage plays through the Service, on a real SQLite
// file, in every language: every variant against nimbot (its board, a heap
// picked, the one-click menu, the typed-move modal, hints at levels 1 to 3
// by command and by button, moves to the end or a resignation, the review,
// a rematch), a challenge between people (pending, declined, accepted,
// played out of turn, resigned), deadlines (an expired challenge, a
// timeout, an abandoned game against nimbot), /nim rules, analyze, stats
// and leaderboard, and the user errors each step can reach. Every response
// is checked against Discord's limits (the harness), for unfilled fields,
// and at the end for anything a language lacked. It covers whatever text
// the Service has in the catalog when it runs: text still written in
// English records no miss, and is covered as it moves to the catalog.
func TestServiceInEveryLanguage(t *testing.T) {
	for _, lang := range renderLangs() {
		t.Run(lang, func(t *testing.T) {
			s := speaker{newHarness(t, 3), lang}
			for k, v := range engine.Variants() {
				s.channel = fmt.Sprintf("12200000000000001%02d", k)
				s.playBot(t, v)
			}
			s.channel = chanB
			s.people(t)
			s.deadlines(t)
			s.views(t)
		})
	}
	checkNothingMissing(t)
}

// playBot plays variant v against nimbot in the speaker's channel.
func (s speaker) playBot(t *testing.T, v engine.Variant) {
	t.Helper()
	resp := s.command(alice, "start", "variant", string(v), "first", "me", "difficulty", "easy")
	if isEphemeral(resp) {
		t.Fatalf("%s: start %s refused: %s", s.lang, v, text(resp))
	}
	g := s.game()
	s.speaksGame(t, resp, "control.resign")
	// Every control the board offers, once: the heap picks and page turns
	// redraw the board, the typed-move and amount buttons open modals.
	for _, id := range customIDs(resp) {
		c, err := ParseControl(id)
		if err != nil {
			continue
		}
		switch c.(type) {
		case HeapControl, TypeControl, AskControl:
			s.click(alice, id)
		}
	}
	s.command(bob, "hint")    // not a player
	s.command(alice, "start") // a game is already running here
	s.click(alice, "heap/"+fmt.Sprint(g.ID)+"/0/x")
	for level := 1; level <= 3; level++ {
		s.command(alice, "hint", "level", level)
		s.click(alice, HintControl{Game: g.ID, Ply: g.Ply, Level: level}.CustomID())
	}
	s.click(alice, HintControl{Game: g.ID, Ply: g.Ply}.CustomID())
	s.command(alice, "move", "notation", "ZZ99")
	// A modal answered with nonsense.
	s.submit(alice, TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), "???")
	if len(g.Position.Heaps) > 0 {
		s.submit(alice, AmountModal{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID(), "-3")
	}
	// The one-click menu, when the board has one, plays a move.
	if vals, ok := selectOptions(resp, MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: oneClickSlot}.CustomID()); ok && len(vals) > 0 {
		s.choose(alice, MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: oneClickSlot}.CustomID(), vals[0])
	}
	for k := 0; k < 40; k++ {
		g = s.gameByID(g.ID)
		if g.Status != match.Active {
			break
		}
		if g.ToMove() != alice {
			t.Fatalf("%s: %s: nimbot did not answer", s.lang, v)
		}
		if k == 2 {
			s.command(alice, "status")
		}
		s.command(alice, "move", "notation", g.Rules.FormatMove(g.Position, winningMove(t, g)))
	}
	if g = s.gameByID(g.ID); g.Status == match.Active {
		s.speaksGame(t, s.command(alice, "resign"), "control.rematch")
	}
	if g = s.gameByID(g.ID); !g.Status.Finished() {
		t.Fatalf("%s: %s: the game is still %s", s.lang, v, g.Status)
	}
	s.command(alice, "resign") // the game is over
	s.click(alice, ReviewControl{Game: g.ID}.CustomID())
	s.click(bob, ReviewControl{Game: g.ID}.CustomID())
	s.click(alice, RematchControl{Game: g.ID}.CustomID())
	s.command(alice, "end")
}

// challengeGap is more than one challenger must wait between challenges.
const challengeGap = 2 * time.Minute

// people plays a challenge between alice and bob in the speaker's channel.
func (s speaker) people(t *testing.T) {
	t.Helper()
	s.command(alice, "start", "opponent", user(alice))
	s.now = s.now.Add(challengeGap)
	s.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "1 2 3", "hints", false)
	g := s.game()
	s.command(alice, "move", "notation", "A1") // not accepted yet
	s.click(carol, AcceptControl{Game: g.ID}.CustomID())
	s.click(alice, AcceptControl{Game: g.ID}.CustomID())
	s.click(bob, DeclineControl{Game: g.ID}.CustomID())

	s.now = s.now.Add(challengeGap)
	s.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "1 2 3")
	g = s.game()
	// The board speaks the game's language, whoever clicks.
	other := speaker{s.harness, "ja"}
	if s.lang == "ja" {
		other.lang = "de"
	}
	s.speaksGame(t, other.click(bob, AcceptControl{Game: g.ID}.CustomID()), "control.resign")
	// Posted again, the board the players were using points at the newest,
	// in the game's language whoever clicks.
	before := s.message
	s.command(carol, "status")
	pointer := other.send("message_component.json", fields{UserID: alice, CustomID: HeapControl{Game: g.ID, Ply: 0, Heap: 0}.CustomID(), ComponentType: 2, MessageID: before})
	if want := locale.For(s.lang).T("board.superseded", "Link", messageLink(s.gameByID(g.ID))); pointer.Data == nil || pointer.Data.Content != want {
		t.Errorf("%s: a click on the board posted before /nim status: %q", s.lang, text(pointer))
	}
	s.command(bob, "move", "notation", "A1") // alice's turn
	s.command(bob, "hint")
	s.command(carol, "end")
	s.command(alice, "move", "notation", "C1")
	g = s.game()
	s.click(alice, ResignControl{Game: g.ID, Ply: g.Ply - 1}.CustomID()) // a stale board
	s.click(alice, ResignControl{Game: g.ID, Ply: g.Ply}.CustomID())
	if st := s.gameByID(g.ID).Status; st != match.Resigned {
		t.Fatalf("%s: resigned game is %s", s.lang, st)
	}
	s.click(bob, ReviewControl{Game: g.ID}.CustomID())

	// Played to a win.
	s.now = s.now.Add(challengeGap)
	s.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "1 2")
	g = s.game()
	s.click(bob, AcceptControl{Game: g.ID}.CustomID())
	for k, who := 0, alice; k < 5; k++ {
		if g = s.gameByID(g.ID); g.Status != match.Active {
			break
		}
		s.command(who, "move", "notation", g.Rules.FormatMove(g.Position, winningMove(t, g)))
		who = map[string]string{alice: bob, bob: alice}[who]
	}
	if st := s.gameByID(g.ID).Status; st != match.Won {
		t.Fatalf("%s: game played to the end is %s", s.lang, st)
	}
	s.click(alice, ReviewControl{Game: g.ID}.CustomID())
}

// speaksGame checks that resp, a board, shows the catalog's message id (a
// button's label) in the speaker's language: the game's, as the challenger
// started it.
func (s speaker) speaksGame(t *testing.T, resp *discordgo.InteractionResponse, id string) {
	t.Helper()
	want := locale.For(s.lang).T(id)
	for _, txt := range shownText(resp) {
		if txt == want {
			return
		}
	}
	t.Errorf("%s: the board does not show %s as %q: %q", s.lang, id, want, shownText(resp))
}

// deadlines lets a challenge expire, a game between people time out and a
// game against nimbot be abandoned, and checks the boards Expire edits.
func (s speaker) deadlines(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	s.channel = chanA
	s.now = s.now.Add(challengeGap)
	s.command(alice, "start", "opponent", user(bob))
	s.channel = chanDM
	s.command(alice, "start", "first", "me")
	s.channel = "1220000000000000098"
	s.command(carol, "start", "opponent", user(bob), "first", "me")
	s.click(bob, AcceptControl{Game: s.game().ID}.CustomID())
	for _, d := range []struct {
		wait string
		want match.Status
	}{{"challenge", match.Expired}, {"bot", match.Abandoned}, {"people", match.Timeout}} {
		switch d.wait {
		case "challenge":
			s.now = s.now.Add(DefaultChallengeTTL)
		case "bot":
			s.now = s.now.Add(DefaultBotTurn)
		case "people":
			s.now = s.now.Add(DefaultPeopleTurn)
		}
		edits, err := s.svc.Expire(ctx)
		if err != nil || len(edits) == 0 {
			t.Fatalf("%s: %s: %v %v", s.lang, d.want, edits, err)
		}
		checkEdits(t, s.lang, edits)
		// Who the result names: bob let alice's challenge expire, carol let
		// bob's game time out.
		g := &match.Game{Status: d.want, CreatedBy: alice, Players: [2]string{alice, bob}}
		if d.want == match.Timeout {
			g = &match.Game{Status: d.want, Winner: bob, Players: [2]string{carol, bob}}
		}
		say := result(locale.For(s.lang), g)
		found := false
		for _, e := range edits {
			found = found || strings.Contains((*e.Embeds)[0].Description, say)
		}
		if !found {
			t.Errorf("%s: no edit says %q", s.lang, say)
		}
	}
}

// views asks /nim rules for every variant, analyzes positions of each, and
// asks for stats and the leaderboard, with a few bad inputs.
func (s speaker) views(t *testing.T) {
	t.Helper()
	for _, v := range engine.Variants() {
		s.command(alice, "rules", "variant", string(v))
		s.command(alice, "leaderboard", "variant", string(v))
	}
	s.command(alice, "rules", "variant", "chess")
	for _, pos := range []string{"3 4 5", "nim misere 3-4-5", "wythoff 3 5", "kayles 5 8", "lasker 2 3", "21", "fibonacci 20", "moore 3 4 5", "greedy 3 3 5", "", "3 x", "nim 99999999999999 2"} {
		s.command(alice, "analyze", "position", pos)
	}
	s.command(alice, "stats")
	s.command(alice, "stats", "user", user(bob))
	s.command(alice, "leaderboard")
	// /nim privacy and its buttons, the deletion last: what it shows, the
	// confirmation, a cancel, an expired and a good confirmation.
	s.command(alice, "privacy")
	s.command(modID, "privacy") // holds nothing
	s.click(alice, ForgetControl{Step: forgetAsk}.CustomID())
	s.click(alice, ForgetControl{Step: forgetNo}.CustomID())
	s.click(alice, ForgetControl{Step: forgetYes, Issued: s.now.Add(-time.Hour).Unix()}.CustomID())
	s.click(alice, ForgetControl{Step: forgetYes, Issued: s.now.Unix()}.CustomID())
	s.click(alice, ForgetControl{Step: forgetYes, Issued: s.now.Unix()}.CustomID()) // nothing left
}
