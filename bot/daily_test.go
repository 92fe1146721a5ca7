package bot_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/commands/locale"
	"nimbot/internal/dailyposts"
	"nimbot/internal/pgtest"
	"nimbot/match"
	"nimbot/store"
	"nimbot/store/postgres"
)

// channelREST stands in for Discord's channel endpoints as documented:
// GET /channels/{id} (the channel, with its guild_id; 404 Unknown Channel),
// POST /channels/{id}/messages, which with enforce_nonce returns the
// message already created with the same nonce instead of a second one,
// and PATCH /channels/{id}/messages/{id} (404 Unknown Message, 403
// Missing Permissions).
type channelREST struct {
	mu       sync.Mutex
	guilds   map[string]string // channel → guild; absent: unknown
	forbid   map[string]bool   // channels nimbot may not post in
	messages map[string][]json.RawMessage
	nonces   map[string]string            // channel/nonce → message id
	edits    map[string][]json.RawMessage // message id → its edits
	srv      *httptest.Server
}

func newChannelREST(t *testing.T) *channelREST {
	c := &channelREST{guilds: map[string]string{}, forbid: map[string]bool{}, messages: map[string][]json.RawMessage{}, nonces: map[string]string{},
		edits: map[string][]json.RawMessage{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/channels/{channel}", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		defer c.mu.Unlock()
		g, ok := c.guilds[r.PathValue("channel")]
		if !ok || r.Header.Get("Authorization") != "Bot "+fakeToken {
			writeDiscordError(w, http.StatusNotFound, 10003, "Unknown Channel")
			return
		}
		writeJSONBody(w, http.StatusOK, map[string]any{"id": r.PathValue("channel"), "type": 0, "guild_id": g})
	})
	mux.HandleFunc("POST /api/v9/channels/{channel}/messages", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		defer c.mu.Unlock()
		ch := r.PathValue("channel")
		if c.forbid[ch] {
			writeDiscordError(w, http.StatusForbidden, 50001, "Missing Access")
			return
		}
		var body struct {
			Nonce        string `json:"nonce"`
			EnforceNonce bool   `json:"enforce_nonce"`
		}
		raw := json.RawMessage{}
		if err := json.NewDecoder(r.Body).Decode(&raw); err != nil || json.Unmarshal(raw, &body) != nil {
			writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
			return
		}
		key := ch + "/" + body.Nonce
		id, seen := c.nonces[key]
		if !(body.EnforceNonce && body.Nonce != "" && seen) {
			c.messages[ch] = append(c.messages[ch], raw)
			id = fmt.Sprint(1190000000000000000 + len(c.messages[ch]))
			c.nonces[key] = id
			c.edits[ch+"/"+id] = []json.RawMessage{}
		}
		writeJSONBody(w, http.StatusOK, map[string]any{"id": id, "channel_id": ch, "type": 0})
	})
	mux.HandleFunc("PATCH /api/v9/channels/{channel}/messages/{message}", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		defer c.mu.Unlock()
		key := r.PathValue("channel") + "/" + r.PathValue("message")
		if c.forbid[r.PathValue("channel")] {
			writeDiscordError(w, http.StatusForbidden, 50013, "Missing Permissions")
			return
		}
		if _, ok := c.edits[key]; !ok {
			writeDiscordError(w, http.StatusNotFound, 10008, "Unknown Message")
			return
		}
		raw := json.RawMessage{}
		if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
			writeDiscordError(w, http.StatusBadRequest, 50035, "Invalid Form Body")
			return
		}
		c.edits[key] = append(c.edits[key], raw)
		writeJSONBody(w, http.StatusOK, map[string]any{"id": r.PathValue("message"), "channel_id": r.PathValue("channel"), "type": 0})
	})
	c.srv = httptest.NewServer(mux)
	t.Cleanup(c.srv.Close)
	return c
}

func (c *channelREST) session(t *testing.T) *discordgo.Session {
	t.Helper()
	s, err := bot.NewSession(fakeToken)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(c.srv.URL)
	s.Client = &http.Client{Timeout: 10 * time.Second, Transport: redirect{target: target}}
	return s
}

// channel makes ch a channel of guild, or with forbid one nimbot may not
// post in.
func (c *channelREST) channel(ch, guild string, forbid bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.guilds[ch] = guild
	c.forbid[ch] = forbid
}

func (c *channelREST) posted(ch string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.messages[ch])
}

