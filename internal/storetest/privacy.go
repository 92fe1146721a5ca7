package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// Finder lists every place in the database that holds needle: each
// "table.column" of a row whose value contains it. An implementation reads
// the tables and columns from the database's own catalog, not from a list,
// so that a table added later is searched too.
type Finder func(ctx context.Context, needle string) ([]string, error)

// Database is what the privacy suite reads of a store's database
// directly, from the database's own catalog.
type Database struct {
	// Find lists every place that holds a needle.
	Find Finder
	// Tables lists the database's tables, the migrations' own included.
	Tables func(ctx context.Context) ([]string, error)
	// Exec runs one statement without parameters, written alike in both
	// dialects, as another client of the database: what a concurrent
	// transaction would have committed.
	Exec func(ctx context.Context, query string) error
	// Lock begins another client's transaction that holds the lock a
	// forgetting needs (SQLite's write lock; PostgreSQL's on the saved
	// answers), until release.
	Lock func(ctx context.Context) (release func(), err error)
}

// PrivacyOpener returns a new, empty store whose clock is now, and its
// Database; both are closed when t ends.
type PrivacyOpener func(t *testing.T, now func() time.Time) (match.Storage, Database)

// privacyTables are the tables the suite knows, and what each holds of
// people. A table added to either schema fails EveryTableKnown until it
// is added here: if it can hold a user's or a server's id, ForgetUser and
// ForgetGuild must delete it (or put Tombstone in its place) and build
// must fill it, so that the scans see forgetting reach it.
var privacyTables = map[string]string{
	"games":            "players, creators, channels and servers: build fills it",
	"moves":            "players: build fills it",
	"hints":            "who asked: build fills it",
	"results":          "winners, losers, servers: build fills it",
	"stats":            "users per server: build fills it",
	"bot_record":       "users per server: build fills it",
	"interactions":     "saved answers keyed by user and naming them: build fills it",
	"forget_requests":  "users to forget, or who authorized lately: ForgetDue and CancelForget fill it",
	"puzzle_players":   "users' puzzle ratings: build fills it",
	"puzzle_attempts":  "users' attempts per server: build fills it",
	"puzzle_members":   "users per puzzle board: build fills it",
	"puzzle_ratings":   "no one: each puzzle's rating",
	"lesson_progress":  "users' lessons: build fills it",
	"daily_channels":   "who subscribed a channel, and its server: build fills it",
	"sweeps":           "no one: when a sweep is next due",
	"game_ids":         "no one: the largest game id (SQLite)",
	"heartbeat":        "no one: the health check's last write",
	"goose_db_version": "no one: the migrations applied",
}

// Ids of the privacy suite: snowflakes, so that nothing else in a row
// (a time, a game id) can contain one by chance.
const (
	alice  = "800000000000000001" // the user who asks to be forgotten
	bob    = "800000000000000002"
	carol  = "800000000000000003"
	guildG = "900000000000000001" // the server forgotten
	guildH = "900000000000000002"
)

