package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// runChild runs the test binary as a child process of a test (see
// TestMain) and returns its exit code.
func runChild(role string) int {
	path := os.Getenv("NIMBOT_STORE_DB")
	var err error
	switch role {
	case "crash":
		err = crashChild(path)
	case "lock":
		err = lockChild(path)
	case "hold":
		err = holdChild(path)
	default:
		err = fmt.Errorf("unknown child role %q", role)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	return 0
}

// crashChild plays games in eight channels as fast as it can, printing
// "ack <game> <ply> <interaction>" after each Commit returns, until killed.
// Half the games are against the bot, whose reply lands in the same Commit.
func crashChild(path string) error {
	ctx := context.Background()
	seed, _ := strconv.ParseUint(os.Getenv("NIMBOT_STORE_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(seed, uint64(os.Getpid())))
	db, err := Open(ctx, Config{Path: path, Synchronous: os.Getenv("NIMBOT_STORE_SYNC")})
	if err != nil {
		return err
	}
	fmt.Println("ready")
	randomMove := func(p engine.Position) engine.Move {
		for h, n := range p.Heaps {
			if n > 0 {
				return take(h, 1+rng.Int64N(n))
			}
		}
		panic("no move")
	}
	for n := 0; ; n++ {
		channel := fmt.Sprint("crash-", rng.IntN(8))
		g, err := db.ChannelGame(ctx, channel)
		if errors.Is(err, match.ErrNotFound) {
			players := [2]string{"alice", "bob"}
			if rng.IntN(2) == 0 {
				players[1] = match.BotID
			}
			g = newGame(channel, players, 3, 4, 5)
			g.Difficulty = engine.Easy
			err = db.CreateGame(ctx, g)
		}
		if err != nil {
			return err
		}
		moves := []engine.Move{randomMove(g.Position)}
		if g.Players[1] == match.BotID {
			if p, _ := apply(g.Position, moves[0]); !over(p) {
				moves = append(moves, randomMove(p))
			}
		}
		c, err := change(g, moves...)
		if err != nil {
			return err
		}
		c.InteractionID = fmt.Sprintf("crash-%d-%d", os.Getpid(), n)
		c.Response = []byte(c.InteractionID)
		out, err := db.Commit(ctx, c)
		if err != nil {
			return err
		}
		// Printed only once Commit has returned: the acknowledgement.
		fmt.Printf("ack %d %d %s\n", out.ID, out.Ply, c.InteractionID)
	}
}

// lockChild takes the database's write lock, says "locked", and holds it
// until its stdin closes.
func lockChild(path string) error {
	db, err := sql.Open("sqlite3", dsn(path, url.Values{"_txlock": {"immediate"}}))
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	fmt.Println("locked")
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// holdChild has the database open, as any program using it (a nimbot of
// an earlier release) has between its transactions: it reads the file once,
// prints "open" and keeps its connection until its stdin closes.
func holdChild(path string) error {
	db, err := sql.Open("sqlite3", dsn(path, nil))
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
		return err
	}
	fmt.Println("open")
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// child is a running child process and the lines it has printed so far.
type child struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	first chan struct{} // closed at the first line
	done  chan struct{} // closed when stdout is drained
}

func startChild(t *testing.T, role, path string, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"NIMBOT_STORE_CHILD=" + role, "NIMBOT_STORE_DB=" + path}, env...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.StdinPipe(); err != nil { // held open: closing it releases a lock child
		t.Fatal(err)
	}
	c := &child{cmd: cmd, first: make(chan struct{}), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.done)
		s := bufio.NewScanner(out)
		for s.Scan() {
			c.mu.Lock()
			c.lines = append(c.lines, s.Text())
			if len(c.lines) == 1 {
				close(c.first)
			}
			c.mu.Unlock()
		}
	}()
	return c
}

// waitFirst waits for the child's first line.
func (c *child) waitFirst(t *testing.T) string {
	t.Helper()
	select {
	case <-c.first:
	case <-c.done:
		t.Fatalf("child exited before saying anything: %v", c.cmd.Wait())
	case <-time.After(time.Minute):
		t.Fatal("child said nothing for a minute")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines[0]
}

// waitLines waits until the child has printed n lines.
func (c *child) waitLines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c.mu.Lock()
		got := len(c.lines)
		c.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-c.done:
			t.Fatalf("child exited after %d lines: %v", got, c.cmd.Wait())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("child printed %d lines in a minute, want %d", got, n)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// kill SIGKILLs the child and returns every complete line it printed.
func (c *child) kill() []string {
	c.cmd.Process.Kill()
	<-c.done
	c.cmd.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines
}

// TestCrash kills a child process that is committing moves with SIGKILL at
// random moments, 24 times, and checks after each kill that every
// acknowledged move is in the database, no game is half-updated, and the
// file passes integrity_check.
func TestCrash(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	rng := rand.New(rand.NewPCG(1, 2))
	const rounds = 24
	type ack struct {
		game        int64
		ply         int
		interaction string
	}
	var acks []ack
	lateKills := 0
	for round := range rounds {
		sync := "FULL"
		if round%2 == 1 {
			sync = "NORMAL" // survives a process crash too; only power loss differs
		}
		c := startChild(t, "crash", path, "NIMBOT_STORE_SYNC="+sync, fmt.Sprint("NIMBOT_STORE_SEED=", round))
		if round%6 == 0 {
			// Early: during start-up, Open, the migrations or the first commits.
			time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond)
		} else {
			if line := c.waitFirst(t); line != "ready" {
				c.kill()
				t.Fatalf("child said %q", line)
			}
			// Let it acknowledge a random number of commits, so every late
			// kill has acknowledgements to check however slow the machine,
			// then kill it a random moment later: mid-commit, between
			// commits, or while it prints.
			c.waitLines(t, 2+rng.IntN(40))
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		}
		lines := c.kill()
		roundAcks := 0
		for _, line := range lines {
			f := strings.Fields(line)
			if len(f) != 4 || f[0] != "ack" {
				continue
			}
			id, _ := strconv.ParseInt(f[1], 10, 64)
			ply, _ := strconv.Atoi(f[2])
			acks = append(acks, ack{id, ply, f[3]})
			roundAcks++
		}
		if roundAcks > 0 {
			lateKills++
		}

		db, err := Open(ctx, Config{Path: path})
		if err != nil {
			t.Fatalf("round %d: reopening after the kill: %v", round, err)
		}
		checkGames(t, db)
		for _, a := range acks {
			g, err := db.Game(ctx, a.game)
			if err != nil {
				t.Fatalf("round %d: acknowledged game %d: %v", round, a.game, err)
			}
			if g.Ply < a.ply {
				t.Errorf("round %d: game %d acknowledged at ply %d, found at ply %d", round, a.game, a.ply, g.Ply)
			}
			if _, err := db.Response(ctx, a.interaction); err != nil {
				t.Errorf("round %d: acknowledged interaction %s: %v", round, a.interaction, err)
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	// A run that never killed a child mid-play would prove nothing.
	if lateKills < rounds/2 || len(acks) < rounds {
		t.Fatalf("only %d of %d kills came after acknowledged moves (%d acks in all)", lateKills, rounds, len(acks))
	}
	t.Logf("%d kills, %d after acknowledgements, %d acknowledged commits", rounds, lateKills, len(acks))
}

// TestBesideRunningProcess: another process (the bot) commits moves all
// along while this one backs the file up (`nimbot backup`: Backup, which
// only reads it) and opens it (`nimbot play`: Open, whose lock probe must
// wait out short write transactions, not fail on them); each succeeds.
func TestBesideRunningProcess(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "nimbot.db")
	c := startChild(t, "crash", path, "NIMBOT_STORE_SYNC=FULL", "NIMBOT_STORE_SEED=7")
	defer c.kill()
	if line := c.waitFirst(t); line != "ready" {
		t.Fatalf("child said %q", line)
	}
	c.waitLines(t, 20)
	c.mu.Lock()
	before := len(c.lines)
	c.mu.Unlock()
	for i := range 3 {
		dest := filepath.Join(dir, fmt.Sprint("backup", i, ".db"))
		if _, err := Backup(ctx, path, dest); err != nil {
			t.Fatalf("backup %d beside a running writer: %v", i, err)
		}
		copyDB := mustOpenPath(t, dest, "")
		if checkGames(t, copyDB) == 0 {
			t.Fatal("the backup holds no games")
		}
		copyDB.Close()
		db, err := Open(ctx, Config{Path: path})
		if err != nil {
			t.Fatalf("open %d beside a running writer: %v", i, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// The writer went on committing while we opened and copied.
	if lines := c.kill(); len(lines) <= before {
		t.Fatalf("the child made no commit during the backups (%d lines before, %d after)", before, len(lines))
	}
}
