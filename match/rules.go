package match

import (
	"errors"
	"fmt"
	"time"

	"nimbot/engine"
)

// Why a transition does not apply to a game in its state. The product
// checks for these before it asks (to say so in its own words); a
// transition refuses them anyway, so no caller can build a game the rules
// do not allow.
var (
	// ErrOver: the game has finished.
	ErrOver = errors.New("the game is over")
	// ErrNotStarted: the game is a challenge not yet accepted.
	ErrNotStarted = errors.New("the challenge has not been accepted")
	// ErrStarted: the challenge was already accepted.
	ErrStarted = errors.New("the challenge was already accepted")
	// ErrNotPlayer: the user is not one of the game's players.
	ErrNotPlayer = errors.New("not a player of this game")
	// ErrNotOver: the game is still going (a rematch is for finished
	// games).
	ErrNotOver = errors.New("the game is still going")
	// ErrNeverStarted: a challenge that was declined or expired has no
	// rematch.
	ErrNeverStarted = errors.New("the challenge never started")
	// ErrOverdue: the game's deadline has passed (Overdue); Expire is the
	// only transition left, whether or not the sweep has come yet.
	ErrOverdue = errors.New("the time to answer ran out")
)

// Timing is how long turns and challenges may take. A game's own
// TurnTimeout, when set, wins over BotTurn and PeopleTurn.
type Timing struct {
	// BotTurn is a turn's time in a game against nimbot; PeopleTurn between
	// people.
	BotTurn, PeopleTurn time.Duration
	// ChallengeTTL is how long a challenge waits for an answer.
	ChallengeTTL time.Duration
}

// Turn returns the time each turn of g may take.
func (t Timing) Turn(g *Game) time.Duration {
	if g.TurnTimeout > 0 {
		return g.TurnTimeout
	}
	if g.VsBot() {
		return t.BotTurn
	}
	return t.PeopleTurn
}

// Opponent returns the player of g who is not id (the second seat when id
// plays neither).
func (g *Game) Opponent(id string) string {
	if g.Players[0] == id {
		return g.Players[1]
	}
	return g.Players[0]
}

// Overdue reports whether g's deadline has passed at now: the turn, or the
// challenge, ran out of time, and the result is Expire's. The deadline
// decides it, not when the sweep (the product's Expire calls) comes round:
// a player who ran out of time cannot move, accept or resign their way out
// of the result in between.
func (g *Game) Overdue(now time.Time) bool {
	return !g.Status.Finished() && !g.Deadline.IsZero() && !now.Before(g.Deadline)
}

// onTime refuses every transition but Expire once g is Overdue at now.
func (g *Game) onTime(now time.Time) error {
	if g.Overdue(now) {
		return fmt.Errorf("game %d: %w", g.ID, ErrOverdue)
	}
	return nil
}

// VsBot reports whether nimbot is one of the players.
func (g *Game) VsBot() bool { return g.Players[0] == BotID || g.Players[1] == BotID }

// IsPlayer reports whether id plays in g.
func (g *Game) IsPlayer(id string) bool { return id == g.Players[0] || id == g.Players[1] }

// next returns a copy of g to change.
func (g *Game) next() *Game {
	n := *g
	return &n
}

// Play returns the game after the player to move plays m: the position and
// ply advance; if that ends the game, it is Won by whoever the rules say
// (the mover in normal play, the other player in misère) and has no
// deadline, else the next turn's deadline is now plus t.Turn. An illegal
// move returns the engine's error as it is; a move at or after the turn's
// deadline, ErrOverdue.
func (g *Game) Play(m engine.Move, now time.Time, t Timing) (*Game, error) {
	switch {
	case g.Status == Pending:
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrNotStarted)
	case g.Status.Finished():
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrOver)
	}
	if err := g.onTime(now); err != nil {
		return nil, err
	}
	pos, err := g.Rules.Apply(g.Position, m)
	if err != nil {
		return nil, err
	}
	mover := g.ToMove()
	n := g.next()
	n.Position, n.Ply = pos, g.Ply+1
	if n.Rules.Over(pos) {
		n.Status, n.Winner, n.Deadline = Won, mover, time.Time{}
		if !n.Rules.LastMoverWins() {
			n.Winner = n.Opponent(mover)
		}
		return n, nil
	}
	n.Deadline = now.Add(t.Turn(n))
	return n, nil
}

// Resign returns the game after user resigns at now: the other player
// wins. A player may resign on either player's turn, not before the
// challenge is accepted, nor once the game is Overdue.
func (g *Game) Resign(user string, now time.Time) (*Game, error) {
	switch {
	case g.Status.Finished():
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrOver)
	case !g.IsPlayer(user):
		return nil, fmt.Errorf("game %d, user %s: %w", g.ID, user, ErrNotPlayer)
	case g.Status == Pending:
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrNotStarted)
	}
	if err := g.onTime(now); err != nil {
		return nil, err
	}
	n := g.next()
	n.Status, n.Winner, n.Deadline = Resigned, g.Opponent(user), time.Time{}
	return n, nil
}

