// Package storetest is the storage contract's test suite: one set of tests
// that every implementation of nimbot's storage (the SQLite store, the
// PostgreSQL store) must pass, so that the product behaves the same on
// either.
//
// Storage names the contract: the methods the product calls. It is declared
// here, beside its suite, until the match domain (issue 11) gives it its
// home; it then moves there and the suite with it.
//
// The suite uses the contract alone, never an implementation's tables, so
// each backend's own tests keep what only it can check (triggers, SQLite
// files, connection settings).
package storetest

import (
	"context"
	"time"

	"nimbot/engine"
	"nimbot/store"
)

// Storage is what the product needs from a database.
type Storage interface {
	CreateGame(ctx context.Context, g *store.Game, opts ...store.CreateOption) error
	Game(ctx context.Context, id int64) (*store.Game, error)
	ChannelGame(ctx context.Context, channelID string) (*store.Game, error)
	Moves(ctx context.Context, gameID int64) ([]store.Move, error)
	LastGameBy(ctx context.Context, guildID, userID string) (*store.Game, error)
	LastChallengeBy(ctx context.Context, guildID, userID string, since time.Time) (*store.Game, error)
	Due(ctx context.Context, now time.Time, limit int) ([]*store.Game, error)
	SetMessageID(ctx context.Context, gameID int64, messageID string) error
	Commit(ctx context.Context, c store.Change) (*store.Game, error)
	RecordHint(ctx context.Context, h store.Hint) (bool, error)
	HintUsed(ctx context.Context, gameID int64, ply int, userID string) (bool, error)
	Response(ctx context.Context, interactionID string) ([]byte, error)
	SaveResponse(ctx context.Context, interactionID string, response []byte) error
	PruneInteractions(ctx context.Context, before time.Time) (int64, error)
	Stats(ctx context.Context, guildID, userID string, variant engine.Variant) (store.Stats, error)
	Leaderboard(ctx context.Context, guildID string, variant engine.Variant, limit int) ([]store.Stats, error)
	Ping(ctx context.Context) error
	Close() error
}

// Both stores implement the contract.
var _ Storage = (*store.DB)(nil)
