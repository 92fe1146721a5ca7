package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/internal/metrics"
)

// ShardsConfig configures Shards.
type ShardsConfig struct {
	// NewSession returns a new session with the bot token (see NewSession);
	// it is called once for REST and once per shard. Tests return sessions
	// whose Client reaches a stand-in.
	NewSession func() (*discordgo.Session, error)
	// Count is the number of shards of the whole bot (SHARD_COUNT); 0 asks
	// Discord (GET /gateway/bot) for its recommendation.
	Count int
	// IDs are the shards this process runs (SHARD_IDS, see
	// ParseShardIDs); nil runs every shard of Count. They need a Count:
	// processes that split the shards must agree on it.
	IDs     []int
	Service Service
	// Commands are registered by the process that runs shard 0, once (see
	// Shards).
	Commands       []*discordgo.ApplicationCommand
	AppID, GuildID string
	Log            *slog.Logger
	DeferAfter     time.Duration // 0: DefaultDeferAfter
	// MaxPending bounds each shard's answers waiting on Discord's REST
	// API (0: DefaultMaxPending).
	MaxPending int
	// FetchDelay and MaxDelayed are each shard's (see GatewayConfig).
	FetchDelay time.Duration
	MaxDelayed int
	// IdentifyInterval and IdentifySlack, when set, replace Discord's 5 s
	// window (IdentifyInterval) and IdentifySlack; tests shorten both.
	IdentifyInterval, IdentifySlack time.Duration
	// Metrics counts every shard's interactions (nil: none).
	Metrics *metrics.Metrics
}

// Shards runs the gateway shards of one process: a Gateway, with its own
// discordgo Session identifying as [shard_id, num_shards], for each shard
// it runs, all answering with the same Service. Discord routes a guild's
// interactions to shard (guild_id >> 22) % num_shards, and a channel's
// games live in one guild, so the shards share nothing but the database.
//
// What happens once per process, not per shard: REST (one rate limiter for
// every session, since Discord's limits are per bot), and the Scheduler
// the caller runs with Session. Command registration happens once per
// deployment: by the process that runs shard 0. Every deployment has
// exactly one shard 0 (it is also where Discord sends events without a
// guild), so no setting can leave the commands unregistered or have two
// processes overwrite them at once.
type Shards struct {
	cfg  ShardsConfig
	rest *discordgo.Session

	mu       sync.Mutex
	count    int
	ids      []int
	gateways []*Gateway // by position in ids, once Open built them
	gwBot    Status     // asking GET /gateway/bot
}

// NewShards checks cfg and returns the Shards; Open connects them.
func NewShards(cfg ShardsConfig) (*Shards, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.NewSession == nil {
		return nil, errors.New("shards: no NewSession")
	}
	if cfg.Count < 0 || cfg.Count > MaxShards {
		return nil, fmt.Errorf("SHARD_COUNT must be from 1 to %d, not %d", MaxShards, cfg.Count)
	}
	if cfg.Count == 0 && cfg.IDs != nil {
		return nil, errors.New("SHARD_IDS needs SHARD_COUNT: processes that split the shards must agree on their count, and Discord's recommendation can change between their starts")
	}
	if cfg.Count > 0 {
		ids, err := checkIDs(cfg.IDs, cfg.Count)
		if err != nil {
			return nil, err
		}
		cfg.IDs = ids
	}
	rest, err := cfg.NewSession()
	if err != nil {
		return nil, err
	}
	return &Shards{cfg: cfg, rest: rest, count: cfg.Count, ids: cfg.IDs}, nil
}

// checkIDs returns ids (every shard when nil) once each is a distinct
// shard of count.
func checkIDs(ids []int, count int) ([]int, error) {
	if ids == nil {
		return ParseShardIDs("", count)
	}
	if len(ids) == 0 {
		return nil, errors.New("SHARD_IDS names no shard")
	}
	seen := map[int]bool{}
	for _, id := range ids {
		if id < 0 || id >= count {
			return nil, fmt.Errorf("shard %d does not exist: with %d shards the ids go from 0 to %d", id, count, count-1)
		}
		if seen[id] {
			return nil, fmt.Errorf("shard %d is listed twice", id)
		}
		seen[id] = true
	}
	return ids, nil
}

// Session is the session for REST calls that belong to no shard: the
// Scheduler's board edits. It shares its rate limiter with every shard.
func (s *Shards) Session() *discordgo.Session { return s.rest }

