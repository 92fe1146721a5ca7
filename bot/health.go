package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// HealthTimeout bounds all of /healthz's checks together: a load balancer
// must get an answer even when the database hangs, and "no write within a
// second" is itself the failure to report.
const HealthTimeout = time.Second

// Check is one check /healthz runs.
type Check struct {
	// Name identifies the check in the JSON body ("database_write").
	Name string
	// Essential checks make /healthz answer 503 when they fail: without
	// them no interaction can be answered. The others are reported only.
	Essential bool
	// Run performs the check within ctx; detail says what it saw.
	Run func(ctx context.Context) (detail string, err error)
}

// healthResult is one check's outcome in the JSON body.
type healthResult struct {
	Name      string  `json:"name"`
	OK        bool    `json:"ok"`
	Essential bool    `json:"essential"`
	Detail    string  `json:"detail,omitempty"`
	Error     string  `json:"error,omitempty"`
	Ms        float64 `json:"ms"`
}

// healthBody is /healthz's answer.
type healthBody struct {
	Status string         `json:"status"` // "ok" or "unhealthy"
	Checks []healthResult `json:"checks"`
}

// HealthReuse is how long /healthz answers with its last run's outcome
// instead of running the checks again. The endpoint is public (it shares
// the listener Discord must reach) and each run writes to the database
// (database_write), so a flood of requests must not become a flood of
// durable writes queued with the players' moves, nor of log lines. Load
// balancers poll every few seconds; an answer they get comes from checks
// that started at most HealthTimeout plus this long before.
const HealthReuse = time.Second

// Health is the /healthz handler: it runs every check at once, within
// HealthTimeout, and answers 200 with {"status":"ok", "checks":[…]} or 503
// with "unhealthy" when an essential check failed. One run at a time: the
// requests that come while the checks run, or within Reuse after they
// finished, get that run's answer.
//
// Health itself answers with each failed check's error as it is: for the
// operator's own listener (HEALTH_ADDR). Public is the same answer for a
// listener anyone can reach, with the errors replaced by PublicError: a
// driver's error names the database's user, name and address. The
// operator's log has the errors in full either way.
type Health struct {
	Checks []Check
	Log    *slog.Logger
	// Reuse is how long a run's answer is given again (0: HealthReuse).
	Reuse time.Duration
	// Now tells the time for Reuse (nil: time.Now).
	Now func() time.Time

	mu   sync.Mutex
	last *healthRun // the run going on, or the last one
}

// healthRun is one run of the checks, shared by the requests it answers.
type healthRun struct {
	done   chan struct{} // closed when status and body are set
	ended  time.Time
	status int
	body   []byte // with the checks' errors
	public []byte // with PublicError instead
}

// PublicError stands for a failed check's error on a public listener
// (Health.Public).
const PublicError = "failed (the error is in nimbot's log)"

// ServeHTTP answers GET and HEAD, with the checks' errors.
func (h *Health) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.serve(w, r, false) }

// Public returns the handler for a listener anyone can reach: h's answer,
// from the same runs, with each error replaced by PublicError.
func (h *Health) Public() http.Handler { return publicHealth{h} }

type publicHealth struct{ h *Health }

func (p publicHealth) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.h.serve(w, r, true) }

func (h *Health) serve(w http.ResponseWriter, r *http.Request, public bool) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	run := h.current()
	select {
	case <-run.done:
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(run.status)
	if public {
		w.Write(run.public)
	} else {
		w.Write(run.body)
	}
}

// current returns the run to answer with: the one going on, the last one
// if it ended within Reuse, or a new one, started here.
func (h *Health) current() *healthRun {
	reuse := h.Reuse
	if reuse <= 0 {
		reuse = HealthReuse
	}
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if run := h.last; run != nil {
		select {
		case <-run.done:
			if now.Sub(run.ended) < reuse {
				return run
			}
		default:
			return run
		}
	}
	run := &healthRun{done: make(chan struct{})}
	h.last = run
	// The run is not the first asker's: others share it, and a client that
	// hangs up must not cut it short for them.
	go h.check(run)
	return run
}

// check runs every check at once within HealthTimeout and sets run's answer.
func (h *Health) check(run *healthRun) {
	ctx, cancel := context.WithTimeout(context.Background(), HealthTimeout)
	defer cancel()
	body := healthBody{Status: "ok", Checks: make([]healthResult, len(h.Checks))}
	var wg sync.WaitGroup
	for i, c := range h.Checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			detail, err := c.Run(ctx)
			res := healthResult{Name: c.Name, OK: err == nil, Essential: c.Essential, Detail: detail,
				Ms: float64(time.Since(start).Microseconds()) / 1000}
			if err != nil {
				res.Error = err.Error()
			}
			body.Checks[i] = res
		}()
	}
	wg.Wait()
	status := http.StatusOK
	for _, c := range body.Checks {
		if !c.OK && c.Essential {
			body.Status, status = "unhealthy", http.StatusServiceUnavailable
		}
	}
	if status != http.StatusOK {
		log := h.Log
		if log == nil {
			log = slog.Default()
		}
		log.Warn("health check failed", "checks", body.Checks)
	}
	b, _ := json.Marshal(body)
	for i := range body.Checks {
		if body.Checks[i].Error != "" {
			body.Checks[i].Error = PublicError
		}
	}
	public, _ := json.Marshal(body)
	run.status, run.body, run.public, run.ended = status, append(b, '\n'), append(public, '\n'), h.now()
	close(run.done)
}

func (h *Health) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

