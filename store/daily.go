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
func (db *DB) SubscribeDaily(ctx context.Context, d match.DailyChannel) error {
	if d.ChannelID == "" || d.UserID == "" {
		return fmt.Errorf("%w: a daily subscription needs its channel and user", match.ErrInvalid)
	}
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		return tx.exec(ctx, subscribeDailySQL,
			d.ChannelID, d.GuildID, d.UserID, d.Locale, toMillis(now))
	})
}

// UnsubscribeDaily removes a channel's subscription.
func (db *DB) UnsubscribeDaily(ctx context.Context, channelID string) (bool, error) {
	var removed bool
	err := db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		removed = false
		if err := tx.QueryRowContext(ctx, dailySubscribedSQL, channelID).Scan(&removed); err != nil {
			return err
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

// DailyPosted records the day's post and ends the claim.
func (db *DB) DailyPosted(ctx context.Context, channelID string, day int64) error {
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		return tx.exec(ctx, dailyPostedSQL, day, channelID)
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
	dailyPostedSQL = `UPDATE daily_channels SET last_day = MAX(last_day, ?), claimed_until = 0 WHERE channel_id = ?`
)
