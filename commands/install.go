package commands

import (
	"fmt"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// Where nimbot is installed to a user's account and used in a group DM or a
// DM between people, it is no member of the channel: Discord lets it answer
// interactions (responses, and follow-ups and @original edits under the
// interaction's token, which lives 15 minutes) but not post or edit messages
// by REST. A turn deadline usually outlives the last token, so:
//   - the deadline scheduler settles such a game in the database when its
//     deadline passes (once, as every game: the result, the rating, the
//     channel freed for a new game), but sends no board edit (Expire skips
//     InteractionOnly games);
//   - the board says so beside the deadline (install.deadline_next_click);
//   - the next click on the board answers with the settled board in place
//     (settledBoard), instead of "this game is over" under a board that
//     still shows the turn.
//
// settledBoard serves every game, not only these: /nim end and /nim resign
// sent as commands answer with a new message and leave the board they ended
// as it was, in a server too.

// settledBoard returns a *redrawError when the click r is on the recorded
// board of a game that is over, and nil otherwise: a board nobody edited
// when the game ended (an interaction-only game's deadline; /nim end or
// /nim resign by command) still shows the turn and its controls, and is
// redrawn with the result, Rematch and Review. Where the board was edited
// already, drawing it again changes nothing. As for a superseded board
// (supersededBoard), only a message that is a board of g by its own
// components is redrawn (clickedBoard); a click anywhere else is told the
// game is over.
func (s *Service) settledBoard(r *request, g *match.Game) error {
	if !g.Status.Finished() || g.MessageID == "" || r.i.Message == nil || r.i.Message.ID != g.MessageID || !clickedBoard(r, g) {
		return nil
	}
	moves, err := s.db.Moves(r.ctx, g.ID)
	if err != nil {
		return fmt.Errorf("settled board of game %d: moves: %w", g.ID, err)
	}
	b := board{g: g, moves: moves, selected: -1}
	return &redrawError{resp: b.response(discordgo.InteractionResponseUpdateMessage)}
}
