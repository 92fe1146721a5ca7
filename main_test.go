package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3"

	"nimbot/bot"
	"nimbot/internal/pgtest"
	"nimbot/migrations"
)

// TestMain stops the throwaway PostgreSQL cluster some tests start.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestRun drives the command line as a user would, with settings from the
// environment (t.Setenv wins over any .env, which never overrides).
func TestRun(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		in   string
		env  map[string]string
		code int
		want string // in stdout+stderr
	}{
		{"NoToken", nil, "", nil, 1, "go run . play"},
		{"NoTokenSaysWhere", nil, "", nil, 1, "https://discord.com/developers/applications"},
		{"Help", []string{"help"}, "", nil, 0, "nimbot serve"},
		{"Unknown", []string{"frobnicate"}, "", nil, 2, `unknown command "frobnicate"`},
		{"BackupNeedsPath", []string{"backup"}, "", nil, 2, "backup PATH"},
		{"BadSynchronous", []string{"help"}, "", map[string]string{"DATABASE_SYNCHRONOUS": "OFF"}, 2, "DATABASE_SYNCHRONOUS"},
		{"BadTimeout", []string{"help"}, "", map[string]string{"BOT_TURN_TIMEOUT": "soon"}, 2, "BOT_TURN_TIMEOUT"},
		// A turn of a millisecond ended every game against nimbot before
		// its first move; a retention of centuries turned pruning off.
		{"TurnTooShort", []string{"play"}, "/nim start heaps:1 2 first:me\n", map[string]string{"BOT_TURN_TIMEOUT": "1ms"}, 2, `BOT_TURN_TIMEOUT must be a duration from 1 minute to 7 days, like 1h`},
		{"TurnTooLong", []string{"help"}, "", map[string]string{"PEOPLE_TURN_TIMEOUT": "8760h"}, 2, `PEOPLE_TURN_TIMEOUT must be a duration from 1 minute to 7 days, like 24h`},
		{"TurnZero", []string{"help"}, "", map[string]string{"PEOPLE_TURN_TIMEOUT": "0s"}, 2, `not "0s"`},
		{"TurnShortest", []string{"help"}, "", map[string]string{"BOT_TURN_TIMEOUT": "1m", "PEOPLE_TURN_TIMEOUT": "168h"}, 0, "nimbot serve"},
		{"RetentionTooShort", []string{"help"}, "", map[string]string{"INTERACTION_RETENTION": "14m"}, 2, "INTERACTION_RETENTION must be a duration from 15 minutes to 3 days"},
		{"RetentionTooLong", []string{"help"}, "", map[string]string{"INTERACTION_RETENTION": "2562047h"}, 2, "INTERACTION_RETENTION must be a duration from 15 minutes to 3 days"},
		{"DatabaseTimeoutTooShort", []string{"help"}, "", map[string]string{"DATABASE_TIMEOUT": "10ms"}, 2, "DATABASE_TIMEOUT must be a duration from 1 second to 2 minutes, like 10s"},
		{"DatabaseTimeoutOK", []string{"play"}, "/nim start heaps:1 2 first:me\n", map[string]string{"DATABASE_TIMEOUT": "30s"}, 0, "@player1 to move"},
		{"GraceTooShort", []string{"help"}, "", map[string]string{"FORGET_AFTER_DEAUTHORIZE": "1m"}, 2, "FORGET_AFTER_DEAUTHORIZE must be a duration from 1 hour to 365 days, like 720h"},
		{"IdleTooShort", []string{"help"}, "", map[string]string{"FORGET_IDLE_SERVERS_AFTER": "24h"}, 2, "FORGET_IDLE_SERVERS_AFTER must be a duration from 30 days to 3650 days, like 8760h"},
		{"ForgetNeedsID", []string{"forget"}, "", nil, 2, "forget needs one USER_ID"},
		{"ForgetServerHelp", []string{"forget-server", "-h"}, "", nil, 0, "Usage: nimbot forget-server GUILD_ID"},
		{"AppIDNotANumber", []string{"help"}, "", map[string]string{"DISCORD_APP_ID": "MTE3.secret-looking"}, 2, "DISCORD_APP_ID must be the Application ID"},
		{"GuildIDNotANumber", []string{"help"}, "", map[string]string{"DEV_GUILD_ID": "my server"}, 2, "DEV_GUILD_ID must be a server's id"},
		{"NotPostgres", []string{"help"}, "", map[string]string{"DATABASE_URL": "mysql://nimbot:s3cret@db/nimbot"}, 2, "DATABASE_URL must be a PostgreSQL"},
		{"BackupPostgres", []string{"backup", filepath.Join(dir, "pg.db")}, "", map[string]string{"DATABASE_URL": "postgres://nimbot@127.0.0.1:9/nimbot"}, 1, "pg_dump"},
		{"BadLogLevel", []string{"help"}, "", map[string]string{"LOG_LEVEL": "loud"}, 2, "LOG_LEVEL"},
		{"ShardCountZero", nil, "", map[string]string{"SHARD_COUNT": "0"}, 2, "SHARD_COUNT must be a whole number from 1"},
		{"ShardCountWord", nil, "", map[string]string{"SHARD_COUNT": "four"}, 2, "SHARD_COUNT must be a whole number from 1"},
		{"ShardIDsNeedCount", nil, "", map[string]string{"SHARD_IDS": "0-1"}, 2, "SHARD_IDS needs SHARD_COUNT"},
		{"ShardIDPastCount", nil, "", map[string]string{"SHARD_COUNT": "4", "SHARD_IDS": "2-4"}, 2, "shard 4 does not exist"},
		{"ShardIDsBad", nil, "", map[string]string{"SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, 2, "not a shard id"},
		{"ShardIDTwice", nil, "", map[string]string{"SHARD_COUNT": "4", "SHARD_IDS": "0-2,1"}, 2, "shard 1 is listed twice"},
		{"ServeNeedsKey", []string{"serve"}, "", nil, 1, "DISCORD_PUBLIC_KEY"},
		{"ServeBadKey", []string{"serve"}, "", map[string]string{"DISCORD_PUBLIC_KEY": "abc"}, 1, "64 hex digits"},
		{"ServeKeyNotAPoint", []string{"serve"}, "", map[string]string{"DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32)}, 1, "does not decode to a point"},
		// The public key of RFC 8032's first test vector.
		{"ServeNeedsToken", []string{"serve"}, "", map[string]string{"DISCORD_PUBLIC_KEY": "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"}, 1, "DISCORD_TOKEN"},
		// Asking a subcommand for help is no error: each answers with its
		// usage and exit code 0, as "nimbot help" does.
		{"PlayHelp", []string{"play", "-h"}, "", nil, 0, "-lang"},
		{"PlayHelpLong", []string{"play", "--help"}, "", nil, 0, "Usage: nimbot play"},
		{"ServeHelp", []string{"serve", "-h"}, "", nil, 0, "Usage: nimbot serve"},
		{"BackupHelp", []string{"backup", "-h"}, "", nil, 0, "Usage: nimbot backup PATH"},
		{"AnalyzeHelp", []string{"analyze", "-h"}, "", nil, 0, "usage: analyze"},
		{"PlayUnknownFlag", []string{"play", "-x"}, "", nil, 2, "flag provided but not defined: -x"},
		{"ServeArguments", []string{"serve", "now"}, "", nil, 2, "serve takes no arguments"},
		{"Analyze", []string{"analyze", "3 4 5"}, "", nil, 0, "A2"},
		{"Play", []string{"play"}, "/nim start heaps:1 2 first:me\n", nil, 0, "@player1 to move"},
		{"PlayGerman", []string{"play", "-lang", "de"}, "/nim start heaps:1 2 first:me\n", nil, 0, "In diesem Kanal läuft schon ein Spiel"},
		{"PlayGermanEnv", []string{"play"}, "/nim start heaps:1 2 first:me\n", map[string]string{"NIMBOT_LANG": "de"}, 0, "In diesem Kanal läuft schon ein Spiel"},
		{"PlayBadLang", []string{"play", "-lang", "xx"}, "", nil, 2, `unknown language "xx"`},
		// After Play, which made the database.
		{"Backup", []string{"backup", filepath.Join(dir, "copy.db")}, "", nil, 0, "backed up"},
		{"BackupNoDatabase", []string{"backup", filepath.Join(dir, "none-copy.db")}, "", map[string]string{"DATABASE_PATH": filepath.Join(dir, "none.db")}, 1, "no database file"},
		// Input cut short by a line past the reader's limit is an error,
		// not a session that ran to the end.
		{"PlayLineTooLong", []string{"play"}, strings.Repeat("x", 1<<20) + "\n/nim status\n", nil, 1, "nimbot: terminal: stopped reading input"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"DISCORD_TOKEN", "DISCORD_APP_ID", "DISCORD_PUBLIC_KEY", "DEV_GUILD_ID",
				"DATABASE_SYNCHRONOUS", "DATABASE_URL", "HTTP_ADDR", "BOT_TURN_TIMEOUT", "PEOPLE_TURN_TIMEOUT", "LOG_LEVEL",
				"SHARD_COUNT", "SHARD_IDS", "NIMBOT_LANG", "INTERACTION_RETENTION", "DATABASE_TIMEOUT",
				"FORGET_AFTER_DEAUTHORIZE", "FORGET_IDLE_SERVERS_AFTER", "OPERATOR_NAME", "OPERATOR_CONTACT"} {
				t.Setenv(k, "")
			}
			t.Setenv("DATABASE_PATH", filepath.Join(dir, "nimbot.db"))
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			var out bytes.Buffer
			code := run(c.args, strings.NewReader(c.in), &out, &out)
			if code != c.code || !strings.Contains(out.String(), c.want) {
				t.Errorf("exit %d, want %d; output should contain %q:\n%s", code, c.code, c.want, out.String())
			}
			if strings.Contains(out.String(), "secret-looking") {
				t.Errorf("output quotes a setting that may be a secret:\n%s", out.String())
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "copy.db")); err != nil {
		t.Errorf("backup wrote no file: %v", err)
	}
	// "backup -h" once copied the database to a file named -h, here.
	if _, err := os.Stat("-h"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("backup -h wrote a file named -h: %v", err)
		os.Remove("-h")
	}
	// A backup of no database creates neither a database nor a copy.
	for _, name := range []string{"none.db", "none-copy.db"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("backup of a missing database left %s: %v", name, err)
		}
	}
}

// TestBackupOlderSchema is the backup before an upgrade: a newer nimbot's
// `backup` beside a file the previous release uses leaves the file at its
// schema (the running bot's), and the copy is the database as it was, which
// the previous release can restore.
func TestBackupOlderSchema(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "nimbot.db")
	raw, err := sql.Open("sqlite3", "file:"+live+"?_foreign_keys=on&_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	// The release before is the migration before the latest: the numbers
	// may have gaps.
	sources := p.ListSources()
	previous := sources[len(sources)-2].Version
	if _, err := p.UpTo(context.Background(), previous); err != nil {
		t.Fatal(err)
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"DATABASE_URL", "DATABASE_SYNCHRONOUS", "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS"} {
		t.Setenv(k, "")
	}
	t.Setenv("DATABASE_PATH", live)
	dest := filepath.Join(dir, "before-upgrade.db")
	var out bytes.Buffer
	if code := run([]string{"backup", dest}, nil, &out, &out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if want := fmt.Sprintf("at schema version %d, as it is", previous); !strings.Contains(out.String(), want) {
		t.Errorf("the output should say %q:\n%s", want, out.String())
	}
	if v := schemaVersion(t, live); v != previous {
		t.Errorf("backup migrated the live database from schema version %d to %d", previous, v)
	}
	if v := schemaVersion(t, dest); v != previous {
		t.Errorf("the backup is at schema version %d, not the database's %d as it was", v, previous)
	}
}

// schemaVersion reads the schema version of the SQLite file at path
// read-only, as another program would.
func schemaVersion(t *testing.T, path string) int64 {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int64
	if err := db.QueryRow(`SELECT max(version_id) FROM goose_db_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDatabaseURL: DATABASE_URL puts the games in PostgreSQL instead of the
// SQLite file: a game played in the terminal is in the database afterwards,
// no SQLite file appears, and a database that cannot be reached is said so
// without its password.
func TestDatabaseURL(t *testing.T) {
	url := pgtest.DB(t)
	dir := t.TempDir()
	for _, k := range []string{"DISCORD_TOKEN", "DISCORD_APP_ID", "DISCORD_PUBLIC_KEY", "DEV_GUILD_ID",
		"DATABASE_SYNCHRONOUS", "HTTP_ADDR", "BOT_TURN_TIMEOUT", "PEOPLE_TURN_TIMEOUT", "LOG_LEVEL"} {
		t.Setenv(k, "")
	}
	sqlite := filepath.Join(dir, "nimbot.db")
	t.Setenv("DATABASE_PATH", sqlite)
	t.Setenv("DATABASE_URL", url)
	var out bytes.Buffer
	if code := run([]string{"play"}, strings.NewReader("/nim start heaps:1 2 first:me\n"), &out, &out); code != 0 || !strings.Contains(out.String(), "@player1 to move") {
		t.Fatalf("play on PostgreSQL: exit %d\n%s", code, out.String())
	}
	if _, err := os.Stat(sqlite); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a SQLite file appeared with DATABASE_URL set: %v", err)
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var games int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM games`).Scan(&games); err != nil || games != 1 {
		t.Fatalf("%d games in PostgreSQL after one was started (%v)", games, err)
	}

	t.Setenv("DATABASE_URL", "postgres://nimbot:s3cret@127.0.0.1:9/nimbot?connect_timeout=5")
	out.Reset()
	if code := run([]string{"play"}, strings.NewReader(""), &out, &out); code != 1 || !strings.Contains(out.String(), "cannot connect") || strings.Contains(out.String(), "s3cret") {
		t.Errorf("an unreachable database: exit %d, want 1 with a message without the password:\n%s", code, out.String())
	}
}

// TestNoTokenLogged: a token from the environment never reaches the output,
// even when startup fails after reading it.
func TestNoTokenLogged(t *testing.T) {
	const token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.not-a-real-token"
	t.Setenv("DISCORD_TOKEN", token)
	t.Setenv("DISCORD_PUBLIC_KEY", "")
	t.Setenv("LOG_LEVEL", "debug")
	t.Setenv("DATABASE_PATH", filepath.Join(t.TempDir(), "nimbot.db"))
	var out bytes.Buffer
	if code := run([]string{"serve"}, strings.NewReader(""), &out, &out); code == 0 {
		t.Fatal("serve without a public key succeeded")
	}
	if strings.Contains(out.String(), token) {
		t.Errorf("output contains the token:\n%s", out.String())
	}
}

// TestDotenvSecrets: a .env that cannot be parsed stops nimbot (exit 1)
// with a message that says so and at which line, and shows nothing from
// the file: godotenv's own errors quote it from the bad line on, token and
// database password included.
func TestDotenvSecrets(t *testing.T) {
	const (
		token    = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.not-a-real-token-0123456789"
		password = "hunter2-not-a-real-password"
	)
	dbURL := "postgres://nimbot:" + password + "@db.example/nimbot"
	cases := []struct {
		name, env string
		want      string // in the output
	}{
		// Saved by an editor that writes a byte order mark: godotenv fails
		// on the first statement and quotes the whole file.
		{"BOM", "\ufeffDISCORD_TOKEN=" + token + "\nDATABASE_URL=" + dbURL + "\n", "byte order mark"},
		{"UnterminatedToken", "DISCORD_APP_ID=1170000000000000001\nDISCORD_TOKEN=\"" + token + "\n", "line 2"},
		{"UnterminatedAtEnd", "DISCORD_TOKEN=" + token + "\nDATABASE_URL=\"" + dbURL, "line 2"},
		{"UnterminatedURL", "# nimbot\n\nDATABASE_URL='" + dbURL + "\nDISCORD_TOKEN=" + token + "\n", "line 3"},
		// A line that is no setting, before the secrets: godotenv quotes
		// everything from it to the end of the file.
		{"NotASetting", "DISCORD_APP_ID=1170000000000000001\r\nthe token, then the database:\r\nDISCORD_TOKEN=" + token + "\r\nDATABASE_URL=" + dbURL + "\r\n", "line 2"},
		// A value may span lines in quotes: the line is the bad one's, not
		// where a quote first looks unclosed.
		{"AfterMultiline", "GREETING=\"one\ntwo\"\nDISCORD_TOKEN=" + token + "\n!\nDATABASE_URL=" + dbURL + "\n", "line 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(c.env), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			// Set (empty) so that a .env that did load could not leak into
			// the process: the environment wins over .env.
			t.Setenv("DISCORD_TOKEN", "")
			t.Setenv("DATABASE_URL", "")
			t.Setenv("DATABASE_PATH", filepath.Join(dir, "nimbot.db"))
			var out bytes.Buffer
			code := run([]string{"help"}, strings.NewReader(""), &out, &out)
			got := out.String()
			if code == 0 {
				t.Errorf("exit 0 with a .env that cannot be parsed:\n%s", got)
			}
			for _, secret := range []string{token, password, "GhIjKl", "hunter2", "postgres://"} {
				if strings.Contains(got, secret) {
					t.Errorf("the output shows %q from .env:\n%s", secret, got)
				}
			}
			if !strings.Contains(got, ".env") || !strings.Contains(got, c.want) {
				t.Errorf("the output should name .env and say %q:\n%s", c.want, got)
			}
		})
	}
}

// lockedBuffer is output shared with the goroutine running run.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serving is `nimbot serve`, as run wires it, running in a goroutine of
// the test, with its output.
type serving struct {
	out  lockedBuffer
	code chan int
}

// startServe runs serve as the environment configures it and waits until
// its /healthz on addr answers 200.
func startServe(t *testing.T, addr string) *serving {
	t.Helper()
	s := &serving{code: make(chan int, 1)}
	go func() { s.code <- run([]string{"serve"}, strings.NewReader(""), &s.out, &s.out) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		res, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve never became healthy: %v\n%s", err, s.out.String())
		}
	}
}

// stop sends the test process SIGTERM, which run's signal handler takes,
// and checks that serve exits 0 within 30 s.
func (s *serving) stop(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-s.code:
		if c != 0 {
			t.Errorf("exit %d after SIGTERM, want 0\n%s", c, s.out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not stop on SIGTERM\n%s", s.out.String())
	}
}

// TestServe runs `nimbot serve` as wired by main on loopback: it answers
// /healthz and a signed PING, and SIGTERM shuts it down cleanly (exit 0).
// Without DISCORD_APP_ID no Discord is contacted: no commands are
// registered, and with no games the scheduler has nothing to edit. With it,
// Discord's API is unreachable from here (no DNS): serve must answer all
// the same, retrying the registration and saying so in /healthz: the
// public one on HTTP_ADDR without the error's text, the operator's on
// HEALTH_ADDR with it.
func TestServe(t *testing.T) {
	t.Run("NoAppID", func(t *testing.T) { testServe(t, "") })
	t.Run("DiscordUnreachable", func(t *testing.T) { testServe(t, "1170000000000000001") })
}

func testServe(t *testing.T, appID string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	healthAddr := ln.Addr().String()
	ln.Close()
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, ed25519.SeedSize))
	const token = "serve-test-token.not-a-secret"
	for k, v := range map[string]string{
		"DISCORD_TOKEN": token, "DISCORD_APP_ID": appID, "DEV_GUILD_ID": "", "INTERACTION_RETENTION": "",
		"DISCORD_PUBLIC_KEY": hex.EncodeToString(priv.Public().(ed25519.PublicKey)),
		"DATABASE_PATH":      filepath.Join(t.TempDir(), "nimbot.db"), "DATABASE_SYNCHRONOUS": "",
		"HTTP_ADDR": addr, "HEALTH_ADDR": healthAddr, "LOG_LEVEL": "debug", "BOT_TURN_TIMEOUT": "", "PEOPLE_TURN_TIMEOUT": "",
		"OPERATOR_NAME": "Serve Operator", "OPERATOR_CONTACT": "",
	} {
		t.Setenv(k, v)
	}
	serve := startServe(t, addr)
	out := &serve.out
	base := "http://" + addr
	if appID != "" {
		// The registration keeps failing; /healthz shows it, still 200.
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			res, err := http.Get(base + "/healthz")
			if err != nil {
				t.Fatal(err)
			}
			health, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("healthz %d with only Discord away: %s", res.StatusCode, health)
			}
			if strings.Contains(string(health), `"name":"discord_commands","ok":false`) && strings.Contains(string(health), "retrying") {
				if !strings.Contains(string(health), `"error":"`+bot.PublicError+`"`) || strings.Contains(string(health), "discord.com") {
					t.Errorf("public healthz shows the registration's error: %s", health)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("healthz never showed the registration retrying: %s\n%s", health, out.String())
			}
		}
	}
	if appID != "" {
		res, err := http.Get("http://" + healthAddr + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		health, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(health), "discord.com") {
			t.Errorf("HEALTH_ADDR's healthz does not show the registration's error: %s", health)
		}
	}
	body := []byte(`{"id":"1","application_id":"2","type":1,"token":"t","version":1}`)
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, base+"/interactions", bytes.NewReader(body))
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(stamp), body...))))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	pong, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || strings.TrimSpace(string(pong)) != `{"type":1}` {
		t.Errorf("PING: %d %s", res.StatusCode, pong)
	}
	// The webhook events' PING, and the pages, with the operator's name.
	body = []byte(`{"version":1,"application_id":"2","type":0}`)
	req, _ = http.NewRequest(http.MethodPost, base+"/events", bytes.NewReader(body))
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(stamp), body...))))
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusNoContent {
		t.Errorf("webhook PING: %v %v", res.StatusCode, err)
	}
	for _, path := range []string{"/privacy", "/terms"} {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("Accept-Language", "fr-FR,fr;q=0.9")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(page), `lang="fr"`) || !strings.Contains(string(page), "Serve Operator") {
			t.Errorf("GET %s: %d\n%s", path, res.StatusCode, page)
		}
	}

	// run's signal handler is installed: the test process survives this.
	serve.stop(t)
	if strings.Contains(out.String(), token) {
		t.Errorf("output contains the token:\n%s", out.String())
	}
}