// RunPrivacy runs the contract's privacy tests (match.Privacy) against
// the implementation open returns.
func RunPrivacy(t *testing.T, open PrivacyOpener) {
	t.Run("ForgetUser", func(t *testing.T) { testForgetUser(t, open) })
	t.Run("ForgetGuild", func(t *testing.T) { testForgetGuild(t, open) })
	t.Run("ForgetDue", func(t *testing.T) { testForgetDue(t, open) })
	t.Run("ForgetIdle", func(t *testing.T) { testForgetIdle(t, open) })
	t.Run("ErrInvalid", func(t *testing.T) { testPrivacyInvalid(t, open) })
	t.Run("EveryTableKnown", func(t *testing.T) {
		_, d := open(t, Clock())
		tables, err := d.Tables(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(tables) < 5 {
			t.Fatalf("tables %v: not nimbot's schema", tables)
		}
		for _, table := range tables {
			if _, ok := privacyTables[table]; !ok {
				t.Errorf("table %s is new to the privacy suite: see privacyTables", table)
			}
		}
	})
}

// clockAt is a clock tests set by hand.
type clockAt struct{ ms atomic.Int64 }

func newClockAt(t time.Time) *clockAt { c := &clockAt{}; c.set(t); return c }
func (c *clockAt) set(t time.Time)    { c.ms.Store(t.UnixMilli()) }
func (c *clockAt) now() time.Time     { return time.UnixMilli(c.ms.Load()).UTC() }

// world is the privacy suite's data: games, records, hints and saved
// answers of alice, bob and carol in servers G and H and a DM, and
// everything needed to check what forgetting leaves.
type world struct {
	s match.Storage
	// games by name.
	games map[string]*match.Game
	// answers are saved answers by interaction id.
	answers map[string][]byte
}

// finishIn plays a one-heap game in guild between players, won by the
// first (a decided, and between people rated, result), with hint asked by
// the first player and the move's answer saved as answer.
func (w *world) finishIn(tb testing.TB, name, guild, channel string, players [2]string, difficulty engine.Difficulty, answer string) {
	tb.Helper()
	ctx := context.Background()
	g := NewGame(channel, players, 1)
	g.GuildID, g.Difficulty = guild, difficulty
	MustCreate(tb, w.s, g)
	if players[0] != match.BotID {
		if _, err := w.s.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 0, UserID: players[0]}); err != nil {
			tb.Fatal(err)
		}
	}
	c, err := Change(g, Take(0, 1))
	if err != nil {
		tb.Fatal(err)
	}
	c.InteractionID, c.Response = "i-"+name, []byte(answer)
	if w.games[name], err = w.s.Commit(ctx, c); err != nil {
		tb.Fatal(err)
	}
	w.answers[c.InteractionID] = c.Response
}

// live creates a game in progress (one move played), or with status
// Pending a challenge waiting.
func (w *world) live(tb testing.TB, name, guild, channel string, players [2]string, status match.Status) {
	tb.Helper()
	g := NewGame(channel, players, 3, 4, 5)
	g.GuildID, g.Status = guild, status
	MustCreate(tb, w.s, g)
	if status == match.Active {
		g = Play(tb, w.s, g, Take(2, 1))
	}
	w.games[name] = g
}

// build fills s with the suite's data.
func build(tb testing.TB, s match.Storage) *world {
	tb.Helper()
	w := &world{s: s, games: map[string]*match.Game{}, answers: map[string][]byte{}}
	mention := func(id string) string { return fmt.Sprintf(`{"content":"\u003c@%s\u003e won"}`, id) }
	w.finishIn(tb, "aliceBeatsBob", guildG, "g1", [2]string{alice, bob}, "", mention(alice))
	w.finishIn(tb, "bobBeatsAlice", guildG, "g2", [2]string{bob, alice}, "", mention(bob))
	w.finishIn(tb, "aliceBeatsBot", guildG, "g3", [2]string{alice, match.BotID}, engine.Hard, mention(alice))
	w.finishIn(tb, "bobBeatsCarol", guildG, "g4", [2]string{bob, carol}, "", mention(bob))
	w.finishIn(tb, "carolBeatsAliceInH", guildH, "h1", [2]string{carol, alice}, "", "https://discord.com/channels/"+guildH+"/h1/1")
	w.finishIn(tb, "bobBeatsCarolInH", guildH, "h2", [2]string{bob, carol}, "", mention(bob))
	w.live(tb, "aliceVsCarolInH", guildH, "h3", [2]string{alice, carol}, match.Active)
	w.live(tb, "aliceChallengesInDM", "", "dm1", [2]string{alice, ""}, match.Pending)
	w.live(tb, "bobVsCarolLive", guildG, "g5", [2]string{bob, carol}, match.Active)
	// Answers are saved under keys that name who sent them (commands'
	// AnswerKey: id/user/channel/type), whatever they say.
	for id, answer := range map[string]string{"save-alice": `{"content":"hint for <@` + alice + `>"}`, "save-bob": mention(bob),
		"1300000000000000001/" + alice + "/g1/2": "a hint", "1300000000000000002/" + bob + "/g1/2": "a hint"} {
		if err := s.SaveResponse(context.Background(), id, []byte(answer)); err != nil {
			tb.Fatal(err)
		}
		w.answers[id] = []byte(answer)
	}
	// Puzzles, lessons and daily subscriptions, in both servers.
	for i, who := range []string{alice, bob, carol} {
		for j, scope := range []string{guildG, guildH} {
			if _, err := s.RecordPuzzleAttempt(context.Background(), match.PuzzleAttempt{AttemptKey: fmt.Sprintf("attempt-%d-%d", i, j),
				UserID: who, Scope: scope, PuzzleID: "nimsum.1." + fmt.Sprint(j), Theme: engine.ThemeNimSum, Initial: match.NewGlicko(),
				Solved: i != 1, Rated: true}); err != nil {
				tb.Fatal(err)
			}
		}
		if err := s.AdvanceLesson(context.Background(), who, "nimsum", 2); err != nil {
			tb.Fatal(err)
		}
	}
	for channel, sub := range map[string][2]string{"g1": {guildG, alice}, "h1": {guildH, alice}, "h2": {guildH, bob}} {
		if err := s.SubscribeDaily(context.Background(), match.DailyChannel{ChannelID: channel, GuildID: sub[0], UserID: sub[1], Locale: "en-US"}, "", nil); err != nil {
			tb.Fatal(err)
		}
	}
	return w
}

