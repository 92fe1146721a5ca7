package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"nimbot/match"
)

// The statements of forgetting are set-based, one per table, so a user or
// server is forgotten in a handful of statements whatever they played. The
// scans they make (saved answers by content, games by seat) run rarely
// and hold the write lock for one scan of each table: nimbot has no index
// by player, which every move's write would pay for.

// scopeSQL is match.Scope in SQL, for a row of games.
const scopeSQL = `CASE WHEN guild_id <> '' THEN guild_id ELSE 'dm:' || channel_id END`

// seatedSQL matches the games ?1 has a seat in, or created.
const seatedSQL = `(player0 = ?1 OR player1 = ?1 OR created_by = ?1)`

// soloSQL matches the games ?1 has a seat in with nobody else: nimbot, an
// empty seat or a forgotten player (?3) at most.
const soloSQL = seatedSQL + ` AND player0 IN (?1, '` + match.BotID + `', '', ?3) AND player1 IN (?1, '` + match.BotID + `', '', ?3)`

// namesSQL matches the saved answers that name ?1: in their key (the
// commands package's AnswerKey holds the user's id) or their bytes (a
// mention, a link with a server's id).
const namesSQL = `(instr(id, ?1) > 0 OR instr(response, CAST(?1 AS BLOB)) > 0)`

// Holdings returns what the database holds about userID, per scope (see
// match.Privacy).
func (db *DB) Holdings(ctx context.Context, userID string) ([]match.Holding, error) {
	if err := match.CheckUserID(userID); err != nil {
		return nil, err
	}
	tx, err := db.readers.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	q := queries{stmts: db.reads.stmts, tx: tx}
	h := holdings{}
	for _, c := range holdingCounts {
		if err := h.add(ctx, q, c.query, userID, c.add); err != nil {
			return nil, err
		}
	}
	return h.list(), nil
}

// holdingCounts are Holdings' queries, each counting one kind of row per
// scope.
var holdingCounts = []struct {
	query string
	add   func(*match.Holding, int)
}{
	{`SELECT ` + scopeSQL + `, count(*) FROM games WHERE ` + seatedSQL + ` GROUP BY 1`,
		func(x *match.Holding, n int) { x.Games += n }},
	{`SELECT ` + scopeSQL + `, count(*) FROM moves JOIN games ON games.id = moves.game_id
		WHERE moves.player = ?1 AND ` + seatedSQL + ` GROUP BY 1`,
		func(x *match.Holding, n int) { x.Moves += n }},
	{`SELECT ` + scopeSQL + `, count(*) FROM hints JOIN games ON games.id = hints.game_id
		WHERE hints.user_id = ?1 GROUP BY 1`,
		func(x *match.Holding, n int) { x.Hints += n }},
	{`SELECT guild_id, count(*) FROM stats WHERE user_id = ?1 GROUP BY 1`,
		func(x *match.Holding, n int) { x.Records += n }},
	{`SELECT guild_id, count(*) FROM bot_record WHERE user_id = ?1 GROUP BY 1`,
		func(x *match.Holding, n int) { x.Records += n }},
	{`SELECT '', count(*) FROM interactions WHERE ` + namesSQL,
		func(x *match.Holding, n int) { x.Answers += n }},
}

// holdings gathers counts by scope.
type holdings map[string]*match.Holding

func (h holdings) add(ctx context.Context, tx queries, query, userID string, add func(*match.Holding, int)) error {
	rows, err := tx.QueryContext(ctx, query, userID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var scope string
		var n int
		if err := rows.Scan(&scope, &n); err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		if h[scope] == nil {
			h[scope] = &match.Holding{Scope: scope}
		}
		add(h[scope], n)
	}
	return rows.Err()
}

// list is h in scope order.
func (h holdings) list() []match.Holding { return match.SortHoldings(h) }

