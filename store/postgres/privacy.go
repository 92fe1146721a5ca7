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

// namesSQL matches the saved answers that name $1 in a delimited form
// only, as the SQLite store's does: their key's segment (/id/), or in
// their bytes a mention (<@id>, as JSON escapes it or not), a JSON string
// ("id") or a link's segment (/id/).
const namesSQL = `(strpos(id, '/' || $1 || '/') > 0
	OR position(convert_to('<@' || $1 || '>', 'UTF8') in response) > 0
	OR position(convert_to('\u003c@' || $1 || '\u003e', 'UTF8') in response) > 0
	OR position(convert_to('"' || $1 || '"', 'UTF8') in response) > 0
	OR position(convert_to('/' || $1 || '/', 'UTF8') in response) > 0)`

// holdingCounts are Holdings' queries, each counting one kind of row per
// scope.
var holdingCounts = []struct {
	query string
	count match.HoldingCount
}{
	{`SELECT ` + scopeSQL + `, count(*) FROM games WHERE ` + seatedSQL + ` GROUP BY 1`, match.CountGames},
	{`SELECT ` + scopeSQL + `, count(*) FROM moves JOIN games ON games.id = moves.game_id
		WHERE moves.player = $1 AND ` + seatedSQL + ` GROUP BY 1`, match.CountMoves},
	{`SELECT ` + scopeSQL + `, count(*) FROM hints JOIN games ON games.id = hints.game_id
		WHERE hints.user_id = $1 GROUP BY 1`, match.CountHints},
	{`SELECT guild_id, count(*) FROM stats WHERE user_id = $1 GROUP BY 1`, match.CountRecords},
	{`SELECT guild_id, count(*) FROM bot_record WHERE user_id = $1 GROUP BY 1`, match.CountRecords},
	{`SELECT '', count(*) FROM interactions WHERE ` + namesSQL, match.CountAnswers},
	{`SELECT scope, count(*) FROM puzzle_attempts WHERE user_id = $1 GROUP BY 1`, match.CountPuzzles},
	{`SELECT '', count(*) FROM puzzle_players WHERE user_id = $1`, match.CountLearning},
	{`SELECT '', count(*) FROM lesson_progress WHERE user_id = $1`, match.CountLearning},
}

