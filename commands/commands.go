package commands

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/match"
)

// Config wires a Service to its store, clock and randomness. Zero values take
// the defaults named on each field.
type Config struct {
	DB   match.Storage
	Now  func() time.Time // default time.Now
	Rand *mrand.Rand      // the bot's choices, random heaps and first movers; default seeded from crypto/rand
	Log  *slog.Logger     // default slog.Default()

	BotTurn           time.Duration // time to move against the bot (default 1 h)
	PeopleTurn        time.Duration // time to move between people (default 24 h)
	ChallengeTTL      time.Duration // how long a challenge waits for an answer (default 10 min)
	ChallengeCooldown time.Duration // least time between two challenges by one user (default 1 min)

	// DatabaseTimeout bounds the database work of one interaction, and of
	// each store call BoardSent, BoardWanted, Turn and Expire make
	// (default DefaultDatabaseTimeout).
	DatabaseTimeout time.Duration
}

// The defaults of Config's durations.
const (
	DefaultBotTurn           = time.Hour
	DefaultPeopleTurn        = 24 * time.Hour
	DefaultChallengeTTL      = 10 * time.Minute
	DefaultChallengeCooldown = time.Minute
	// DefaultDatabaseTimeout is how long one interaction's database work
	// may take. A database that stops answering without closing the
	// connection (a network partition, a failover, a wedged disk) would
	// otherwise hold each interaction as long as its caller's context,
	// which for a deferred answer is the interaction token's life: the
	// user would see "thinking…" for minutes and the goroutines would pile
	// up. A healthy store answers in milliseconds, and SQLite gives up on
	// a lock after its 5 s busy timeout, so 10 s only ends waits that
	// would not have ended well.
	DefaultDatabaseTimeout = 10 * time.Second
)

// Service answers interactions. It keeps no game state of its own: the store
// is the single source of truth, so any number of Services (or processes)
// may share one database.
type Service struct {
	db    match.Storage
	now   func() time.Time
	log   *slog.Logger
	cfg   Config
	mux   mux
	chain handler
	// answers keeps each interaction's answer (see answers).
	answers answers
	// declared are the options Definitions declares, to check requests by.
	declared declaredOptions
	// timing is cfg's durations, as the match's rules take them.
	timing match.Timing
	// forgot notes recent deletions on request (privacy.go).
	forgot recentForgets
	// recent keeps the boards of this process's last moves (recent.go).
	recent recentBoards

	// rngMu guards rng: Handle runs concurrently (discordgo calls handlers
	// in their own goroutines) and *rand.Rand is not safe for that.
	rngMu sync.Mutex
	rng   *mrand.Rand
}

// New returns a Service for cfg, filling in defaults.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Rand == nil {
		var seed [32]byte
		_, _ = rand.Read(seed[:])
		cfg.Rand = mrand.New(mrand.NewChaCha8(seed))
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.BotTurn <= 0 {
		cfg.BotTurn = DefaultBotTurn
	}
	if cfg.PeopleTurn <= 0 {
		cfg.PeopleTurn = DefaultPeopleTurn
	}
	if cfg.ChallengeTTL <= 0 {
		cfg.ChallengeTTL = DefaultChallengeTTL
	}
	if cfg.ChallengeCooldown <= 0 {
		cfg.ChallengeCooldown = DefaultChallengeCooldown
	}
	if cfg.DatabaseTimeout <= 0 {
		cfg.DatabaseTimeout = DefaultDatabaseTimeout
	}
	s := &Service{db: cfg.DB, now: cfg.Now, log: cfg.Log, cfg: cfg, rng: cfg.Rand,
		timing: match.Timing{BotTurn: cfg.BotTurn, PeopleTurn: cfg.PeopleTurn, ChallengeTTL: cfg.ChallengeTTL}}
	s.answers = answers{db: cfg.DB, log: cfg.Log}
	s.mux = s.routes()
	s.declared = declare(Definitions())
	s.chain = s.recoverer(s.mux.serve)
	return s
}

// withRand runs f with the Service's random source held.
func (s *Service) withRand(f func(*mrand.Rand)) {
	s.rngMu.Lock()
	defer s.rngMu.Unlock()
	f(s.rng)
}

// Handle answers one interaction. It never returns a nil resp: every error
// becomes an ephemeral message, the user's own mistakes saying what to do,
// ours a short apology with a reference id (the details go to the log).
//
// encoded is resp in JSON, what json.Marshal makes of it: the answer saved
// with a change, a redelivery's saved answer (its first answer, byte for
// byte), or else resp encoded here by json.Marshal. A transport that
// sends JSON sends these bytes rather than encode resp itself. It is nil
// only if resp could not be encoded.
//
// replayed reports that resp is the answer another delivery of i saved:
// i was delivered again (a gateway replaying events after a resume, an HTTP
// request sent again, two deliveries at once), and the delivery that saved
// the answer sends it, or has sent it. Discord takes one answer per
// interaction, so a transport that answers by callback (the gateway) sends
// nothing; one that Discord waits on for its answer (the HTTP endpoint)
// sends resp again. It is told from the saved answers in the store (see
// answers), so it holds across instances and restarts; an answer that is
// not saved (one that changed nothing, on a replay route) is made afresh
// and replayed is false.
//
// Its database work is bounded by Config.DatabaseTimeout: past it the user
// is told the database is not answering (see renderError). Each change is
// one transaction, so a change cut short leaves nothing half-written; a
// change whose commit reached the database just before the deadline
// stands, and a redelivery or the board shows it.
func (s *Service) Handle(ctx context.Context, i *discordgo.Interaction) (resp *discordgo.InteractionResponse, encoded []byte, replayed bool) {
	ctx, cancel := s.dbContext(ctx)
	defer cancel()
	resp, encoded, replayed = s.handle(ctx, i)
	if encoded == nil {
		encoded, _ = json.Marshal(resp)
	}
	return resp, encoded, replayed
}

