package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// window is the measured part of a pass: after the warm-up, until the end.
type window struct{ from, to time.Time }

func (w window) has(t time.Time) bool { return !t.Before(w.from) && !t.After(w.to) }

// passStats is one channel's tally of a pass; merge adds them up.
type passStats struct {
	win       window
	lat       []time.Duration // every answered request in the window
	moveLat   []time.Duration // move clicks alone
	requests  int
	moves     int
	games     int
	errors    int
	errSample []string
	retries   int
	deferred  int // answers bot deferred (not ready within 2 s)
	// keepSent keeps every answered request in sent (-latency-log).
	keepSent bool
	sent     []requestTiming

	// Outcomes of the requests sent around a SIGTERM.
	refused    int
	unanswered []string // interaction ids sent but not answered
	inFlight   int      // answered, and in flight when SIGTERM was sent
}

func (s *passStats) record(rq *request, res result) {
	if !s.win.has(res.to) {
		return
	}
	d := res.to.Sub(res.from)
	if s.keepSent {
		s.sent = append(s.sent, requestTiming{at: res.from, latency: d, what: rq.what})
	}
	s.requests++
	s.lat = append(s.lat, d)
	if rq.move != nil {
		s.moveLat = append(s.moveLat, d)
	}
}

func (s *passStats) fail(err error) {
	s.errors++
	if len(s.errSample) < 3 {
		s.errSample = append(s.errSample, err.Error())
	}
}

// outcome notes a request that got no answer, when the server is going away.
func (s *passStats) outcome(rq *request, err error) {
	if isRefused(err) {
		s.refused++
		return
	}
	s.unanswered = append(s.unanswered, rq.id)
}

// requestTiming is one answered request, for -latency-log: when it was
// sent, how long its answer took, and what it was ("move", "heap", …).
type requestTiming struct {
	at      time.Time
	latency time.Duration
	what    string
}

// passResult is one pass, merged over the channels.
type passResult struct {
	rate                     float64
	secs                     float64
	requests, moves, games   int
	errors                   int
	errSample                []string
	lat, moveLat             []time.Duration // sorted
	sent                     []requestTiming // in the order sent, with -latency-log
	refused                  int
	unanswered               []string
	inFlight                 int
	retries                  int
	deferred                 int
	achievedMoves, achievedR float64
	// server is the server process's own CPU, when it is another process
	// with /metrics (-spawn, or -addr with -server-admin).
	server procFigures
	// client is this process's own CPU over the same window: in process,
	// the server's and the load generator's together; with the server in
	// another process, the load tool's share of the machine.
	client procFigures
}

func merge(rate float64, w window, stats []*passStats) passResult {
	r := passResult{rate: rate, secs: w.to.Sub(w.from).Seconds()}
	for _, s := range stats {
		r.requests += s.requests
		r.moves += s.moves
		r.games += s.games
		r.errors += s.errors
		r.retries += s.retries
		r.deferred += s.deferred
		r.refused += s.refused
		r.inFlight += s.inFlight
		r.unanswered = append(r.unanswered, s.unanswered...)
		r.lat = append(r.lat, s.lat...)
		r.moveLat = append(r.moveLat, s.moveLat...)
		r.sent = append(r.sent, s.sent...)
		for _, e := range s.errSample {
			if len(r.errSample) < 5 {
				r.errSample = append(r.errSample, e)
			}
		}
	}
	slices.Sort(r.lat)
	slices.Sort(r.moveLat)
	slices.SortFunc(r.sent, func(a, b requestTiming) int { return a.at.Compare(b.at) })
	r.achievedMoves = float64(r.moves) / r.secs
	r.achievedR = float64(r.requests) / r.secs
	return r
}

// name is the pass as the report's table names it: "max", or its rate.
func (p passResult) name() string {
	if p.rate > 0 {
		return fmt.Sprintf("%.0f moves/s", p.rate)
	}
	return "max"
}

// writeLatencyLog writes every request the passes measured, one
// tab-separated line each, pass by pass in the order sent: the pass (as the
// report names it), when the request was sent (Unix nanoseconds), how long
// its answer took (nanoseconds) and what it was. Sorted by the time sent, a
// stall shows as a run of requests that all end at the same moment.
func writeLatencyLog(w io.Writer, passes []passResult) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "pass\tsent_unix_ns\tlatency_ns\twhat")
	for _, p := range passes {
		for _, s := range p.sent {
			fmt.Fprintf(bw, "%s\t%d\t%d\t%s\n", p.name(), s.at.UnixNano(), s.latency.Nanoseconds(), s.what)
		}
	}
	return bw.Flush()
}

// quantile of sorted durations (nearest rank).
func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(q*float64(len(d))+0.5) - 1
	return d[max(0, min(i, len(d)-1))]
}