// snapshot is everything about the people who stay that forgetting
// someone else must leave as it was.
type snapshot struct {
	Stats   map[string]match.Stats
	Boards  map[string][]match.Stats
	Games   map[string]*match.Game
	Answers map[string][]byte
	Puzzles map[string]match.PuzzleStats
}

// take reads a snapshot: the stats of who in scopes, the scopes'
// leaderboards with forgotten left out, the games named and the saved
// answers with ids.
func take(tb testing.TB, s match.Storage, forgotten string, who, scopes, games, answers []string, w *world) snapshot {
	tb.Helper()
	ctx := context.Background()
	snap := snapshot{Stats: map[string]match.Stats{}, Boards: map[string][]match.Stats{}, Games: map[string]*match.Game{}, Answers: map[string][]byte{}, Puzzles: map[string]match.PuzzleStats{}}
	for _, u := range who {
		p, err := s.PuzzleStats(ctx, u)
		if err != nil {
			tb.Fatal(err)
		}
		snap.Puzzles[u] = p
	}
	for _, scope := range scopes {
		for _, v := range []engine.Variant{"", engine.Nim} {
			for _, u := range who {
				st, err := s.Stats(ctx, scope, u, v)
				if err != nil {
					tb.Fatal(err)
				}
				snap.Stats[scope+"/"+u+"/"+string(v)] = st
			}
			board, err := s.Leaderboard(ctx, scope, v, 25)
			if err != nil {
				tb.Fatal(err)
			}
			board = slices.DeleteFunc(board, func(st match.Stats) bool { return st.UserID == forgotten })
			snap.Boards[scope+"/"+string(v)] = board
		}
	}
	for _, name := range games {
		g, err := s.Game(ctx, w.games[name].ID)
		if err != nil {
			tb.Fatal(err)
		}
		snap.Games[name] = g
	}
	for _, id := range answers {
		a, err := s.Response(ctx, id)
		if err != nil {
			tb.Fatal(err)
		}
		snap.Answers[id] = a
	}
	return snap
}

// mustFind runs find and fails tb if anything names needle.
func mustFindNothing(tb testing.TB, find Finder, needle string) {
	tb.Helper()
	where, err := find(context.Background(), needle)
	if err != nil {
		tb.Fatal(err)
	}
	if len(where) > 0 {
		tb.Errorf("%s is still in %v", needle, where)
	}
}

