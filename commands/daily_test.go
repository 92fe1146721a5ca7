package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// resolvedChannel is the resolved data Discord sends with a channel option.
func resolvedChannel(id string) string {
	return fmt.Sprintf(`{"channels": {%q: {"id": %q, "name": "daily", "type": 0, "permissions": "2248473465835073", "guild_id": %q}}}`, id, id, guildID)
}

// manager is the permissions of a member with Manage Server.
var manager = fmt.Sprint(discordgo.PermissionManageGuild | discordgo.PermissionViewChannel)

// dailyOpts is opts where the channel option is a channel (type 7).
func dailyOpts(kv ...any) string {
	var parts []string
	for k := 0; k+1 < len(kv); k += 2 {
		switch v := kv[k+1].(type) {
		case bool:
			parts = append(parts, fmt.Sprintf(`{"name": %q, "type": 5, "value": %t}`, kv[k], v))
		default:
			parts = append(parts, fmt.Sprintf(`{"name": %q, "type": 7, "value": %q}`, kv[k], v))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// dailyCommand sends /nim daily as who with permissions and options.
func (s speaker) dailyCommand(who, permissions, resolved string, kv ...any) *discordgo.InteractionResponse {
	s.t.Helper()
	return s.send("application_command.json", fields{UserID: who, Sub: "daily", Options: dailyOpts(kv...), Type: 2, Permissions: permissions, Resolved: resolved})
}

// checkPost checks a daily post against Discord's limits, as a response.
func checkPost(t *testing.T, lang string, p DailyPost) {
	t.Helper()
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Embeds: p.Message.Embeds, AllowedMentions: p.Message.AllowedMentions}}
	checkResponse(t, resp)
	checkLocalized(t, lang, resp)
	if len(p.Nonce) < 1 || len(p.Nonce) > 25 {
		t.Fatalf("nonce %q", p.Nonce)
	}
}

// TestDaily: /nim daily shows the day's puzzle, the same for everyone; a
// member with Manage Server subscribes a channel (others, DMs and forged
// channels are refused); the day's post is claimed once per channel per
// day, again the next day, and not after unsubscribing.
func TestDaily(t *testing.T) {
	s := speaker{newHarness(t, 9), "en-US"}
	ctx := context.Background()
	resp := s.dailyCommand(alice, "", "")
	c, ok := puzzleControlOf(t, resp, puzzleTypeKind)
	want, _ := match.DailyPuzzle(s.now)
	if !ok || !isEphemeral(resp) || c.Puzzle != want.ID || !strings.Contains(text(resp), "Today's puzzle (2026-01-01)") {
		t.Fatalf("/nim daily: %+v: %s", c, text(resp))
	}
	if other, _ := puzzleControlOf(t, s.dailyCommand(bob, "", ""), puzzleTypeKind); other.Puzzle != c.Puzzle {
		t.Fatalf("bob's daily puzzle is %s, alice's %s", other.Puzzle, c.Puzzle)
	}
	end, _ := solvePuzzle(t, s, alice, resp, winningPick)
	if !strings.Contains(text(end), "Solved!") {
		t.Fatalf("the daily puzzle solved: %s", text(end))
	}

	wantUserError(t, s.dailyCommand(alice, "", resolvedChannel(chanB), "channel", chanB), "Manage Server")
	wantUserError(t, s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", "1220000000000000777"), "not one of this server's")
	wantUserError(t, s.dailyCommand(modID, manager, "", "stop", true), "Name the channel")
	dm := s.send("application_command_dm.json", fields{UserID: alice, Sub: "daily", Options: dailyOpts("channel", chanB), Type: 2, ChannelID: chanDM, Resolved: resolvedChannel(chanB)})
	wantUserError(t, dm, "only in a server")
	if posts, err := s.svc.DailyPosts(ctx); err != nil || len(posts) != 0 {
		t.Fatalf("posts before any subscription: %v, %v", posts, err)
	}

	sub := s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", chanB)
	if !isEphemeral(sub) || !strings.Contains(text(sub), "<#"+chanB+"> gets the daily puzzle every day") {
		t.Fatalf("subscribe: %s", text(sub))
	}
	posts, err := s.svc.DailyPosts(ctx)
	if err != nil || len(posts) != 1 || posts[0].ChannelID != chanB || posts[0].Day != match.DayNumber(s.now) {
		t.Fatalf("the day's posts: %+v, %v", posts, err)
	}
	checkPost(t, "en-US", posts[0])
	post := posts[0].Message.Embeds[0]
	yesterday, _ := match.DailyPuzzle(s.now.AddDate(0, 0, -1))
	if !strings.Contains(post.Title, "Daily puzzle · 2026-01-01") || !strings.Contains(post.Footer.Text, want.ID) ||
		!strings.Contains(post.Description, "Yesterday's answer: "+yesterday.Rules.FormatMove(yesterday.Start, yesterday.Winning[0])) {
		t.Fatalf("the post: %s\n%s\n%s", post.Title, post.Description, post.Footer.Text)
	}
	nonce := posts[0].Nonce
	if again, _ := s.svc.DailyPosts(ctx); len(again) != 0 {
		t.Fatalf("claimed twice in a day: %+v", again)
	}
	// The claim lapses (the instance died before DailyDone): the same
	// post, with the same nonce, so Discord creates it once.
	s.now = s.now.Add(dailyLease + time.Second)
	retry, _ := s.svc.DailyPosts(ctx)
	if len(retry) != 1 || retry[0].Nonce != nonce {
		t.Fatalf("after a lapsed claim: %+v (nonce %q)", retry, nonce)
	}
	if err := s.svc.DailyDone(ctx, retry[0], "m1"); err != nil {
		t.Fatal(err)
	}
	s.now = s.now.Add(time.Hour)
	if again, _ := s.svc.DailyPosts(ctx); len(again) != 0 {
		t.Fatalf("posted, yet claimed again: %+v", again)
	}
	s.now = s.now.AddDate(0, 0, 1)
	next, _ := s.svc.DailyPosts(ctx)
	if len(next) != 1 || next[0].Nonce == nonce {
		t.Fatalf("the next day: %+v", next)
	}
	if d := next[0].Message.Embeds[0].Description; !strings.Contains(d, "Yesterday's puzzle, solved / tried: 1 / 1.") {
		t.Fatalf("the next day's post does not count alice's solve: %s", d)
	}
	if err := s.svc.DailyGone(ctx, chanB); err != nil {
		t.Fatal(err)
	}
	wantUserError(t, s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", chanB, "stop", true), "was not getting")
	s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", chanB)
	if stop := s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", chanB, "stop", true); !strings.Contains(text(stop), "no longer gets") {
		t.Fatalf("unsubscribe: %s", text(stop))
	}
	s.now = s.now.AddDate(0, 0, 1)
	if after, _ := s.svc.DailyPosts(ctx); len(after) != 0 {
		t.Fatalf("posts after unsubscribing: %+v", after)
	}
}

// TestDailyInEveryLanguage: /nim daily and its post in every language,
// the post in the subscriber's.
func TestDailyInEveryLanguage(t *testing.T) {
	for _, lang := range renderLangs() {
		t.Run(lang, func(t *testing.T) {
			s := speaker{newHarness(t, 10), lang}
			s.dailyCommand(alice, "", "")
			s.dailyCommand(alice, "", resolvedChannel(chanB), "channel", chanB)
			s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", "1220000000000000777")
			s.dailyCommand(modID, manager, "", "stop", true)
			s.send("application_command_dm.json", fields{UserID: alice, Sub: "daily", Options: dailyOpts("channel", chanB), Type: 2, ChannelID: chanDM, Resolved: resolvedChannel(chanB)})
			s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", chanB)
			posts, err := s.svc.DailyPosts(context.Background())
			if err != nil || len(posts) != 1 {
				t.Fatalf("posts: %v, %v", posts, err)
			}
			checkPost(t, lang, posts[0])
			s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", chanB, "stop", true)
			s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", chanB, "stop", true)
		})
	}
	checkNothingMissing(t)
}

// TestDailyRedeliveryAfterStop: /nim daily's subscription records its
// interaction as answered with the write, so a redelivery gets the first
// answer and writes nothing: a subscription stopped in between stays
// stopped.
func TestDailyRedeliveryAfterStop(t *testing.T) {
	s := speaker{newHarness(t, 9), "en-US"}
	ctx := context.Background()
	const id = "1390000000000000411"
	subscribe := func() *discordgo.InteractionResponse {
		i := s.interaction("application_command.json", fields{UserID: modID, Sub: "daily", Options: dailyOpts("channel", chanB),
			Type: 2, Permissions: manager, Resolved: resolvedChannel(chanB), ID: id})
		return s.handle(i)
	}
	first := subscribe()
	if stop := s.dailyCommand(modID, manager, resolvedChannel(chanB), "channel", chanB, "stop", true); !strings.Contains(text(stop), "no longer gets") {
		t.Fatalf("unsubscribe: %s", text(stop))
	}
	if again := subscribe(); text(again) != text(first) {
		t.Fatalf("the redelivered subscription was answered afresh: %s", text(again))
	}
	if posts, err := s.svc.DailyPosts(ctx); err != nil || len(posts) != 0 {
		t.Fatalf("the redelivery subscribed the channel again: %+v, %v", posts, err)
	}
}
