package bot_test

import (
	"context"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
)

func TestParseShardIDs(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		count int
		want  []int
	}{
		{"", 3, []int{0, 1, 2}},
		{"0-3", 4, []int{0, 1, 2, 3}},
		{"2-3", 4, []int{2, 3}},
		{"0,2,5", 6, []int{0, 2, 5}},
		{" 0-1 , 4 ", 5, []int{0, 1, 4}},
		{"7", 8, []int{7}},
		{"3-3", 4, []int{3}},
	} {
		got, err := bot.ParseShardIDs(tc.spec, tc.count)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseShardIDs(%q, %d) = %v, %v; want %v", tc.spec, tc.count, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		spec  string
		count int
		says  string
	}{
		{"0-3", 0, "from 1 to"},
		{"0", -2, "from 1 to"},
		{"", bot.MaxShards + 1, "from 1 to"},
		{"4", 4, "ids go from 0 to 3"},
		{"0-4", 4, "ids go from 0 to 3"},
		{"3-1", 4, "lower id to the higher"},
		{"1,1", 4, "listed twice"},
		{"0-2,2", 4, "listed twice"},
		{"-1", 4, "not a shard id"},
		{"a", 4, "not a shard id"},
		{"1,", 4, "not a shard id"},
		{"+1", 4, "not a shard id"},
		{"01", 4, "not a shard id"},
		{"0-", 4, "not a shard id"},
		{"1-2-3", 4, "not a shard id"},
		{"99999999999999999999", 4, "not a shard id"},
	} {
		got, err := bot.ParseShardIDs(tc.spec, tc.count)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("ParseShardIDs(%q, %d) = %v, %v; want an error saying %q", tc.spec, tc.count, got, err, tc.says)
		}
	}
}

func FuzzParseShardIDs(f *testing.F) {
	for _, s := range []string{"0-3", "0,2,5", "", "3-1", "1,1", "0-65535"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, spec string, count int) {
		ids, err := bot.ParseShardIDs(spec, count)
		if err != nil {
			return
		}
		seen := map[int]bool{}
		for _, id := range ids {
			if id < 0 || id >= count || seen[id] {
				t.Fatalf("ParseShardIDs(%q, %d) = %v", spec, count, ids)
			}
			seen[id] = true
		}
		if len(ids) == 0 {
			t.Fatalf("ParseShardIDs(%q, %d): no shard", spec, count)
		}
	})
}

// TestIdentifyLimitSessionStarts: with two session starts left, a third
// Identify waits for reset_after and asks GET /gateway/bot again before it
// goes.
func TestIdentifyLimitSessionStarts(t *testing.T) {
	var refreshed atomic.Int32
	start := time.Now()
	resetAfter := 100 * time.Millisecond
	l := bot.NewIdentifyLimit(bot.IdentifyLimitConfig{
		Count: 3,
		Gateway: &discordgo.GatewayBotResponse{Shards: 3, SessionStartLimit: discordgo.SessionInformation{
			Total: 1000, Remaining: 2, ResetAfter: int(resetAfter / time.Millisecond), MaxConcurrency: 16,
		}},
		Refresh: func(ctx context.Context) (*discordgo.GatewayBotResponse, error) {
			refreshed.Add(1)
			return &discordgo.GatewayBotResponse{Shards: 3, SessionStartLimit: discordgo.SessionInformation{
				Total: 1000, Remaining: 1000, ResetAfter: 86400000, MaxConcurrency: 16,
			}}, nil
		},
		Interval: time.Millisecond, Slack: time.Millisecond, Log: quietLog(t),
	})
	ctx := context.Background()
	for shard := range 2 {
		if err := l.Wait(ctx, shard); err != nil {
			t.Fatal(err)
		}
	}
	if n := refreshed.Load(); n != 0 {
		t.Fatalf("asked GET /gateway/bot %d times with starts left", n)
	}
	if err := l.Wait(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if n := refreshed.Load(); n != 1 {
		t.Errorf("asked GET /gateway/bot %d times after the limit was used up, want 1", n)
	}
	if waited := time.Since(start); waited < resetAfter {
		t.Errorf("the third identify went %v after start, before reset_after (%v)", waited, resetAfter)
	}
	t.Run("Cancelled", func(t *testing.T) {
		l := bot.NewIdentifyLimit(bot.IdentifyLimitConfig{Count: 1, Log: quietLog(t),
			Gateway: &discordgo.GatewayBotResponse{SessionStartLimit: discordgo.SessionInformation{Remaining: 0, ResetAfter: 3600_000, MaxConcurrency: 1}}})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if err := l.Wait(ctx, 0); err == nil {
			t.Error("identified with no session start left")
		}
	})
}
