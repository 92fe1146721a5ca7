package commands

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// BoardSent records m as the board of its game when the response to i
// created a new board message (a start, a rematch, /nim status, a move made
// by slash command); bot calls it after fetching @original. Messages that
// are not boards (stats, rules) are ignored. Later edits go to the newest
// board, and clicks on an older board of a live game are turned away to it
// (supersededBoard): fetches may finish out of order (a retried one,
// another instance's), so a board older than the one recorded is not
// recorded (match.ReplacesBoard, which SetMessageID applies in its write).
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
	ctx, cancel := s.dbContext(ctx)
	defer cancel()
	g, err := s.db.Game(ctx, gameID)
	if errors.Is(err, match.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("board sent: load game %d: %w", gameID, err)
	}
	if !match.ReplacesBoard(g.MessageID, m.ID) {
		// Recorded already, or a newer board is: spare the write.
		return nil
	}
	if g.MessageID != "" && !g.Status.Finished() && !drawnNow(m.Components, g) {
		// The game moved on while the fetch waited, and not on this board
		// as fetched: people are playing on the recorded one, which stays
		// the board. Recording this one would turn the board in use into
		// a pointer to one whose every control is out of date. (A move on
		// this board redraws it, and a fetch that raced that redraw leaves
		// the older board recorded: a click there says it is out of date.)
		// With no board recorded yet there is no other board: this one is
		// recorded whatever its ply, or the deadline's edit and the busy
		// answer's link would have none.
		return nil
	}
	err = s.db.SetMessageID(ctx, g.ID, m.ID)
	// A board kept of the game names the message before: let it go.
	s.recent.drop(g.ID)
	if err != nil {
		return fmt.Errorf("board sent: record message %s for game %d: %w", m.ID, g.ID, err)
	}
	return nil
}

// BoardWanted reports whether the public message that resp, the answer to
// i, created still needs its id recorded by BoardSent. bot asks it a while
// after the answer went out, before it fetches the message from Discord, so
// that most games cost neither that fetch nor the write that records it: a
// game against nimbot is often over within seconds.
//
// The id serves a live game only: the deadline edits of Expire, the link
// in the "channel busy" answer (busyError) and the retiring of older boards
// (supersededBoard) are for games still running. settledBoard, which
// redraws the board of a finished game when it is clicked (one nobody
// edited at the end: an interaction-only game's deadline, /nim end or /nim
// resign by command), needs it too, but only for a board posted before the
// game ended without that board being clicked; a game ended so soon after
// its board was posted (by /nim end or /nim resign within the delay) gets
// the plain "this game is over" answer on a click of the old board instead.
//
// It is false for a message that is not a board (stats, rules), for a game
// that is gone or finished, and when the recorded board is newer than i
// (posted after i arrived: by a later answer whose fetch overtook this one,
// or by a deferred answer's edit). A read error is returned with true: bot
// then fetches, as it did before it asked.
func (s *Service) BoardWanted(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) (bool, error) {
	if i == nil || resp == nil || resp.Data == nil || resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return false, nil
	}
	gameID, ok := componentsGame(resp.Data.Components)
	if !ok {
		return false, nil
	}
	ctx, cancel := s.dbContext(ctx)
	defer cancel()
	g, err := s.db.Game(ctx, gameID)
	if errors.Is(err, match.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("board wanted: load game %d: %w", gameID, err)
	}
	if g.Status.Finished() || match.SnowflakeAfter(g.MessageID, i.ID) {
		return false, nil
	}
	return true, nil
}

// boardGame finds the game a board message belongs to, from its first
// control of a kind only boards carry (see Control): hint and review
// messages carry only hint and review controls, so they never count as
// boards.
func boardGame(m *discordgo.Message) (int64, bool) {
	return componentsGame(m.Components)
}

// drawnNow reports whether a board with components cs shows live game g as
// it is: its controls were drawn at g's ply, or, while g is a challenge,
// it is the challenge (Accept and Decline, drawn for no ply).
func drawnNow(cs []discordgo.MessageComponent, g *match.Game) bool {
	ply, ok := componentsPly(cs)
	if !ok {
		return g.Status == match.Pending
	}
	return g.Status == match.Active && ply == g.Ply
}

