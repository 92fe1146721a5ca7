package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"nimbot/bot"
)

// options are the command-line flags.
type options struct {
	channels    int
	duration    time.Duration
	rate        float64
	fixedRate   float64
	addr        string
	db          string
	gamesStored int
	faults      bool
	kills       int
	cpuprofile  string
	people      float64
	heaps       string
	limitsFor   time.Duration
	key         string
	keygen      bool
	retention   time.Duration
	fetchDelay  time.Duration
	sizeEvery   time.Duration
	spawn       bool
	serverAdmin string
	serverEnv   string
	serverBin   string
	latencyLog  string
}

func parseFlags(args []string, errOut io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.IntVar(&o.channels, "channels", 64, "concurrent channels, each playing one game after another")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "length of each pass")
	fs.Float64Var(&o.rate, "rate", 0, "moves/s of the first pass (0: as fast as possible)")
	fs.Float64Var(&o.fixedRate, "fixed-rate", 1000, "moves/s of the second, latency pass (0: skip it)")
	fs.StringVar(&o.addr, "addr", "", "host:port of a running `nimbot serve` to target instead of an in-process one (needs -key); several, comma-separated (instances sharing one PostgreSQL), each take an equal share of the channels")
	fs.StringVar(&o.db, "db", "", "database file (default: a new file in a temporary folder); with -addr, only for -games-stored")
	fs.IntVar(&o.gamesStored, "games-stored", 0, "pre-fill the store with this many finished games before the load")
	fs.BoolVar(&o.faults, "faults", false, "run the fault scenarios against the real binary instead of the load passes")
	fs.IntVar(&o.kills, "kills", 12, "with -faults: how many times to SIGKILL serve under load")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the first pass to this file")
	fs.Float64Var(&o.people, "people", 0.25, "share of the channels playing person against person (the rest play nimbot)")
	fs.StringVar(&o.heaps, "heaps", "3 4 5", "the heaps of every game (Nim); up to 25 per heap so the board offers buttons or menus")
	fs.DurationVar(&o.limitsFor, "limits-for", time.Second, "how long to measure each part of the floor (0: skip)")
	fs.StringVar(&o.key, "key", "", "hex Ed25519 seed to sign with (default: a new key pair; required with -addr)")
	fs.BoolVar(&o.keygen, "keygen", false, "print a new signing seed and its DISCORD_PUBLIC_KEY, and exit")
	fs.DurationVar(&o.retention, "retention", bot.DefaultRetention, "in-process server: how long saved answers are kept before pruning (nimbot's INTERACTION_RETENTION; below 15m only to measure)")
	fs.DurationVar(&o.fetchDelay, "fetch-delay", bot.FetchDelayFor(10*time.Minute), "in-process server: how long bot waits before it fetches a new board to record its message id (serve's, for its default timeouts); negative: at once")
	fs.DurationVar(&o.sizeEvery, "size-every", 30*time.Second, "sample the database file size this often during the passes (0: never)")
	fs.BoolVar(&o.spawn, "spawn", false, "build nimbot, run `nimbot serve` as a child process (ADMIN_ADDR on a free loopback port), and measure its own CPU and peak RSS")
	fs.StringVar(&o.serverAdmin, "server-admin", "", "with -addr: the server's ADMIN_ADDR, to read its CPU from its /metrics")
	fs.StringVar(&o.serverEnv, "server-env", "", "with -spawn: KEY=VALUE pairs (space-separated) added to serve's environment, e.g. \"GOGC=200 GOMEMLIMIT=200MiB\"")
	fs.StringVar(&o.serverBin, "server-bin", "", "with -spawn: run this nimbot binary instead of building the tree (to compare builds of two commits)")
	fs.StringVar(&o.latencyLog, "latency-log", "", "write every request a pass measured to this file, one tab-separated line each in the order sent: the pass, when it was sent (Unix ns), its latency (ns) and what it was (to find the stalls behind a p99)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	switch {
	case o.channels < 1:
		return o, errors.New("-channels must be at least 1")
	case o.duration <= 0:
		return o, errors.New("-duration must be positive")
	case o.retention <= 0:
		return o, errors.New("-retention must be positive")
	case o.sizeEvery < 0:
		return o, errors.New("-size-every cannot be negative")
	case o.rate < 0 || o.fixedRate < 0:
		return o, errors.New("rates cannot be negative")
	case o.people < 0 || o.people > 1:
		return o, errors.New("-people is a share between 0 and 1")
	case o.addr != "" && o.key == "":
		return o, errors.New("-addr needs -key: the seed whose public key the server has as DISCORD_PUBLIC_KEY (see -keygen)")
	case o.addr != "" && o.faults:
		return o, errors.New("-faults runs its own server; leave out -addr")
	case o.spawn && (o.addr != "" || o.faults):
		return o, errors.New("-spawn runs its own server; leave out -addr and -faults")
	case o.serverAdmin != "" && strings.Contains(o.addr, ","):
		return o, errors.New("-server-admin watches one process; give -addr one address with it")
	case o.serverAdmin != "" && o.addr == "":
		return o, errors.New("-server-admin goes with -addr")
	case (o.serverEnv != "" || o.serverBin != "") && !o.spawn:
		return o, errors.New("-server-env and -server-bin go with -spawn")
	case o.addr != "" && o.gamesStored > 0 && o.db == "":
		return o, errors.New("-games-stored with -addr needs -db, the server's database file")
	case o.latencyLog != "" && o.faults:
		return o, errors.New("-latency-log records the load passes; -faults runs none")
	}
	return o, nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole tool, so the test can drive it.