// ForgetUser forgets userID everywhere, in one transaction (see
// match.Privacy).
func (db *DB) ForgetUser(ctx context.Context, userID string) (match.Forgotten, error) {
	if err := match.CheckUserID(userID); err != nil {
		return match.Forgotten{}, err
	}
	var f match.Forgotten
	err := db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) (err error) {
		f, err = forgetUser(ctx, tx, userID, now)
		return err
	})
	return f, err
}

// keepLargestID notes the largest game id before games are deleted, so
// that Open goes on after it rather than hand it out again (gameIDs).
const keepLargestID = `INSERT INTO game_ids (id, largest) SELECT 1, max(id) FROM games WHERE true HAVING max(id) IS NOT NULL
	ON CONFLICT (id) DO UPDATE SET largest = max(largest, excluded.largest)`

// forgetStep is one statement of forgetting, and the count in
// match.Forgotten its changed rows add to (nil: none).
type forgetStep struct {
	query string
	count func(*match.Forgotten) *int64
}

func answers(f *match.Forgotten) *int64 { return &f.Answers }
func hints(f *match.Forgotten) *int64   { return &f.Hints }
func records(f *match.Forgotten) *int64 { return &f.Records }
func ended(f *match.Forgotten) *int64   { return &f.Ended }
func deleted(f *match.Forgotten) *int64 { return &f.Deleted }
func renamed(f *match.Forgotten) *int64 { return &f.Anonymized }

// forgetUserSteps are ForgetUser's statements, in order: ?1 is the user,
// ?2 the time, ?3 the tombstone.
var forgetUserSteps = []forgetStep{
	{keepLargestID, nil},
	// Saved answers first: a game deleted below would leave its
	// answers behind, unlinked.
	{`DELETE FROM interactions WHERE ` + namesSQL, answers},
	{`DELETE FROM hints WHERE user_id = ?1`, hints},
	{`DELETE FROM stats WHERE user_id = ?1`, records},
	{`DELETE FROM bot_record WHERE user_id = ?1`, records},
	{`DELETE FROM forget_requests WHERE user_id = ?1`, nil},
	// Puzzles and lessons are the user's alone; a channel they subscribed
	// to the daily puzzle keeps its subscription, no longer theirs.
	{`DELETE FROM puzzle_attempts WHERE user_id = ?1`, records},
	{`DELETE FROM puzzle_members WHERE user_id = ?1`, nil},
	{`DELETE FROM puzzle_players WHERE user_id = ?1`, records},
	{`DELETE FROM lesson_progress WHERE user_id = ?1`, records},
	{`UPDATE daily_channels SET user_id = ?3 WHERE user_id = ?1`, nil},
	// Games in progress end without a result, as Game.End's would.
	{`INSERT INTO results (game_id, guild_id, variant, status, winner, loser, difficulty, plies, rating_delta, finished_at)
		SELECT id, ` + scopeSQL + `, variant, 'ended', '', '', difficulty, ply, 0, ?2 FROM games
		WHERE status IN ('pending', 'active') AND ` + seatedSQL, nil},
	{`UPDATE games SET status = 'ended', winner = '', deadline = NULL, updated_at = ?2
		WHERE status IN ('pending', 'active') AND ` + seatedSQL, ended},
	// A game with nobody else in it is nobody else's history; its
	// saved answers go with it.
	{`DELETE FROM interactions WHERE game_id IN (SELECT id FROM games WHERE ` + soloSQL + `)`, answers},
	{`DELETE FROM games WHERE ` + soloSQL, deleted},
	{`UPDATE games SET
			player0 = CASE WHEN player0 = ?1 THEN ?3 ELSE player0 END,
			player1 = CASE WHEN player1 = ?1 THEN ?3 ELSE player1 END,
			winner = CASE WHEN winner = ?1 THEN ?3 ELSE winner END,
			created_by = CASE WHEN created_by = ?1 THEN ?3 ELSE created_by END
		WHERE ` + seatedSQL + ` OR winner = ?1`, renamed},
	{`UPDATE moves SET player = ?3 WHERE player = ?1
		AND game_id IN (SELECT id FROM games WHERE player0 = ?3 OR player1 = ?3)`, nil},
	{`UPDATE results SET
			winner = CASE WHEN winner = ?1 THEN ?3 ELSE winner END,
			loser = CASE WHEN loser = ?1 THEN ?3 ELSE loser END
		WHERE winner = ?1 OR loser = ?1`, nil},
}

