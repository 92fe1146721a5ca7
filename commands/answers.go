package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"nimbot/match"
)

// answers is the one home of idempotency: an interaction delivered twice
// (a gateway retry, a redelivered HTTP request, two at once) is answered
// once, and the second delivery gets the first one's answer and changes
// nothing; that answer is marked replayed (lookup), so the gateway sends
// Discord no second one (Handle). Every route is wrapped in one of two
// policies, chosen in the routing table:
//
//   - once: whatever the route answers is saved under the interaction id,
//     and a redelivery gets that answer back (found once it has run). For
//     slash commands, which act on the channel's game as it is when they
//     arrive: "/nim move" refused as not your turn could play once it is.
//   - replay: answers that change nothing are not saved, and a redelivery is
//     answered afresh. For board controls pinned to their game's ply and for
//     read-only views: answered again, they change nothing either (at
//     another ply the control is stale; at the same ply the same checks fail
//     the same way). Each saved answer is a durable write, and heap picks
//     alone are half of all clicks.
//
// Under both, an answer that changes something is written by commit in the
// same store transaction as the change, so a redelivery can never apply it
// twice; internal errors are never saved, so a retry can succeed.
type answers struct {
	db  match.Storage
	log *slog.Logger
}

// answer is what a handler answers: the response, its JSON when that was
// made already, and whether it was saved with the change it made (by
// answers.commit), so that it needs no saving of its own.
type answer struct {
	resp *discordgo.InteractionResponse
	// encoded is resp as saved (json.Marshal), or nil if it was not
	// encoded. The HTTP transport writes these bytes as they are (Handle),
	// so a board is encoded once.
	encoded []byte
	saved   bool
	// replayed: resp is the answer another delivery of the interaction
	// saved (an earlier one, or one at the same time that committed
	// first), found by lookup. That delivery answers Discord; a
	// transport that answers by callback sends nothing (Handle).
	replayed bool
}

// unchanged is the answer of a handler that changed nothing.
func unchanged(resp *discordgo.InteractionResponse) *answer {
	return &answer{resp: resp}
}

// view adapts a handler that only ever shows something (it never writes) to
// the router.
func view(h func(*request) (*discordgo.InteractionResponse, error)) handler {
	return func(r *request) (*answer, error) {
		resp, err := h(r)
		if err != nil {
			return nil, err
		}
		return unchanged(resp), nil
	}
}

// once saves every answer of next under the interaction id (unless commit
// already saved it with its change), refusals included, and answers a
// redelivery with it.
//
// It looks the saved answer up only after next, as replay does, so a
// first delivery costs no read for it: next's every change goes through
// commit, which claims the interaction in the change's transaction, so a
// redelivery that gets past next to a change finds the interaction
// answered there (match.ErrDuplicate) and gets the saved answer; one that
// changes nothing finds it when its own answer is saved (save).
func (a answers) once(next handler) handler {
	return func(r *request) (*answer, error) {
		if r.i.ID == "" {
			return next(r)
		}
		ans, err := next(r)
		if msg, refused := isUserError(err, r.lang); refused {
			ans, err = unchanged(ephemeral(msg)), nil
		}
		if err != nil {
			// An error the first delivery did not meet (the game it
			// changed is what this one trips on) is not the answer: the
			// first delivery's is. With the database not answering, or
			// the request out of time, there is nothing to look up, and a
			// lookup that fails has nothing to add to err.
			if errors.Is(err, match.ErrUnavailable) || r.ctx.Err() != nil {
				return nil, err
			}
			if saved, _ := a.lookup(r); saved != nil {
				return saved, nil
			}
			return nil, err
		}
		if ans == nil || ans.saved {
			return ans, nil
		}
		return a.save(r, ans)
	}
}

