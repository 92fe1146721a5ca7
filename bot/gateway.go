package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
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
}

// NewGateway returns a Gateway for cfg; Open connects it.
func NewGateway(cfg GatewayConfig) *Gateway {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Gateway{cfg: cfg, r: newResponder(cfg.Service, cfg.Session, cfg.Log, cfg.DeferAfter)}
}

// Open connects to the gateway, waits for READY, and registers the commands.
func (g *Gateway) Open(ctx context.Context) error {
	s := g.cfg.Session
	ready := make(chan *discordgo.Ready, 1)
	removeReady := s.AddHandlerOnce(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	g.remove = s.AddHandler(g.onInteraction)
	if err := s.Open(); err != nil {
		removeReady()
		g.remove()
		return fmt.Errorf("connecting to the Discord gateway: %w", safeErr(err))
	}
	var r *discordgo.Ready
	select {
	case r = <-ready:
	case <-ctx.Done():
		return ctx.Err()
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
	return g.Register(ctx)
}

// Register overwrites the application's commands with cfg.Commands (see
// RegisterCommands).
func (g *Gateway) Register(ctx context.Context) error {
	appID := g.appID
	if appID == "" {
		appID = g.cfg.AppID
	}
	n, err := RegisterCommands(ctx, g.cfg.Session, appID, g.cfg.GuildID, g.cfg.Commands)
	if err != nil {
		return err
	}
	where := "globally"
	if g.cfg.GuildID != "" {
		where = "in guild " + g.cfg.GuildID
	}
	g.cfg.Log.Info("registered commands", "count", n, "where", where)
	return nil
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
	g.mu.Unlock()
	if g.remove != nil {
		g.remove()
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
	first, late := g.r.answer(i)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.InteractionRespond(i, first, discordgo.WithContext(ctx)); err != nil {
		g.cfg.Log.Error("answering an interaction", "interaction", i.ID, "err", safeErr(err))
		return
	}
	g.r.after(i, first, late)
}
