package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"

	"nimbot/engine"
	"nimbot/match"
)

// Commit is the one write path for a turn. In one BEGIN IMMEDIATE
// transaction it
//   - refuses an InteractionID already processed (ErrDuplicate; the saved
//     response is available through Response);
//   - checks that the game is still at c.Ply with status c.From, and live
//     (else ErrStale: a stale board, a double click, or the other player got
//     there first; ErrNotFound for an unknown game);
//   - inserts c.Moves, each marked hinted if its player recorded a hint for
//     that ply;
//   - sets the new position, status, winner, deadline (and players);
//   - when the status becomes final, records the result and updates the
//     players' statistics;
//   - saves (InteractionID, Response).
//
// Either all of it lands or none does, crash or not. It returns the game as
// committed.
func (db *DB) Commit(ctx context.Context, c match.Change) (*match.Game, error) {
	p, err := prepare(c)
	if err != nil {
		return nil, err
	}
	var out *match.Game
	err = db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		out, err = applyChange(ctx, tx, now, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// prepared is a Change checked and encoded, ready to apply in a transaction.
type prepared struct {
	match.Change
	moves        []string
	position     string
	keepPosition bool
	// after is position decoded, as a read of the row would find it
	// (unless keepPosition), so that Commit returns the game as stored.
	after engine.Position
}

// prepare checks c and encodes its values, outside any transaction.
func prepare(c match.Change) (prepared, error) {
	if err := c.Check(); err != nil {
		return prepared{}, err
	}
	p := prepared{Change: c, moves: make([]string, len(c.Moves))}
	var err error
	for i, m := range c.Moves {
		if p.moves[i], err = marshal(m); err != nil {
			return prepared{}, err
		}
	}
	p.keepPosition = len(c.Moves) == 0 && c.Position.Heaps == nil
	if p.position, err = marshal(c.Position); err != nil {
		return prepared{}, err
	}
	if !p.keepPosition {
		if p.after, err = unmarshal[engine.Position](p.position); err != nil {
			return prepared{}, fmt.Errorf("game %d: position: %w", c.GameID, err)
		}
	}
	return p, nil
}

// applyChange is Commit's transaction body (CreateGame's first turn, on a
// game it has just inserted and need not read, uses writeChange).
//
// It reads the game once. The interaction's row goes in first: its primary
// key is the duplicate check (no SELECT before it), and a duplicate fails
// before anything else is written; the game it returns is the one it read
// with the change applied in Go, as a fresh read would find it
// (the contract suite's CommitReturnsStored).
func applyChange(ctx context.Context, tx queries, now time.Time, c prepared) (*match.Game, error) {
	if c.InteractionID != "" {
		err := saveResponse(ctx, tx, c.InteractionID, c.GameID, c.Response, now)
		if isConstraint(err, sqlite3.ErrConstraintForeignKey) {
			// The row's one foreign key is the game.
			return nil, fmt.Errorf("game %d: %w", c.GameID, match.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
	}
	g, err := getGame(ctx, tx, c.GameID)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", c.GameID, err)
	}
	players, err := c.Fit(g)
	if err != nil {
		return nil, err
	}
	if c.Seen != nil {
		var hinted bool
		if err := tx.QueryRowContext(ctx, hintUsedSQL, g.ID, g.Ply, players[g.Ply%2]).Scan(&hinted); err != nil {
			return nil, fmt.Errorf("game %d: hint used: %w", g.ID, err)
		}
		if hinted != c.Seen.Hinted {
			return nil, match.SeenHintStale(g)
		}
	}
	out := applied(g, players, now, c)
	if err := writeChange(ctx, tx, now, c, g, out); err != nil {
		return nil, err
	}
	return out, nil
}

// writeChange writes c to g, as the transaction read it (or, for a game
// CreateGame has just inserted, as its INSERT left it), making it out
// (applied): the new seating, the moves, the game's row, and the result
// when the game ends. What it needs is computed before; it only runs
// statements.
func writeChange(ctx context.Context, tx queries, now time.Time, c prepared, g, out *match.Game) error {
	if c.Players != nil {
		if _, err := tx.ExecContext(ctx, setPlayersSQL, out.Players[0], out.Players[1], g.ID); err != nil {
			return err
		}
	}
	if err := insertMoves(ctx, tx, g.ID, c.Ply, out.Players, c.moves, now); err != nil {
		return err
	}
	var err error
	switch {
	case c.keepPosition:
		_, err = tx.ExecContext(ctx, updateStatusSQL, string(c.Status), c.Winner, toNullMillis(c.Deadline), toMillis(now), g.ID)
	case c.Status == g.Status && c.Winner == g.Winner:
		// A move that leaves the game going: status is not set, so SQLite
		// leaves the channel's index (games_one_live_per_channel, whose
		// WHERE reads status) alone instead of rewriting its entry.
		_, err = tx.ExecContext(ctx, updatePositionSQL, c.position, toNullMillis(c.Deadline), toMillis(now), g.ID)
	default:
		_, err = tx.ExecContext(ctx, updateGameSQL, c.position, string(c.Status), c.Winner, toNullMillis(c.Deadline), toMillis(now), g.ID)
	}
	if err != nil {
		return err
	}
	if out.Status.Finished() {
		if err := recordResult(ctx, tx, out, now); err != nil {
			return fmt.Errorf("game %d: recording the result: %w", g.ID, err)
		}
	}
	return nil
}

// writeChange's statements on the game's row.
const (
	setPlayersSQL     = `UPDATE games SET player0 = ?, player1 = ? WHERE id = ?`
	updateStatusSQL   = `UPDATE games SET status = ?, winner = ?, deadline = ?, updated_at = ? WHERE id = ?`
	updatePositionSQL = `UPDATE games SET position = ?, deadline = ?, updated_at = ? WHERE id = ?`
	updateGameSQL     = `UPDATE games SET position = ?, status = ?, winner = ?, deadline = ?, updated_at = ? WHERE id = ?`
)

// insertMoveSQL inserts one move; insertMovesSQL2 two, in one statement: a
// click against nimbot commits two moves (the human's and the reply). The
// triggers on moves still run for each row, in order: they check the ply
// and advance games.ply.
const (
	insertMoveSQL = `INSERT INTO moves (game_id, ply, player, move, hinted, at)
			VALUES (?1, ?2, ?3, ?4, EXISTS (SELECT 1 FROM hints WHERE game_id = ?1 AND ply = ?2 AND user_id = ?3), ?5)`
	insertMovesSQL2 = insertMoveSQL + `,
			(?1, ?2 + 1, ?6, ?7, EXISTS (SELECT 1 FROM hints WHERE game_id = ?1 AND ply = ?2 + 1 AND user_id = ?6), ?5)`
)

// insertMoves inserts moves, played from ply on by players in turn, two to
// a statement.
func insertMoves(ctx context.Context, tx queries, gameID int64, ply int, players [2]string, moves []string, now time.Time) error {
	at := toMillis(now)
	for len(moves) > 0 {
		var err error
		if len(moves) >= 2 {
			_, err = tx.ExecContext(ctx, insertMovesSQL2, gameID, ply, players[ply%2], moves[0], at, players[(ply+1)%2], moves[1])
		} else {
			_, err = tx.ExecContext(ctx, insertMoveSQL, gameID, ply, players[ply%2], moves[0], at)
		}
		if err != nil {
			return fmt.Errorf("game %d ply %d: %w", gameID, ply, err)
		}
		n := min(len(moves), 2)
		moves, ply = moves[n:], ply+n
	}
	return nil
}

// applied is g, as read in the transaction, after c: what writeChange
// leaves in its row, kept as scanGame reads it back (times to the
// millisecond in UTC, the position decoded from the JSON written, by
// prepare), so no second read is needed. The moves' trigger advances ply
// by one per move; nothing else writes the row in the transaction.
func applied(g *match.Game, players [2]string, now time.Time, c prepared) *match.Game {
	out := *g
	out.Players = players
	out.Ply = c.Ply + len(c.moves)
	if !c.keepPosition {
		out.Position = c.after
	}
	out.Status, out.Winner = c.Status, c.Winner
	out.Deadline = fromNullMillis(toNullMillis(c.Deadline))
	out.UpdatedAt = fromMillis(toMillis(now))
	return &out
}

// checkNew fails with ErrDuplicate if the interaction was already answered.
// CreateGame needs it when its INSERT finds the channel busy: a redelivered
// start must find its answer, not its own game holding the channel.
func checkNew(ctx context.Context, tx queries, interactionID string) error {
	var one int
	err := tx.QueryRowContext(ctx, interactionExistsSQL, interactionID).Scan(&one)
	if err == nil {
		return fmt.Errorf("interaction %s: %w", interactionID, match.ErrDuplicate)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	return nil
}

// RecordHint notes that h.UserID asked for a hint at the game's ply h.Ply,
// so the move played at that ply is marked hinted, and reports whether the
// hint is new. Only a new hint writes anything, its interaction with it:
// asking again at the same ply changes nothing, so it is not recorded, and
// costs no write transaction. ErrStale if the game is past that ply or over,
// ErrNotFound if unknown, ErrDuplicate if the interaction was already
// answered.
func (db *DB) RecordHint(ctx context.Context, h match.Hint) (bool, error) {
	check := func(ctx context.Context, q queries) (bool, error) {
		var (
			ply    int
			status string
			used   bool
		)
		err := q.QueryRowContext(ctx, hintCheckSQL, h.Ply, h.UserID, h.GameID).Scan(&ply, &status, &used)
		if errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("game %d: %w", h.GameID, match.ErrNotFound)
		}
		if err != nil {
			return false, err
		}
		if ply != h.Ply || match.Status(status).Finished() {
			return false, fmt.Errorf("%w (game %d is at ply %d, %s; the hint was for ply %d)", match.ErrStale, h.GameID, ply, status, h.Ply)
		}
		return used, nil
	}
	if used, err := check(ctx, db.reads); err != nil || used {
		return false, err
	}
	recorded := false
	err := db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		if used, err := check(ctx, tx); err != nil || used {
			return err
		}
		if _, err := tx.ExecContext(ctx, insertHintSQL, h.GameID, h.Ply, h.UserID, toMillis(now)); err != nil {
			return err
		}
		if h.InteractionID != "" {
			if err := saveResponse(ctx, tx, h.InteractionID, h.GameID, h.Response, now); err != nil {
				return err
			}
		}
		recorded = true
		return nil
	})
	if err != nil {
		return false, err
	}
	return recorded, nil
}

// HintUsed reports whether userID recorded a hint for the game at ply, that
// is, whether the move they play at that ply will be marked hinted. Callers
// that render a board before committing the move use it to draw the mark.
func (db *DB) HintUsed(ctx context.Context, gameID int64, ply int, userID string) (bool, error) {
	var used bool
	err := db.reads.QueryRowContext(ctx, hintUsedSQL, gameID, ply, userID).Scan(&used)
	return used, err
}

// The hints' statements.
const (
	hintCheckSQL = `SELECT ply, status,
			EXISTS (SELECT 1 FROM hints WHERE game_id = games.id AND ply = ? AND user_id = ?) FROM games WHERE id = ?`
	insertHintSQL = `INSERT INTO hints (game_id, ply, user_id, at) VALUES (?, ?, ?, ?)`
	hintUsedSQL   = `SELECT EXISTS (SELECT 1 FROM hints WHERE game_id = ? AND ply = ? AND user_id = ?)`
)

// Response returns the response saved for an interaction, or ErrNotFound.
func (db *DB) Response(ctx context.Context, interactionID string) ([]byte, error) {
	var resp []byte
	err := db.reads.QueryRowContext(ctx, responseSQL, interactionID).Scan(&resp)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("interaction %s: %w", interactionID, match.ErrNotFound)
	}
	return resp, err
}