// forgetGuildSteps are ForgetGuild's statements, in order: ?1 is the
// server.
var forgetGuildSteps = []forgetStep{
	{keepLargestID, nil},
	{`DELETE FROM interactions WHERE ` + namesSQL + `
		OR game_id IN (SELECT id FROM games WHERE guild_id = ?1)`, answers},
	{`DELETE FROM stats WHERE guild_id = ?1`, records},
	{`DELETE FROM bot_record WHERE guild_id = ?1`, records},
	{`DELETE FROM hints WHERE game_id IN (SELECT id FROM games WHERE guild_id = ?1)`, hints},
	{`DELETE FROM results WHERE guild_id = ?1`, nil},
	{`DELETE FROM games WHERE guild_id = ?1`, deleted},
	{`DELETE FROM puzzle_attempts WHERE scope = ?1`, records},
	{`DELETE FROM puzzle_members WHERE scope = ?1`, nil},
	{`DELETE FROM daily_channels WHERE guild_id = ?1`, nil},
}

// forgetUser runs ForgetUser's statements in tx.
func forgetUser(ctx context.Context, tx queries, userID string, now time.Time) (match.Forgotten, error) {
	var f match.Forgotten
	for _, s := range forgetUserSteps {
		res, err := tx.ExecContext(ctx, s.query, numbered(s.query, userID, toMillis(now), match.Tombstone)...)
		if err != nil {
			return match.Forgotten{}, err
		}
		if s.count != nil {
			n, _ := res.RowsAffected()
			*s.count(&f) += n
		}
	}
	return f, nil
}

// ForgetGuild forgets the server guildID whole, in one transaction (see
// match.Privacy).
func (db *DB) ForgetGuild(ctx context.Context, guildID string) (match.Forgotten, error) {
	if err := match.CheckGuildID(guildID); err != nil {
		return match.Forgotten{}, err
	}
	var f match.Forgotten
	err := db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) (err error) {
		f, err = forgetGuild(ctx, tx, guildID)
		return err
	})
	return f, err
}

// forgetGuild runs ForgetGuild's statements in tx.
func forgetGuild(ctx context.Context, tx queries, guildID string) (match.Forgotten, error) {
	var f match.Forgotten
	for _, s := range forgetGuildSteps {
		res, err := tx.ExecContext(ctx, s.query, numbered(s.query, guildID)...)
		if err != nil {
			return match.Forgotten{}, err
		}
		if s.count != nil {
			n, _ := res.RowsAffected()
			*s.count(&f) += n
		}
	}
	return f, nil
}

// numbered returns the first of args that query's numbered parameters
// (?1, ?2, …) use: SQLite takes as many arguments as the highest number.
func numbered(query string, args ...any) []any {
	n := 0
	for i := range args {
		if strings.Contains(query, "?"+strconv.Itoa(i+1)) {
			n = i + 1
		}
	}
	return args[:n]
}

// ScheduleForget arranges for userID to be forgotten at at; an earlier
// time already scheduled stays.
func (db *DB) ScheduleForget(ctx context.Context, userID string, at time.Time) error {
	if err := match.CheckUserID(userID); err != nil {
		return err
	}
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		_, err := tx.ExecContext(ctx, scheduleForgetSQL, userID, toMillis(at))
		return err
	})
}

// CancelForget drops the forgetting scheduled for userID, if any.
func (db *DB) CancelForget(ctx context.Context, userID string) error {
	if err := match.CheckUserID(userID); err != nil {
		return err
	}
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		_, err := tx.ExecContext(ctx, cancelForgetSQL, userID)
		return err
	})
}

