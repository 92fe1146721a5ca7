package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// Opener returns a new, empty match.Storage whose clock is now, and closes it
// when t ends.
type Opener func(t *testing.T, now func() time.Time) match.Storage

// RunContract runs the contract suite against the implementation open
// returns. Each test opens its own storage.
func RunContract(t *testing.T, open Opener) {
	mustOpen := func(t *testing.T) match.Storage {
		t.Helper()
		s := open(t, Clock())
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("Ping: %v", err)
		}
		return s
	}
	t.Run("CreateGame", func(t *testing.T) { testCreateGame(t, mustOpen) })
	t.Run("Commit", func(t *testing.T) { testCommit(t, mustOpen) })
	t.Run("CommitReturnsStored", func(t *testing.T) { testCommitReturnsStored(t, mustOpen(t)) })
	t.Run("CommitRace", func(t *testing.T) { testCommitRace(t, mustOpen(t)) })
	t.Run("BoardOrder", func(t *testing.T) { testBoardOrder(t, mustOpen(t)) })
	t.Run("BoardRace", func(t *testing.T) { testBoardRace(t, mustOpen(t)) })
	t.Run("RedeliveryRace", func(t *testing.T) { testRedeliveryRace(t, mustOpen(t)) })
	t.Run("HintRace", func(t *testing.T) { testHintRace(t, mustOpen(t)) })
	t.Run("CooldownRace", func(t *testing.T) { testCooldownRace(t, mustOpen(t)) })
	t.Run("ManyChannels", func(t *testing.T) { testManyChannels(t, mustOpen(t)) })
	t.Run("Idempotency", func(t *testing.T) { testIdempotency(t, mustOpen(t)) })
	t.Run("Stats", func(t *testing.T) { testStats(t, mustOpen(t)) })
	t.Run("Queries", func(t *testing.T) { testQueries(t, mustOpen) })
	t.Run("StatsScope", func(t *testing.T) { testStatsScope(t, mustOpen(t)) })
	t.Run("Board", func(t *testing.T) { testBoard(t, mustOpen(t)) })
	t.Run("SavedAnswers", func(t *testing.T) { testSavedAnswers(t, mustOpen(t)) })
	runPuzzleContract(t, mustOpen)
	runDailyContract(t, mustOpen)
}

// savedAnswers are answers of every shape a store may be given: a board's
// JSON, text, nothing, bytes starting with every control byte below 0x0a,
// noise, and an answer larger than any board: each is kept byte for byte.
func savedAnswers() map[string][]byte {
	var row strings.Builder
	for k := range 5 {
		fmt.Fprintf(&row, `{"label":"Take %d","style":1,"disabled":false,"custom_id":"move/12/3/0/%d","type":2},`, k+1, k+1)
	}
	board := []byte(`{"type":7,"data":{"tts":false,"content":"","components":[{"components":[` + strings.TrimSuffix(row.String(), ",") +
		`],"type":1}],"embeds":[{"title":"Nim","description":"\u003c@1230000000000000001\u003e vs nimbot\n` + "```" + `\nA │ ●●● 3\nB │ ●●●● 4\nC │ ●●●●● 5\n` + "```" +
		`","color":5793266,"footer":{"text":"Game #12 · move 3"}}],"allowed_mentions":{"parse":[],"replied_user":false}}}`)
	noise := make([]byte, 3000)
	x := uint32(1)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	answers := map[string][]byte{
		"board":      board,
		"text":       []byte("hint"),
		"empty":      {},
		"noise":      noise,
		"large":      bytes.Repeat(board, 200),
		"whitespace": append([]byte("\n\t "), board...),
	}
	for b := range byte(10) {
		answers[fmt.Sprint("first byte ", b)] = append([]byte{b}, board...)
	}
	return answers
}

// testSavedAnswers: every answer reads back byte for byte, saved by each
// write that saves one (Commit, SaveResponse, RecordHint, CreateGame with
// Respond).
func testSavedAnswers(t *testing.T, db match.Storage) {
	ctx := context.Background()
	k := 0
	for name, answer := range savedAnswers() {
		k++
		check := func(how, id string) {
			t.Helper()
			got, err := db.Response(ctx, id)
			if err != nil || !bytes.Equal(got, answer) {
				t.Fatalf("%s, saved by %s, reads back as %q (%v)", name, how, got, err)
			}
		}
		g := MustCreate(t, db, NewGame(fmt.Sprint("answers-", k), [2]string{"alice", "bob"}, 3, 4, 5))
		c, err := Change(g, Take(0, 1))
		if err != nil {
			t.Fatal(err)
		}
		c.InteractionID, c.Response = fmt.Sprint("commit-", k), answer
		if _, err := db.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
		check("Commit", c.InteractionID)
		if err := db.SaveResponse(ctx, fmt.Sprint("save-", k), answer); err != nil {
			t.Fatal(err)
		}
		check("SaveResponse", fmt.Sprint("save-", k))
		if _, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 1, UserID: "bob", InteractionID: fmt.Sprint("hint-", k), Response: answer}); err != nil {
			t.Fatal(err)
		}
		check("RecordHint", fmt.Sprint("hint-", k))
		created := NewGame(fmt.Sprint("answers-created-", k), [2]string{"alice", match.BotID}, 3)
		if err := db.CreateGame(ctx, created, match.Respond(fmt.Sprint("create-", k), func(*match.Game) ([]byte, error) { return answer, nil })); err != nil {
			t.Fatal(err)
		}
		check("CreateGame", fmt.Sprint("create-", k))
	}
}

// testBoard: Board is Game, Moves and HintUsed of the player to move at the
// game's ply, in one call, at every step of a game between people.
func testBoard(t *testing.T, db match.Storage) {
	ctx := context.Background()
	if _, err := db.Board(ctx, 12345); !errors.Is(err, match.ErrNotFound) {
		t.Fatalf("Board of an unknown game: %v, want ErrNotFound", err)
	}
	g := MustCreate(t, db, NewGame("board", [2]string{"alice", "bob"}, 2, 3))
	check := func(hinted bool) {
		t.Helper()
		b, err := db.Board(ctx, g.ID)
		if err != nil {
			t.Fatalf("Board: %v", err)
		}
		game, _ := db.Game(ctx, g.ID)
		moves, _ := db.Moves(ctx, g.ID)
		used, _ := db.HintUsed(ctx, g.ID, game.Ply, game.ToMove())
		if !reflect.DeepEqual(b.Game, game) || len(b.Moves) != len(moves) || (len(moves) > 0 && !reflect.DeepEqual(b.Moves, moves)) || b.Hinted != used || used != hinted {
			t.Fatalf("ply %d: Board\n%+v\n%+v hinted %v\nwant\n%+v\n%+v hinted %v (%v)", game.Ply, b.Game, b.Moves, b.Hinted, game, moves, used, hinted)
		}
	}
	check(false)
	// bob's hint at ply 0 is not the player to move's.
	if _, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 0, UserID: "bob"}); err != nil {
		t.Fatal(err)
	}
	check(false)
	if _, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 0, UserID: "alice"}); err != nil {
		t.Fatal(err)
	}
	check(true)
	g = Play(t, db, g, Take(0, 1))
	check(false)
	if _, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 1, UserID: "bob"}); err != nil {
		t.Fatal(err)
	}
	check(true)
	g = Play(t, db, g, Take(1, 3))
	check(false)
	g = Play(t, db, g, Take(0, 1))
	if g.Status != match.Won {
		t.Fatalf("the game should be over: %+v", g)
	}
	check(false)
}

