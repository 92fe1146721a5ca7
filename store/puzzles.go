package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"nimbot/match"
)

// RecordPuzzleAttempt records one attempt and, when rated, both rating
// updates, in one write transaction (match.PuzzleStorage). The writer runs
// one transaction at a time, so the reads of the two ratings and the writes
// that follow them are never interleaved with another attempt's.
func (db *DB) RecordPuzzleAttempt(ctx context.Context, a match.PuzzleAttempt) (match.PuzzleOutcome, error) {
	if err := match.CheckPuzzleAttempt(a); err != nil {
		return match.PuzzleOutcome{}, err
	}
	var out match.PuzzleOutcome
	var dup bool
	err := db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		dup = false
		first, found, err := attemptOutcome(ctx, tx, a.AttemptKey)
		if err != nil {
			return err
		}
		if found {
			out, dup = first, true
			return nil
		}
		if a.InteractionID != "" {
			if err := saveResponse(ctx, tx, a.InteractionID, 0, a.Response, now); err != nil {
				return err
			}
		}
		player, err := glickoRow(ctx, tx, playerGlickoSQL, a.UserID, match.NewGlicko())
		if err != nil {
			return err
		}
		puzzle, err := glickoRow(ctx, tx, puzzleGlickoSQL, a.PuzzleID, a.Initial)
		if err != nil {
			return err
		}
		var tried bool
		if err := tx.QueryRowContext(ctx, triedPuzzleSQL,
			a.UserID, a.PuzzleID).Scan(&tried); err != nil {
			return err
		}
		rated := a.Rated && !tried
		newPlayer, newPuzzle := a.Rate(rated, player, puzzle)
		solved := 0
		if a.Solved {
			solved = 1
		}
		ms := toMillis(now)
		if err := tx.exec(ctx, ratePlayerSQL,
			a.UserID, newPlayer.Rating, newPlayer.Deviation, newPlayer.Volatility, solved, a.Streak, ms); err != nil {
			return err
		}
		if err := tx.exec(ctx, ratePuzzleSQL,
			a.PuzzleID, string(a.Theme), newPuzzle.Rating, newPuzzle.Deviation, newPuzzle.Volatility, solved, ms); err != nil {
			return err
		}
		if err := tx.exec(ctx, insertAttemptSQL,
			a.AttemptKey, a.UserID, a.Scope, a.PuzzleID, solved, rated,
			player.Rating, newPlayer.Rating, puzzle.Rating, newPuzzle.Rating, ms); err != nil {
			return err
		}
		if err := tx.exec(ctx, insertMemberSQL, a.Scope, a.UserID); err != nil {
			return err
		}
		out = a.Outcome(rated, player, newPlayer, puzzle, newPuzzle)
		return nil
	})
	if err != nil {
		return match.PuzzleOutcome{}, err
	}
	if dup {
		return out, match.DuplicateAttempt(a.AttemptKey)
	}
	return out, nil
}

// attemptOutcome reads back the outcome of an attempt recorded before.
func attemptOutcome(ctx context.Context, q queries, key string) (match.PuzzleOutcome, bool, error) {
	var (
		o              match.PuzzleOutcome
		pb, pa, zb, za any
		solved, rated  bool
	)
	err := q.QueryRowContext(ctx, attemptSQL, key).Scan(&solved, &rated, &pb, &pa, &zb, &za)
	if errors.Is(err, sql.ErrNoRows) {
		return o, false, nil
	}
	if err != nil {
		return o, false, err
	}
	f, err := floats(pb, pa, zb, za)
	if err != nil {
		return o, false, err
	}
	return match.PuzzleOutcome{Solved: solved, Rated: rated, Player: f[1], PlayerChange: f[1] - f[0],
		Puzzle: f[3], PuzzleChange: f[3] - f[2]}, true, nil
}

// PuzzleAttemptOutcome returns the outcome of the attempt recorded under
// attemptKey, or match.ErrNotFound.
func (db *DB) PuzzleAttemptOutcome(ctx context.Context, attemptKey string) (match.PuzzleOutcome, error) {
	var o match.PuzzleOutcome
	var pb, pa, zb, za float64
	err := db.reads.QueryRowContext(ctx, attemptSQL, attemptKey).Scan(&o.Solved, &o.Rated, &pb, &pa, &zb, &za)
	if errors.Is(err, sql.ErrNoRows) {
		return o, fmt.Errorf("puzzle attempt %s: %w", attemptKey, match.ErrNotFound)
	}
	if err != nil {
		return o, err
	}
	o.Player, o.PlayerChange, o.Puzzle, o.PuzzleChange = pa, pa-pb, za, za-zb
	return o, nil
}

// glickoRow reads a rating (rating, deviation, volatility) by key, or
// returns def when there is no row.
func glickoRow(ctx context.Context, q queries, query, key string, def match.Glicko) (match.Glicko, error) {
	var r, d, v any
	err := q.QueryRowContext(ctx, query, key).Scan(&r, &d, &v)
	if errors.Is(err, sql.ErrNoRows) {
		return def, nil
	}
	if err != nil {
		return match.Glicko{}, err
	}
	f, err := floats(r, d, v)
	if err != nil {
		return match.Glicko{}, err
	}
	return match.Glicko{Rating: f[0], Deviation: f[1], Volatility: f[2]}, nil
}

