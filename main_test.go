package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
		{"BadLogLevel", []string{"help"}, "", map[string]string{"LOG_LEVEL": "loud"}, 2, "LOG_LEVEL"},
		{"ServeNeedsKey", []string{"serve"}, "", nil, 1, "DISCORD_PUBLIC_KEY"},
		{"ServeBadKey", []string{"serve"}, "", map[string]string{"DISCORD_PUBLIC_KEY": "abc"}, 1, "64 hex digits"},
		{"ServeNeedsToken", []string{"serve"}, "", map[string]string{"DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32)}, 1, "DISCORD_TOKEN"},
		{"Backup", []string{"backup", filepath.Join(dir, "copy.db")}, "", nil, 0, "backed up"},
		{"Analyze", []string{"analyze", "3 4 5"}, "", nil, 0, "A2"},
		{"Play", []string{"play"}, "/nim start heaps:1 2 first:me\n", nil, 0, "@player1 to move"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"DISCORD_TOKEN", "DISCORD_APP_ID", "DISCORD_PUBLIC_KEY", "DEV_GUILD_ID",
				"DATABASE_SYNCHRONOUS", "HTTP_ADDR", "BOT_TURN_TIMEOUT", "PEOPLE_TURN_TIMEOUT", "LOG_LEVEL"} {
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
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "copy.db")); err != nil {
		t.Errorf("backup wrote no file: %v", err)
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
