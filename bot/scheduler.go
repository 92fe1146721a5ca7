package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/internal/metrics"
)

// DefaultInterval is how often the Scheduler looks for passed deadlines.
// Deadlines are hours long; half a minute late is not noticeable.
const DefaultInterval = 30 * time.Second

// TokenLife is how long an interaction token lives. Discord delivers an
// interaction again (a gateway resume, an HTTP retry) only while its token
// lives, since no answer could be sent after that.
const TokenLife = 15 * time.Minute

// DefaultRetention is how long saved answers are kept for redeliveries: four
// token lives, a wide margin for clocks and delayed retries, yet a bounded
// table: an hour of answers.
const DefaultRetention = time.Hour

// Scheduler runs nimbot's periodic work: it ends games whose turn deadline
// passed and edits their boards to say so, it forgets saved answers no
// redelivery can ask for any more, and (with Forget) users who removed
// nimbot and servers gone quiet. Deadlines are rows in the store, not
// timers, so a restart loses none: Run checks once at start for those that
// passed while nimbot was down.
type Scheduler struct {
	cfg SchedulerConfig
	// nextIdle is when this process next asks for idle servers (Tick's
	// goroutine only).
	nextIdle time.Time
}

// SchedulerConfig is what NewScheduler needs. Zero fields take the defaults.
type SchedulerConfig struct {
	Service Service
	// Session sends the edits by REST with the bot token; it need not be open.
	Session  *discordgo.Session
	Interval time.Duration // 0: DefaultInterval
	Log      *slog.Logger
	// PruneAnswers, when set, forgets the answers saved before a time
	// (store.DB.PruneInteractions); each Tick calls it with now − Retention.
	// Without it the saved answers grow with every request, forever.
	PruneAnswers func(ctx context.Context, before time.Time) (int64, error)
	// Retention is how long answers are kept (0: DefaultRetention). Less
	// than TokenLife would forget answers Discord may still redeliver; only
	// a measurement (bench/load) should go below it.
	Retention time.Duration
	Now       func() time.Time // nil: time.Now
	// Metrics counts the games ended at their deadline (nil: none).
	Metrics *metrics.Metrics
	// Forget, when set, forgets on each Tick the users whose forgetting
	// came due (Discord's APPLICATION_DEAUTHORIZED plus the grace period)
	// and, at most once an hour, the servers where no game changed for
	// IdleAfter (0: DefaultIdleAfter). The store makes each happen once
	// across instances (match.Privacy's ForgetDue and ForgetIdle).
	Forget    Privacy
	IdleAfter time.Duration
	// Posts, when set, claims the posts due now (the daily puzzle), each
	// Tick, for the scheduler to send (see Post).
	Posts func(ctx context.Context) ([]Post, error)
	// PostEdits, when set, claims the edits of posted messages due now
	// (the daily puzzle's running count), each Tick, for the scheduler to
	// send (see PostEdit).
	PostEdits func(ctx context.Context) ([]PostEdit, error)
}

// Privacy is what the Scheduler's forgetting asks of the store
// (match.Privacy's ForgetDue and ForgetIdle).
type Privacy interface {
	ForgetDue(ctx context.Context, now time.Time, limit int) ([]string, error)
	ForgetIdle(ctx context.Context, now, before time.Time, limit int) ([]string, error)
}

// DefaultIdleAfter is how long a server may go without a game changing
// before the Scheduler forgets it: a year, so a server that plays once a
// season keeps its leaderboard.
const DefaultIdleAfter = 365 * 24 * time.Hour

// forgetBatch bounds the users or servers one Tick forgets: each is one
// transaction, and the rest wait for the next Tick.
const forgetBatch = 100

// idleEvery is how often one process asks the store for idle servers; the
// store itself sweeps once per match.IdleSweepEvery across instances.
const idleEvery = time.Hour

// NewScheduler returns a Scheduler; Run starts it.
func NewScheduler(cfg SchedulerConfig) *Scheduler {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Retention <= 0 {
		cfg.Retention = DefaultRetention
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.IdleAfter <= 0 {
		cfg.IdleAfter = DefaultIdleAfter
	}
	return &Scheduler{cfg: cfg}
}

// Run calls Tick at once and then every Interval until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		s.Tick(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick runs Service.Expire once and sends every edit it returns, then
// prunes the saved answers (see PruneAnswers). It returns how many edits
// Discord accepted. A failed edit is logged and not retried: the game is
// already over in the store, and the next click on the stale board is
// answered from there.
func (s *Scheduler) Tick(ctx context.Context) int {
	log := s.cfg.Log
	defer s.forget(ctx, log)
	defer s.prune(ctx, log)
	defer s.sendPostEdits(ctx, log)
	defer s.sendPosts(ctx, log)
	edits, err := s.cfg.Service.Expire(ctx)
	if err != nil {
		log.Error("expiring games", "err", err)
	}
	s.cfg.Metrics.Deadlines(len(edits))
	sent := 0
	// One limiter for the sweep's edits, dropped with it (see rest.go):
	// the session's would keep a bucket per channel for good.
	limiter := discordgo.NewRatelimiter()
	for _, e := range edits {
		if e == nil || e.Channel == "" || e.ID == "" {
			// A game whose board message was never recorded has nothing to edit.
			continue
		}
		if _, err := channelMessageEdit(s.cfg.Session, limiter, e, discordgo.WithContext(ctx)); err != nil {
			log.Error("editing a board after its deadline", "channel", e.Channel, "message", e.ID, "err", safeErr(err))
			continue
		}
		sent++
	}
	if len(edits) > 0 {
		log.Info("games past their deadline", "edits", len(edits), "sent", sent)
	}
	return sent
}

// prune forgets the answers older than the retention. The store deletes in
// small transactions, so moves queued meanwhile are not held up.
func (s *Scheduler) prune(ctx context.Context, log *slog.Logger) {
	if s.cfg.PruneAnswers == nil {
		return
	}
	retention := s.cfg.Retention
	start := time.Now()
	n, err := s.cfg.PruneAnswers(ctx, s.cfg.Now().Add(-retention))
	if err != nil && ctx.Err() == nil {
		log.Error("pruning saved answers", "pruned", n, "err", err)
		return
	}
	if n > 0 {
		log.Debug("pruned saved answers", "count", n, "took", time.Since(start), "retention", retention)
	}
}

// forget forgets the users whose grace period ended and, once an hour, the
// servers gone idle. Ids are not logged: the log would keep what the
// database just let go.
func (s *Scheduler) forget(ctx context.Context, log *slog.Logger) {
	if s.cfg.Forget == nil {
		return
	}
	now := s.cfg.Now()
	users, err := s.cfg.Forget.ForgetDue(ctx, now, forgetBatch)
	if err != nil && ctx.Err() == nil {
		log.Error("forgetting users who removed nimbot", "forgotten", len(users), "err", err)
	} else if len(users) > 0 {
		log.Info("forgot users who removed nimbot", "count", len(users))
	}
	if now.Before(s.nextIdle) {
		return
	}
	s.nextIdle = now.Add(idleEvery)
	guilds, err := s.cfg.Forget.ForgetIdle(ctx, now, now.Add(-s.cfg.IdleAfter), forgetBatch)
	if len(guilds) == forgetBatch {
		s.nextIdle = now // more are waiting: carry on next Tick
	}
	if err != nil && ctx.Err() == nil {
		log.Error("forgetting idle servers", "forgotten", len(guilds), "err", err)
	} else if len(guilds) > 0 {
		log.Info("forgot servers where nothing was played", "count", len(guilds), "idle_for", s.cfg.IdleAfter.String())
	}
}