// End returns the game stopped at now without a winner (by its players, or
// a moderator: who may is the product's call). An Overdue game is not
// stopped: its deadline decided it.
func (g *Game) End(now time.Time) (*Game, error) {
	if g.Status.Finished() {
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrOver)
	}
	if err := g.onTime(now); err != nil {
		return nil, err
	}
	n := g.next()
	n.Status, n.Winner, n.Deadline = Ended, "", time.Time{}
	return n, nil
}

// Expire returns the game after its deadline passed: a challenge expires, a
// game against nimbot is abandoned (nimbot never runs out of time, and a
// person walking away from it is no win), and between people the player to
// move loses on time.
func (g *Game) Expire() (*Game, error) {
	if g.Status.Finished() {
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrOver)
	}
	n := g.next()
	n.Deadline = time.Time{}
	switch {
	case g.Status == Pending:
		n.Status = Expired
	case g.VsBot():
		n.Status = Abandoned
	default:
		n.Status, n.Winner = Timeout, g.Opponent(g.ToMove())
	}
	return n, nil
}

// Challenged returns who a challenge is for: the player who did not make it.
func (g *Game) Challenged() string { return g.Opponent(g.CreatedBy) }

// Accept returns the challenge accepted at now: the game is on, and the
// first turn has until now plus t.Turn. An Overdue challenge has expired.
func (g *Game) Accept(now time.Time, t Timing) (*Game, error) {
	if err := g.pending(now); err != nil {
		return nil, err
	}
	n := g.next()
	n.Status = Active
	n.Deadline = now.Add(t.Turn(g))
	return n, nil
}

// Decline returns the challenge turned down at now.
func (g *Game) Decline(now time.Time) (*Game, error) {
	if err := g.pending(now); err != nil {
		return nil, err
	}
	n := g.next()
	n.Status, n.Deadline = Declined, time.Time{}
	return n, nil
}

// pending refuses to answer a challenge that is not one any more, or no
// longer at now.
func (g *Game) pending(now time.Time) error {
	switch {
	case g.Status == Active:
		return fmt.Errorf("game %d: %w", g.ID, ErrStarted)
	case g.Status.Finished():
		return fmt.Errorf("game %d: %w", g.ID, ErrOver)
	}
	return g.onTime(now)
}

// Rematch returns a new game (not yet stored: no ID) like g, asked for by
// user in guildID's channelID, with the seats swapped so the other player
// moves first. Against nimbot it starts at once; between people it is a
// challenge, waiting t.ChallengeTTL for an answer. Only a finished game
// that started has a rematch, and only its players may ask.
func (g *Game) Rematch(user, guildID, channelID string, now time.Time, t Timing) (*Game, error) {
	switch {
	case !g.Status.Finished():
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrNotOver)
	case g.Status == Declined || g.Status == Expired:
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrNeverStarted)
	case !g.IsPlayer(user):
		return nil, fmt.Errorf("game %d, user %s: %w", g.ID, user, ErrNotPlayer)
	}
	n := &Game{
		GuildID: guildID, ChannelID: channelID,
		Rules: g.Rules, Start: g.Start, Position: g.Start,
		Players:    [2]string{g.Players[1], g.Players[0]},
		Difficulty: g.Difficulty, Hints: g.Hints, Locale: g.Locale, InteractionOnly: g.InteractionOnly,
		TurnTimeout: g.TurnTimeout, CreatedBy: user,
	}
	if n.TurnTimeout == 0 {
		n.TurnTimeout = t.Turn(g)
	}
	if !ValidLocale(n.Locale) {
		// A game stored before CheckNew asked for a locale's shape: its
		// rematch speaks English rather than fail.
		n.Locale = ""
	}
	if g.VsBot() {
		n.Status = Active
		n.Deadline = now.Add(n.TurnTimeout)
	} else {
		n.Status = Pending
		n.Deadline = now.Add(t.ChallengeTTL)
	}
	return n, nil
}

// Result is what a finished game counts for in the players' records.
type Result struct {
	// Winner and Loser are "" unless the game was decided (Won, Resigned,
	// Timeout).
	Winner, Loser string
	// Difficulty is nimbot's level when nimbot played, else "".
	Difficulty engine.Difficulty
	// Counted: the result counts in wins, losses and streaks. Only a decided
	// game between two different sides does; self-play and games without a
	// winner leave records alone.
	Counted bool
	// Rated: the result moves Elo ratings (EloDelta): counted, and between
	// people. A counted game against nimbot goes to the record against
	// nimbot at Difficulty instead.
	Rated bool
}

