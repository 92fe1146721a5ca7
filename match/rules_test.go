package match_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

var (
	now    = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	timing = match.Timing{BotTurn: time.Hour, PeopleTurn: 24 * time.Hour, ChallengeTTL: 10 * time.Minute}
)

func take(h int, n int64) engine.Move { return engine.Move{Kind: engine.Take, Heap: h, Take: n} }

// game is an active game of Nim between alice (first) and p1 on heaps.
func game(p1 string, misere bool, heaps ...int64) *match.Game {
	pos := engine.Position{Heaps: heaps}
	return &match.Game{
		ID: 7, GuildID: "guild", ChannelID: "chan",
		Rules: engine.Rules{Variant: engine.Nim, Misere: misere},
		Start: pos, Position: pos,
		Players: [2]string{"alice", p1}, Status: match.Active,
		Difficulty: engine.Hard, CreatedBy: "alice",
	}
}

func with(g *match.Game, f func(*match.Game)) *match.Game {
	n := *g
	f(&n)
	return &n
}

func TestPlay(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		g                    *match.Game
		m                    engine.Move
		status               match.Status
		winner               string
		deadline             time.Time
		heaps                []int64
		err                  error
		engineErr, keepsGame bool
	}{
		{name: "OK", g: game("bob", false, 3, 4), m: take(0, 2), status: match.Active,
			deadline: now.Add(24 * time.Hour), heaps: []int64{1, 4}},
		{name: "OKVsBot", g: game(match.BotID, false, 3, 4), m: take(1, 1), status: match.Active,
			deadline: now.Add(time.Hour), heaps: []int64{3, 3}},
		{name: "OwnTurnTimeout", g: with(game("bob", false, 3), func(g *match.Game) { g.TurnTimeout = time.Minute }),
			m: take(0, 1), status: match.Active, deadline: now.Add(time.Minute), heaps: []int64{2}},
		{name: "LastMoveWins", g: game("bob", false, 0, 2), m: take(1, 2), status: match.Won, winner: "alice", heaps: []int64{0, 0}},
		{name: "MisereLastMoveLoses", g: game("bob", true, 0, 2), m: take(1, 2), status: match.Won, winner: "bob", heaps: []int64{0, 0}},
		{name: "SecondSeatWins", g: with(game("bob", false, 1), func(g *match.Game) { g.Ply = 3 }),
			m: take(0, 1), status: match.Won, winner: "bob", heaps: []int64{0}},
		{name: "Illegal", g: game("bob", false, 3), m: take(0, 4), engineErr: true},
		{name: "Pending", g: with(game("bob", false, 3), func(g *match.Game) { g.Status = match.Pending }), m: take(0, 1), err: match.ErrNotStarted},
		{name: "Over", g: with(game("bob", false, 3), func(g *match.Game) { g.Status = match.Ended }), m: take(0, 1), err: match.ErrOver},
		// The deadline decides, not the sweep: a move at the deadline is late.
		{name: "JustInTime", g: with(game("bob", false, 3), func(g *match.Game) { g.Deadline = now.Add(time.Nanosecond) }),
			m: take(0, 1), status: match.Active, deadline: now.Add(24 * time.Hour), heaps: []int64{2}},
		{name: "Overdue", g: with(game("bob", false, 3), func(g *match.Game) { g.Deadline = now }), m: take(0, 1), err: match.ErrOverdue},
		{name: "OverdueWinningMove", g: with(game("bob", false, 3), func(g *match.Game) { g.Deadline = now.Add(-time.Hour) }), m: take(0, 3), err: match.ErrOverdue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := *tc.g
			n, err := tc.g.Play(tc.m, now, timing)
			if !reflect.DeepEqual(*tc.g, before) {
				t.Fatalf("Play changed its game: %+v", tc.g)
			}
			switch {
			case tc.engineErr:
				if err == nil || errors.Is(err, match.ErrOver) || errors.Is(err, match.ErrNotStarted) {
					t.Fatalf("illegal move: %v", err)
				}
				return
			case tc.err != nil:
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if n.Status != tc.status || n.Winner != tc.winner || !n.Deadline.Equal(tc.deadline) ||
				n.Ply != tc.g.Ply+1 || !reflect.DeepEqual(n.Position.Heaps, tc.heaps) {
				t.Fatalf("after Play: %+v", n)
			}
		})
	}
}

