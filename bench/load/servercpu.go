package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"nimbot/internal/cpuclock"
	"nimbot/internal/metrics"
)

// serverProc is a `nimbot serve` in another process: one this tool started
// (-spawn), or a running one whose admin listener -server-admin names. Its
// CPU is process_cpu_seconds_total on its admin /metrics (Prometheus's
// process collector: user+system time of all its threads), so the figure
// is the server's alone. A spawned server without /metrics (a build from
// before the admin listener, -server-bin) is measured once, over its whole
// run, from its resource usage when it exits.
type serverProc struct {
	pid int // 0 when not known (-server-admin)
	url string
	// metrics is the server's admin /metrics URL, "" if it has none.
	metrics string
	// child is set when this tool started the process (-spawn).
	child *child
	// rssReset says VmHWM was reset after set-up (clear_refs), so the peak
	// read at the end is the serving's.
	rssReset bool
	// runCPU is user+system time over the whole run of a spawned server
	// without /metrics, known once it exited.
	runCPU  time.Duration
	stopped bool
}

// cpu returns the server's CPU time so far, from its /metrics.
func (s *serverProc) cpu() (time.Duration, error) { return scrapeCPU(s.metrics) }

// scrapeCPU reads process_cpu_seconds_total from the /metrics at url.
func scrapeCPU(url string) (time.Duration, error) {
	res, err := http.Get(url)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: %s", url, res.Status)
	}
	secs, ok, err := metrics.Sample(res.Body, "process_cpu_seconds_total")
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s: %v", url, err)
	case !ok:
		return 0, fmt.Errorf("%s has no process_cpu_seconds_total", url)
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// watchServer is -addr with -server-admin: a serve someone else started,
// with its admin listener at admin.
func watchServer(admin, addr string) (*serverProc, error) {
	s := &serverProc{url: "http://" + addr, metrics: "http://" + admin + "/metrics"}
	if _, err := s.cpu(); err != nil {
		return nil, fmt.Errorf("-server-admin: %w", err)
	}
	return s, nil
}

// spawnServe builds the repository's binary (as -faults does) and starts
// `nimbot serve` (or runs bin, if given) on a free loopback port with db as
// its database, the public key of priv, its admin listener on another free
// port, and env added to its environment (e.g. GOGC=200). The child's REST
// calls to Discord (fetching @original after a new board) go to a closed
// port and fail at once; that failed dial and its log line are part of the
// CPU measured, where a real server would pay a TLS request instead.
func spawnServe(ctx context.Context, dir, db, bin string, priv ed25519.PrivateKey, env []string) (*serverProc, error) {
	var err error
	if bin == "" {
		if bin, err = buildNimbot(ctx, dir); err != nil {
			return nil, err
		}
	}
	c := &child{bin: bin, dir: dir, db: db, pub: priv.Public().(ed25519.PublicKey), env: env}
	if c.addr, err = freeAddr(); err != nil {
		return nil, err
	}
	if c.admin, err = freeAddr(); err != nil {
		return nil, err
	}
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	if err := c.ready(ctx); err != nil {
		c.cmd.Process.Kill()
		<-c.exited
		return nil, err
	}
	s := &serverProc{pid: c.cmd.Process.Pid, url: "http://" + c.addr, child: c, metrics: "http://" + c.admin + "/metrics"}
	if _, err := s.cpu(); err != nil {
		s.metrics = "" // a build without the admin listener
	}
	return s, nil
}

// stop ends a spawned serve with SIGTERM, as an operator would, and reports
// how it exited. A server without /metrics leaves its CPU over the whole
// run in runCPU.
func (s *serverProc) stop() error {
	if s == nil || s.child == nil || s.stopped {
		return nil
	}
	s.stopped = true
	c := s.child
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-c.exited:
		if st := c.cmd.ProcessState; st != nil {
			s.runCPU = st.UserTime() + st.SystemTime()
		}
		if err != nil {
			return fmt.Errorf("serve exited %s: %s", exitStatus(err), c.tail())
		}
		return nil
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-c.exited
		return errors.New("serve still running 30 s after SIGTERM")
	}
}

// resetPeakRSSOf resets pid's VmHWM to its current RSS.
func resetPeakRSSOf(pid int) bool {
	return os.WriteFile(filepath.Join("/proc", strconv.Itoa(pid), "clear_refs"), []byte("5"), 0) == nil
}