// testStatsScope: outside a server, a game's result counts in its channel's
// table (match.Scope), apart from every other DM's and from the servers'.
func testStatsScope(t *testing.T, db match.Storage) {
	ctx := context.Background()
	for _, c := range []struct{ guild, channel string }{{"", "dm1"}, {"", "dm1"}, {"", "dm2"}, {"guild", "c1"}} {
		g := NewGame(c.channel, [2]string{"alice", "bob"}, 1)
		g.GuildID = c.guild
		if g = Play(t, db, MustCreate(t, db, g), Take(0, 1)); g.Winner != "alice" {
			t.Fatalf("won by %q", g.Winner)
		}
	}
	for scope, wins := range map[string]int{match.Scope("", "dm1"): 2, match.Scope("", "dm2"): 1, "guild": 1, "": 0, match.Scope("", "dm3"): 0} {
		if st, err := db.Stats(ctx, scope, "alice", ""); err != nil || st.Wins != wins {
			t.Errorf("alice in %q: %+v, %v; want %d wins", scope, st, err, wins)
		}
		lb, err := db.Leaderboard(ctx, scope, "", 10)
		if err != nil || (wins > 0) != (len(lb) == 2) {
			t.Errorf("leaderboard of %q: %+v, %v", scope, lb, err)
		}
	}
}