// TestSecondSignalKills: the first SIGTERM starts the orderly shutdown;
// if that hangs (Discord's API or the database not answering), a second
// one ends the process, as a second Ctrl+C does: it is no longer caught
// and swallowed. A child process (this test binary again) takes the
// signals: it waits on signalContext, then "hangs" in its shutdown.
func TestSecondSignalKills(t *testing.T) {
	if os.Getenv("NIMBOT_SIGNAL_CHILD") == "1" {
		ctx, stop := signalContext()
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("shutting down")
		time.Sleep(time.Minute) // a shutdown that hangs
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSignalKills$")
	cmd.Env = append(os.Environ(), "NIMBOT_SIGNAL_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	waitFor := func(want string) {
		t.Helper()
		for lines.Scan() {
			if lines.Text() == want {
				return
			}
		}
		t.Fatalf("the child never said %q", want)
	}
	waitFor("ready")
	cmd.Process.Signal(syscall.SIGTERM)
	waitFor("shutting down")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The handler is dropped just after the first signal was taken: send
	// again until the child ends, or give up.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case err := <-done:
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
				t.Fatalf("the child ended with %v, want killed by SIGTERM", err)
			}
			return
		case <-tick.C:
			cmd.Process.Signal(syscall.SIGTERM)
		case <-deadline:
			t.Fatal("a second SIGTERM during a hung shutdown was swallowed: the child still runs 5 s on")
		}
	}
}
