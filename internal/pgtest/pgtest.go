// Package pgtest starts a throwaway PostgreSQL cluster for a test binary and
// hands each test a fresh, empty database in it.
//
// The cluster is real (initdb and pg_ctl from the machine's PostgreSQL
// server, found with `pg_config --bindir`), listens only on a unix socket in
// its own temporary folder (no TCP at all), and is tuned for throwaway use
// (fsync off: a crash of the machine loses nothing anyone keeps). It is
// started once per test binary, on first use, and removed when the binary
// exits, however it exits: a watchdog process holds the read end of a pipe
// whose write end only the test binary holds, and stops the cluster and
// deletes its folder when that pipe closes — at Stop, at a normal exit, after
// a panic or a test timeout, even after SIGKILL.
//
// Where the server binaries are missing, DB skips the test, except under CI
// (the CI environment variable set), where it fails it: CI must run these
// tests, and .ci/run installs PostgreSQL to make sure it can.
//
// Run as root, initdb and pg_ctl refuse to start; the cluster then runs as
// the "postgres" OS user (Debian's package creates it), or "nobody".
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoServer means the PostgreSQL server binaries were not found.
var ErrNoServer = errors.New("pgtest: PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql-15 or set PG_BINDIR")

// Cluster is a running throwaway PostgreSQL cluster.
type Cluster struct {
	// Dir holds the data folder, the server log and the unix socket.
	Dir string
	// Port names the socket file (.s.PGSQL.<Port>); nothing listens on TCP.
	Port int

	watchdog *exec.Cmd
	hold     *os.File // the write end of the watchdog's pipe
	stopOnce sync.Once
	// pgCtl runs pg_ctl on the cluster's data folder, as the cluster's
	// user.
	pgCtl func(args ...string) error
}

// socketPort is the port number in the socket's file name. The socket sits
// in the cluster's private folder, so it never collides with another
// cluster's.
const socketPort = 5432

// BinDir returns the folder holding initdb and pg_ctl: $PG_BINDIR, else
// `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin (Debian
// installs the server without putting pg_config on PATH when libpq-dev is
// missing).
func BinDir() (string, error) {
	var candidates []string
	if d := os.Getenv("PG_BINDIR"); d != "" {
		candidates = append(candidates, d)
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		candidates = append(candidates, strings.TrimSpace(string(out)))
	}
	debian, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(debian, func(i, j int) bool { return pgMajor(debian[i]) > pgMajor(debian[j]) })
	candidates = append(candidates, debian...)
	for _, d := range candidates {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	return "", ErrNoServer
}

// pgMajor reads the major version from /usr/lib/postgresql/<major>/bin.
func pgMajor(bin string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(bin)))
	return n
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// asUser is the OS account the cluster runs as when the tests run as root:
// PostgreSQL refuses to run as root.
func asUser() (*user.User, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		if u, err := user.Lookup(name); err == nil {
			return u, nil
		}
	}
	return nil, errors.New("pgtest: running as root and neither a postgres nor a nobody user exists to run the server")
}

// command runs bin as the cluster's user.
func command(u *user.User, bin string, args ...string) *exec.Cmd {
	if u == nil {
		return exec.Command(bin, args...)
	}
	return exec.Command("runuser", append([]string{"-u", u.Username, "--", bin}, args...)...)
}

