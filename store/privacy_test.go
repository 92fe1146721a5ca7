package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/internal/storetest"
	"nimbot/store"
)

// TestForgetIdleRaces: the idle sweep reads its list outside the writer,
// so a server whose game changed after the list was read is checked again
// and kept; a sweep that fails is due again at once, not a day later.
// Triggers play the other client: forgetting G touches K's game, as a
// move in K committed meanwhile would; then deleting a game fails.
func TestForgetIdleRaces(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nimbot.db")
	var clock atomic.Int64
	clock.Store(storetest.Epoch.UnixMilli())
	db, err := store.Open(ctx, store.Config{Path: path, Now: func() time.Time { return time.UnixMilli(clock.Load()).UTC() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	exec := func(query string) {
		t.Helper()
		if _, err := other.ExecContext(ctx, query); err != nil {
			t.Fatal(err)
		}
	}
	const guildG, guildK = "900000000000000001", "900000000000000003"
	for channel, guild := range map[string]string{"g1": guildG, "k1": guildK} {
		g := storetest.NewGame(channel, [2]string{"800000000000000001", "800000000000000002"}, 3)
		g.GuildID = guild
		storetest.Play(t, db, storetest.MustCreate(t, db, g), storetest.Take(0, 1))
	}
	month := 30 * 24 * time.Hour
	now := storetest.Epoch.Add(13 * month)
	before := now.Add(-12 * month)

	exec(`CREATE TRIGGER touch_k AFTER DELETE ON games WHEN OLD.guild_id = '` + guildG + `'
		BEGIN UPDATE games SET updated_at = ` + itoa(now.UnixMilli()) + ` WHERE guild_id = '` + guildK + `'; END`)
	if done, err := db.ForgetIdle(ctx, now, before, 10); err != nil || !reflect.DeepEqual(done, []string{guildG}) {
		t.Fatalf("ForgetIdle with K played in meanwhile: %v, %v; want G alone", done, err)
	}
	exec(`DROP TRIGGER touch_k`)
	if _, err := db.ChannelGame(ctx, "k1"); err != nil {
		t.Fatalf("K's game: %v", err)
	}

	later := now.Add(24 * month)
	exec(`CREATE TRIGGER stop BEFORE DELETE ON games BEGIN SELECT RAISE(ABORT, 'stopped'); END`)
	if done, err := db.ForgetIdle(ctx, later, later.Add(-month), 10); err == nil || len(done) != 0 {
		t.Fatalf("ForgetIdle that cannot delete: %v, %v; want an error", done, err)
	}
	exec(`DROP TRIGGER stop`)
	if done, err := db.ForgetIdle(ctx, later.Add(time.Minute), later.Add(-month), 10); err != nil || !reflect.DeepEqual(done, []string{guildK}) {
		t.Fatalf("ForgetIdle after a failed sweep: %v, %v; want K", done, err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