func testForgetUser(t *testing.T, open PrivacyOpener) {
	ctx := context.Background()
	s, d := open(t, Clock())
	find := d.Find
	w := build(t, s)
	if where, err := find(ctx, alice); err != nil || len(where) == 0 {
		t.Fatalf("before forgetting, the finder finds alice nowhere (%v): it cannot tell anything", err)
	}

	held, err := s.Holdings(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	want := []match.Holding{
		{Scope: "", Answers: 4, Learning: 2},
		{Scope: guildG, Games: 3, Moves: 2, Hints: 2, Records: 4, Puzzles: 1},
		{Scope: guildH, Games: 2, Moves: 1, Records: 2, Puzzles: 1},
		{Scope: "dm:dm1", Games: 1},
	}
	sortByScope := func(h []match.Holding) {
		slices.SortFunc(h, func(a, b match.Holding) int { return compareStrings(a.Scope, b.Scope) })
	}
	sortByScope(want)
	if !reflect.DeepEqual(held, want) {
		t.Errorf("Holdings(alice):\n%+v\nwant\n%+v", held, want)
	}

	// An id that is part of alice's (a shorter snowflake) is nobody here:
	// forgetting looks for whole ids only.
	if held, err := s.Holdings(ctx, alice[:17]); err != nil || len(held) != 0 {
		t.Errorf("Holdings(%s), a part of alice's id: %+v, %v", alice[:17], held, err)
	}
	if f, err := s.ForgetUser(ctx, alice[:17]); err != nil || !f.Zero() {
		t.Errorf("ForgetUser(%s), a part of alice's id: %+v, %v", alice[:17], f, err)
	}

	others := []string{bob, carol}
	scopes := []string{guildG, guildH}
	kept := []string{"bobBeatsCarol", "bobBeatsCarolInH", "bobVsCarolLive"}
	keptAnswers := []string{"i-bobBeatsAlice", "i-bobBeatsCarol", "i-bobBeatsCarolInH", "save-bob", "1300000000000000002/" + bob + "/g1/2"}
	before := take(t, s, alice, others, scopes, kept, keptAnswers, w)

	// A move that ended alice's live game in H committed its result while
	// the forgetting began (PostgreSQL's snapshot still saw the game
	// live): the forgetting keeps that result rather than fail.
	if err := d.Exec(ctx, `INSERT INTO results (game_id, guild_id, variant, status, winner, loser, difficulty, plies, rating_delta, finished_at)
		SELECT id, guild_id, variant, 'ended', '', '', difficulty, ply, 0, 0 FROM games WHERE channel_id = 'h3'`); err != nil {
		t.Fatal(err)
	}
	f, err := s.ForgetUser(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	// Records: 4 game records, 2 against nimbot, 2 puzzle attempts, the
	// puzzle rating and the lesson.
	wantF := match.Forgotten{Ended: 2, Deleted: 2, Anonymized: 4, Records: 10, Hints: 2, Answers: 4}
	if f != wantF {
		t.Errorf("ForgetUser: %+v, want %+v", f, wantF)
	}
	mustFindNothing(t, find, alice)
	if after := take(t, s, alice, others, scopes, kept, keptAnswers, w); !reflect.DeepEqual(after, before) {
		t.Errorf("forgetting alice changed the others':\n%+v\nwas\n%+v", after, before)
	}
	if held, err := s.Holdings(ctx, alice); err != nil || len(held) != 0 {
		t.Errorf("Holdings after forgetting: %+v, %v", held, err)
	}

	t.Run("NothingHeldLocksNothing", func(t *testing.T) {
		// A repeated request (a forged confirmation, clicked again and
		// again) finds nothing without waiting for the writer every move
		// waits for.
		release, err := d.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		short, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if f, err := s.ForgetUser(short, alice); err != nil || !f.Zero() {
			t.Errorf("ForgetUser of a forgotten user while another holds the lock: %+v, %v", f, err)
		}
	})

	t.Run("Anonymized", func(t *testing.T) {
		for name, seat := range map[string]int{"aliceBeatsBob": 0, "bobBeatsAlice": 1, "carolBeatsAliceInH": 1} {
			g, err := s.Game(ctx, w.games[name].ID)
			if err != nil {
				t.Fatal(err)
			}
			old := w.games[name]
			if g.Players[seat] != match.Tombstone || g.Players[1-seat] != old.Players[1-seat] || g.Status != old.Status {
				t.Errorf("%s: players %q, status %s", name, g.Players, g.Status)
			}
			if (old.Winner == alice) != (g.Winner == match.Tombstone) {
				t.Errorf("%s: winner %q, was %q", name, g.Winner, old.Winner)
			}
			CheckGame(t, s, g.ID)
		}
	})
	t.Run("EndedWithoutResult", func(t *testing.T) {
		g, err := s.Game(ctx, w.games["aliceVsCarolInH"].ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != match.Ended || g.Winner != "" || !g.Deadline.IsZero() || g.Players != [2]string{match.Tombstone, carol} {
			t.Errorf("the live game: %+v", g)
		}
		if _, err := s.ChannelGame(ctx, "h3"); !errors.Is(err, match.ErrNotFound) {
			t.Errorf("channel h3 still has a live game: %v", err)
		}
	})
	t.Run("Deleted", func(t *testing.T) {
		for _, name := range []string{"aliceBeatsBot", "aliceChallengesInDM"} {
			if _, err := s.Game(ctx, w.games[name].ID); !errors.Is(err, match.ErrNotFound) {
				t.Errorf("%s: %v, want ErrNotFound", name, err)
			}
		}
	})
	t.Run("Again", func(t *testing.T) {
		f, err := s.ForgetUser(ctx, alice)
		if err != nil || !f.Zero() {
			t.Errorf("a second ForgetUser: %+v, %v", f, err)
		}
		if after := take(t, s, alice, others, scopes, kept, keptAnswers, w); !reflect.DeepEqual(after, before) {
			t.Errorf("a second forgetting changed the others'")
		}
		mustFindNothing(t, find, alice)
	})
	t.Run("BobToo", func(t *testing.T) {
		// The tombstone is no one: forgetting bob, who played the
		// forgotten alice, deletes those games, since nobody is left in them.
		if _, err := s.ForgetUser(ctx, bob); err != nil {
			t.Fatal(err)
		}
		mustFindNothing(t, find, bob)
		for _, name := range []string{"aliceBeatsBob", "bobBeatsAlice"} {
			if _, err := s.Game(ctx, w.games[name].ID); !errors.Is(err, match.ErrNotFound) {
				t.Errorf("%s: %v, want ErrNotFound", name, err)
			}
		}
		if st, err := s.Stats(ctx, guildH, carol, ""); err != nil || !reflect.DeepEqual(st, before.Stats[guildH+"/"+carol+"/"]) {
			t.Errorf("carol in H after forgetting bob: %+v", st)
		}
	})
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func testForgetGuild(t *testing.T, open PrivacyOpener) {
	ctx := context.Background()
	s, d := open(t, Clock())
	find := d.Find
	w := build(t, s)
	if where, err := find(ctx, guildG); err != nil || len(where) == 0 {
		t.Fatalf("before forgetting, the finder finds G nowhere (%v)", err)
	}
	kept := []string{"carolBeatsAliceInH", "bobBeatsCarolInH", "aliceVsCarolInH", "aliceChallengesInDM"}
	keptAnswers := []string{"i-carolBeatsAliceInH", "i-bobBeatsCarolInH", "save-alice"}
	before := take(t, s, "", []string{alice, bob, carol}, []string{guildH}, kept, keptAnswers, w)

	f, err := s.ForgetGuild(ctx, guildG)
	if err != nil {
		t.Fatal(err)
	}
	if f.Deleted != 5 || f.Answers != 4 || f.Records == 0 {
		t.Errorf("ForgetGuild: %+v, want 5 games and 4 answers deleted", f)
	}
	mustFindNothing(t, find, guildG)
	if after := take(t, s, "", []string{alice, bob, carol}, []string{guildH}, kept, keptAnswers, w); !reflect.DeepEqual(after, before) {
		t.Errorf("forgetting G changed H:\n%+v\nwas\n%+v", after, before)
	}
	for _, name := range []string{"aliceBeatsBob", "bobVsCarolLive"} {
		if _, err := s.Game(ctx, w.games[name].ID); !errors.Is(err, match.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
	}
	if board, err := s.Leaderboard(ctx, guildG, "", 25); err != nil || len(board) != 0 {
		t.Errorf("G's leaderboard: %+v, %v", board, err)
	}
	if f, err := s.ForgetGuild(ctx, guildG); err != nil || !f.Zero() {
		t.Errorf("a second ForgetGuild: %+v, %v", f, err)
	}
	mustFindNothing(t, find, guildG)
	// The channel is free again.
	MustCreate(t, s, NewGame("g5", [2]string{bob, carol}, 1))
}

func testForgetDue(t *testing.T, open PrivacyOpener) {
	ctx := context.Background()
	clock := newClockAt(Epoch)
	s, d := open(t, clock.now)
	find := d.Find
	build(t, s)
	grace := 30 * 24 * time.Hour
	due := Epoch.Add(grace)
	ev := Epoch.Add(time.Minute) // Discord's time of the first event
	if err := s.ScheduleForget(ctx, alice, ev, due); err != nil {
		t.Fatal(err)
	}
	// The same event again (Discord retries it) keeps the first time.
	if err := s.ScheduleForget(ctx, alice, ev, due.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if done, err := s.ForgetDue(ctx, due.Add(-time.Millisecond), 10); err != nil || len(done) != 0 {
		t.Fatalf("ForgetDue before the grace period ends: %v, %v", done, err)
	}
	// Authorizing again cancels it.
	if err := s.CancelForget(ctx, alice, ev.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelForget(ctx, alice, ev.Add(time.Minute)); err != nil {
		t.Fatalf("cancelling nothing: %v", err)
	}
	// The deauthorization retried, arriving after the authorization it
	// came before, changes nothing.
	if err := s.ScheduleForget(ctx, alice, ev, due); err != nil {
		t.Fatal(err)
	}
	if done, err := s.ForgetDue(ctx, due.Add(time.Hour), 10); err != nil || len(done) != 0 {
		t.Fatalf("ForgetDue after a cancel: %v, %v", done, err)
	}
	if held, _ := s.Holdings(ctx, alice); len(held) == 0 {
		t.Fatal("alice was forgotten although she authorized again")
	}

	// Removed again later: an authorization older than that, arriving
	// late, does not cancel it.
	if err := s.ScheduleForget(ctx, alice, ev.Add(3*time.Minute), due); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelForget(ctx, alice, ev.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.ScheduleForget(ctx, carol, ev.Add(3*time.Minute), due.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// Bob removed nimbot from his account but plays on in a server: he is
	// not forgotten, and his request is dropped.
	if err := s.ScheduleForget(ctx, bob, ev, due); err != nil {
		t.Fatal(err)
	}
	clock.set(ev.Add(time.Hour))
	g := NewGame("b1", [2]string{bob, match.BotID}, 3)
	g.GuildID = guildG
	Play(t, s, MustCreate(t, s, g), Take(0, 1))
	// Several callers at once (instances): each due user is forgotten by
	// one of them, once.
	var mu sync.Mutex
	var all []string
	atOnce(3, func(int) func() {
		return func() {
			done, err := s.ForgetDue(ctx, due, 10)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			all = append(all, done...)
			mu.Unlock()
		}
	})
	if !reflect.DeepEqual(all, []string{alice}) {
		t.Errorf("ForgetDue at once, three times: forgot %v, want alice once", all)
	}
	mustFindNothing(t, find, alice)
	if done, err := s.ForgetDue(ctx, due.Add(2*time.Hour), 10); err != nil || !reflect.DeepEqual(done, []string{carol}) {
		t.Errorf("ForgetDue later: %v, %v; want carol", done, err)
	}
	mustFindNothing(t, find, carol)
	if held, _ := s.Holdings(ctx, bob); len(held) == 0 {
		t.Error("bob, who played after removing nimbot, was forgotten")
	}
}

func testForgetIdle(t *testing.T, open PrivacyOpener) {
	ctx := context.Background()
	clock := newClockAt(Epoch)
	s, d := open(t, clock.now)
	find := d.Find
	game := func(guild, channel string) {
		t.Helper()
		g := NewGame(channel, [2]string{alice, bob}, 1)
		g.GuildID = guild
		Play(t, s, MustCreate(t, s, g), Take(0, 1))
	}
	const guildK = "900000000000000003"
	game(guildG, "g1")
	game(guildK, "k1")
	month := 30 * 24 * time.Hour
	clock.set(Epoch.Add(6 * month))
	game(guildH, "h1")
	now := Epoch.Add(13 * month)
	idle := now.Add(-12 * month) // G and K went quiet before it, H after

	done, err := s.ForgetIdle(ctx, now, idle, 1)
	if err != nil || !reflect.DeepEqual(done, []string{guildG}) {
		t.Fatalf("ForgetIdle, limit 1: %v, %v; want G", done, err)
	}
	// A sweep cut short by its limit carries on at the next call.
	if done, err = s.ForgetIdle(ctx, now, idle, 1); err != nil || !reflect.DeepEqual(done, []string{guildK}) {
		t.Fatalf("ForgetIdle, carrying on: %v, %v; want K", done, err)
	}
	// Of several instances sweeping at once, one does: L is forgotten
	// once.
	const guildL = "900000000000000004"
	clock.set(Epoch)
	game(guildL, "l1")
	var mu sync.Mutex
	var all []string
	atOnce(3, func(int) func() {
		return func() {
			done, err := s.ForgetIdle(ctx, now, idle, 10)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			all = append(all, done...)
			mu.Unlock()
		}
	})
	if !reflect.DeepEqual(all, []string{guildL}) {
		t.Errorf("three sweeps at once forgot %v, want L once", all)
	}
	// A complete sweep is not run again for a day: H, idle by now's
	// measure, stays until then.
	if done, err := s.ForgetIdle(ctx, now.Add(match.IdleSweepEvery-time.Millisecond), now, 10); err != nil || done != nil {
		t.Errorf("ForgetIdle within the day: %v, %v", done, err)
	}
	mustFindNothing(t, find, guildG)
	mustFindNothing(t, find, guildK)
	mustFindNothing(t, find, guildL)
	if where, err := find(ctx, guildH); err != nil || len(where) == 0 {
		t.Errorf("H, active, was forgotten (%v)", err)
	}
	// A day later H, quiet since, goes too.
	if done, err := s.ForgetIdle(ctx, now.Add(match.IdleSweepEvery), now, 10); err != nil || !reflect.DeepEqual(done, []string{guildH}) {
		t.Errorf("ForgetIdle a day later: %v, %v; want H", done, err)
	}
}

func testPrivacyInvalid(t *testing.T, open PrivacyOpener) {
	ctx := context.Background()
	s, _ := open(t, Clock())
	build(t, s)
	// A short number would be found inside every id and answer.
	for _, id := range []string{"", match.BotID, match.Tombstone, "7", "8000000000000001", alice + "0000", "-80000000000000001"} {
		if _, err := s.ForgetUser(ctx, id); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("ForgetUser(%q): %v", id, err)
		}
		if err := s.ScheduleForget(ctx, id, Epoch, Epoch); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("ScheduleForget(%q): %v", id, err)
		}
		if _, err := s.Holdings(ctx, id); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("Holdings(%q): %v", id, err)
		}
	}
	for _, id := range []string{"", "dm:dm1", "9"} {
		if _, err := s.ForgetGuild(ctx, id); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("ForgetGuild(%q): %v", id, err)
		}
	}
	if g, err := s.Game(ctx, 1); err != nil || g.Players[0] != alice {
		t.Errorf("a refused forgetting changed game 1: %+v, %v", g, err)
	}
}
