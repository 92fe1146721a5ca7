package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"nimbot/match"
)

// RecordPuzzleAttempt records one attempt and, when rated, both rating
// updates, in one transaction (match.PuzzleStorage). The attempt's key is
// claimed first: a second delivery of the same key waits for the first
// transaction and then finds it. The user's row and then the puzzle's are
// locked before their ratings are read, always in that order, so two
// attempts at one puzzle, or by one user, run one after the other (READ
// COMMITTED: each statement after a lock sees what the other committed)
// and never deadlock.
func (db *DB) RecordPuzzleAttempt(ctx context.Context, a match.PuzzleAttempt) (match.PuzzleOutcome, error) {
	if err := match.CheckPuzzleAttempt(a); err != nil {
		return match.PuzzleOutcome{}, err
	}
	var out match.PuzzleOutcome
	var dup bool
	err := db.withTx(ctx, func(tx execer, now time.Time) error {
		dup = false
		ms := toMillis(now)
		tag, err := tx.Exec(ctx, `INSERT INTO puzzle_attempts (attempt_key, user_id, scope, puzzle_id, solved, rated,
				player_before, player_after, puzzle_before, puzzle_after, at)
			VALUES ($1, $2, $3, $4, $5, false, 0, 0, 0, 0, $6) ON CONFLICT (attempt_key) DO NOTHING`,
			a.AttemptKey, a.UserID, a.Scope, a.PuzzleID, a.Solved, ms)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			out, err = attemptOutcome(ctx, tx, a.AttemptKey)
			dup = err == nil
			return err
		}
		if a.InteractionID != "" {
			if err := saveResponse(ctx, tx, a.InteractionID, a.Response, now); err != nil {
				return err
			}
		}
		init := match.NewGlicko()
		if _, err := tx.Exec(ctx, `INSERT INTO puzzle_players (user_id, rating, deviation, volatility, updated_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING`,
			a.UserID, init.Rating, init.Deviation, init.Volatility, ms); err != nil {
			return err
		}
		var player, puzzle match.Glicko
		if err := tx.QueryRow(ctx, `SELECT rating, deviation, volatility FROM puzzle_players WHERE user_id = $1 FOR UPDATE`,
			a.UserID).Scan(&player.Rating, &player.Deviation, &player.Volatility); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO puzzle_ratings (puzzle_id, theme, rating, deviation, volatility, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (puzzle_id) DO NOTHING`,
			a.PuzzleID, string(a.Theme), a.Initial.Rating, a.Initial.Deviation, a.Initial.Volatility, ms); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = $1 FOR UPDATE`,
			a.PuzzleID).Scan(&puzzle.Rating, &puzzle.Deviation, &puzzle.Volatility); err != nil {
			return err
		}
		var tried bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM puzzle_attempts
			WHERE user_id = $1 AND puzzle_id = $2 AND attempt_key <> $3)`,
			a.UserID, a.PuzzleID, a.AttemptKey).Scan(&tried); err != nil {
			return err
		}
		rated := a.Rated && !tried
		newPlayer, newPuzzle := a.Rate(rated, player, puzzle)
		solved := 0
		if a.Solved {
			solved = 1
		}
		if _, err := tx.Exec(ctx, `UPDATE puzzle_players SET rating = $2, deviation = $3, volatility = $4,
				attempted = attempted + 1, solved = solved + $5, best_streak = GREATEST(best_streak, $6), updated_at = $7
			WHERE user_id = $1`,
			a.UserID, newPlayer.Rating, newPlayer.Deviation, newPlayer.Volatility, solved, a.Streak, ms); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE puzzle_ratings SET rating = $2, deviation = $3, volatility = $4,
				attempts = attempts + 1, solves = solves + $5, updated_at = $6
			WHERE puzzle_id = $1`,
			a.PuzzleID, newPuzzle.Rating, newPuzzle.Deviation, newPuzzle.Volatility, solved, ms); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE puzzle_attempts SET rated = $2, player_before = $3, player_after = $4,
				puzzle_before = $5, puzzle_after = $6 WHERE attempt_key = $1`,
			a.AttemptKey, rated, player.Rating, newPlayer.Rating, puzzle.Rating, newPuzzle.Rating); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO puzzle_members (scope, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			a.Scope, a.UserID); err != nil {
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
func attemptOutcome(ctx context.Context, tx execer, key string) (match.PuzzleOutcome, error) {
	var o match.PuzzleOutcome
	var pb, pa, zb, za float64
	err := tx.QueryRow(ctx, `SELECT solved, rated, player_before, player_after, puzzle_before, puzzle_after
		FROM puzzle_attempts WHERE attempt_key = $1`, key).Scan(&o.Solved, &o.Rated, &pb, &pa, &zb, &za)
	if err != nil {
		return o, err
	}
	o.Player, o.PlayerChange, o.Puzzle, o.PuzzleChange = pa, pa-pb, za, za-zb
	return o, nil
}

// PuzzleAttemptOutcome returns the outcome of the attempt recorded under
// attemptKey, or match.ErrNotFound.
func (db *DB) PuzzleAttemptOutcome(ctx context.Context, attemptKey string) (match.PuzzleOutcome, error) {
	var o match.PuzzleOutcome
	var pb, pa, zb, za float64
	err := db.pool.QueryRow(ctx, `SELECT solved, rated, player_before, player_after, puzzle_before, puzzle_after
		FROM puzzle_attempts WHERE attempt_key = $1`, attemptKey).Scan(&o.Solved, &o.Rated, &pb, &pa, &zb, &za)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, fmt.Errorf("puzzle attempt %s: %w", attemptKey, match.ErrNotFound)
	}
	if err != nil {
		return o, err
	}
	o.Player, o.PlayerChange, o.Puzzle, o.PuzzleChange = pa, pa-pb, za, za-zb
	return o, nil
}

// PuzzleStats returns the user's puzzle record.
func (db *DB) PuzzleStats(ctx context.Context, userID string) (match.PuzzleStats, error) {
	s := match.PuzzleStats{UserID: userID, Rating: match.NewGlicko()}
	err := db.pool.QueryRow(ctx, `SELECT rating, deviation, volatility, attempted, solved, best_streak
		FROM puzzle_players WHERE user_id = $1`, userID).
		Scan(&s.Rating.Rating, &s.Rating.Deviation, &s.Rating.Volatility, &s.Attempted, &s.Solved, &s.BestStreak)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return match.PuzzleStats{}, err
	}
	return s, nil
}

// PuzzleLeaderboard returns up to limit users who attempted a puzzle in
// scope, best puzzle rating first, then most solved.
func (db *DB) PuzzleLeaderboard(ctx context.Context, scope string, limit int) ([]match.PuzzleStats, error) {
	rows, err := db.pool.Query(ctx, `SELECT p.user_id, p.rating, p.deviation, p.volatility, p.attempted, p.solved, p.best_streak
		FROM puzzle_members m JOIN puzzle_players p ON p.user_id = m.user_id
		WHERE m.scope = $1 ORDER BY p.rating DESC, p.solved DESC, p.user_id LIMIT $2`, scope, limit)
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
	err := db.pool.QueryRow(ctx, `SELECT attempts, solves FROM puzzle_ratings WHERE puzzle_id = $1`, puzzleID).Scan(&attempts, &solves)
	if errors.Is(err, pgx.ErrNoRows) {
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
	rows, err := db.pool.Query(ctx, `SELECT DISTINCT puzzle_id FROM puzzle_attempts
		WHERE user_id = $1 AND puzzle_id = ANY($2)`, userID, puzzleIDs)
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
