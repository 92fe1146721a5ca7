package match

import (
	"context"
	"fmt"
	"slices"
	"strconv"
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
	// ScheduleForget arranges for userID to be forgotten at at, for
	// Discord's APPLICATION_DEAUTHORIZED sent at event (the event's own
	// timestamp). Events apply in the order Discord sent them, not the
	// order they arrive: an event older than the latest one applied for
	// userID (a retried deauthorization after an authorization) changes
	// nothing. A forgetting already scheduled keeps its earlier time.
	ScheduleForget(ctx context.Context, userID string, event, at time.Time) error
	// CancelForget drops a forgetting scheduled for userID, for Discord's
	// APPLICATION_AUTHORIZED sent at event (the user added the app again);
	// it is remembered for EventsKept, so that an older deauthorization
	// arriving after it schedules nothing. None scheduled is no error.
	CancelForget(ctx context.Context, userID string, event time.Time) error
	// ForgetDue forgets up to limit users whose scheduled forgetting is at
	// or before now, each in its own transaction that also removes the
	// schedule, so that of several instances calling at once each user is
	// forgotten by one. A user who played after the deauthorization (moved
	// or started a game since: they still use nimbot in a server) is not
	// forgotten: the schedule is dropped instead. It returns the users
	// forgotten.
	ForgetDue(ctx context.Context, now time.Time, limit int) ([]string, error)
	// ForgetIdle forgets up to limit servers in which no game has changed
	// since before, each as ForgetGuild does, checking again in the
	// forgetting's transaction that none has (a game started meanwhile
	// keeps the server). It runs at most once per IdleSweepEvery across
	// every instance sharing the database (a claim row): a call that finds
	// the sweep claimed returns nothing at once. A sweep that fails leaves
	// its claim due, so the next call tries again. It returns the servers
	// forgotten.
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

// EventsKept is how long an APPLICATION_AUTHORIZED is remembered against
// an older APPLICATION_DEAUTHORIZED arriving late: Discord retries an
// event for minutes, not days.
const EventsKept = 24 * time.Hour

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
	// Puzzles counts their puzzle attempts made there.
	Puzzles int
	// Learning counts their puzzle rating and the lessons they began
	// (Scope "" only: they go wherever the user goes).
	Learning int
}

// HoldingCount names the count of a Holding that one of a store's
// queries fills; the stores list their queries in this order.
type HoldingCount int

// The counts of a Holding, in the order of the stores' queries.
const (
	CountGames HoldingCount = iota
	CountMoves
	CountHints
	CountRecords
	CountAnswers
	CountPuzzles
	CountLearning
)

// Tally gathers a store's counts by scope into Holdings.
type Tally map[string]*Holding

// Add adds n to count in scope's Holding; nothing for n 0.
func (t Tally) Add(scope string, count HoldingCount, n int) {
	if n == 0 {
		return
	}
	h := t[scope]
	if h == nil {
		h = &Holding{Scope: scope}
		t[scope] = h
	}
	switch count {
	case CountGames:
		h.Games += n
	case CountMoves:
		h.Moves += n
	case CountHints:
		h.Hints += n
	case CountRecords:
		h.Records += n
	case CountAnswers:
		h.Answers += n
	case CountPuzzles:
		h.Puzzles += n
	case CountLearning:
		h.Learning += n
	}
}

// List is the holdings in scope order, as Holdings returns them.
func (t Tally) List() []Holding {
	list := make([]Holding, 0, len(t))
	for _, h := range t {
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

// IsSnowflake reports whether s is a Discord id: 17 to 20 decimal digits
// that fit in a uint64. Discord's ids have had 17 digits since its first
// days; a shorter number would name no one, and would be found inside
// other ids and texts where forgetting looks for an id.
func IsSnowflake(s string) bool {
	if len(s) < 17 || len(s) > 20 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// CheckUserID refuses an id no person has: one that is no Discord id
// (IsSnowflake), which nimbot's own (BotID) and Tombstone are not either.
func CheckUserID(id string) error {
	if !IsSnowflake(id) {
		return fmt.Errorf("%w: %q is not a user's id", ErrInvalid, id)
	}
	return nil
}

// CheckGuildID refuses an id that names no server: one that is no Discord
// id (IsSnowflake), such as a private channel's scope (see Scope).
func CheckGuildID(id string) error {
	if !IsSnowflake(id) {
		return fmt.Errorf("%w: %q is not a server's id", ErrInvalid, id)
	}
	return nil
}