// SaveResponse records the response to an interaction that committed
// nothing else (an error message, a hint), so a redelivery gets the same
// answer. ErrDuplicate if the interaction already has one; the first stays.
func (db *DB) SaveResponse(ctx context.Context, interactionID string, response []byte) error {
	return db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
		return saveResponse(ctx, tx, interactionID, 0, response, now)
	})
}

// The interactions' statements.
const (
	interactionExistsSQL = `SELECT 1 FROM interactions WHERE id = ?`
	responseSQL          = `SELECT response FROM interactions WHERE id = ?`
	saveResponseSQL      = `INSERT INTO interactions (id, game_id, response, at) VALUES (?, ?, ?, ?)`
	pruneSQL             = `DELETE FROM interactions WHERE id IN
				(SELECT id FROM interactions WHERE at < ? ORDER BY at LIMIT ?)`
)

// saveResponse inserts the interaction's row, the answer as it is.
func saveResponse(ctx context.Context, tx queries, id string, gameID int64, response []byte, now time.Time) error {
	if response == nil {
		response = []byte{} // the column is NOT NULL; nil would bind as NULL
	}
	game := sql.NullInt64{Int64: gameID, Valid: gameID != 0}
	_, err := tx.ExecContext(ctx, saveResponseSQL, id, game, response, toMillis(now))
	if isConstraint(err, sqlite3.ErrConstraintUnique, sqlite3.ErrConstraintPrimaryKey) {
		return fmt.Errorf("interaction %s: %w", id, match.ErrDuplicate)
	}
	return err
}

// PruneInteractions forgets interactions answered before before and returns
// how many. Discord redelivers an interaction only while its token lives
// (15 minutes), so an answer older than that can never be asked for again.
//
// It deletes in transactions of at most match.PruneBatch rows, oldest first, each
// queued behind the writes already waiting, until none is left or ctx ends;
// an error or ctx ending keeps the batches already committed. The pages the
// rows freed go on SQLite's free list and are reused by the next inserts, so
// a database pruned on a schedule stops growing.
func (db *DB) PruneInteractions(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		var n int64
		err := db.withTx(ctx, func(ctx context.Context, tx queries, now time.Time) error {
			res, err := tx.ExecContext(ctx, pruneSQL, toMillis(before), match.PruneBatch)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		total += n
		if err != nil || n < match.PruneBatch {
			return total, err
		}
	}
}
