package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"nimbot/commands"
	"nimbot/internal/pgtest"
)

// TestInstances runs the real binary — `nimbot serve`, built once with go
// build — as two or three processes on loopback ports sharing one PostgreSQL
// database, and sends them signed interactions as Discord would, spread
// across them as a load balancer would. The database alone must decide
// every race between them.
func TestInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts serve processes")
	}
	bin := filepath.Join(t.TempDir(), "nimbot")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))

	t.Run("OneTruth", func(t *testing.T) {
		f := newFleet(t, bin, priv, pgtest.DB(t), 3)
		c := newClient(t, priv)
		channel := c.newChannel()

		// Two hundred clicks on one move control, split across the three
		// instances at once: one move (and nimbot's reply) is applied.
		board := c.start(f.addr(0), channel)
		board, move := c.toMove(f.addr(1), channel, board)
		game, ply := target(t, move.id)
		const n = 200
		bodies := make([][]byte, n)
		for k := range bodies {
			bodies[k] = c.click(channel, board, move)
		}
		answers := make([]answer, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for k := range bodies {
			wg.Go(func() {
				<-start
				answers[k] = c.post(f.addr(k%3), bodies[k])
			})
		}
		close(start)
		wg.Wait()
		updated := 0
		for k, a := range answers {
			if a.err != nil || a.status != http.StatusOK {
				t.Fatalf("click %d (instance %d): %d %v", k, k%3, a.status, a.err)
			}
			if a.typ() == 7 {
				updated++
			}
		}
		if moves := f.moves(game); moves != ply+2 || updated > 1 {
			t.Fatalf("after %d clicks on one board across 3 instances: %d moves stored, want %d; %d boards updated", n, moves, ply+2, updated)
		}

		// A redelivery reaching another instance gets the same answer,
		// sequentially and racing its first delivery.
		board = c.after(channel, board, answers)
		for round := range 2 {
			board2, move := c.toMove(f.addr(0), channel, board)
			game, ply := target(t, move.id)
			body := c.click(channel, board2, move)
			var got [3]answer
			if round == 0 {
				for k := range got {
					got[k] = c.post(f.addr(k), body)
				}
			} else {
				var wg sync.WaitGroup
				for k := range got {
					wg.Go(func() { got[k] = c.post(f.addr(k), body) })
				}
				wg.Wait()
			}
			for k := range got {
				if got[k].err != nil || got[k].status != http.StatusOK || !reflect.DeepEqual(got[k].resp, got[0].resp) {
					t.Fatalf("round %d: instance %d answered %d %v %s; instance 0 %s", round, k, got[k].status, got[k].err, got[k].body, got[0].body)
				}
			}
			if moves := f.moves(game); moves != ply+2 {
				t.Fatalf("round %d: one interaction delivered to 3 instances left %d moves, want %d", round, moves, ply+2)
			}
			board = got[0].message(board)
		}
	})

	t.Run("PruneOnce", func(t *testing.T) {
		// Old saved answers, and another instance in the middle of pruning
		// (the test's own session holds the prune lock): neither instance
		// started meanwhile deletes a row. Once the lock is free, a restarted
		// instance prunes them all.
		url := pgtest.DB(t)
		f := newFleet(t, bin, priv, url, 1)
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		const old = 2500
		if _, err := conn.Exec(ctx, `INSERT INTO interactions (id, response, at)
			SELECT 'old-' || i, '\x7b7d', $1 FROM generate_series(1, $2) i`, time.Now().Add(-2*time.Hour).UnixMilli(), old); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(0x6e696d626f74)); err != nil {
			t.Fatal(err)
		}
		f.stop(0)
		f.start(0)
		f.start(1)
		time.Sleep(2 * time.Second) // each ran its first scheduler tick at start
		if n := f.count(`SELECT count(*) FROM interactions WHERE id LIKE 'old-%'`); n != old {
			t.Fatalf("%d of %d old answers left while another session held the prune lock", n, old)
		}
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, int64(0x6e696d626f74)); err != nil {
			t.Fatal(err)
		}
		f.stop(1)
		f.start(1)
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			n := f.count(`SELECT count(*) FROM interactions WHERE id LIKE 'old-%'`)
			if n == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d old answers still there 20 s after a free start", n)
			}
		}
	})

	t.Run("KillOneUnderLoad", func(t *testing.T) {
		// Channels play whole games against nimbot through three instances;
		// one is SIGKILLed mid-way, and its channels resend what got no
		// answer to the next instance (as Discord's retry or a load
		// balancer would). Every move answered with a new board is stored.
		f := newFleet(t, bin, priv, pgtest.DB(t), 3)
		c := newClient(t, priv)
		const channels = 12
		var acked sync.Map // [2]int64{game, ply} → true
		var ackCount, resent atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for i := range channels {
			wg.Go(func() {
				home := i % 3
				send := func(body []byte) answer {
					for try := 0; ; try++ {
						a := c.post(f.addr((home+try)%3), body)
						if a.err == nil && a.status == http.StatusOK {
							return a
						}
						resent.Add(1)
						if try > 20 {
							return a
						}
						time.Sleep(20 * time.Millisecond)
					}
				}
				for {
					select {
					case <-stop:
						return
					default:
					}
					channel := c.newChannel()
					a := send(c.command(channel, "start", map[string]any{"heaps": "3 4 5", "first": "me"}))
					if a.typ() != 4 {
						continue
					}
					board := a.message(nil)
					for {
						ctl, ok := findControl(t, board)
						if !ok {
							break // the game is over
						}
						a := send(c.click(channel, board, ctl))
						if a.status != http.StatusOK || a.typ() != 7 {
							break
						}
						if g, p := target(t, ctl.id); isMove(t, ctl.id) {
							acked.Store([2]int64{g, int64(p)}, true)
							ackCount.Add(1)
						}
						board = a.message(board)
					}
				}
			})
		}
		time.Sleep(2 * time.Second)
		f.kill(1)
		time.Sleep(2 * time.Second)
		close(stop)
		wg.Wait()
		if ackCount.Load() == 0 {
			t.Fatal("no move was acknowledged")
		}
		lost := 0
		acked.Range(func(k, _ any) bool {
			key := k.([2]int64)
			if f.count(`SELECT count(*) FROM moves WHERE game_id = $1 AND ply = $2`, key[0], key[1]) != 1 {
				lost++
			}
			return true
		})
		if bad := f.count(`SELECT count(*) FROM games g WHERE g.ply <> (SELECT count(*) FROM moves m WHERE m.game_id = g.id)`); bad != 0 || lost != 0 {
			t.Fatalf("after SIGKILL of one instance: %d of %d acknowledged moves lost, %d games whose ply is not their number of moves", lost, ackCount.Load(), bad)
		}
		t.Logf("%d acknowledged moves, all stored; %d requests resent to another instance", ackCount.Load(), resent.Load())
	})
}

