package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"nimbot/match"
)

// holdWriter occupies the writer until the returned release is called, so
// the writes started meanwhile queue up and are committed as one batch.
func holdWriter(t *testing.T, db *DB) (release func()) {
	t.Helper()
	held, hold := make(chan struct{}), make(chan struct{})
	go func() {
		_ = db.withTx(context.Background(), func(context.Context, *txn, time.Time) error {
			close(held)
			<-hold
			return nil
		})
	}()
	<-held
	return func() { close(hold) }
}

// waitQueued waits until n writes wait for the writer.
func waitQueued(t *testing.T, db *DB, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); db.writes.queued() < n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", db.writes.queued(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestGroupCommit(t *testing.T) {
	ctx := context.Background()
	t.Run("FailuresInABatchFailAlone", func(t *testing.T) {
		db := mustOpen(t)
		const n = 8
		games := make([]*match.Game, n)
		for i := range games {
			games[i] = mustCreate(t, db, newGame(fmt.Sprint("c", i), [2]string{"alice", match.BotID}, 9))
		}
		if err := db.SaveResponse(ctx, "taken", []byte("first")); err != nil {
			t.Fatal(err)
		}
		commit := func(g *match.Game, interaction string) func() error {
			return func() error {
				c, _ := change(g, take(0, 1), take(0, 1))
				c.InteractionID, c.Response = interaction, []byte("board "+interaction)
				_, err := db.Commit(ctx, c)
				return err
			}
		}
		writes := []struct {
			name string
			do   func() error
			want error
		}{
			{"ok0", commit(games[0], "i0"), nil},
			{"ok1", commit(games[1], "i1"), nil},
			// The same click twice (two deliveries): the second is stale
			// once the first has landed in the same batch.
			{"ok2", commit(games[2], "i2"), nil},
			{"stale2", commit(games[2], "i2b"), match.ErrStale},
			{"duplicate", commit(games[3], "taken"), match.ErrDuplicate},
			{"ok4", commit(games[4], "i4"), nil},
			// A failure after writing (a game inserted, then refused)
			// leaves none of its writes. (CreateGame refuses a bad first
			// turn before its transaction.)
			{"invalid", func() error {
				return db.withTx(ctx, func(ctx context.Context, tx *txn, now time.Time) error {
					g := newGame("c-new", [2]string{match.BotID, "alice"}, 2)
					if _, err := insertGame(ctx, tx, db.ids.reserve(), g, `{"variant":"nim"}`, `{"heaps":[2]}`, `{"heaps":[2]}`, now); err != nil {
						return err
					}
					return match.ErrInvalid
				})
			}, match.ErrInvalid},
			{"ok5", commit(games[5], "i5"), nil},
			{"created", func() error { return db.CreateGame(ctx, newGame("c-other", [2]string{"bob", match.BotID}, 4)) }, nil},
		}
		release := holdWriter(t, db)
		before, _ := db.writes.stats()
		errs := make([]error, len(writes))
		var wg sync.WaitGroup
		for i, w := range writes {
			wg.Go(func() { errs[i] = w.do() })
			// In order, so the stale one queues after the one it loses to.
			waitQueued(t, db, i+1)
		}
		release()
		wg.Wait()
		for i, w := range writes {
			if (w.want == nil) != (errs[i] == nil) || (w.want != nil && !errors.Is(errs[i], w.want)) {
				t.Errorf("%s: got %v, want %v", w.name, errs[i], w.want)
			}
		}
		// The held write's COMMIT and one for the whole queue.
		if after, _ := db.writes.stats(); after-before != 2 {
			t.Errorf("%d COMMITs for the held write and one queue, want 2", after-before)
		}
		for _, i := range []int{0, 1, 2, 4, 5} {
			if g, _ := db.Game(ctx, games[i].ID); g.Ply != 2 {
				t.Errorf("game %d at ply %d, want 2", i, g.Ply)
			}
			id := fmt.Sprint("i", i)
			if resp, err := db.Response(ctx, id); err != nil || string(resp) != "board "+id {
				t.Errorf("%s: %q, %v", id, resp, err)
			}
		}
		if g, _ := db.Game(ctx, games[3].ID); g.Ply != 0 {
			t.Errorf("duplicate interaction moved game 3 to ply %d", g.Ply)
		}
		if _, err := db.Response(ctx, "i2b"); !errors.Is(err, match.ErrNotFound) {
			t.Errorf("the stale write's answer was saved: %v", err)
		}
		if resp, _ := db.Response(ctx, "taken"); string(resp) != "first" {
			t.Errorf("duplicate overwrote the saved answer: %q", resp)
		}
		if _, err := db.ChannelGame(ctx, "c-new"); !errors.Is(err, match.ErrNotFound) {
			t.Errorf("the refused game was left behind: %v", err)
		}
		if _, err := db.ChannelGame(ctx, "c-other"); err != nil {
			t.Errorf("game created in the batch: %v", err)
		}
		checkGames(t, db)
	})
	t.Run("AFailureThatEndsTheTransaction", func(t *testing.T) {
		// A write whose failure takes SQLite's whole transaction with it
		// (here it ends it itself): it fails, the others run again and land.
		db := mustOpen(t)
		a := mustCreate(t, db, newGame("a", [2]string{"alice", match.BotID}, 5))
		b := mustCreate(t, db, newGame("b", [2]string{"alice", match.BotID}, 5))
		boom := errors.New("boom")
		release := holdWriter(t, db)
		var errA, errB, errX error
		var wg sync.WaitGroup
		wg.Go(func() { a, errA = db.Commit(ctx, mustChange(t, a, "ia")) })
		waitQueued(t, db, 1)
		wg.Go(func() {
			errX = db.withTx(ctx, func(ctx context.Context, tx *txn, _ time.Time) error {
				if _, err := tx.ExecContext(ctx, `ROLLBACK`); err != nil {
					return err
				}
				return boom
			})
		})
		waitQueued(t, db, 2)
		wg.Go(func() { b, errB = db.Commit(ctx, mustChange(t, b, "ib")) })
		waitQueued(t, db, 3)
		release()
		wg.Wait()
		if errA != nil || errB != nil || !errors.Is(errX, boom) {
			t.Fatalf("a: %v, b: %v, the failing write: %v", errA, errB, errX)
		}
		if a.Ply != 2 || b.Ply != 2 {
			t.Fatalf("plies %d and %d, want 2", a.Ply, b.Ply)
		}
		checkGames(t, db)
	})
	t.Run("PanicFailsItsWriteAlone", func(t *testing.T) {
		db := mustOpen(t)
		a := mustCreate(t, db, newGame("a", [2]string{"alice", match.BotID}, 5))
		release := holdWriter(t, db)
		var errA error
		var recovered any
		var wg sync.WaitGroup
		wg.Go(func() {
			defer func() { recovered = recover() }()
			// A write that panics after writing (as CreateGame's render
			// would, inside, when another process took its game's id).
			_ = db.withTx(ctx, func(ctx context.Context, tx *txn, now time.Time) error {
				g := newGame("p", [2]string{"alice", match.BotID}, 5)
				if _, err := insertGame(ctx, tx, db.ids.reserve(), g, `{"variant":"nim"}`, `{"heaps":[5]}`, `{"heaps":[5]}`, now); err != nil {
					return err
				}
				panic("render")
			})
		})
		waitQueued(t, db, 1)
		wg.Go(func() { a, errA = db.Commit(ctx, mustChange(t, a, "ia")) })
		waitQueued(t, db, 2)
		release()
		wg.Wait()
		if recovered != "render" || errA != nil || a.Ply != 2 {
			t.Fatalf("panic %v; the other write: %v, ply %d", recovered, errA, a.Ply)
		}
		if _, err := db.ChannelGame(ctx, "p"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("the panicking write left its game: %v", err)
		}
	})
	t.Run("ErrClosed", func(t *testing.T) {
		db, err := Open(ctx, Config{Path: t.TempDir() + "/nimbot.db", Now: clock()})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveResponse(ctx, "x", nil); !errors.Is(err, ErrClosed) {
			t.Fatalf("write after Close: %v", err)
		}
	})
}

// mustChange is a two-move turn in g (a human move and the bot's reply)
// answering interaction.
func mustChange(t *testing.T, g *match.Game, interaction string) match.Change {
	t.Helper()
	c, err := change(g, take(0, 1), take(0, 1))
	if err != nil {
		t.Fatal(err)
	}
	c.InteractionID, c.Response = interaction, []byte("board")
	return c
}