// TestSchedulerPostsDaily: the day's puzzle is posted once in each
// subscribed channel, again the next day and not for days missed; a post
// whose recording failed (the instance died after posting) is posted
// again once its claim lapses, with the same nonce, so the channel shows
// one message; a channel nimbot may not post in, that is gone, or that is
// another server's is unsubscribed.
func TestSchedulerPostsDaily(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 0, 0, 10, 0, time.UTC)
	clock := func() time.Time { return now }
	db, err := store.Open(ctx, store.Config{Path: filepath.Join(t.TempDir(), "nimbot.db"), Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := commands.New(commands.Config{DB: db, Now: clock, Rand: rand.New(rand.NewPCG(1, 2)), Log: slog.New(slog.DiscardHandler)})
	rest := newChannelREST(t)
	const guild = "1300000000000000001"
	chans := map[string]string{"1400000000000000001": guild, "1400000000000000002": guild, "1400000000000000004": "1300000000000000009"}
	for ch, g := range chans {
		rest.channel(ch, g, ch == "1400000000000000002")
	}
	for _, ch := range []string{"1400000000000000001", "1400000000000000002", "1400000000000000003", "1400000000000000004"} {
		if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: ch, GuildID: guild, UserID: "1230000000000000001", Locale: "fr"}, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	fail := true
	posts := dailyposts.Posts(svc)
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: rest.session(t), Log: slog.New(slog.DiscardHandler), Now: clock,
		Posts: func(ctx context.Context) ([]bot.Post, error) {
			ps, err := posts(ctx)
			for i := range ps {
				done := ps[i].Done
				ps[i].Done = func(ctx context.Context, id string) error {
					if fail {
						return fmt.Errorf("the instance died before recording the post")
					}
					return done(ctx, id)
				}
			}
			return ps, err
		}})
	const ok = "1400000000000000001"
	sched.Tick(ctx)
	if n := rest.posted(ok); n != 1 {
		t.Fatalf("%d posts after the first tick", n)
	}
	fail = false
	sched.Tick(ctx) // the claim runs: nothing
	now = now.Add(3 * time.Minute)
	sched.Tick(ctx) // the claim lapsed: posted again, the same nonce
	sched.Tick(ctx)
	if n := rest.posted(ok); n != 1 {
		t.Fatalf("%d messages in the channel after a retry, want 1", n)
	}
	for _, gone := range []string{"1400000000000000002", "1400000000000000003", "1400000000000000004"} {
		if n := rest.posted(gone); n != 0 {
			t.Fatalf("%d posts in %s", n, gone)
		}
	}
	now = now.AddDate(0, 0, 3)
	sched.Tick(ctx)
	sched.Tick(ctx)
	if n := rest.posted(ok); n != 2 {
		t.Fatalf("%d posts after three days down, want 2 (one for today)", n)
	}
	// The unusable channels were unsubscribed: nothing is claimed for them.
	now = now.AddDate(0, 0, 1)
	left, err := db.ClaimDaily(ctx, match.DayNumber(now), now, time.Minute, 10)
	if err != nil || len(left) != 1 || left[0].ChannelID != ok {
		t.Fatalf("subscriptions left: %+v, %v", left, err)
	}
}