// Start initialises and starts a new cluster in a new temporary folder.
// Stop it with Stop; if the process dies first, the watchdog does.
func Start() (_ *Cluster, err error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	u, err := asUser()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	if u != nil {
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil { // the socket must be reachable by the tests' user
		os.RemoveAll(dir)
		return nil, err
	}
	c := &Cluster{Dir: dir, Port: socketPort}
	data := filepath.Join(dir, "data")

	// The watchdog comes first, so that from here on nothing outlives us.
	r, w, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	script := `cat >/dev/null; "$1" -D "$2" stop -m immediate -w >/dev/null 2>&1; rm -rf "$3"`
	c.watchdog = command(u, "/bin/sh", "-c", script, "pgtest-watchdog", filepath.Join(bin, "pg_ctl"), data, dir)
	c.watchdog.Stdin = r
	// Its own process group: a ^C to the tests must not kill it before it
	// has cleaned up.
	c.watchdog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.watchdog.Start(); err != nil {
		r.Close()
		w.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: starting the watchdog: %w", err)
	}
	r.Close()
	c.hold = w
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()

	run := func(cmd *exec.Cmd) error {
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("pgtest: %s: %w\n%s", strings.Join(cmd.Args, " "), err, out.String())
		}
		return nil
	}
	if err := run(command(u, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust",
		"--encoding=UTF8", "--locale=C", "--no-sync")); err != nil {
		return nil, err
	}
	c.pgCtl = func(args ...string) error {
		return run(command(u, filepath.Join(bin, "pg_ctl"), append([]string{"-D", data}, args...)...))
	}
	if err := c.Resume(); err != nil {
		return nil, err
	}
	return c, nil
}

// serverOptions are the server's settings for the cluster in dir. fsync
// off and friends: a throwaway cluster needs no durability against power
// loss, and tests create and drop many databases.
func serverOptions(dir string) string {
	return strings.Join([]string{
		"-c listen_addresses=''",
		"-c unix_socket_directories=" + dir,
		"-c port=" + strconv.Itoa(socketPort),
		"-c fsync=off",
		"-c synchronous_commit=off",
		"-c full_page_writes=off",
		"-c max_connections=300",
		"-c shared_buffers=32MB",
	}, " ")
}

// Halt stops the server as an operator's restart does (pg_ctl stop -m
// fast): sessions in progress are ended with SQLSTATE 57P01, and new
// connections are refused until Resume. The folder stays.
func (c *Cluster) Halt() error {
	return c.pgCtl("stop", "-m", "fast", "-w", "-t", "60")
}

// Resume starts the server again after Halt (Start starts it the first
// time), and returns once it takes connections.
func (c *Cluster) Resume() error {
	err := c.pgCtl("-l", filepath.Join(c.Dir, "server.log"), "-o", serverOptions(c.Dir), "-w", "-t", "60", "start")
	if err != nil {
		if log, rerr := os.ReadFile(filepath.Join(c.Dir, "server.log")); rerr == nil {
			err = fmt.Errorf("%w\nserver log:\n%s", err, log)
		}
	}
	return err
}

// Stop stops the cluster and removes its folder. It is safe to call twice.
func (c *Cluster) Stop() {
	c.stopOnce.Do(func() {
		c.hold.Close()
		c.watchdog.Wait()
	})
}

// URL is the connection string for database name on the cluster, as the
// superuser "postgres".
func (c *Cluster) URL(name string) string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", c.Dir, c.Port, name)
}

var (
	shared    *Cluster
	sharedErr error
	startOnce sync.Once
	created   atomic.Int64
)

// Shared starts the test binary's cluster on first call and returns it.
func Shared() (*Cluster, error) {
	startOnce.Do(func() { shared, sharedErr = Start() })
	return shared, sharedErr
}

// Main runs the tests and then stops the shared cluster, if one started.
// Call it from TestMain: os.Exit(pgtest.Main(m)). Without it the watchdog
// still removes the cluster when the binary exits.
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		shared.Stop()
	}
	return code
}

// DB creates a new, empty database on the shared cluster and returns its
// connection string; it is dropped when the test ends. Where the server is
// missing, the test is skipped, or failed under CI.
func DB(tb testing.TB) string {
	tb.Helper()
	c, err := Shared()
	if errors.Is(err, ErrNoServer) && os.Getenv("CI") == "" {
		tb.Skip(err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), created.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := admin(ctx, c, `CREATE DATABASE `+name+` STRATEGY = FILE_COPY`); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// FORCE: a test that failed half-way may have left connections.
		if err := admin(ctx, c, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			tb.Error(err)
		}
	})
	return c.URL(name)
}

// admin runs one statement on the cluster's maintenance database.
func admin(ctx context.Context, c *Cluster, sql string) error {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql); err != nil {
		return fmt.Errorf("pgtest: %s: %w", sql, err)
	}
	return nil
}
