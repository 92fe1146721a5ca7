package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// MaxShards bounds SHARD_COUNT. Discord asks for one shard per 2,500
// servers at most and recommends about one per 1,000: 65,536 shards would
// be 65 million servers, so a larger count is a typo, and it would make the
// shard list grow with it.
const MaxShards = 1 << 16

// ParseShardIDs reads which shards of count this process runs: a list of
// ids and ranges such as "0-3" or "0,2,5" or "0-1,4". An empty spec means
// every shard. Each id must be below count, and none may appear twice.
func ParseShardIDs(spec string, count int) ([]int, error) {
	if count < 1 || count > MaxShards {
		return nil, fmt.Errorf("the shard count must be from 1 to %d, not %d", MaxShards, count)
	}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		ids := make([]int, count)
		for i := range ids {
			ids[i] = i
		}
		return ids, nil
	}
	seen := make(map[int]bool)
	var ids []int
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		first, err1 := parseShardID(lo, count)
		last, err2 := first, error(nil)
		if isRange {
			last, err2 = parseShardID(hi, count)
		}
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("%q: %w", part, err)
		}
		if last < first {
			return nil, fmt.Errorf("%q: a range goes from the lower id to the higher", part)
		}
		for id := first; id <= last; id++ {
			if seen[id] {
				return nil, fmt.Errorf("shard %d is listed twice", id)
			}
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

func parseShardID(s string, count int) (int, error) {
	s = strings.TrimSpace(s)
	id, err := strconv.Atoi(s)
	if err != nil || id < 0 || s != strconv.Itoa(id) {
		return 0, fmt.Errorf("%q is not a shard id (0, 1, 2, …)", s)
	}
	if id >= count {
		return 0, fmt.Errorf("shard %d does not exist: with %d shards the ids go from 0 to %d", id, count, count-1)
	}
	return id, nil
}

// Discord's limits on starting gateway sessions
// (https://discord.com/developers/docs/events/gateway#sharding-max-concurrency
// and #session-start-limit-object).
const (
	// IdentifyInterval is the window of max_concurrency: shards whose
	// shard_id % max_concurrency is the same (one rate-limit key) may
	// identify once per window. A too-early Identify is answered with
	// Invalid Session (opcode 9).
	IdentifyInterval = 5 * time.Second
	// IdentifySlack is added to each identify slot: the Identify leaves
	// only after the websocket is dialled and Hello read, and other
	// processes' clocks differ from ours by up to a few milliseconds.
	IdentifySlack = time.Second
)

// IdentifyLimit keeps a process's gateway Identify calls within Discord's
// limits, for every shard it runs and without talking to the other
// processes:
//
//   - max_concurrency: shard i belongs to group i / max_concurrency, and
//     the groups take turns in slots of Interval+Slack counted from the Unix
//     epoch, group g identifying only at the start of a slot n with
//     n % groups == g. Two shards with one rate-limit key (i %
//     max_concurrency) are in different groups, so they never identify in
//     the same slot, whichever processes run them, as long as the
//     machines' clocks agree (NTP) to well within Slack. Shards of one
//     group have distinct keys, so up to max_concurrency identify at once,
//     as Discord allows. With one group (count ≤ max_concurrency) there is
//     no turn to wait for; each key still waits Interval+Slack after its
//     last Identify in this process.
//   - session_start_limit: it never identifies more than remaining times
//     before reset_after has passed; then it asks GET /gateway/bot again.
//     Past the limit Discord resets the bot token and ends every session.
//
// It is safe for concurrent use.
type IdentifyLimit struct {
	count, concurrency int
	width              time.Duration
	refresh            func(ctx context.Context) (*discordgo.GatewayBotResponse, error)
	log                *slog.Logger
	now                func() time.Time

	mu        sync.Mutex
	remaining int
	resetAt   time.Time
	last      map[int]time.Time // rate-limit key → last slot granted
}

// IdentifyLimitConfig configures an IdentifyLimit.
type IdentifyLimitConfig struct {
	// Count is the number of shards of the whole bot (SHARD_COUNT).
	Count int
	// Gateway is GET /gateway/bot's answer, with max_concurrency and the
	// session start limit.
	Gateway *discordgo.GatewayBotResponse
	// Refresh asks GET /gateway/bot again once the session start limit
	// resets (Session.GatewayBot).
	Refresh func(ctx context.Context) (*discordgo.GatewayBotResponse, error)
	// Interval and Slack default to IdentifyInterval and IdentifySlack;
	// tests shorten them together with the stand-in's window.
	Interval, Slack time.Duration
	Log             *slog.Logger
	Now             func() time.Time // nil: time.Now
}

// NewIdentifyLimit returns the limit for cfg.
func NewIdentifyLimit(cfg IdentifyLimitConfig) *IdentifyLimit {
	if cfg.Interval <= 0 {
		cfg.Interval = IdentifyInterval
	}
	if cfg.Slack <= 0 {
		cfg.Slack = IdentifySlack
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	l := &IdentifyLimit{
		count: max(cfg.Count, 1), width: cfg.Interval + cfg.Slack,
		refresh: cfg.Refresh, log: cfg.Log, now: cfg.Now, last: map[int]time.Time{},
	}
	l.update(cfg.Gateway)
	return l
}

// update takes the session start limit Discord reported, under l.mu or
// before l is shared.
func (l *IdentifyLimit) update(gw *discordgo.GatewayBotResponse) {
	sl := gw.SessionStartLimit
	// Discord documents max_concurrency ≥ 1; a missing one means 1.
	l.concurrency = max(sl.MaxConcurrency, 1)
	l.remaining = sl.Remaining
	l.resetAt = l.now().Add(time.Duration(sl.ResetAfter) * time.Millisecond)
}

// slot returns the start of the first slot at or after t in which shard
// may identify, given the last slot granted to its rate-limit key.
func (l *IdentifyLimit) slot(shard int, t, last time.Time) time.Time {
	groups := (l.count + l.concurrency - 1) / l.concurrency
	if !last.IsZero() && t.Before(last.Add(l.width)) {
		t = last.Add(l.width)
	}
	if groups == 1 {
		return t
	}
	w := int64(l.width)
	n := (t.UnixNano() + w - 1) / w // the first slot starting at or after t
	group := int64(shard / l.concurrency)
	n += ((group-n)%int64(groups) + int64(groups)) % int64(groups)
	return time.Unix(0, n*w)
}

// Wait blocks until shard may identify, and counts the Identify against the
// session start limit. Call it right before opening the shard's session
// (Session.Open identifies at once). It fails only when ctx ends.
func (l *IdentifyLimit) Wait(ctx context.Context, shard int) error {
	if err := l.reserve(ctx); err != nil {
		return err
	}
	key := shard % l.concurrency
	l.mu.Lock()
	at := l.slot(shard, l.now(), l.last[key])
	l.last[key] = at
	l.mu.Unlock()
	return sleepUntil(ctx, l.now, at)
}

// reserve takes one session start, waiting for the limit to reset when
// none is left.
func (l *IdentifyLimit) reserve(ctx context.Context) error {
	for {
		l.mu.Lock()
		if l.remaining > 0 {
			l.remaining--
			l.mu.Unlock()
			return nil
		}
		resetAt := l.resetAt
		l.mu.Unlock()
		l.log.Warn("Discord's session start limit is used up; waiting for it to reset before identifying",
			"reset_at", resetAt.UTC().Format(time.RFC3339))
		if err := sleepUntil(ctx, l.now, resetAt); err != nil {
			return err
		}
		if l.refresh == nil {
			return errors.New("the session start limit is used up and cannot be asked again")
		}
		gw, err := l.refresh(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// Ask again after a while rather than identify blindly.
			l.log.Warn("asking Discord for the session start limit", "err", safeErr(err))
			l.mu.Lock()
			l.resetAt = l.now().Add(l.width)
			l.mu.Unlock()
			continue
		}
		l.mu.Lock()
		l.update(gw)
		l.mu.Unlock()
	}
}

// sleepUntil waits until now() reaches t or ctx ends.
func sleepUntil(ctx context.Context, now func() time.Time, t time.Time) error {
	d := t.Sub(now())
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
