package match

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Privacy is the part of the storage contract that answers for people's
// data: what nimbot holds about a user, and forgetting a user or a server
// on request, after a user withdrew the app, or after a server went quiet.
//
// Forgetting is one transaction per user or server and idempotent: a second
// call finds nothing and changes nothing. A user is forgotten everywhere:
// their records (stats, ratings, records against nimbot), the hints they
// asked for and every saved answer that names them are deleted; games of
// theirs still pending or active are ended without a result; finished games
// with another person keep their moves and results under Tombstone, so the
// other players' results and ratings stay as they were; games with nobody
// else in them (against nimbot, or a challenge never accepted) are deleted.
// A server is forgotten whole: its games, results, records and the saved
// answers that name it.
type Privacy interface {
	// Holdings returns what the store holds about userID: one Holding per
	// scope (a server, or "dm:" and a private channel's id), in scope order,
	// and the saved answers that name the user under scope "". Nothing held
	// is an empty slice.
	Holdings(ctx context.Context, userID string) ([]Holding, error)
	// ForgetUser forgets userID everywhere (see Privacy) and cancels a
	// forgetting scheduled for them. ErrInvalid for an id that is not a
	// person's (CheckUserID).
	ForgetUser(ctx context.Context, userID string) (Forgotten, error)
	// ForgetGuild forgets the server guildID. ErrInvalid for "" or a
	// private channel's scope (CheckGuildID).
	ForgetGuild(ctx context.Context, guildID string) (Forgotten, error)
	// ScheduleForget arranges for userID to be forgotten at at (Discord's
	// APPLICATION_DEAUTHORIZED plus a grace period). A forgetting already
	// scheduled keeps its earlier time.
	ScheduleForget(ctx context.Context, userID string, at time.Time) error
	// CancelForget drops a forgetting scheduled for userID (the user
	// authorized the app again); none scheduled is no error.
	CancelForget(ctx context.Context, userID string) error
	// ForgetDue forgets up to limit users whose scheduled forgetting is at
	// or before now, each in its own transaction that also removes the
	// schedule, so that of several instances calling at once each user is
	// forgotten by one. It returns the users forgotten.
	ForgetDue(ctx context.Context, now time.Time, limit int) ([]string, error)
	// ForgetIdle forgets up to limit servers in which no game has changed
	// since before, each as ForgetGuild does. It runs at most once per
	// IdleSweepEvery across every instance sharing the database (a claim
	// row): a call that finds the sweep claimed returns nothing at once.
	// It returns the servers forgotten.
	ForgetIdle(ctx context.Context, now, before time.Time, limit int) ([]string, error)
}

// Tombstone is the player id a forgotten user's seat in a finished game
// with another person becomes: the game, its moves and its result stay for
// the other player, and no longer name the user.
const Tombstone = "deleted"

// IdleSweepEvery is how often Privacy.ForgetIdle looks for idle servers:
// the idle time is months, so a day late is nothing, and the sweep reads
// every game.
const IdleSweepEvery = 24 * time.Hour

// Holding is what the store holds about one user in one scope.
type Holding struct {
	// Scope is a server's id, "dm:" and a private channel's id, or "" for
	// the saved answers, which belong to no scope.
	Scope string
	// Games counts the games they played or were challenged to; Moves the
	// moves they made; Hints the hints they asked for.
	Games, Moves, Hints int
	// Records counts their records: a row of stats and rating per variant
	// (and the all-variants one), and a record against nimbot per variant
	// and difficulty.
	Records int
	// Answers counts the saved answers that name them (Scope "" only).
	Answers int
}

// SortHoldings lists the holdings of m in scope order, as Holdings returns
// them; it is for the stores, which gather them by scope.
func SortHoldings(m map[string]*Holding) []Holding {
	list := make([]Holding, 0, len(m))
	for _, h := range m {
		list = append(list, *h)
	}
	slices.SortFunc(list, func(a, b Holding) int { return strings.Compare(a.Scope, b.Scope) })
	return list
}

// Forgotten is what one forgetting changed. The zero value is nothing:
// what a second forgetting of the same user or server returns.
type Forgotten struct {
	// Ended counts the user's games in progress ended without a result.
	Ended int64
	// Deleted counts the games deleted; Anonymized the finished games kept
	// with Tombstone in the user's seat.
	Deleted, Anonymized int64
	// Records counts the records deleted (stats and ratings, records
	// against nimbot), Hints the hints and Answers the saved answers.
	Records, Hints, Answers int64
}

// Zero reports whether f changed nothing.
func (f Forgotten) Zero() bool { return f == Forgotten{} }

// CheckUserID refuses an id no person has: empty, nimbot's own (BotID) or
// Tombstone.
func CheckUserID(id string) error {
	if id == "" || id == BotID || id == Tombstone {
		return fmt.Errorf("%w: %q is not a user's id", ErrInvalid, id)
	}
	return nil
}

// CheckGuildID refuses an id that names no server: empty, or a private
// channel's scope (see Scope).
func CheckGuildID(id string) error {
	if id == "" || strings.HasPrefix(id, "dm:") {
		return fmt.Errorf("%w: %q is not a server's id", ErrInvalid, id)
	}
	return nil
}