func testCreateGame(t *testing.T, open func(*testing.T) match.Storage) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		db := open(t)
		g := NewGame("c1", [2]string{"alice", match.BotID}, 3, 4, 5)
		g.Difficulty = engine.Hard
		g.TurnTimeout = 90 * time.Second
		g.Deadline = Epoch.Add(time.Hour)
		g.Rules = engine.Rules{Variant: engine.Subtraction, Misere: true, Set: []int{1, 3, 4}}
		g.Locale = "pt-BR"
		g.InteractionOnly = true
		MustCreate(t, db, g)
		if g.ID == 0 || g.CreatedAt.IsZero() || !g.UpdatedAt.Equal(g.CreatedAt) {
			t.Fatalf("after CreateGame: %+v", g)
		}
		got, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, g) {
			t.Fatalf("read back\n%+v\nwant\n%+v", got, g)
		}
		// The game keeps its language through its moves.
		if after := Play(t, db, g, Take(2, 1)); after.Locale != "pt-BR" || !after.InteractionOnly {
			t.Fatalf("after a move: locale %q (want pt-BR), interaction-only %v", after.Locale, after.InteractionOnly)
		}
		if got, _ := db.ChannelGame(ctx, "c1"); got == nil || got.Locale != "pt-BR" || !got.InteractionOnly {
			t.Fatalf("ChannelGame after a move: %+v", got)
		}
		if got, err := db.ChannelGame(ctx, "c1"); err != nil || got.ID != g.ID {
			t.Fatalf("ChannelGame: %v, %v", got, err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		db := open(t)
		if _, err := db.Game(ctx, 42); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("Game: %v", err)
		}
		if _, err := db.ChannelGame(ctx, "c1"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("ChannelGame: %v", err)
		}
		if _, err := db.LastGameBy(ctx, "guild", "alice"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("LastGameBy: %v", err)
		}
		for _, id := range []string{"m", "1300000000000000001"} {
			if err := db.SetMessageID(ctx, 42, id); !errors.Is(err, match.ErrNotFound) {
				t.Fatalf("SetMessageID %q: %v", id, err)
			}
		}
		if ms, err := db.Moves(ctx, 42); err != nil || len(ms) != 0 {
			t.Fatalf("Moves: %v, %v", ms, err)
		}
	})
	t.Run("ErrChannelBusy", func(t *testing.T) {
		db := open(t)
		first := NewGame("c1", [2]string{"alice", ""}, 3)
		first.Status = match.Pending
		MustCreate(t, db, first)
		err := db.CreateGame(ctx, NewGame("c1", [2]string{"bob", match.BotID}, 5))
		var busy *match.BusyError
		if !errors.Is(err, match.ErrChannelBusy) || !errors.As(err, &busy) || busy.Game.ID != first.ID {
			t.Fatalf("second game in the channel: %v", err)
		}
		// Another channel is free; so is this one once the game is over.
		MustCreate(t, db, NewGame("c2", [2]string{"bob", match.BotID}, 5))
		if _, err := db.Commit(ctx, match.Change{GameID: first.ID, From: match.Pending, Status: match.Declined}); err != nil {
			t.Fatal(err)
		}
		MustCreate(t, db, NewGame("c1", [2]string{"bob", match.BotID}, 5))
	})
	t.Run("ConcurrentInOneChannel", func(t *testing.T) {
		db := open(t)
		const n = 20
		errs := make(chan error, n)
		atOnce(n, func(i int) func() {
			g := NewGame("c1", [2]string{fmt.Sprint("user", i), match.BotID}, 3)
			return func() { errs <- db.CreateGame(ctx, g) }
		})
		close(errs)
		created := 0
		for err := range errs {
			switch {
			case err == nil:
				created++
			case !errors.Is(err, match.ErrChannelBusy):
				t.Error(err)
			}
		}
		if created != 1 {
			t.Fatalf("%d games created in one channel", created)
		}
	})
	t.Run("Respond", func(t *testing.T) {
		db := open(t)
		g := NewGame("c1", [2]string{"alice", match.BotID}, 3, 4)
		var rendered int64
		err := db.CreateGame(ctx, g, match.Respond("i1", func(g *match.Game) ([]byte, error) {
			rendered = g.ID
			return fmt.Appendf(nil, "board of game %d", g.ID), nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		if g.ID == 0 || rendered != g.ID {
			t.Fatalf("rendered game %d, created %d", rendered, g.ID)
		}
		if resp, err := db.Response(ctx, "i1"); err != nil || string(resp) != fmt.Sprintf("board of game %d", g.ID) {
			t.Fatalf("Response: %q, %v", resp, err)
		}
		// The redelivery finds its answer, not its own game in the way.
		again := NewGame("c1", [2]string{"alice", match.BotID}, 3, 4)
		if err := db.CreateGame(ctx, again, match.Respond("i1", func(*match.Game) ([]byte, error) { return []byte("x"), nil })); !errors.Is(err, match.ErrDuplicate) {
			t.Fatalf("redelivered: %v", err)
		}
	})
	t.Run("RespondIsAtomic", func(t *testing.T) {
		db := open(t)
		// An interaction already answered, or an answer that cannot be
		// rendered: no game is left behind.
		if err := db.SaveResponse(ctx, "i1", []byte("earlier")); err != nil {
			t.Fatal(err)
		}
		err := db.CreateGame(ctx, NewGame("c1", [2]string{"alice", match.BotID}, 3), match.Respond("i1", func(*match.Game) ([]byte, error) { return []byte("x"), nil }))
		if !errors.Is(err, match.ErrDuplicate) {
			t.Fatalf("duplicate interaction: %v", err)
		}
		boom := errors.New("boom")
		err = db.CreateGame(ctx, NewGame("c1", [2]string{"alice", match.BotID}, 3), match.Respond("i2", func(*match.Game) ([]byte, error) { return nil, boom }))
		if !errors.Is(err, boom) {
			t.Fatalf("render failed: %v", err)
		}
		if g, err := db.ChannelGame(ctx, "c1"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("a game was left behind: %+v, %v", g, err)
		}
		if _, err := db.Response(ctx, "i2"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("i2 recorded: %v", err)
		}
		if resp, err := db.Response(ctx, "i1"); err != nil || string(resp) != "earlier" {
			t.Fatalf("the first answer changed: %q, %v", resp, err)
		}
	})
	t.Run("FirstTurn", func(t *testing.T) {
		db := open(t)
		g := NewGame("c1", [2]string{match.BotID, "alice"}, 3, 4)
		g.Deadline = Epoch.Add(time.Hour)
		var seen match.Game
		err := db.CreateGame(ctx, g,
			match.FirstTurn(match.Change{Moves: []engine.Move{Take(1, 1)}, Position: engine.Position{Heaps: []int64{3, 3}},
				Status: match.Active, Deadline: Epoch.Add(2 * time.Hour)}),
			match.Respond("i1", func(g *match.Game) ([]byte, error) { seen = *g; return []byte("board"), nil }))
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Ply != 1 || !reflect.DeepEqual(got.Position.Heaps, []int64{3, 3}) || !got.Deadline.Equal(Epoch.Add(2*time.Hour)) {
			t.Fatalf("after the first turn: %+v", got)
		}
		if !reflect.DeepEqual(*got, *g) || !reflect.DeepEqual(seen, *g) {
			t.Fatalf("caller's game\n%+v\nrendered\n%+v\nstored\n%+v", g, seen, got)
		}
		if ms, _ := db.Moves(ctx, g.ID); len(ms) != 1 || ms[0].Player != match.BotID {
			t.Fatalf("moves: %+v", ms)
		}
		if resp, err := db.Response(ctx, "i1"); err != nil || string(resp) != "board" {
			t.Fatalf("Response: %q, %v", resp, err)
		}
		// An opening move that ends the game records the result with it.
		h := NewGame("c2", [2]string{match.BotID, "alice"}, 2)
		h.Difficulty = engine.Hard
		err = db.CreateGame(ctx, h, match.FirstTurn(match.Change{Moves: []engine.Move{Take(0, 2)}, Position: engine.Position{Heaps: []int64{0}},
			Status: match.Won, Winner: match.BotID}))
		if err != nil {
			t.Fatal(err)
		}
		if h.Status != match.Won || h.Winner != match.BotID || h.Ply != 1 {
			t.Fatalf("won at once: %+v", h)
		}
		if st, _ := db.Stats(ctx, "guild", "alice", ""); st.Losses != 1 || st.VsBot[engine.Hard] != [2]int{0, 1} {
			t.Fatalf("alice after losing at once: %+v", st)
		}
		// An illegal first turn leaves no game.
		err = db.CreateGame(ctx, NewGame("c3", [2]string{match.BotID, "alice"}, 2),
			match.FirstTurn(match.Change{Moves: []engine.Move{Take(0, 1)}, Status: match.Won, Winner: "carol"}))
		if !errors.Is(err, match.ErrInvalid) {
			t.Fatalf("bad winner: %v", err)
		}
		if _, err := db.ChannelGame(ctx, "c3"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("a game was left behind: %v", err)
		}
		CheckGame(t, db, g.ID)
		CheckGame(t, db, h.ID)
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		db := open(t)
		for name, g := range map[string]*match.Game{
			"Finished":  {ChannelID: "c", Status: match.Won, Start: engine.Position{Heaps: []int64{1}}},
			"Ply":       {ChannelID: "c", Status: match.Active, Ply: 2, Start: engine.Position{Heaps: []int64{1}}},
			"NoChannel": {Status: match.Active, Start: engine.Position{Heaps: []int64{1}}},
			"Winner":    {ChannelID: "c", Status: match.Active, Winner: "alice", Start: engine.Position{Heaps: []int64{1}}},
			"Locale":    {ChannelID: "c", Status: match.Active, Locale: strings.Repeat("x", match.MaxLocale+1), Start: engine.Position{Heaps: []int64{1}}},
			"LocaleNUL": {ChannelID: "c", Status: match.Active, Locale: "de\x00", Start: engine.Position{Heaps: []int64{1}}},
		} {
			t.Run(name, func(t *testing.T) {
				if err := db.CreateGame(ctx, g); !errors.Is(err, match.ErrInvalid) {
					t.Fatalf("got %v", err)
				}
			})
		}
		if _, err := db.ChannelGame(ctx, "c"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("a refused game was written: %v", err)
		}
	})
}

func testCommit(t *testing.T, open func(*testing.T) match.Storage) {
	ctx := context.Background()
	t.Run("HumanAndBotMove", func(t *testing.T) {
		db := open(t)
		g := MustCreate(t, db, NewGame("c1", [2]string{"alice", match.BotID}, 3, 4))
		if used, err := db.HintUsed(ctx, g.ID, 0, "alice"); err != nil || used {
			t.Fatalf("HintUsed before any hint: %v, %v", used, err)
		}
		if recorded, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 0, UserID: "alice", InteractionID: "h1", Response: []byte("hint")}); err != nil || !recorded {
			t.Fatalf("first hint: %v, %v", recorded, err)
		}
		// Asking twice is fine, recorded once; the second interaction
		// changed nothing, so it is not recorded either.
		if recorded, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 0, UserID: "alice", InteractionID: "h2", Response: []byte("again")}); err != nil || recorded {
			t.Fatalf("second hint: %v, %v", recorded, err)
		}
		if resp, err := db.Response(ctx, "h1"); err != nil || string(resp) != "hint" {
			t.Fatalf("first hint's answer: %q, %v", resp, err)
		}
		if _, err := db.Response(ctx, "h2"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("second hint's answer was recorded: %v", err)
		}
		for _, tt := range []struct {
			ply  int
			user string
			want bool
		}{{0, "alice", true}, {0, match.BotID, false}, {1, "alice", false}} {
			if used, err := db.HintUsed(ctx, g.ID, tt.ply, tt.user); err != nil || used != tt.want {
				t.Fatalf("HintUsed(ply %d, %s) = %v, %v; want %v", tt.ply, tt.user, used, err, tt.want)
			}
		}
		deadline := Epoch.Add(time.Minute)
		c, _ := Change(g, Take(1, 1), Take(0, 1))
		c.Deadline = deadline
		out, err := db.Commit(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if out.Ply != 2 || out.ToMove() != "alice" || !reflect.DeepEqual(out.Position.Heaps, []int64{2, 3}) || !out.Deadline.Equal(deadline) {
			t.Fatalf("after commit: %+v", out)
		}
		if got, _ := db.Game(ctx, g.ID); !reflect.DeepEqual(got, out) {
			t.Fatalf("Commit returned\n%+v\nthe store holds\n%+v", out, got)
		}
		moves, err := db.Moves(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != 2 {
			t.Fatalf("moves %+v", moves)
		}
		want := []match.Move{
			{GameID: g.ID, Ply: 0, Player: "alice", Move: Take(1, 1), Hinted: true, At: moves[0].At},
			{GameID: g.ID, Ply: 1, Player: match.BotID, Move: Take(0, 1), Hinted: false, At: moves[0].At},
		}
		if !reflect.DeepEqual(moves, want) {
			t.Fatalf("moves\n%+v\nwant\n%+v", moves, want)
		}
		// A hint for a ply already played is stale.
		if _, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 0, UserID: "alice"}); !errors.Is(err, match.ErrStale) {
			t.Fatalf("hint for a past ply: %v", err)
		}
	})
	t.Run("ErrStale", func(t *testing.T) {
		db := open(t)
		g := MustCreate(t, db, NewGame("c1", [2]string{"alice", "bob"}, 3, 4))
		seen := *g
		Play(t, db, g, Take(0, 1))
		// The same board clicked again: ply 0 is gone.
		c, _ := Change(&seen, Take(1, 1))
		if _, err := db.Commit(ctx, c); !errors.Is(err, match.ErrStale) {
			t.Fatalf("stale ply: %v", err)
		}
		// The right ply but the status the caller saw is wrong.
		g, _ = db.Game(ctx, g.ID)
		c, _ = Change(g, Take(1, 1))
		c.From = match.Pending
		if _, err := db.Commit(ctx, c); !errors.Is(err, match.ErrStale) {
			t.Fatalf("stale status: %v", err)
		}
		// A finished game takes no more changes.
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 1, From: match.Active, Status: match.Resigned, Winner: "alice"}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 1, From: match.Resigned, Status: match.Ended}); !errors.Is(err, match.ErrStale) {
			t.Fatalf("change to a finished game: %v", err)
		}
		if _, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 1, UserID: "bob"}); !errors.Is(err, match.ErrStale) {
			t.Fatalf("hint in a finished game: %v", err)
		}
		// A stale commit records nothing, its interaction included.
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 0, From: match.Active, Status: match.Ended, InteractionID: "late"}); !errors.Is(err, match.ErrStale) {
			t.Fatalf("stale commit: %v", err)
		}
		if _, err := db.Response(ctx, "late"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("a stale commit's interaction was recorded: %v", err)
		}
		CheckGame(t, db, g.ID)
	})
	t.Run("Seen", func(t *testing.T) {
		// A change decided on a board from an earlier commit (Change.Seen)
		// holds only while the game's board message and the mover's hint
		// at the ply are as that board says; otherwise it is stale and
		// writes nothing, its interaction included.
		db := open(t)
		g := MustCreate(t, db, NewGame("c1", [2]string{"alice", "bob"}, 3, 4))
		if err := db.SetMessageID(ctx, g.ID, "101"); err != nil {
			t.Fatal(err)
		}
		g, _ = db.Game(ctx, g.ID)
		seen := func(msg string, hinted bool, id string) match.Change {
			c, err := Change(g, Take(0, 1))
			if err != nil {
				t.Fatal(err)
			}
			c.Seen, c.InteractionID, c.Response = &match.Seen{MessageID: msg, Hinted: hinted}, id, []byte("board")
			return c
		}
		refused := func(what string, c match.Change) {
			t.Helper()
			if _, err := db.Commit(ctx, c); !errors.Is(err, match.ErrStale) {
				t.Fatalf("%s: %v, want ErrStale", what, err)
			}
			if got, _ := db.Game(ctx, g.ID); got.Ply != g.Ply {
				t.Fatalf("%s: the game moved to ply %d", what, got.Ply)
			}
			if _, err := db.Response(ctx, c.InteractionID); !errors.Is(err, match.ErrNotFound) {
				t.Fatalf("%s: its interaction was recorded: %v", what, err)
			}
		}
		refused("another board message", seen("100", false, "i1"))
		refused("a hint seen that is not there", seen("101", true, "i2"))
		out, err := db.Commit(ctx, seen("101", false, "i3"))
		if err != nil || out.Ply != 1 {
			t.Fatalf("as seen: %+v, %v", out, err)
		}
		g = out
		if recorded, err := db.RecordHint(ctx, match.Hint{GameID: g.ID, Ply: 1, UserID: "bob"}); err != nil || !recorded {
			t.Fatalf("hint: %v, %v", recorded, err)
		}
		refused("a hint asked since", seen("101", false, "i4"))
		if out, err = db.Commit(ctx, seen("101", true, "i5")); err != nil || out.Ply != 2 {
			t.Fatalf("as seen, hint included: %+v, %v", out, err)
		}
		if moves, _ := db.Moves(ctx, g.ID); len(moves) != 2 || moves[0].Hinted || !moves[1].Hinted {
			t.Fatalf("moves %+v", moves)
		}
		// Only a change with moves says what it saw.
		c := match.Change{GameID: g.ID, Ply: 2, From: match.Active, Status: match.Resigned, Winner: "alice", Seen: &match.Seen{MessageID: "101"}}
		if _, err := db.Commit(ctx, c); !errors.Is(err, match.ErrInvalid) {
			t.Fatalf("Seen without moves: %v", err)
		}
		CheckGame(t, db, g.ID)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		db := open(t)
		if _, err := db.Commit(ctx, match.Change{GameID: 9, From: match.Active, Status: match.Ended}); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("got %v", err)
		}
		// With an interaction: still ErrNotFound, and nothing recorded.
		if _, err := db.Commit(ctx, match.Change{GameID: 9, From: match.Active, Status: match.Ended, InteractionID: "nf", Response: []byte("x")}); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("with an interaction: %v", err)
		}
		if _, err := db.Response(ctx, "nf"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("the interaction of a change to no game was recorded: %v", err)
		}
		if _, err := db.RecordHint(ctx, match.Hint{GameID: 9, Ply: 0, UserID: "alice"}); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		db := open(t)
		g := MustCreate(t, db, NewGame("c1", [2]string{"alice", "bob"}, 3))
		for name, c := range map[string]match.Change{
			"WinnerNotAPlayer":  {GameID: g.ID, From: match.Active, Status: match.Resigned, Winner: "carol"},
			"NoWinner":          {GameID: g.ID, From: match.Active, Status: match.Won},
			"WinnerOfEnded":     {GameID: g.ID, From: match.Active, Status: match.Ended, Winner: "alice"},
			"UnknownStatus":     {GameID: g.ID, From: match.Active, Status: "paused"},
			"UnknownFromStatus": {GameID: g.ID, Status: match.Ended},
		} {
			t.Run(name, func(t *testing.T) {
				if _, err := db.Commit(ctx, c); !errors.Is(err, match.ErrInvalid) {
					t.Fatalf("got %v", err)
				}
			})
		}
		if got, _ := db.Game(ctx, g.ID); got.Status != match.Active {
			t.Fatalf("a refused change left the game %s", got.Status)
		}
	})
	t.Run("AcceptChallenge", func(t *testing.T) {
		db := open(t)
		g := NewGame("c1", [2]string{"alice", ""}, 3, 4)
		g.Status = match.Pending
		g.Deadline = Epoch.Add(time.Minute)
		MustCreate(t, db, g)
		// Bob accepts and, seated first, moves in the same transaction.
		out, err := db.Commit(ctx, match.Change{GameID: g.ID, From: match.Pending, Status: match.Active,
			Players: &[2]string{"bob", "alice"}, Moves: []engine.Move{Take(0, 1)},
			Position: engine.Position{Heaps: []int64{2, 4}}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Players != [2]string{"bob", "alice"} || out.ToMove() != "alice" || !out.Deadline.IsZero() {
			t.Fatalf("after accepting: %+v", out)
		}
		moves, _ := db.Moves(ctx, g.ID)
		if len(moves) != 1 || moves[0].Player != "bob" {
			t.Fatalf("moves %+v", moves)
		}
		// A status-only change keeps the position.
		out, err = db.Commit(ctx, match.Change{GameID: g.ID, Ply: 1, From: match.Active, Status: match.Timeout, Winner: "bob"})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out.Position.Heaps, []int64{2, 4}) || out.Winner != "bob" {
			t.Fatalf("after timeout: %+v", out)
		}
		CheckGame(t, db, g.ID)
	})
}

