package pgtest

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) {
	// As the child of TestWatchdog: start a cluster, say where, and wait
	// to be killed.
	if os.Getenv("PGTEST_CHILD") != "" {
		c, err := Start()
		if err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(2)
		}
		os.Stdout.WriteString(c.Dir + "\n")
		select {}
	}
	os.Exit(Main(m))
}

func TestDB(t *testing.T) {
	ctx := context.Background()
	a, b := DB(t), DB(t)
	if a == b {
		t.Fatalf("two tests share %s", a)
	}
	conn, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var version int
	if err := conn.QueryRow(ctx, `SELECT current_setting('server_version_num')::int`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if version < 150000 {
		t.Errorf("server version %d; the project targets PostgreSQL 15", version)
	}
	var listen string
	if err := conn.QueryRow(ctx, `SHOW listen_addresses`).Scan(&listen); err != nil || listen != "" {
		t.Errorf("listen_addresses %q, %v; want no TCP at all", listen, err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE t (x int)`); err != nil {
		t.Fatal(err)
	}
	// The other database is empty: tests do not see each other's tables.
	other, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	var n int
	if err := other.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE tablename = 't'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the second database sees %d tables named t (%v)", n, err)
	}
}

// TestWatchdog kills a process that started a cluster with SIGKILL, so no
// deferred function or TestMain runs, and checks the cluster goes with it:
// its server stops and its folder disappears.
func TestWatchdog(t *testing.T) {
	if _, err := BinDir(); err != nil {
		if os.Getenv("CI") == "" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PGTEST_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child: %v: %s", err, stderr.String())
	}
	dir := strings.TrimSpace(line)
	pidFile := filepath.Join(dir, "data", "postmaster.pid")
	head, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(head), "\n", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("postmaster %d not running: %v", pid, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, statErr := os.Stat(dir)
		gone := errors.Is(statErr, os.ErrNotExist)
		alive := syscall.Kill(pid, 0) == nil
		if gone && !alive {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("30 s after the kill: folder removed %v, postmaster %d alive %v", gone, pid, alive)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
