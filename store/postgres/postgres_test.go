package postgres

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3/lock"

	"nimbot/engine"
	"nimbot/internal/pgtest"
	"nimbot/match"
	"nimbot/migrations"
)

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func fixed() time.Time { return epoch }

func newGame(channel string, players [2]string, heaps ...int64) *match.Game {
	return &match.Game{GuildID: "guild", ChannelID: channel, Rules: engine.Rules{Variant: engine.Nim},
		Start: engine.Position{Heaps: heaps}, Players: players, Status: match.Active, CreatedBy: players[0]}
}

func mustCreate(tb testing.TB, db *DB, g *match.Game) *match.Game {
	tb.Helper()
	if err := db.CreateGame(context.Background(), g); err != nil {
		tb.Fatal(err)
	}
	return g
}

func take(h int, n int64) engine.Move { return engine.Move{Kind: engine.Take, Heap: h, Take: n} }

// checkRows verifies, in SQL, what the contract suite cannot see: every
// game's ply is its number of moves, and exactly the finished games have a
// result.
func checkRows(tb testing.TB, db *DB) {
	tb.Helper()
	var bad int
	err := db.pool.QueryRow(context.Background(), `SELECT count(*) FROM games g
		WHERE g.ply <> (SELECT count(*) FROM moves m WHERE m.game_id = g.id)
		   OR (g.status NOT IN ('pending', 'active')) <> EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)`).Scan(&bad)
	if err != nil {
		tb.Fatal(err)
	}
	if bad != 0 {
		tb.Fatalf("%d games whose ply, moves or result disagree", bad)
	}
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	// Instances starting at once on a new database: one migrates, the
	// others wait for its lock and find the schema up to date.
	const n = 4
	dbs := make([]*DB, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { dbs[i], errs[i] = Open(ctx, Config{URL: url}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		defer dbs[i].Close()
	}
	v, err := dbs[0].SchemaVersion(ctx)
	if err != nil || v != LatestSchemaVersion() || v < 2 {
		t.Fatalf("schema version %d, %v; latest %d", v, err, LatestSchemaVersion())
	}
	var tables []string
	rows, _ := dbs[0].pool.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)
	tables, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	want := "bot_record daily_channels forget_requests games goose_db_version heartbeat hints interactions lesson_progress moves puzzle_attempts puzzle_members puzzle_players puzzle_ratings results stats sweeps"
	if got := strings.Join(tables, " "); got != want {
		t.Fatalf("tables %s, want %s", got, want)
	}

	t.Run("ErrSchemaTooNew", func(t *testing.T) {
		if _, err := dbs[0].pool.Exec(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (999, true)`); err != nil {
			t.Fatal(err)
		}
		db, err := Open(ctx, Config{URL: url})
		if !errors.Is(err, migrations.ErrSchemaTooNew) {
			if db != nil {
				db.Close()
			}
			t.Fatalf("got %v", err)
		}
	})
	t.Run("LockWaitsInTheServer", func(t *testing.T) {
		// Another instance holds the migration lock (this test's session):
		// an instance starting meanwhile waits for it inside PostgreSQL
		// (pg_advisory_lock), so it goes on the moment the lock is free.
		// goose's own locker tried every 5 s instead, and instances
		// started together became ready 5 s apart.
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, lock.DefaultLockID); err != nil {
			t.Fatal(err)
		}
		opened := make(chan error, 1)
		go func() {
			db, err := Open(ctx, Config{URL: url})
			if err == nil {
				db.Close()
			}
			opened <- err
		}()
		for deadline := time.Now().Add(30 * time.Second); ; {
			if time.Now().After(deadline) {
				t.Fatal("30 s and no session waits for the migration lock in the server")
			}
			var waiting int
			if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&waiting); err != nil {
				t.Fatal(err)
			}
			if waiting > 0 {
				break
			}
			select {
			case err := <-opened:
				t.Fatalf("Open returned while another session held the migration lock: %v", err)
			case <-time.After(10 * time.Millisecond):
			}
		}
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, lock.DefaultLockID); err != nil {
			t.Fatal(err)
		}
		if err := <-opened; !errors.Is(err, migrations.ErrSchemaTooNew) { // the version 999 above
			t.Fatalf("Open after the lock was freed: %v", err)
		}
	})
	t.Run("BadURL", func(t *testing.T) {
		_, err := Open(ctx, Config{URL: "postgres://nimbot:s3cret@[::1"})
		if err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Fatalf("got %v; want an error that does not quote the password", err)
		}
	})
}

// TestCheckWrite: /healthz's write probe lands a heartbeat row, and fails
// when it cannot finish in time.
func TestCheckWrite(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, Config{URL: pgtest.DB(t), Now: fixed})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 2 {
		if err := db.CheckWrite(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var at int64
	if err := db.pool.QueryRow(ctx, `SELECT at FROM heartbeat WHERE id = 1`).Scan(&at); err != nil || at != epoch.UnixMilli() {
		t.Fatalf("heartbeat at %d (%v), want %d", at, err, epoch.UnixMilli())
	}
	// Another session holds the row: the probe waits, and gives up with ctx.
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT 1 FROM heartbeat WHERE id = 1 FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if err := db.CheckWrite(short); err == nil {
		t.Fatal("CheckWrite succeeded while the row was locked past its deadline")
	}
}

// TestSchemaRules: the schema itself refuses what the contract forbids,
// even to a writer that skips the store's checks.
func TestSchemaRules(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, fixed)
	g := mustCreate(t, db, newGame("c1", [2]string{"alice", "bob"}, 3))
	if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 0, From: match.Active, Moves: []engine.Move{take(0, 1)},
		Position: engine.Position{Heaps: []int64{2}}, Status: match.Active}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, sql, want string
	}{
		{"PastPly", `INSERT INTO moves (game_id, ply, player, move, at) VALUES ($1, 0, 'x', '{}', 0)`, "stale move"},
		{"FuturePly", `INSERT INTO moves (game_id, ply, player, move, at) VALUES ($1, 2, 'x', '{}', 0)`, "stale move"},
		{"RewriteMove", `UPDATE moves SET player = 'mallory' WHERE game_id = $1`, "append-only"},
		{"SecondLiveGame", `INSERT INTO games (channel_id, variant, rules, start, position, status, created_by, created_at, updated_at)
			SELECT channel_id, variant, rules, start, position, 'pending', 'x', 0, 0 FROM games WHERE id = $1`, "games_one_live_per_channel"},
		{"NotJSON", `UPDATE games SET position = 'heaps' WHERE id = $1`, "json"},
		{"UnknownStatus", `UPDATE games SET status = 'paused' WHERE id = $1`, "games_status_check"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := db.pool.Exec(ctx, tt.sql, g.ID)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v; want an error mentioning %q", err, tt.want)
			}
		})
	}
	t.Run("MoveInFinishedGame", func(t *testing.T) {
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 1, From: match.Active, Status: match.Ended}); err != nil {
			t.Fatal(err)
		}
		_, err := db.pool.Exec(ctx, `INSERT INTO moves (game_id, ply, player, move, at) VALUES ($1, 1, 'x', '{}', 0)`, g.ID)
		if err == nil || !strings.Contains(err.Error(), "stale move") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("InteractionAnsweredOnce", func(t *testing.T) {
		if err := db.SaveResponse(ctx, "i1", []byte("a")); err != nil {
			t.Fatal(err)
		}
		_, err := db.pool.Exec(ctx, `INSERT INTO interactions (id, response, at) VALUES ('i1', 'b', 0)`)
		if !isUnique(err, "interactions_pkey") {
			t.Fatalf("got %v", err)
		}
	})
	checkRows(t, db)
}

// TestInstances: two store handles on one database stand in for two
// processes; each has its own pool, so they share nothing but PostgreSQL.
func TestInstances(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	var dbs [2]*DB
	for i := range dbs {
		db, err := Open(ctx, Config{URL: url, Now: fixed})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}

	t.Run("ClicksOnOneBoard", func(t *testing.T) {
		g := mustCreate(t, dbs[0], newGame("c1", [2]string{"alice", "bob"}, 100))
		const n = 40
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				_, errs[i] = dbs[i%2].Commit(ctx, match.Change{GameID: g.ID, Ply: 0, From: match.Active,
					Moves: []engine.Move{take(0, int64(i+1))}, Position: engine.Position{Heaps: []int64{int64(99 - i)}},
					Status: match.Active, InteractionID: fmt.Sprint("click-", i)})
			})
		}
		close(start)
		wg.Wait()
		applied, winner := 0, -1
		for i, err := range errs {
			switch {
			case err == nil:
				applied, winner = applied+1, i
			case !errors.Is(err, match.ErrStale):
				t.Error(err)
			}
		}
		if applied != 1 {
			t.Fatalf("%d clicks applied", applied)
		}
		// The refused clicks changed nothing: not the position the one
		// applied left, nor its saved answer.
		got, err := dbs[0].Game(ctx, g.ID)
		if err != nil || !reflect.DeepEqual(got.Position.Heaps, []int64{int64(99 - winner)}) {
			t.Fatalf("after click %d applied: %+v, %v", winner, got, err)
		}
		var answers int
		if err := dbs[0].pool.QueryRow(ctx, `SELECT count(*) FROM interactions WHERE id LIKE 'click-%'`).Scan(&answers); err != nil || answers != 1 {
			t.Fatalf("%d answers saved (%v), want 1", answers, err)
		}
		checkRows(t, dbs[0])
	})

	t.Run("ResultsBetweenTheSamePlayers", func(t *testing.T) {
		// Games between alice and bob ending at once, won by either: the
		// statistics rows are locked in one order, so none deadlocks, and
		// ratings stay zero-sum.
		const n = 30
		games := make([]*match.Game, n)
		for i := range n {
			players := [2]string{"alice", "bob"}
			if i%2 == 1 {
				players = [2]string{"bob", "alice"}
			}
			games[i] = mustCreate(t, dbs[i%2], newGame(fmt.Sprint("r", i), players, 1))
		}
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, g := range games {
			wg.Go(func() {
				<-start
				_, errs[i] = dbs[i%2].Commit(ctx, match.Change{GameID: g.ID, From: match.Active,
					Moves: []engine.Move{take(0, 1)}, Position: engine.Position{Heaps: []int64{0}},
					Status: match.Won, Winner: g.Players[0]})
			})
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		a, _ := dbs[0].Stats(ctx, "guild", "alice", "")
		b, _ := dbs[1].Stats(ctx, "guild", "bob", "")
		if a.Wins != n/2 || a.Losses != n/2 || b.Wins != n/2 || b.Losses != n/2 || a.Rating+b.Rating != 2*match.InitialRating {
			t.Fatalf("alice %+v, bob %+v", a, b)
		}
		var rated int
		if err := dbs[0].pool.QueryRow(ctx, `SELECT sum(rated_games) FROM stats WHERE variant = ''`).Scan(&rated); err != nil || rated != 2*n {
			t.Fatalf("%d rated games counted (%v), want %d", rated, err, 2*n)
		}
		checkRows(t, dbs[0])
	})

	t.Run("DueSkipsLockedGames", func(t *testing.T) {
		g := newGame("d1", [2]string{"alice", "bob"}, 3)
		g.Deadline = epoch.Add(-time.Minute)
		mustCreate(t, dbs[0], g)
		h := newGame("d2", [2]string{"alice", "bob"}, 3)
		h.Deadline = epoch.Add(-time.Second)
		mustCreate(t, dbs[0], h)
		// Another instance is in the middle of committing to g.
		tx, err := dbs[1].pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, g.ID); err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		due, err := dbs[0].Due(wctx, epoch, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) != 1 || due[0].ID != h.ID {
			t.Fatalf("due %v; want only game %d", due, h.ID)
		}
		tx.Rollback(ctx)
		if due, _ := dbs[0].Due(ctx, epoch, 10); len(due) != 2 || due[0].ID != g.ID {
			t.Fatalf("due after the lock went: %v", due)
		}
	})

	t.Run("ClaimDueOnce", func(t *testing.T) {
		// Six schedulers on two instances claim batches of due games until
		// none is left: each game is handed to exactly one of them.
		const games, claimers, batch = 90, 6, 7
		now := epoch.Add(time.Hour)
		left, err := dbs[0].Due(ctx, now, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range left {
			// Earlier subtests' games: end them, so only this one's are due.
			dbs[0].Commit(ctx, match.Change{GameID: g.ID, Ply: g.Ply, From: g.Status, Status: match.Ended})
		}
		for i := range games {
			g := newGame(fmt.Sprint("claim", i), [2]string{"alice", "bob"}, 3)
			g.Deadline = epoch.Add(time.Duration(i%5) * time.Minute)
			mustCreate(t, dbs[i%2], g)
		}
		claims := make([][]int64, claimers)
		errs := make([]error, claimers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range claimers {
			wg.Go(func() {
				<-start
				for {
					got, err := dbs[i%2].ClaimDue(ctx, now, time.Minute, batch)
					if err != nil || len(got) == 0 {
						errs[i] = err
						return
					}
					for _, g := range got {
						claims[i] = append(claims[i], g.ID)
					}
					if len(claims[i]) > games {
						errs[i] = fmt.Errorf("claimer %d was handed %d games of %d", i, len(claims[i]), games)
						return
					}
				}
			})
		}
		close(start)
		wg.Wait()
		seen := map[int64]int{}
		for i := range claimers {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			for _, id := range claims[i] {
				seen[id]++
			}
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("game %d claimed %d times", id, n)
			}
		}
		if len(seen) != games {
			t.Fatalf("%d games claimed, want %d", len(seen), games)
		}
		// Due, which takes no lease, still sees them all.
		if due, _ := dbs[0].Due(ctx, now, 1000); len(due) != games {
			t.Fatalf("Due: %d games", len(due))
		}
		// A claimer that died: its games come back once the lease passes,
		// most overdue first.
		if got, _ := dbs[1].ClaimDue(ctx, now.Add(time.Minute-time.Millisecond), time.Minute, 1000); len(got) != 0 {
			t.Fatalf("%d games claimed again within the lease", len(got))
		}
		again, err := dbs[1].ClaimDue(ctx, now.Add(time.Minute), time.Minute, 1000)
		if err != nil || len(again) != games {
			t.Fatalf("after the lease: %d games, %v", len(again), err)
		}
		for i := 1; i < len(again); i++ {
			if again[i].Deadline.Before(again[i-1].Deadline) {
				t.Fatalf("not the most overdue first: %v then %v", again[i-1].Deadline, again[i].Deadline)
			}
		}
		// A commit ends the lease: a game that moved and is due again is
		// claimable at once.
		g := again[0]
		moved, err := dbs[0].Commit(ctx, match.Change{GameID: g.ID, Ply: g.Ply, From: g.Status,
			Moves: []engine.Move{take(0, 1)}, Position: engine.Position{Heaps: []int64{2}},
			Status: match.Active, Deadline: now.Add(time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		got, err := dbs[0].ClaimDue(ctx, now.Add(2*time.Second), time.Minute, 1000)
		if err != nil || len(got) != 1 || got[0].ID != moved.ID || got[0].Ply != 1 {
			t.Fatalf("after a commit: %v, %v", got, err)
		}
		for _, g := range append(again, got...) {
			// End them, so the subtests after this one find no due games.
			dbs[0].Commit(ctx, match.Change{GameID: g.ID, Ply: g.Ply, From: match.Active, Status: match.Ended})
		}
		if _, err := dbs[0].ClaimDue(ctx, now, 0, 1); !errors.Is(err, match.ErrInvalid) {
			t.Fatalf("a zero lease: %v", err)
		}
	})

	t.Run("PruneOnce", func(t *testing.T) {
		if err := dbs[0].SaveResponse(ctx, "old", []byte("x")); err != nil {
			t.Fatal(err)
		}
		// Another instance is pruning: this one leaves it to that one.
		tx, err := dbs[1].pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pruneLock)); err != nil {
			t.Fatal(err)
		}
		if n, err := dbs[0].PruneInteractions(ctx, epoch.Add(time.Hour)); err != nil || n != 0 {
			t.Fatalf("pruned %d, %v while another instance prunes", n, err)
		}
		tx.Rollback(ctx)
		if n, err := dbs[0].PruneInteractions(ctx, epoch.Add(time.Hour)); err != nil || n == 0 {
			t.Fatalf("pruned %d, %v", n, err)
		}
		if _, err := dbs[1].Response(ctx, "old"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("after pruning: %v", err)
		}
	})

	t.Run("PruneInBatches", func(t *testing.T) {
		const n = 2*match.PruneBatch + 7
		if _, err := dbs[0].pool.Exec(ctx, `INSERT INTO interactions (id, response, at)
			SELECT 'batch-' || i, '', i FROM generate_series(1, $1) AS i`, n); err != nil {
			t.Fatal(err)
		}
		if err := dbs[0].SaveResponse(ctx, "recent", []byte("x")); err != nil {
			t.Fatal(err)
		}
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := dbs[0].PruneInteractions(cancelled, epoch); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled: %v", err)
		}
		if got, err := dbs[0].PruneInteractions(ctx, epoch); err != nil || got != n {
			t.Fatalf("pruned %d, %v; want %d", got, err, n)
		}
		if _, err := dbs[0].Response(ctx, "recent"); err != nil {
			t.Fatalf("an answer from now was pruned: %v", err)
		}
		// The lock went back with the connection: pruning works again.
		if got, err := dbs[1].PruneInteractions(ctx, epoch.Add(time.Hour)); err != nil || got != 1 {
			t.Fatalf("pruned %d, %v; want 1", got, err)
		}
	})
}

// TestCreateGameRendersAhead: Respond's render runs once, before the
// transaction, with the game exactly as committed (first turn included),
// under an id from the sequence; a create refused on a busy channel uses
// one up, and no id is ever handed out twice.
func TestCreateGameRendersAhead(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, fixed)
	var renders int
	var seen match.Game
	respond := func(id string) match.CreateOption {
		return match.Respond(id, func(g *match.Game) ([]byte, error) {
			renders++
			seen = *g
			// Before the transaction: the game is nowhere to be seen yet,
			// not even its channel's lock held.
			var n int
			if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND state LIKE 'idle in transaction%'`).Scan(&n); err != nil || n != 0 {
				return nil, fmt.Errorf("rendered with %d transactions open (%v)", n, err)
			}
			return fmt.Appendf(nil, "game %d at ply %d", g.ID, g.Ply), nil
		})
	}
	g := newGame("c1", [2]string{match.BotID, "alice"}, 3, 4, 5)
	g.Rules = engine.Rules{Variant: engine.Subtraction, Set: []int{1, 2, 3}}
	g.Difficulty, g.TurnTimeout, g.Locale, g.Deadline = engine.Hard, time.Minute, "de", epoch.Add(time.Minute+123456)
	err := db.CreateGame(ctx, g, respond("i1"), match.FirstTurn(match.Change{Moves: []engine.Move{take(2, 2)},
		Position: engine.Position{Heaps: []int64{3, 4, 3}}, Status: match.Active, Deadline: epoch.Add(time.Hour + 7)}))
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if renders != 1 || !reflect.DeepEqual(seen, *got) || !reflect.DeepEqual(*g, *got) {
		t.Fatalf("%d renders of\n%+v\ncaller's\n%+v\nstored\n%+v", renders, seen, *g, *got)
	}
	if resp, err := db.Response(ctx, "i1"); err != nil || string(resp) != fmt.Sprintf("game %d at ply 1", g.ID) {
		t.Fatalf("saved answer %q, %v", resp, err)
	}
	if err := db.CreateGame(ctx, newGame("c1", [2]string{"bob", match.BotID}, 3), respond("i2")); !errors.Is(err, match.ErrChannelBusy) {
		t.Fatalf("busy channel: %v", err)
	}
	if _, err := db.Response(ctx, "i2"); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("the refused start's answer was saved: %v", err)
	}
	renders = 0
	h := newGame("c2", [2]string{"bob", match.BotID}, 3)
	if err := db.CreateGame(ctx, h, respond("i3")); err != nil {
		t.Fatal(err)
	}
	if h.ID <= g.ID+1 || renders != 1 || seen.ID != h.ID {
		t.Fatalf("after %d: created %d after %d renders of game %d", g.ID, h.ID, renders, seen.ID)
	}
	// Without Respond the id comes from the same sequence.
	k := mustCreate(t, db, newGame("c3", [2]string{"bob", match.BotID}, 3))
	if k.ID <= h.ID {
		t.Fatalf("the next game is %d, after %d", k.ID, h.ID)
	}
	checkRows(t, db)
}
