package postgres

import (
	"context"
	"reflect"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/internal/storetest"
)

// TestForgetIdleRaces: the idle sweep reads its list before forgetting,
// so a server whose game changed after the list was read is checked again
// and kept; a sweep that fails is due again at once, not a day later.
// Triggers play the other client: forgetting G touches K's game, as a
// move in K committed meanwhile would; then deleting a game fails.
func TestForgetIdleRaces(t *testing.T) {
	ctx := context.Background()
	var clock atomic.Int64
	clock.Store(storetest.Epoch.UnixMilli())
	db := mustOpen(t, func() time.Time { return time.UnixMilli(clock.Load()).UTC() })
	exec := func(query string) {
		t.Helper()
		if _, err := db.pool.Exec(ctx, query); err != nil {
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

	exec(`CREATE FUNCTION touch_k() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
		UPDATE games SET updated_at = ` + strconv.FormatInt(now.UnixMilli(), 10) + ` WHERE guild_id = '` + guildK + `';
		RETURN OLD; END $$`)
	exec(`CREATE TRIGGER touch_k AFTER DELETE ON games FOR EACH ROW WHEN (OLD.guild_id = '` + guildG + `') EXECUTE FUNCTION touch_k()`)
	if done, err := db.ForgetIdle(ctx, now, before, 10); err != nil || !reflect.DeepEqual(done, []string{guildG}) {
		t.Fatalf("ForgetIdle with K played in meanwhile: %v, %v; want G alone", done, err)
	}
	exec(`DROP TRIGGER touch_k ON games`)
	if _, err := db.ChannelGame(ctx, "k1"); err != nil {
		t.Fatalf("K's game: %v", err)
	}

	later := now.Add(24 * month)
	exec(`CREATE FUNCTION stop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'stopped'; END $$`)
	exec(`CREATE TRIGGER stop BEFORE DELETE ON games FOR EACH ROW EXECUTE FUNCTION stop()`)
	if done, err := db.ForgetIdle(ctx, later, later.Add(-month), 10); err == nil || len(done) != 0 {
		t.Fatalf("ForgetIdle that cannot delete: %v, %v; want an error", done, err)
	}
	exec(`DROP TRIGGER stop ON games`)
	if done, err := db.ForgetIdle(ctx, later.Add(time.Minute), later.Add(-month), 10); err != nil || !reflect.DeepEqual(done, []string{guildK}) {
		t.Fatalf("ForgetIdle after a failed sweep: %v, %v; want K", done, err)
	}
}