// peakRSS is the server's VmHWM, when its pid is known.
func (s *serverProc) peakRSS() string {
	if s.pid == 0 {
		return "unknown (not this tool's child)"
	}
	v, err := procStatus(strconv.Itoa(s.pid), "VmHWM")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return v
}

// splitEnv reads -server-env: space-separated KEY=VALUE pairs.
func splitEnv(s string) ([]string, error) {
	f := strings.Fields(s)
	for _, kv := range f {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("-server-env: %q is not KEY=VALUE", kv)
		}
	}
	return f, nil
}

// procFigures are one process's own CPU figures of one pass: the
// server's, or the load tool's.
type procFigures struct {
	cpu             time.Duration // user+system over the window
	perRequest      time.Duration
	perMove         time.Duration
	requestsPerMove float64
}

func cpuFigures(cpu time.Duration, requests, moves int) procFigures {
	f := procFigures{cpu: cpu}
	if requests > 0 {
		f.perRequest = cpu / time.Duration(requests)
	}
	if moves > 0 {
		f.perMove = cpu / time.Duration(moves)
		f.requestsPerMove = float64(requests) / float64(moves)
	}
	return f
}

func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond)) }

// window reads the server's CPU time at w.from and w.to and sends the
// difference, or closes the channel at once if there is no /metrics to
// read (in-process, -addr without -server-admin, a server without one).
func (s *serverProc) window(ctx context.Context, w window) <-chan time.Duration {
	if s == nil || s.metrics == "" {
		out := make(chan time.Duration)
		close(out)
		return out
	}
	return cpuWindow(ctx, s.cpu, w)
}

// cpuWindow reads a process's CPU time with cpu at w.from and w.to and sends
// the difference; it closes the channel without sending if either read
// fails or ctx ends first.
func cpuWindow(ctx context.Context, cpu func() (time.Duration, error), w window) <-chan time.Duration {
	out := make(chan time.Duration, 1)
	go func() {
		defer close(out)
		if !sleepUntil(ctx, w.from) {
			return
		}
		from, err := cpu()
		if err != nil || !sleepUntil(ctx, w.to) {
			return
		}
		if to, err := cpu(); err == nil {
			out <- to - from
		}
	}()
	return out
}

// selfCPU is this process's user+system CPU time, all its threads.
func selfCPU() (time.Duration, error) { return cpuclock.Process(), nil }

func sleepUntil(ctx context.Context, t time.Time) bool {
	tm := time.NewTimer(time.Until(t))
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// ratio is cpu per request as a multiple of the floor, or "" when either
// is unknown.
func ratio(cpu, floor time.Duration) string {
	if cpu <= 0 || floor <= 0 {
		return ""
	}
	return fmt.Sprintf("; %.2f× the floor", float64(cpu)/float64(floor))
}

// printServer prints the server process's own figures: CPU per request and
// per move for each pass (with its ratio to the floor), and its peak RSS.
func (r *report) printServer(out io.Writer) {
	if r.server == nil {
		return
	}
	floor := r.floor.sum()
	for _, p := range r.passes {
		f := p.server
		if f.cpu == 0 {
			continue
		}
		fmt.Fprintf(out, "server CPU (process_cpu_seconds_total on its admin /metrics), pass %s: %s per request%s, %s per move, %.2f requests per move; %.2f CPUs busy\n",
			p.name(), us(f.perRequest), ratio(f.perRequest, floor), us(f.perMove), f.requestsPerMove, f.cpu.Seconds()/p.secs)
	}
	if r.server.metrics == "" && r.server.runCPU > 0 && r.sent > 0 {
		per := r.server.runCPU / time.Duration(r.sent)
		fmt.Fprintf(out, "server CPU over its whole run (no /metrics: os.ProcessState user+system at exit, start-up, set-up and shutdown included): %v for %d requests, %s per request%s\n",
			r.server.runCPU.Round(time.Millisecond), r.sent, us(per), ratio(per, floor))
	}
	for _, p := range r.passes {
		f := p.client
		if f.cpu == 0 {
			continue
		}
		fmt.Fprintf(out, "load tool CPU (this process, getrusage), pass %s: %s per request, %s per move; %.2f CPUs busy\n",
			p.name(), us(f.perRequest), us(f.perMove), f.cpu.Seconds()/p.secs)
	}
	if r.server.pid != 0 {
		since := "while serving"
		if !r.server.rssReset {
			since = "since its start (clear_refs refused)"
		}
		fmt.Fprintf(out, "server peak RSS %s (VmHWM of pid %d): %s\n", since, r.server.pid, r.serverPeakRSS)
	}
}