// fleet is up to three `nimbot serve` processes on one database.
type fleet struct {
	t     *testing.T
	bin   string
	url   string
	pub   string
	dir   string
	addrs [3]string
	procs [3]*exec.Cmd
	logs  [3]*lockedBuffer
	done  [3]chan struct{}
	conn  *pgx.Conn
}

func newFleet(t *testing.T, bin string, priv ed25519.PrivateKey, url string, n int) *fleet {
	f := &fleet{t: t, bin: bin, url: url, pub: hex.EncodeToString(priv.Public().(ed25519.PublicKey)), dir: t.TempDir()}
	for k := range f.addrs {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		f.addrs[k] = ln.Addr().String()
		ln.Close()
	}
	t.Cleanup(func() {
		for k := range f.procs {
			f.stop(k)
		}
		if f.conn != nil {
			f.conn.Close(context.Background())
		}
	})
	for k := range n {
		f.start(k)
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	f.conn = conn
	return f
}

func (f *fleet) addr(k int) string { return "http://" + f.addrs[k] + "/interactions" }

// start starts instance k and waits until /healthz says it is ready. The
// bot token is a dummy and HTTPS goes to a port nothing listens on, so the
// REST calls after an answer fail at once instead of leaving the machine.
func (f *fleet) start(k int) {
	f.t.Helper()
	cmd := exec.Command(f.bin, "serve")
	cmd.Dir = f.dir // no .env there
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"DISCORD_TOKEN=instances-test-token", "DISCORD_PUBLIC_KEY=" + f.pub, "HTTP_ADDR=" + f.addrs[k],
		"DATABASE_URL=" + f.url, "HTTPS_PROXY=http://127.0.0.1:9", "LOG_LEVEL=warn",
		"INTERACTION_RETENTION=15m"}
	f.logs[k] = &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = f.logs[k], f.logs[k]
	if err := cmd.Start(); err != nil {
		f.t.Fatal(err)
	}
	f.procs[k], f.done[k] = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(f.done[k]) }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		res, err := http.Get("http://" + f.addrs[k] + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-f.done[k]:
			f.t.Fatalf("instance %d exited at start:\n%s", k, f.logs[k].String())
		default:
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("instance %d not healthy within 30 s:\n%s", k, f.logs[k].String())
		}
	}
}

