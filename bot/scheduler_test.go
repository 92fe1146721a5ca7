package bot_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/match"
	"nimbot/store"
)

// peopleGame starts a game between alice and bob over HTTP and returns it
// with its board, recorded by BoardSent.
func peopleGame(t *testing.T, he *httpEnv) (*match.Game, string) {
	t.Helper()
	challengeID := he.start(alice, opt{"opponent", bob}, opt{"heaps", "3 4 5"}, opt{"first", "me"})
	boardID := he.accept(bob, challengeID)
	he.h.Wait(context.Background())
	g := he.channelGame()
	if g.MessageID != boardID {
		t.Fatalf("board %q not recorded (stored %q)", boardID, g.MessageID)
	}
	return g, boardID
}

// TestSchedulerTick: when alice's turn deadline passes, one Tick ends the
// game (a loss on time) and edits the board by REST with the bot token.
func TestSchedulerTick(t *testing.T) {
	he := newHTTPEnv(t, nil)
	g, boardID := peopleGame(t, he)
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: he.svc, Session: he.fd.session(t), Log: he.log})
	ctx := context.Background()

	if n := sched.Tick(ctx); n != 0 {
		t.Fatalf("Tick before the deadline sent %d edits", n)
	}
	he.clock.Advance(24*time.Hour + time.Minute)
	if n := sched.Tick(ctx); n != 1 {
		t.Fatalf("Tick after the deadline sent %d edits, want 1", n)
	}
	edits := he.fd.Calls("PATCH", "/channels/"+testChannel+"/messages/"+boardID)
	if len(edits) != 1 {
		t.Fatalf("%d board edits, want 1", len(edits))
	}
	if edits[0].Auth != "Bot "+fakeToken {
		t.Error("board edit without the bot token")
	}
	if end := he.game(g.ID); end.Status != match.Timeout || end.Winner != bob.ID {
		t.Errorf("status %s winner %q, want timeout won by bob", end.Status, end.Winner)
	}
	if _, _, ok := findControl(t, he.fd.Message(t, boardID), is[commands.HeapControl], is[commands.HeapMenuControl], is[commands.MoveControl]); ok {
		t.Error("the edited board still offers moves")
	}
	if n := sched.Tick(ctx); n != 0 {
		t.Errorf("a second Tick sent %d edits, want 0", n)
	}
}

// TestSchedulerAfterRestart: a deadline that passed while nimbot was down is
// handled as soon as the Scheduler starts, without waiting an interval.
func TestSchedulerAfterRestart(t *testing.T) {
	he := newHTTPEnv(t, nil)
	g, boardID := peopleGame(t, he)
	he.db.Close()
	he.clock.Advance(25 * time.Hour)

	db, err := store.Open(context.Background(), store.Config{Path: he.path, Now: he.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := commands.New(commands.Config{DB: db, Now: he.clock.Now, Rand: rand.New(rand.NewPCG(3, 4)), Log: he.log})
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: svc, Session: he.fd.session(t), Interval: time.Hour, Log: he.log})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); sched.Run(ctx) }()
	for deadline := time.Now().Add(10 * time.Second); len(he.fd.Calls("PATCH", "/messages/"+boardID)) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no board edit after the restart")
		}
	}
	cancel()
	<-done
	end, err := db.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if end.Status != match.Timeout {
		t.Errorf("status %s, want timeout", end.Status)
	}
}

// TestSchedulerEditFails: a board Discord no longer has (deleted message)
// is logged and skipped; the game still ends.
func TestSchedulerEditFails(t *testing.T) {
	he := newHTTPEnv(t, nil)
	g, _ := peopleGame(t, he)
	he.fd.mu.Lock()
	he.fd.failEdits = true
	he.fd.mu.Unlock()
	he.clock.Advance(25 * time.Hour)
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: he.svc, Session: he.fd.session(t), Log: he.log})
	if n := sched.Tick(context.Background()); n != 0 {
		t.Errorf("Tick counted %d edits Discord refused", n)
	}
	if end := he.game(g.ID); end.Status != match.Timeout {
		t.Errorf("status %s, want timeout", end.Status)
	}
}

// TestSchedulerPrunes: a Tick forgets the answers saved longer ago than the
// retention, and keeps those a redelivery may still ask for.
func TestSchedulerPrunes(t *testing.T) {
	he := newHTTPEnv(t, nil)
	peopleGame(t, he)
	ctx := context.Background()
	// The first interaction of the game: alice's /nim start.
	first := commands.AnswerKey(&discordgo.Interaction{ID: "1210000000000000001", Type: discordgo.InteractionApplicationCommand,
		ChannelID: testChannel, Member: &discordgo.Member{User: &discordgo.User{ID: alice.ID}}})
	if _, err := he.db.Response(ctx, first); err != nil {
		t.Fatalf("the answer to /nim start was not saved: %v", err)
	}
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: he.svc, Session: he.fd.session(t), Log: he.log,
		PruneAnswers: he.db.PruneInteractions, Retention: 20 * time.Minute, Now: he.clock.Now})
	he.clock.Advance(19 * time.Minute)
	sched.Tick(ctx)
	if _, err := he.db.Response(ctx, first); err != nil {
		t.Fatalf("an answer within the retention was pruned: %v", err)
	}
	he.clock.Advance(2 * time.Minute)
	sched.Tick(ctx)
	if _, err := he.db.Response(ctx, first); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("an answer past the retention is still saved: %v", err)
	}
}

// TestSchedulerLeavesNoBucket: the board edits after a deadline leave no
// rate-limit bucket in the session. discordgo keys an edit's bucket by its
// channel (channels/{id}/messages/) and never forgets one: through the
// session, every channel that ever had a deadline pass kept a bucket for
// the life of the process.
func TestSchedulerLeavesNoBucket(t *testing.T) {
	he := newHTTPEnv(t, nil)
	_, boardID := peopleGame(t, he)
	key := discordgo.EndpointChannelMessage(testChannel, "")

	// The probe sees what discordgo's own edit leaves behind.
	probe := he.fd.session(t)
	probe.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: testChannel, ID: boardID})
	if !leftBucket(probe, key) {
		t.Fatalf("the probe finds no bucket after discordgo's own edit (%s)", key)
	}

	s := he.fd.session(t)
	sched := bot.NewScheduler(bot.SchedulerConfig{Service: he.svc, Session: s, Log: he.log})
	he.clock.Advance(24*time.Hour + time.Minute)
	if n := sched.Tick(context.Background()); n != 1 {
		t.Fatalf("Tick after the deadline sent %d edits, want 1", n)
	}
	if leftBucket(s, key) {
		t.Errorf("the deadline's board edit left a bucket in the session under %s", key)
	}
}