// replay answers a redelivery with the saved answer when there is one (the
// route changed something the first time), and otherwise afresh: next's
// answers that change nothing are not saved.
//
// It looks the saved answer up only once next has refused, never before:
// that lookup was a read on every click, and a redelivery cannot get past
// next to a different answer anyway. A replay route changes something only
// through commit, in the transaction that saves the answer, so:
//
//   - if the first delivery's change is committed when the redelivery reads
//     the game, the redelivery finds it moved on (its control is drawn for
//     an earlier ply, the game is over, it is the other player's turn) and
//     is refused, or answered with a board drawn over the clicked one (the
//     settled board, or a newer board's pointer: redrawError); then the
//     saved answer, committed with the change, is found here;
//   - if not, the redelivery runs alongside the first and its own commit
//     finds the interaction answered (match.ErrDuplicate) or the game moved
//     on (match.ErrStale): commit answers from the saved answer, or refuses
//     and the lookup here finds it;
//   - a write that changed nothing (a hint recorded already: the store sees
//     that before it sees the interaction answered) is looked up in commit.
//
// What the first delivery answered without changing anything was never
// saved, and is answered afresh as before.
func (a answers) replay(next handler) handler {
	return func(r *request) (*answer, error) {
		ans, err := next(r)
		if r.i.ID == "" || err == nil {
			return ans, err
		}
		msg, refused := isUserError(err, r.lang)
		if !refused && redrawn(err) == nil {
			return nil, err
		}
		// A refusal may be a redelivery's, the first delivery having changed
		// the game: answer as it did.
		saved, lerr := a.lookup(r)
		switch {
		case lerr != nil:
			return nil, lerr
		case saved != nil:
			return saved, nil
		case refused:
			return unchanged(ephemeral(msg)), nil
		}
		return nil, err
	}
}

// A write makes one change in the store and saves the interaction's answer
// in the same transaction. It hands the answer to keep as soon as it can
// render it (at the latest, inside the transaction, once it knows what it
// wrote) and stores the bytes keep returns with interactionID. It reports
// whether it changed anything: a hint already recorded at its ply does not,
// and its answer is then not saved either.
type write func(interactionID string, keep func(*discordgo.InteractionResponse) ([]byte, error)) (changed bool, err error)

// commit runs w, the one way a handler changes the store. The errors every
// write can meet are told here: the interaction already answered (a
// concurrent delivery committed first) is answered as that delivery was, and
// the game gone stale under the write (match.ErrStale) is the user's error,
// said with the game's state (gameID; 0 for a write that makes a new game).
func (a answers) commit(r *request, gameID int64, w write) (*answer, error) {
	var resp *discordgo.InteractionResponse
	var encoded []byte
	keep := func(x *discordgo.InteractionResponse) ([]byte, error) {
		b, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("encode response: %w", err)
		}
		resp, encoded = x, b
		return b, nil
	}
	changed, err := w(r.answerKey(), keep)
	switch {
	case errors.Is(err, match.ErrDuplicate):
		saved, lerr := a.lookup(r)
		if saved == nil && lerr == nil {
			lerr = match.ErrNotFound
		}
		if lerr != nil {
			return nil, fmt.Errorf("duplicate interaction without a saved response: %w", lerr)
		}
		return saved, nil
	case errors.Is(err, match.ErrStale) && gameID != 0:
		return nil, a.stale(r, gameID)
	case err != nil:
		return nil, err
	case !changed:
		// A redelivery whose first delivery made the change finds nothing
		// to change (a hint recorded already), and is answered as the
		// first was.
		if saved, lerr := a.lookup(r); saved != nil || lerr != nil {
			return saved, lerr
		}
	}
	return &answer{resp: resp, encoded: encoded, saved: changed}, nil
}

// stale explains why a write found the game changed under it.
func (a answers) stale(r *request, gameID int64) error {
	g, err := a.db.Game(r.ctx, gameID)
	if err == nil && g.Status.Finished() {
		return &staleError{refusal: errOver()}
	}
	return &staleError{refusal: errStale()}
}

// staleError is a write refused because another interaction changed the
// game between the handler's read and its write (match.ErrStale). To the
// user of a board control it is refusal, the user's error: their board is
// out of date, or the game is over. A handler whose action holds at any ply
// tells it apart and tries again on the game as it now is (retryStale).
type staleError struct{ refusal error }

func (e *staleError) Error() string { return e.refusal.Error() }
func (e *staleError) Unwrap() error { return e.refusal }