// report is everything one run prints.
type report struct {
	opts              options
	procs             int
	prefillTook       time.Duration
	prefillCached     bool
	floor             floor
	passes            []passResult
	sent              int64       // every request sent, set-up included
	server            *serverProc // the server's process, when it is another one
	serverPeakRSS     string
	rssKnown          bool
	rssReset          bool // VmHWM was reset after set-up
	peakRSS           string
	serverErrors      int
	serverErrorSample []string
	sizes             []sizeSample
	boards            boardCounts // in process: what recording boards cost
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func (r *report) print(out io.Writer) {
	o := r.opts
	target := "in-process serve on loopback"
	switch {
	case o.addr != "":
		target = "serve at " + o.addr
	case r.server != nil && o.serverBin != "":
		target = "`nimbot serve` of " + o.serverBin + ", a child process (-spawn)"
	case r.server != nil:
		target = "`nimbot serve` built from this tree, a child process (-spawn)"
	}
	host, _ := os.Hostname()
	fmt.Fprintf(out, "nimbot load: %s; %d channels (%d%% person v person), heaps %q; %s, GOMAXPROCS %d, %s, host %s\n",
		target, o.channels, int(o.people*100+0.5), o.heaps, runtime.Version(), r.procs, memTotal(), host)
	if o.gamesStored > 0 {
		if r.prefillCached {
			fmt.Fprintf(out, "pre-filled %d finished games: copied the store file an earlier run built through the store API (%v)\n", o.gamesStored, r.prefillTook.Round(time.Millisecond))
		} else {
			fmt.Fprintf(out, "pre-filled %d finished games through the store API in %v\n", o.gamesStored, r.prefillTook.Round(time.Millisecond))
		}
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "pass\tmoves/s\trequests/s\tp50\tp99\tmax\tmove p99\terrors\tgames\tCPU/request")
	for _, p := range r.passes {
		cpu := "unknown"
		if r.rssKnown && p.client.perRequest > 0 {
			cpu = us(p.client.perRequest)
		}
		fmt.Fprintf(w, "%s\t%.0f\t%.0f\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", p.name(), p.achievedMoves, p.achievedR,
			ms(quantile(p.lat, .5)), ms(quantile(p.lat, .99)), ms(quantile(p.lat, 1)), ms(quantile(p.moveLat, .99)), p.errors, p.games, cpu)
	}
	w.Flush()
	for _, p := range r.passes {
		if p.deferred > 0 {
			fmt.Fprintf(out, "  %d answers were deferred (not ready within bot's 2 s); their latency runs to the follow-up\n", p.deferred)
		}
		for _, e := range p.errSample {
			fmt.Fprintf(out, "  error: %s\n", e)
		}
	}
	if f := r.floor; f.sum() > 0 {
		fmt.Fprintf(out, "floor (CPU per request of the trusted parts, each alone in this process): crypto/ed25519 verify %s + encoding/json decode of a click %s + durable store.Commit (synchronous=FULL) %s + board rendered and encoded (a heap click through commands.Service, its read included) %s = %s\n",
			usFine(f.verify), usFine(f.decode), usFine(f.commit), usFine(f.render), usFine(f.sum()))
	}
	if r.rssKnown && len(r.passes) > 0 && r.passes[0].client.perRequest > 0 {
		p := r.passes[0]
		fmt.Fprintf(out, "CPU (server and load generator in one process, getrusage; -spawn measures the server alone), pass %s: %s per request, %s per move\n",
			p.name(), us(p.client.perRequest), us(p.client.perMove))
	}
	if r.rssKnown {
		since := "while serving"
		if !r.rssReset {
			since = "since start (clear_refs refused)"
		}
		fmt.Fprintf(out, "peak RSS %s (VmHWM, load generator included): %s\n", since, r.peakRSS)
	} else if r.server == nil {
		fmt.Fprintln(out, "peak RSS: unknown (the server is another process)")
	}
	if b := r.boards; b.games > 0 && o.gamesStored == 0 {
		delay := "fetched at once"
		if b.delay > 0 {
			delay = "fetched " + b.delay.String() + " after posting if the game is still on"
		}
		fmt.Fprintf(out, "boards (%s; counted after shutdown): %d games, %d REST fetches of @original (%d before shutdown), %d message ids written: %.2f fetches and %.2f writes per game\n",
			delay, b.games, b.fetches, b.running, b.recorded, float64(b.fetches)/float64(b.games), float64(b.recorded)/float64(b.games))
	}
	r.printServer(out)
	printSizes(out, o.sizeEvery, o.retention, r.sizes)
	if r.serverErrors > 0 {
		fmt.Fprintf(out, "server logged %d warnings/errors, first: %s\n", r.serverErrors, strings.Join(r.serverErrorSample, " | "))
	}
}

// usFine is d in microseconds with one decimal.
func usFine(d time.Duration) string {
	return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
}

// memTotal is the machine's memory, from /proc/meminfo.
func memTotal() string {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "memory unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			return "MemTotal " + strings.TrimSpace(v)
		}
	}
	return "memory unknown"
}

// procStatus reads one field of /proc/<pid>/status ("VmHWM": "41236 kB").
func procStatus(pid, key string) (string, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("no %s in /proc/%s/status", key, pid)
}

// resetPeakRSS resets VmHWM to the current RSS, so the peak read later is
// the serving's, not the set-up's or the pre-fill's.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}
