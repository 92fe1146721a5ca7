// Command nimbot hosts games of Nim and its relatives in Discord channels.
//
// Usage:
//
//	nimbot              run on Discord's gateway (needs DISCORD_TOKEN)
//	nimbot serve        run as an HTTP Interactions Endpoint (HTTP_ADDR)
//	nimbot play         play in the terminal, no Discord needed
//	nimbot analyze ...  analyze a position
//	nimbot backup PATH  copy the SQLite database to PATH while it is in use
//	nimbot forget USER_ID, nimbot forget-server GUILD_ID
//	                    delete what nimbot holds about a user or a server
//
// Settings come from the environment and from a .env file in the working
// directory (see .env.example). main.go is wiring only.
package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/bot"
	"nimbot/commands"
	"nimbot/internal/dailyposts"
	"nimbot/internal/metrics"
	"nimbot/match"
	"nimbot/store"
	"nimbot/store/postgres"
	"nimbot/terminal"
)

// shutdownGrace bounds how long in-flight interactions get to finish.
const shutdownGrace = 20 * time.Second

const usageText = `Usage:
  nimbot              run the bot on Discord's gateway (needs DISCORD_TOKEN)
  nimbot serve        run as an HTTP Interactions Endpoint on HTTP_ADDR (default :8080)
  nimbot play         play in the terminal: no Discord account or token needed
                      (-lang de: in German; also NIMBOT_LANG; en, de, fr, es-ES, pt-BR, ja)
  nimbot analyze ...  who wins a position, every winning move and why (nimbot analyze -h)
  nimbot backup PATH  copy the SQLite database to PATH, safely, while the bot runs
                      (PostgreSQL, DATABASE_URL: use pg_dump)
  nimbot forget USER_ID          delete what nimbot holds about a user (nimbot forget -h)
  nimbot forget-server GUILD_ID  delete what nimbot holds about a server

Settings come from the environment or a .env file; see .env.example.
`

const noTokenText = `nimbot: DISCORD_TOKEN is not set.

To run nimbot on Discord:
  1. Open https://discord.com/developers/applications and click "New Application".
  2. On "General Information", copy the Application ID.
     On "Bot", click "Reset Token" and copy the token (it is shown once).
  3. Copy .env.example to .env and fill in:
       DISCORD_TOKEN=<the token>
       DISCORD_APP_ID=<the Application ID>
  4. Invite the bot to a server: "Installation" → Guild Install with the scopes
     "bot" and "applications.commands" and the permissions Send Messages,
     Embed Links and Read Message History; open the install link.
  5. go run .

To try nimbot without Discord, play in the terminal:
  go run . play
`

