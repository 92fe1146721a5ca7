package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
	"nimbot/commands"
)

// The identify window the stand-in enforces in these tests, and the slack
// the shards add to it: Discord's 5 s window would make each test last a
// minute. The slack stays Discord's 1 s: it absorbs a connection slow to
// open, which a loaded CI machine under -race produces (250 ms was seen to
// let an identify in early).
const (
	testWindow = 250 * time.Millisecond
	testSlack  = time.Second
)

// startShards opens Shards for cfg against e's stand-in and closes them at
// the end of the test.
func startShards(t *testing.T, e *env, cfg bot.ShardsConfig) *bot.Shards {
	t.Helper()
	s, err := bot.NewShards(shardsConfig(e, cfg))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func shardsConfig(e *env, cfg bot.ShardsConfig) bot.ShardsConfig {
	cfg.NewSession = func() (*discordgo.Session, error) {
		s, err := bot.NewSession(e.fd.token)
		if err != nil {
			return nil, err
		}
		target, _ := url.Parse(e.fd.srv.URL)
		s.Client = &http.Client{Timeout: 10 * time.Second, Transport: redirect{target: target}}
		return s, nil
	}
	cfg.Service, cfg.Commands, cfg.Log = e.svc, commands.Definitions(), e.log
	cfg.IdentifyInterval, cfg.IdentifySlack = testWindow, testSlack
	return cfg
}

func openShards(t *testing.T, shards ...*bot.Shards) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errs := make([]error, len(shards))
	var wg sync.WaitGroup
	for i, s := range shards {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = s.Open(ctx) }()
		t.Cleanup(func() { s.Close(context.Background()) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// guildOnShard returns a guild id that Discord routes to shard of count.
func guildOnShard(t *testing.T, shard, count int) string {
	t.Helper()
	for g := uint64(1190000000000000001); g < 1190000000000000001+uint64(count+1)<<22; g += 1 << 22 {
		if id := strconv.FormatUint(g, 10); shardOf(id, count) == shard {
			return id
		}
	}
	t.Fatalf("no guild for shard %d of %d", shard, count)
	return ""
}

// playOnShard plays a whole game against the bot in a channel of a guild
// on shard, delivered on that shard's gateway session.
func playOnShard(t *testing.T, e *env, shard, count int) {
	t.Helper()
	se := *e
	channel := strconv.Itoa(1190000000000001000 + shard)
	se.p = e.p.inGuild(channel, guildOnShard(t, shard, count), int64(shard+1)*1_000_000)
	se.deliver = func(payload json.RawMessage) *discordgo.InteractionResponse { return e.fd.sendInteraction(t, payload) }
	boardID := se.start(alice, opt{"heaps", "3 4 5"}, opt{"first", "me"}, opt{"difficulty", "easy"})
	game := se.channelGame()
	if end := se.playOut(game.ID, boardID, alice); !end.Status.Finished() {
		t.Errorf("shard %d: game %d not finished: %s", shard, game.ID, end.Status)
	}
}

// checkIdentifies checks that Discord accepted exactly one Identify for
// each shard of count and refused none.
func checkIdentifies(t *testing.T, fd *fakeDiscord, count int) {
	t.Helper()
	if refused := fd.Refused(); len(refused) > 0 {
		t.Errorf("Discord would have refused %d identifies:\n%s", len(refused), strings.Join(refused, "\n"))
	}
	got := fd.Identifies()
	slices.SortFunc(got, func(a, b [2]int) int { return a[0] - b[0] })
	var want [][2]int
	for i := range count {
		want = append(want, [2]int{i, count})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("identified as %v, want %v", got, want)
	}
}

// TestShardsTwoProcesses runs two processes' worth of shards at once,
// SHARD_IDS 0-1 and 2-3 of 4, against a gateway that allows one Identify
// per window (max_concurrency 1) as Discord does: every shard identifies
// once with its [shard_id, 4], none too early, the commands are
// registered once (by shard 0's process), and a whole game is played
// through each shard.
func TestShardsTwoProcesses(t *testing.T) {
	e := newEnv(t)
	e.fd.setLimits(gatewayLimits{Shards: 1, MaxConcurrency: 1, Total: 1000, ResetAfter: time.Hour, Window: testWindow})
	a := startShards(t, e, bot.ShardsConfig{Count: 4, IDs: []int{0, 1}})
	b := startShards(t, e, bot.ShardsConfig{Count: 4, IDs: []int{2, 3}})
	openShards(t, a, b)

	checkIdentifies(t, e.fd, 4)
	if n := len(e.fd.Calls("PUT", "/commands")); n != 1 {
		t.Errorf("commands registered %d times, want once", n)
	}
	for shard := range 4 {
		playOnShard(t, e, shard, 4)
	}
	for _, s := range []*bot.Shards{a, b} {
		detail, err := s.Check().Run(context.Background())
		if err != nil {
			t.Errorf("healthz: %v", err)
		}
		for _, id := range s.IDs() {
			if want := fmt.Sprintf("shard %d: ok since", id); !strings.Contains(detail, want) {
				t.Errorf("healthz detail %q does not say %q", detail, want)
			}
		}
	}
	if detail, err := a.RegistrationCheck().Run(context.Background()); err != nil || !strings.HasPrefix(detail, "ok since") {
		t.Errorf("shard 0's process: registration %q, %v", detail, err)
	}
	if detail, _ := b.RegistrationCheck().Run(context.Background()); detail != "registered by the process running shard 0" {
		t.Errorf("the process without shard 0: registration %q", detail)
	}
	if err := errorsOf(a.Close(context.Background()), b.Close(context.Background())); err != nil {
		t.Fatal(err)
	}
}

func errorsOf(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestShardsAutomatic: with no SHARD_COUNT, the count is GET /gateway/bot's
// recommendation and the process runs every shard, identifying within
// max_concurrency and the session start limit.
func TestShardsAutomatic(t *testing.T) {
	t.Run("Recommended", func(t *testing.T) {
		e := newEnv(t)
		e.fd.setLimits(gatewayLimits{Shards: 3, MaxConcurrency: 2, Total: 1000, ResetAfter: time.Hour, Window: testWindow})
		s := startShards(t, e, bot.ShardsConfig{})
		openShards(t, s)
		if s.Count() != 3 || !reflect.DeepEqual(s.IDs(), []int{0, 1, 2}) {
			t.Fatalf("running shards %v of %d, want 0-2 of 3", s.IDs(), s.Count())
		}
		checkIdentifies(t, e.fd, 3)
		if n := len(e.fd.Calls("GET", "/gateway/bot")); n != 1 {
			t.Errorf("GET /gateway/bot %d times, want 1", n)
		}
		for shard := range 3 {
			playOnShard(t, e, shard, 3)
		}
	})
	t.Run("SessionStartLimit", func(t *testing.T) {
		// Two session starts left for three shards: the third waits for
		// reset_after and asks again, rather than have Discord reset the
		// token.
		e := newEnv(t)
		e.fd.setLimits(gatewayLimits{Shards: 3, MaxConcurrency: 3, Total: 2, ResetAfter: 500 * time.Millisecond, Window: testWindow})
		s := startShards(t, e, bot.ShardsConfig{})
		openShards(t, s)
		checkIdentifies(t, e.fd, 3)
		if n := len(e.fd.Calls("GET", "/gateway/bot")); n != 2 {
			t.Errorf("GET /gateway/bot %d times, want 2 (at start, after the reset)", n)
		}
		playOnShard(t, e, 2, 3)
	})
}

// TestShardsSettings: settings that cannot work are refused before any
// connection.
func TestShardsSettings(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name string
		cfg  bot.ShardsConfig
		says string
	}{
		{"NegativeCount", bot.ShardsConfig{Count: -1}, "SHARD_COUNT must be from 1"},
		{"HugeCount", bot.ShardsConfig{Count: bot.MaxShards + 1}, "SHARD_COUNT must be from 1"},
		{"IDsWithoutCount", bot.ShardsConfig{IDs: []int{0}}, "SHARD_IDS needs SHARD_COUNT"},
		{"IDPastCount", bot.ShardsConfig{Count: 2, IDs: []int{0, 2}}, "ids go from 0 to 1"},
		{"IDTwice", bot.ShardsConfig{Count: 2, IDs: []int{1, 1}}, "listed twice"},
		{"NoIDs", bot.ShardsConfig{Count: 2, IDs: []int{}}, "names no shard"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := bot.NewShards(shardsConfig(e, tc.cfg))
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("NewShards: %v, want an error saying %q", err, tc.says)
			}
		})
	}
	if n := len(e.fd.Calls("GET", "/gateway")); n != 0 {
		t.Errorf("%d calls to GET /gateway with bad settings", n)
	}
}

// TestShardsReconnect: when one shard's connection drops and the gateway is
// away for a while, /healthz shows that shard retrying and the others ok;
// once discordgo has resumed it, it is ok again and its guilds' games go on.
func TestShardsReconnect(t *testing.T) {
	e := newEnv(t)
	e.fd.setLimits(gatewayLimits{Shards: 2, MaxConcurrency: 1, Total: 1000, ResetAfter: time.Hour, Window: testWindow})
	s := startShards(t, e, bot.ShardsConfig{})
	openShards(t, s)
	health := func() (string, error) { return s.Check().Run(context.Background()) }

	e.fd.setGatewayDown(true)
	e.fd.dropShard(t, 1)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		detail, err := health()
		if err != nil {
			if !strings.Contains(err.Error(), "shard 1: ") || strings.Contains(err.Error(), "shard 0: ") {
				t.Errorf("healthz error %q, want shard 1 alone", err)
			}
			if !strings.Contains(detail, "shard 0: ok since") {
				t.Errorf("healthz detail %q, want shard 0 ok", detail)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("healthz never showed shard 1 lost: %q", detail)
		}
	}
	e.fd.setGatewayDown(false)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := health(); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_, err := health()
			t.Fatalf("shard 1 never came back: %v", err)
		}
	}
	e.fd.mu.Lock()
	resumes := e.fd.resumes
	e.fd.mu.Unlock()
	if resumes != 1 {
		t.Errorf("%d resumes, want 1", resumes)
	}
	checkIdentifies(t, e.fd, 2)
	playOnShard(t, e, 1, 2)
}