// ForgetDue forgets up to limit users whose forgetting is due, each in a
// transaction that takes the schedule's row with it: the write lock makes
// the pick and the forgetting one step.
func (db *DB) ForgetDue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	var done []string
	for len(done) < limit {
		var user string
		err := db.withTx(ctx, func(ctx context.Context, tx queries, at time.Time) error {
			user = ""
			err := tx.QueryRowContext(ctx, dueForgetSQL,
				toMillis(now)).Scan(&user)
			if errors.Is(err, sql.ErrNoRows) {
				return nil
			}
			if err != nil {
				return err
			}
			_, err = forgetUser(ctx, tx, user, at)
			return err
		})
		if err != nil || user == "" {
			return done, err
		}
		done = append(done, user)
	}
	return done, nil
}

// The statements of the forgetting schedule and the idle sweep.
const (
	scheduleForgetSQL = `INSERT INTO forget_requests (user_id, due_at) VALUES (?1, ?2)
		ON CONFLICT (user_id) DO UPDATE SET due_at = min(due_at, excluded.due_at)`
	cancelForgetSQL = `DELETE FROM forget_requests WHERE user_id = ?`
	dueForgetSQL    = `SELECT user_id FROM forget_requests WHERE due_at <= ? ORDER BY due_at, user_id LIMIT 1`
	claimSweepSQL   = `INSERT INTO sweeps (name, next_at) VALUES (?1, ?2)
		ON CONFLICT (name) DO UPDATE SET next_at = excluded.next_at WHERE sweeps.next_at <= ?3`
	reopenSweepSQL = `UPDATE sweeps SET next_at = ? WHERE name = ?`
	idleGuildsSQL  = `SELECT guild_id FROM games WHERE guild_id <> ''
		GROUP BY guild_id HAVING max(updated_at) < ? ORDER BY guild_id LIMIT ?`
)

// privacyWrites and privacyReads are the statements of this file, prepared
// at Open with the rest (stmts.go).
func privacyWrites() []string {
	qs := []string{scheduleForgetSQL, cancelForgetSQL, dueForgetSQL, claimSweepSQL, reopenSweepSQL}
	for _, s := range append(forgetUserSteps, forgetGuildSteps...) {
		qs = append(qs, s.query)
	}
	return qs
}

func privacyReads() []string {
	qs := []string{idleGuildsSQL}
	for _, c := range holdingCounts {
		qs = append(qs, c.query)
	}
	return qs
}

// idleSweep names the claim row of ForgetIdle's sweep.
const idleSweep = "idle_guilds"

// ForgetIdle forgets up to limit servers with no game changed since
// before, once per match.IdleSweepEvery across processes (see
// match.Privacy). A sweep that reached limit leaves its claim due, so the
// next call carries on.
func (db *DB) ForgetIdle(ctx context.Context, now, before time.Time, limit int) ([]string, error) {
	claimed := false
	err := db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
		res, err := tx.ExecContext(ctx, claimSweepSQL,
			idleSweep, toMillis(now.Add(match.IdleSweepEvery)), toMillis(now))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		claimed = n == 1
		return nil
	})
	if err != nil || !claimed {
		return nil, err
	}
	guilds, err := db.idleGuilds(ctx, before, limit)
	if err != nil {
		return nil, err
	}
	var done []string
	for _, g := range guilds {
		if _, err := db.ForgetGuild(ctx, g); err != nil {
			return done, err
		}
		done = append(done, g)
	}
	if len(guilds) == limit {
		err = db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
			_, err := tx.ExecContext(ctx, reopenSweepSQL, toMillis(now), idleSweep)
			return err
		})
	}
	return done, err
}

// idleGuilds lists up to limit servers whose newest game changed before
// before.
func (db *DB) idleGuilds(ctx context.Context, before time.Time, limit int) ([]string, error) {
	rows, err := db.reads.QueryContext(ctx, idleGuildsSQL, toMillis(before), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var guilds []string
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			return nil, err
		}
		guilds = append(guilds, g)
	}
	return guilds, rows.Err()
}
