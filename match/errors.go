package match

import (
	"errors"
	"fmt"
	"time"
)

// Errors every Storage returns for the cases callers tell apart with
// errors.Is.
var (
	// ErrNotFound: no such game, or no live game in the channel, or no saved
	// response for the interaction.
	ErrNotFound = errors.New("not found")
	// ErrStale: the game has moved on since the caller looked at it (a stale
	// board, a double click, two players clicking at once), or it is over.
	ErrStale = errors.New("the game has moved on since this board was drawn")
	// ErrDuplicate: the interaction was already processed; its saved
	// response is available through Storage.Response.
	ErrDuplicate = errors.New("this interaction was already answered")
	// ErrChannelBusy: the channel already has a pending or active game; the
	// error is a *BusyError that carries it.
	ErrChannelBusy = errors.New("this channel already has a game")
	// ErrCooldown: CreateGame's Cooldown found a game between people the
	// creator made in the guild since; the error is a *CooldownError that
	// carries it.
	ErrCooldown = errors.New("the creator challenged someone too recently")
	// ErrInvalid: a request the storage refuses to write (an unknown status,
	// a winner who is not a player, …): a bug in the caller, not a user
	// error.
	ErrInvalid = errors.New("invalid")
	// ErrUnavailable: the database did not take the request (down,
	// restarting, unreachable, refusing connections), so the caller's
	// change was not made, unless the connection broke during its commit;
	// trying again later may succeed.
	ErrUnavailable = errors.New("the database is not answering")
)

// CooldownError is returned by CreateGame with Cooldown when the creator
// made a game between people in the guild at or after its since. It wraps
// ErrCooldown.
type CooldownError struct {
	// Last is that game, the newest.
	Last *Game
}

// Error says the creator challenged too recently, and when.
func (e *CooldownError) Error() string {
	return fmt.Sprintf("%v (game %d, created %s)", ErrCooldown, e.Last.ID, e.Last.CreatedAt.Format(time.RFC3339))
}

// Unwrap makes errors.Is(err, ErrCooldown) true.
func (e *CooldownError) Unwrap() error { return ErrCooldown }

// BusyError is returned by CreateGame when the channel already has a
// pending or active game. It wraps ErrChannelBusy.
type BusyError struct {
	// Game is the channel's existing pending or active game.
	Game *Game
}

// Error says the channel is busy and with which game.
func (e *BusyError) Error() string {
	return fmt.Sprintf("%v (game %d, %s)", ErrChannelBusy, e.Game.ID, e.Game.Status)
}

// Unwrap makes errors.Is(err, ErrChannelBusy) true.
func (e *BusyError) Unwrap() error { return ErrChannelBusy }