// dbContext is ctx bounded by the database timeout.
func (s *Service) dbContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.cfg.DatabaseTimeout)
}

// Private reports whether every answer to i is ephemeral, so that its
// deferral can be: a transport that cannot answer in time defers first, and
// Discord keeps the deferral's ephemeral state for the answer that replaces
// its loading message. It is true for the routes marked private in the
// routing table (/nim hint, /nim rules, /nim analyze unless public), false
// for every other interaction; it reads nothing but i, so a transport may
// ask it while Handle runs.
func (s *Service) Private(i *discordgo.Interaction) bool {
	if i == nil {
		return false
	}
	r, ok := s.mux[i.Type].route(interactionPath(i))
	return ok && r.answeredPrivately != nil && r.answeredPrivately(i)
}

// handle is Handle before the answer is encoded; encoded is the answer's
// JSON when it has it already (saved with a change, or a redelivery's).
func (s *Service) handle(ctx context.Context, i *discordgo.Interaction) (resp *discordgo.InteractionResponse, encoded []byte, replayed bool) {
	if i == nil {
		return ephemeral(locale.For(locale.English).T("play.err.empty")), nil, false
	}
	if i.Type == discordgo.InteractionPing {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}, nil, false
	}
	r := &request{ctx: ctx, i: i, path: interactionPath(i), now: s.now(), lang: locale.For(string(i.Locale))}
	if err := s.validate(i); err != nil {
		return s.renderError(r, err), nil, false
	}
	o, err := originOf(i)
	if err != nil {
		return s.renderError(r, err), nil, false
	}
	r.origin = o
	ans, err := s.chain(r)
	if err != nil {
		return s.renderError(r, err), nil, false
	}
	if ans == nil || ans.resp == nil {
		return s.renderError(r, fmt.Errorf("route %q answered nothing", r.path)), nil, false
	}
	return ans.resp, ans.encoded, ans.replayed
}

// renderError is the one error handler.
func (s *Service) renderError(r *request, err error) *discordgo.InteractionResponse {
	if resp := redrawn(err); resp != nil {
		return resp
	}
	if msg, ok := isUserError(err, r.lang); ok {
		if r.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			return autocompleteResponse(nil)
		}
		return ephemeral(msg)
	}
	ref := reference()
	if unavailable(r.ctx, err) {
		// Not a bug to apologise for: the database did not answer in
		// time, or is down or restarting. The user can do something about
		// it (wait, try again).
		s.log.WarnContext(r.ctx, "interaction's database is not answering",
			"ref", ref, "interaction", r.i.ID, "path", r.path, "timeout", s.cfg.DatabaseTimeout, "err", err)
		if r.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			return autocompleteResponse(nil)
		}
		return ephemeral(r.t("play.err.unavailable", "Ref", ref, "StatusCommand", subName(subStatus)))
	}
	s.log.ErrorContext(r.ctx, "interaction failed",
		"ref", ref, "interaction", r.i.ID, "path", r.path, "user", r.userID(),
		"guild", r.i.GuildID, "channel", r.i.ChannelID, "err", err)
	if r.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return autocompleteResponse(nil)
	}
	return ephemeral(r.t("play.err.internal", "Ref", ref))
}

// unavailable reports whether err says the database is not answering:
// ctx's deadline passed (it did not answer within the time Handle gives
// it), or the store found it down, restarting or unreachable
// (match.ErrUnavailable). pgx and database/sql wrap
// context.DeadlineExceeded, but a driver may report the interrupted call
// its own way, so ctx itself is asked too.
func unavailable(ctx context.Context, err error) bool {
	return errors.Is(err, match.ErrUnavailable) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded)
}

// reference is a short random id that ties an apology to its log line.
func reference() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// recoverer turns a panic into an internal error, logged with its stack but
// never shown.
func (s *Service) recoverer(next handler) handler {
	return func(r *request) (ans *answer, err error) {
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("panic: %v\n%s", v, debug.Stack())
				ans = nil
			}
		}()
		return next(r)
	}
}

// ephemeral is a message only the user who caused the interaction sees.
func ephemeral(msg string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content:         truncate(msg, 2000),
			Flags:           discordgo.MessageFlagsEphemeral,
			AllowedMentions: noMentions(),
		},
	}
}

func autocompleteResponse(choices []*discordgo.ApplicationCommandOptionChoice) *discordgo.InteractionResponse {
	if choices == nil {
		choices = []*discordgo.ApplicationCommandOptionChoice{}
	}
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices},
	}
}