// staleAttempts bounds the attempts of retryStale: a change between one
// read and its write is rare, and one at every attempt means the game is
// moving faster than the action can land; that is said, not tried for ever.
const staleAttempts = 3

// retryStale runs act, which reads the game and writes a change that does
// not depend on the ply, and runs it again when another interaction changed
// the game between its read and its write (a *staleError), at most
// staleAttempts times in all. It returns the last attempt's answer: the
// change made on the game as it then was, or the refusal that game earns
// (for an Accept that lost to /nim end, that the challenge was called off,
// not that a board is out of date). act must read everything afresh.
func retryStale(act func() (*answer, error)) (ans *answer, err error) {
	for range staleAttempts {
		ans, err = act()
		if _, stale := errors.AsType[*staleError](err); !stale {
			break
		}
	}
	return ans, err
}

// retryCommand is retryStale for a slash command that acts on the channel's
// game at any ply (/nim end, /nim resign): the user sent it whatever move
// came in meanwhile. Should every attempt meet a change, the answer says so
// in words of its own, not a board's "out of date": a command has no board.
func retryCommand(act func() (*answer, error)) (*answer, error) {
	ans, err := retryStale(act)
	if _, stale := errors.AsType[*staleError](err); stale {
		return nil, userErr("play.err.command_raced")
	}
	return ans, err
}

// lookup returns the answer saved for r's interaction, nil if none is.
// Every delivery saves its answer itself (commit, save) and never looks
// it up: an answer found here is another delivery's, so r is a
// re-delivery, logged at debug level.
func (a answers) lookup(r *request) (*answer, error) {
	b, err := a.db.Response(r.ctx, r.answerKey())
	switch {
	case errors.Is(err, match.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("look up response: %w", err)
	}
	resp, err := decodeResponse(b)
	if err != nil {
		return nil, err
	}
	a.log.DebugContext(r.ctx, "interaction re-delivered; it has an answer already", "interaction", r.i.ID, "path", r.path)
	return &answer{resp: resp, encoded: b, saved: true, replayed: true}, nil
}

// save stores ans, an answer that changed nothing, under r's interaction.
// A concurrent delivery that saved first is answered as it was; a failure
// to save is logged, and the answer given all the same.
func (a answers) save(r *request, ans *answer) (*answer, error) {
	b := ans.encoded
	if b == nil {
		var err error
		if b, err = json.Marshal(ans.resp); err != nil {
			return nil, fmt.Errorf("encode response: %w", err)
		}
	}
	serr := a.db.SaveResponse(r.ctx, r.answerKey(), b)
	if serr == nil {
		return &answer{resp: ans.resp, encoded: b, saved: true}, nil
	}
	if errors.Is(serr, match.ErrDuplicate) {
		if saved, _ := a.lookup(r); saved != nil {
			return saved, nil
		}
	}
	a.log.WarnContext(r.ctx, "save response", "interaction", r.i.ID, "err", serr)
	return &answer{resp: ans.resp, encoded: b}, nil
}

// decodeResponse reverses json.Marshal of a response. discordgo cannot unmarshal
// InteractionResponseData's component interfaces, so they are decoded one by
// one with MessageComponentFromJSON.
func decodeResponse(b []byte) (*discordgo.InteractionResponse, error) {
	var raw struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data *struct {
			discordgo.InteractionResponseData
			Components []json.RawMessage `json:"components"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("decode saved response: %w", err)
	}
	resp := &discordgo.InteractionResponse{Type: raw.Type}
	if raw.Data != nil {
		d := raw.Data.InteractionResponseData
		d.Components = nil
		if raw.Data.Components != nil {
			// [] (remove every control) and null (leave them) differ to
			// Discord in an UPDATE_MESSAGE.
			d.Components = make([]discordgo.MessageComponent, 0, len(raw.Data.Components))
		}
		for _, c := range raw.Data.Components {
			mc, err := discordgo.MessageComponentFromJSON(c)
			if err != nil {
				return nil, fmt.Errorf("decode saved response: %w", err)
			}
			d.Components = append(d.Components, mc)
		}
		resp.Data = &d
	}
	return resp, nil
}
