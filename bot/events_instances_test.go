package bot_test

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/internal/pgtest"
	"nimbot/store/postgres"
)

// TestForgetOnceAcrossInstances: three instances, each with its own pool,
// endpoint and Scheduler, on one PostgreSQL. Discord sends
// APPLICATION_DEAUTHORIZED to one and, as a retry, to another; once the
// grace period has passed on their clock, all three tick at once, and the
// user is forgotten exactly once: one instance reports it, the others find
// nothing to do.
func TestForgetOnceAcrossInstances(t *testing.T) {
	const instances, grace = 3, 30 * 24 * time.Hour
	ctx := context.Background()
	url := pgtest.DB(t)
	fd := newFakeDiscord(t)
	clk := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	key := testKey(7)
	logs := make([]*syncBuffer, instances)
	dbs := make([]*postgres.DB, instances)
	urls := make([]string, instances)
	scheds := make([]*bot.Scheduler, instances)
	for i := range instances {
		db, err := postgres.Open(ctx, postgres.Config{URL: url, Now: clk.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i], logs[i] = db, &syncBuffer{}
		log := slog.New(slog.NewTextHandler(logs[i], nil))
		svc := commands.New(commands.Config{DB: db, Now: clk.Now, Rand: rand.New(rand.NewPCG(uint64(i), 1)), Log: log})
		h := bot.NewHTTP(bot.HTTPConfig{Service: svc, PublicKey: key.pub, Session: fd.session(t), Now: clk.Now, Log: log, Forget: db, ForgetAfter: grace})
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		urls[i] = srv.URL + bot.EventsPath
		scheds[i] = bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: fd.session(t), Log: log, Now: clk.Now, Forget: db})
	}
	played(t, dbs[0], alice.ID, "1400000000000000001")
	for _, i := range []int{0, 2} {
		res, err := http.DefaultClient.Do(key.request(t, urls[i], sentAt(t, "webhook_deauthorized.json", clk.Now()), clk.Now()))
		if err != nil || res.StatusCode != http.StatusNoContent {
			t.Fatalf("instance %d: APPLICATION_DEAUTHORIZED: %v %v", i, res.StatusCode, err)
		}
		res.Body.Close()
	}
	clk.Advance(grace)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, s := range scheds {
		wg.Go(func() {
			<-start
			s.Tick(ctx)
		})
	}
	close(start)
	wg.Wait()

	forgot := regexp.MustCompile(`msg="forgot users who removed nimbot" count=(\d+)`)
	total := 0
	for i, l := range logs {
		for _, m := range forgot.FindAllStringSubmatch(l.String(), -1) {
			n, _ := strconv.Atoi(m[1])
			total += n
			t.Logf("instance %d forgot %d", i, n)
		}
	}
	if total != 1 {
		t.Errorf("the instances forgot %d users in all, want 1", total)
	}
	for _, db := range dbs {
		if holds(t, db, alice.ID) {
			t.Error("alice is still held")
		}
	}
	if !holds(t, dbs[1], bob.ID) {
		t.Error("bob was forgotten with alice")
	}
}
