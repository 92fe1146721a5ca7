package postgres

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/jackc/pgx/v5"

	"nimbot/engine"
	"nimbot/match"
)

// recordResult writes the result of g, which has just become final, and
// updates the players' statistics by match's rules (Game.Result says what
// counts and what is rated, match.EloDelta by how much); variant "" keeps
// the totals over all variants. It runs inside Commit's transaction t:
// what depends on nothing it reads is queued on end, which goes out with
// COMMIT; only a rated game needs a round trip of its own, to read the
// ratings it changes.
func recordResult(ctx context.Context, t *tx, g *match.Game, end *pgx.Batch) error {
	res := g.Result()
	winner, loser, difficulty := res.Winner, res.Loser, string(res.Difficulty)
	counted, rated := res.Counted, res.Rated
	delta := 0
	variants := []string{string(g.Rules.Variant), ""}
	// ratings[user][i] is user's rating in variants[i], as the upserts
	// below leave it locked.
	ratings := map[string][]int{}
	if counted {
		upserts := end
		if rated {
			upserts = &pgx.Batch{}
		}
		// Rows are locked in user order, whoever won: two games between the
		// same people finishing at once would otherwise lock them in
		// opposite orders and deadlock.
		users := []string{winner, loser}
		sort.Strings(users)
		for _, user := range users {
			if user == match.BotID {
				continue
			}
			won := 0
			if user == winner {
				won = 1
			}
			for _, v := range variants {
				q := upserts.Queue(`INSERT INTO stats (guild_id, user_id, variant, wins, losses, streak, best_streak, updated_at)
					VALUES ($1, $2, $3, $4, 1 - $4, $4, $4, $5)
					ON CONFLICT (guild_id, user_id, variant) DO UPDATE SET
						wins = stats.wins + excluded.wins,
						losses = stats.losses + excluded.losses,
						streak = CASE WHEN excluded.wins > 0 THEN stats.streak + 1 ELSE 0 END,
						best_streak = GREATEST(stats.best_streak, CASE WHEN excluded.wins > 0 THEN stats.streak + 1 ELSE 0 END),
						updated_at = excluded.updated_at
					RETURNING rating`,
					g.Scope(), user, v, won, toMillis(t.now))
				q.QueryRow(func(row pgx.Row) error {
					var r int
					if err := row.Scan(&r); err != nil {
						return err
					}
					ratings[user] = append(ratings[user], r)
					return nil
				})
				if !rated && difficulty != "" {
					upserts.Queue(`INSERT INTO bot_record (guild_id, user_id, variant, difficulty, wins, losses)
						VALUES ($1, $2, $3, $4, $5, 1 - $5)
						ON CONFLICT (guild_id, user_id, variant, difficulty) DO UPDATE SET
							wins = bot_record.wins + excluded.wins, losses = bot_record.losses + excluded.losses`,
						g.Scope(), user, v, difficulty, won)
				}
			}
		}
		if rated {
			if err := t.send(ctx, upserts); err != nil {
				return err
			}
		}
	}
	if rated {
		// Both rows are locked by the upserts above, so the ratings they
		// returned are the latest committed ones and stay so until we
		// commit.
		for i, v := range variants {
			rw, rl := ratings[winner], ratings[loser]
			if len(rw) != len(variants) || len(rl) != len(variants) {
				return fmt.Errorf("ratings of %d and %d variants read, want %d", len(rw), len(rl), len(variants))
			}
			d := match.EloDelta(rw[i], rl[i])
			if i == 0 {
				delta = d
			}
			end.Queue(`UPDATE stats SET
					rating = rating + CASE WHEN user_id = $1 THEN $3::integer ELSE -$3::integer END,
					rated_games = rated_games + 1
				WHERE guild_id = $4 AND user_id IN ($1, $2) AND variant = $5`,
				winner, loser, d, g.Scope(), v)
		}
	}
	end.Queue(`INSERT INTO results (game_id, guild_id, variant, status, winner, loser, difficulty, plies, rating_delta, finished_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		g.ID, g.Scope(), string(g.Rules.Variant), string(g.Status), winner, loser, difficulty, g.Ply, delta, toMillis(t.now))
	return nil
}

// readOnly is a snapshot for reads that span several queries.
var readOnly = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}

// Stats returns the user's record in the guild for variant ("" = all
// variants). A user with no games gets zero counts and
// match.InitialRating.
func (db *DB) Stats(ctx context.Context, guildID, userID string, variant engine.Variant) (match.Stats, error) {
	var s match.Stats
	err := pgx.BeginTxFunc(ctx, db.pool, readOnly, func(tx pgx.Tx) error {
		s = match.Stats{UserID: userID, Variant: variant, Rating: match.InitialRating}
		err := tx.QueryRow(ctx, `SELECT wins, losses, streak, best_streak, rating FROM stats
			WHERE guild_id = $1 AND user_id = $2 AND variant = $3`, guildID, userID, string(variant)).
			Scan(&s.Wins, &s.Losses, &s.Streak, &s.BestStreak, &s.Rating)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		s.VsBot, err = vsBot(ctx, tx, guildID, userID, variant)
		return err
	})
	if err != nil {
		return match.Stats{}, classify(err)
	}
	return s, nil
}

func vsBot(ctx context.Context, q querier, guildID, userID string, variant engine.Variant) (map[engine.Difficulty][2]int, error) {
	rows, err := q.Query(ctx, `SELECT difficulty, wins, losses FROM bot_record
		WHERE guild_id = $1 AND user_id = $2 AND variant = $3`, guildID, userID, string(variant))
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
// ORDER BY is exactly the order of the stats_leaderboard index (migration
// 0003), which holds every column read: PostgreSQL walks the index and
// stops after limit rows, with no sort, however many users the guild has.
const leaderboardQuery = `SELECT user_id, wins, losses, streak, best_streak, rating FROM stats
	WHERE guild_id = $1 AND variant = $2
	ORDER BY rating DESC, wins DESC, losses, user_id COLLATE "C" LIMIT $3`

// Leaderboard returns up to limit users of the guild with at least one
// decided game in variant ("" = all variants), best first: by rating, then
// wins, then fewest losses, then user id in byte order (COLLATE "C", as
// SQLite compares text), whatever the database's locale.
func (db *DB) Leaderboard(ctx context.Context, guildID string, variant engine.Variant, limit int) ([]match.Stats, error) {
	var board []match.Stats
	err := pgx.BeginTxFunc(ctx, db.pool, readOnly, func(tx pgx.Tx) error {
		board = nil
		rows, err := tx.Query(ctx, leaderboardQuery, guildID, string(variant), limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			s := match.Stats{Variant: variant}
			if err := rows.Scan(&s.UserID, &s.Wins, &s.Losses, &s.Streak, &s.BestStreak, &s.Rating); err != nil {
				rows.Close()
				return err
			}
			board = append(board, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range board {
			if board[i].VsBot, err = vsBot(ctx, tx, guildID, board[i].UserID, variant); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, classify(err)
	}
	return board, nil
}