// TestDailyOnceAcrossInstances: three instances, each its own pool,
// Service and Scheduler, tick at once against one PostgreSQL database:
// each subscribed channel gets the day's puzzle once.
func TestDailyOnceAcrossInstances(t *testing.T) {
	const instances, channels = 3, 40
	ctx := context.Background()
	dbURL := pgtest.DB(t)
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	rest := newChannelREST(t)
	const guild = "1300000000000000001"
	scheds := make([]*bot.Scheduler, instances)
	for i := range scheds {
		db, err := postgres.Open(ctx, postgres.Config{URL: dbURL, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svc := commands.New(commands.Config{DB: db, Now: clock, Rand: rand.New(rand.NewPCG(uint64(i), 2)), Log: slog.New(slog.DiscardHandler)})
		if i == 0 {
			for k := range channels {
				ch := fmt.Sprint(1400000000000000000 + k)
				rest.channel(ch, guild, false)
				if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: ch, GuildID: guild, UserID: "1230000000000000001"}, "", nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		scheds[i] = bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: rest.session(t), Log: slog.New(slog.DiscardHandler), Now: clock, Posts: dailyposts.Posts(svc)})
	}
	var wg sync.WaitGroup
	for _, s := range scheds {
		wg.Go(func() {
			for range 3 {
				s.Tick(ctx)
			}
		})
	}
	wg.Wait()
	rest.mu.Lock()
	defer rest.mu.Unlock()
	for k := range channels {
		ch := fmt.Sprint(1400000000000000000 + k)
		if n := len(rest.messages[ch]); n != 1 {
			t.Fatalf("channel %s got %d posts", ch, n)
		}
	}
}

// runBotChild runs the test binary as a child process of a test (see
// TestMain): "daily" ticks a scheduler on the SQLite file NIMBOT_BOT_DB at
// the Unix time NIMBOT_BOT_NOW, posting to the stand-in at NIMBOT_BOT_REST,
// and hangs once a post is sent, before it is recorded, printing "posted",
// for the parent to SIGKILL.
func runBotChild(role string) int {
	if role != "daily" {
		fmt.Fprintln(os.Stderr, "child: unknown role", role)
		return 1
	}
	ctx := context.Background()
	sec, _ := strconv.ParseInt(os.Getenv("NIMBOT_BOT_NOW"), 10, 64)
	clock := func() time.Time { return time.Unix(sec, 0).UTC() }
	db, err := store.Open(ctx, store.Config{Path: os.Getenv("NIMBOT_BOT_DB"), Now: clock})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	svc := commands.New(commands.Config{DB: db, Now: clock, Rand: rand.New(rand.NewPCG(1, 2)), Log: slog.New(slog.DiscardHandler)})
	s, err := bot.NewSession(fakeToken)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	target, _ := url.Parse(os.Getenv("NIMBOT_BOT_REST"))
	s.Client = &http.Client{Timeout: 10 * time.Second, Transport: redirect{target: target}}
	posts := dailyposts.Posts(svc)
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: s, Log: slog.New(slog.DiscardHandler), Now: clock,
		Posts: func(ctx context.Context) ([]bot.Post, error) {
			ps, err := posts(ctx)
			for i := range ps {
				ps[i].Done = func(context.Context, string) error {
					fmt.Println("posted")
					select {} // killed here, before the post is recorded
				}
			}
			return ps, err
		}})
	sched.Tick(ctx)
	return 0
}

// TestDailyAcrossSIGKILL: an instance killed after Discord created the
// day's post but before it recorded it leaves the channel claimed; once
// the claim lapses, the restarted instance posts again with the same
// nonce, and the channel shows one message; after that, nothing more that
// day.
func TestDailyAcrossSIGKILL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	now := time.Date(2026, 3, 1, 0, 0, 5, 0, time.UTC)
	clock := func() time.Time { return now }
	rest := newChannelREST(t)
	const ch, guild = "1400000000000000001", "1300000000000000001"
	rest.channel(ch, guild, false)
	db, err := store.Open(ctx, store.Config{Path: path, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: ch, GuildID: guild, UserID: "1230000000000000001"}, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "NIMBOT_BOT_CHILD=daily", "NIMBOT_BOT_DB="+path,
		"NIMBOT_BOT_NOW="+strconv.FormatInt(now.Unix(), 10), "NIMBOT_BOT_REST="+rest.srv.URL)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(out)
		for s.Scan() {
			line <- s.Text()
		}
		close(line)
	}()
	select {
	case l := <-line:
		if l != "posted" {
			t.Fatalf("the child printed %q", l)
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the child never posted")
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
		t.Fatal(err)
	}
	cmd.Wait()
	if n := rest.posted(ch); n != 1 {
		t.Fatalf("%d posts before the kill", n)
	}

	// Restarted: while the claim runs, nothing; once it lapsed, the same
	// post again, which Discord does not create twice.
	db, err = store.Open(ctx, store.Config{Path: path, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := commands.New(commands.Config{DB: db, Now: clock, Rand: rand.New(rand.NewPCG(1, 2)), Log: slog.New(slog.DiscardHandler)})
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: rest.session(t), Log: slog.New(slog.DiscardHandler), Now: clock, Posts: dailyposts.Posts(svc)})
	sched.Tick(ctx)
	now = now.Add(3 * time.Minute)
	sched.Tick(ctx)
	sched.Tick(ctx)
	rest.mu.Lock()
	posts, nonces := len(rest.messages[ch]), len(rest.nonces)
	rest.mu.Unlock()
	if posts != 1 || nonces != 1 {
		t.Fatalf("%d messages (%d nonces) in the channel after the restart, want 1", posts, nonces)
	}
	if left, err := db.ClaimDaily(ctx, match.DayNumber(now), now.Add(time.Hour), time.Minute, 10); err != nil || len(left) != 0 {
		t.Fatalf("the day's post was not recorded: %+v, %v", left, err)
	}
}

