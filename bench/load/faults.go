package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/mattn/go-sqlite3" // the integrity check reads the file directly

	"nimbot/engine"
	"nimbot/match"
	"nimbot/store"
)

// runFaults builds nimbot and runs the three fault scenarios against
// `nimbot serve` as a child process, printing one line each. It fails if
// any scenario does.
func runFaults(ctx context.Context, o options, priv ed25519.PrivateKey, out io.Writer) error {
	heaps, err := parseHeaps(o.heaps)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "nimbot-faults-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := buildNimbot(ctx, tmp)
	if err != nil {
		return err
	}
	c := &child{bin: bin, dir: tmp, pub: priv.Public().(ed25519.PublicKey)}
	c.db = filepath.Join(tmp, "nimbot.db")
	if c.addr, err = freeAddr(); err != nil {
		return err
	}
	fmt.Fprintf(out, "nimbot faults: `%s serve` on %s, database %s, %d channels\n", bin, c.addr, c.db, o.channels)

	var failed []string
	if err := killScenario(ctx, c, o, priv, heaps, out); err != nil {
		failed = append(failed, "SIGKILL: "+err.Error())
	}
	if err := termScenario(ctx, c, o, priv, heaps, out); err != nil {
		failed = append(failed, "SIGTERM: "+err.Error())
	}
	if err := lockScenario(ctx, c, out); err != nil {
		failed = append(failed, "locked database: "+err.Error())
	}
	if len(failed) > 0 {
		return errors.New(strings.Join(failed, "; "))
	}
	return nil
}

// buildNimbot builds the repository root's main package, the real binary.
func buildNimbot(ctx context.Context, dir string) (string, error) {
	root, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("finding the module root: %w", err)
	}
	bin := filepath.Join(dir, "nimbot")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	cmd.Dir = strings.TrimSpace(string(root))
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, b)
	}
	return bin, nil
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// child runs `nimbot serve`.
type child struct {
	bin, dir, db, addr string
	admin              string // ADMIN_ADDR, "" for none
	pub                ed25519.PublicKey
	env                []string // added to serve's environment (-server-env)
	cmd                *exec.Cmd
	stderr             *bytes.Buffer
	exited             chan error
}

// start starts serve. The bot token is a dummy and HTTPS goes through a
// proxy on a port nothing listens on, so the REST calls bot makes after an
// answer (fetching @original) fail at once instead of leaving for Discord.
// The working directory is empty so no developer's .env is read.
func (c *child) start(ctx context.Context) error {
	cmd := exec.Command(c.bin, "serve")
	cmd.Dir = c.dir
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "DISCORD_"), strings.HasPrefix(k, "DATABASE_"), k == "HTTP_ADDR", k == "DEV_GUILD_ID", k == "ADMIN_ADDR", k == "HEALTH_ADDR",
			strings.EqualFold(k, "HTTPS_PROXY"), strings.EqualFold(k, "HTTP_PROXY"), strings.EqualFold(k, "NO_PROXY"):
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env,
		"DISCORD_PUBLIC_KEY="+hex.EncodeToString(c.pub), "DISCORD_TOKEN=load-test-token",
		"HTTP_ADDR="+c.addr, "ADMIN_ADDR="+c.admin, "DATABASE_PATH="+c.db, "HTTPS_PROXY=http://127.0.0.1:9", "LOG_LEVEL=error")
	cmd.Env = append(cmd.Env, c.env...)
	c.stderr = &bytes.Buffer{}
	cmd.Stderr = &syncWriter{w: c.stderr}
	if err := cmd.Start(); err != nil {
		return err
	}
	c.cmd = cmd
	c.exited = make(chan error, 1)
	go func() { c.exited <- cmd.Wait() }()
	return nil
}

// ready waits until /healthz answers, or the child exits.
func (c *child) ready(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-c.exited:
			c.exited <- err
			return fmt.Errorf("serve exited at start (%v): %s", err, c.tail())
		default:
		}
		resp, err := http.Get("http://" + c.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errors.New("serve did not become healthy within 30 s")
}