type config struct {
	Token, AppID, PublicKey, DevGuildID string
	// Lang is the terminal's language (play -lang, NIMBOT_LANG).
	Lang                      string
	DatabasePath, Synchronous string
	DatabaseURL               string
	HTTPAddr, HealthAddr      string
	AdminAddr                 string
	ShardCount                int   // 0: Discord's recommendation
	ShardIDs                  []int // nil: every shard
	BotTurn, PeopleTurn       time.Duration
	Retention                 time.Duration
	DatabaseTimeout           time.Duration
	LogLevel                  slog.Level

	// ForgetAfter is the grace period after a user removes nimbot;
	// IdleAfter how long a server may go without a game before it is
	// forgotten. OperatorName and OperatorContact are who runs this
	// nimbot, for the /privacy and /terms pages.
	ForgetAfter, IdleAfter        time.Duration
	OperatorName, OperatorContact string
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, in io.Reader, out, errOut io.Writer) int {
	if err := loadDotenv(".env"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(errOut, "nimbot: %v\n", err)
		return 1
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(errOut, "nimbot: %v\n", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(errOut, &slog.HandlerOptions{Level: cfg.LogLevel}))
	ctx, stop := signalContext()
	defer stop()

	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "":
		return exit(errOut, runGateway(ctx, cfg, log, errOut))
	case "serve":
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		if code, ok := parseFlags(fs, args, serveUsage, out, errOut); !ok {
			return code
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(errOut, "nimbot: serve takes no arguments; its settings come from the environment: %q\n", fs.Args())
			return 2
		}
		return exit(errOut, runServe(ctx, cfg, log))
	case "play":
		fs := flag.NewFlagSet("play", flag.ContinueOnError)
		lang := fs.String("lang", os.Getenv("NIMBOT_LANG"), "the language to play in: en, de, fr, es-ES, pt-BR or ja (default NIMBOT_LANG, else en)")
		if code, ok := parseFlags(fs, args, playUsage, out, errOut); !ok {
			return code
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(errOut, "nimbot: play takes no arguments, only -lang: %q\n", fs.Args())
			return 2
		}
		// An unknown language is refused before the store is opened.
		if _, err := terminal.Lang(*lang); err != nil {
			fmt.Fprintf(errOut, "nimbot: play: %v\n", err)
			return 2
		}
		cfg.Lang = *lang
		return exit(errOut, play(ctx, cfg, in, out))
	case "analyze":
		return analyze(args, out, errOut)
	case "backup":
		// Flags first, so that "backup -h" is a question, not a copy to a
		// file named -h (a path that starts with "-" goes after "--").
		fs := flag.NewFlagSet("backup", flag.ContinueOnError)
		if code, ok := parseFlags(fs, args, backupUsage, out, errOut); !ok {
			return code
		}
		if fs.NArg() != 1 {
			fmt.Fprint(errOut, "nimbot: backup needs the destination file: nimbot backup PATH\n")
			return 2
		}
		return exit(errOut, backup(ctx, cfg, fs.Arg(0), out))
	case "forget", "forget-server":
		return forget(ctx, cfg, cmd == "forget-server", args, out, errOut)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(out, usageText)
		return 0
	default:
		fmt.Fprintf(errOut, "nimbot: unknown command %q\n\n%s", cmd, usageText)
		return 2
	}
}

const (
	serveUsage = `Usage: nimbot serve

Runs nimbot as an HTTP Interactions Endpoint on HTTP_ADDR (default :8080).
It takes no flags: its settings (DISCORD_PUBLIC_KEY, DISCORD_TOKEN,
DISCORD_APP_ID, ...) come from the environment or a .env file; see .env.example.
`
	playUsage = `Usage: nimbot play [-lang LANG]

Plays in the terminal: type /nim commands as in Discord. No Discord account
or token is needed.

`
	backupUsage = `Usage: nimbot backup PATH

Copies the SQLite database at DATABASE_PATH to PATH, safely, while the bot
runs. With DATABASE_URL (PostgreSQL), use PostgreSQL's own tools, like pg_dump.
`
)

// parseFlags parses a subcommand's flags. Asking for help (-h, -help,
// --help) is no error: the usage goes to out and the exit code is 0, as
// for "nimbot help" and "nimbot analyze -h". A flag it does not know is a
// usage error: flag's complaint and the usage go to errOut, exit code 2.
// ok is false when the caller is to return code at once.
func parseFlags(fs *flag.FlagSet, args []string, usage string, out, errOut io.Writer) (code int, ok bool) {
	fs.SetOutput(errOut)
	fs.Usage = func() {} // printed below, where it belongs
	err := fs.Parse(args)
	if err == nil {
		return 0, true
	}
	w, code := errOut, 2
	if errors.Is(err, flag.ErrHelp) {
		w, code = out, 0
	}
	fmt.Fprint(w, usage)
	fs.SetOutput(w)
	fs.PrintDefaults()
	return code, false
}

// signalContext returns a context cancelled by the first SIGINT or SIGTERM,
// which starts the orderly shutdown. From then on the signals have their
// default effect again (signal.NotifyContext's documented pattern), so a
// second Ctrl+C or SIGTERM ends a shutdown that hangs rather than being
// swallowed while it waits.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// errShown is an error whose message was already printed.
var errShown = errors.New("error already shown")

func exit(errOut io.Writer, err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errShown):
	default:
		fmt.Fprintf(errOut, "nimbot: %v\n", err)
	}
	return 1
}

