package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// serverProc is a `nimbot serve` in another process whose CPU time the load
// reads from /proc/<pid>/stat, so the figure is the server's alone: in
// process, the load generator's signing, JSON and HTTP client share the
// process and its CPU time.
type serverProc struct {
	pid int
	url string
	// child is set when this tool started the process (-spawn).
	child *child
	// rssReset says VmHWM was reset after set-up (clear_refs), so the peak
	// read at the end is the serving's.
	rssReset bool
}

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat:
// 100 on every Linux architecture Go supports (the kernel fixes it for the
// user ABI whatever its internal HZ).
const clockTicks = 100

// cpu returns the process's user+system CPU time so far, all its threads.
func (s *serverProc) cpu() (time.Duration, error) { return procCPU(s.pid) }

// procCPU reads utime+stime of pid from /proc/<pid>/stat.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name, field 2, is in parentheses and may hold spaces or
	// parentheses itself: the fields that follow start after the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// watchServer is -addr with -server-pid: a serve someone else started.
func watchServer(pid int, addr string) (*serverProc, error) {
	if _, err := procCPU(pid); err != nil {
		return nil, fmt.Errorf("-server-pid %d: %w", pid, err)
	}
	s := &serverProc{pid: pid, url: "http://" + addr}
	s.rssReset = resetPeakRSSOf(pid)
	return s, nil
}

// spawnServe builds the repository's binary (as -faults does) and starts
// `nimbot serve` (or runs bin, if given) on a free loopback port with db as its database, the
// public key of priv, and env added to its environment (e.g. GOGC=200).
// The child's REST calls to Discord (fetching @original after a new board)
// go to a closed port and fail at once; that failed dial and its log line
// are part of the CPU measured, where a real server would pay a TLS
// request instead.
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
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	if err := c.ready(ctx); err != nil {
		c.cmd.Process.Kill()
		<-c.exited
		return nil, err
	}
	s := &serverProc{pid: c.cmd.Process.Pid, url: "http://" + c.addr, child: c}
	return s, nil
}

// stop ends a spawned serve with SIGTERM, as an operator would, and reports
// how it exited.
func (s *serverProc) stop() error {
	if s == nil || s.child == nil {
		return nil
	}
	c := s.child
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-c.exited:
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

// peakRSS is the server's VmHWM.
func (s *serverProc) peakRSS() string {
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
// difference, or closes the channel at once if there is no server process
// to read (in-process, or -addr without -server-pid).
func (s *serverProc) window(ctx context.Context, w window) <-chan time.Duration {
	if s == nil {
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

// selfCPU is this process's user+system CPU time, all its threads, from
// /proc/self/stat: read the same way as the server's, so the two figures
// compare.
func selfCPU() (time.Duration, error) { return procCPU(os.Getpid()) }

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

// printServer prints the server process's own figures: CPU per request and
// per move for each pass, and its peak RSS.
func (r *report) printServer(out io.Writer) {
	if r.server == nil {
		return
	}
	how := "started with -spawn"
	if r.server.child == nil {
		how = "-server-pid"
	}
	for _, p := range r.passes {
		f := p.server
		if f.cpu == 0 {
			continue
		}
		name := "max"
		if p.rate > 0 {
			name = fmt.Sprintf("%.0f moves/s", p.rate)
		}
		fmt.Fprintf(out, "server CPU (pid %d, %s; /proc/%d/stat utime+stime), pass %s: %s per request, %s per move, %.2f requests per move; %.2f CPUs busy; %d CPUs fully used would give about %.0f moves/s\n",
			r.server.pid, how, r.server.pid, name, us(f.perRequest), us(f.perMove), f.requestsPerMove,
			f.cpu.Seconds()/p.secs, r.procs, float64(r.procs)*float64(time.Second)/float64(max(f.perMove, 1)))
	}
	since := "while serving"
	if !r.server.rssReset {
		since = "since its start (clear_refs refused)"
	}
	for _, p := range r.passes {
		f, sf := p.client, p.server
		if f.cpu == 0 || sf.cpu == 0 {
			continue
		}
		name := "max"
		if p.rate > 0 {
			name = fmt.Sprintf("%.0f moves/s", p.rate)
		}
		both := f.perMove + sf.perMove
		fmt.Fprintf(out, "load tool CPU (pid %d, this process; /proc/self/stat utime+stime), pass %s: %s per request, %s per move; %.2f CPUs busy; with the server's, %s per move: %d CPUs fully used by both would give about %.0f moves/s\n",
			os.Getpid(), name, us(f.perRequest), us(f.perMove), f.cpu.Seconds()/p.secs,
			us(both), r.procs, float64(r.procs)*float64(time.Second)/float64(max(both, 1)))
	}
	fmt.Fprintf(out, "server peak RSS %s (VmHWM of pid %d alone): %s\n", since, r.server.pid, r.serverPeakRSS)
}
