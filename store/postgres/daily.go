package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"nimbot/match"
)

// SubscribeDaily subscribes a channel to the daily puzzle
// (match.DailyStorage).
func (db *DB) SubscribeDaily(ctx context.Context, d match.DailyChannel, interactionID string, response []byte) error {
	if d.ChannelID == "" || d.UserID == "" {
		return fmt.Errorf("%w: a daily subscription needs its channel and user", match.ErrInvalid)
	}
	return db.withTx(ctx, func(tx execer, now time.Time) error {
		if interactionID != "" {
			if err := saveResponse(ctx, tx, interactionID, response, now); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO daily_channels (channel_id, guild_id, user_id, locale, subscribed_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, user_id = excluded.user_id, locale = excluded.locale`,
			d.ChannelID, d.GuildID, d.UserID, d.Locale, toMillis(now))
		return err
	})
}

// UnsubscribeDaily removes a channel's subscription, as
// match.DailyStorage says.
func (db *DB) UnsubscribeDaily(ctx context.Context, channelID, interactionID string, response []byte) (bool, error) {
	var removed bool
	err := db.withTx(ctx, func(tx execer, now time.Time) error {
		tag, err := tx.Exec(ctx, `DELETE FROM daily_channels WHERE channel_id = $1`, channelID)
		if err != nil {
			return err
		}
		removed = tag.RowsAffected() > 0
		if !removed || interactionID == "" {
			return nil
		}
		return saveResponse(ctx, tx, interactionID, response, now)
	})
	return removed, err
}

// ClaimDaily claims channels where day's puzzle is due: rows another
// instance is claiming at the same moment are skipped (SKIP LOCKED), and
// the claim is the row's lease, committed before anything is posted.
func (db *DB) ClaimDaily(ctx context.Context, day int64, now time.Time, lease time.Duration, limit int) ([]match.DailyChannel, error) {
	var out []match.DailyChannel
	// One statement is its own transaction: the claim is committed when
	// the rows are read.
	err := db.inTx(ctx, func(t *tx) error {
		rows, err := t.conn.Query(ctx, `UPDATE daily_channels SET claimed_until = $3
			WHERE channel_id IN (SELECT channel_id FROM daily_channels
				WHERE last_day < $1 AND claimed_until <= $2 ORDER BY channel_id LIMIT $4 FOR UPDATE SKIP LOCKED)
			RETURNING channel_id, guild_id, user_id, locale, last_day`,
			day, toMillis(now), toMillis(now.Add(lease)), limit)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (match.DailyChannel, error) {
			var d match.DailyChannel
			err := row.Scan(&d.ChannelID, &d.GuildID, &d.UserID, &d.Locale, &d.LastDay)
			return d, err
		})
		return err
	})
	return out, err
}

// DailyPosted records the day's post and its message, and ends the claim.
// A post of an older day (a late call) moves nothing back.
func (db *DB) DailyPosted(ctx context.Context, m match.DailyMessage, editAt time.Time) error {
	_, err := db.pool.Exec(ctx, `UPDATE daily_channels SET
		message_id = CASE WHEN $1 >= last_day THEN $2 ELSE message_id END,
		shown = CASE WHEN $1 >= last_day THEN $3 ELSE shown END,
		edit_at = CASE WHEN $1 >= last_day THEN $4 ELSE edit_at END,
		last_day = GREATEST(last_day, $1), claimed_until = 0 WHERE channel_id = $5`,
		m.Day, m.MessageID, m.Solved, toMillis(editAt), m.ChannelID)
	return err
}

// ClaimDailyEdits claims day's posts due for an edit as ClaimDaily claims
// posts: rows another instance is claiming are skipped (SKIP LOCKED), and
// the claim moves the next edit forward in the same statement.
func (db *DB) ClaimDailyEdits(ctx context.Context, day int64, now time.Time, every time.Duration, limit int) ([]match.DailyMessage, error) {
	var out []match.DailyMessage
	err := db.inTx(ctx, func(t *tx) error {
		rows, err := t.conn.Query(ctx, `UPDATE daily_channels SET edit_at = $3
			WHERE channel_id IN (SELECT channel_id FROM daily_channels
				WHERE last_day = $1 AND message_id <> '' AND edit_at <= $2 ORDER BY channel_id LIMIT $4 FOR UPDATE SKIP LOCKED)
			RETURNING channel_id, message_id, shown, locale`,
			day, toMillis(now), toMillis(now.Add(every)), limit)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (match.DailyMessage, error) {
			m := match.DailyMessage{Day: day}
			err := row.Scan(&m.ChannelID, &m.MessageID, &m.Solved, &m.Locale)
			return m, err
		})
		return err
	})
	return out, err
}

// DailyEdited records what day's post now shows.
func (db *DB) DailyEdited(ctx context.Context, m match.DailyMessage) error {
	_, err := db.pool.Exec(ctx, `UPDATE daily_channels SET message_id = $1, shown = $2 WHERE channel_id = $3 AND last_day = $4`,
		m.MessageID, m.Solved, m.ChannelID, m.Day)
	return err
}
