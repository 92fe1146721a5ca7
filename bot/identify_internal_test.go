package bot

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func limitFor(count, concurrency int, now time.Time) *IdentifyLimit {
	return NewIdentifyLimit(IdentifyLimitConfig{
		Count: count,
		Gateway: &discordgo.GatewayBotResponse{SessionStartLimit: discordgo.SessionInformation{
			Total: 1000, Remaining: 1000, ResetAfter: 3600_000, MaxConcurrency: concurrency,
		}},
		Now: func() time.Time { return now },
	})
}

// TestIdentifySlots: whatever the moment each shard's process starts, two
// shards with the same rate-limit key (shard_id % max_concurrency) are
// granted slots at least Interval+Slack apart, no shard waits longer than
// one round of groups, and shards of one group share a slot.
func TestIdentifySlots(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	base := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	for _, count := range []int{1, 2, 3, 4, 7, 16, 33} {
		for _, mc := range []int{1, 2, 3, 16} {
			width := IdentifyInterval + IdentifySlack
			groups := (count + mc - 1) / mc
			for round := 0; round < 50; round++ {
				// Each shard in a process of its own, started at its own time.
				slots := make([]time.Time, count)
				for shard := range count {
					start := base.Add(time.Duration(r.Int64N(int64(time.Minute))))
					l := limitFor(count, mc, start)
					slots[shard] = l.slot(shard, start, time.Time{})
					if wait := slots[shard].Sub(start); wait < 0 || wait >= time.Duration(groups)*width {
						t.Fatalf("count %d, mc %d: shard %d waits %v (groups %d)", count, mc, shard, wait, groups)
					}
				}
				for a := range count {
					for b := a + 1; b < count; b++ {
						if a%mc != b%mc {
							continue
						}
						if d := slots[a].Sub(slots[b]).Abs(); d < width {
							t.Fatalf("count %d, mc %d: shards %d and %d (key %d) identify %v apart", count, mc, a, b, a%mc, d)
						}
					}
				}
			}
		}
	}
	t.Run("OneGroupStartsAtOnce", func(t *testing.T) {
		l := limitFor(4, 16, base.Add(1234*time.Millisecond))
		if got := l.slot(3, base.Add(1234*time.Millisecond), time.Time{}); !got.Equal(base.Add(1234 * time.Millisecond)) {
			t.Errorf("slot %v, want now: four shards fit in max_concurrency 16", got)
		}
	})
	t.Run("SameKeyAgainWaits", func(t *testing.T) {
		now := base.Add(1234 * time.Millisecond)
		l := limitFor(1, 1, now)
		if got := l.slot(0, now, now.Add(-time.Second)); got.Sub(now) != IdentifyInterval+IdentifySlack-time.Second {
			t.Errorf("a second identify of one key %v after the first", got.Sub(now.Add(-time.Second)))
		}
	})
}
