package bot

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// toServer sends every request to a test server instead of Discord.
type toServer struct{ u *url.URL }

func (t toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = t.u.Scheme, t.u.Host, t.u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// testSession is a Session whose REST calls reach srv.
func testSession(t *testing.T, srv *httptest.Server) *discordgo.Session {
	t.Helper()
	u, _ := url.Parse(srv.URL)
	s, err := NewSession("tok")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Timeout: 10 * time.Second, Transport: toServer{u}}
	return s
}

// TestSweepHonoursChannelLimits: the scheduler's edits go through a
// limiter of the sweep's own rather than the session's (which would keep
// a bucket per channel for good), and still keep to the limits Discord
// states: once an edit's answer says a channel's bucket is spent, the
// sweep's next edit in that channel waits for its reset, while an edit in
// another channel, or one in a later sweep, does not.
func TestSweepHonoursChannelLimits(t *testing.T) {
	const reset = 400 * time.Millisecond
	var mu sync.Mutex
	var at []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		at = append(at, time.Now())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-RateLimit-Limit", "5")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset-After", "0.4")
		io.WriteString(w, `{"id":"2","channel_id":"1"}`)
	}))
	defer srv.Close()
	s := testSession(t, srv)
	edit := func(rl *discordgo.RateLimiter, channel string) time.Duration {
		t.Helper()
		start := time.Now()
		if _, err := channelMessageEdit(s, rl, &discordgo.MessageEdit{Channel: channel, ID: "2"}); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	sweep := discordgo.NewRatelimiter()
	edit(sweep, "1")
	if took := edit(sweep, "3"); took >= reset {
		t.Errorf("an edit in another channel waited %v for the first channel's limit", took)
	}
	if took := edit(sweep, "1"); took < reset-50*time.Millisecond {
		t.Errorf("the sweep's second edit in a spent channel went out after %v, before its reset (%v)", took, reset)
	}
	if took := edit(discordgo.NewRatelimiter(), "3"); took >= reset {
		t.Errorf("a later sweep's edit waited %v for a limit of an earlier sweep", took)
	}
}

// TestFollowupNotRetriedOn502: a deferred answer that is a new message
// goes out as a follow-up POST. Discord's edge may answer 502 after the
// message was made behind it; discordgo would send the same POST again,
// up to MaxRestRetries more times: one answer, up to four messages. It is
// sent once, and the failure reported; a callback (which Discord accepts
// once per interaction) is still retried.
func TestFollowupNotRetriedOn502(t *testing.T) {
	var mu sync.Mutex
	posts := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		posts[r.Method+" "+r.URL.Path]++
		mu.Unlock()
		http.Error(w, "bad gateway", http.StatusBadGateway)
	}))
	defer srv.Close()
	s := testSession(t, srv)
	i := &discordgo.Interaction{ID: "1", AppID: "2", Token: "t", Type: discordgo.InteractionMessageComponent}

	if _, err := followupMessageCreate(s, i, &discordgo.WebhookParams{Content: "board"}); err == nil {
		t.Error("a follow-up answered 502 reported no error")
	}
	if err := interactionRespond(s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err == nil {
		t.Error("a callback answered 502 reported no error")
	}
	mu.Lock()
	defer mu.Unlock()
	if n := posts["POST /api/v9/webhooks/2/t"]; n != 1 {
		t.Errorf("one follow-up was sent %d times (%v)", n, posts)
	}
	if n := posts["POST /api/v9/interactions/1/t/callback"]; n != 1+s.MaxRestRetries {
		t.Errorf("a callback answered 502 was sent %d times, want %d (%v)", n, 1+s.MaxRestRetries, posts)
	}
}
