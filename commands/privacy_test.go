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

// TestPrivacy: /nim privacy shows the user what nimbot holds about them,
// only to them; Delete my data asks first; Yes deletes it everywhere and
// leaves the other player's game and record; Cancel, an expired or forged
// confirmation and a click from a public message change nothing public.
func TestPrivacy(t *testing.T) {
	h := newHarness(t, 1)
	ctx := context.Background()
	en := locale.For("en")
	h.command(alice, "start", "opponent", user(bob), "first", "me", "heaps", "1")
	g := h.game()
	h.click(bob, AcceptControl{Game: g.ID}.CustomID())
	h.command(alice, "move", "notation", "A1") // alice wins
	h.channel = chanB
	h.command(alice, "start", "first", "me") // a game against nimbot, in progress
	bobBefore, err := h.db.Stats(ctx, guildID, bob, "")
	if err != nil {
		t.Fatal(err)
	}

	shown := h.command(alice, "privacy")
	if !isEphemeral(shown) {
		t.Fatal("/nim privacy is shown to everyone")
	}
	for _, want := range []string{en.T("privacy.scope.here"), en.T("privacy.games", "Count", 2), en.T("privacy.records", "Count", 2)} {
		if !strings.Contains(text(shown), want) {
			t.Errorf("/nim privacy does not say %q:\n%s", want, text(shown))
		}
	}
	if ids := customIDs(shown); len(ids) != 1 || ids[0] != "forget/ask" {
		t.Fatalf("/nim privacy offers %v", ids)
	}
	if empty := h.command(carol, "privacy"); !strings.Contains(text(empty), en.T("privacy.none")) || len(customIDs(empty)) != 0 {
		t.Errorf("/nim privacy for someone unknown:\n%s %v", text(empty), customIDs(empty))
	}

	// The buttons, clicked on the ephemeral message.
	click := func(who, customID string, flags int) *discordgo.InteractionResponse {
		t.Helper()
		return h.handle(h.interaction("message_component.json", fields{UserID: who, CustomID: customID, ComponentType: 2, MessageID: "1250000000000000777", MessageFlags: flags}))
	}
	eph := int(discordgo.MessageFlagsEphemeral)
	ask := click(alice, "forget/ask", eph)
	if ask.Type != discordgo.InteractionResponseUpdateMessage || len(customIDs(ask)) != 2 || !strings.HasPrefix(customIDs(ask)[0], "forget/yes/") {
		t.Fatalf("Delete my data: %v %s %v", ask.Type, text(ask), customIDs(ask))
	}
	yes := customIDs(ask)[0]
	if resp := click(alice, "forget/no", eph); !strings.Contains(text(resp), en.T("privacy.cancelled")) || resp.Data.Components == nil || len(resp.Data.Components) != 0 {
		t.Errorf("Cancel: %s", text(resp))
	}
	// Forged or broken confirmations are refused, and delete nothing.
	for _, id := range []string{"forget/yes/abc", "forget/maybe", "forget/yes/-1", "forget/yes/0"} {
		if resp := click(alice, id, eph); !isEphemeral(resp) {
			t.Errorf("%s: answered %s", id, text(resp))
		}
	}
	// A click on a public message never edits it.
	if resp := click(alice, "forget/ask", 0); resp.Type != discordgo.InteractionResponseChannelMessageWithSource || !isEphemeral(resp) {
		t.Errorf("forget/ask on a public message: type %d, ephemeral %t", resp.Type, isEphemeral(resp))
	}
	// Expired: asked more than 15 minutes ago.
	h.now = h.now.Add(confirmFor + time.Second)
	if resp := click(alice, yes, eph); !strings.Contains(text(resp), en.T("privacy.err.expired", "PrivacyCommand", subName(subPrivacy))) {
		t.Errorf("an expired confirmation: %s", text(resp))
	}
	if held, _ := h.db.Holdings(ctx, alice); len(held) == 0 {
		t.Fatal("refused confirmations deleted alice's data")
	}

	yes = customIDs(click(alice, "forget/ask", eph))[0]
	done := click(alice, yes, eph)
	if !strings.Contains(text(done), en.T("privacy.done", "Tombstone", match.Tombstone)) || !strings.Contains(text(done), en.T("privacy.done_ended", "Count", 1)) {
		t.Errorf("Yes: %s", text(done))
	}
	if held, err := h.db.Holdings(ctx, alice); err != nil || len(held) != 0 {
		t.Errorf("after Yes, alice's holdings: %+v, %v", held, err)
	}
	kept := h.gameByID(g.ID)
	if kept.Players != [2]string{match.Tombstone, bob} || kept.Winner != match.Tombstone {
		t.Errorf("the finished game with bob: %+v", kept)
	}
	if after, _ := h.db.Stats(ctx, guildID, bob, ""); after.Losses != bobBefore.Losses || after.Rating != bobBefore.Rating {
		t.Errorf("bob's record changed: %+v, was %+v", after, bobBefore)
	}
	if _, err := h.db.ChannelGame(ctx, chanB); err == nil {
		t.Error("the game against nimbot is still on")
	}
	// The kept game's review names no one in the forgotten seat.
	if resp := h.click(bob, ReviewControl{Game: g.ID}.CustomID()); strings.Contains(text(resp), "<@"+match.Tombstone) || !strings.Contains(text(resp), "*"+match.Tombstone+"*") {
		t.Errorf("the review of the kept game: %s", text(resp))
	}
	// bob cannot challenge the forgotten seat to a rematch.
	h.channel = chanA
	if resp := h.click(bob, RematchControl{Game: g.ID}.CustomID()); !strings.Contains(text(resp), en.T("privacy.err.rematch_deleted", "StartCommand", subName(subStart))) {
		t.Errorf("a rematch against %s: %s", match.Tombstone, text(resp))
	}
	if _, err := h.db.ChannelGame(ctx, chanA); err == nil {
		t.Error("a rematch against the forgotten seat was created")
	}
	// A second deletion within the minute is refused, saying why: a
	// forged confirmation clicked again and again reads no more.
	if again := click(alice, yes, eph); !strings.Contains(text(again), en.T("privacy.err.again")) || !isEphemeral(again) {
		t.Errorf("Yes again at once: %s", text(again))
	}
	h.now = h.now.Add(forgetAgainAfter)
	if again := click(alice, yes, eph); !strings.Contains(text(again), en.T("privacy.nothing")) {
		t.Errorf("Yes again a minute later: %s", text(again))
	}
	if held, _ := h.db.Holdings(ctx, alice); len(held) != 0 {
		t.Errorf("answering the second Yes saved something naming alice: %+v", held)
	}
}

// TestPrivacyManyServers: a user in more servers than the answer lists
// gets the first ones and a count of the rest, within Discord's limits, in
// every language.
func TestPrivacyManyServers(t *testing.T) {
	h := newHarness(t, 1)
	ctx := context.Background()
	for k := range privacyShown + 7 {
		g := &match.Game{GuildID: fmt.Sprintf("12100000000000%05d", k), ChannelID: fmt.Sprintf("12200000000000%05d", k),
			Rules: engine.Rules{Variant: engine.Nim}, Start: engine.Position{Heaps: []int64{3, 4, 5}},
			Players: [2]string{carol, bob}, Status: match.Pending, CreatedBy: carol}
		if err := h.db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, lang := range locale.Languages() {
		i := h.interaction("application_command.json", fields{UserID: carol, Sub: "privacy", Options: "[]", Type: 2})
		i.Locale = discordgo.Locale(lang)
		resp := h.handle(i)
		p := locale.For(lang)
		if want := p.T("privacy.more", "Count", 7); !strings.Contains(text(resp), want) {
			t.Errorf("%s: no %q in\n%s", lang, want, text(resp))
		}
		checkLocalized(t, lang, resp)
	}
	checkNothingMissing(t)
}