func loadConfig() (config, error) {
	cfg := config{
		Token:        strings.TrimSpace(os.Getenv("DISCORD_TOKEN")),
		AppID:        strings.TrimSpace(os.Getenv("DISCORD_APP_ID")),
		PublicKey:    strings.TrimSpace(os.Getenv("DISCORD_PUBLIC_KEY")),
		DevGuildID:   strings.TrimSpace(os.Getenv("DEV_GUILD_ID")),
		DatabasePath: envOr("DATABASE_PATH", "./nimbot.db"),
		// "" leaves the store's default (FULL); the store checks the value.
		Synchronous: strings.TrimSpace(os.Getenv("DATABASE_SYNCHRONOUS")),
		DatabaseURL: strings.TrimSpace(os.Getenv("DATABASE_URL")),
		HTTPAddr:    envOr("HTTP_ADDR", ":8080"),
		HealthAddr:  strings.TrimSpace(os.Getenv("HEALTH_ADDR")),
		AdminAddr:   strings.TrimSpace(os.Getenv("ADMIN_ADDR")),

		OperatorName:    strings.TrimSpace(os.Getenv("OPERATOR_NAME")),
		OperatorContact: strings.TrimSpace(os.Getenv("OPERATOR_CONTACT")),
	}
	// A token pasted with its "Bot " prefix would become "Bot Bot …".
	cfg.Token = strings.TrimPrefix(cfg.Token, "Bot ")
	if err := store.CheckSynchronous(cfg.Synchronous); err != nil {
		return cfg, fmt.Errorf("DATABASE_SYNCHRONOUS: %w", err)
	}
	if u := cfg.DatabaseURL; strings.Contains(u, "://") && !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
		// Not quoted: it may hold a password.
		return cfg, errors.New("DATABASE_URL must be a PostgreSQL connection string, postgres://user:password@host:5432/dbname or host=… dbname=… (leave it empty to use the SQLite file at DATABASE_PATH)")
	}
	if err := checkSnowflake("DISCORD_APP_ID", cfg.AppID, "the Application ID (Developer Portal → General Information)"); err != nil {
		return cfg, err
	}
	if err := checkSnowflake("DEV_GUILD_ID", cfg.DevGuildID, "a server's id (Discord's Developer Mode: right-click the server → Copy Server ID)"); err != nil {
		return cfg, err
	}
	var err error
	for _, d := range []struct {
		to *time.Duration
		durationSetting
	}{
		{&cfg.BotTurn, durationSetting{"BOT_TURN_TIMEOUT", commands.DefaultBotTurn, minTurn, maxTurn, turnBounds}},
		{&cfg.PeopleTurn, durationSetting{"PEOPLE_TURN_TIMEOUT", commands.DefaultPeopleTurn, minTurn, maxTurn, turnBounds}},
		{&cfg.Retention, durationSetting{"INTERACTION_RETENTION", bot.DefaultRetention, bot.TokenLife, maxRetention,
			"at least an interaction token's life, as Discord may redeliver until then; past a few days the saved answers serve no redelivery and only grow the table"}},
		{&cfg.DatabaseTimeout, durationSetting{"DATABASE_TIMEOUT", commands.DefaultDatabaseTimeout, time.Second, 2 * time.Minute,
			"a healthy database answers in milliseconds; past 2 minutes a user waiting on a database that does not answer sees nothing happen"}},
		{&cfg.ForgetAfter, durationSetting{"FORGET_AFTER_DEAUTHORIZE", bot.DefaultForgetAfter, time.Hour, 365 * 24 * time.Hour,
			"the grace period after a user removes nimbot from their account, before their data is deleted"}},
		{&cfg.IdleAfter, durationSetting{"FORGET_IDLE_SERVERS_AFTER", bot.DefaultIdleAfter, 30 * 24 * time.Hour, 10 * 365 * 24 * time.Hour,
			"how long a server may go without a game before nimbot deletes its games and leaderboards"}},
	} {
		if *d.to, err = d.read(); err != nil {
			return cfg, err
		}
	}
	if cfg.ShardCount, cfg.ShardIDs, err = shardSettings(); err != nil {
		return cfg, err
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(envOr("LOG_LEVEL", "info"))); err != nil {
		return cfg, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error: %v", err)
	}
	return cfg, nil
}

