package bot_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/engine"
	"nimbot/internal/pgtest"
	"nimbot/match"
	"nimbot/store/postgres"
)

func TestMain(m *testing.M) {
	if role := os.Getenv("NIMBOT_BOT_CHILD"); role != "" {
		os.Exit(runBotChild(role))
	}
	os.Exit(pgtest.Main(m))
}

// TestSchedulersShareOneDatabase: three instances, each with its own
// connection pool, Service and Scheduler, tick at once against one
// PostgreSQL database holding games past their deadline (challenges, games
// against nimbot, games between people). Every deadline fires exactly once
// across them: one result per game, one board edit per game, and every
// instance's ticks together send exactly as many edits as there are games.
func TestSchedulersShareOneDatabase(t *testing.T) {
	const instances, games = 3, 240 // more than two Expire batches each
	ctx := context.Background()
	url := pgtest.DB(t)
	fd := newFakeDiscord(t)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { return now }

	dbs := make([]*postgres.DB, instances)
	for i := range dbs {
		db, err := postgres.Open(ctx, postgres.Config{URL: url, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	ids := make([]int64, games)
	boards := map[int64]string{}
	for i := range games {
		g := &match.Game{GuildID: "1300000000000000001", ChannelID: fmt.Sprint(1400000000000000000 + i),
			Rules: engine.Rules{Variant: engine.Nim}, Start: engine.Position{Heaps: []int64{3, 4, 5}},
			Players: [2]string{alice.ID, bob.ID}, Status: match.Active, CreatedBy: alice.ID,
			TurnTimeout: time.Hour, Deadline: now.Add(-time.Duration(i) * time.Second)}
		switch i % 3 {
		case 1:
			g.Status = match.Pending
		case 2:
			g.Players[1], g.Difficulty = match.BotID, engine.Medium
		}
		if err := dbs[i%instances].CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		board := fd.newID()
		if err := dbs[0].SetMessageID(ctx, g.ID, board); err != nil {
			t.Fatal(err)
		}
		fd.mu.Lock()
		fd.messages[board] = &discordgo.Message{ID: board, ChannelID: g.ChannelID, Content: "board"}
		fd.mu.Unlock()
		ids[i], boards[g.ID] = g.ID, board
	}

	sent := make([]int, instances)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, db := range dbs {
		svc := commands.New(commands.Config{DB: db, Now: clock, Rand: rand.New(rand.NewPCG(uint64(i), 1)), Log: quietLog(t)})
		sched := bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: fd.session(t), Log: quietLog(t), Now: clock})
		wg.Go(func() {
			<-start
			for range 4 {
				sent[i] += sched.Tick(ctx)
			}
		})
	}
	close(start)
	wg.Wait()

	total := 0
	for _, n := range sent {
		total += n
	}
	if total != games {
		t.Errorf("the instances sent %v edits, %d in all; want %d", sent, total, games)
	}
	for _, id := range ids {
		if n := len(fd.Calls("PATCH", "/messages/"+boards[id])); n != 1 {
			t.Errorf("game %d: its board was edited %d times", id, n)
		}
		g, err := dbs[0].Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status == match.Active || g.Status == match.Pending || !g.Deadline.IsZero() {
			t.Errorf("game %d still %s, deadline %v", id, g.Status, g.Deadline)
		}
	}
	// One result each: bob's losses and wins on time add up to the games
	// he lost or won, not more.
	s, err := dbs[1].Stats(ctx, "1300000000000000001", bob.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Wins+s.Losses != games/3 {
		t.Errorf("bob's record %d–%d after %d games between people ended on time", s.Wins, s.Losses, games/3)
	}
}
