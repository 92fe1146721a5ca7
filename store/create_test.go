package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// TestCreateGameRendersAhead: Respond's render runs before CreateGame's
// transaction, not in the writer every write queues for; it sees the game
// exactly as committed, first turn included, and runs once.
func TestCreateGameRendersAhead(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	mustCreate(t, db, newGame("c0", [2]string{"alice", "bob"}, 1))
	for _, tt := range []struct {
		name  string
		game  func() *match.Game
		first *match.Change
	}{
		{"Plain", func() *match.Game {
			g := newGame("c1", [2]string{"alice", match.BotID}, 3, 4, 5)
			g.Deadline = epoch.Add(time.Minute + 123456)
			return g
		}, nil},
		{"FirstTurn", func() *match.Game {
			g := newGame("c2", [2]string{match.BotID, "alice"}, 3, 4, 5)
			g.Rules = engine.Rules{Variant: engine.Subtraction, Set: []int{1, 2, 3}}
			g.Difficulty, g.TurnTimeout, g.Locale = engine.Hard, time.Minute, "de"
			return g
		}, &match.Change{Moves: []engine.Move{take(2, 2)}, Position: engine.Position{Heaps: []int64{3, 4, 3}},
			Status: match.Active, Deadline: epoch.Add(time.Hour)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			release := holdWriter(t, db)
			var renders atomic.Int32
			var seen match.Game
			rendered := make(chan struct{})
			opts := []match.CreateOption{match.Respond("i-"+tt.name, func(g *match.Game) ([]byte, error) {
				if renders.Add(1) == 1 {
					seen = *g
					close(rendered)
				}
				return fmt.Appendf(nil, "board of game %d at ply %d", g.ID, g.Ply), nil
			})}
			if tt.first != nil {
				opts = append(opts, match.FirstTurn(*tt.first))
			}
			g := tt.game()
			done := make(chan error, 1)
			go func() { done <- db.CreateGame(ctx, g, opts...) }()
			select {
			case <-rendered:
			case <-time.After(10 * time.Second):
				release()
				t.Fatal("the answer was not rendered while the writer was busy")
			}
			release()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if n := renders.Load(); n != 1 {
				t.Errorf("rendered %d times", n)
			}
			got, err := db.Game(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(seen, *got) || !reflect.DeepEqual(*g, *got) {
				t.Fatalf("rendered\n%+v\ncaller's\n%+v\nstored\n%+v", seen, *g, *got)
			}
			if resp, err := db.Response(ctx, "i-"+tt.name); err != nil || string(resp) != fmt.Sprintf("board of game %d at ply %d", got.ID, got.Ply) {
				t.Fatalf("saved answer %q, %v", resp, err)
			}
		})
	}
	checkGames(t, db)
}

// TestCreateGameIDs: the ids reserved ahead stay dense and in order when a
// start fails (a busy channel, a duplicate, a failed render), and another
// process taking the reserved id first costs only a second render, for the
// id the game really got.
func TestCreateGameIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	db := mustOpenPath(t, path, "")
	respond := func(id string, renders *int) match.CreateOption {
		return match.Respond(id, func(g *match.Game) ([]byte, error) {
			*renders++
			return fmt.Appendf(nil, "game %d", g.ID), nil
		})
	}
	var renders int
	first := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
	if err := db.CreateGame(ctx, newGame("c1", [2]string{"carol", "bob"}, 3), respond("busy", &renders)); !errors.Is(err, match.ErrChannelBusy) {
		t.Fatalf("busy channel: %v", err)
	}
	if err := db.SaveResponse(ctx, "dup", []byte("earlier")); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateGame(ctx, newGame("c2", [2]string{"carol", "bob"}, 3), respond("dup", &renders)); !errors.Is(err, match.ErrDuplicate) {
		t.Fatalf("duplicate: %v", err)
	}
	boom := errors.New("boom")
	if err := db.CreateGame(ctx, newGame("c2", [2]string{"carol", "bob"}, 3), match.Respond("boom", func(*match.Game) ([]byte, error) { return nil, boom })); !errors.Is(err, boom) {
		t.Fatalf("failed render: %v", err)
	}
	g := newGame("c2", [2]string{"carol", "bob"}, 3)
	if err := db.CreateGame(ctx, g, respond("ok", &renders)); err != nil {
		t.Fatal(err)
	}
	if g.ID != first.ID+1 {
		t.Fatalf("after three failed starts the next game is %d, want %d", g.ID, first.ID+1)
	}

	// Another process inserts the id this one reserves next.
	other, err := sql.Open("sqlite3", dsn(path, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	taken := g.ID + 1
	if _, err := other.ExecContext(ctx, `INSERT INTO games (id, channel_id, variant, rules, start, position, status, created_by, created_at, updated_at)
		VALUES (?, 'elsewhere', 'nim', '{"variant":"nim"}', '{"heaps":[1]}', '{"heaps":[1]}', 'active', 'dave', 0, 0)`, taken); err != nil {
		t.Fatal(err)
	}
	renders = 0
	h := newGame("c3", [2]string{"carol", "bob"}, 3)
	if err := db.CreateGame(ctx, h, respond("taken", &renders)); err != nil {
		t.Fatal(err)
	}
	if h.ID != taken+1 || renders != 2 {
		t.Fatalf("with id %d taken: created %d after %d renders", taken, h.ID, renders)
	}
	if resp, err := db.Response(ctx, "taken"); err != nil || string(resp) != fmt.Sprint("game ", h.ID) {
		t.Fatalf("saved answer %q, %v", resp, err)
	}
	k := mustCreate(t, db, newGame("c4", [2]string{"carol", "bob"}, 3))
	if k.ID != h.ID+1 {
		t.Fatalf("the next game is %d, want %d", k.ID, h.ID+1)
	}

	// A restart goes on after the largest id: none is handed out twice,
	// and none needs a second render.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpenPath(t, path, "")
	renders = 0
	r := newGame("c5", [2]string{"carol", "bob"}, 3)
	if err := db.CreateGame(ctx, r, respond("restarted", &renders)); err != nil {
		t.Fatal(err)
	}
	if r.ID != k.ID+1 || renders != 1 {
		t.Fatalf("after a restart: created %d after %d renders, want %d after 1", r.ID, renders, k.ID+1)
	}
}