// shardSettings reads SHARD_COUNT and SHARD_IDS: both unset is automatic
// (Discord's recommended count, every shard in this process).
func shardSettings() (count int, ids []int, err error) {
	countText := strings.TrimSpace(os.Getenv("SHARD_COUNT"))
	idsText := strings.TrimSpace(os.Getenv("SHARD_IDS"))
	if countText == "" {
		if idsText != "" {
			return 0, nil, errors.New("SHARD_IDS needs SHARD_COUNT: processes that split the shards must agree on their count, and Discord's recommendation can change between their starts")
		}
		return 0, nil, nil
	}
	count, err = strconv.Atoi(countText)
	if err != nil || count < 1 || count > bot.MaxShards {
		return 0, nil, fmt.Errorf("SHARD_COUNT must be a whole number from 1 to %d, not %q", bot.MaxShards, countText)
	}
	if idsText == "" {
		return count, nil, nil
	}
	if ids, err = bot.ParseShardIDs(idsText, count); err != nil {
		return 0, nil, fmt.Errorf("SHARD_IDS: %v", err)
	}
	return count, ids, nil
}

func envOr(key, def string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	return def
}

// The bounds of the duration settings. A turn of a millisecond ends a game
// against nimbot before its first move ("no move came in time"); one of
// months leaves an abandoned game holding its channel that long.
const (
	minTurn      = time.Minute
	maxTurn      = 7 * 24 * time.Hour
	turnBounds   = "a shorter turn ends games before anyone can move; a longer one keeps an abandoned game holding its channel"
	maxRetention = 3 * 24 * time.Hour
)

// durationSetting is a duration read from the environment: its default,
// and the bounds outside which nimbot refuses to start, saying why.
type durationSetting struct {
	key      string
	def      time.Duration
	min, max time.Duration
	why      string
}

// read returns the setting's value, its default when unset.
func (s durationSetting) read() (time.Duration, error) {
	v := strings.TrimSpace(os.Getenv(s.key))
	if v == "" {
		return s.def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < s.min || d > s.max {
		return 0, fmt.Errorf("%s must be a duration from %s to %s, like %s (%s), not %q",
			s.key, words(s.min), words(s.max), durationText(s.def), s.why, v)
	}
	return d, nil
}

// words says d in words: "1 minute", "15 minutes", "7 days".
func words(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "day"}, {time.Hour, "hour"}, {time.Minute, "minute"}, {time.Second, "second"}} {
		if d >= u.d && d%u.d == 0 {
			if n := d / u.d; n != 1 {
				return fmt.Sprintf("%d %ss", n, u.name)
			}
			return "1 " + u.name
		}
	}
	return d.String()
}

