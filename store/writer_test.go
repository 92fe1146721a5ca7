package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"nimbot/match"
)

// holdWriter occupies the writer until the returned release is called, so
// the writes started meanwhile queue up and are committed as one batch.
func holdWriter(t *testing.T, db *DB) (release func()) {
	t.Helper()
	held, hold := make(chan struct{}), make(chan struct{})
	go func() {
		_ = db.withTx(context.Background(), func(context.Context, queries, time.Time) error {
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
				return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
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
			errX = db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
				if _, err := tx.tx.ExecContext(ctx, `ROLLBACK`); err != nil {
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
	t.Run("ARefusalStandsOnlyWithWhatCausedIt", func(t *testing.T) {
		// A redelivery refused in a batch for the first delivery's answer
		// (a write that fails there is run without savepoints, so the
		// batch is rolled back and the rest run again): the first
		// delivery runs again even though its caller gave up meanwhile,
		// or the refusal would stand for an answer never saved.
		db := mustOpen(t)
		release := holdWriter(t, db)
		firstCtx, giveUp := context.WithCancel(ctx)
		var errFirst, errAgain error
		var wg sync.WaitGroup
		wg.Go(func() {
			errFirst = db.withTx(firstCtx, func(ctx context.Context, tx queries, now time.Time) error {
				if err := saveResponse(ctx, tx, "x", 0, []byte("first"), now); err != nil {
					return err
				}
				giveUp() // the caller gives up while its write is in the batch
				return nil
			})
		})
		waitQueued(t, db, 1)
		wg.Go(func() { errAgain = db.SaveResponse(ctx, "x", []byte("again")) })
		waitQueued(t, db, 2)
		release()
		wg.Wait()
		if !errors.Is(errAgain, match.ErrDuplicate) {
			t.Fatalf("the redelivery: %v, want ErrDuplicate", errAgain)
		}
		if resp, err := db.Response(ctx, "x"); err != nil || string(resp) != "first" {
			t.Fatalf("refused as a duplicate of an answer not saved: %q, %v (the first write: %v)", resp, err, errFirst)
		}
	})
	t.Run("ARefusalStandsAfterATransactionLost", func(t *testing.T) {
		// The same in a batch run with savepoints (after one write
		// failed), when a later write's failure takes the whole
		// transaction with it, as SQLite's automatic rollback does (disk
		// full, I/O error; here the write runs ROLLBACK itself): the
		// first delivery, which ran in the lost transaction, runs again
		// though its caller gave up, so the redelivery's refusal stands.
		db := mustOpen(t)
		release := holdWriter(t, db)
		errFails := errors.New("fails")
		firstCtx, giveUp := context.WithCancel(ctx)
		var errs [4]error
		jobs := []func() error{
			func() error { // fails at once: the batch runs again with savepoints
				return db.withTx(ctx, func(context.Context, queries, time.Time) error { return errFails })
			},
			func() error {
				return db.withTx(firstCtx, func(ctx context.Context, tx queries, now time.Time) error {
					if err := saveResponse(ctx, tx, "x", 0, []byte("first"), now); err != nil {
						return err
					}
					giveUp()
					return nil
				})
			},
			func() error { return db.SaveResponse(ctx, "x", []byte("again")) },
			func() error {
				return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
					_, _ = tx.tx.ExecContext(ctx, `ROLLBACK`)
					return errFails
				})
			},
		}
		var wg sync.WaitGroup
		for k, job := range jobs {
			wg.Go(func() { errs[k] = job() })
			waitQueued(t, db, k+1)
		}
		release()
		wg.Wait()
		if !errors.Is(errs[2], match.ErrDuplicate) {
			t.Fatalf("the redelivery: %v, want ErrDuplicate (all: %v)", errs[2], errs)
		}
		if resp, err := db.Response(ctx, "x"); err != nil || string(resp) != "first" {
			t.Fatalf("refused as a duplicate of an answer not saved: %q, %v (all: %v)", resp, err, errs)
		}
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
			_ = db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
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

// within waits for done, failing the test if it takes more than 10 s: a
// write that never returns is the failure these tests look for, and it
// should fail the test, not hang it.
func within(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still waiting after 10 s", what)
	}
}

// TestCommitterRole: the callers commit their own writes, one committer at
// a time (writer.go); the role is passed on after each batch, whatever
// way the batch ended, and never lost.
func TestCommitterRole(t *testing.T) {
	ctx := context.Background()
	t.Run("HandedOnUnderSustainedLoad", func(t *testing.T) {
		// Every write of a chain queues the next one while it is being
		// committed, so whenever a batch ends another write waits: the
		// load never lets up. The first caller must still return after
		// its own batch, not commit the others' writes until the load
		// stops (then it would return only after all of them).
		db := mustOpen(t)
		const links = 50
		var committed atomic.Int64
		var wg sync.WaitGroup
		var link func(i int) error
		link = func(i int) error {
			return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
				if err := saveResponse(ctx, tx, fmt.Sprint("chain-", i), 0, nil, now); err != nil {
					return err
				}
				if i < links {
					wg.Go(func() {
						if err := link(i + 1); err != nil {
							t.Errorf("link %d: %v", i+1, err)
						}
						committed.Add(1)
					})
					// The next write is queued before this batch commits.
					waitQueued(t, db, 1)
				}
				return nil
			})
		}
		if err := link(0); err != nil {
			t.Fatal(err)
		}
		// The first write's batch, and at most the one next (the next
		// committer may have finished before this line runs).
		if n := committed.Load(); n > 1 {
			t.Errorf("the first caller returned after %d later writes had committed: it kept the committer's role", n)
		}
		wg.Wait()
		if n := committed.Load(); n != links {
			t.Errorf("%d of the chain's %d later writes committed", n, links)
		}
		for i := range links + 1 {
			if _, err := db.Response(ctx, fmt.Sprint("chain-", i)); err != nil {
				t.Errorf("chain-%d: %v", i, err)
			}
		}
	})
	t.Run("PanicInTheCommittersWrite", func(t *testing.T) {
		// The committer's own write panics while others queue behind it:
		// the panic reaches its caller alone, and the role goes on to the
		// queued writes, which commit.
		db := mustOpen(t)
		a := mustCreate(t, db, newGame("a", [2]string{"alice", match.BotID}, 5))
		const others = 3
		var recovered any
		errs := make([]error, others)
		var wg sync.WaitGroup
		wg.Go(func() {
			defer func() { recovered = recover() }()
			_ = db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
				if err := saveResponse(ctx, tx, "panicking", 0, nil, now); err != nil {
					return err
				}
				// This caller is the committer (nobody else writes yet);
				// the others queue while its write runs.
				for k := range others {
					wg.Go(func() {
						if k == 0 {
							a, errs[k] = db.Commit(ctx, mustChange(t, a, "ia"))
							return
						}
						errs[k] = db.SaveResponse(ctx, fmt.Sprint("other-", k), []byte("x"))
					})
				}
				waitQueued(t, db, others)
				panic("render")
			})
		})
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		within(t, done, "the writes queued behind a panicking committer")
		if recovered != "render" {
			t.Fatalf("the committer's caller recovered %v, want its own panic", recovered)
		}
		for k, err := range errs {
			if err != nil {
				t.Errorf("write %d queued behind the panic: %v", k, err)
			}
		}
		if a.Ply != 2 {
			t.Errorf("ply %d, want 2", a.Ply)
		}
		if _, err := db.Response(ctx, "panicking"); !errors.Is(err, match.ErrNotFound) {
			t.Errorf("the panicking write's answer was saved: %v", err)
		}
		// Nobody holds the role now: a write commits at once.
		if err := db.SaveResponse(ctx, "after", nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("GoexitInACommittersBatch", func(t *testing.T) {
		// A job's body that ends its goroutine (runtime.Goexit, as
		// t.FailNow does) is not recovered as a panic is: it unwinds
		// through the commit itself, as a panic of the driver's would.
		// The committer's goroutine is gone; its batch-mate, whose outcome
		// was not yet known, fails with errAbandoned (nothing of it
		// committed), and the writes queued after still commit.
		db := mustOpen(t)
		release := holdWriter(t, db)
		exited := make(chan struct{})
		go func() {
			defer close(exited)
			_ = db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
				if err := saveResponse(ctx, tx, "exiting", 0, nil, now); err != nil {
					return err
				}
				runtime.Goexit()
				return nil
			})
			t.Error("withTx returned in a goroutine that exited")
		}()
		waitQueued(t, db, 1)
		var errMate, errLater error
		mate, later := make(chan struct{}), make(chan struct{})
		go func() { defer close(mate); errMate = db.SaveResponse(ctx, "mate", nil) }()
		waitQueued(t, db, 2)
		release()
		within(t, exited, "the exiting committer")
		within(t, mate, "its batch-mate")
		if !errors.Is(errMate, errAbandoned) {
			t.Errorf("the batch-mate: %v, want errAbandoned", errMate)
		}
		go func() { defer close(later); errLater = db.SaveResponse(ctx, "later", nil) }()
		within(t, later, "a write after the exit")
		if errLater != nil {
			t.Fatal(errLater)
		}
		for id, want := range map[string]error{"exiting": match.ErrNotFound, "mate": match.ErrNotFound, "later": nil} {
			if _, err := db.Response(ctx, id); !errors.Is(err, want) {
				t.Errorf("%s: %v, want %v", id, err, want)
			}
		}
	})
	t.Run("CloseWithACommitterAndAQueue", func(t *testing.T) {
		// Close while a batch commits and writes queue behind it: it
		// refuses new writes at once, lets the queued ones commit, and
		// returns only when no committer is left.
		path := t.TempDir() + "/nimbot.db"
		db, err := Open(ctx, Config{Path: path, Now: clock()})
		if err != nil {
			t.Fatal(err)
		}
		release := holdWriter(t, db)
		const queued = 3
		errs := make([]error, queued)
		var wg sync.WaitGroup
		for k := range queued {
			wg.Go(func() { errs[k] = db.SaveResponse(ctx, fmt.Sprint("queued-", k), []byte("x")) })
			waitQueued(t, db, k+1)
		}
		closed := make(chan struct{})
		var closeErr error
		go func() { defer close(closed); closeErr = db.Close() }()
		for deadline := time.Now().Add(10 * time.Second); ; {
			db.writes.mu.Lock()
			closing := db.writes.closed
			db.writes.mu.Unlock()
			if closing {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("Close never stopped taking writes")
			}
			time.Sleep(time.Millisecond)
		}
		if err := db.SaveResponse(ctx, "late", nil); !errors.Is(err, ErrClosed) {
			t.Fatalf("a write while closing: %v, want ErrClosed", err)
		}
		select {
		case <-closed:
			t.Fatal("Close returned while a committer held its batch")
		default:
		}
		release()
		within(t, closed, "Close")
		db.writes.mu.Lock()
		leading := db.writes.leading
		db.writes.mu.Unlock()
		if leading {
			t.Error("Close returned with a committer active")
		}
		wg.Wait()
		if closeErr != nil {
			t.Fatal(closeErr)
		}
		if _, err := db.writes.stmts[heartbeatSQL].ExecContext(ctx, 0); err == nil {
			t.Error("the writer's statements still run after Close")
		}
		for k, err := range errs {
			if err != nil {
				t.Errorf("queued write %d: %v", k, err)
			}
		}
		db = mustOpenPath(t, path, "")
		for k := range queued {
			if _, err := db.Response(ctx, fmt.Sprint("queued-", k)); err != nil {
				t.Errorf("queued-%d after reopening: %v", k, err)
			}
		}
	})
	t.Run("ManyWriters", func(t *testing.T) {
		// Goroutines hammering Commit, each on its own game, and some on
		// one shared game (where all but one of each turn's clicks are
		// stale): every write gets the right outcome and the counters add
		// up. Run under -race.
		db := mustOpen(t)
		const writers, moves = 12, 20
		games := make([]*match.Game, writers)
		for i := range games {
			games[i] = mustCreate(t, db, newGame(fmt.Sprint("c", i), [2]string{"alice", match.BotID}, 1<<40))
		}
		shared := mustCreate(t, db, newGame("shared", [2]string{"alice", match.BotID}, 1<<40))
		batchesBefore, jobsBefore := db.writes.stats()
		var sharedWon, sharedStale atomic.Int64
		var wg sync.WaitGroup
		for w := range writers {
			wg.Go(func() {
				g := games[w]
				for m := range moves {
					var err error
					if g, err = db.Commit(ctx, mustChange(t, g, fmt.Sprint("w", w, "-", m))); err != nil {
						t.Errorf("writer %d move %d: %v", w, m, err)
						return
					}
				}
				games[w] = g
			})
			if w%3 == 0 {
				wg.Go(func() {
					for m := range moves {
						g, err := db.Game(ctx, shared.ID)
						if err != nil {
							t.Error(err)
							return
						}
						switch _, err := db.Commit(ctx, mustChange(t, g, fmt.Sprint("s", w, "-", m))); {
						case err == nil:
							sharedWon.Add(1)
						case errors.Is(err, match.ErrStale):
							sharedStale.Add(1)
						default:
							t.Errorf("shared game: %v", err)
						}
					}
				})
			}
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		within(t, done, "the writers")
		for w, g := range games {
			if g.Ply != 2*moves {
				t.Errorf("writer %d's game at ply %d, want %d", w, g.Ply, 2*moves)
			}
		}
		g, err := db.Game(ctx, shared.ID)
		if err != nil {
			t.Fatal(err)
		}
		if won := sharedWon.Load(); int64(g.Ply) != 2*won || won+sharedStale.Load() != 4*moves {
			t.Errorf("shared game at ply %d after %d won and %d stale clicks", g.Ply, won, sharedStale.Load())
		}
		batches, jobs := db.writes.stats()
		if want := int64(writers*moves) + sharedWon.Load(); jobs-jobsBefore != want || batches-batchesBefore > want {
			t.Errorf("%d jobs in %d COMMITs, want %d jobs", jobs-jobsBefore, batches-batchesBefore, want)
		}
		checkGames(t, db)
	})
}

// TestGroupCommitRolledBackBySQLite: a write that fails with an error on
// which SQLite rolls back the whole transaction by itself (SQLITE_FULL on a
// statement without a statement journal; here the file's page limit) fails
// alone: the writes batched with it, before and after, run again in a new
// transaction and land.
func TestGroupCommitRolledBackBySQLite(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	a := mustCreate(t, db, newGame("a", [2]string{"alice", match.BotID}, 5))
	b := mustCreate(t, db, newGame("b", [2]string{"alice", match.BotID}, 5))
	var pages int64
	if err := db.writeConn.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	// Room for the small writes, not for a 1 MiB answer. The pool's one
	// connection is the writer's.
	if _, err := db.writeConn.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages+40)); err != nil {
		t.Fatal(err)
	}
	release := holdWriter(t, db)
	before, _ := db.writes.stats()
	var errA, errB, errX error
	var wg sync.WaitGroup
	wg.Go(func() { a, errA = db.Commit(ctx, mustChange(t, a, "ia")) })
	waitQueued(t, db, 1)
	wg.Go(func() { errX = db.SaveResponse(ctx, "huge", make([]byte, 1<<20)) })
	waitQueued(t, db, 2)
	wg.Go(func() { b, errB = db.Commit(ctx, mustChange(t, b, "ib")) })
	waitQueued(t, db, 3)
	release()
	wg.Wait()
	var se sqlite3.Error
	if !errors.As(errX, &se) || se.Code != sqlite3.ErrFull {
		t.Fatalf("the write past the page limit: %v, want SQLITE_FULL", errX)
	}
	if errA != nil || errB != nil || a.Ply != 2 || b.Ply != 2 {
		t.Fatalf("a: %v ply %d, b: %v ply %d; want both at ply 2", errA, a.Ply, errB, b.Ply)
	}
	// The held write, the batch SQLite rolled back (no COMMIT), the retry.
	if after, _ := db.writes.stats(); after-before != 2 {
		t.Errorf("%d COMMITs, want 2", after-before)
	}
	for _, id := range []string{"ia", "ib"} {
		if _, err := db.Response(ctx, id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	if _, err := db.Response(ctx, "huge"); !errors.Is(err, match.ErrNotFound) {
		t.Errorf("the failed write's answer: %v", err)
	}
	// The connection is left in autocommit, usable by the next batch.
	if err := db.SaveResponse(ctx, "after", []byte("x")); err != nil {
		t.Fatal(err)
	}
	checkGames(t, db)
}

// TestConcurrentUse: reads on every pooled connection, writes batched by
// the writer and an online backup all run at once and each sees whole games
// (run it under -race).
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	const channels, turns = 8, 12
	games := make([]*match.Game, channels)
	for i := range games {
		games[i] = mustCreate(t, db, newGame(fmt.Sprint("c", i), [2]string{"alice", match.BotID}, 1<<20))
	}
	stop := make(chan struct{})
	var writers, readers sync.WaitGroup
	for i := range games {
		writers.Go(func() {
			g := games[i]
			for n := range turns {
				c, err := change(g, take(0, 1), take(0, 1))
				if err != nil {
					t.Error(err)
					return
				}
				c.InteractionID, c.Response = fmt.Sprint("i", i, "-", n), []byte("board")
				if g, err = db.Commit(ctx, c); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for r := range 8 {
		readers.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				g := games[(r+n)%channels]
				b, err := db.Board(ctx, g.ID)
				if err != nil {
					t.Error(err)
					return
				}
				if len(b.Moves) != b.Game.Ply || b.Game.Ply%2 != 0 {
					t.Errorf("game %d read at ply %d with %d moves", g.ID, b.Game.Ply, len(b.Moves))
					return
				}
				if b.Game.Ply > 0 {
					if _, err := db.Response(ctx, fmt.Sprint("i", (r+n)%channels, "-", b.Game.Ply/2-1)); err != nil {
						t.Errorf("the answer of a committed turn: %v", err)
						return
					}
				}
			}
		})
	}
	if err := db.Backup(ctx, t.TempDir()+"/copy.db"); err != nil {
		t.Error(err)
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	for _, g := range games {
		if got, err := db.Game(ctx, g.ID); err != nil || got.Ply != 2*turns {
			t.Errorf("game %d: %v, %v; want ply %d", g.ID, got, err, 2*turns)
		}
	}
	checkGames(t, db)
}