// Holdings returns what the database holds about userID, per scope (see
// match.Privacy).
func (db *DB) Holdings(ctx context.Context, userID string) ([]match.Holding, error) {
	if err := match.CheckUserID(userID); err != nil {
		return nil, err
	}
	t := match.Tally{}
	err := pgx.BeginTxFunc(ctx, db.pool, readOnly, func(tx pgx.Tx) error {
		for _, c := range holdingCounts {
			rows, err := tx.Query(ctx, c.query, userID)
			if err != nil {
				return err
			}
			var scope string
			var n int
			_, err = pgx.ForEachRow(rows, []any{&scope, &n}, func() error {
				t.Add(scope, c.count, n)
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t.List(), nil
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
// match.Privacy). It looks first whether anything is held, outside a
// writing transaction: a repeated request of a user of whom nothing is
// left locks nothing.
func (db *DB) ForgetUser(ctx context.Context, userID string) (match.Forgotten, error) {
	if err := match.CheckUserID(userID); err != nil {
		return match.Forgotten{}, err
	}
	held, err := db.Holdings(ctx, userID)
	if err != nil {
		return match.Forgotten{}, err
	}
	if len(held) == 0 {
		var requested bool
		err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM forget_requests WHERE user_id = $1)`, userID).Scan(&requested)
		if err != nil || !requested {
			return match.Forgotten{}, err
		}
	}
	var f match.Forgotten
	err = db.withTx(ctx, func(tx execer, now time.Time) (err error) {
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
			WHERE status IN ('pending', 'active') AND ` + seatedSQL + `
			ON CONFLICT (game_id) DO NOTHING`, nil},
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
	err := db.withTx(ctx, func(tx execer, now time.Time) (err error) {
		f, err = forgetGuild(ctx, tx, guildID)
		return err
	})
	return f, err
}

// forgetGuild runs ForgetGuild's statements in tx.
func forgetGuild(ctx context.Context, tx execer, guildID string) (match.Forgotten, error) {
	var f match.Forgotten
	err := run(ctx, tx, []step{
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
	if err != nil {
		return match.Forgotten{}, err
	}
	return f, nil
}

// ScheduleForget arranges for userID to be forgotten at at, for a
// deauthorization sent at event, unless a later event was applied (a row
// of forget_requests is the latest event applied: see the SQLite store);
// an earlier time already scheduled stays.
func (db *DB) ScheduleForget(ctx context.Context, userID string, event, at time.Time) error {
	if err := match.CheckUserID(userID); err != nil {
		return err
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO forget_requests (user_id, due_at, event_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET due_at = least(forget_requests.due_at, excluded.due_at), event_at = excluded.event_at
		WHERE forget_requests.event_at < excluded.event_at`, userID, toMillis(at), toMillis(event))
	return err
}

// CancelForget drops the forgetting scheduled for userID, if any, for an
// authorization sent at event, unless a later event was applied; it keeps
// the authorization's time (a row with no due time) and drops those older
// than match.EventsKept.
func (db *DB) CancelForget(ctx context.Context, userID string, event time.Time) error {
	if err := match.CheckUserID(userID); err != nil {
		return err
	}
	return db.withTx(ctx, func(tx execer, now time.Time) error {
		if _, err := tx.Exec(ctx, `DELETE FROM forget_requests WHERE due_at IS NULL AND event_at < $1`,
			toMillis(now.Add(-match.EventsKept))); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO forget_requests (user_id, due_at, event_at) VALUES ($1, NULL, $2)
			ON CONFLICT (user_id) DO UPDATE SET due_at = NULL, event_at = excluded.event_at
			WHERE forget_requests.event_at < excluded.event_at`, userID, toMillis(event))
		return err
	})
}

// ForgetDue forgets up to limit users whose forgetting is due, each in a
// transaction that locks the schedule's row (FOR UPDATE SKIP LOCKED) and
// deletes it with the user's data: of several instances, one takes each.
// A user who moved or started a game after their deauthorization plays
// on: their row is dropped instead.
func (db *DB) ForgetDue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	var done []string
	for range limit {
		var user string
		forgot := false
		err := db.withTx(ctx, func(tx execer, at time.Time) error {
			user, forgot = "", false
			var event int64
			err := tx.QueryRow(ctx, `SELECT user_id, event_at FROM forget_requests WHERE due_at <= $1
				ORDER BY due_at, user_id LIMIT 1 FOR UPDATE SKIP LOCKED`, toMillis(now)).Scan(&user, &event)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			if err != nil {
				return err
			}
			var playing bool
			err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM moves WHERE player = $1 AND at > $2)
		OR EXISTS (SELECT 1 FROM games WHERE created_by = $1 AND created_at > $2)`,
				user, event).Scan(&playing)
			if err != nil {
				return err
			}
			if playing {
				_, err = tx.Exec(ctx, `DELETE FROM forget_requests WHERE user_id = $1`, user)
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

// idleSweep names the claim row of ForgetIdle's sweep.
const idleSweep = "idle_guilds"

// ForgetIdle forgets up to limit servers with no game changed since
// before, once per match.IdleSweepEvery across instances: the instance
// whose upsert moves the sweep's row forward runs it; the others' finds it
// not due (PostgreSQL re-reads the row after waiting for its lock). A sweep
// that reached limit or failed leaves its claim due, so the next call
// carries on. Each server is checked again in its forgetting's
// transaction, so that a game started since the list was read keeps it.
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
		var forgot bool
		if forgot, err = db.forgetIdleGuild(ctx, g, before); err != nil {
			break
		}
		if forgot {
			done = append(done, g)
		}
	}
	if err != nil || len(guilds) == limit {
		// Not done: due again at once. The error that stopped the sweep
		// is the one to report.
		_, reopen := db.pool.Exec(ctx, `UPDATE sweeps SET next_at = $1 WHERE name = $2`, toMillis(now), idleSweep)
		if err == nil {
			err = reopen
		}
	}
	return done, err
}

// forgetIdleGuild forgets guildID if no game of it changed since before,
// in one transaction; false if one did.
func (db *DB) forgetIdleGuild(ctx context.Context, guildID string, before time.Time) (bool, error) {
	idle := false
	err := db.withTx(ctx, func(tx execer, _ time.Time) error {
		err := tx.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM games WHERE guild_id = $1 AND updated_at >= $2)`,
			guildID, toMillis(before)).Scan(&idle)
		if err != nil || !idle {
			return err
		}
		_, err = forgetGuild(ctx, tx, guildID)
		return err
	})
	return idle, err
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
