package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"nimbot/internal/metrics"
)

// TestRun runs the tool briefly in-process, as `go run ./bench/load` does,
// so it cannot rot: every channel must play whole games with no error, and
// the report must carry its figures. Speed is not judged here.
func TestRun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "nimbot.db")
	var out, errOut bytes.Buffer
	args := []string{"-channels", "6", "-duration", "1500ms", "-fixed-rate", "50", "-limits-for", "50ms",
		"-games-stored", "30", "-db", db, "-retention", "1s", "-size-every", "500ms"}
	if code := run(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, &out, &errOut)
	}
	report := out.String()
	t.Log("\n" + report)
	if strings.Contains(report, "error:") {
		t.Errorf("the run reported errors:\n%s", report)
	}
	row := regexp.MustCompile(`(?m)^(max|50 moves/s)\s+(\d+)\s+(\d+)\s+.*\s(\d+)\s+(\d+)\s+(\d+ µs|unknown)$`)
	rows := row.FindAllStringSubmatch(report, -1)
	if len(rows) != 2 {
		t.Fatalf("want the max and the 50 moves/s rows, got %q in\n%s", rows, report)
	}
	for _, r := range rows {
		moves, _ := strconv.Atoi(r[2])
		errs, _ := strconv.Atoi(r[4])
		if moves == 0 || errs != 0 {
			t.Errorf("pass %s: %d moves/s, %d errors", r[1], moves, errs)
		}
	}
	for _, want := range []string{"pre-filled 30 finished games", "peak RSS", "floor (CPU per request of the trusted parts", "crypto/ed25519 verify", "µs per move", "database file every 500ms"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestLatencyLog: -latency-log writes one line per request each pass
// measured, sorted by when it was sent, as many as the report counts.
func TestLatencyLog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "latency.tsv")
	var out, errOut bytes.Buffer
	args := []string{"-channels", "4", "-duration", "1s", "-fixed-rate", "40", "-limits-for", "0",
		"-db", filepath.Join(dir, "nimbot.db"), "-size-every", "0", "-latency-log", path}
	if code := run(context.Background(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, &out, &errOut)
	}
	// Each pass's window is 1 s, so its requests/s is its count of requests.
	row := regexp.MustCompile(`(?m)^(max|40 moves/s)\s+\d+\s+(\d+)\s`)
	want := map[string]int{}
	for _, r := range row.FindAllStringSubmatch(out.String(), -1) {
		want[r[1]], _ = strconv.Atoi(r[2])
	}
	if len(want) != 2 || want["max"] == 0 || want["40 moves/s"] == 0 {
		t.Fatalf("requests per pass in the report: %v\n%s", want, &out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if lines[0] != "pass\tsent_unix_ns\tlatency_ns\twhat" {
		t.Fatalf("header %q", lines[0])
	}
	got := map[string]int{}
	var last int64
	lastPass := ""
	kinds := map[string]bool{"start": true, "status": true, "heap": true, "move": true, "accept": true, "rematch": true, "resign": true}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 4 {
			t.Fatalf("line %q: want 4 fields", l)
		}
		sent, err1 := strconv.ParseInt(f[1], 10, 64)
		latency, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || latency <= 0 || !kinds[f[3]] {
			t.Fatalf("line %q", l)
		}
		if f[0] == lastPass && sent < last {
			t.Fatalf("line %q sent before the line above it", l)
		}
		last, lastPass = sent, f[0]
		got[f[0]]++
	}
	for pass, n := range want {
		if got[pass] != n {
			t.Errorf("pass %s: %d lines, the report counts %d requests", pass, got[pass], n)
		}
	}
}