// stop sends SIGTERM to instance k and waits for it to exit.
func (f *fleet) stop(k int) {
	if f.procs[k] == nil {
		return
	}
	f.procs[k].Process.Signal(syscall.SIGTERM)
	select {
	case <-f.done[k]:
	case <-time.After(30 * time.Second):
		f.procs[k].Process.Kill()
		<-f.done[k]
		f.t.Errorf("instance %d still running 30 s after SIGTERM", k)
	}
	f.procs[k] = nil
}

// kill SIGKILLs instance k: no shutdown, connections cut mid-transaction.
func (f *fleet) kill(k int) {
	f.procs[k].Process.Signal(syscall.SIGKILL)
	<-f.done[k]
	f.procs[k] = nil
}

func (f *fleet) count(sql string, args ...any) int {
	f.t.Helper()
	var n int
	if err := f.conn.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		f.t.Fatal(err)
	}
	return n
}

func (f *fleet) moves(game int64) int {
	return f.count(`SELECT count(*) FROM moves WHERE game_id = $1`, game)
}

// client signs interactions built from bot's documented fixtures.
type client struct {
	t    *testing.T
	priv ed25519.PrivateKey
	http *http.Client
	seq  atomic.Int64
	cmd  map[string]any
	comp map[string]any
}

func newClient(t *testing.T, priv ed25519.PrivateKey) *client {
	c := &client{t: t, priv: priv, http: &http.Client{Timeout: 30 * time.Second}}
	for name, m := range map[string]*map[string]any{"command.json": &c.cmd, "component.json": &c.comp} {
		b, err := os.ReadFile(filepath.Join("bot", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, m); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func (c *client) id() string { return strconv.FormatInt(1300000000000000000+c.seq.Add(1), 10) }

func (c *client) newChannel() string { return c.id() }

// fill gives a copy of fixture a fresh id and token, and channel.
func (c *client) fill(fixture map[string]any, channel string) map[string]any {
	b, _ := json.Marshal(fixture)
	var m map[string]any
	json.Unmarshal(b, &m)
	m["id"], m["token"], m["channel_id"] = c.id(), "token-"+c.id(), channel
	m["channel"].(map[string]any)["id"] = channel
	return m
}

func (c *client) command(channel, sub string, opts map[string]any) []byte {
	m := c.fill(c.cmd, channel)
	var os []any
	for k, v := range opts {
		os = append(os, map[string]any{"name": k, "type": 3, "value": v})
	}
	m["data"].(map[string]any)["options"] = []any{map[string]any{"name": sub, "type": 1, "options": os}}
	b, _ := json.Marshal(m)
	return b
}

func (c *client) click(channel string, board map[string]any, ctl control) []byte {
	m := c.fill(c.comp, channel)
	m["message"] = board
	data := m["data"].(map[string]any)
	data["custom_id"] = ctl.id
	if ctl.value != "" {
		data["component_type"], data["values"] = 3, []string{ctl.value}
	}
	b, _ := json.Marshal(m)
	return b
}

// answer is one HTTP exchange.
type answer struct {
	status int
	body   []byte
	resp   map[string]any
	err    error
}

func (a answer) typ() int {
	if t, ok := a.resp["type"].(float64); ok {
		return int(t)
	}
	return 0
}

// message is the board message an answer makes: a new one (type 4) or an
// update of prev (type 7), as Discord would show it.
func (a answer) message(prev map[string]any) map[string]any {
	data, _ := a.resp["data"].(map[string]any)
	m := map[string]any{}
	if prev != nil && a.typ() == 7 {
		for k, v := range prev {
			m[k] = v
		}
	} else {
		m["id"] = strconv.FormatInt(1400000000000000000+time.Now().UnixNano()%1e15, 10)
		m["type"], m["attachments"], m["mentions"], m["timestamp"] = 20, []any{}, []any{}, "2026-11-22T03:00:00.000000+00:00"
	}
	for _, k := range []string{"content", "embeds", "components"} {
		if v, ok := data[k]; ok {
			m[k] = v
		}
	}
	return m
}

func (c *client) post(url string, body []byte) answer {
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(c.priv, append([]byte(stamp), body...))))
	res, err := c.http.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode}
	a.body, a.err = io.ReadAll(res.Body)
	if a.err == nil && res.StatusCode == http.StatusOK {
		a.err = json.Unmarshal(a.body, &a.resp)
	}
	return a
}

