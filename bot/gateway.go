package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/internal/metrics"
)

// NewSession returns a discordgo Session for token that asks for no gateway
// intents: INTERACTION_CREATE reaches every bot without one, and nimbot reads
// nothing else. The same Session serves REST for both transports.
func NewSession(token string) (*discordgo.Session, error) {
	if token == "" {
		return nil, errors.New("no bot token")
	}
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, err
	}
	s.Identify.Intents = discordgo.IntentsNone
	// The state cache would only mirror guilds and channels nimbot never reads.
	s.StateEnabled = false
	s.LogLevel = discordgo.LogError
	return s, nil
}

// GatewayConfig configures a Gateway.
type GatewayConfig struct {
	// Session is the discordgo Session to open (see NewSession). Its Client
	// and Dialer are used as they are, which is how tests reach a stand-in.
	Session *discordgo.Session
	Service Service
	// Commands are registered with one bulk overwrite when the gateway opens.
	Commands []*discordgo.ApplicationCommand
	// AppID is the application id; when empty, the one READY names is used.
	AppID string
	// GuildID, when set, registers the commands in that guild only: guild
	// commands update at once, global ones can take a while to propagate.
	GuildID    string
	Log        *slog.Logger
	DeferAfter time.Duration // 0: DefaultDeferAfter
	// MaxPending bounds the answers waiting on Discord's REST API in the
	// background (0: DefaultMaxPending).
	MaxPending int
	// FetchDelay is how long after an answer that posted a new message
	// its fetch waits (0: DefaultFetchDelay; negative: no wait, fetch at
	// once). Pass FetchDelayFor the shortest turn or challenge timeout.
	FetchDelay time.Duration
	// MaxDelayed bounds the fetches waiting for their delay (0:
	// DefaultMaxDelayed); past it they are made at once.
	MaxDelayed int
	// Identify, when set, is called before each connection attempt (the
	// Session identifies as soon as it connects) and waits until Discord's
	// limits on identifying allow it (see IdentifyLimit).
	Identify func(ctx context.Context) error
	// SkipRegister leaves the commands to another gateway: with several
	// shards, only shard 0's registers them (see Shards).
	SkipRegister bool
	// Metrics counts the interactions (nil: none).
	Metrics *metrics.Metrics
}

// Gateway answers interactions that arrive on Discord's websocket gateway.
type Gateway struct {
	cfg GatewayConfig
	r   *responder

	mu       sync.Mutex
	closing  bool
	busy     int // interactions being answered, under mu
	inflight sync.WaitGroup
	remove   func()
	appID    string

	link, registration Status
	stopRegister       func() // stops the background registration, if any
}

// NewGateway returns a Gateway for cfg; Open connects it.
func NewGateway(cfg GatewayConfig) *Gateway {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Gateway{cfg: cfg, r: newResponder(cfg.Service, cfg.Session, cfg.Log, responderConfig{cfg.DeferAfter, cfg.MaxPending, cfg.FetchDelay, cfg.MaxDelayed, cfg.Metrics})}
}

// ReadyTimeout bounds the wait for READY after the gateway connection
// opened; a gateway that never sends it is retried like an unreachable one.
const ReadyTimeout = 30 * time.Second

// Open connects to the gateway and waits for READY, retrying with a
// jittered backoff while Discord is unreachable (logged, and shown by
// Status), until it succeeds or ctx ends: only ctx ending or a rejected
// token (ErrTokenRejected) fails it. It then
// registers the commands; if Discord refuses or does not answer, the
// registration is retried in the background until Close, while the gateway
// answers interactions (commands registered by an earlier start stay in
// place meanwhile).
func (g *Gateway) Open(ctx context.Context) error {
	s := g.cfg.Session
	removeInteraction := s.AddHandler(g.onInteraction)
	// After Open, discordgo reconnects by itself; the link's status follows
	// it so that /healthz shows a connection lost and being retried.
	removeDisconnect := s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) { g.lost() })
	removeConnect := s.AddHandler(func(*discordgo.Session, *discordgo.Connect) { g.link.set(StateOK, nil) })
	g.remove = func() { removeInteraction(); removeDisconnect(); removeConnect() }
	var r *discordgo.Ready
	err := retry(ctx, &g.link, g.cfg.Log, "connecting to the Discord gateway", func(ctx context.Context) error {
		var err error
		r, err = g.connect(ctx)
		return err
	})
	if err != nil {
		g.remove()
		return err
	}
	g.appID = g.cfg.AppID
	if g.appID == "" && r.Application != nil {
		g.appID = r.Application.ID
	}
	if g.appID == "" {
		return errors.New("no application id: set DISCORD_APP_ID")
	}
	user := ""
	if r.User != nil {
		user = r.User.Username
	}
	g.cfg.Log.Info("connected to the Discord gateway", "user", user, "guilds", len(r.Guilds))
	if g.cfg.SkipRegister {
		return nil
	}
	if err := g.Register(ctx); err != nil {
		g.registration.set(StateRetrying, err)
		g.cfg.Log.Warn("registering commands failed; retrying in the background", "err", err)
		bg, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		g.mu.Lock()
		g.stopRegister = func() { cancel(); <-done }
		g.mu.Unlock()
		go func() {
			defer close(done)
			select {
			case <-time.After(backoff(1)):
			case <-bg.Done():
				return
			}
			if err := RegisterWithRetry(bg, s, g.appID, g.cfg.GuildID, g.cfg.Commands, &g.registration, g.cfg.Log); errors.Is(err, ErrTokenRejected) {
				// The gateway took the token moments ago: it was reset
				// since. The shards will be refused at their next
				// identify; /healthz shows the registration failed.
				g.cfg.Log.Error("registering commands stopped", "err", err)
			}
		}()
	}
	return nil
}

