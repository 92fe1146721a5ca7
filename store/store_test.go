package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"nimbot/engine"
	"nimbot/match"
)

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	latest := LatestSchemaVersion()
	if latest < 2 {
		t.Fatalf("latest schema version %d: keep at least two migrations so upgrades are tested", latest)
	}
	wantTables := []string{"bot_record", "games", "goose_db_version", "heartbeat", "hints", "interactions", "moves", "results", "stats"}
	tables := func(t *testing.T, db *DB) []string {
		t.Helper()
		rows, err := db.readers.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			names = append(names, n)
		}
		return names
	}
	atLatest := func(t *testing.T, db *DB) {
		t.Helper()
		v, err := db.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v != latest {
			t.Fatalf("schema version %d, want %d", v, latest)
		}
		if got := tables(t, db); !reflect.DeepEqual(got, wantTables) {
			t.Fatalf("tables %v, want %v", got, wantTables)
		}
	}

	t.Run("FromNoFile", func(t *testing.T) {
		atLatest(t, mustOpen(t))
	})
	t.Run("FromEmptyFile", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "empty.db")
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		atLatest(t, mustOpenPath(t, path, ""))
	})
	t.Run("Reopen", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nimbot.db")
		db, err := Open(ctx, Config{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		db = mustOpenPath(t, path, "")
		atLatest(t, db)
		if _, err := db.Game(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	})
	// From every earlier version, with a game in progress, to the latest:
	// the data survives and the game can be finished, result and all.
	for v := int64(1); v < latest; v++ {
		t.Run(fmt.Sprintf("FromVersion%d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nimbot.db")
			raw, err := sql.Open("sqlite3", dsn(path, nil))
			if err != nil {
				t.Fatal(err)
			}
			p, err := newProvider(raw)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, v); err != nil {
				t.Fatal(err)
			}
			// Written with the version-1 columns, as a nimbot of that
			// version would have.
			for _, q := range []string{
				`INSERT INTO games (id, guild_id, channel_id, variant, rules, start, position, player0, player1, status, created_by, created_at, updated_at)
				 VALUES (7, 'guild', 'c1', 'nim', '{"variant":"nim","misere":false}', '{"heaps":[2]}', '{"heaps":[2]}', 'alice', 'bob', 'active', 'alice', 1, 1)`,
				`INSERT INTO moves (game_id, ply, player, move, at) VALUES (7, 0, 'alice', '` + mustJSON(t, take(0, 1)) + `', 2)`,
				`UPDATE games SET position = '{"heaps":[1]}' WHERE id = 7`,
			} {
				if _, err := raw.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			if err := raw.Close(); err != nil {
				t.Fatal(err)
			}
			db := mustOpenPath(t, path, "")
			atLatest(t, db)
			g, err := db.Game(ctx, 7)
			if err != nil {
				t.Fatal(err)
			}
			if g.Ply != 1 || g.ToMove() != "bob" {
				t.Fatalf("after migration: ply %d, %s to move", g.Ply, g.ToMove())
			}
			g = play(t, db, g, take(0, 1))
			if g.Status != match.Won || g.Winner != "bob" {
				t.Fatalf("got %s won by %q", g.Status, g.Winner)
			}
			s, err := db.Stats(ctx, "guild", "bob", "")
			if err != nil {
				t.Fatal(err)
			}
			if s.Wins != 1 {
				t.Fatalf("bob's wins after the upgrade: %d", s.Wins)
			}
			checkGames(t, db)
		})
	}
	// The Down sections work too (for a developer rolling back), and Up after
	// them rebuilds the same schema.
	t.Run("DownAndUp", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nimbot.db")
		mustOpenPath(t, path, "").Close()
		raw, err := sql.Open("sqlite3", dsn(path, nil))
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		p, err := newProvider(raw)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.DownTo(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if v, err := p.GetDBVersion(ctx); err != nil || v != 0 {
			t.Fatalf("after DownTo(0): version %d, %v", v, err)
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		atLatest(t, mustOpenPath(t, path, ""))
	})
}

func TestCreateGame(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		db := mustOpen(t)
		g := newGame("c1", [2]string{"alice", match.BotID}, 3, 4, 5)
		g.Difficulty = engine.Hard
		g.TurnTimeout = 90 * time.Second
		g.Deadline = epoch.Add(time.Hour)
		g.Rules = engine.Rules{Variant: engine.Subtraction, Misere: true, Set: []int{1, 3, 4}}
		mustCreate(t, db, g)
		if g.ID == 0 || g.CreatedAt.IsZero() || !g.UpdatedAt.Equal(g.CreatedAt) {
			t.Fatalf("after CreateGame: %+v", g)
		}
		got, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, g) {
			t.Fatalf("read back\n%+v\nwant\n%+v", got, g)
		}
		if got, err := db.ChannelGame(ctx, "c1"); err != nil || got.ID != g.ID {
			t.Fatalf("ChannelGame: %v, %v", got, err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		db := mustOpen(t)
		if _, err := db.Game(ctx, 42); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("Game: %v", err)
		}
		if _, err := db.ChannelGame(ctx, "c1"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("ChannelGame: %v", err)
		}
		if _, err := db.LastGameBy(ctx, "guild", "alice"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("LastGameBy: %v", err)
		}
		if err := db.SetMessageID(ctx, 42, "m"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("SetMessageID: %v", err)
		}
	})
	t.Run("ErrChannelBusy", func(t *testing.T) {
		db := mustOpen(t)
		first := newGame("c1", [2]string{"alice", ""}, 3)
		first.Status = match.Pending
		mustCreate(t, db, first)
		err := db.CreateGame(ctx, newGame("c1", [2]string{"bob", match.BotID}, 5))
		var busy *match.BusyError
		if !errors.Is(err, match.ErrChannelBusy) || !errors.As(err, &busy) || busy.Game.ID != first.ID {
			t.Fatalf("second game in the channel: %v", err)
		}
		// Another channel is free; so is this one once the game is over.
		mustCreate(t, db, newGame("c2", [2]string{"bob", match.BotID}, 5))
		if _, err := db.Commit(ctx, match.Change{GameID: first.ID, From: match.Pending, Status: match.Declined}); err != nil {
			t.Fatal(err)
		}
		mustCreate(t, db, newGame("c1", [2]string{"bob", match.BotID}, 5))
	})
	t.Run("ConcurrentInOneChannel", func(t *testing.T) {
		db := mustOpen(t)
		const n = 20
		var wg sync.WaitGroup
		errs := make(chan error, n)
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				errs <- db.CreateGame(ctx, newGame("c1", [2]string{fmt.Sprint("user", i), match.BotID}, 3))
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		created := 0
		for err := range errs {
			switch {
			case err == nil:
				created++
			case !errors.Is(err, match.ErrChannelBusy):
				t.Error(err)
			}
		}
		if created != 1 {
			t.Fatalf("%d games created in one channel", created)
		}
	})
	t.Run("Respond", func(t *testing.T) {
		db := mustOpen(t)
		g := newGame("c1", [2]string{"alice", match.BotID}, 3, 4)
		var rendered int64
		err := db.CreateGame(ctx, g, match.Respond("i1", func(g *match.Game) ([]byte, error) {
			rendered = g.ID
			return []byte(fmt.Sprintf("board of game %d", g.ID)), nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		if g.ID == 0 || rendered != g.ID {
			t.Fatalf("rendered game %d, created %d", rendered, g.ID)
		}
		if resp, err := db.Response(ctx, "i1"); err != nil || string(resp) != fmt.Sprintf("board of game %d", g.ID) {
			t.Fatalf("Response: %q, %v", resp, err)
		}
		// The redelivery finds its answer, not its own game in the way.
		again := newGame("c1", [2]string{"alice", match.BotID}, 3, 4)
		if err := db.CreateGame(ctx, again, match.Respond("i1", func(*match.Game) ([]byte, error) { return []byte("x"), nil })); !errors.Is(err, match.ErrDuplicate) {
			t.Fatalf("redelivered: %v", err)
		}
	})
	t.Run("RespondIsAtomic", func(t *testing.T) {
		db := mustOpen(t)
		// An interaction already answered, or an answer that cannot be
		// rendered: no game is left behind.
		if err := db.SaveResponse(ctx, "i1", []byte("earlier")); err != nil {
			t.Fatal(err)
		}
		err := db.CreateGame(ctx, newGame("c1", [2]string{"alice", match.BotID}, 3), match.Respond("i1", func(*match.Game) ([]byte, error) { return []byte("x"), nil }))
		if !errors.Is(err, match.ErrDuplicate) {
			t.Fatalf("duplicate interaction: %v", err)
		}
		boom := errors.New("boom")
		err = db.CreateGame(ctx, newGame("c1", [2]string{"alice", match.BotID}, 3), match.Respond("i2", func(*match.Game) ([]byte, error) { return nil, boom }))
		if !errors.Is(err, boom) {
			t.Fatalf("render failed: %v", err)
		}
		// The answer itself failing to save (here a trigger standing in for
		// a full disk) takes the game with it.
		if _, err := db.writeConn.ExecContext(ctx, `CREATE TRIGGER fail_save BEFORE INSERT ON interactions
			BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
			t.Fatal(err)
		}
		err = db.CreateGame(ctx, newGame("c1", [2]string{"alice", match.BotID}, 3), match.Respond("i3", func(*match.Game) ([]byte, error) { return []byte("x"), nil }))
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("failed save: %v", err)
		}
		if g, err := db.ChannelGame(ctx, "c1"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("a game was left behind: %+v, %v", g, err)
		}
		if _, err := db.Response(ctx, "i2"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("i2 recorded: %v", err)
		}
	})
	t.Run("FirstTurn", func(t *testing.T) {
		db := mustOpen(t)
		g := newGame("c1", [2]string{match.BotID, "alice"}, 3, 4)
		g.Deadline = epoch.Add(time.Hour)
		var seen match.Game
		err := db.CreateGame(ctx, g,
			match.FirstTurn(match.Change{Moves: []engine.Move{take(1, 1)}, Position: engine.Position{Heaps: []int64{3, 3}},
				Status: match.Active, Deadline: epoch.Add(2 * time.Hour)}),
			match.Respond("i1", func(g *match.Game) ([]byte, error) { seen = *g; return []byte("board"), nil }))
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Ply != 1 || !reflect.DeepEqual(got.Position.Heaps, []int64{3, 3}) || !got.Deadline.Equal(epoch.Add(2*time.Hour)) {
			t.Fatalf("after the first turn: %+v", got)
		}
		if !reflect.DeepEqual(*got, *g) || !reflect.DeepEqual(seen, *g) {
			t.Fatalf("caller's game\n%+v\nrendered\n%+v\nstored\n%+v", g, seen, got)
		}
		if ms, _ := db.Moves(ctx, g.ID); len(ms) != 1 || ms[0].Player != match.BotID {
			t.Fatalf("moves: %+v", ms)
		}
		if resp, err := db.Response(ctx, "i1"); err != nil || string(resp) != "board" {
			t.Fatalf("Response: %q, %v", resp, err)
		}
		// An opening move that ends the game records the result with it.
		h := newGame("c2", [2]string{match.BotID, "alice"}, 2)
		err = db.CreateGame(ctx, h, match.FirstTurn(match.Change{Moves: []engine.Move{take(0, 2)}, Position: engine.Position{Heaps: []int64{0}},
			Status: match.Won, Winner: match.BotID}))
		if err != nil {
			t.Fatal(err)
		}
		if h.Status != match.Won || h.Winner != match.BotID || h.Ply != 1 {
			t.Fatalf("won at once: %+v", h)
		}
		// An illegal first turn leaves no game.
		err = db.CreateGame(ctx, newGame("c3", [2]string{match.BotID, "alice"}, 2),
			match.FirstTurn(match.Change{Moves: []engine.Move{take(0, 1)}, Status: match.Won, Winner: "carol"}))
		if !errors.Is(err, match.ErrInvalid) {
			t.Fatalf("bad winner: %v", err)
		}
		if _, err := db.ChannelGame(ctx, "c3"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("a game was left behind: %v", err)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		db := mustOpen(t)
		for name, g := range map[string]*match.Game{
			"Finished":  {ChannelID: "c", Status: match.Won, Start: engine.Position{Heaps: []int64{1}}},
			"Ply":       {ChannelID: "c", Status: match.Active, Ply: 2, Start: engine.Position{Heaps: []int64{1}}},
			"NoChannel": {Status: match.Active, Start: engine.Position{Heaps: []int64{1}}},
		} {
			t.Run(name, func(t *testing.T) {
				if err := db.CreateGame(ctx, g); !errors.Is(err, match.ErrInvalid) {
					t.Fatalf("got %v", err)
				}
			})
		}
	})
}

func TestCommit(t *testing.T) {
	ctx := context.Background()
	t.Run("HumanAndBotMove", func(t *testing.T) {
		db := mustOpen(t)
		g := mustCreate(t, db, newGame("c1", [2]string{"alice", match.BotID}, 3, 4))
		if used, err := db.HintUsed(ctx, g.ID, 0, "alice"); err != nil || used {
			t.Fatalf("HintUsed before any hint: %v, %v", used, err)
		}
		if recorded, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 0, UserID: "alice", InteractionID: "h1", Response: []byte("hint")}); err != nil || !recorded {
			t.Fatalf("first hint: %v, %v", recorded, err)
		}
		// Asking twice is fine, recorded once; the second interaction
		// changed nothing, so it is not recorded either.
		if recorded, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 0, UserID: "alice", InteractionID: "h2", Response: []byte("again")}); err != nil || recorded {
			t.Fatalf("second hint: %v, %v", recorded, err)
		}
		if resp, err := db.Response(ctx, "h1"); err != nil || string(resp) != "hint" {
			t.Fatalf("first hint's answer: %q, %v", resp, err)
		}
		if _, err := db.Response(ctx, "h2"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("second hint's answer was recorded: %v", err)
		}
		for _, tt := range []struct {
			ply  int
			user string
			want bool
		}{{0, "alice", true}, {0, match.BotID, false}, {1, "alice", false}} {
			if used, err := db.HintUsed(ctx, g.ID, tt.ply, tt.user); err != nil || used != tt.want {
				t.Fatalf("HintUsed(ply %d, %s) = %v, %v; want %v", tt.ply, tt.user, used, err, tt.want)
			}
		}
		deadline := epoch.Add(time.Minute)
		c, _ := change(g, take(1, 1), take(0, 1))
		c.Deadline = deadline
		out, err := db.Commit(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if out.Ply != 2 || out.ToMove() != "alice" || !reflect.DeepEqual(out.Position.Heaps, []int64{2, 3}) || !out.Deadline.Equal(deadline) {
			t.Fatalf("after commit: %+v", out)
		}
		moves, err := db.Moves(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := []match.Move{
			{GameID: g.ID, Ply: 0, Player: "alice", Move: take(1, 1), Hinted: true, At: moves[0].At},
			{GameID: g.ID, Ply: 1, Player: match.BotID, Move: take(0, 1), Hinted: false, At: moves[0].At},
		}
		if !reflect.DeepEqual(moves, want) {
			t.Fatalf("moves\n%+v\nwant\n%+v", moves, want)
		}
	})
	t.Run("ErrStale", func(t *testing.T) {
		db := mustOpen(t)
		g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3, 4))
		seen := *g
		play(t, db, g, take(0, 1))
		// The same board clicked again: ply 0 is gone.
		c, _ := change(&seen, take(1, 1))
		if _, err := db.Commit(ctx, c); !errors.Is(err, match.ErrStale) {
			t.Fatalf("stale ply: %v", err)
		}
		// The right ply but the status the caller saw is wrong.
		g, _ = db.Game(ctx, g.ID)
		c, _ = change(g, take(1, 1))
		c.From = match.Pending
		if _, err := db.Commit(ctx, c); !errors.Is(err, match.ErrStale) {
			t.Fatalf("stale status: %v", err)
		}
		// A finished game takes no more changes.
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 1, From: match.Active, Status: match.Resigned, Winner: "alice"}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 1, From: match.Resigned, Status: match.Ended}); !errors.Is(err, match.ErrStale) {
			t.Fatalf("change to a finished game: %v", err)
		}
		if _, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 1, UserID: "bob"}); !errors.Is(err, match.ErrStale) {
			t.Fatalf("hint in a finished game: %v", err)
		}
		checkGames(t, db)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		db := mustOpen(t)
		if _, err := db.Commit(ctx, match.Change{GameID: 9, From: match.Active, Status: match.Ended}); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("got %v", err)
		}
		if _, err := db.RecordHint(ctx, match.Hint{GameID: 9, Ply: 0, UserID: "alice"}); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		db := mustOpen(t)
		g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
		for name, c := range map[string]match.Change{
			"WinnerNotAPlayer":  {GameID: g.ID, From: match.Active, Status: match.Resigned, Winner: "carol"},
			"NoWinner":          {GameID: g.ID, From: match.Active, Status: match.Won},
			"WinnerOfEnded":     {GameID: g.ID, From: match.Active, Status: match.Ended, Winner: "alice"},
			"UnknownStatus":     {GameID: g.ID, From: match.Active, Status: "paused"},
			"UnknownFromStatus": {GameID: g.ID, Status: match.Ended},
		} {
			t.Run(name, func(t *testing.T) {
				if _, err := db.Commit(ctx, c); !errors.Is(err, match.ErrInvalid) {
					t.Fatalf("got %v", err)
				}
			})
		}
		if got, _ := db.Game(ctx, g.ID); got.Status != match.Active {
			t.Fatalf("a refused change left the game %s", got.Status)
		}
	})
	t.Run("AcceptChallenge", func(t *testing.T) {
		db := mustOpen(t)
		g := newGame("c1", [2]string{"alice", ""}, 3, 4)
		g.Status = match.Pending
		g.Deadline = epoch.Add(time.Minute)
		mustCreate(t, db, g)
		// Bob accepts and, seated first, moves in the same transaction.
		out, err := db.Commit(ctx, match.Change{GameID: g.ID, From: match.Pending, Status: match.Active,
			Players: &[2]string{"bob", "alice"}, Moves: []engine.Move{take(0, 1)},
			Position: engine.Position{Heaps: []int64{2, 4}}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Players != [2]string{"bob", "alice"} || out.ToMove() != "alice" || !out.Deadline.IsZero() {
			t.Fatalf("after accepting: %+v", out)
		}
		moves, _ := db.Moves(ctx, g.ID)
		if len(moves) != 1 || moves[0].Player != "bob" {
			t.Fatalf("moves %+v", moves)
		}
		// A status-only change keeps the position.
		out, err = db.Commit(ctx, match.Change{GameID: g.ID, Ply: 1, From: match.Active, Status: match.Timeout, Winner: "bob"})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out.Position.Heaps, []int64{2, 4}) || out.Winner != "bob" {
			t.Fatalf("after timeout: %+v", out)
		}
		checkGames(t, db)
	})
	t.Run("DatabaseRefusesStaleMove", func(t *testing.T) {
		// The triggers hold even for a writer that skips Commit's checks.
		db := mustOpen(t)
		g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
		for _, tt := range []struct {
			name string
			ply  int
		}{{"Future", 1}, {"Past", 0}} {
			t.Run(tt.name, func(t *testing.T) {
				if tt.name == "Past" {
					play(t, db, g, take(0, 1))
				}
				_, err := db.writeConn.ExecContext(ctx, `INSERT INTO moves (game_id, ply, player, move, at) VALUES (?, ?, 'x', '{}', 0)`, g.ID, tt.ply)
				if err == nil || !strings.Contains(err.Error(), "stale move") {
					t.Fatalf("got %v", err)
				}
			})
		}
	})
}

// TestCommitRace: 50 clicks on one board at once. Exactly one move lands;
// every other click gets ErrStale.
func TestCommitRace(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", match.BotID}, 100, 100))
	const n = 50
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			c, err := change(g, take(i%2, int64(i+1)), take(1-i%2, 1))
			if err != nil {
				errs[i] = err
				return
			}
			c.InteractionID = fmt.Sprint("click-", i)
			c.Response = []byte(fmt.Sprint("moved ", i))
			<-start
			_, errs[i] = db.Commit(ctx, c)
		})
	}
	close(start)
	wg.Wait()
	applied, stale := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			applied++
		case errors.Is(err, match.ErrStale):
			stale++
		default:
			t.Error(err)
		}
	}
	if applied != 1 || stale != n-1 {
		t.Fatalf("%d applied, %d stale; want 1 and %d", applied, stale, n-1)
	}
	moves, err := db.Moves(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 {
		t.Fatalf("%d moves", len(moves))
	}
	var answered int
	if err := db.readers.QueryRowContext(ctx, `SELECT count(*) FROM interactions`).Scan(&answered); err != nil {
		t.Fatal(err)
	}
	if answered != 1 {
		t.Fatalf("%d interactions saved; only the applied one should be", answered)
	}
	checkGames(t, db)
}

// TestManyChannels: 1,000 channels play whole games at once, through two
// handles on the file as two processes would, with no "database is locked".
func TestManyChannels(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	// NORMAL: this test is about locking, not fsync.
	dbs := []*DB{mustOpenPath(t, path, "NORMAL"), mustOpenPath(t, path, "NORMAL")}
	const channels = 1000
	var wg sync.WaitGroup
	errs := make(chan error, channels)
	start := make(chan struct{})
	for i := range channels {
		wg.Go(func() {
			<-start
			db := dbs[i%len(dbs)]
			players := [2]string{fmt.Sprint("user", i%50), match.BotID}
			if i%3 == 0 {
				players[1] = fmt.Sprint("user", (i+1)%50)
			}
			g := newGame(fmt.Sprint("channel", i), players, 2, 2)
			g.Difficulty = engine.Easy
			if err := db.CreateGame(ctx, g); err != nil {
				errs <- err
				return
			}
			// Four single moves of one each: the second player takes the last.
			for range 4 {
				h := 0
				if g.Position.Heaps[0] == 0 {
					h = 1
				}
				c, err := change(g, take(h, 1))
				if err != nil {
					errs <- err
					return
				}
				c.InteractionID = fmt.Sprintf("i-%d-%d", i, g.Ply)
				if g, err = db.Commit(ctx, c); err != nil {
					errs <- err
					return
				}
				if _, err := db.Game(ctx, g.ID); err != nil {
					errs <- err
					return
				}
			}
			if g.Status != match.Won || g.Winner != players[1] {
				errs <- fmt.Errorf("channel %d: %s won by %q", i, g.Status, g.Winner)
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := checkGames(t, dbs[0]); n != channels {
		t.Fatalf("%d games, want %d", n, channels)
	}
}

func TestIdempotency(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", match.BotID}, 5))
	c, _ := change(g, take(0, 1), take(0, 1))
	c.InteractionID = "1234"
	c.Response = []byte(`{"type":7,"data":{"content":"board"}}`)
	if _, err := db.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	// The redelivery: same interaction, same board as first seen.
	redelivered := c
	redelivered.Response = []byte(`{"type":7,"data":{"content":"another board"}}`)
	if _, err := db.Commit(ctx, redelivered); !errors.Is(err, match.ErrDuplicate) {
		t.Fatalf("redelivery: %v", err)
	}
	// Even one that would otherwise be valid at the current ply.
	g, _ = db.Game(ctx, g.ID)
	again, _ := change(g, take(0, 1))
	again.InteractionID = "1234"
	if _, err := db.Commit(ctx, again); !errors.Is(err, match.ErrDuplicate) {
		t.Fatalf("redelivery at the current ply: %v", err)
	}
	if moves, _ := db.Moves(ctx, g.ID); len(moves) != 2 {
		t.Fatalf("%d moves after a redelivery, want 2", len(moves))
	}
	resp, err := db.Response(ctx, "1234")
	if err != nil || !bytes.Equal(resp, c.Response) {
		t.Fatalf("Response: %s, %v", resp, err)
	}

	t.Run("SaveResponse", func(t *testing.T) {
		if err := db.SaveResponse(ctx, "5678", []byte("hint")); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveResponse(ctx, "5678", []byte("other")); !errors.Is(err, match.ErrDuplicate) {
			t.Fatalf("second SaveResponse: %v", err)
		}
		if resp, err := db.Response(ctx, "5678"); err != nil || string(resp) != "hint" {
			t.Fatalf("Response: %q, %v", resp, err)
		}
		if err := db.SaveResponse(ctx, "empty", nil); err != nil {
			t.Fatal(err)
		}
		if resp, err := db.Response(ctx, "empty"); err != nil || len(resp) != 0 {
			t.Fatalf("Response: %q, %v", resp, err)
		}
		if _, err := db.Response(ctx, "nope"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("unknown interaction: %v", err)
		}
	})
	t.Run("Prune", func(t *testing.T) {
		n, err := db.PruneInteractions(ctx, epoch.Add(time.Hour))
		if err != nil || n != 3 {
			t.Fatalf("pruned %d, %v; want 3", n, err)
		}
		if _, err := db.Response(ctx, "1234"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("after pruning: %v", err)
		}
	})
}

func TestStats(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	channel := 0
	// finish plays one game in a new channel to the end with status.
	finish := func(players [2]string, variant engine.Variant, difficulty engine.Difficulty, status match.Status, winner string) {
		t.Helper()
		channel++
		g := newGame(fmt.Sprint("c", channel), players, 1)
		g.Rules.Variant = variant
		g.Difficulty = difficulty
		mustCreate(t, db, g)
		if status == match.Won {
			g = play(t, db, g, take(0, 1))
			if g.Winner != winner {
				t.Fatalf("won by %s, want %s", g.Winner, winner)
			}
			return
		}
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, From: match.Active, Status: status, Winner: winner}); err != nil {
			t.Fatal(err)
		}
	}
	finish([2]string{"alice", "bob"}, engine.Nim, "", match.Won, "alice")                            // rated: alice 1216, bob 1184
	finish([2]string{"alice", "bob"}, engine.Wythoff, "", match.Resigned, "alice")                   // rated
	finish([2]string{"bob", "alice"}, engine.Nim, "", match.Timeout, "alice")                        // rated
	finish([2]string{"alice", match.BotID}, engine.Nim, engine.Hard, match.Won, "alice")             // vs bot
	finish([2]string{match.BotID, "alice"}, engine.Nim, engine.Perfect, match.Won, match.BotID)      // vs bot: streak broken
	finish([2]string{"alice", match.BotID}, engine.Kayles, engine.Hard, match.Resigned, match.BotID) // vs bot
	finish([2]string{"alice", "bob"}, engine.Nim, "", match.Ended, "")                               // no result
	finish([2]string{"carol", "carol"}, engine.Nim, "", match.Won, "carol")                          // self-play: not counted

	got, err := db.Stats(ctx, "guild", "alice", "")
	if err != nil {
		t.Fatal(err)
	}
	// Ratings over all variants: +16, +15 (1216 vs 1184), +13 (1231 vs 1169).
	want := match.Stats{UserID: "alice", Variant: "", Wins: 4, Losses: 2, Streak: 0, BestStreak: 4, Rating: 1200 + 16 + 15 + 13,
		VsBot: map[engine.Difficulty][2]int{engine.Hard: {1, 1}, engine.Perfect: {0, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("alice, all variants:\n%+v\nwant\n%+v", got, want)
	}
	got, _ = db.Stats(ctx, "guild", "alice", engine.Nim)
	want = match.Stats{UserID: "alice", Variant: engine.Nim, Wins: 3, Losses: 1, Streak: 0, BestStreak: 3, Rating: 1200 + 16 + 15,
		VsBot: map[engine.Difficulty][2]int{engine.Hard: {1, 0}, engine.Perfect: {0, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("alice, Nim:\n%+v\nwant\n%+v", got, want)
	}
	got, _ = db.Stats(ctx, "guild", "bob", engine.Wythoff)
	want = match.Stats{UserID: "bob", Variant: engine.Wythoff, Losses: 1, Rating: 1184, VsBot: map[engine.Difficulty][2]int{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bob, Wythoff:\n%+v\nwant\n%+v", got, want)
	}
	for _, who := range []string{"carol", "nobody", match.BotID} {
		got, _ = db.Stats(ctx, "guild", who, "")
		want = match.Stats{UserID: who, Rating: match.InitialRating, VsBot: map[engine.Difficulty][2]int{}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v", who, got)
		}
	}
	if got, _ := db.Stats(ctx, "another guild", "alice", ""); got.Wins != 0 {
		t.Errorf("stats leak across guilds: %+v", got)
	}

	board, err := db.Leaderboard(ctx, "guild", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range board {
		order = append(order, fmt.Sprintf("%s:%d", s.UserID, s.Rating))
	}
	if want := []string{"alice:1244", "bob:1156"}; !reflect.DeepEqual(order, want) {
		t.Errorf("leaderboard %v, want %v", order, want)
	}
	if board, _ := db.Leaderboard(ctx, "guild", engine.Nim, 1); len(board) != 1 || board[0].UserID != "alice" || board[0].VsBot[engine.Hard] != [2]int{1, 0} {
		t.Errorf("Nim leaderboard, limit 1: %+v", board)
	}
	checkGames(t, db)
}

func TestQueries(t *testing.T) {
	ctx := context.Background()
	t.Run("Due", func(t *testing.T) {
		db := mustOpen(t)
		var ids []int64
		for i, d := range []time.Duration{3, 1, 2, 10} {
			g := newGame(fmt.Sprint("c", i), [2]string{"alice", "bob"}, 3)
			g.Deadline = epoch.Add(d * time.Minute)
			mustCreate(t, db, g)
			ids = append(ids, g.ID)
		}
		mustCreate(t, db, newGame("no deadline", [2]string{"alice", "bob"}, 3))
		// A finished game is never due.
		if _, err := db.Commit(ctx, match.Change{GameID: ids[0], From: match.Active, Status: match.Ended}); err != nil {
			t.Fatal(err)
		}
		due, err := db.Due(ctx, epoch.Add(5*time.Minute), 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, g := range due {
			got = append(got, g.ID)
		}
		if want := []int64{ids[1], ids[2]}; !reflect.DeepEqual(got, want) {
			t.Fatalf("due %v, want %v", got, want)
		}
		if due, _ := db.Due(ctx, epoch.Add(5*time.Minute), 1); len(due) != 1 || due[0].ID != ids[1] {
			t.Fatalf("limit 1: %v", due)
		}
	})
	t.Run("LastGameBy", func(t *testing.T) {
		db := mustOpen(t)
		mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
		newest := mustCreate(t, db, newGame("c2", [2]string{"alice", match.BotID}, 3))
		mustCreate(t, db, newGame("c3", [2]string{"bob", match.BotID}, 3))
		g, err := db.LastGameBy(ctx, "guild", "alice")
		if err != nil || g.ID != newest.ID {
			t.Fatalf("got %v, %v; want game %d", g, err, newest.ID)
		}
	})
	t.Run("SetMessageID", func(t *testing.T) {
		db := mustOpen(t)
		g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
		if err := db.SetMessageID(ctx, g.ID, "987"); err != nil {
			t.Fatal(err)
		}
		got, _ := db.Game(ctx, g.ID)
		if got.MessageID != "987" || !got.UpdatedAt.After(g.UpdatedAt) {
			t.Fatalf("after SetMessageID: %+v", got)
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	s, err := marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestConnectionSettings checks the DSN reaches every pooled connection,
// not just the first: foreign keys, WAL, the busy timeout, synchronous,
// and read connections that cannot write.
func TestConnectionSettings(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		synchronous string
		want        int // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{{"", 2}, {"FULL", 2}, {"normal", 1}} {
		t.Run("Synchronous"+tt.synchronous, func(t *testing.T) {
			db := mustOpenPath(t, filepath.Join(t.TempDir(), "nimbot.db"), tt.synchronous)
			pragma := func(pool *sql.DB, name string) string {
				t.Helper()
				var v string
				if err := pool.QueryRowContext(ctx, `PRAGMA `+name).Scan(&v); err != nil {
					t.Fatal(err)
				}
				return v
			}
			for _, p := range []struct{ name, got, want string }{
				{"w foreign_keys", pragma(db.writeConn, "foreign_keys"), "1"},
				{"w journal_mode", pragma(db.writeConn, "journal_mode"), "wal"},
				{"w busy_timeout", pragma(db.writeConn, "busy_timeout"), "5000"},
				{"w synchronous", pragma(db.writeConn, "synchronous"), fmt.Sprint(tt.want)},
				{"r journal_mode", pragma(db.readers, "journal_mode"), "wal"},
				{"r query_only", pragma(db.readers, "query_only"), "1"},
			} {
				if p.got != p.want {
					t.Errorf("%s = %s, want %s", p.name, p.got, p.want)
				}
			}
			// Several read connections at once all carry the settings.
			var conns []*sql.Conn
			for range 3 {
				c, err := db.readers.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				var fk int
				if err := c.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
					t.Errorf("read connection: foreign_keys %d, %v", fk, err)
				}
			}
			for _, c := range conns {
				c.Close()
			}
			if _, err := db.readers.ExecContext(ctx, `DELETE FROM games`); err == nil {
				t.Error("a read connection could write")
			}
			// Foreign keys are enforced.
			_, err := db.writeConn.ExecContext(ctx, `INSERT INTO hints (game_id, ply, user_id, at) VALUES (404, 0, 'x', 0)`)
			if !isConstraint(err, sqlite3.ErrConstraintForeignKey) {
				t.Errorf("a hint for no game: %v", err)
			}
		})
	}
}

// fillInteractions saves n answers of size bytes each, answered at at, in one
// transaction.
func fillInteractions(t *testing.T, db *DB, prefix string, n, size int, at time.Time) {
	t.Helper()
	resp := make([]byte, size)
	err := db.withTx(context.Background(), func(ctx context.Context, tx *txn, _ time.Time) error {
		for i := range n {
			if err := saveResponse(ctx, tx, fmt.Sprint(prefix, i), 0, resp, at); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPruneInteractionsBatches: pruning deletes in bounded transactions,
// oldest first, so it never holds the write lock for the whole backlog, and
// keeps every answer that could still be redelivered.
func TestPruneInteractionsBatches(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	old := 2*PruneBatch + 500
	fillInteractions(t, db, "old", old, 10, epoch)
	fillInteractions(t, db, "new", 10, 10, epoch.Add(time.Hour))
	before, _ := db.writes.stats()
	n, err := db.PruneInteractions(ctx, epoch.Add(time.Minute))
	if err != nil || n != int64(old) {
		t.Fatalf("pruned %d, %v; want %d", n, err, old)
	}
	after, _ := db.writes.stats()
	if commits := after - before; commits != 3 {
		t.Errorf("pruning %d rows took %d transactions, want 3 of at most %d", old, commits, PruneBatch)
	}
	if _, err := db.Response(ctx, "new3"); err != nil {
		t.Errorf("a recent answer was pruned: %v", err)
	}
	if _, err := db.Response(ctx, "old3"); !errors.Is(err, match.ErrNotFound) {
		t.Errorf("an old answer survived: %v", err)
	}
}

// TestPruneReusesPages: the pages pruned answers free are reused by the next
// ones, so a database pruned on a schedule stays the same size without
// VACUUM.
func TestPruneReusesPages(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	size := func() int64 {
		t.Helper()
		if _, err := db.writeConn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(db.Path())
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	at := epoch
	fillInteractions(t, db, "r0-", 2000, 900, at)
	first := size()
	for round := 1; round <= 3; round++ {
		if _, err := db.PruneInteractions(ctx, at.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Hour)
		fillInteractions(t, db, fmt.Sprint("r", round, "-"), 2000, 900, at)
		if got := size(); got > first+first/10 {
			t.Fatalf("round %d: the file grew from %d to %d bytes", round, first, got)
		}
	}
}