// start is /nim start against nimbot in channel; it returns the board.
func (c *client) start(url, channel string) map[string]any {
	c.t.Helper()
	a := c.post(url, c.command(channel, "start", map[string]any{"heaps": "5 6 7", "first": "me"}))
	if a.err != nil || a.typ() != 4 {
		c.t.Fatalf("/nim start: %d %v %s", a.status, a.err, a.body)
	}
	return a.message(nil)
}

// toMove clicks a heap, if need be, until board offers a move control.
func (c *client) toMove(url, channel string, board map[string]any) (map[string]any, control) {
	c.t.Helper()
	for range 3 {
		ctl, ok := findControl(c.t, board)
		if !ok {
			c.t.Fatalf("no control on the board: %v", board["components"])
		}
		if isMove(c.t, ctl.id) {
			return board, ctl
		}
		a := c.post(url, c.click(channel, board, ctl))
		if a.err != nil || a.typ() != 7 {
			c.t.Fatalf("heap click: %d %v %s", a.status, a.err, a.body)
		}
		board = a.message(board)
	}
	c.t.Fatal("no move control after three clicks")
	return nil, control{}
}

// after is the board after a race: the one answer that updated it.
func (c *client) after(channel string, board map[string]any, answers []answer) map[string]any {
	for _, a := range answers {
		if a.typ() == 7 {
			return a.message(board)
		}
	}
	c.t.Fatal("no click updated the board")
	return nil
}

// control is an enabled button, or a select menu with the value to choose.
type control struct{ id, value string }

// findControl returns the first enabled move control on board or, failing
// that, the first heap picker (a two-step move).
func findControl(t *testing.T, board map[string]any) (control, bool) {
	var moves, heaps []control
	rows, _ := board["components"].([]any)
	for _, r := range rows {
		row, _ := r.(map[string]any)
		items, _ := row["components"].([]any)
		for _, it := range items {
			c, _ := it.(map[string]any)
			id, _ := c["custom_id"].(string)
			if disabled, _ := c["disabled"].(bool); disabled || id == "" {
				continue
			}
			ctl := control{id: id}
			if opts, ok := c["options"].([]any); ok {
				if len(opts) == 0 {
					continue
				}
				ctl.value, _ = opts[0].(map[string]any)["value"].(string)
			}
			parsed, err := commands.ParseControl(id)
			if err != nil {
				continue
			}
			switch parsed.(type) {
			case commands.MoveControl, commands.MoveMenuControl:
				moves = append(moves, ctl)
			case commands.HeapControl, commands.HeapMenuControl:
				heaps = append(heaps, ctl)
			}
		}
	}
	if len(moves) > 0 {
		return moves[0], true
	}
	if len(heaps) > 0 {
		return heaps[0], true
	}
	return control{}, false
}

func isMove(t *testing.T, id string) bool {
	c, err := commands.ParseControl(id)
	if err != nil {
		t.Fatal(err)
	}
	switch c.(type) {
	case commands.MoveControl, commands.MoveMenuControl:
		return true
	}
	return false
}

func target(t *testing.T, id string) (int64, int) {
	c, err := commands.ParseControl(id)
	if err != nil {
		t.Fatal(err)
	}
	return c.Target()
}
