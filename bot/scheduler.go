package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"
)

// DefaultInterval is how often the Scheduler looks for passed deadlines.
// Deadlines are hours long; half a minute late is not noticeable.
const DefaultInterval = 30 * time.Second

// Scheduler ends games whose turn deadline passed and edits their boards to
// say so. Deadlines are rows in the store, not timers, so a restart loses
// none: Run checks once at start for those that passed while nimbot was down.
type Scheduler struct {
	Service Service
	// Session sends the edits by REST with the bot token; it need not be open.
	Session  *discordgo.Session
	Interval time.Duration // 0: DefaultInterval
	Log      *slog.Logger
}

// Run calls Tick at once and then every Interval until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	interval := s.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	t := time.NewTicker(interval)
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

// Tick runs Service.Expire once and sends every edit it returns. It returns
// how many edits Discord accepted. A failed edit is logged and not retried:
// the game is already over in the store, and the next click on the stale
// board is answered from there.
func (s *Scheduler) Tick(ctx context.Context) int {
	log := s.Log
	if log == nil {
		log = slog.Default()
	}
	edits, err := s.Service.Expire(ctx)
	if err != nil {
		log.Error("expiring games", "err", err)
	}
	sent := 0
	for _, e := range edits {
		if e.Message == nil || e.ChannelID == "" || e.MessageID == "" {
			// A game whose board message was never recorded has nothing to edit.
			continue
		}
		m := *e.Message
		m.Channel, m.ID = e.ChannelID, e.MessageID
		if _, err := s.Session.ChannelMessageEditComplex(&m, discordgo.WithContext(ctx)); err != nil {
			log.Error("editing a board after its deadline", "channel", e.ChannelID, "message", e.MessageID, "err", safeErr(err))
			continue
		}
		sent++
	}
	if len(edits) > 0 {
		log.Info("games past their deadline", "edits", len(edits), "sent", sent)
	}
	return sent
}