// TestSchedulerEditsDailyCount: the day's post shows how many solved
// today's puzzle; after a solve, the post's next turn (every ten minutes at
// most) edits it with the new count, by one of two instances on the
// database; a turn with the count unchanged edits nothing; a post deleted
// in Discord (10008) is not edited again.
func TestSchedulerEditsDailyCount(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	now := time.Date(2026, 3, 1, 0, 0, 10, 0, time.UTC)
	clock := func() time.Time { return now }
	rest := newChannelREST(t)
	const ch, deleted, guild = "1400000000000000001", "1400000000000000002", "1300000000000000001"
	var scheds []*bot.Scheduler
	var db *store.DB
	for i := range 2 {
		d, err := store.Open(ctx, store.Config{Path: path, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		db = d
		svc := commands.New(commands.Config{DB: d, Now: clock, Rand: rand.New(rand.NewPCG(uint64(i), 2)), Log: slog.New(slog.DiscardHandler)})
		scheds = append(scheds, bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: rest.session(t), Log: slog.New(slog.DiscardHandler), Now: clock,
			Posts: dailyposts.Posts(svc), PostEdits: dailyposts.Edits(svc)}))
	}
	tick := func() {
		for _, s := range scheds {
			s.Tick(ctx)
		}
	}
	for _, c := range []string{ch, deleted} {
		rest.channel(c, guild, false)
		if err := db.SubscribeDaily(ctx, match.DailyChannel{ChannelID: c, GuildID: guild, UserID: "1230000000000000001", Locale: "de"}, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	lp := locale.For("de")
	description := func(raw json.RawMessage) string {
		t.Helper()
		var m struct {
			Embeds []struct {
				Description string `json:"description"`
			} `json:"embeds"`
		}
		if err := json.Unmarshal(raw, &m); err != nil || len(m.Embeds) != 1 {
			t.Fatalf("a message without its embed: %s", raw)
		}
		return m.Embeds[0].Description
	}
	edits := func(c string) []json.RawMessage {
		rest.mu.Lock()
		defer rest.mu.Unlock()
		return rest.edits[c+"/1190000000000000001"]
	}
	solve := func(user string) {
		t.Helper()
		z, err := match.DailyPuzzle(now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.RecordPuzzleAttempt(ctx, match.PuzzleAttempt{AttemptKey: "k" + user, UserID: user, Scope: guild,
			PuzzleID: z.ID, Theme: z.Theme, Initial: match.PuzzleGlicko(z), Solved: true, Rated: true}); err != nil {
			t.Fatal(err)
		}
	}

	tick()
	rest.mu.Lock()
	post := rest.messages[ch]
	rest.mu.Unlock()
	if len(post) != 1 || !strings.Contains(description(post[0]), lp.T("daily.solved_today", "Solved", 0)) {
		t.Fatalf("the post does not show 0 solves: %s", post)
	}
	now = now.Add(11 * time.Minute)
	tick()
	if e := edits(ch); len(e) != 0 {
		t.Fatalf("edited with the count unchanged: %s", e)
	}
	// A solve, and a moderator deletes the other channel's post.
	solve("1230000000000000005")
	rest.mu.Lock()
	delete(rest.edits, deleted+"/1190000000000000001")
	rest.mu.Unlock()
	tick() // not due yet: the last turn was a moment ago
	if e := edits(ch); len(e) != 0 {
		t.Fatalf("edited before the post's turn: %s", e)
	}
	now = now.Add(10 * time.Minute)
	tick()
	e := edits(ch)
	if len(e) != 1 || !strings.Contains(description(e[0]), lp.T("daily.solved_today", "Solved", 1)) {
		t.Fatalf("after a solve, %d edits (want 1 showing 1 solve): %s", len(e), e)
	}
	now = now.Add(10 * time.Minute)
	tick()
	if e := edits(ch); len(e) != 1 {
		t.Fatalf("edited again with the count unchanged: %d edits", len(e))
	}
	solve("1230000000000000006")
	now = now.Add(10 * time.Minute)
	tick()
	e = edits(ch)
	if len(e) != 2 || !strings.Contains(description(e[1]), lp.T("daily.solved_today", "Solved", 2)) {
		t.Fatalf("after a second solve, %d edits: %s", len(e), e)
	}
	// The deleted post's edits stopped; the other's go on while the day lasts.
	left, err := db.ClaimDailyEdits(ctx, match.DayNumber(now), now.Add(time.Hour), time.Minute, 10)
	if err != nil || len(left) != 1 || left[0].ChannelID != ch || left[0].Solved != 2 {
		t.Fatalf("posts still edited: %+v, %v", left, err)
	}
}
