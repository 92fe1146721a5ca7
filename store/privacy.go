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

// namesSQL matches the saved answers that name ?1 (a snowflake,
// match.IsSnowflake), in a delimited form only, so that one id is never
// found inside another number: their key's segment (the commands
// package's AnswerKey, id/user/channel/type), or in their bytes a mention
// (<@id>, as JSON escapes it or not), a JSON string ("id") or a link's
// segment (/id/, a server's in a message link).
const namesSQL = `(instr(id, '/' || ?1 || '/') > 0
	OR instr(response, CAST('<@' || ?1 || '>' AS BLOB)) > 0
	OR instr(response, CAST('\u003c@' || ?1 || '\u003e' AS BLOB)) > 0
	OR instr(response, CAST('"' || ?1 || '"' AS BLOB)) > 0
	OR instr(response, CAST('/' || ?1 || '/' AS BLOB)) > 0)`

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
	t := match.Tally{}
	for _, c := range holdingCounts {
		if err := tally(ctx, q, t, c.query, userID, c.count); err != nil {
			return nil, err
		}
	}
	return t.List(), nil
}

// holdingCounts are Holdings' queries, each counting one kind of row per
// scope.
var holdingCounts = []struct {
	query string
	count match.HoldingCount
}{
	{`SELECT ` + scopeSQL + `, count(*) FROM games WHERE ` + seatedSQL + ` GROUP BY 1`, match.CountGames},
	{`SELECT ` + scopeSQL + `, count(*) FROM moves JOIN games ON games.id = moves.game_id
		WHERE moves.player = ?1 AND ` + seatedSQL + ` GROUP BY 1`, match.CountMoves},
	{`SELECT ` + scopeSQL + `, count(*) FROM hints JOIN games ON games.id = hints.game_id
		WHERE hints.user_id = ?1 GROUP BY 1`, match.CountHints},
	{`SELECT guild_id, count(*) FROM stats WHERE user_id = ?1 GROUP BY 1`, match.CountRecords},
	{`SELECT guild_id, count(*) FROM bot_record WHERE user_id = ?1 GROUP BY 1`, match.CountRecords},
	{`SELECT '', count(*) FROM interactions WHERE ` + namesSQL, match.CountAnswers},
	{`SELECT scope, count(*) FROM puzzle_attempts WHERE user_id = ?1 GROUP BY 1`, match.CountPuzzles},
	{`SELECT '', count(*) FROM puzzle_players WHERE user_id = ?1`, match.CountLearning},
	{`SELECT '', count(*) FROM lesson_progress WHERE user_id = ?1`, match.CountLearning},
}

// tally adds the (scope, count) rows query returns for userID to t.
func tally(ctx context.Context, tx queries, t match.Tally, query, userID string, count match.HoldingCount) error {
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
		t.Add(scope, count, n)
	}
	return rows.Err()
}

// ForgetUser forgets userID everywhere, in one transaction (see
// match.Privacy). It looks first, on the read pool, whether anything is
// held: a user of whom nothing is left (a repeated request) costs the
// writer, which every move waits for, nothing.
func (db *DB) ForgetUser(ctx context.Context, userID string) (match.Forgotten, error) {
	if err := match.CheckUserID(userID); err != nil {
		return match.Forgotten{}, err
	}
	if held, err := db.holdsAny(ctx, userID); err != nil || !held {
		return match.Forgotten{}, err
	}
	var f match.Forgotten
	err := db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) (err error) {
		f, err = forgetUser(ctx, tx, userID, now)
		return err
	})
	return f, err
}

