package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"nimbot/match"
)

// SubscribeDaily subscribes a channel to the daily puzzle
// (match.DailyStorage).
func (db *DB) SubscribeDaily(ctx context.Context, d match.DailyChannel, interactionID string, response []byte) error {
	if d.ChannelID == "" || d.UserID == "" {
		return fmt.Errorf("%w: a daily subscription needs its channel and user", match.ErrInvalid)
	}
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		if interactionID != "" {
			if err := saveResponse(ctx, tx, interactionID, 0, response, now); err != nil {
				return err
			}
		}
		return tx.exec(ctx, subscribeDailySQL,
			d.ChannelID, d.GuildID, d.UserID, d.Locale, toMillis(now))
	})
}

// UnsubscribeDaily removes a channel's subscription, as
// match.DailyStorage says.
func (db *DB) UnsubscribeDaily(ctx context.Context, channelID, interactionID string, response []byte) (bool, error) {
	var removed bool
	err := db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		removed = false
		if err := tx.QueryRowContext(ctx, dailySubscribedSQL, channelID).Scan(&removed); err != nil || !removed {
			return err
		}
		if interactionID != "" {
			if err := saveResponse(ctx, tx, interactionID, 0, response, now); err != nil {
				return err
			}
		}
		return tx.exec(ctx, unsubscribeDailySQL, channelID)
	})
	return removed, err
}

// ClaimDaily claims channels where day's puzzle is due. The writer runs
// one transaction at a time, and every instance on this file shares it,
// so the select and the update that claims are one step.
func (db *DB) ClaimDaily(ctx context.Context, day int64, now time.Time, lease time.Duration, limit int) ([]match.DailyChannel, error) {
	var out []match.DailyChannel
	err := db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
		out = out[:0]
		rows, err := db.claimable(ctx, tx, day, now, limit)
		if err != nil {
			return err
		}
		for _, d := range rows {
			if err := tx.exec(ctx, claimDailySQL, toMillis(now.Add(lease)), d.ChannelID); err != nil {
				return err
			}
		}
		out = append(out, rows...)
		return nil
	})
	return out, err
}

// claimable lists up to limit channels due for day and not claimed at now.
// The writer's transaction reads one row at a time (one QueryRowContext after another),
// so the channels are read by key, in order, one after another.
func (db *DB) claimable(ctx context.Context, tx queries, day int64, now time.Time, limit int) ([]match.DailyChannel, error) {
	var out []match.DailyChannel
	after := ""
	for len(out) < limit {
		var d match.DailyChannel
		err := tx.QueryRowContext(ctx, claimableDailySQL,
			after, day, toMillis(now)).Scan(&d.ChannelID, &d.GuildID, &d.UserID, &d.Locale, &d.LastDay)
		if err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				break
			}
			return nil, err
		}
		out = append(out, d)
		after = d.ChannelID
	}
	return out, nil
}

// DailyPosted records the day's post and its message, and ends the claim.
func (db *DB) DailyPosted(ctx context.Context, m match.DailyMessage, editAt time.Time) error {
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		return tx.exec(ctx, dailyPostedSQL, m.Day, m.MessageID, m.Solved, toMillis(editAt), m.ChannelID)
	})
}

// ClaimDailyEdits claims day's posts due for an edit. As in ClaimDaily,
// the writer's one transaction makes the reads and the updates that claim
// one step; the rows are read by key, one after another.
func (db *DB) ClaimDailyEdits(ctx context.Context, day int64, now time.Time, every time.Duration, limit int) ([]match.DailyMessage, error) {
	var out []match.DailyMessage
	err := db.withTx(ctx, func(ctx context.Context, tx queries, _ time.Time) error {
		out = out[:0]
		after := ""
		for len(out) < limit {
			m := match.DailyMessage{Day: day}
			err := tx.QueryRowContext(ctx, dailyEditableSQL, after, day, toMillis(now)).
				Scan(&m.ChannelID, &m.MessageID, &m.Solved, &m.Locale)
			if errors.Is(err, sql.ErrNoRows) {
				break
			}
			if err != nil {
				return err
			}
			if err := tx.exec(ctx, claimDailyEditSQL, toMillis(now.Add(every)), m.ChannelID); err != nil {
				return err
			}
			out = append(out, m)
			after = m.ChannelID
		}
		return nil
	})
	return out, err
}

// DailyEdited records what day's post now shows.
func (db *DB) DailyEdited(ctx context.Context, m match.DailyMessage) error {
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		return tx.exec(ctx, dailyEditedSQL, m.MessageID, m.Solved, m.ChannelID, m.Day)
	})
}

// The daily puzzle's statements, prepared at Open (stmts.go).
const (
	subscribeDailySQL = `INSERT INTO daily_channels (channel_id, guild_id, user_id, locale, subscribed_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, user_id = excluded.user_id, locale = excluded.locale`
	dailySubscribedSQL  = `SELECT EXISTS (SELECT 1 FROM daily_channels WHERE channel_id = ?)`
	unsubscribeDailySQL = `DELETE FROM daily_channels WHERE channel_id = ?`
	claimDailySQL       = `UPDATE daily_channels SET claimed_until = ? WHERE channel_id = ?`
	claimableDailySQL   = `SELECT channel_id, guild_id, user_id, locale, last_day FROM daily_channels
		WHERE channel_id > ? AND last_day < ? AND claimed_until <= ? ORDER BY channel_id LIMIT 1`
	// A post of an older day (a late DailyPosted) moves nothing back:
	// the message and count stay today's.
	dailyPostedSQL = `UPDATE daily_channels SET
		message_id = CASE WHEN ?1 >= last_day THEN ?2 ELSE message_id END,
		shown = CASE WHEN ?1 >= last_day THEN ?3 ELSE shown END,
		edit_at = CASE WHEN ?1 >= last_day THEN ?4 ELSE edit_at END,
		last_day = MAX(last_day, ?1), claimed_until = 0 WHERE channel_id = ?5`
	dailyEditableSQL = `SELECT channel_id, message_id, shown, locale FROM daily_channels
		WHERE channel_id > ? AND last_day = ? AND message_id <> '' AND edit_at <= ? ORDER BY channel_id LIMIT 1`
	claimDailyEditSQL = `UPDATE daily_channels SET edit_at = ? WHERE channel_id = ?`
	dailyEditedSQL    = `UPDATE daily_channels SET message_id = ?, shown = ? WHERE channel_id = ? AND last_day = ?`
)