// TestSpread: with several addresses each gets an equal share of the
// channels, and a channel keeps its address.
func TestSpread(t *testing.T) {
	o, err := parseFlags([]string{"-channels", "9"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	l := newLoader([]string{"http://a", "http://b", "http://c"}, nil, o, []int64{3}, nil)
	per := map[string]int{}
	for _, p := range l.players {
		per[p.url]++
	}
	if len(per) != 3 || per["http://a/interactions"] != 3 || per["http://b/interactions"] != 3 || per["http://c/interactions"] != 3 {
		t.Fatalf("channels per address: %v", per)
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"addr without key", []string{"-addr", "127.0.0.1:8080"}},
		{"no channels", []string{"-channels", "0"}},
		{"people share", []string{"-people", "2"}},
		{"heap too big for buttons", []string{"-heaps", "3 40"}},
		{"bad key", []string{"-key", "abc"}},
		{"spawn with addr", []string{"-spawn", "-addr", "127.0.0.1:8080", "-key", strings.Repeat("ab", 32)}},
		{"server-admin without addr", []string{"-server-admin", "127.0.0.1:9090"}},
		{"server-admin with several addrs", []string{"-server-admin", "127.0.0.1:9090", "-addr", "127.0.0.1:1,127.0.0.1:2", "-key", strings.Repeat("ab", 32)}},
		{"server-env without spawn", []string{"-server-env", "GOGC=200"}},
		{"server-env not KEY=VALUE", []string{"-spawn", "-server-env", "GOGC", "-limits-for", "0"}},
		{"latency-log with faults", []string{"-faults", "-latency-log", filepath.Join(t.TempDir(), "lat.tsv")}},
		{"latency-log not writable", []string{"-latency-log", filepath.Join(t.TempDir(), "missing", "lat.tsv"), "-limits-for", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(context.Background(), tc.args, &out, &errOut); code == 0 {
				t.Fatalf("exit 0 for %v", tc.args)
			}
			if !strings.HasPrefix(errOut.String(), "load: ") {
				t.Errorf("stderr %q does not say what is wrong", errOut.String())
			}
		})
	}
}

// TestScrapeCPU reads a server's CPU from its /metrics as nimbot's admin
// listener serves them, and refuses what has none.
func TestScrapeCPU(t *testing.T) {
	srv := httptest.NewServer(metrics.New(metrics.Config{}).Handler())
	defer srv.Close()
	cpu, err := scrapeCPU(srv.URL)
	if err != nil || cpu <= 0 {
		t.Fatalf("process_cpu_seconds_total: %v, %v", cpu, err)
	}
	if self, _ := selfCPU(); cpu > self+50*time.Millisecond {
		t.Errorf("/metrics says %v, getrusage %v", cpu, self)
	}
	none := httptest.NewServer(http.NotFoundHandler())
	defer none.Close()
	if _, err := scrapeCPU(none.URL); err == nil {
		t.Error("no error for a server without /metrics")
	}
}

// TestSelfCPUWindow reads this process's CPU over a window, as a pass does
// beside the server's, while the test burns CPU in it; and the report
// prints the load tool's CPU per move beside the server's.
func TestSelfCPUWindow(t *testing.T) {
	// A busy loop over a 100 ms window: no more than the two CPUs this
	// machine has over the window, plus a tick, ever; and at least a few
	// ticks of 10 ms in one window within 20 s (on a loaded machine, other
	// processes may hold the CPUs for most of many windows: at a load
	// average of 10, five tries in a row saw less).
	var seen []time.Duration
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		now := time.Now()
		w := window{from: now.Add(20 * time.Millisecond), to: now.Add(120 * time.Millisecond)}
		got := cpuWindow(context.Background(), selfCPU, w)
		x := 0
		for time.Now().Before(w.to.Add(20 * time.Millisecond)) {
			x++
		}
		cpu, ok := <-got
		if !ok || cpu > 210*time.Millisecond {
			t.Fatalf("CPU over a 100 ms busy window: %v (read %v)", cpu, ok)
		}
		seen = append(seen, cpu)
		if cpu >= 30*time.Millisecond {
			break
		}
	}
	if last := seen[len(seen)-1]; last < 30*time.Millisecond {
		t.Fatalf("CPU over a 100 ms busy window, %d times in 20 s: %v", len(seen), seen)
	}

	fl := floor{verify: 50 * time.Microsecond, decode: 30 * time.Microsecond, commit: 100 * time.Microsecond, render: 70 * time.Microsecond}
	r := &report{procs: 2, floor: fl, server: &serverProc{pid: 1, metrics: "http://127.0.0.1:1/metrics"}, passes: []passResult{{
		rate: 500, secs: 10, requests: 6000, moves: 5000,
		server: cpuFigures(7500*time.Millisecond, 6000, 5000),
		client: cpuFigures(2000*time.Millisecond, 6000, 5000),
	}}}
	var out bytes.Buffer
	r.printServer(&out)
	for _, want := range []string{
		"server CPU (process_cpu_seconds_total on its admin /metrics), pass 500 moves/s: 1250 µs per request; 5.00× the floor, 1500 µs per move, 1.20 requests per move; 0.75 CPUs busy",
		"load tool CPU (this process, getrusage), pass 500 moves/s: 333 µs per request, 400 µs per move; 0.20 CPUs busy",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report:\n%s\nlacks %q", &out, want)
		}
	}

	// A server without /metrics: its CPU over the whole run, at its exit.
	r = &report{procs: 2, floor: fl, sent: 6000, server: &serverProc{pid: 1, runCPU: 3 * time.Second}}
	out.Reset()
	r.printServer(&out)
	want := "server CPU over its whole run (no /metrics: os.ProcessState user+system at exit, start-up, set-up and shutdown included): 3s for 6000 requests, 500 µs per request; 2.00× the floor"
	if !strings.Contains(out.String(), want) {
		t.Errorf("report:\n%s\nlacks %q", &out, want)
	}
}