func run(ctx context.Context, args []string, out, errOut io.Writer) int {
	o, err := parseFlags(args, errOut)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(errOut, "load: %v\n", err)
		return 2
	}
	if o.keygen {
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			fmt.Fprintf(errOut, "load: %v\n", err)
			return 1
		}
		fmt.Fprintf(out, "seed (for -key):    %s\nDISCORD_PUBLIC_KEY: %s\n", hex.EncodeToString(priv.Seed()), hex.EncodeToString(pub))
		return 0
	}
	priv, err := signingKey(o.key)
	if err != nil {
		fmt.Fprintf(errOut, "load: %v\n", err)
		return 2
	}
	if o.faults {
		err = runFaults(ctx, o, priv, out)
	} else {
		err = runLoad(ctx, o, priv, out)
	}
	if err != nil {
		fmt.Fprintf(errOut, "load: %v\n", err)
		return 1
	}
	return 0
}

func signingKey(seed string) (ed25519.PrivateKey, error) {
	if seed == "" {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		return priv, err
	}
	b, err := hex.DecodeString(seed)
	if err != nil || len(b) != ed25519.SeedSize {
		return nil, errors.New("-key must be the 64 hex digits of an Ed25519 seed (see -keygen)")
	}
	return ed25519.NewKeyFromSeed(b), nil
}

