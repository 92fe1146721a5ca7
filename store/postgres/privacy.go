package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"nimbot/match"
)

// The statements of forgetting are the SQLite store's (store/privacy.go),
// in PostgreSQL's dialect: set-based, one per table, in one transaction.

// scopeSQL is match.Scope in SQL, for a row of games.
const scopeSQL = `CASE WHEN guild_id <> '' THEN guild_id ELSE 'dm:' || channel_id END`

// seatedSQL matches the games $1 has a seat in, or created.
const seatedSQL = `(player0 = $1 OR player1 = $1 OR created_by = $1)`

// tombstone is match.Tombstone as an SQL literal.
const tombstone = `'` + match.Tombstone + `'`

// soloSQL matches the games $1 has a seat in with nobody else: nimbot, an
// empty seat or a forgotten player at most.
const soloSQL = seatedSQL + ` AND player0 IN ($1, '` + match.BotID + `', '', ` + tombstone + `) AND player1 IN ($1, '` + match.BotID + `', '', ` + tombstone + `)`

// namesSQL matches the saved answers that name $1: in their key (the
// commands package's AnswerKey holds the user's id) or their bytes (a
// mention, a link with a server's id).
const namesSQL = `(strpos(id, $1) > 0 OR position(convert_to($1::text, 'UTF8') in response) > 0)`

