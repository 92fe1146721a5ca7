package store

import (
	"errors"
	"fmt"
)

// Errors callers tell apart with errors.Is.
var (
	// ErrNotFound: no such game, or no live game in the channel, or no saved
	// response for the interaction.
	ErrNotFound = errors.New("not found")
	// ErrStale: the game has moved on since the caller looked at it (a stale
	// board, a double click, two players clicking at once), or it is over.
	ErrStale = errors.New("the game has moved on since this board was drawn")
	// ErrDuplicate: the interaction was already processed; its saved
	// response is available through DB.Response.
	ErrDuplicate = errors.New("this interaction was already answered")
	// ErrChannelBusy: the channel already has a pending or active game; the
	// error is a *BusyError that carries it.
	ErrChannelBusy = errors.New("this channel already has a game")
	// ErrInvalid: a request the store refuses to write (an unknown status, a
	// winner who is not a player, …): a bug in the caller, not a user error.
	ErrInvalid = errors.New("invalid")
)

// Causes of an *OpenError, for errors.Is.
var (
	// ErrUnwritable: the path cannot be created or written (missing folder,
	// a directory, no permission).
	ErrUnwritable = errors.New("cannot write the database file")
	// ErrNotDatabase: the file exists but is not a nimbot SQLite database.
	ErrNotDatabase = errors.New("not a nimbot database")
	// ErrSchemaTooNew: a newer nimbot has migrated the file past what this
	// binary knows; running on it could corrupt data the newer schema keeps.
	ErrSchemaTooNew = errors.New("database schema is newer than this nimbot")
	// ErrLocked: another process holds the database's write lock.
	ErrLocked = errors.New("database is locked by another process")
)

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

// OpenError is Open's failure: which file, and why. Err wraps one of
// ErrUnwritable, ErrNotDatabase, ErrSchemaTooNew, ErrLocked, or SQLite's own
// error.
type OpenError struct {
	Path string
	Err  error
}

// Error names the file and the cause.
func (e *OpenError) Error() string {
	return fmt.Sprintf("store: cannot open database %s: %v", e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *OpenError) Unwrap() error { return e.Err }
