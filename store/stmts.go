package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Prepared statements. Every query the store runs for a caller is prepared
// once, by database/sql, when Open opens the pools: writeQueries on the
// writer's connection, readQueries on the read pool (database/sql prepares
// a pool's statement again on each connection that first runs it). The
// lists are the store's whole vocabulary of SQL: a query missing from them
// fails with an error naming it rather than being compiled on the fly, and
// a query the schema does not fit fails Open.

// writeQueries are the statements of write transactions (withTx).
var writeQueries = append([]string{
	gameByIDSQL, channelGameSQL, lastChallengeBySQL, insertGameSQL,
	setPlayersSQL, insertMoveSQL, insertMovesSQL2, updateStatusSQL, updatePositionSQL, updateGameSQL,
	interactionExistsSQL, saveResponseSQL, pruneSQL,
	hintCheckSQL, hintUsedSQL, insertHintSQL,
	messageIDSQL, setMessageIDSQL,
	upsertStatsSQL, upsertBotRecordSQL, ratingSQL, updateRatingSQL, insertResultSQL,
	heartbeatSQL,
	savepointSQL, releaseSQL, rollbackToSQL,
	subscribeDailySQL, dailySubscribedSQL, unsubscribeDailySQL, claimDailySQL, claimableDailySQL, dailyPostedSQL,
	dailyEditableSQL, claimDailyEditSQL, dailyEditedSQL,
	advanceLessonSQL,
	playerGlickoSQL, puzzleGlickoSQL, triedPuzzleSQL, ratePlayerSQL, ratePuzzleSQL, insertAttemptSQL, insertMemberSQL, attemptSQL,
}, privacyWrites()...)

// readQueries are the statements of reads on the read pool.
var readQueries = append([]string{
	gameByIDSQL, channelGameSQL, movesSQL, boardQuery, lastGameBySQL, lastChallengeBySQL, dueSQL,
	hintCheckSQL, hintUsedSQL, responseSQL,
	statsSQL, vsBotSQL, leaderboardQuery,
	schemaVersionSQL,
	lessonProgressSQL,
	attemptSQL, puzzleStatsSQL, puzzleLeaderboardSQL, puzzleCountsSQL, puzzlesSeenSQL,
}, privacyReads()...)

// statements are one pool's prepared statements, by query.
type statements map[string]*sql.Stmt

// prepareAll prepares queries on db.
func prepareAll(ctx context.Context, db *sql.DB, queries []string) (statements, error) {
	s := make(statements, len(queries))
	for _, q := range queries {
		if s[q] != nil {
			continue
		}
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("preparing %q: %w", q, err)
		}
		s[q] = st
	}
	return s, nil
}

// close closes the statements. database/sql finalizes each on its
// connections, so that closing the pool closes the file.
func (s statements) close() error {
	var errs []error
	for _, st := range s {
		errs = append(errs, st.Close())
	}
	return errors.Join(errs...)
}

// queries runs the store's prepared statements with the caller's context:
// on their pool, or, with tx set, in that transaction (tx.StmtContext).
type queries struct {
	stmts statements
	tx    *sql.Tx
}

// stmt returns query's prepared statement, bound to q's transaction if any.
func (q queries) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	s := q.stmts[query]
	if s == nil {
		return nil, fmt.Errorf("store: query not prepared at Open: %q", query)
	}
	if q.tx != nil {
		return q.tx.StmtContext(ctx, s), nil
	}
	return s, nil
}

// ExecContext runs query's statement, as sql.Stmt.ExecContext.
func (q queries) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := q.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

// exec runs query's statement for its effect alone.
func (q queries) exec(ctx context.Context, query string, args ...any) error {
	_, err := q.ExecContext(ctx, query, args...)
	return err
}

// QueryContext runs query's statement, as sql.Stmt.QueryContext.
func (q queries) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := q.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// QueryRowContext runs query's statement, as sql.Stmt.QueryRowContext.
func (q queries) QueryRowContext(ctx context.Context, query string, args ...any) rowScanner {
	s, err := q.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return s.QueryRowContext(ctx, args...)
}

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// errRow is a row whose query could not run.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