// Holdings returns what the database holds about userID, per scope (see
// match.Privacy).
func (db *DB) Holdings(ctx context.Context, userID string) ([]match.Holding, error) {
	if err := match.CheckUserID(userID); err != nil {
		return nil, err
	}
	var list []match.Holding
	err := pgx.BeginTxFunc(ctx, db.pool, readOnly, func(tx pgx.Tx) error {
		h := map[string]*match.Holding{}
		for _, q := range []struct {
			query string
			add   func(*match.Holding, int)
		}{
			{`SELECT ` + scopeSQL + `, count(*) FROM games WHERE ` + seatedSQL + ` GROUP BY 1`,
				func(x *match.Holding, n int) { x.Games += n }},
			{`SELECT ` + scopeSQL + `, count(*) FROM moves JOIN games ON games.id = moves.game_id
				WHERE moves.player = $1 AND ` + seatedSQL + ` GROUP BY 1`,
				func(x *match.Holding, n int) { x.Moves += n }},
			{`SELECT ` + scopeSQL + `, count(*) FROM hints JOIN games ON games.id = hints.game_id
				WHERE hints.user_id = $1 GROUP BY 1`,
				func(x *match.Holding, n int) { x.Hints += n }},
			{`SELECT guild_id, count(*) FROM stats WHERE user_id = $1 GROUP BY 1`,
				func(x *match.Holding, n int) { x.Records += n }},
			{`SELECT guild_id, count(*) FROM bot_record WHERE user_id = $1 GROUP BY 1`,
				func(x *match.Holding, n int) { x.Records += n }},
			{`SELECT '', count(*) FROM interactions WHERE ` + namesSQL,
				func(x *match.Holding, n int) { x.Answers += n }},
		} {
			rows, err := tx.Query(ctx, q.query, userID)
			if err != nil {
				return err
			}
			for rows.Next() {
				var scope string
				var n int
				if err := rows.Scan(&scope, &n); err != nil {
					rows.Close()
					return err
				}
				if n == 0 {
					continue
				}
				if h[scope] == nil {
					h[scope] = &match.Holding{Scope: scope}
				}
				q.add(h[scope], n)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		list = match.SortHoldings(h)
		return nil
	})
	return list, err
}

// step is one statement of a forgetting and the count it adds to.
type step struct {
	query string
	count *int64
}

// run runs steps in tx with args, each given the arguments it numbers.
func run(ctx context.Context, tx execer, steps []step, args ...any) error {
	for _, s := range steps {
		tag, err := tx.Exec(ctx, s.query, numbered(s.query, args...)...)
		if err != nil {
			return err
		}
		if s.count != nil {
			*s.count += tag.RowsAffected()
		}
	}
	return nil
}

// numbered returns the first of args that query's parameters ($1, $2, …)
// use: PostgreSQL takes as many arguments as the highest number.
func numbered(query string, args ...any) []any {
	n := 0
	for i := range args {
		if strings.Contains(query, "$"+strconv.Itoa(i+1)) {
			n = i + 1
		}
	}
	return args[:n]
}

// ForgetUser forgets userID everywhere, in one transaction (see
// match.Privacy).
func (db *DB) ForgetUser(ctx context.Context, userID string) (match.Forgotten, error) {
	if err := match.CheckUserID(userID); err != nil {
		return match.Forgotten{}, err
	}
	var f match.Forgotten
	err := db.withTx(ctx, func(tx execer, now time.Time) (err error) {
		f, err = forgetUser(ctx, tx, userID, now)
		return err
	})
	return f, err
}

// forgetUser runs ForgetUser's statements in tx.
func forgetUser(ctx context.Context, tx execer, userID string, now time.Time) (match.Forgotten, error) {
	var f match.Forgotten
	steps := []step{
		{`DELETE FROM interactions WHERE ` + namesSQL, &f.Answers},
		{`DELETE FROM hints WHERE user_id = $1`, &f.Hints},
		{`DELETE FROM stats WHERE user_id = $1`, &f.Records},
		{`DELETE FROM bot_record WHERE user_id = $1`, &f.Records},
		{`DELETE FROM forget_requests WHERE user_id = $1`, nil},
		// Puzzles and lessons are the user's alone; a channel they subscribed
		// to the daily puzzle keeps its subscription, no longer theirs.
		{`DELETE FROM puzzle_attempts WHERE user_id = $1`, &f.Records},
		{`DELETE FROM puzzle_members WHERE user_id = $1`, nil},
		{`DELETE FROM puzzle_players WHERE user_id = $1`, &f.Records},
		{`DELETE FROM lesson_progress WHERE user_id = $1`, &f.Records},
		{`UPDATE daily_channels SET user_id = ` + tombstone + ` WHERE user_id = $1`, nil},
		{`INSERT INTO results (game_id, guild_id, variant, status, winner, loser, difficulty, plies, rating_delta, finished_at)
			SELECT id, ` + scopeSQL + `, variant, 'ended', '', '', difficulty, ply, 0, $2 FROM games
			WHERE status IN ('pending', 'active') AND ` + seatedSQL, nil},
		{`UPDATE games SET status = 'ended', winner = '', deadline = NULL, claimed_until = NULL, updated_at = $2
			WHERE status IN ('pending', 'active') AND ` + seatedSQL, &f.Ended},
		{`DELETE FROM interactions WHERE game_id IN (SELECT id FROM games WHERE ` + soloSQL + `)`, &f.Answers},
		{`DELETE FROM games WHERE ` + soloSQL, &f.Deleted},
		{`UPDATE games SET
				player0 = CASE WHEN player0 = $1 THEN ` + tombstone + ` ELSE player0 END,
				player1 = CASE WHEN player1 = $1 THEN ` + tombstone + ` ELSE player1 END,
				winner = CASE WHEN winner = $1 THEN ` + tombstone + ` ELSE winner END,
				created_by = CASE WHEN created_by = $1 THEN ` + tombstone + ` ELSE created_by END
			WHERE ` + seatedSQL + ` OR winner = $1`, &f.Anonymized},
		{`UPDATE moves SET player = ` + tombstone + ` WHERE player = $1
			AND game_id IN (SELECT id FROM games WHERE player0 = ` + tombstone + ` OR player1 = ` + tombstone + `)`, nil},
		{`UPDATE results SET
				winner = CASE WHEN winner = $1 THEN ` + tombstone + ` ELSE winner END,
				loser = CASE WHEN loser = $1 THEN ` + tombstone + ` ELSE loser END
			WHERE winner = $1 OR loser = $1`, nil},
	}
	if err := run(ctx, tx, steps, userID, toMillis(now)); err != nil {
		return match.Forgotten{}, err
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
	err := db.withTx(ctx, func(tx execer, now time.Time) error {
		f = match.Forgotten{}
		return run(ctx, tx, []step{
			{`DELETE FROM interactions WHERE ` + namesSQL + `
				OR game_id IN (SELECT id FROM games WHERE guild_id = $1)`, &f.Answers},
			{`DELETE FROM stats WHERE guild_id = $1`, &f.Records},
			{`DELETE FROM bot_record WHERE guild_id = $1`, &f.Records},
			{`DELETE FROM hints WHERE game_id IN (SELECT id FROM games WHERE guild_id = $1)`, &f.Hints},
			{`DELETE FROM results WHERE guild_id = $1`, nil},
			{`DELETE FROM games WHERE guild_id = $1`, &f.Deleted},
			{`DELETE FROM puzzle_attempts WHERE scope = $1`, &f.Records},
			{`DELETE FROM puzzle_members WHERE scope = $1`, nil},
			{`DELETE FROM daily_channels WHERE guild_id = $1`, nil},
		}, guildID)
	})
	return f, err
}

// ScheduleForget arranges for userID to be forgotten at at; an earlier
// time already scheduled stays.
func (db *DB) ScheduleForget(ctx context.Context, userID string, at time.Time) error {
	if err := match.CheckUserID(userID); err != nil {
		return err
	}
	return db.withTx(ctx, func(tx execer, now time.Time) error {
		_, err := tx.Exec(ctx, `INSERT INTO forget_requests (user_id, due_at) VALUES ($1, $2)
			ON CONFLICT (user_id) DO UPDATE SET due_at = least(forget_requests.due_at, excluded.due_at)`, userID, toMillis(at))
		return err
	})
}

// CancelForget drops the forgetting scheduled for userID, if any.
func (db *DB) CancelForget(ctx context.Context, userID string) error {
	if err := match.CheckUserID(userID); err != nil {
		return err
	}
	_, err := db.pool.Exec(ctx, `DELETE FROM forget_requests WHERE user_id = $1`, userID)
	return err
}

// ForgetDue forgets up to limit users whose forgetting is due, each in a
// transaction that locks the schedule's row (FOR UPDATE SKIP LOCKED) and
// deletes it with the user's data: of several instances, one takes each.
func (db *DB) ForgetDue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	var done []string
	for len(done) < limit {
		var user string
		err := db.withTx(ctx, func(tx execer, at time.Time) error {
			user = ""
			err := tx.QueryRow(ctx, `SELECT user_id FROM forget_requests WHERE due_at <= $1
				ORDER BY due_at, user_id LIMIT 1 FOR UPDATE SKIP LOCKED`, toMillis(now)).Scan(&user)
			if errors.Is(err, pgx.ErrNoRows) {
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

// idleSweep names the claim row of ForgetIdle's sweep.
const idleSweep = "idle_guilds"

// ForgetIdle forgets up to limit servers with no game changed since
// before, once per match.IdleSweepEvery across instances: the instance
// whose upsert moves the sweep's row forward runs it; the others' finds it
// not due (PostgreSQL re-reads the row after waiting for its lock). A sweep
// that reached limit leaves its claim due, so the next call carries on.
func (db *DB) ForgetIdle(ctx context.Context, now, before time.Time, limit int) ([]string, error) {
	tag, err := db.pool.Exec(ctx, `INSERT INTO sweeps (name, next_at) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET next_at = excluded.next_at WHERE sweeps.next_at <= $3`,
		idleSweep, toMillis(now.Add(match.IdleSweepEvery)), toMillis(now))
	if err != nil || tag.RowsAffected() != 1 {
		return nil, err
	}
	rows, err := db.pool.Query(ctx, `SELECT guild_id FROM games WHERE guild_id <> ''
		GROUP BY guild_id HAVING max(updated_at) < $1 ORDER BY guild_id COLLATE "C" LIMIT $2`, toMillis(before), limit)
	if err != nil {
		return nil, err
	}
	guilds, err := pgx.CollectRows(rows, pgx.RowTo[string])
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
		_, err = db.pool.Exec(ctx, `UPDATE sweeps SET next_at = $1 WHERE name = $2`, toMillis(now), idleSweep)
	}
	return done, err
}

// execer is what forgetting runs its statements through: a connection
// inside the transaction withTx began.
type execer interface {
	querier
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// withTx runs fn in one transaction through inTx (retries, ErrUnavailable)
// a statement at a time: forgetting is rare, so it is written to be read,
// not to save round trips.
func (db *DB) withTx(ctx context.Context, fn func(tx execer, now time.Time) error) error {
	return db.inTx(ctx, func(t *tx) error {
		if _, err := t.conn.Exec(ctx, "BEGIN"); err != nil {
			return err
		}
		if err := fn(t.conn, t.now); err != nil {
			return err
		}
		return t.commit(ctx, nil)
	})
}
