package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"nimbot/engine"
	"nimbot/match"
	"nimbot/store"
)

// TestForget: `nimbot forget` and `nimbot forget-server` delete what the
// database holds, say what they did, and the second run changes nothing;
// a malformed id changes nothing and exits 2.
func TestForget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nimbot.db")
	for _, k := range []string{"DATABASE_URL", "DATABASE_SYNCHRONOUS", "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS"} {
		t.Setenv(k, "")
	}
	t.Setenv("DATABASE_PATH", path)
	const user, other, guild = "800000000000000001", "800000000000000002", "900000000000000001"
	ctx := context.Background()
	db, err := store.Open(ctx, store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	for i, players := range [][2]string{{user, other}, {other, match.BotID}} {
		g := &match.Game{GuildID: guild, ChannelID: "c" + string(rune('0'+i)), Rules: engine.Rules{Variant: engine.Nim},
			Start: engine.Position{Heaps: []int64{1}}, Players: players, Status: match.Active, CreatedBy: players[0]}
		if err := db.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, From: match.Active, Moves: []engine.Move{{Kind: engine.Take, Heap: 0, Take: 1}},
			Position: engine.Position{Heaps: []int64{0}}, Status: match.Won, Winner: players[0]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"forget", "bob"}, 2, `"bob" is not a Discord id`},
		{[]string{"forget-server", "1"}, 2, `"1" is not a Discord id`},
		// 16 digits: no Discord id is that short, and it is inside others.
		{[]string{"forget", "8000000000000000"}, 2, `"8000000000000000" is not a Discord id`},
		{[]string{"forget"}, 2, "forget needs one USER_ID"},
		{[]string{"forget-server", "1", "2"}, 2, "forget-server needs one GUILD_ID"},
		{[]string{"forget", "-h"}, 0, "Usage: nimbot forget USER_ID"},
		{[]string{"forget", user}, 0, "forgot user " + user + ": 0 games deleted, 0 games in progress ended without a result, 1 finished games kept"},
		{[]string{"forget", user}, 0, "nimbot holds nothing about user " + user},
		{[]string{"forget-server", guild}, 0, "forgot server " + guild + ": 2 games deleted"},
		{[]string{"forget-server", guild}, 0, "nimbot holds nothing about server " + guild},
	} {
		var out bytes.Buffer
		if code := run(c.args, strings.NewReader(""), &out, &out); code != c.code || !strings.Contains(out.String(), c.want) {
			t.Errorf("%q: exit %d, want %d, saying %q:\n%s", c.args, code, c.code, c.want, out.String())
		}
	}
	db, err = store.Open(ctx, store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if held, err := db.Holdings(ctx, other); err != nil || len(held) != 0 {
		t.Errorf("after forget-server, other's holdings: %+v, %v", held, err)
	}
}
