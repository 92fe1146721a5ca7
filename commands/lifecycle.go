package commands

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// BoardSent records m as the board of its game when the response to i
// created a new board message (a start, a rematch, /nim status, a move made
// by slash command); bot calls it after fetching @original. Messages that
// are not boards (stats, rules) are ignored. Later edits go to the newest
// board.
func (s *Service) BoardSent(ctx context.Context, i *discordgo.Interaction, m *discordgo.Message) error {
	if m == nil || m.ID == "" || m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		// Hints and reviews are ephemeral and carry game controls too; they
		// are never the board.
		return nil
	}
	gameID, ok := boardGame(m)
	if !ok {
		return nil
	}
	g, err := s.db.Game(ctx, gameID)
	if errors.Is(err, match.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("board sent: load game %d: %w", gameID, err)
	}
	if g.MessageID == m.ID {
		return nil
	}
	if err := s.db.SetMessageID(ctx, g.ID, m.ID); err != nil {
		return fmt.Errorf("board sent: record message %s for game %d: %w", m.ID, g.ID, err)
	}
	return nil
}

// boardGame finds the game a board message belongs to, from its first
// control of a kind only boards carry (see Control): hint and review
// messages carry only hint and review controls, so they never count as
// boards.
func boardGame(m *discordgo.Message) (int64, bool) {
	for _, c := range m.Components {
		if n, ok := componentGame(c); ok {
			return n, true
		}
	}
	return 0, false
}

func componentGame(c discordgo.MessageComponent) (int64, bool) {
	var cid string
	switch v := c.(type) {
	case *discordgo.ActionsRow:
		return componentGame(*v)
	case discordgo.ActionsRow:
		for _, cc := range v.Components {
			if n, ok := componentGame(cc); ok {
				return n, true
			}
		}
		return 0, false
	case *discordgo.Button:
		cid = v.CustomID
	case discordgo.Button:
		cid = v.CustomID
	case *discordgo.SelectMenu:
		cid = v.CustomID
	case discordgo.SelectMenu:
		cid = v.CustomID
	}
	ctl, err := ParseControl(cid)
	if err != nil || !controlKinds[ctl.kindName()].marksBoard() {
		return 0, false
	}
	game, _ := ctl.Target()
	return game, true
}

// expireBatch bounds the games one Expire call ends.
const expireBatch = 100

// claimLease is how long a due game claimed by Expire is left to this
// Service by the others sharing its database: far longer than ending a
// batch takes, and short enough that games claimed by an instance that died
// are ended by another a minute later.
const claimLease = time.Minute

// claimer is a store shared by several instances (store/postgres) that can
// lease the due games it returns, so that instances polling together never
// work on the same game. Without it Due is used, and the ply checked by
// Commit still lets a deadline fire only once.
type claimer interface {
	ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*match.Game, error)
}

// Expire ends every game whose deadline has passed — a challenge expires, a
// game between people is lost on time by the player to move, a game against
// nimbot is abandoned — and returns the edits that show the result on their
// boards, addressed by their Channel and ID. A game that moved meanwhile is
// left alone (the commit is stale).
func (s *Service) Expire(ctx context.Context) ([]*discordgo.MessageEdit, error) {
	now := s.now()
	var due []*match.Game
	var err error
	if c, ok := s.db.(claimer); ok {
		due, err = c.ClaimDue(ctx, now, claimLease, expireBatch)
	} else {
		due, err = s.db.Due(ctx, now, expireBatch)
	}
	if err != nil {
		return nil, fmt.Errorf("expire: due games: %w", err)
	}
	var edits []*discordgo.MessageEdit
	var errs []error
	for _, g := range due {
		next, err := g.Expire()
		if err != nil {
			errs = append(errs, fmt.Errorf("expire game %d: %w", g.ID, err))
			continue
		}
		_, err = s.db.Commit(ctx, match.Change{
			GameID: g.ID, Ply: g.Ply, From: g.Status,
			Position: g.Position, Status: next.Status, Winner: next.Winner,
		})
		if errors.Is(err, match.ErrStale) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("expire game %d: %w", g.ID, err))
			continue
		}
		if g.MessageID == "" || g.InteractionOnly {
			// No board recorded, or nimbot may not edit it by REST (no
			// member of the channel): the board shows the result at the
			// next click on it (settledBoard).
			continue
		}
		moves, err := s.db.Moves(ctx, g.ID)
		if err != nil {
			errs = append(errs, fmt.Errorf("expire game %d: moves: %w", g.ID, err))
			continue
		}
		b := board{g: next, moves: moves, selected: -1}
		edits = append(edits, b.edit(g.ChannelID, g.MessageID))
	}
	return edits, errors.Join(errs...)
}

// Turn is who must act next in a channel's game, for a transport that
// passes the keyboard (the terminal's hot-seat).
type Turn struct {
	// Game reports whether the channel has a game waiting for someone (a
	// challenge or a game in play).
	Game bool
	// UserID is who must act: the player to move, or the one challenged.
	UserID string
	// Challenge reports that UserID is to accept or decline a challenge
	// made by ChallengedBy, rather than to move.
	Challenge    bool
	ChallengedBy string
}

// Turn says who must act next in the channel's game; the zero Turn when
// the channel has none.
func (s *Service) Turn(ctx context.Context, channelID string) (Turn, error) {
	g, err := s.db.ChannelGame(ctx, channelID)
	switch {
	case errors.Is(err, match.ErrNotFound):
		return Turn{}, nil
	case err != nil:
		return Turn{}, fmt.Errorf("load channel game: %w", err)
	case g.Status == match.Pending:
		return Turn{Game: true, UserID: g.Opponent(g.CreatedBy), Challenge: true, ChallengedBy: g.CreatedBy}, nil
	}
	return Turn{Game: true, UserID: g.ToMove()}, nil
}