// testCommitReturnsStored: the game Commit returns is the game a fresh read
// finds after it, field for field, whatever the change: moves, a move that
// finishes the game, new players, a status change that keeps the position,
// a deadline in another time zone and finer than the millisecond.
func testCommitReturnsStored(t *testing.T, db match.Storage) {
	ctx := context.Background()
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	check := func(t *testing.T, c match.Change) *match.Game {
		t.Helper()
		out, err := db.Commit(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Game(ctx, c.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out, got) {
			t.Fatalf("Commit returned\n%+v\na fresh read finds\n%+v", out, got)
		}
		return out
	}
	t.Run("Moves", func(t *testing.T) {
		g := MustCreate(t, db, NewGame("moves", [2]string{"alice", match.BotID}, 3, 4, 5))
		c, _ := Change(g, Take(2, 1), Take(1, 2))
		c.Deadline = Epoch.Add(time.Minute + 123456789).In(zone)
		c.InteractionID, c.Response = "moves-1", []byte("board")
		g = check(t, c)
		if g.Ply != 2 || !reflect.DeepEqual(g.Position.Heaps, []int64{3, 2, 4}) {
			t.Fatalf("after the moves: %+v", g)
		}
		// The position as the caller gives it, limit included.
		c, _ = Change(g, Take(0, 1))
		c.Position.Limit = 2
		g = check(t, c)
		// The move that empties the heaps wins the game: no deadline.
		c, _ = Change(g, Take(0, 2), Take(1, 2), Take(2, 4))
		if c.Status != match.Won {
			t.Fatalf("the last moves do not finish the game: %+v", c)
		}
		if g = check(t, c); g.Winner != match.BotID || !g.Deadline.IsZero() {
			t.Fatalf("after the last move: %+v", g)
		}
	})
	t.Run("Players", func(t *testing.T) {
		g := NewGame("players", [2]string{"alice", ""}, 3, 4)
		g.Status = match.Pending
		g.Deadline = Epoch.Add(time.Hour)
		MustCreate(t, db, g)
		// Accepted and seated again, without a move, then with one.
		g = check(t, match.Change{GameID: g.ID, From: match.Pending, Status: match.Active,
			Players: &[2]string{"bob", "alice"}, Deadline: Epoch.Add(2 * time.Hour).In(zone)})
		if g.Players != [2]string{"bob", "alice"} || !reflect.DeepEqual(g.Position.Heaps, []int64{3, 4}) {
			t.Fatalf("after accepting: %+v", g)
		}
		c, _ := Change(g, Take(0, 3))
		c.Players = &[2]string{"bob", "carol"}
		if g = check(t, c); g.ToMove() != "carol" {
			t.Fatalf("after a move with new players: %+v", g)
		}
	})
	t.Run("KeepPosition", func(t *testing.T) {
		g := MustCreate(t, db, NewGame("keep", [2]string{"alice", "bob"}, 3, 4))
		g = check(t, match.Change{GameID: g.ID, From: match.Active, Status: match.Active, Deadline: Epoch.Add(time.Minute)})
		g = check(t, match.Change{GameID: g.ID, From: match.Active, Status: match.Resigned, Winner: "bob", InteractionID: "resign"})
		if !reflect.DeepEqual(g.Position.Heaps, []int64{3, 4}) || g.Status != match.Resigned {
			t.Fatalf("after resigning: %+v", g)
		}
		h := NewGame("decline", [2]string{"alice", "bob"}, 3)
		h.Status = match.Pending
		MustCreate(t, db, h)
		check(t, match.Change{GameID: h.ID, From: match.Pending, Status: match.Declined})
	})
}

// testBoardOrder: SetMessageID records a board only over an older one
// (match.ReplacesBoard), so boards whose ids are learnt out of order (a
// slow fetch of @original) leave the newest recorded. A kept board writes
// nothing, updated time included.
func testBoardOrder(t *testing.T, db match.Storage) {
	ctx := context.Background()
	n := 0
	// record sets first then second on a new game and returns the game
	// before and after second.
	record := func(t *testing.T, first, second string) (before, after *match.Game) {
		t.Helper()
		n++
		g := MustCreate(t, db, NewGame(fmt.Sprint("board-", n), [2]string{"alice", "bob"}, 3))
		if err := db.SetMessageID(ctx, g.ID, first); err != nil {
			t.Fatalf("SetMessageID %q: %v", first, err)
		}
		before, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetMessageID(ctx, g.ID, second); err != nil {
			t.Fatalf("SetMessageID %q after %q: %v", second, first, err)
		}
		if after, err = db.Game(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		return before, after
	}
	check := func(t *testing.T, first, second, want string) {
		t.Helper()
		before, after := record(t, first, second)
		switch {
		case after.MessageID != want:
			t.Fatalf("%q then %q recorded %q, want %q", first, second, after.MessageID, want)
		case want == before.MessageID && !after.UpdatedAt.Equal(before.UpdatedAt):
			t.Fatalf("%q then %q kept the board but wrote: updated %v, was %v", first, second, after.UpdatedAt, before.UpdatedAt)
		case want != before.MessageID && !after.UpdatedAt.After(before.UpdatedAt):
			t.Fatalf("%q then %q: updated %v, was %v", first, second, after.UpdatedAt, before.UpdatedAt)
		}
	}
	const (
		m1 = "1300000000000000001" // posted first
		m2 = "1300000000000000002" // posted second
	)
	cases := []struct {
		name                string
		first, second, want string
	}{
		{"NewerReplaces", m1, m2, m2},
		{"OlderKept", m2, m1, m2},
		{"SameIsNoOp", m2, m2, m2},
		{"NoBoardYet", "", m1, m1},
		// Snowflakes compare as numbers, not as text.
		{"MoreDigitsIsNewer", "999999999999999999", "1000000000000000000", "1000000000000000000"},
		{"FewerDigitsIsOlder", "1000000000000000000", "999999999999999999", "1000000000000000000"},
		{"NineAndTen", "9", "10", "10"},
		{"LeadingZerosKeptNewer", "0200", "150", "0200"},
		{"LeadingZerosSameValue", "150", "000150", "150"},
		{"LargestKept", "18446744073709551615", "18446744073709551614", "18446744073709551615"},
		{"Largest", "18446744073709551614", "18446744073709551615", "18446744073709551615"},
		// Anything else has no order: it replaces and is replaced.
		{"NotASnowflakeReplaces", m2, "board", "board"},
		{"ReplacesNotASnowflake", "board", m1, m1},
		{"EmptyReplaces", m2, "", ""},
		{"BeyondUint64Replaced", "18446744073709551616", "5", "5"},
		{"BeyondUint64Replaces", "5", "18446744073709551616", "18446744073709551616"},
		{"TwentyNinesReplaced", "99999999999999999999", m1, m1},
		{"TwentyOneDigitsReplaced", "100000000000000000000", m1, m1},
		{"SignReplaced", "+1300000000000000009", m1, m1},
		{"SpaceReplaced", " 1300000000000000009", m1, m1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := match.ReplacesBoard(c.first, c.second); got != (c.want != c.first) {
				t.Fatalf("match.ReplacesBoard(%q, %q) = %v, the case disagrees", c.first, c.second, got)
			}
			check(t, c.first, c.second, c.want)
		})
	}
	// Every ordered pair of these, against match.ReplacesBoard: the store's
	// SQL and the rule agree.
	t.Run("AsReplacesBoard", func(t *testing.T) {
		ids := []string{"", "0", "00", "7", "07", "10", m1, m2, "18446744073709551615", "018446744073709551615",
			"18446744073709551616", "x", "1e3", "٣"}
		for _, a := range ids {
			for _, b := range ids {
				want := a
				if match.ReplacesBoard(a, b) {
					want = b
				}
				check(t, a, b, want)
			}
		}
	})
}

// testBoardRace: of boards recorded at once in any order, the game ends
// with the newest: the check is part of the write, not a read before it.
func testBoardRace(t *testing.T, db match.Storage) {
	ctx := context.Background()
	const rounds, n = 10, 8
	for r := range rounds {
		g := MustCreate(t, db, NewGame(fmt.Sprint("board-race-", r), [2]string{"alice", "bob"}, 3))
		errs := make([]error, n)
		atOnce(n, func(i int) func() {
			// Round r starts its ids at a different one, so the
			// newest is sent by a different goroutine each round.
			id := fmt.Sprint(uint64(1300000000000000000) + uint64((i+r)%n))
			return func() { errs[i] = db.SetMessageID(ctx, g.ID, id) }
		})
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint(uint64(1300000000000000000) + n - 1); got.MessageID != want {
			t.Fatalf("round %d: %d boards recorded at once left %q, want the newest, %q", r, n, got.MessageID, want)
		}
	}
}

// testCommitRace: 50 clicks on one board at once. Exactly one move lands;
// every other click gets ErrStale and records nothing.
func testCommitRace(t *testing.T, db match.Storage) {
	ctx := context.Background()
	g := MustCreate(t, db, NewGame("c1", [2]string{"alice", match.BotID}, 100, 100))
	const n = 50
	errs := make([]error, n)
	atOnce(n, func(i int) func() {
		c, err := Change(g, Take(i%2, int64(i+1)), Take(1-i%2, 1))
		if err != nil {
			errs[i] = err
			return func() {}
		}
		c.InteractionID = fmt.Sprint("click-", i)
		c.Response = fmt.Append(nil, "moved ", i)
		return func() { _, errs[i] = db.Commit(ctx, c) }
	})
	applied, stale := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			applied++
		case errors.Is(err, match.ErrStale):
			stale++
		default:
			t.Error(err)
		}
	}
	if applied != 1 || stale != n-1 {
		t.Fatalf("%d applied, %d stale; want 1 and %d", applied, stale, n-1)
	}
	moves, err := db.Moves(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 {
		t.Fatalf("%d moves", len(moves))
	}
	answered := 0
	for i := range n {
		resp, err := db.Response(ctx, fmt.Sprint("click-", i))
		switch {
		case err == nil:
			answered++
			if errs[i] != nil || string(resp) != fmt.Sprint("moved ", i) {
				t.Errorf("click %d (%v) has answer %q", i, errs[i], resp)
			}
		case !errors.Is(err, match.ErrNotFound):
			t.Error(err)
		}
	}
	if answered != 1 {
		t.Fatalf("%d interactions saved; only the applied one should be", answered)
	}
	CheckGame(t, db, g.ID)
}