// runLoad is the default mode: set up, measure the floor, run the passes,
// print the table.
func runLoad(ctx context.Context, o options, priv ed25519.PrivateKey, out io.Writer) (err error) {
	if (o.addr != "" || o.spawn) && os.Getenv("GOGC") == "" {
		// The server is another process on the same cores: the generator
		// trades memory (a small heap, a few times over) for the CPU its
		// collector would take from the server it measures.
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	heaps, err := parseHeaps(o.heaps)
	if err != nil {
		return err
	}
	var latencyLog *os.File
	if o.latencyLog != "" {
		// Made before anything runs, so a path that cannot be written
		// fails at once.
		if latencyLog, err = os.Create(o.latencyLog); err != nil {
			return fmt.Errorf("-latency-log: %w", err)
		}
		defer latencyLog.Close()
	}
	tmp, err := os.MkdirTemp("", "nimbot-load-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dbPath := o.db
	if dbPath == "" && o.addr == "" {
		dbPath = filepath.Join(tmp, "nimbot.db")
	}

	rep := &report{opts: o, procs: runtime.GOMAXPROCS(0)}
	if o.gamesStored > 0 {
		took, cached, err := prefillCached(ctx, dbPath, o.gamesStored, heaps)
		if err != nil {
			return fmt.Errorf("pre-filling %d games: %w", o.gamesStored, err)
		}
		rep.prefillTook, rep.prefillCached = took, cached
	}

	var targets []string
	for _, a := range strings.Split(o.addr, ",") {
		if a = strings.TrimSpace(a); a != "" {
			targets = append(targets, "http://"+a)
		}
	}
	var srv *server
	switch {
	case o.spawn:
		env, err := splitEnv(o.serverEnv)
		if err != nil {
			return err
		}
		if rep.server, err = spawnServe(ctx, tmp, dbPath, o.serverBin, priv, env); err != nil {
			return err
		}
		defer func() {
			if serr := rep.server.stop(); serr != nil && err == nil {
				err = serr
			}
		}()
		targets = []string{rep.server.url}
	case o.addr == "":
		srv, err = startServer(ctx, dbPath, priv.Public().(ed25519.PublicKey), o.retention,
			func(c *bot.HTTPConfig) { c.FetchDelay = o.fetchDelay })
		if err != nil {
			return err
		}
		defer srv.close()
		targets = []string{srv.url}
	case o.serverAdmin != "":
		if rep.server, err = watchServer(o.serverAdmin, o.addr); err != nil {
			return err
		}
	}
	l := newLoader(targets, priv, o, heaps, srv)
	l.server = rep.server
	l.freshPeople = srv == nil
	defer l.close()

	// One real exchange first: it proves the set-up and gives the floor a
	// real signed click.
	sample, err := l.sample(ctx)
	if err != nil {
		return fmt.Errorf("first request: %w", err)
	}
	// The floor is measured on the disk the load's database is on.
	floorDir := tmp
	if o.db != "" {
		floorDir = filepath.Dir(o.db)
	}
	if o.limitsFor > 0 {
		if rep.floor, err = measureFloor(ctx, floorDir, sample.body, o.limitsFor); err != nil {
			return fmt.Errorf("measuring the floor: %w", err)
		}
	}
	rep.rssKnown = o.addr == "" && !o.spawn
	if rep.rssKnown {
		rep.rssReset = resetPeakRSS()
	}
	if rep.server != nil && rep.server.pid != 0 {
		rep.server.rssReset = resetPeakRSSOf(rep.server.pid)
	}

	var sizes *sizeSampler
	if o.sizeEvery > 0 && dbPath != "" {
		sizes = startSizeSampler(dbPath, o.sizeEvery)
	}
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	rep.passes = append(rep.passes, l.pass(ctx, o.rate, o.duration))
	if o.cpuprofile != "" {
		pprof.StopCPUProfile()
	}
	if o.fixedRate > 0 && ctx.Err() == nil {
		rep.passes = append(rep.passes, l.pass(ctx, o.fixedRate, o.duration))
	}
	if sizes != nil {
		rep.sizes = sizes.finish()
	}
	if rep.rssKnown {
		rep.peakRSS, _ = procStatus("self", "VmHWM")
	}
	if rep.server != nil {
		rep.serverPeakRSS = rep.server.peakRSS()
		// Stopped before the report: a server without /metrics is measured
		// when it exits.
		if err := rep.server.stop(); err != nil {
			return err
		}
	}
	rep.sent = l.sent.Load()
	if srv != nil {
		// Shut down first: the board fetches still waiting for their delay
		// are made (or skipped) now, so they are counted.
		if err := srv.close(); err != nil {
			return fmt.Errorf("shutting down the in-process server: %w", err)
		}
		rep.boards = srv.boards
		rep.boards.delay = o.fetchDelay
		rep.serverErrors, rep.serverErrorSample = srv.logs.counts()
	}
	rep.print(out)
	if latencyLog != nil {
		if err := writeLatencyLog(latencyLog, rep.passes); err != nil {
			return fmt.Errorf("-latency-log: %w", err)
		}
		if err := latencyLog.Close(); err != nil {
			return fmt.Errorf("-latency-log: %w", err)
		}
	}
	return ctx.Err()
}