// holdsAny reports whether the database holds anything about userID:
// Holdings, or a row of the forgetting schedule.
func (db *DB) holdsAny(ctx context.Context, userID string) (bool, error) {
	held, err := db.Holdings(ctx, userID)
	if err != nil || len(held) > 0 {
		return len(held) > 0, err
	}
	var n int
	err = db.reads.QueryRowContext(ctx, requestedSQL, userID).Scan(&n)
	return n > 0, err
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
	// Games in progress end without a result, as Game.End's would; one
	// whose result is already written keeps it.
	{`INSERT INTO results (game_id, guild_id, variant, status, winner, loser, difficulty, plies, rating_delta, finished_at)
		SELECT id, ` + scopeSQL + `, variant, 'ended', '', '', difficulty, ply, 0, ?2 FROM games
		WHERE status IN ('pending', 'active') AND ` + seatedSQL + `
		ON CONFLICT (game_id) DO NOTHING`, nil},
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

// ScheduleForget arranges for userID to be forgotten at at, for a
// deauthorization sent at event, unless a later event was applied; an
// earlier time already scheduled stays.
func (db *DB) ScheduleForget(ctx context.Context, userID string, event, at time.Time) error {
	if err := match.CheckUserID(userID); err != nil {
		return err
	}
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		_, err := tx.ExecContext(ctx, scheduleForgetSQL, userID, toMillis(at), toMillis(event))
		return err
	})
}

// CancelForget drops the forgetting scheduled for userID, if any, for an
// authorization sent at event, unless a later event was applied; it keeps
// the authorization's time (a row with no due time) and drops those older
// than match.EventsKept, which only authorizations write.
func (db *DB) CancelForget(ctx context.Context, userID string, event time.Time) error {
	if err := match.CheckUserID(userID); err != nil {
		return err
	}
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		if _, err := tx.ExecContext(ctx, pruneAuthorizedSQL, toMillis(now.Add(-match.EventsKept))); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, cancelForgetSQL, userID, toMillis(event))
		return err
	})
}

// ForgetDue forgets up to limit users whose forgetting is due, each in a
// transaction that takes the schedule's row with it: the write lock makes
// the pick and the forgetting one step. A user who moved or started a game
// after their deauthorization plays on: their row is dropped instead.
func (db *DB) ForgetDue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	var done []string
	for range limit {
		var user string
		forgot := false
		err := db.withTx(ctx, func(ctx context.Context, tx queries, at time.Time) error {
			user, forgot = "", false
			var event int64
			err := tx.QueryRowContext(ctx, dueForgetSQL, toMillis(now)).Scan(&user, &event)
			if errors.Is(err, sql.ErrNoRows) {
				return nil
			}
			if err != nil {
				return err
			}
			var playing bool
			if err := tx.QueryRowContext(ctx, playedSinceSQL, user, event).Scan(&playing); err != nil {
				return err
			}
			if playing {
				_, err = tx.ExecContext(ctx, dropRequestSQL, user)
				return err
			}
			forgot = true
			_, err = forgetUser(ctx, tx, user, at)
			return err
		})
		if err != nil || user == "" {
			return done, err
		}
		if forgot {
			done = append(done, user)
		}
	}
	return done, nil
}