// floats converts REAL columns as the writer's connection reads them
// (float64; an integral value may come back as int64).
func floats(vs ...any) ([]float64, error) {
	f := make([]float64, len(vs))
	for i, v := range vs {
		switch x := v.(type) {
		case float64:
			f[i] = x
		case int64:
			f[i] = float64(x)
		default:
			return nil, fmt.Errorf("store: a rating column holds %T", v)
		}
	}
	return f, nil
}

// PuzzleStats returns the user's puzzle record.
func (db *DB) PuzzleStats(ctx context.Context, userID string) (match.PuzzleStats, error) {
	s := match.PuzzleStats{UserID: userID, Rating: match.NewGlicko()}
	err := db.reads.QueryRowContext(ctx, puzzleStatsSQL, userID).
		Scan(&s.Rating.Rating, &s.Rating.Deviation, &s.Rating.Volatility, &s.Attempted, &s.Solved, &s.BestStreak)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return match.PuzzleStats{}, err
	}
	return s, nil
}

// PuzzleLeaderboard returns up to limit users who attempted a puzzle in
// scope, best puzzle rating first, then most solved.
func (db *DB) PuzzleLeaderboard(ctx context.Context, scope string, limit int) ([]match.PuzzleStats, error) {
	rows, err := db.reads.QueryContext(ctx, puzzleLeaderboardSQL, scope, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var board []match.PuzzleStats
	for rows.Next() {
		var s match.PuzzleStats
		if err := rows.Scan(&s.UserID, &s.Rating.Rating, &s.Rating.Deviation, &s.Rating.Volatility, &s.Attempted, &s.Solved, &s.BestStreak); err != nil {
			return nil, err
		}
		board = append(board, s)
	}
	return board, rows.Err()
}

// PuzzleCounts returns the puzzle's attempts and solves.
func (db *DB) PuzzleCounts(ctx context.Context, puzzleID string) (int, int, error) {
	var attempts, solves int
	err := db.reads.QueryRowContext(ctx, puzzleCountsSQL, puzzleID).Scan(&attempts, &solves)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	return attempts, solves, err
}

// PuzzlesSeen reports which of the puzzle ids the user has attempted.
func (db *DB) PuzzlesSeen(ctx context.Context, userID string, puzzleIDs []string) (map[string]bool, error) {
	seen := map[string]bool{}
	if len(puzzleIDs) == 0 {
		return seen, nil
	}
	if len(puzzleIDs) > match.MaxPuzzlesSeen {
		return nil, fmt.Errorf("%w: %d puzzle ids, at most %d", match.ErrInvalid, len(puzzleIDs), match.MaxPuzzlesSeen)
	}
	ids, err := json.Marshal(puzzleIDs)
	if err != nil {
		return nil, err
	}
	rows, err := db.reads.QueryContext(ctx, puzzlesSeenSQL, userID, string(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		seen[id] = true
	}
	return seen, rows.Err()
}

// The puzzles' statements, prepared at Open (stmts.go).
const (
	playerGlickoSQL = `SELECT rating, deviation, volatility FROM puzzle_players WHERE user_id = ?`
	puzzleGlickoSQL = `SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = ?`
	triedPuzzleSQL  = `SELECT EXISTS (SELECT 1 FROM puzzle_attempts WHERE user_id = ? AND puzzle_id = ?)`
	ratePlayerSQL   = `INSERT INTO puzzle_players (user_id, rating, deviation, volatility, attempted, solved, best_streak, updated_at)
		VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7)
		ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
			volatility = excluded.volatility, attempted = attempted + 1, solved = solved + excluded.solved,
			best_streak = MAX(best_streak, excluded.best_streak), updated_at = excluded.updated_at`
	ratePuzzleSQL = `INSERT INTO puzzle_ratings (puzzle_id, theme, rating, deviation, volatility, attempts, solves, updated_at)
		VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7)
		ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
			volatility = excluded.volatility, attempts = attempts + 1, solves = solves + excluded.solves,
			updated_at = excluded.updated_at`
	insertAttemptSQL = `INSERT INTO puzzle_attempts (attempt_key, user_id, scope, puzzle_id, solved, rated,
			player_before, player_after, puzzle_before, puzzle_after, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	insertMemberSQL = `INSERT INTO puzzle_members (scope, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING`
	attemptSQL      = `SELECT solved, rated, player_before, player_after, puzzle_before, puzzle_after
		FROM puzzle_attempts WHERE attempt_key = ?`
	puzzleStatsSQL = `SELECT rating, deviation, volatility, attempted, solved, best_streak
		FROM puzzle_players WHERE user_id = ?`
	puzzleLeaderboardSQL = `SELECT p.user_id, p.rating, p.deviation, p.volatility, p.attempted, p.solved, p.best_streak
		FROM puzzle_members m JOIN puzzle_players p ON p.user_id = m.user_id
		WHERE m.scope = ? ORDER BY p.rating DESC, p.solved DESC, p.user_id LIMIT ?`
	puzzleCountsSQL = `SELECT attempts, solves FROM puzzle_ratings WHERE puzzle_id = ?`
	// puzzlesSeenSQL takes the puzzle ids as one JSON array, so that one
	// prepared statement serves any number of them.
	puzzlesSeenSQL = `SELECT DISTINCT puzzle_id FROM puzzle_attempts
		WHERE user_id = ? AND puzzle_id IN (SELECT value FROM json_each(?))`
)
