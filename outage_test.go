package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/jackc/pgx/v5"

	"nimbot/commands"
	"nimbot/engine"
	"nimbot/internal/pgtest"
	"nimbot/match"
	"nimbot/store/postgres"
)

// TestPostgresOutage stops PostgreSQL as an operator's restart does
// (pg_ctl stop -m fast: sessions ended with 57P01, then connections
// refused) while games are being played, and starts it again. Every move
// acknowledged is stored, every failure meanwhile is match.ErrUnavailable,
// a user is told the database is not answering (not the apology for a
// bug), and play goes on once it is back.
func TestPostgresOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and stops a PostgreSQL cluster of its own")
	}
	cluster, err := pgtest.Start()
	if errors.Is(err, pgtest.ErrNoServer) && os.Getenv("CI") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Stop()
	ctx := context.Background()
	url := cluster.URL("postgres")
	db, err := postgres.Open(ctx, postgres.Config{URL: url, ConnectTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := commands.New(commands.Config{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	c := newClient(t, ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize)))
	start := func() *discordgo.InteractionResponse {
		var i discordgo.Interaction
		if err := json.Unmarshal(c.command(c.newChannel(), "start", map[string]any{"heaps": "3 4 5"}), &i); err != nil {
			t.Fatal(err)
		}
		resp, _, _ := svc.Handle(ctx, &i)
		return resp
	}
	if resp := start(); resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Fatalf("/nim start before the outage: %+v", resp.Data)
	}

	// Four games between people, each played by one goroutine, one move
	// per commit, for as long as the test runs.
	const games = 4
	type key struct {
		game int64
		ply  int
	}
	var (
		acked                 sync.Map // key → true
		ackCount, unavailable atomic.Int64
		stop                  = make(chan struct{})
		wg                    sync.WaitGroup
	)
	for k := range games {
		g := &match.Game{GuildID: "guild", ChannelID: "outage-" + string(rune('a'+k)), Rules: engine.Rules{Variant: engine.Nim},
			Start: engine.Position{Heaps: []int64{1 << 20}}, Players: [2]string{"alice", "bob"}, Status: match.Active, CreatedBy: "alice"}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				cur, err := db.Game(ctx, g.ID) // afresh: a commit cut short may have landed
				if err == nil {
					_, err = db.Commit(ctx, match.Change{GameID: g.ID, Ply: cur.Ply, From: match.Active,
						Moves:    []engine.Move{{Kind: engine.Take, Heap: 0, Take: 1}},
						Position: engine.Position{Heaps: []int64{1<<20 - int64(cur.Ply) - 1}}, Status: match.Active})
					if err == nil {
						acked.Store(key{g.ID, cur.Ply}, true)
						ackCount.Add(1)
						continue
					}
				}
				if !errors.Is(err, match.ErrUnavailable) {
					t.Errorf("game %d: %v; want match.ErrUnavailable or success", g.ID, err)
					return
				}
				unavailable.Add(1)
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
	waitFor := func(what string, done func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !done(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				close(stop)
				wg.Wait()
				t.Fatalf("30 s and still no %s", what)
			}
		}
	}
	waitFor("moves before the outage", func() bool { return ackCount.Load() >= 20 })
	if err := cluster.Halt(); err != nil {
		t.Fatal(err)
	}
	waitFor("failures during the outage", func() bool { return unavailable.Load() >= games })
	resp := start()
	if resp.Data == nil || !strings.Contains(resp.Data.Content, "database is not answering") ||
		resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("/nim start while PostgreSQL is down: %+v", resp.Data)
	}
	if err := cluster.Resume(); err != nil {
		t.Fatal(err)
	}
	after := ackCount.Load()
	waitFor("moves after the restart", func() bool { return ackCount.Load() >= after+20 })
	close(stop)
	wg.Wait()
	if resp := start(); resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Fatalf("/nim start after the restart: %+v", resp.Data)
	}

	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	lost := 0
	acked.Range(func(k, _ any) bool {
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM moves WHERE game_id = $1 AND ply = $2`, k.(key).game, k.(key).ply).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			lost++
		}
		return true
	})
	var bad int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM games g WHERE g.ply <> (SELECT count(*) FROM moves m WHERE m.game_id = g.id)`).Scan(&bad); err != nil {
		t.Fatal(err)
	}
	if lost != 0 || bad != 0 {
		t.Fatalf("after a restart of PostgreSQL: %d of %d acknowledged moves lost, %d games whose ply is not their number of moves", lost, ackCount.Load(), bad)
	}
	t.Logf("%d acknowledged moves, all stored; %d calls told the database is not answering", ackCount.Load(), unavailable.Load())
}
