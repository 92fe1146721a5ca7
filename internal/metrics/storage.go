package metrics

import (
	"context"
	"errors"
	"time"

	"nimbot/engine"
	"nimbot/match"
)

// Storage returns db counting the moves it commits and the calls that
// fail (nimbot_moves_total, nimbot_database_errors_total). The answers
// every storage gives as part of its contract (ErrNotFound, ErrStale,
// ErrDuplicate, a busy channel, a cooldown, ErrInvalid) are no database
// failure and are not counted. With a nil m, db is returned as it is.
func (m *Metrics) Storage(db match.Storage) match.Storage {
	if m == nil {
		return db
	}
	s := &storage{Storage: db, m: m}
	if c, ok := db.(claimer); ok {
		return claimingStorage{s, c}
	}
	return s
}

// claimer is the optional method of a storage shared by several instances
// (store/postgres), which package commands looks for: the wrapper keeps
// it.
type claimer interface {
	ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*match.Game, error)
}

type claimingStorage struct {
	*storage
	c claimer
}

func (s claimingStorage) ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*match.Game, error) {
	gs, err := s.c.ClaimDue(ctx, now, lease, limit)
	s.count(ctx, err)
	return gs, err
}

type storage struct {
	match.Storage
	m *Metrics
}

// count counts err, a failure of a call made with ctx, unless it is one
// of the contract's answers.
func (s *storage) count(ctx context.Context, err error) {
	if err == nil {
		return
	}
	for _, answer := range []error{match.ErrNotFound, match.ErrStale, match.ErrDuplicate,
		match.ErrChannelBusy, match.ErrCooldown, match.ErrInvalid} {
		if errors.Is(err, answer) {
			return
		}
	}
	s.m.dbError(ctx, err)
}

func (s *storage) CreateGame(ctx context.Context, g *match.Game, opts ...match.CreateOption) error {
	err := s.Storage.CreateGame(ctx, g, opts...)
	s.count(ctx, err)
	if first := match.ReadCreateOptions(opts...).FirstTurn; err == nil && first != nil {
		s.m.moves.Add(float64(len(first.Moves)))
	}
	return err
}

func (s *storage) Commit(ctx context.Context, c match.Change) (*match.Game, error) {
	g, err := s.Storage.Commit(ctx, c)
	s.count(ctx, err)
	if err == nil {
		s.m.moves.Add(float64(len(c.Moves)))
	}
	return g, err
}

func (s *storage) Game(ctx context.Context, id int64) (*match.Game, error) {
	g, err := s.Storage.Game(ctx, id)
	s.count(ctx, err)
	return g, err
}

func (s *storage) ChannelGame(ctx context.Context, channelID string) (*match.Game, error) {
	g, err := s.Storage.ChannelGame(ctx, channelID)
	s.count(ctx, err)
	return g, err
}

func (s *storage) Moves(ctx context.Context, gameID int64) ([]match.Move, error) {
	ms, err := s.Storage.Moves(ctx, gameID)
	s.count(ctx, err)
	return ms, err
}

func (s *storage) Board(ctx context.Context, id int64) (*match.Board, error) {
	b, err := s.Storage.Board(ctx, id)
	s.count(ctx, err)
	return b, err
}

func (s *storage) LastGameBy(ctx context.Context, guildID, userID string) (*match.Game, error) {
	g, err := s.Storage.LastGameBy(ctx, guildID, userID)
	s.count(ctx, err)
	return g, err
}

func (s *storage) LastChallengeBy(ctx context.Context, guildID, userID string, since time.Time) (*match.Game, error) {
	g, err := s.Storage.LastChallengeBy(ctx, guildID, userID, since)
	s.count(ctx, err)
	return g, err
}

func (s *storage) Due(ctx context.Context, now time.Time, limit int) ([]*match.Game, error) {
	gs, err := s.Storage.Due(ctx, now, limit)
	s.count(ctx, err)
	return gs, err
}

func (s *storage) SetMessageID(ctx context.Context, gameID int64, messageID string) error {
	err := s.Storage.SetMessageID(ctx, gameID, messageID)
	s.count(ctx, err)
	return err
}

func (s *storage) RecordHint(ctx context.Context, h match.Hint) (bool, error) {
	ok, err := s.Storage.RecordHint(ctx, h)
	s.count(ctx, err)
	return ok, err
}

func (s *storage) HintUsed(ctx context.Context, gameID int64, ply int, userID string) (bool, error) {
	ok, err := s.Storage.HintUsed(ctx, gameID, ply, userID)
	s.count(ctx, err)
	return ok, err
}

func (s *storage) Response(ctx context.Context, interactionID string) ([]byte, error) {
	b, err := s.Storage.Response(ctx, interactionID)
	s.count(ctx, err)
	return b, err
}

func (s *storage) SaveResponse(ctx context.Context, interactionID string, response []byte) error {
	err := s.Storage.SaveResponse(ctx, interactionID, response)
	s.count(ctx, err)
	return err
}

func (s *storage) PruneInteractions(ctx context.Context, before time.Time) (int64, error) {
	n, err := s.Storage.PruneInteractions(ctx, before)
	s.count(ctx, err)
	return n, err
}

func (s *storage) Stats(ctx context.Context, scope, userID string, variant engine.Variant) (match.Stats, error) {
	st, err := s.Storage.Stats(ctx, scope, userID, variant)
	s.count(ctx, err)
	return st, err
}

func (s *storage) Leaderboard(ctx context.Context, scope string, variant engine.Variant, limit int) ([]match.Stats, error) {
	st, err := s.Storage.Leaderboard(ctx, scope, variant, limit)
	s.count(ctx, err)
	return st, err
}

func (s *storage) Ping(ctx context.Context) error {
	err := s.Storage.Ping(ctx)
	s.count(ctx, err)
	return err
}