// componentsPly is the ply the first board control in cs that depends on
// the turn was drawn for; false if none does (a challenge's board).
func componentsPly(cs []discordgo.MessageComponent) (int, bool) {
	for c := range boardControls(cs) {
		if _, ply := c.Target(); ply >= 0 {
			return ply, true
		}
	}
	return 0, false
}

// componentsGame is boardGame of a message's components.
func componentsGame(cs []discordgo.MessageComponent) (int64, bool) {
	for c := range boardControls(cs) {
		game, _ := c.Target()
		return game, true
	}
	return 0, false
}

// boardControls yields the controls among cs, rows opened, that only a
// board carries (see Control), in order.
func boardControls(cs []discordgo.MessageComponent) iter.Seq[Control] {
	return func(yield func(Control) bool) {
		for _, c := range cs {
			if !yieldBoardControls(c, yield) {
				return
			}
		}
	}
}

// yieldBoardControls is boardControls of one component; false once yield
// asked to stop.
func yieldBoardControls(c discordgo.MessageComponent, yield func(Control) bool) bool {
	var cid string
	switch v := c.(type) {
	case *discordgo.ActionsRow:
		return yieldBoardControls(*v, yield)
	case discordgo.ActionsRow:
		for _, cc := range v.Components {
			if !yieldBoardControls(cc, yield) {
				return false
			}
		}
		return true
	case *discordgo.Button:
		cid = v.CustomID
	case discordgo.Button:
		cid = v.CustomID
	case *discordgo.SelectMenu:
		cid = v.CustomID
	case discordgo.SelectMenu:
		cid = v.CustomID
	default:
		return true
	}
	ctl, err := ParseControl(cid)
	if err != nil || !controlKinds[ctl.kindName()].marksBoard() {
		return true
	}
	return yield(ctl)
}

// redrawError carries the answer to a click that is answered by drawing a
// board over the clicked message instead of acting on it: the settled board
// of a game that ended without its board being edited (settledBoard), or a
// board replaced by a newer one (supersededBoard). It changes nothing, so it
// is never saved.
type redrawError struct {
	resp *discordgo.InteractionResponse
}

func (e *redrawError) Error() string { return "the clicked board is drawn again" }

// redrawn is the board a *redrawError in err carries, else nil.
func redrawn(err error) *discordgo.InteractionResponse {
	if re, ok := errors.AsType[*redrawError](err); ok {
		return re.resp
	}
	return nil
}

// clickedBoard reports whether r is a click, by a control of a kind that
// marks a board, on a message that is a board of g, or a form submitted
// from one (the amount form, the typed move: opened on a board, answered
// on it). A client may send any custom_id on any message, so only the
// message's own components, which Discord fills in, say what it is: a
// board of g carries a board control of g. Ephemeral messages are never
// boards (a hint's buttons live on one), and neither is a message r.i does
// not include.
func clickedBoard(r *request, g *match.Game) bool {
	m := r.i.Message
	if m == nil || m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return false
	}
	switch r.i.Type {
	case discordgo.InteractionMessageComponent:
		if c, err := ParseControl(r.path); err != nil || !controlKinds[c.kindName()].marksBoard() {
			return false
		}
	case discordgo.InteractionModalSubmit:
	default:
		return false
	}
	game, ok := componentsGame(m.Components)
	return ok && game == g.ID
}

// supersededBoard returns a *redrawError when the click r is on a board of
// the live game g that a newer board replaced (posted again by /nim status,
// or by a move made with /nim move), and nil otherwise. The game has one
// live board, the one recorded (BoardSent): the deadline's edit goes there,
// and so must the play, or the board people use would keep a turn and
// controls the game has left behind. The older board's controls may still
// be valid at the game's ply, so instead of acting, the click turns that
// board into a pointer to the newest: the game as it is now, without
// controls, linking to the recorded board.
//
// Older means an older snowflake (match.SnowflakeAfter): a board posted
// after the recorded one, whose id BoardSent has not recorded yet, is the
// newest and plays.
func (s *Service) supersededBoard(r *request, g *match.Game) error {
	if g.Status.Finished() || r.i.Message == nil || !match.SnowflakeAfter(g.MessageID, r.i.Message.ID) || !clickedBoard(r, g) {
		return nil
	}
	moves, err := s.db.Moves(r.ctx, g.ID)
	if err != nil {
		return fmt.Errorf("superseded board of game %d: moves: %w", g.ID, err)
	}
	b := board{g: g, moves: moves, selected: -1}
	resp := b.response(discordgo.InteractionResponseUpdateMessage)
	// The challenge's own line (a pending board's content) gives way to the
	// pointer, and no control is left to click.
	resp.Data.Content = b.p().T("board.superseded", "Link", messageLink(g))
	resp.Data.Components = []discordgo.MessageComponent{}
	return &redrawError{resp: resp}
}

