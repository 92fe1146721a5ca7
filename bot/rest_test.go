package bot_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
)

// leftBucket reports whether s's rate limiter holds a bucket under key that
// a request went through. discordgo's RateLimiter cannot list its buckets,
// but GetBucket returns the one a request left under key, or else makes a
// new one with Remaining 1; every request through a bucket takes one from
// Remaining, and the stand-in sends no X-RateLimit headers that would set it
// again. So a bucket with Remaining other than 1 is one a request left.
func leftBucket(s *discordgo.Session, key string) bool {
	return s.Ratelimiter.GetBucket(key).Remaining != 1
}

// interactionKeys are the rate-limit bucket keys discordgo v0.29 gives the
// REST calls about one interaction when they go through the session: the
// callback, a follow-up (wait=true), and @original (its delete's key; its
// GET and PATCH are keyed by a constant, and would show here if that
// changed).
func interactionKeys(id, token string) map[string]string {
	return map[string]string{
		"callback":  discordgo.EndpointInteractionResponse(id, token),
		"follow-up": discordgo.EndpointFollowupMessage(fakeAppID, token) + "?wait=true",
		"@original": discordgo.EndpointInteractionResponseActions(fakeAppID, token),
	}
}

// TestNoBucketPerInteraction: answering interactions leaves no rate-limit
// bucket behind in the session. discordgo keys the buckets of a callback, a
// follow-up and a delete of @original by their URL, which carries the
// interaction's token, and never forgets one: a bucket per interaction for
// the life of the process. Many interactions are answered through the
// gateway (callbacks, @original fetched for every new board), and a
// deferred /nim start finished by a follow-up and the delete of its
// placeholder; afterwards the session holds no bucket under any key of any
// of them.
func TestNoBucketPerInteraction(t *testing.T) {
	e := newEnv(t)

	// The probe sees what discordgo's own calls leave behind.
	t.Run("Probe", func(t *testing.T) {
		s := newFakeDiscord(t).session(t)
		i := &discordgo.Interaction{ID: "1210000000000009999", AppID: fakeAppID, Token: "probe-token"}
		// The stand-in knows no such interaction and answers 404: the
		// buckets are made and used all the same.
		s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
		s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "probe"})
		s.InteractionResponseDelete(i)
		for what, key := range interactionKeys(i.ID, i.Token) {
			if !leftBucket(s, key) {
				t.Errorf("the probe finds no bucket after discordgo's own %s call (%s)", what, key)
			}
		}
	})

	s := e.fd.session(t)
	g := openGateway(t, e, bot.GatewayConfig{Session: s, AppID: fakeAppID, DeferAfter: time.Second, FetchDelay: -1})
	type delivered struct{ ID, Token string }
	var answered []delivered
	deliver := e.deliver
	e.deliver = func(payload json.RawMessage) *discordgo.InteractionResponse {
		var d delivered
		if err := json.Unmarshal(payload, &d); err != nil {
			t.Fatal(err)
		}
		answered = append(answered, d)
		return deliver(payload)
	}

	for len(answered) < 30 {
		boardID := e.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"}, opt{"difficulty", "easy"})
		e.playOut(e.channelGame().ID, boardID, alice)
	}
	e.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"})
	// A second /nim start in a channel with a game is refused, and the
	// refusal is saved: while another writer holds the database, it is
	// deferred with a placeholder, and the ephemeral refusal follows as a
	// follow-up message, the placeholder deleted.
	release := lockDatabase(t, e.path)
	if resp := e.deliver(e.p.command(bob, "start", opt{"heaps", "3 4 5"})); resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("want a deferral while the store is locked, got %s", describe(resp))
	}
	release()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := g.Close(ctx); err != nil {
		t.Fatal(err)
	}

	callbacks := len(e.fd.Calls("POST", "/callback"))
	followups := len(e.fd.Calls("POST", "/webhooks/"+fakeAppID+"/"))
	deletes := len(e.fd.Calls("DELETE", "/messages/@original"))
	fetches := len(e.fd.Calls("GET", "/messages/@original"))
	t.Logf("%d interactions: %d callbacks, %d follow-ups, %d deletes of @original, %d fetches of @original",
		len(answered), callbacks, followups, deletes, fetches)
	if callbacks != len(answered) || callbacks < 30 || followups != 1 || deletes != 1 || fetches == 0 {
		t.Fatal("the test needs many callbacks, a follow-up, a delete and a fetch")
	}
	for _, d := range answered {
		for what, key := range interactionKeys(d.ID, d.Token) {
			if leftBucket(s, key) {
				t.Errorf("interaction %s left a rate-limit bucket for its %s in the session", d.ID, what)
			}
		}
	}
}