// connect opens the session once and waits for READY.
func (g *Gateway) connect(ctx context.Context) (*discordgo.Ready, error) {
	s := g.cfg.Session
	ready := make(chan *discordgo.Ready, 1)
	removeReady := s.AddHandlerOnce(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	if g.cfg.Identify != nil {
		if err := g.cfg.Identify(ctx); err != nil {
			removeReady()
			return nil, err
		}
	}
	if err := s.Open(); err != nil {
		removeReady()
		return nil, fmt.Errorf("connecting to the Discord gateway: %w", safeErr(err))
	}
	t := time.NewTimer(ReadyTimeout)
	defer t.Stop()
	select {
	case r := <-ready:
		return r, nil
	case <-t.C:
		removeReady()
		s.Close()
		return nil, fmt.Errorf("connecting to the Discord gateway: no READY within %v", ReadyTimeout)
	case <-ctx.Done():
		removeReady()
		s.Close()
		return nil, ctx.Err()
	}
}

// errLost is the link's error from when the connection drops until
// discordgo has reconnected.
var errLost = errors.New("connection lost; reconnecting")

// lost marks the link as being retried, unless Close dropped it.
func (g *Gateway) lost() {
	g.mu.Lock()
	closing := g.closing
	g.mu.Unlock()
	if closing {
		return
	}
	if state, _ := g.link.State(); state == StateOK {
		g.cfg.Log.Warn("the Discord gateway connection was lost; reconnecting")
	}
	g.link.set(StateRetrying, errLost)
}

// Link returns the status of the gateway connection, for /healthz.
func (g *Gateway) Link() *Status { return &g.link }

// Registration returns the status of the command registration, for
// /healthz.
func (g *Gateway) Registration() *Status { return &g.registration }

// Register overwrites the application's commands with cfg.Commands (see
// RegisterCommands).
func (g *Gateway) Register(ctx context.Context) error {
	appID := g.appID
	if appID == "" {
		appID = g.cfg.AppID
	}
	actx, cancel := context.WithTimeout(ctx, RegisterTimeout)
	defer cancel()
	n, err := RegisterCommands(actx, g.cfg.Session, appID, g.cfg.GuildID, g.cfg.Commands)
	if err != nil {
		return err
	}
	g.registration.set(StateOK, nil)
	where := "globally"
	if g.cfg.GuildID != "" {
		where = "in guild " + g.cfg.GuildID
	}
	g.cfg.Log.Info("registered commands", "count", n, "where", where)
	return nil
}

// RegisterTimeout bounds one attempt to register the commands: a hanging
// API must not hold up the retries.
const RegisterTimeout = 30 * time.Second

// RegisterWithRetry registers cmds as RegisterCommands does, retrying with
// a jittered backoff (BackoffMin doubling to BackoffMax) until Discord
// accepts them or ctx ends, each attempt bounded by RegisterTimeout, or
// until Discord rejects the token (ErrTokenRejected). st (if
// not nil) and the log follow every attempt. Interactions can be answered
// meanwhile: commands registered by an earlier start stay in place.
func RegisterWithRetry(ctx context.Context, s *discordgo.Session, appID, guildID string, cmds []*discordgo.ApplicationCommand, st *Status, log *slog.Logger) error {
	if st == nil {
		st = &Status{}
	}
	return retry(ctx, st, log, "registering commands", func(ctx context.Context) error {
		actx, cancel := context.WithTimeout(ctx, RegisterTimeout)
		defer cancel()
		n, err := RegisterCommands(actx, s, appID, guildID, cmds)
		if err == nil {
			where := "globally"
			if guildID != "" {
				where = "in guild " + guildID
			}
			log.Info("registered commands", "count", n, "where", where)
		}
		return err
	})
}

// RegisterCommands replaces the application's commands with cmds in one
// idempotent PUT: globally, or in guildID when it is set (guild commands
// update at once; global ones can take a while to reach every client). It
// returns how many commands Discord now has.
func RegisterCommands(ctx context.Context, s *discordgo.Session, appID, guildID string, cmds []*discordgo.ApplicationCommand) (int, error) {
	if cmds == nil {
		// A JSON null would be refused; an empty list removes every command.
		cmds = []*discordgo.ApplicationCommand{}
	}
	got, err := s.ApplicationCommandBulkOverwrite(appID, guildID, cmds, discordgo.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("registering commands: %w", safeErr(err))
	}
	return len(got), nil
}

// Close stops taking interactions, waits until those in flight are answered
// (and their follow-ups sent) or ctx ends, and closes the session. The caller
// closes the store afterwards.
func (g *Gateway) Close(ctx context.Context) error {
	g.mu.Lock()
	g.closing = true
	busy := g.busy
	stopRegister := g.stopRegister
	g.mu.Unlock()
	if g.remove != nil {
		g.remove()
	}
	if stopRegister != nil {
		stopRegister()
	}
	if busy > 0 {
		g.cfg.Log.Info("waiting for interactions in flight", "count", busy)
	}
	done := make(chan struct{})
	go func() { g.inflight.Wait(); close(done) }()
	var err error
	select {
	case <-done:
		err = g.r.wait(ctx)
	case <-ctx.Done():
		err = fmt.Errorf("waiting for interactions in flight: %w", ctx.Err())
	}
	return errors.Join(err, g.cfg.Session.Close())
}

// InFlight reports how many interactions are being answered right now.
func (g *Gateway) InFlight() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.busy
}