// The statements of the forgetting schedule and the idle sweep. A row of
// forget_requests is the latest webhook event applied for its user
// (event_at, Discord's time): a deauthorization with the time it is due,
// or an authorization with none.
const (
	scheduleForgetSQL = `INSERT INTO forget_requests (user_id, due_at, event_at) VALUES (?1, ?2, ?3)
		ON CONFLICT (user_id) DO UPDATE SET due_at = min(coalesce(due_at, excluded.due_at), excluded.due_at), event_at = excluded.event_at
		WHERE forget_requests.event_at < excluded.event_at`
	cancelForgetSQL = `INSERT INTO forget_requests (user_id, due_at, event_at) VALUES (?1, NULL, ?2)
		ON CONFLICT (user_id) DO UPDATE SET due_at = NULL, event_at = excluded.event_at
		WHERE forget_requests.event_at < excluded.event_at`
	pruneAuthorizedSQL = `DELETE FROM forget_requests WHERE due_at IS NULL AND event_at < ?`
	dueForgetSQL       = `SELECT user_id, event_at FROM forget_requests WHERE due_at <= ? ORDER BY due_at, user_id LIMIT 1`
	playedSinceSQL     = `SELECT EXISTS (SELECT 1 FROM moves WHERE player = ?1 AND at > ?2)
		OR EXISTS (SELECT 1 FROM games WHERE created_by = ?1 AND created_at > ?2)`
	dropRequestSQL = `DELETE FROM forget_requests WHERE user_id = ?`
	requestedSQL   = `SELECT count(*) FROM forget_requests WHERE user_id = ?`
	claimSweepSQL  = `INSERT INTO sweeps (name, next_at) VALUES (?1, ?2)
		ON CONFLICT (name) DO UPDATE SET next_at = excluded.next_at WHERE sweeps.next_at <= ?3`
	reopenSweepSQL = `UPDATE sweeps SET next_at = ? WHERE name = ?`
	idleGuildsSQL  = `SELECT guild_id FROM games WHERE guild_id <> ''
		GROUP BY guild_id HAVING max(updated_at) < ? ORDER BY guild_id LIMIT ?`
	stillIdleSQL = `SELECT NOT EXISTS (SELECT 1 FROM games WHERE guild_id = ? AND updated_at >= ?)`
)

// privacyWrites and privacyReads are the statements of this file, prepared
// at Open with the rest (stmts.go).
func privacyWrites() []string {
	qs := []string{scheduleForgetSQL, cancelForgetSQL, pruneAuthorizedSQL, dueForgetSQL, playedSinceSQL, dropRequestSQL,
		claimSweepSQL, reopenSweepSQL, stillIdleSQL}
	for _, s := range append(forgetUserSteps, forgetGuildSteps...) {
		qs = append(qs, s.query)
	}
	return qs
}

func privacyReads() []string {
	qs := []string{idleGuildsSQL, requestedSQL}
	for _, c := range holdingCounts {
		qs = append(qs, c.query)
	}
	return qs
}

// idleSweep names the claim row of ForgetIdle's sweep.
const idleSweep = "idle_guilds"

// ForgetIdle forgets up to limit servers with no game changed since
// before, once per match.IdleSweepEvery across processes (see
// match.Privacy). A sweep that reached limit or failed leaves its claim
// due, so the next call carries on.
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
	done, more, err := db.forgetIdle(ctx, before, limit)
	if err != nil || more {
		// Not done: due again at once. Reopening after an error may fail
		// too; the error that stopped the sweep is the one to report.
		reopen := db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
			_, err := tx.ExecContext(ctx, reopenSweepSQL, toMillis(now), idleSweep)
			return err
		})
		if err == nil {
			err = reopen
		}
	}
	return done, err
}

// forgetIdle forgets up to limit of the servers idle since before; more
// when it listed limit of them, so that more may wait. The list is read
// outside the writer; each server is checked again in its forgetting's
// transaction, so that a game started meanwhile keeps it.
func (db *DB) forgetIdle(ctx context.Context, before time.Time, limit int) (done []string, more bool, err error) {
	guilds, err := db.idleGuilds(ctx, before, limit)
	if err != nil {
		return nil, false, err
	}
	for _, g := range guilds {
		forgot, err := db.forgetIdleGuild(ctx, g, before)
		if err != nil {
			return done, false, err
		}
		if forgot {
			done = append(done, g)
		}
	}
	return done, len(guilds) == limit, nil
}

// forgetIdleGuild forgets guildID if no game of it changed since before,
// in one transaction; false if one did.
func (db *DB) forgetIdleGuild(ctx context.Context, guildID string, before time.Time) (bool, error) {
	idle := false
	err := db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
		if err := tx.QueryRowContext(ctx, stillIdleSQL, guildID, toMillis(before)).Scan(&idle); err != nil || !idle {
			return err
		}
		_, err := forgetGuild(ctx, tx, guildID)
		return err
	})
	return idle, err
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