// expireBatch bounds the due games one store call returns, and expireMax
// those one Expire call ends: after a long downtime the backlog is ended a
// few batches at a time, and the edits one call returns stay bounded. The
// next call, an interval later, goes on. (A move or an answer that comes
// after its deadline is settled by the deadline at once, whenever the
// sweep comes: expireNow.)
const (
	expireBatch = 100
	expireMax   = 10 * expireBatch
)

// claimLease is how long a due game claimed by Expire is left to this
// Service by the others sharing its database: far longer than ending a
// batch takes, and short enough that games claimed by an instance that died
// are ended by another soon after: at the first sweep once the lease has
// run out, so at most the lease plus one scheduler interval later.
const claimLease = time.Minute

// claimer is a store shared by several instances (store/postgres) that can
// lease the due games it returns, so that instances polling together never
// work on the same game. Without it Due is used, and the ply checked by
// Commit still lets a deadline fire only once.
type claimer interface {
	ClaimDue(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*match.Game, error)
}

// Expire ends the games whose deadline has passed — a challenge expires, a
// game between people is lost on time by the player to move, a game against
// nimbot is abandoned — batch after batch until a batch comes back short or
// expireMax games were looked at, and returns the edits that show the result on their boards,
// addressed by their Channel and ID. A game that moved meanwhile is left
// alone (the commit is stale).
func (s *Service) Expire(ctx context.Context) ([]*discordgo.MessageEdit, error) {
	s.recent.sweep(s.now())
	var edits []*discordgo.MessageEdit
	var errs []error
	for seen := 0; seen < expireMax; {
		due, err := s.due(ctx, min(expireBatch, expireMax-seen))
		if err != nil {
			errs = append(errs, fmt.Errorf("expire: due games: %w", err))
			break
		}
		for _, g := range due {
			e, err := s.expireDue(ctx, g)
			if err != nil {
				errs = append(errs, fmt.Errorf("expire game %d: %w", g.ID, err))
			} else if e != nil {
				edits = append(edits, e)
			}
		}
		seen += len(due)
		// A game that failed stays due: the next call tries it again
		// (on a store that leases, once the lease has run out), not
		// this one, which would meet it again at once.
		if len(due) < expireBatch || len(errs) > 0 {
			break
		}
	}
	return edits, errors.Join(errs...)
}

// due returns up to limit games whose deadline has passed, leased to this
// Service where the store can (claimer).
func (s *Service) due(ctx context.Context, limit int) ([]*match.Game, error) {
	now := s.now()
	ctx, cancel := s.dbContext(ctx)
	defer cancel()
	if c, ok := s.db.(claimer); ok {
		return c.ClaimDue(ctx, now, claimLease, limit)
	}
	return s.db.Due(ctx, now, limit)
}

// expireDue ends one due game and returns the edit of its board, or nil
// when there is none to edit or the game moved meanwhile.
func (s *Service) expireDue(ctx context.Context, g *match.Game) (*discordgo.MessageEdit, error) {
	next, err := g.Expire()
	if err != nil {
		return nil, err
	}
	ctx, cancel := s.dbContext(ctx)
	defer cancel()
	_, err = s.db.Commit(ctx, match.Change{
		GameID: g.ID, Ply: g.Ply, From: g.Status,
		Position: g.Position, Status: next.Status, Winner: next.Winner,
	})
	if errors.Is(err, match.ErrStale) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if g.MessageID == "" || g.InteractionOnly {
		// No board recorded, or nimbot may not edit it by REST (no
		// member of the channel): the board shows the result at the
		// next click on it (settledBoard).
		return nil, nil
	}
	moves, err := s.db.Moves(ctx, g.ID)
	if err != nil {
		return nil, fmt.Errorf("moves: %w", err)
	}
	b := board{g: next, moves: moves, selected: -1}
	return b.edit(g.ChannelID, g.MessageID), nil
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
	ctx, cancel := s.dbContext(ctx)
	defer cancel()
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