// durationText writes d as one types it: "1h", "24h", "15m", "10s".
func durationText(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

// checkSnowflake checks that an id setting, when set, is a Discord id (a
// snowflake: a decimal number). The value is not quoted back: a token or
// key pasted into the wrong line must not reach the output.
func checkSnowflake(key, v, what string) error {
	if v == "" {
		return nil
	}
	if _, err := strconv.ParseUint(v, 10, 64); err != nil {
		return fmt.Errorf("%s must be %s, a number like 1170000000000000001; it is something else", key, what)
	}
	return nil
}

// openStore opens the database the settings name: PostgreSQL when
// DATABASE_URL is set (many processes may share it), else the SQLite file at
// DATABASE_PATH (one process).
func openStore(ctx context.Context, cfg config) (match.Storage, error) {
	if cfg.DatabaseURL != "" {
		db, err := postgres.Open(ctx, postgres.Config{URL: cfg.DatabaseURL})
		if err != nil {
			return nil, err
		}
		return db, nil
	}
	db, err := store.Open(ctx, store.Config{Path: cfg.DatabasePath, Synchronous: cfg.Synchronous})
	if err != nil {
		return nil, err
	}
	return db, nil
}

// databaseChecks are /healthz's essential checks of the database. SQLite's
// file and disk are this machine's, so they are checked too; PostgreSQL's
// are the server's, and a write (its heartbeat row) proves it takes writes.
func databaseChecks(db match.Storage) []bot.Check {
	switch db := db.(type) {
	case *store.DB:
		return bot.DatabaseChecks(db, bot.DefaultMinFree)
	case *postgres.DB:
		return []bot.Check{{
			Name: "database_write", Essential: true,
			Run: func(ctx context.Context) (string, error) { return "", db.CheckWrite(ctx) },
		}}
	}
	return nil
}

// databaseName names the database for the operator's log: the SQLite path,
// or PostgreSQL's host and database without the user or password.
func databaseName(cfg config) string {
	if cfg.DatabaseURL == "" {
		return cfg.DatabasePath
	}
	u, err := url.Parse(cfg.DatabaseURL)
	if err != nil || u.Scheme == "" {
		// The key=value form, or a string pgx will refuse.
		return "postgres"
	}
	return "postgres://" + u.Host + u.Path
}

func newService(db match.Storage, cfg config, log *slog.Logger) *commands.Service {
	return commands.New(commands.Config{DB: db, Log: log, BotTurn: cfg.BotTurn, PeopleTurn: cfg.PeopleTurn,
		DatabaseTimeout: cfg.DatabaseTimeout})
}

// fetchDelay is how long bot waits before it fetches a new board to record
// its message id: short enough for the shortest deadline that edits a
// board (newService leaves the challenge timeout at its default).
func fetchDelay(cfg config) time.Duration {
	return bot.FetchDelayFor(min(cfg.BotTurn, cfg.PeopleTurn, commands.DefaultChallengeTTL))
}

// runGateway runs until a signal: stop taking work, finish what is in
// flight, close the session, then the store.
func runGateway(ctx context.Context, cfg config, log *slog.Logger, errOut io.Writer) error {
	if cfg.Token == "" {
		fmt.Fprint(errOut, noTokenText)
		return errShown
	}
	db, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	m, stopAdmin, err := startAdmin(ctx, cfg, db, log)
	if err != nil {
		return err
	}
	defer stopAdmin()
	counted := m.Storage(db)
	svc := newService(counted, cfg, log)
	shards, err := bot.NewShards(bot.ShardsConfig{
		NewSession: func() (*discordgo.Session, error) { return newSession(cfg, m) },
		Count:      cfg.ShardCount, IDs: cfg.ShardIDs,
		Service: svc, Commands: commands.Definitions(),
		AppID: cfg.AppID, GuildID: cfg.DevGuildID, Log: log, FetchDelay: fetchDelay(cfg),
		Metrics: m,
	})
	if err != nil {
		return err
	}
	if m != nil {
		m.Shards(shards.States)
	}
	if cfg.HealthAddr != "" {
		checks := append(databaseChecks(db), shards.Check(), shards.RegistrationCheck())
		stopHealth, err := serveHealth(ctx, cfg.HealthAddr, &bot.Health{Checks: checks, Log: log}, log)
		if err != nil {
			return err
		}
		defer stopHealth()
	}
	// Open retries while Discord is unreachable; only a signal or a
	// rejected token (bot.ErrTokenRejected) ends it.
	if err := shards.Open(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	// Once per process, whatever the number of shards.
	stopScheduler := startScheduler(svc, counted, shards.Session(), cfg, m, log)
	log.Info("nimbot is running; press Ctrl+C to stop", "database", databaseName(cfg))

	<-ctx.Done()
	log.Info("shutting down")
	stopScheduler()
	shut, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	return shards.Close(shut)
}

// runServe answers Discord's HTTP POSTs until a signal, then lets the
// requests in flight finish before the store closes.
func runServe(ctx context.Context, cfg config, log *slog.Logger) error {
	if cfg.PublicKey == "" {
		return errors.New("serve needs DISCORD_PUBLIC_KEY (Developer Portal → your application → General Information → Public Key)")
	}
	key, err := hex.DecodeString(cfg.PublicKey)
	if err != nil || len(key) != ed25519.PublicKeySize {
		return errors.New("DISCORD_PUBLIC_KEY must be the 64 hex digits of the application's public key")
	}
	if err := bot.CheckPublicKey(key); err != nil {
		return fmt.Errorf("DISCORD_PUBLIC_KEY is %w (a typo in the 64 hex digits?)", err)
	}
	if cfg.Token == "" {
		return errors.New("serve needs DISCORD_TOKEN too: board edits after a turn deadline go out by REST with the bot token")
	}
	db, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	m, stopAdmin, err := startAdmin(ctx, cfg, db, log)
	if err != nil {
		return err
	}
	defer stopAdmin()
	if m != nil {
		m.Shards(nil) // serve runs no gateway shard: every state counts 0
	}
	counted := m.Storage(db)
	svc := newService(counted, cfg, log)
	session, err := newSession(cfg, m)
	if err != nil {
		return err
	}
	checks := databaseChecks(db)
	// A token Discord rejects stops serve: no board edit or deferred
	// answer could be sent with it.
	rejected := make(chan error, 1)
	if cfg.AppID != "" {
		// Registration goes on in the background, retried while Discord's
		// API is unreachable or slow: interactions can be answered
		// meanwhile, with the commands an earlier start registered.
		var registration bot.Status
		checks = append(checks, registration.Check("discord_commands"))
		go func() {
			err := bot.RegisterWithRetry(ctx, session, cfg.AppID, cfg.DevGuildID, commands.Definitions(), &registration, log)
			if errors.Is(err, bot.ErrTokenRejected) {
				rejected <- err
			}
		}()
	} else {
		log.Warn("DISCORD_APP_ID is not set: commands were not registered")
	}
	// HTTP_ADDR is public: its /healthz shows no error text. HEALTH_ADDR,
	// the operator's own, shows the same runs' errors in full.
	health := &bot.Health{Checks: checks, Log: log}
	if cfg.HealthAddr != "" {
		stopHealth, err := serveHealth(ctx, cfg.HealthAddr, health, log)
		if err != nil {
			return err
		}
		defer stopHealth()
	}
	h := bot.NewHTTP(bot.HTTPConfig{Service: svc, PublicKey: ed25519.PublicKey(key), Session: session, Health: health, Log: log,
		FetchDelay: fetchDelay(cfg), Metrics: m, Forget: db, ForgetAfter: cfg.ForgetAfter, Pages: pages(cfg)})
	srv := &http.Server{
		Addr: cfg.HTTPAddr, Handler: h,
		ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("HTTP_ADDR: %w", err)
	}
	stopScheduler := startScheduler(svc, counted, session, cfg, m, log)
	defer stopScheduler()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("serving Discord interactions", "addr", ln.Addr().String(), "path", "/interactions", "events", bot.EventsPath, "pages", bot.PagePaths)

	var fatal error
	select {
	case err := <-served:
		return err
	case fatal = <-rejected:
	case <-ctx.Done():
	}
	log.Info("shutting down")
	stopScheduler()
	shut, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err = srv.Shutdown(shut)
	// Then the answers waiting on Discord's API, for a bounded time: with
	// the API hanging they would otherwise hold the exit for long.
	followups, cancelFollowups := context.WithTimeout(context.Background(), bot.FollowupGrace)
	defer cancelFollowups()
	return errors.Join(fatal, err, h.Wait(followups))
}

// serveHealth serves /healthz alone on addr, the operator's own listener,
// with the checks' errors in full (gateway mode has no HTTP endpoint
// otherwise; serve's is public and shows none); the returned func stops it.
func serveHealth(ctx context.Context, addr string, h http.Handler, log *slog.Logger) (func(), error) {
	mux := http.NewServeMux()
	mux.Handle("/healthz", h)
	return serveOperator(ctx, "HEALTH_ADDR", addr, mux, log)
}

// startAdmin starts the admin listener on ADMIN_ADDR, when it is set, and
// returns the metrics it serves; without ADMIN_ADDR the metrics are nil
// (nothing is counted) and stop does nothing.
func startAdmin(ctx context.Context, cfg config, db match.Storage, log *slog.Logger) (m *metrics.Metrics, stop func(), err error) {
	if cfg.AdminAddr == "" {
		return nil, func() {}, nil
	}
	m = metrics.New(metrics.Config{Route: commands.Route})
	if c, ok := db.(interface {
		GamesInProgress(context.Context) (int64, error)
	}); ok {
		m.GamesInProgress(c.GamesInProgress)
	}
	stop, err = serveOperator(ctx, "ADMIN_ADDR", cfg.AdminAddr, adminMux(m), log)
	return m, stop, err
}

// adminMux is what the admin listener serves: Prometheus's /metrics and
// net/http/pprof's profiles. pprof's handlers are mounted here by hand:
// the package also registers them on http.DefaultServeMux, which no
// listener of nimbot serves, so they never reach HTTP_ADDR or HEALTH_ADDR.
func adminMux(m *metrics.Metrics) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// serveOperator serves mux on addr, a listener for the operator alone
// (setting names it in errors); the returned func stops it. It has no
// write timeout: a CPU profile or trace streams for as long as asked.
func serveOperator(ctx context.Context, setting, addr string, mux *http.ServeMux, log *slog.Logger) (func(), error) {
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second,
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", setting, err)
	}
	go srv.Serve(ln)
	log.Info("serving the operator's listener", "setting", setting, "addr", ln.Addr().String())
	return func() { srv.Close() }, nil
}

// newSession is bot.NewSession with its REST calls counted in m.
func newSession(cfg config, m *metrics.Metrics) (*discordgo.Session, error) {
	s, err := bot.NewSession(cfg.Token)
	if err != nil {
		return nil, err
	}
	s.Client.Transport = m.Transport(s.Client.Transport)
	return s, nil
}

// startScheduler runs the scheduler (turn deadlines, pruning saved
// answers, forgetting users who removed nimbot and idle servers); the
// returned func stops it and waits until its current pass is done.
func startScheduler(svc bot.Service, db match.Storage, session *discordgo.Session, cfg config, m *metrics.Metrics, log *slog.Logger) func() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	sc := bot.SchedulerConfig{Service: svc, Session: session, Log: log, PruneAnswers: db.PruneInteractions, Retention: cfg.Retention,
		Metrics: m, Forget: db, IdleAfter: cfg.IdleAfter}
	if cs, ok := svc.(*commands.Service); ok {
		sc.Posts = dailyposts.Posts(cs)
		sc.PostEdits = dailyposts.Edits(cs)
	}
	s := bot.NewScheduler(sc)
	go func() { defer close(done); s.Run(ctx) }()
	var once sync.Once
	return func() { once.Do(func() { cancel(); <-done }) }
}