func (c *child) tail() string {
	s := strings.TrimSpace(c.stderr.String())
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return s
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// killScenario SIGKILLs serve under load o.kills times, restarting it each
// time, then checks the database against every move the server answered.
func killScenario(ctx context.Context, c *child, o options, priv ed25519.PrivateKey, heaps []int64, out io.Writer) error {
	l := newLoader([]string{"http://" + c.addr}, priv, o, heaps, nil)
	defer l.close()
	l.retry, l.ackMoves, l.freshPeople = true, true, true
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	stats := make([]*passStats, len(l.players))
	var wg sync.WaitGroup
	everything := window{from: time.Now(), to: time.Now().Add(24 * time.Hour)}
	for i, p := range l.players {
		stats[i] = &passStats{win: everything}
		wg.Add(1)
		go func() { defer wg.Done(); p.run(ctx, stop, nil, stats[i]) }()
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	var peak string
	for k := 0; k <= o.kills; k++ {
		if err := c.start(ctx); err != nil {
			cancel()
			wg.Wait()
			return err
		}
		if err := c.ready(ctx); err != nil {
			c.cmd.Process.Kill()
			cancel()
			wg.Wait()
			return err
		}
		time.Sleep(time.Duration(200+rng.IntN(600)) * time.Millisecond)
		if hwm, err := procStatus(fmt.Sprint(c.cmd.Process.Pid), "VmHWM"); err == nil {
			peak = hwm
		}
		if k == o.kills {
			break
		}
		c.cmd.Process.Signal(syscall.SIGKILL)
		<-c.exited
	}
	// The last start stays up until every channel has its answer.
	cancel()
	wg.Wait()
	c.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-c.exited; err != nil {
		return fmt.Errorf("serve after the kills: %v: %s", err, c.tail())
	}
	r := merge(0, everything, stats)
	var acks []ack
	for _, p := range l.players {
		acks = append(acks, p.acks...)
	}
	games, lost, corrupt, problems, err := verifyDB(ctx, c.db, acks)
	if err != nil {
		return err
	}
	line := fmt.Sprintf("SIGKILL ×%d under load: %d acknowledged moves, %d lost; %d games, %d corrupt (integrity_check ok, ply = moves, positions replay); %d requests resent after a kill; serve's peak RSS %s; errors %d",
		o.kills, len(acks), lost, games, corrupt, r.retries, peak, r.errors)
	fmt.Fprintln(out, line)
	for _, p := range problems {
		fmt.Fprintf(out, "  %s\n", p)
	}
	for _, e := range r.errSample {
		fmt.Fprintf(out, "  error: %s\n", e)
	}
	// Errors (an ephemeral answer the flow did not expect) are shown but do
	// not fail the scenario: a kill can fall between two transactions of one
	// interaction. Lost or corrupt data does.
	if lost > 0 || corrupt > 0 || len(problems) > 0 || len(acks) == 0 {
		return errors.New("acknowledged moves lost or games corrupt (see above)")
	}
	return nil
}

// verifyDB checks the database file after the kills: SQLite's own integrity
// check; every game's ply equal to its number of moves and its position
// equal to its moves replayed from the start; every acknowledged move
// stored at its ply, by its player, as clicked.
func verifyDB(ctx context.Context, path string, acks []ack) (games, lost, corrupt int, problems []string, err error) {
	raw, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		return 0, 0, 0, nil, err
	}
	defer raw.Close()
	var check string
	if err := raw.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil {
		return 0, 0, 0, nil, err
	}
	if check != "ok" {
		problems = append(problems, "integrity_check: "+check)
	}
	rows, err := raw.QueryContext(ctx, `SELECT g.id, g.ply, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) FROM games g`)
	if err != nil {
		return 0, 0, 0, nil, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		var ply, n int
		if err := rows.Scan(&id, &ply, &n); err != nil {
			rows.Close()
			return 0, 0, 0, nil, err
		}
		ids = append(ids, id)
		if ply != n {
			corrupt++
			problems = append(problems, fmt.Sprintf("game %d: ply %d but %d moves", id, ply, n))
		}
	}
	rows.Close()
	raw.Close()

	db, err := store.Open(ctx, store.Config{Path: path})
	if err != nil {
		return 0, 0, 0, nil, err
	}
	defer db.Close()
	moves := map[int64][]match.Move{}
	rules := map[int64]engine.Rules{}
	// before[id][ply] is the position a move at ply was played from.
	before := map[int64][]engine.Position{}
	for _, id := range ids {
		g, err := db.Game(ctx, id)
		if err != nil {
			return 0, 0, 0, nil, err
		}
		ms, err := db.Moves(ctx, id)
		if err != nil {
			return 0, 0, 0, nil, err
		}
		moves[id], rules[id] = ms, g.Rules
		p := g.Start
		for _, m := range ms {
			before[id] = append(before[id], p)
			if p, err = g.Rules.Apply(p, m.Move); err != nil {
				break
			}
		}
		if err != nil || !equalHeaps(p.Heaps, g.Position.Heaps) {
			corrupt++
			problems = append(problems, fmt.Sprintf("game %d: its moves replayed give %v (err %v), it stores %v", id, p.Heaps, err, g.Position.Heaps))
		}
	}
	for _, a := range acks {
		ms := moves[a.move.game]
		m := a.move
		if m.ply >= len(ms) || len(ms) < a.nextPly {
			lost++
			problems = append(problems, fmt.Sprintf("game %d: the move at ply %d was answered (board at ply %d) but the game has %d moves", m.game, m.ply, a.nextPly, len(ms)))
			continue
		}
		got := ms[m.ply]
		ok := got.Player == m.player
		switch {
		case m.heap >= 0:
			ok = ok && got.Move.Kind == engine.Take && got.Move.Heap == m.heap && got.Move.Take == m.take
		case m.notation != "" && m.ply < len(before[m.game]):
			// A move picked from a menu: its value is the move in notation.
			ok = ok && rules[m.game].FormatMove(before[m.game][m.ply], got.Move) == m.notation
		}
		if !ok {
			lost++
			problems = append(problems, fmt.Sprintf("game %d ply %d: answered move by %s (heap %d take %d) but stored %+v by %s", m.game, m.ply, m.player, m.heap, m.take, got.Move, got.Player))
		}
	}
	if len(problems) > 10 {
		problems = append(problems[:10], fmt.Sprintf("… and %d more", len(problems)-10))
	}
	return len(ids), lost, corrupt, problems, nil
}

func equalHeaps(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// termScenario sends SIGTERM while the channels play flat out, and checks
// that every request the server took in was answered before it exited: a
// request without an answer must be one the server never processed (its
// interaction id is not in the database).
func termScenario(ctx context.Context, c *child, o options, priv ed25519.PrivateKey, heaps []int64, out io.Writer) error {
	if err := c.start(ctx); err != nil {
		return err
	}
	if err := c.ready(ctx); err != nil {
		c.cmd.Process.Kill()
		return err
	}
	l := newLoader([]string{"http://" + c.addr}, priv, o, heaps, nil)
	defer l.close()
	l.stopOnRefused, l.freshPeople = true, true
	stats := make([]*passStats, len(l.players))
	everything := window{from: time.Now(), to: time.Now().Add(24 * time.Hour)}
	var wg sync.WaitGroup
	for i, p := range l.players {
		stats[i] = &passStats{win: everything}
		wg.Add(1)
		go func() { defer wg.Done(); p.run(ctx, ctx, nil, stats[i]) }()
	}
	time.Sleep(time.Second)
	sent := time.Now()
	l.signalled.Store(sent.UnixNano())
	c.cmd.Process.Signal(syscall.SIGTERM)
	var exitErr error
	select {
	case exitErr = <-c.exited:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-c.exited
		exitErr = errors.New("still running 30 s after SIGTERM")
	}
	took := time.Since(sent)
	wg.Wait()
	r := merge(0, everything, stats)

	// Which unanswered requests did the server process?
	processed := 0
	db, err := sql.Open("sqlite3", "file:"+c.db+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	for _, id := range r.unanswered {
		var one int
		err := db.QueryRowContext(ctx, `SELECT 1 FROM interactions WHERE id = ?`, id).Scan(&one)
		switch {
		case err == nil:
			processed++
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
	}
	fmt.Fprintf(out, "SIGTERM under load: %d requests sent: %d answered (%d of them in flight when SIGTERM was sent; %d errors), %d refused after the listener closed, %d cut off unread (never processed: %d), %d processed but unanswered; exit %v after %v\n",
		r.requests+r.refused+len(r.unanswered), r.requests, r.inFlight, r.errors, r.refused, len(r.unanswered), len(r.unanswered)-processed, processed, exitStatus(exitErr), took.Round(time.Millisecond))
	if exitErr != nil || processed > 0 || r.errors > 0 {
		return fmt.Errorf("exit %v, %d processed requests unanswered, %d errors: %s", exitStatus(exitErr), processed, r.errors, c.tail())
	}
	return nil
}

func exitStatus(err error) string {
	if err == nil {
		return "0"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.String()
	}
	return err.Error()
}

// lockScenario holds the database's write lock from another connection
// (BEGIN EXCLUSIVE) and starts serve: it must exit with an error that says
// so, not hang.
func lockScenario(ctx context.Context, c *child, out io.Writer) error {
	db, err := sql.Open("sqlite3", "file:"+c.db)
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), `ROLLBACK`)
	start := time.Now()
	if err := c.start(ctx); err != nil {
		return err
	}
	var exitErr error
	select {
	case exitErr = <-c.exited:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-c.exited
		fmt.Fprintln(out, "database locked by another process: serve still running after 30 s (a hang)")
		return errors.New("serve hung on a locked database")
	}
	took := time.Since(start)
	msg := strings.TrimSpace(c.stderr.String())
	if i := strings.LastIndex(msg, "\n"); i >= 0 {
		msg = msg[i+1:]
	}
	fmt.Fprintf(out, "database locked by another process (BEGIN EXCLUSIVE held): serve exited %s after %v: %s\n", exitStatus(exitErr), took.Round(time.Millisecond), msg)
	if exitErr == nil || !strings.Contains(strings.ToLower(msg), "lock") {
		return errors.New("serve did not fail with a message about the lock")
	}
	return nil
}