// testRedeliveryRace: one interaction delivered 20 times at once (a gateway
// resume and HTTP retries reaching several instances). One delivery plays
// the move; every other gets ErrDuplicate, and the saved answer is the one
// that played.
func testRedeliveryRace(t *testing.T, db match.Storage) {
	ctx := context.Background()
	g := MustCreate(t, db, NewGame("c1", [2]string{"alice", "bob"}, 5))
	const n = 20
	errs := make([]error, n)
	atOnce(n, func(i int) func() {
		c, _ := Change(g, Take(0, 1))
		c.InteractionID = "redelivered"
		c.Response = fmt.Append(nil, "answer ", i)
		return func() { _, errs[i] = db.Commit(ctx, c) }
	})
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil:
			if winner >= 0 {
				t.Fatalf("deliveries %d and %d both applied", winner, i)
			}
			winner = i
		case !errors.Is(err, match.ErrDuplicate):
			t.Errorf("delivery %d: %v", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no delivery applied")
	}
	if resp, err := db.Response(ctx, "redelivered"); err != nil || string(resp) != fmt.Sprint("answer ", winner) {
		t.Fatalf("saved answer %q, %v; delivery %d applied", resp, err, winner)
	}
	if ms, _ := db.Moves(ctx, g.ID); len(ms) != 1 {
		t.Fatalf("%d moves", len(ms))
	}
}