// Open asks Discord for the recommended shard count (when Count is 0) and
// the session start limit, then opens every shard of this process, each
// identifying when IdentifyLimit lets it, and returns once all are
// connected. It retries while Discord is unreachable and fails only when
// ctx ends, closing the shards it opened, or when Discord rejects the
// token (ErrTokenRejected).
func (s *Shards) Open(ctx context.Context) error {
	var gw *discordgo.GatewayBotResponse
	err := retry(ctx, &s.gwBot, s.cfg.Log, "asking Discord for the gateway (GET /gateway/bot)", func(ctx context.Context) error {
		var err error
		gw, err = s.gatewayBot(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.count == 0 {
		s.count = min(max(gw.Shards, 1), MaxShards)
		s.ids, _ = ParseShardIDs("", s.count)
		s.cfg.Log.Info("shard count from Discord's recommendation", "shards", s.count)
	}
	count, ids := s.count, s.ids
	s.mu.Unlock()
	sl := gw.SessionStartLimit
	s.cfg.Log.Info("starting gateway shards", "shards", describeIDs(ids), "of", count,
		"max_concurrency", sl.MaxConcurrency, "session_starts_left", sl.Remaining)
	limit := NewIdentifyLimit(IdentifyLimitConfig{
		Count: count, Gateway: gw, Refresh: s.gatewayBot,
		Interval: s.cfg.IdentifyInterval, Slack: s.cfg.IdentifySlack, Log: s.cfg.Log,
	})

	gateways := make([]*Gateway, len(ids))
	for i, id := range ids {
		session, err := s.cfg.NewSession()
		if err != nil {
			return err
		}
		session.ShardID, session.ShardCount = id, count
		// One bot, one set of REST rate limits, whichever shard answers.
		session.Ratelimiter = s.rest.Ratelimiter
		gateways[i] = NewGateway(GatewayConfig{
			Session: session, Service: s.cfg.Service, Commands: s.cfg.Commands,
			AppID: s.cfg.AppID, GuildID: s.cfg.GuildID, DeferAfter: s.cfg.DeferAfter, MaxPending: s.cfg.MaxPending,
			FetchDelay: s.cfg.FetchDelay, MaxDelayed: s.cfg.MaxDelayed,
			Log:          s.cfg.Log.With("shard", id),
			SkipRegister: id != 0,
			Identify:     func(ctx context.Context) error { return limit.Wait(ctx, id) },
			Metrics:      s.cfg.Metrics,
		})
	}
	s.mu.Lock()
	s.gateways = gateways
	s.mu.Unlock()

	errs := make([]error, len(gateways))
	var wg sync.WaitGroup
	for i, g := range gateways {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = g.Open(ctx) }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Close(shut)
		return err
	}
	s.cfg.Log.Info("every gateway shard is connected", "shards", describeIDs(ids), "of", count)
	return nil
}

// gatewayBot is GET /gateway/bot, within RegisterTimeout.
func (s *Shards) gatewayBot(ctx context.Context) (*discordgo.GatewayBotResponse, error) {
	actx, cancel := context.WithTimeout(ctx, RegisterTimeout)
	defer cancel()
	gw, err := s.rest.GatewayBot(discordgo.WithContext(actx))
	if err != nil {
		return nil, fmt.Errorf("GET /gateway/bot: %w", safeErr(err))
	}
	return gw, nil
}

// Close closes every shard at once (see Gateway.Close): each waits for its
// interactions in flight, within ctx.
func (s *Shards) Close(ctx context.Context) error {
	s.mu.Lock()
	gateways := s.gateways
	s.mu.Unlock()
	errs := make([]error, len(gateways))
	var wg sync.WaitGroup
	for i, g := range gateways {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = g.Close(ctx) }()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// InFlight reports how many interactions the shards are answering.
func (s *Shards) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, g := range s.gateways {
		n += g.InFlight()
	}
	return n
}

// Count returns the number of shards of the whole bot, 0 until Open has
// asked Discord for it in automatic mode.
func (s *Shards) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// IDs returns the shards this process runs.
func (s *Shards) IDs() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.ids...)
}

// Check returns the /healthz check of the gateway connections:
// "discord_gateway", with each shard's state in its detail, failing while
// any shard (or GET /gateway/bot before them) is being retried. Like every
// link to Discord it is not essential.
func (s *Shards) Check() Check {
	return Check{Name: "discord_gateway", Run: func(ctx context.Context) (string, error) {
		s.mu.Lock()
		gateways, ids, count := s.gateways, s.ids, s.count
		s.mu.Unlock()
		if gateways == nil {
			return s.gwBot.Check("").Run(ctx)
		}
		states := make([]string, len(gateways))
		var errs []error
		for i, g := range gateways {
			detail, err := g.Link().Check("").Run(ctx)
			if err != nil {
				errs = append(errs, fmt.Errorf("shard %d: %w", ids[i], err))
			}
			states[i] = fmt.Sprintf("shard %d: %s", ids[i], detail)
		}
		return fmt.Sprintf("%d of %d shards; ", len(ids), count) + strings.Join(states, "; "), errors.Join(errs...)
	}}
}

// States returns the state of each shard's gateway connection (StateOK,
// StateRetrying, ...), none before Open built them.
func (s *Shards) States() []string {
	s.mu.Lock()
	gateways := s.gateways
	s.mu.Unlock()
	states := make([]string, len(gateways))
	for i, g := range gateways {
		states[i], _ = g.Link().State()
	}
	return states
}

// RegistrationCheck returns the /healthz check of the command
// registration ("discord_commands"): shard 0's gateway registers them, so
// a process without shard 0 only says which does.
func (s *Shards) RegistrationCheck() Check {
	return Check{Name: "discord_commands", Run: func(ctx context.Context) (string, error) {
		s.mu.Lock()
		gateways, ids := s.gateways, s.ids
		s.mu.Unlock()
		if ids != nil && !slices.Contains(ids, 0) {
			return "registered by the process running shard 0", nil
		}
		if gateways == nil {
			return StateStarting, nil
		}
		return gateways[slices.Index(ids, 0)].Registration().Check("").Run(ctx)
	}}
}

// describeIDs writes ids as SHARD_IDS would, ranges folded: "0-3,6".
func describeIDs(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(ids[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	return b.String()
}