// onInteraction runs in its own goroutine per event (discordgo's default),
// so interactions are answered concurrently; the store serialises moves.
func (g *Gateway) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	g.mu.Lock()
	if g.closing {
		g.mu.Unlock()
		return
	}
	g.inflight.Add(1)
	g.busy++
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.busy--
		g.mu.Unlock()
		g.inflight.Done()
	}()

	i := ic.Interaction
	// The callback goes through discordgo, which encodes first.resp itself;
	// first.encoded serves the HTTP endpoint.
	first, late := g.r.answer(i)
	if first.replayed {
		// The gateway delivered i again (it replays events when a session
		// resumes), and the delivery that saved this answer sends it, or
		// has: Discord would refuse a second callback (40060). A slow
		// redelivery's deferral is sent, and refused so, below.
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := interactionRespond(s, i, first.resp, discordgo.WithContext(ctx)); err != nil {
		g.refused(i, err)
		return
	}
	g.r.after(i, first.resp, late)
}

// refused logs why the callback answering i failed, as loud as the cause
// deserves. Nothing follows a refused callback: no deferred answer is
// finished, no new message fetched.
//
//   - 40060, the interaction acknowledged already: someone answered it,
//     another delivery whose answer was not saved (one that changed
//     nothing, made afresh for each delivery), or another instance; what
//     follows is that answer's. Not an error. (After a 502, discordgo
//     sends the callback again, and Discord may refuse it so when the
//     first one had got through: then the board of a new message is not
//     recorded, and a deferred answer is not finished.)
//   - 10062, the interaction unknown: its 3 seconds passed before the
//     callback arrived (a slow link to Discord, or an event replayed late
//     after a resume). Logged with its age, from its id's timestamp.
func (g *Gateway) refused(i *discordgo.Interaction, err error) {
	switch discordCode(err) {
	case discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged:
		g.cfg.Log.Info("interaction answered already; Discord refused another answer", "interaction", i.ID, "code", discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged)
	case discordgo.ErrCodeUnknownInteraction:
		args := []any{"interaction", i.ID, "code", discordgo.ErrCodeUnknownInteraction}
		if at, err := discordgo.SnowflakeTimestamp(i.ID); err == nil {
			args = append(args, "age", time.Since(at).Round(time.Millisecond))
		}
		g.cfg.Log.Warn("interaction expired before its answer reached Discord", args...)
	default:
		g.cfg.Log.Error("answering an interaction", "interaction", i.ID, "err", safeErr(err))
	}
}