// testHintRace: the same hint asked many times at once (a double click,
// a redelivery while the first is in flight) is recorded once, with the
// answer of the one that recorded it; every other ask is told it was
// recorded already, and none fails.
func testHintRace(t *testing.T, db match.Storage) {
	ctx := context.Background()
	g := MustCreate(t, db, NewGame("c1", [2]string{"alice", "bob"}, 5, 6))
	for round := range 5 {
		const n = 12
		recorded := make([]bool, n)
		errs := make([]error, n)
		atOnce(n, func(i int) func() {
			h := match.Hint{GameID: g.ID, Ply: g.Ply, UserID: g.ToMove(),
				InteractionID: fmt.Sprint("hint-", round, "-", i), Response: fmt.Append(nil, "hint ", i)}
			return func() { recorded[i], errs[i] = db.RecordHint(ctx, h) }
		})
		winner := -1
		for i := range n {
			switch {
			case errs[i] != nil:
				t.Fatalf("round %d, ask %d: %v", round, i, errs[i])
			case recorded[i] && winner >= 0:
				t.Fatalf("round %d: asks %d and %d both recorded the hint", round, winner, i)
			case recorded[i]:
				winner = i
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no ask recorded the hint", round)
		}
		for i := range n {
			resp, err := db.Response(ctx, fmt.Sprint("hint-", round, "-", i))
			if i == winner && (err != nil || string(resp) != fmt.Sprint("hint ", i)) {
				t.Fatalf("round %d: the recorded hint's answer %q, %v", round, resp, err)
			}
			if i != winner && !errors.Is(err, match.ErrNotFound) {
				t.Fatalf("round %d: ask %d, not recorded, saved an answer (%v)", round, i, err)
			}
		}
		g = Play(t, db, g, Take(round%2, 1))
	}
}

// testCooldownRace: challenges one user sends at once in several channels
// of a guild, each created with Cooldown, create one game; the others are
// refused with a *CooldownError carrying it. A game against nimbot does
// not count, a redelivery of the created one is ErrDuplicate, and a
// challenge in another guild is created.
func testCooldownRace(t *testing.T, db match.Storage) {
	ctx := context.Background()
	bot := NewGame("vs-bot", [2]string{"alice", match.BotID}, 3)
	if err := db.CreateGame(ctx, bot, match.Cooldown(time.Unix(0, 0))); err != nil {
		t.Fatalf("a game against nimbot: %v", err)
	}
	challenge := func(user, channel, guild string) *match.Game {
		g := NewGame(channel, [2]string{user, "bob"}, 3, 4)
		g.GuildID, g.Status = guild, match.Pending
		return g
	}
	respond := func(id string) match.CreateOption {
		return match.Respond(id, func(*match.Game) ([]byte, error) { return []byte("board"), nil })
	}
	// Rounds of users, alice first: a race lost once would pass unseen.
	for round := range 10 {
		user := "alice"
		if round > 0 {
			user = fmt.Sprint("user-", round)
		}
		const n = 8
		errs := make([]error, n)
		atOnce(n, func(i int) func() {
			g := challenge(user, fmt.Sprint("cool-", round, "-", i), "guild")
			return func() {
				errs[i] = db.CreateGame(ctx, g, match.Cooldown(time.Unix(0, 0)), respond(fmt.Sprint("challenge-", round, "-", i)))
			}
		})
		created := -1
		for i, err := range errs {
			var cool *match.CooldownError
			switch {
			case err == nil && created >= 0:
				t.Fatalf("%s: challenges %d and %d were both created", user, created, i)
			case err == nil:
				created = i
			case !errors.As(err, &cool):
				t.Fatalf("%s: challenge %d: %v, want a *CooldownError", user, i, err)
			case cool.Last.ChannelID == "vs-bot":
				t.Fatalf("%s: challenge %d was refused for the game against nimbot", user, i)
			}
		}
		if created < 0 {
			t.Fatalf("%s: no challenge was created", user)
		}
		if round > 0 {
			continue
		}
		again := challenge(user, fmt.Sprint("cool-0-", created), "guild")
		if err := db.CreateGame(ctx, again, match.Cooldown(time.Unix(0, 0)), respond(fmt.Sprint("challenge-0-", created))); !errors.Is(err, match.ErrDuplicate) {
			t.Fatalf("a redelivery of the created challenge: %v, want ErrDuplicate", err)
		}
		if err := db.CreateGame(ctx, challenge(user, "cool-other", "other guild"), match.Cooldown(time.Unix(0, 0))); err != nil {
			t.Fatalf("a challenge in another guild: %v", err)
		}
	}
}

// PlayChannel plays one whole game in channel i, as ManyChannels tests do
// by the hundred: user(i mod users) against nimbot, or every third channel
// against user(i+1 mod users), on heaps 2 2 in four single moves (the second
// player takes the last), reading the game back after each. It returns the
// game's id, and an error if any step failed or the wrong player won.
func PlayChannel(ctx context.Context, db match.Storage, i, users int) (int64, error) {
	players := [2]string{fmt.Sprint("user", i%users), match.BotID}
	if i%3 == 0 {
		players[1] = fmt.Sprint("user", (i+1)%users)
	}
	g := NewGame(fmt.Sprint("channel", i), players, 2, 2)
	g.Difficulty = engine.Easy
	if err := db.CreateGame(ctx, g); err != nil {
		return 0, err
	}
	for range 4 {
		h := 0
		if g.Position.Heaps[0] == 0 {
			h = 1
		}
		c, err := Change(g, Take(h, 1))
		if err != nil {
			return g.ID, err
		}
		c.InteractionID = fmt.Sprintf("i-%d-%d", i, g.Ply)
		if g, err = db.Commit(ctx, c); err != nil {
			return 0, err
		}
		if _, err := db.Game(ctx, g.ID); err != nil {
			return g.ID, err
		}
	}
	if g.Status != match.Won || g.Winner != players[1] {
		return g.ID, fmt.Errorf("channel %d: %s won by %q", i, g.Status, g.Winner)
	}
	return g.ID, nil
}

// testManyChannels: 100 channels play whole games at once.
func testManyChannels(t *testing.T, db match.Storage) {
	ctx := context.Background()
	const channels = 100
	errs := make(chan error, channels)
	ids := make([]int64, channels)
	atOnce(channels, func(i int) func() {
		return func() {
			id, err := PlayChannel(ctx, db, i, 10)
			if err != nil {
				errs <- err
			}
			ids[i] = id
		}
	})
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	for _, id := range ids {
		CheckGame(t, db, id)
	}
	// Every decided game is counted once: 100 wins and, among people,
	// as many losses as games between people (every third).
	wins, losses := 0, 0
	for u := range 10 {
		s, err := db.Stats(ctx, "guild", fmt.Sprint("user", u), "")
		if err != nil {
			t.Fatal(err)
		}
		wins += s.Wins
		losses += s.Losses
	}
	if wins != 34 || losses != 100 {
		// Against the bot the human moves first and loses: 66 losses and
		// 66 bot wins (not counted); between people 34 wins, 34 losses.
		t.Fatalf("stats count %d wins, %d losses; want 34 and 100", wins, losses)
	}
}

func testIdempotency(t *testing.T, db match.Storage) {
	ctx := context.Background()
	g := MustCreate(t, db, NewGame("c1", [2]string{"alice", match.BotID}, 5))
	c, _ := Change(g, Take(0, 1), Take(0, 1))
	c.InteractionID = "1234"
	c.Response = []byte(`{"type":7,"data":{"content":"board"}}`)
	if _, err := db.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	// The redelivery: same interaction, same board as first seen.
	redelivered := c
	redelivered.Response = []byte(`{"type":7,"data":{"content":"another board"}}`)
	if _, err := db.Commit(ctx, redelivered); !errors.Is(err, match.ErrDuplicate) {
		t.Fatalf("redelivery: %v", err)
	}
	// Even one that would otherwise be valid at the current ply.
	g, _ = db.Game(ctx, g.ID)
	again, _ := Change(g, Take(0, 1))
	again.InteractionID = "1234"
	if _, err := db.Commit(ctx, again); !errors.Is(err, match.ErrDuplicate) {
		t.Fatalf("redelivery at the current ply: %v", err)
	}
	// Even one naming no game: the interaction is answered, so that is
	// what the caller hears.
	if _, err := db.Commit(ctx, match.Change{GameID: 404, From: match.Active, Status: match.Ended, InteractionID: "1234"}); !errors.Is(err, match.ErrDuplicate) {
		t.Fatalf("redelivery naming no game: %v", err)
	}
	if moves, _ := db.Moves(ctx, g.ID); len(moves) != 2 {
		t.Fatalf("%d moves after a redelivery, want 2", len(moves))
	}
	resp, err := db.Response(ctx, "1234")
	if err != nil || !bytes.Equal(resp, c.Response) {
		t.Fatalf("Response: %s, %v", resp, err)
	}

	t.Run("SaveResponse", func(t *testing.T) {
		if err := db.SaveResponse(ctx, "5678", []byte("hint")); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveResponse(ctx, "5678", []byte("other")); !errors.Is(err, match.ErrDuplicate) {
			t.Fatalf("second SaveResponse: %v", err)
		}
		if resp, err := db.Response(ctx, "5678"); err != nil || string(resp) != "hint" {
			t.Fatalf("Response: %q, %v", resp, err)
		}
		if err := db.SaveResponse(ctx, "empty", nil); err != nil {
			t.Fatal(err)
		}
		if resp, err := db.Response(ctx, "empty"); err != nil || len(resp) != 0 {
			t.Fatalf("Response: %q, %v", resp, err)
		}
		if _, err := db.Response(ctx, "nope"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("unknown interaction: %v", err)
		}
	})
	t.Run("Prune", func(t *testing.T) {
		// Nothing is older than the first write.
		if n, err := db.PruneInteractions(ctx, Epoch); err != nil || n != 0 {
			t.Fatalf("pruned %d, %v before anything was written; want 0", n, err)
		}
		n, err := db.PruneInteractions(ctx, Epoch.Add(time.Hour))
		if err != nil || n != 3 {
			t.Fatalf("pruned %d, %v; want 3", n, err)
		}
		if _, err := db.Response(ctx, "1234"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("after pruning: %v", err)
		}
		// The game the interaction played survives its answer.
		if got, err := db.Game(ctx, g.ID); err != nil || got.Ply != 2 {
			t.Fatalf("game after pruning: %+v, %v", got, err)
		}
	})
}

func testStats(t *testing.T, db match.Storage) {
	ctx := context.Background()
	channel := 0
	// finish plays one game in a new channel to the end with status.
	finish := func(players [2]string, variant engine.Variant, difficulty engine.Difficulty, status match.Status, winner string) {
		t.Helper()
		channel++
		g := NewGame(fmt.Sprint("c", channel), players, 1)
		g.Rules.Variant = variant
		g.Difficulty = difficulty
		MustCreate(t, db, g)
		if status == match.Won {
			g = Play(t, db, g, Take(0, 1))
			if g.Winner != winner {
				t.Fatalf("won by %s, want %s", g.Winner, winner)
			}
			return
		}
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, From: match.Active, Status: status, Winner: winner}); err != nil {
			t.Fatal(err)
		}
	}
	finish([2]string{"alice", "bob"}, engine.Nim, "", match.Won, "alice")                       // rated: alice 1216, bob 1184
	finish([2]string{"alice", "bob"}, engine.Wythoff, "", match.Resigned, "alice")              // rated
	finish([2]string{"bob", "alice"}, engine.Nim, "", match.Timeout, "alice")                   // rated
	finish([2]string{"alice", match.BotID}, engine.Nim, engine.Hard, match.Won, "alice")        // vs bot
	finish([2]string{match.BotID, "alice"}, engine.Nim, engine.Perfect, match.Won, match.BotID) // vs bot: streak broken
	finish([2]string{"alice", match.BotID}, engine.Kayles, engine.Hard, match.Resigned, match.BotID)
	finish([2]string{"alice", "bob"}, engine.Nim, "", match.Ended, "")      // no result
	finish([2]string{"carol", "carol"}, engine.Nim, "", match.Won, "carol") // self-play: not counted

	got, err := db.Stats(ctx, "guild", "alice", "")
	if err != nil {
		t.Fatal(err)
	}
	// Ratings over all variants: +16, +15 (1216 vs 1184), +13 (1231 vs 1169).
	want := match.Stats{UserID: "alice", Variant: "", Wins: 4, Losses: 2, Streak: 0, BestStreak: 4, Rating: 1200 + 16 + 15 + 13,
		VsBot: map[engine.Difficulty][2]int{engine.Hard: {1, 1}, engine.Perfect: {0, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("alice, all variants:\n%+v\nwant\n%+v", got, want)
	}
	got, _ = db.Stats(ctx, "guild", "alice", engine.Nim)
	want = match.Stats{UserID: "alice", Variant: engine.Nim, Wins: 3, Losses: 1, Streak: 0, BestStreak: 3, Rating: 1200 + 16 + 15,
		VsBot: map[engine.Difficulty][2]int{engine.Hard: {1, 0}, engine.Perfect: {0, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("alice, Nim:\n%+v\nwant\n%+v", got, want)
	}
	got, _ = db.Stats(ctx, "guild", "bob", engine.Wythoff)
	want = match.Stats{UserID: "bob", Variant: engine.Wythoff, Losses: 1, Rating: 1184, VsBot: map[engine.Difficulty][2]int{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bob, Wythoff:\n%+v\nwant\n%+v", got, want)
	}
	for _, who := range []string{"carol", "nobody", match.BotID} {
		got, _ = db.Stats(ctx, "guild", who, "")
		want = match.Stats{UserID: who, Rating: match.InitialRating, VsBot: map[engine.Difficulty][2]int{}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v", who, got)
		}
	}
	if got, _ := db.Stats(ctx, "another guild", "alice", ""); got.Wins != 0 {
		t.Errorf("stats leak across guilds: %+v", got)
	}

	board, err := db.Leaderboard(ctx, "guild", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range board {
		order = append(order, fmt.Sprintf("%s:%d", s.UserID, s.Rating))
	}
	if want := []string{"alice:1244", "bob:1156"}; !reflect.DeepEqual(order, want) {
		t.Errorf("leaderboard %v, want %v", order, want)
	}
	if board, _ := db.Leaderboard(ctx, "guild", engine.Nim, 1); len(board) != 1 || board[0].UserID != "alice" || board[0].VsBot[engine.Hard] != [2]int{1, 0} {
		t.Errorf("Nim leaderboard, limit 1: %+v", board)
	}
	if board, err := db.Leaderboard(ctx, "another guild", "", 10); err != nil || len(board) != 0 {
		t.Errorf("another guild's leaderboard: %+v, %v", board, err)
	}

	// Ties: equal ratings go to more wins, then fewer losses, then user id
	// in byte order.
	for _, p := range [][2]string{{"dave", match.BotID}, {"Erin", match.BotID}, {"erin", match.BotID}, {"frank", match.BotID}} {
		finish(p, engine.Lasker, engine.Easy, match.Won, p[0])
	}
	finish([2]string{match.BotID, "frank"}, engine.Lasker, engine.Easy, match.Won, match.BotID)
	board, err = db.Leaderboard(ctx, "guild", engine.Lasker, 10)
	if err != nil {
		t.Fatal(err)
	}
	order = nil
	for _, s := range board {
		order = append(order, fmt.Sprintf("%s:%d-%d", s.UserID, s.Wins, s.Losses))
	}
	if want := []string{"Erin:1-0", "dave:1-0", "erin:1-0", "frank:1-1"}; !reflect.DeepEqual(order, want) {
		t.Errorf("tied leaderboard %v, want %v", order, want)
	}
}

func testQueries(t *testing.T, open func(*testing.T) match.Storage) {
	ctx := context.Background()
	t.Run("Due", func(t *testing.T) {
		db := open(t)
		var ids []int64
		for i, d := range []time.Duration{3, 1, 2, 10} {
			g := NewGame(fmt.Sprint("c", i), [2]string{"alice", "bob"}, 3)
			g.Deadline = Epoch.Add(d * time.Minute)
			MustCreate(t, db, g)
			ids = append(ids, g.ID)
		}
		MustCreate(t, db, NewGame("no deadline", [2]string{"alice", "bob"}, 3))
		// A finished game is never due.
		if _, err := db.Commit(ctx, match.Change{GameID: ids[0], From: match.Active, Status: match.Ended}); err != nil {
			t.Fatal(err)
		}
		due, err := db.Due(ctx, Epoch.Add(5*time.Minute), 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, g := range due {
			got = append(got, g.ID)
		}
		if want := []int64{ids[1], ids[2]}; !reflect.DeepEqual(got, want) {
			t.Fatalf("due %v, want %v", got, want)
		}
		if due, _ := db.Due(ctx, Epoch.Add(5*time.Minute), 1); len(due) != 1 || due[0].ID != ids[1] {
			t.Fatalf("limit 1: %v", due)
		}
		// At the deadline itself the game is due.
		if due, _ := db.Due(ctx, Epoch.Add(time.Minute), 10); len(due) != 1 || due[0].ID != ids[1] {
			t.Fatalf("at the deadline: %v", due)
		}
	})
	t.Run("DueFiresOnce", func(t *testing.T) {
		// Several schedulers see the same due game and each ends it at the
		// ply Due returned: one succeeds, the rest are stale.
		db := open(t)
		g := NewGame("c1", [2]string{"alice", "bob"}, 3)
		g.Deadline = Epoch.Add(time.Minute)
		MustCreate(t, db, g)
		due, err := db.Due(ctx, Epoch.Add(time.Hour), 10)
		if err != nil || len(due) != 1 {
			t.Fatalf("due %v, %v", due, err)
		}
		const n = 10
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				d := due[0]
				_, errs[i] = db.Commit(ctx, match.Change{GameID: d.ID, Ply: d.Ply, From: d.Status,
					Status: match.Timeout, Winner: d.Players[(d.Ply+1)%2]})
			})
		}
		wg.Wait()
		fired := 0
		for _, err := range errs {
			switch {
			case err == nil:
				fired++
			case !errors.Is(err, match.ErrStale):
				t.Error(err)
			}
		}
		if fired != 1 {
			t.Fatalf("the deadline fired %d times", fired)
		}
		if s, _ := db.Stats(ctx, "guild", "bob", ""); s.Wins != 1 {
			t.Fatalf("bob's stats after one timeout: %+v", s)
		}
		if due, _ := db.Due(ctx, Epoch.Add(time.Hour), 10); len(due) != 0 {
			t.Fatalf("still due after firing: %v", due)
		}
	})
	t.Run("LastGameBy", func(t *testing.T) {
		db := open(t)
		MustCreate(t, db, NewGame("c1", [2]string{"alice", "bob"}, 3))
		newest := MustCreate(t, db, NewGame("c2", [2]string{"alice", match.BotID}, 3))
		MustCreate(t, db, NewGame("c3", [2]string{"bob", match.BotID}, 3))
		g, err := db.LastGameBy(ctx, "guild", "alice")
		if err != nil || g.ID != newest.ID {
			t.Fatalf("got %v, %v; want game %d", g, err, newest.ID)
		}
		if _, err := db.LastGameBy(ctx, "another guild", "alice"); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("another guild: %v", err)
		}
	})
	t.Run("LastChallengeBy", func(t *testing.T) {
		db := open(t)
		challenge := MustCreate(t, db, NewGame("c1", [2]string{"alice", "bob"}, 3))
		MustCreate(t, db, NewGame("c2", [2]string{"alice", match.BotID}, 3))
		MustCreate(t, db, NewGame("c2b", [2]string{"carol", "bob"}, 3))
		rematch := NewGame("c3", [2]string{"bob", "alice"}, 3)
		rematch.CreatedBy = "alice"
		rematch = MustCreate(t, db, rematch)
		MustCreate(t, db, NewGame("c4", [2]string{"alice", match.BotID}, 3))
		g, err := db.LastChallengeBy(ctx, "guild", "alice", challenge.CreatedAt)
		if err != nil || g.ID != rematch.ID {
			t.Fatalf("got %v, %v; want the newest game between people", g, err)
		}
		if _, err := db.LastChallengeBy(ctx, "guild", "alice", g.CreatedAt.Add(time.Millisecond)); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("a challenge before since: %v", err)
		}
		if _, err := db.LastChallengeBy(ctx, "guild", "dave", challenge.CreatedAt); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("dave: %v", err)
		}
		if _, err := db.LastChallengeBy(ctx, "another guild", "alice", challenge.CreatedAt); !errors.Is(err, match.ErrNotFound) {
			t.Fatalf("another guild: %v", err)
		}
	})
	t.Run("SetMessageID", func(t *testing.T) {
		db := open(t)
		g := MustCreate(t, db, NewGame("c1", [2]string{"alice", "bob"}, 3))
		if err := db.SetMessageID(ctx, g.ID, "987"); err != nil {
			t.Fatal(err)
		}
		got, _ := db.Game(ctx, g.ID)
		if got.MessageID != "987" || !got.UpdatedAt.After(g.UpdatedAt) {
			t.Fatalf("after SetMessageID: %+v", got)
		}
	})
}