// Status is the state of one of nimbot's links to Discord (command
// registration, the gateway connection), kept for /healthz and the log.
// Its zero value is "starting". It is safe for concurrent use.
type Status struct {
	mu       sync.Mutex
	state    string
	err      error
	since    time.Time
	attempts int
}

// Link states.
const (
	StateStarting = "starting"
	StateOK       = "ok"
	StateRetrying = "retrying"
	// StateFailed: Discord refused in a way no retry can mend (the token
	// was rejected), so nimbot stopped trying.
	StateFailed = "failed"
)

func (s *Status) set(state string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if state != s.state {
		s.since = time.Now()
	}
	s.state, s.err = state, err
	switch state {
	case StateRetrying:
		s.attempts++
	case StateFailed:
		// The attempts so far stay counted.
	default:
		s.attempts = 0
	}
}

// State returns the current state and the error of the last failed attempt.
func (s *Status) State() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == "" {
		return StateStarting, nil
	}
	return s.state, s.err
}

// Check returns a /healthz check that reports the status. It is not
// essential: Discord's REST API or gateway being away does not stop the
// HTTP endpoint from answering interactions.
func (s *Status) Check(name string) Check {
	return Check{Name: name, Run: func(context.Context) (string, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch s.state {
		case "", StateStarting:
			return StateStarting, nil
		case StateOK:
			return "ok since " + s.since.UTC().Format(time.RFC3339), nil
		case StateFailed:
			return "gave up at " + s.since.UTC().Format(time.RFC3339), s.err
		}
		// The detail says as much as a public listener may show (see
		// Health.Public); the error adds what the last attempt met.
		e := &linkError{attempts: s.attempts, since: s.since, err: s.err}
		return e.state(), e
	}}
}

type linkError struct {
	attempts int
	since    time.Time
	err      error
}

func (e *linkError) state() string {
	return "retrying since " + e.since.UTC().Format(time.RFC3339) + " (" + strconv.Itoa(e.attempts) + " failed attempts)"
}

func (e *linkError) Error() string { return e.state() + ": " + e.err.Error() }

// Backoff between attempts to reach Discord: doubling from BackoffMin to
// BackoffMax, each wait jittered by ±25% so that many instances restarted
// together do not retry in step.
var (
	BackoffMin = time.Second
	BackoffMax = 5 * time.Minute
)

// backoff is the wait before attempt n+1 (n ≥ 1 failures so far).
func backoff(n int) time.Duration {
	d := BackoffMin
	for i := 1; i < n && d < BackoffMax; i++ {
		d *= 2
	}
	d = min(d, BackoffMax)
	return time.Duration(float64(d) * (0.75 + rand.Float64()/2))
}

// ErrTokenRejected is returned once Discord answered 401 Unauthorized to
// the bot token: it is mistyped, or was reset in the Developer Portal.
// Retrying cannot mend it, and every REST call would fail the same way.
var ErrTokenRejected = errors.New("DISCORD_TOKEN was rejected by Discord (401 Unauthorized): copy it again from the Developer Portal (your application → Bot → Reset Token)")

// tokenRejected reports whether err is Discord's 401 to the bot token.
func tokenRejected(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized
}

// retry calls attempt until it succeeds or ctx ends, waiting backoff(n)
// after the n-th failure, and keeps st and the log up to date. what names
// the attempt in the log. A rejected token ends it at once: it returns
// ErrTokenRejected, for the caller to stop nimbot with (the log line would
// otherwise repeat every few minutes, forever, in a process that can
// answer nothing).
func retry(ctx context.Context, st *Status, log *slog.Logger, what string, attempt func(ctx context.Context) error) error {
	for n := 1; ; n++ {
		err := attempt(ctx)
		if err == nil {
			st.set(StateOK, nil)
			if n > 1 {
				log.Info(what+" succeeded after retrying", "attempts", n)
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if tokenRejected(err) {
			st.set(StateFailed, ErrTokenRejected)
			return fmt.Errorf("%s: %w", what, ErrTokenRejected)
		}
		st.set(StateRetrying, err)
		wait := backoff(n)
		log.Warn(what+" failed; retrying", "attempt", n, "retry_in", wait.Round(time.Millisecond), "err", err)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// DefaultMinFree is the free disk space below which /healthz fails: room
// for the write-ahead log to grow between checkpoints with margin.
const DefaultMinFree = 64 << 20

// Database is what the database checks need; *store.DB has it.
type Database interface {
	// CheckFile fails when the file is no longer at its path.
	CheckFile() error
	// CheckWrite writes through the store's writer within ctx.
	CheckWrite(ctx context.Context) error
	// CheckDisk returns the free bytes, failing below min.
	CheckDisk(min uint64) (uint64, error)
}

// DatabaseChecks are /healthz's essential checks of the database: the file
// is still there (database_file), a write lands within the check's time
// (database_write), and the disk has at least minFree bytes (disk_free).
func DatabaseChecks(db Database, minFree uint64) []Check {
	return []Check{{
		Name: "database_file", Essential: true,
		Run: func(context.Context) (string, error) { return "", db.CheckFile() },
	}, {
		Name: "database_write", Essential: true,
		Run: func(ctx context.Context) (string, error) { return "", db.CheckWrite(ctx) },
	}, {
		Name: "disk_free", Essential: true,
		Run: func(context.Context) (string, error) {
			free, err := db.CheckDisk(minFree)
			return strconv.FormatUint(free>>20, 10) + " MiB free", err
		},
	}}
}
