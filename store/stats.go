package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// recordResult writes the result of g, which has just become final, and
// updates the players' statistics. It runs inside Commit's transaction.
func recordResult(ctx context.Context, tx queries, g *match.Game, now time.Time) error {
	// What counts, and for whom, is match's rule (Game.Result); this only
	// writes it down.
	res := g.Result()
	winner, loser, difficulty := res.Winner, res.Loser, string(res.Difficulty)
	counted, rated := res.Counted, res.Rated
	delta := 0
	variants := []string{string(g.Rules.Variant), ""}
	if counted {
		for _, user := range []string{winner, loser} {
			if user == match.BotID {
				continue
			}
			won := 0
			if user == winner {
				won = 1
			}
			if _, err := tx.ExecContext(ctx, upsertStatsSQL, g.Scope(), user, variants[0], won, toMillis(now)); err != nil {
				return err
			}
			if !rated && difficulty != "" {
				if _, err := tx.ExecContext(ctx, upsertBotRecordSQL, g.Scope(), user, variants[0], difficulty, won); err != nil {
					return err
				}
			}
		}
	}
	if rated {
		for i, v := range variants {
			var rw, rl int
			if err := tx.QueryRowContext(ctx, ratingSQL, g.Scope(), winner, v).Scan(&rw); err != nil {
				return err
			}
			if err := tx.QueryRowContext(ctx, ratingSQL, g.Scope(), loser, v).Scan(&rl); err != nil {
				return err
			}
			d := match.EloDelta(rw, rl)
			if i == 0 {
				delta = d
			}
			for _, u := range []struct {
				id string
				d  int
			}{{winner, d}, {loser, -d}} {
				if _, err := tx.ExecContext(ctx, updateRatingSQL, u.d, g.Scope(), u.id, v); err != nil {
					return err
				}
			}
		}
	}
	_, err := tx.ExecContext(ctx, insertResultSQL,
		g.ID, g.Scope(), string(g.Rules.Variant), string(g.Status), winner, loser, difficulty, g.Ply, delta, toMillis(now))
	return err
}

// recordResult's statements. The stats and bot_record rows of a player,
// the variant's and the all-variants one (”), are written in one
// statement each: a game's end writes them together.
const (
	upsertStatsSQL = `INSERT INTO stats (guild_id, user_id, variant, wins, losses, streak, best_streak, updated_at)
				VALUES (?1, ?2, ?3, ?4, 1 - ?4, ?4, ?4, ?5), (?1, ?2, '', ?4, 1 - ?4, ?4, ?4, ?5)
				ON CONFLICT (guild_id, user_id, variant) DO UPDATE SET
					wins = wins + excluded.wins,
					losses = losses + excluded.losses,
					streak = CASE WHEN excluded.wins > 0 THEN streak + 1 ELSE 0 END,
					best_streak = MAX(best_streak, CASE WHEN excluded.wins > 0 THEN streak + 1 ELSE 0 END),
					updated_at = excluded.updated_at`
	upsertBotRecordSQL = `INSERT INTO bot_record (guild_id, user_id, variant, difficulty, wins, losses)
					VALUES (?1, ?2, ?3, ?4, ?5, 1 - ?5), (?1, ?2, '', ?4, ?5, 1 - ?5)
					ON CONFLICT (guild_id, user_id, variant, difficulty) DO UPDATE SET
						wins = wins + excluded.wins, losses = losses + excluded.losses`
	ratingSQL       = `SELECT rating FROM stats WHERE guild_id = ? AND user_id = ? AND variant = ?`
	updateRatingSQL = `UPDATE stats SET rating = rating + ?, rated_games = rated_games + 1
					WHERE guild_id = ? AND user_id = ? AND variant = ?`
	insertResultSQL = `INSERT INTO results (game_id, guild_id, variant, status, winner, loser, difficulty, plies, rating_delta, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

// Stats returns the user's record in the guild for variant ("" = all
// variants). A user with no games gets zero counts and InitialRating.
func (db *DB) Stats(ctx context.Context, guildID, userID string, variant engine.Variant) (match.Stats, error) {
	sqlTx, err := db.readers.BeginTx(ctx, nil)
	if err != nil {
		return match.Stats{}, err
	}
	defer sqlTx.Rollback()
	tx := queries{stmts: db.reads.stmts, tx: sqlTx}
	s := match.Stats{UserID: userID, Variant: variant, Rating: match.InitialRating}
	err = tx.QueryRowContext(ctx, statsSQL, guildID, userID, string(variant)).
		Scan(&s.Wins, &s.Losses, &s.Streak, &s.BestStreak, &s.Rating)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return match.Stats{}, err
	}
	if s.VsBot, err = vsBot(ctx, tx, guildID, userID, variant); err != nil {
		return match.Stats{}, err
	}
	return s, nil
}

// The statements of the reads of stats.
const (
	statsSQL = `SELECT wins, losses, streak, best_streak, rating FROM stats
		WHERE guild_id = ? AND user_id = ? AND variant = ?`
	vsBotSQL = `SELECT difficulty, wins, losses FROM bot_record
		WHERE guild_id = ? AND user_id = ? AND variant = ?`
)

// vsBot reads the user's record against nimbot by difficulty.
func vsBot(ctx context.Context, q queries, guildID, userID string, variant engine.Variant) (map[engine.Difficulty][2]int, error) {
	rows, err := q.QueryContext(ctx, vsBotSQL, guildID, userID, string(variant))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	record := map[engine.Difficulty][2]int{}
	for rows.Next() {
		var (
			d    string
			w, l int
		)
		if err := rows.Scan(&d, &w, &l); err != nil {
			return nil, err
		}
		record[engine.Difficulty(d)] = [2]int{w, l}
	}
	return record, rows.Err()
}

// leaderboardQuery reads a guild's board for one variant, best first. Its
// ORDER BY is exactly the order of the stats_leaderboard index, which also
// holds every column read (migration 0003): SQLite walks the index and stops
// after limit rows, with no sort, however many users the guild has.
const leaderboardQuery = `SELECT user_id, wins, losses, streak, best_streak, rating FROM stats
		WHERE guild_id = ? AND variant = ?
		ORDER BY rating DESC, wins DESC, losses, user_id LIMIT ?`

// Leaderboard returns up to limit users of the guild with at least one
// decided game in variant ("" = all variants), best first: by rating, then
// wins, then fewest losses.
func (db *DB) Leaderboard(ctx context.Context, guildID string, variant engine.Variant, limit int) ([]match.Stats, error) {
	sqlTx, err := db.readers.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer sqlTx.Rollback()
	tx := queries{stmts: db.reads.stmts, tx: sqlTx}
	rows, err := tx.QueryContext(ctx, leaderboardQuery, guildID, string(variant), limit)
	if err != nil {
		return nil, err
	}
	var board []match.Stats
	for rows.Next() {
		s := match.Stats{Variant: variant}
		if err := rows.Scan(&s.UserID, &s.Wins, &s.Losses, &s.Streak, &s.BestStreak, &s.Rating); err != nil {
			rows.Close()
			return nil, err
		}
		board = append(board, s)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	for i := range board {
		if board[i].VsBot, err = vsBot(ctx, tx, guildID, board[i].UserID, variant); err != nil {
			return nil, err
		}
	}
	return board, nil
}
