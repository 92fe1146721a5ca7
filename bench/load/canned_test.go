package main

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"nimbot/commands"
)

// recordedBoard plays on an in-process server up to the board a channel
// clicks on in the middle of a game (against nimbot, or between people)
// and returns the answer that drew it, as the server sent it.
func recordedBoard(tb testing.TB, people bool) []byte {
	share := "0"
	if people {
		share = "1"
	}
	p, _, _, res := playOneChannel(tb, share, 3)
	// Every run on the same kind of board: one offering its moves in a
	// menu, so that every click is a move. Three turns of random play
	// sometimes end the game, or end on a board of another kind, and the
	// benchmark then measured another mix of requests (a third fewer
	// allocations, no paced clicks).
	for k := 0; p.b.find(is[commands.MoveMenuControl]) == nil || p.b.find(is[commands.RematchControl]) != nil; k++ {
		if k == 100 {
			tb.Fatal("no board with a move menu in 100 requests")
		}
		rq := p.next()
		res = p.send(context.Background(), rq, nil)
		if err := p.receive(rq, res, nil); err != nil {
			tb.Fatal(err)
		}
	}
	return res.body
}

// TestCannedServer is not a test: run by BenchmarkClient as a child
// process (NIMBOT_LOAD_CANNED is the answer's file), it answers every
// request on a loopback port with that one board, as bot writes an
// answer (with its Content-Length), until its stdin closes.
func TestCannedServer(t *testing.T) {
	file := os.Getenv("NIMBOT_LOAD_CANNED")
	if file == "" {
		t.Skip("a helper process for BenchmarkClient")
	}
	answer, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		w.Write(answer)
	}))
	fmt.Printf("listening %s\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin)
}

// BenchmarkClient is the load tool's own CPU per request, all of it:
// 64 channels run a flat-out pass of 1 s (l.pass, as the tool does) against a
// server in another process that answers every click with the same board
// (TestCannedServer), so this process's CPU (getrusage, every thread: the
// collector, the scheduler and the system calls included) is the client's
// alone. Each channel decodes the board, reads its controls back, chooses
// and builds a click, signs it and posts it; the board never changes, so
// every request after the first is a click on it. bot is games against
// nimbot, people games between people.
func BenchmarkClient(b *testing.B) {
	benchmarkClient(b, 0)
}

// BenchmarkClientFixed is BenchmarkClient with the moves paced at 1,000/s
// (the second pass's -fixed-rate): the tool mostly waits, and what it
// spends per request is more the waking than the work.
func BenchmarkClientFixed(b *testing.B) {
	benchmarkClient(b, 1000)
}

func benchmarkClient(b *testing.B, rate float64) {
	for _, people := range []bool{false, true} {
		name := "bot"
		if people {
			name = "people"
		}
		b.Run(name, func(b *testing.B) {
			file := filepath.Join(b.TempDir(), "answer.json")
			if err := os.WriteFile(file, recordedBoard(b, people), 0o600); err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestCannedServer$")
			cmd.Env = append(os.Environ(), "NIMBOT_LOAD_CANNED="+file)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			defer cmd.Wait()
			defer stdin.Close()
			line, err := bufio.NewReader(stdout).ReadString('\n')
			addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
			if err != nil || !ok {
				b.Fatalf("canned server: %q %v", line, err)
			}
			go io.Copy(io.Discard, stdout)

			share := "0"
			if people {
				share = "1"
			}
			o, _ := parseFlags([]string{"-spawn", "-people", share}, io.Discard)
			_, priv, _ := ed25519.GenerateKey(nil)
			l := newLoader([]string{"http://" + addr}, priv, o, []int64{3, 4, 5}, nil)
			defer l.close()
			ctx := context.Background()
			var cpu time.Duration
			var requests int
			var lat []time.Duration
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for b.Loop() {
				r := l.pass(ctx, rate, time.Second)
				if r.errors > 0 {
					b.Fatalf("%d errors: %v", r.errors, r.errSample)
				}
				cpu += r.cpuPerRequest * time.Duration(r.requests)
				requests += r.requests
				lat = append(lat, r.lat...)
			}
			slices.Sort(lat)
			runtime.ReadMemStats(&m1)
			b.ReportMetric(float64(cpu)/float64(requests)/float64(time.Microsecond), "cpu-µs/request")
			b.ReportMetric(float64(requests)/float64(b.N), "requests/s")
			// The latency the tool reports, against a server that answers
			// at once: what the client itself adds.
			b.ReportMetric(float64(quantile(lat, .5))/float64(time.Microsecond), "p50-µs")
			b.ReportMetric(float64(quantile(lat, .99))/float64(time.Microsecond), "p99-µs")
			// Allocations over the whole passes (warm-up and tail included).
			all := float64(requests) * 1.1
			b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/all, "allocs/request")
			b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/all, "B/request")
			b.ReportMetric(float64(m1.NumGC-m0.NumGC)/float64(b.N), "GCs/pass")
		})
	}
}