func TestResign(t *testing.T) {
	g := game("bob", false, 3)
	g.Deadline = now.Add(time.Minute)
	for _, tc := range []struct {
		name, user, winner string
		g                  *match.Game
		err                error
	}{
		{name: "OnTheirTurn", g: g, user: "alice", winner: "bob"},
		{name: "OnTheOthersTurn", g: g, user: "bob", winner: "alice"},
		{name: "ErrOver", g: with(g, func(g *match.Game) { g.Status = match.Won; g.Winner = "bob" }), user: "alice", err: match.ErrOver},
		{name: "ErrNotPlayer", g: g, user: "carol", err: match.ErrNotPlayer},
		{name: "ErrNotStarted", g: with(g, func(g *match.Game) { g.Status = match.Pending }), user: "bob", err: match.ErrNotStarted},
		// Over comes first: a finished game is over for everyone.
		{name: "OverBeforeNotPlayer", g: with(g, func(g *match.Game) { g.Status = match.Ended }), user: "carol", err: match.ErrOver},
		// bob won on time at the deadline; resigning after it cannot give
		// alice the game (nor can alice resign what she already lost).
		{name: "ErrOverdue", g: with(g, func(g *match.Game) { g.Deadline = now }), user: "bob", err: match.ErrOverdue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tc.g.Resign(tc.user, now)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || n.Status != match.Resigned || n.Winner != tc.winner || !n.Deadline.IsZero() {
				t.Fatalf("after Resign: %+v, %v", n, err)
			}
		})
	}
}

func TestEndExpireAcceptDecline(t *testing.T) {
	// The deadlines are a minute ahead: End, Accept and Decline are on
	// time (Expire does not look).
	people := game("bob", false, 3, 4)
	people.Deadline, people.Ply = now.Add(time.Minute), 1
	bot := game(match.BotID, false, 3)
	bot.Deadline = now.Add(time.Minute)
	pending := with(people, func(g *match.Game) { g.Status, g.Ply = match.Pending, 0 })
	over := with(people, func(g *match.Game) { g.Status = match.Ended })
	overdue := func(g *match.Game) *match.Game { return with(g, func(g *match.Game) { g.Deadline = now }) }
	type step func(*match.Game) (*match.Game, error)
	end := func(g *match.Game) (*match.Game, error) { return g.End(now) }
	expire := func(g *match.Game) (*match.Game, error) { return g.Expire() }
	accept := func(g *match.Game) (*match.Game, error) { return g.Accept(now, timing) }
	decline := func(g *match.Game) (*match.Game, error) { return g.Decline(now) }
	for _, tc := range []struct {
		name     string
		do       step
		g        *match.Game
		status   match.Status
		winner   string
		deadline time.Time
		err      error
	}{
		{name: "End", do: end, g: people, status: match.Ended},
		{name: "EndChallenge", do: end, g: pending, status: match.Ended},
		{name: "EndErrOver", do: end, g: over, err: match.ErrOver},
		{name: "ExpireChallenge", do: expire, g: pending, status: match.Expired},
		{name: "ExpireVsBot", do: expire, g: bot, status: match.Abandoned},
		// Ply 1: bob is to move and runs out of time.
		{name: "ExpireTimeout", do: expire, g: people, status: match.Timeout, winner: "alice"},
		{name: "ExpireErrOver", do: expire, g: over, err: match.ErrOver},
		{name: "Accept", do: accept, g: pending, status: match.Active, deadline: now.Add(24 * time.Hour)},
		{name: "AcceptOwnTimeout", do: accept, g: with(pending, func(g *match.Game) { g.TurnTimeout = time.Minute }),
			status: match.Active, deadline: now.Add(time.Minute)},
		{name: "AcceptErrStarted", do: accept, g: people, err: match.ErrStarted},
		{name: "AcceptErrOver", do: accept, g: over, err: match.ErrOver},
		{name: "Decline", do: decline, g: pending, status: match.Declined},
		{name: "DeclineErrStarted", do: decline, g: people, err: match.ErrStarted},
		{name: "DeclineErrOver", do: decline, g: over, err: match.ErrOver},
		// Past the deadline only Expire applies: bob's loss on time cannot
		// be ended away, and an expired challenge not accepted.
		{name: "EndErrOverdue", do: end, g: overdue(people), err: match.ErrOverdue},
		{name: "AcceptErrOverdue", do: accept, g: overdue(pending), err: match.ErrOverdue},
		{name: "DeclineErrOverdue", do: decline, g: overdue(pending), err: match.ErrOverdue},
		{name: "ExpireOverdue", do: expire, g: overdue(people), status: match.Timeout, winner: "alice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := *tc.g
			n, err := tc.do(tc.g)
			if !reflect.DeepEqual(*tc.g, before) {
				t.Fatalf("the transition changed its game: %+v", tc.g)
			}
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || n.Status != tc.status || n.Winner != tc.winner || !n.Deadline.Equal(tc.deadline) ||
				n.Ply != tc.g.Ply || !reflect.DeepEqual(n.Position, tc.g.Position) {
				t.Fatalf("got %+v, %v", n, err)
			}
		})
	}
}