// TestRejectedToken: Discord answers 401 to a DISCORD_TOKEN it does not
// know (mistyped, or reset in the Developer Portal). That is no outage to
// wait out: Open and the registration stop at the first 401 with
// ErrTokenRejected (main exits with it), never quoting the token, where
// they used to retry until a signal, logging every few minutes.
func TestRejectedToken(t *testing.T) {
	const wrong = "a-typo.in-the-token"
	wrongSession := func(e *env) func() (*discordgo.Session, error) {
		return func() (*discordgo.Session, error) {
			s, err := bot.NewSession(wrong)
			if err != nil {
				return nil, err
			}
			target, _ := url.Parse(e.fd.srv.URL)
			s.Client = &http.Client{Timeout: 10 * time.Second, Transport: redirect{target: target}}
			return s, nil
		}
	}
	check := func(t *testing.T, err error, st bot.Check) {
		t.Helper()
		if !errors.Is(err, bot.ErrTokenRejected) {
			t.Fatalf("err = %v, want ErrTokenRejected", err)
		}
		if strings.Contains(err.Error(), wrong) {
			t.Errorf("the error quotes the token: %v", err)
		}
		if detail, err := st.Run(context.Background()); !errors.Is(err, bot.ErrTokenRejected) || !strings.HasPrefix(detail, "gave up") {
			t.Errorf("health check %s: %q, %v; want gave up, ErrTokenRejected", st.Name, detail, err)
		}
	}

	t.Run("Gateway", func(t *testing.T) {
		e := newEnv(t)
		cfg := shardsConfig(e, bot.ShardsConfig{})
		cfg.NewSession = wrongSession(e)
		s, err := bot.NewShards(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		check(t, s.Open(ctx), s.Check())
		if n := len(e.fd.Calls("GET", "/gateway/bot")); n != 1 {
			t.Errorf("GET /gateway/bot sent %d times with a rejected token, want once", n)
		}
	})
	t.Run("Register", func(t *testing.T) {
		e := newEnv(t)
		s, err := wrongSession(e)()
		if err != nil {
			t.Fatal(err)
		}
		var st bot.Status
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		check(t, bot.RegisterWithRetry(ctx, s, fakeAppID, "", commands.Definitions(), &st, e.log), st.Check("discord_commands"))
		if n := len(e.fd.Calls("PUT", "/commands")); n != 1 {
			t.Errorf("the commands were sent %d times with a rejected token, want once", n)
		}
	})
}