// play is the same product in the terminal, on the same database file
// setting, so a game started there can be looked at on Discord and back.
// Its operator log is discarded, so it does not interleave with the game.
func play(ctx context.Context, cfg config, in io.Reader, out io.Writer) error {
	db, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := newService(db, cfg, slog.New(slog.DiscardHandler))
	return terminal.Play(ctx, terminal.Config{Service: svc, Lang: cfg.Lang}, in, out)
}

func analyze(args []string, out, errOut io.Writer) int {
	return terminal.Analyze(args, out, errOut)
}

// errBackupPostgres: backup copies a SQLite file; PostgreSQL has its own tools.
var errBackupPostgres = errors.New(`backup copies the SQLite file at DATABASE_PATH; with DATABASE_URL the games are in PostgreSQL: back it up with PostgreSQL's own tools, e.g. pg_dump --format=custom --file=nimbot.dump "$DATABASE_URL" (or continuous archiving / a replica)`)

// backup copies the SQLite file without opening it as a store: it neither
// migrates it nor takes its write lock, so a newer nimbot backing up beside
// a running older one (before an upgrade) leaves that bot's file, and the
// copy, at the schema it was.
func backup(ctx context.Context, cfg config, dest string, out io.Writer) error {
	if cfg.DatabaseURL != "" {
		return errBackupPostgres
	}
	version, err := store.Backup(ctx, cfg.DatabasePath, dest)
	if err != nil {
		return err
	}
	if latest := store.LatestSchemaVersion(); version < latest {
		fmt.Fprintf(out, "backed up %s to %s at schema version %d, as it is (this nimbot knows versions up to %d and migrates a file when it opens it; the nimbot that wrote this one can restore the copy)\n",
			cfg.DatabasePath, dest, version, latest)
		return nil
	}
	fmt.Fprintf(out, "backed up %s to %s (schema version %d)\n", cfg.DatabasePath, dest, version)
	return nil
}