func TestOverdue(t *testing.T) {
	g := game("bob", false, 3)
	for _, tc := range []struct {
		name string
		g    *match.Game
		want bool
	}{
		{"NoDeadline", g, false},
		{"Before", with(g, func(g *match.Game) { g.Deadline = now.Add(time.Nanosecond) }), false},
		{"AtTheDeadline", with(g, func(g *match.Game) { g.Deadline = now }), true},
		{"After", with(g, func(g *match.Game) { g.Deadline = now.Add(-time.Hour) }), true},
		{"Challenge", with(g, func(g *match.Game) { g.Status, g.Deadline = match.Pending, now }), true},
		{"Finished", with(g, func(g *match.Game) { g.Status, g.Deadline = match.Won, now }), false},
	} {
		if got := tc.g.Overdue(now); got != tc.want {
			t.Errorf("%s: Overdue = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRematch(t *testing.T) {
	people := with(game("bob", false, 3, 4), func(g *match.Game) {
		g.Status, g.Winner, g.Ply, g.Position = match.Won, "bob", 2, engine.Position{Heaps: []int64{0, 0}}
	})
	bot := with(people, func(g *match.Game) { g.Players[1], g.Winner = match.BotID, match.BotID })
	for _, tc := range []struct {
		name, user string
		g          *match.Game
		want       *match.Game
		err        error
	}{
		{name: "People", g: people, user: "bob", want: &match.Game{
			GuildID: "g2", ChannelID: "c2", Rules: people.Rules, Start: people.Start, Position: people.Start,
			Players: [2]string{"bob", "alice"}, Status: match.Pending, Difficulty: engine.Hard,
			TurnTimeout: 24 * time.Hour, Deadline: now.Add(10 * time.Minute), CreatedBy: "bob"}},
		{name: "VsBot", g: bot, user: "alice", want: &match.Game{
			GuildID: "g2", ChannelID: "c2", Rules: bot.Rules, Start: bot.Start, Position: bot.Start,
			Players: [2]string{match.BotID, "alice"}, Status: match.Active, Difficulty: engine.Hard,
			TurnTimeout: time.Hour, Deadline: now.Add(time.Hour), CreatedBy: "alice"}},
		{name: "KeepsTurnTimeoutAndLocale", g: with(bot, func(g *match.Game) {
			g.TurnTimeout, g.Hints, g.Locale, g.InteractionOnly = time.Minute, true, "de", true
		}), user: "alice", want: &match.Game{
			GuildID: "g2", ChannelID: "c2", Rules: bot.Rules, Start: bot.Start, Position: bot.Start,
			Players: [2]string{match.BotID, "alice"}, Status: match.Active, Difficulty: engine.Hard, Hints: true, Locale: "de", InteractionOnly: true,
			TurnTimeout: time.Minute, Deadline: now.Add(time.Minute), CreatedBy: "alice"}},
		{name: "StoredLocaleNotOfShape", g: with(bot, func(g *match.Game) { g.Locale = "de\x00" }), user: "alice", want: &match.Game{
			GuildID: "g2", ChannelID: "c2", Rules: bot.Rules, Start: bot.Start, Position: bot.Start,
			Players: [2]string{match.BotID, "alice"}, Status: match.Active, Difficulty: engine.Hard,
			TurnTimeout: time.Hour, Deadline: now.Add(time.Hour), CreatedBy: "alice"}},
		{name: "ErrNotOver", g: game("bob", false, 3), user: "alice", err: match.ErrNotOver},
		{name: "ErrNeverStartedDeclined", g: with(people, func(g *match.Game) { g.Status, g.Winner = match.Declined, "" }), user: "alice", err: match.ErrNeverStarted},
		{name: "ErrNeverStartedExpired", g: with(people, func(g *match.Game) { g.Status, g.Winner = match.Expired, "" }), user: "alice", err: match.ErrNeverStarted},
		{name: "ErrNotPlayer", g: people, user: "carol", err: match.ErrNotPlayer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tc.g.Rematch(tc.user, "g2", "c2", now, timing)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(n, tc.want) {
				t.Fatalf("got\n%+v, %v\nwant\n%+v", n, err, tc.want)
			}
		})
	}
}

func TestResult(t *testing.T) {
	people := game("bob", false, 0)
	bot := game(match.BotID, false, 0)
	self := game("alice", false, 0)
	for _, tc := range []struct {
		name string
		g    *match.Game
		want match.Result
	}{
		{name: "WonBetweenPeople", g: with(people, func(g *match.Game) { g.Status, g.Winner = match.Won, "bob" }),
			want: match.Result{Winner: "bob", Loser: "alice", Counted: true, Rated: true}},
		{name: "Resigned", g: with(people, func(g *match.Game) { g.Status, g.Winner = match.Resigned, "alice" }),
			want: match.Result{Winner: "alice", Loser: "bob", Counted: true, Rated: true}},
		{name: "Timeout", g: with(people, func(g *match.Game) { g.Status, g.Winner = match.Timeout, "alice" }),
			want: match.Result{Winner: "alice", Loser: "bob", Counted: true, Rated: true}},
		{name: "VsBotCountedNotRated", g: with(bot, func(g *match.Game) { g.Status, g.Winner = match.Won, match.BotID }),
			want: match.Result{Winner: match.BotID, Loser: "alice", Difficulty: engine.Hard, Counted: true}},
		{name: "AbandonedVsBot", g: with(bot, func(g *match.Game) { g.Status = match.Abandoned }),
			want: match.Result{Difficulty: engine.Hard}},
		{name: "SelfPlay", g: with(self, func(g *match.Game) { g.Status, g.Winner = match.Won, "alice" }),
			want: match.Result{Winner: "alice", Loser: "alice"}},
		{name: "Ended", g: with(people, func(g *match.Game) { g.Status = match.Ended }), want: match.Result{}},
		{name: "Declined", g: with(people, func(g *match.Game) { g.Status = match.Declined }), want: match.Result{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.g.Result(); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestEloDelta(t *testing.T) {
	for _, tc := range []struct{ winner, loser, want int }{
		{match.InitialRating, match.InitialRating, match.RatingK / 2},
		{1400, 1000, 3},  // the favourite wins: little to gain
		{1000, 1400, 29}, // the upset: nearly all of K
		{1000, 3000, match.RatingK},
		{3000, 1000, 0},
	} {
		if got := match.EloDelta(tc.winner, tc.loser); got != tc.want {
			t.Errorf("EloDelta(%d, %d) = %d, want %d", tc.winner, tc.loser, got, tc.want)
		}
	}
}

func TestChangeCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    match.Change
		ok   bool
	}{
		{"OK", match.Change{From: match.Active, Status: match.Active}, true},
		{"OKWinner", match.Change{From: match.Active, Status: match.Won, Winner: "a"}, true},
		{"UnknownFrom", match.Change{From: "playing", Status: match.Active}, false},
		{"UnknownStatus", match.Change{From: match.Active, Status: "done"}, false},
		{"DecidedWithoutWinner", match.Change{From: match.Active, Status: match.Resigned}, false},
		{"WinnerOfNothing", match.Change{From: match.Active, Status: match.Ended, Winner: "a"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.Check()
			if tc.ok != (err == nil) || (err != nil && !errors.Is(err, match.ErrInvalid)) {
				t.Fatalf("Check: %v", err)
			}
		})
	}
}

func TestChangeFit(t *testing.T) {
	g := game("bob", false, 3)
	g.Ply = 2
	swapped := [2]string{"bob", "carol"}
	for _, tc := range []struct {
		name    string
		g       *match.Game
		c       match.Change
		players [2]string
		err     error
	}{
		{name: "OK", g: g, c: match.Change{Ply: 2, From: match.Active, Status: match.Won, Winner: "bob"}, players: g.Players},
		{name: "NewSeats", g: g, c: match.Change{Ply: 2, From: match.Active, Status: match.Won, Winner: "carol", Players: &swapped}, players: swapped},
		{name: "StalePly", g: g, c: match.Change{Ply: 1, From: match.Active, Status: match.Active}, err: match.ErrStale},
		{name: "StaleStatus", g: g, c: match.Change{Ply: 2, From: match.Pending, Status: match.Active}, err: match.ErrStale},
		{name: "Over", g: with(g, func(g *match.Game) { g.Status = match.Ended }), c: match.Change{Ply: 2, From: match.Ended, Status: match.Ended}, err: match.ErrStale},
		{name: "WinnerNotPlaying", g: g, c: match.Change{Ply: 2, From: match.Active, Status: match.Won, Winner: "carol"}, err: match.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			players, err := tc.c.Fit(tc.g)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || players != tc.players {
				t.Fatalf("got %v, %v", players, err)
			}
		})
	}
}

func TestTiming(t *testing.T) {
	if got := timing.Turn(game("bob", false, 1)); got != 24*time.Hour {
		t.Errorf("between people: %v", got)
	}
	if got := timing.Turn(game(match.BotID, false, 1)); got != time.Hour {
		t.Errorf("against nimbot: %v", got)
	}
	if got := timing.Turn(with(game(match.BotID, false, 1), func(g *match.Game) { g.TurnTimeout = time.Second })); got != time.Second {
		t.Errorf("the game's own: %v", got)
	}
}