// Result returns what g, finished, counts for.
func (g *Game) Result() Result {
	var r Result
	if g.Status.Decided() {
		r.Winner, r.Loser = g.Winner, g.Opponent(g.Winner)
	}
	if g.VsBot() {
		r.Difficulty = g.Difficulty
	}
	r.Counted = r.Winner != "" && r.Loser != "" && r.Winner != r.Loser
	r.Rated = r.Counted && r.Winner != BotID && r.Loser != BotID
	return r
}

// CheckNew refuses a game Storage.CreateGame must not insert: one that is
// not Pending or Active at ply 0, has no channel, already has a winner, or
// has a locale not of a locale's shape (ValidLocale).
// A zero Position becomes a copy of Start. Storage calls it before its
// transaction.
func (g *Game) CheckNew() error {
	switch {
	case g.Status != Pending && g.Status != Active:
		return fmt.Errorf("%w: a new game must be pending or active, not %q", ErrInvalid, g.Status)
	case g.Ply != 0:
		return fmt.Errorf("%w: a new game starts at ply 0 (moves are added with Commit)", ErrInvalid)
	case g.ChannelID == "":
		return fmt.Errorf("%w: a game needs a channel", ErrInvalid)
	case g.Winner != "":
		return fmt.Errorf("%w: a new game has no winner", ErrInvalid)
	case !ValidLocale(g.Locale):
		return fmt.Errorf("%w: locale %.*q is not a locale's shape (at most %d letters, digits and hyphens)", ErrInvalid, MaxLocale, g.Locale, MaxLocale)
	}
	if g.Position.Heaps == nil {
		g.Position = engine.Position{Heaps: append([]int64(nil), g.Start.Heaps...), Limit: g.Start.Limit}
	}
	return nil
}

// Created is g as Storage reads it back once inserted as id at now: the
// times kept to the millisecond, as Game's fields say they are stored.
func (g Game) Created(id int64, now time.Time) Game {
	g.ID = id
	g.CreatedAt = Millis(now)
	g.UpdatedAt = g.CreatedAt
	g.Deadline = Millis(g.Deadline)
	g.TurnTimeout = g.TurnTimeout.Truncate(time.Millisecond)
	return g
}

// Millis is t as Storage keeps it: to the millisecond, in UTC; the zero
// time stays zero (no deadline).
func Millis(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.UnixMilli(t.UnixMilli()).UTC()
}

// Check refuses a Change no game could take: an unknown status, or a winner
// where there is none (or none where there is one). Storage checks it
// before its transaction.
func (c Change) Check() error {
	if !c.From.Valid() {
		return fmt.Errorf("%w: Change.From %q is not a status", ErrInvalid, c.From)
	}
	if !c.Status.Valid() {
		return fmt.Errorf("%w: Change.Status %q is not a status", ErrInvalid, c.Status)
	}
	if c.Status.Decided() != (c.Winner != "") {
		return fmt.Errorf("%w: a game %s has winner %q", ErrInvalid, c.Status, c.Winner)
	}
	if c.Seen != nil && len(c.Moves) == 0 {
		return fmt.Errorf("%w: Change.Seen without moves", ErrInvalid)
	}
	return nil
}

// Fit checks that c applies to g as stored now and returns the seating it
// leaves (c.Players, or g's): ErrStale if g has moved on from c.Ply and
// c.From or is over, or its board message is not c.Seen's; ErrInvalid if
// the winner is not a player. Storage calls it with the game's row locked,
// and checks c.Seen.Hinted itself (SeenHintStale).
func (c Change) Fit(g *Game) ([2]string, error) {
	if g.Ply != c.Ply || g.Status != c.From {
		return g.Players, fmt.Errorf("%w (game %d is at ply %d, %s; the request was for ply %d, %s)",
			ErrStale, g.ID, g.Ply, g.Status, c.Ply, c.From)
	}
	if g.Status.Finished() {
		return g.Players, fmt.Errorf("%w (game %d is over: %s)", ErrStale, g.ID, g.Status)
	}
	if c.Seen != nil && g.MessageID != c.Seen.MessageID {
		return g.Players, fmt.Errorf("%w (game %d's board is message %q; the request saw %q)", ErrStale, g.ID, g.MessageID, c.Seen.MessageID)
	}
	players := g.Players
	if c.Players != nil {
		players = *c.Players
	}
	if c.Winner != "" && c.Winner != players[0] && c.Winner != players[1] {
		return players, fmt.Errorf("%w: winner %q is not a player of game %d", ErrInvalid, c.Winner, g.ID)
	}
	return players, nil
}

// SeenHintStale is the ErrStale of a change whose c.Seen.Hinted is not
// what the store finds for game g at its ply.
func SeenHintStale(g *Game) error {
	return fmt.Errorf("%w (game %d: the hint at ply %d is not as the board was drawn)", ErrStale, g.ID, g.Ply)
}
