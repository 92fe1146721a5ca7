package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"nimbot/match"
)

// Commit is the one write path for a turn, as store.DB.Commit: in one
// transaction it claims c.InteractionID (match.ErrDuplicate if it was
// already answered, on any instance), locks the game's row and checks it is
// still at c.Ply with status c.From and live (match.ErrStale otherwise,
// match.ErrNotFound for an unknown game), inserts c.Moves (marked hinted
// where their player asked for a hint at that ply), sets the new position,
// status, winner, deadline and players, records the result and statistics
// when the game ends, and saves the response. Either all of it lands or
// none does. It returns the game as committed.
func (db *DB) Commit(ctx context.Context, c match.Change) (*match.Game, error) {
	if err := check(c); err != nil {
		return nil, err
	}
	var out *match.Game
	err := db.withTx(ctx, func(tx pgx.Tx, now time.Time) error {
		var err error
		out, err = applyChange(ctx, tx, now, c)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// check refuses a Change no game could take, before any transaction.
func check(c match.Change) error {
	return c.Check()
}

// applyChange is Commit's transaction body; CreateGame's first turn uses it
// too.
func applyChange(ctx context.Context, tx pgx.Tx, now time.Time, c match.Change) (*match.Game, error) {
	if c.InteractionID != "" {
		if err := claim(ctx, tx, c.InteractionID, now); err != nil {
			return nil, err
		}
	}
	// The row lock orders every writer of this game, on every instance:
	// the second of two clicks reads the ply the first left.
	g, err := scanGame(tx.QueryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1 FOR UPDATE`, c.GameID))
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", c.GameID, err)
	}
	players, err := c.Fit(g)
	if err != nil {
		return nil, err
	}
	if c.Players != nil {
		if _, err := tx.Exec(ctx, `UPDATE games SET player0 = $1, player1 = $2 WHERE id = $3`,
			players[0], players[1], g.ID); err != nil {
			return nil, err
		}
	}
	for i, m := range c.Moves {
		ply := c.Ply + i
		player := players[ply%2]
		// The trigger on moves checks the ply again and advances games.ply.
		if _, err := tx.Exec(ctx, `INSERT INTO moves (game_id, ply, player, move, hinted, at)
			VALUES ($1, $2, $3, $4, EXISTS (SELECT 1 FROM hints WHERE game_id = $1 AND ply = $2 AND user_id = $3), $5)`,
			g.ID, ply, player, m, toMillis(now)); err != nil {
			return nil, fmt.Errorf("game %d ply %d: %w", g.ID, ply, staleMove(err))
		}
	}
	keepPosition := len(c.Moves) == 0 && c.Position.Heaps == nil
	var row pgx.Row
	if keepPosition {
		row = tx.QueryRow(ctx, `UPDATE games SET status = $1, winner = $2, deadline = $3, updated_at = $4, claimed_until = NULL WHERE id = $5
			RETURNING `+gameColumns, string(c.Status), c.Winner, toNullMillis(c.Deadline), toMillis(now), g.ID)
	} else {
		row = tx.QueryRow(ctx, `UPDATE games SET position = $1, status = $2, winner = $3, deadline = $4, updated_at = $5, claimed_until = NULL WHERE id = $6
			RETURNING `+gameColumns, c.Position, string(c.Status), c.Winner, toNullMillis(c.Deadline), toMillis(now), g.ID)
	}
	out, err := scanGame(row)
	if err != nil {
		return nil, err
	}
	if out.Status.Finished() {
		if err := recordResult(ctx, tx, out, now); err != nil {
			return nil, fmt.Errorf("game %d: recording the result: %w", g.ID, err)
		}
	}
	if c.InteractionID != "" {
		if err := answer(ctx, tx, c.InteractionID, g.ID, c.Response); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// staleMove reports the trigger's refusal of a move as match.ErrStale.
func staleMove(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23514" && pgErr.Where != "" {
		return fmt.Errorf("%w: %s", match.ErrStale, pgErr.Message)
	}
	return err
}

// claim records the interaction as being answered, first thing in the
// transaction, or fails with match.ErrDuplicate if it already was. A
// delivery of the same interaction in flight on another connection holds
// the row: this one waits for it, and then either finds it answered or, if
// it rolled back, takes the claim. answer fills in the response.
func claim(ctx context.Context, tx pgx.Tx, id string, now time.Time) error {
	tag, err := tx.Exec(ctx, `INSERT INTO interactions (id, response, at) VALUES ($1, ''::bytea, $2)
		ON CONFLICT (id) DO NOTHING`, id, toMillis(now))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("interaction %s: %w", id, match.ErrDuplicate)
	}
	return nil
}

// answer saves the response to an interaction claimed in this transaction.
func answer(ctx context.Context, tx pgx.Tx, id string, gameID int64, response []byte) error {
	if response == nil {
		response = []byte{}
	}
	_, err := tx.Exec(ctx, `UPDATE interactions SET game_id = $1, response = $2 WHERE id = $3`, nullID(gameID), response, id)
	return err
}

// saveResponse records an interaction and its response at once, or fails
// with match.ErrDuplicate.
func saveResponse(ctx context.Context, tx pgx.Tx, id string, gameID int64, response []byte, now time.Time) error {
	if response == nil {
		response = []byte{} // the column is NOT NULL; nil would bind as NULL
	}
	tag, err := tx.Exec(ctx, `INSERT INTO interactions (id, game_id, response, at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO NOTHING`, id, nullID(gameID), response, toMillis(now))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("interaction %s: %w", id, match.ErrDuplicate)
	}
	return nil
}

func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// RecordHint notes that h.UserID asked for a hint at ply h.Ply and reports
// whether the hint is new, as store.DB.RecordHint: only a new hint writes
// anything, its interaction with it. match.ErrStale if the game is past
// that ply or over, match.ErrNotFound if unknown, match.ErrDuplicate if the
// interaction was already answered.
func (db *DB) RecordHint(ctx context.Context, h match.Hint) (bool, error) {
	check := func(q querier, lock string) (bool, error) {
		var (
			ply    int
			status string
			used   bool
		)
		err := q.QueryRow(ctx, `SELECT ply, status,
			EXISTS (SELECT 1 FROM hints WHERE game_id = games.id AND ply = $1 AND user_id = $2) FROM games WHERE id = $3`+lock,
			h.Ply, h.UserID, h.GameID).Scan(&ply, &status, &used)
		if errors.Is(err, pgx.ErrNoRows) {
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
	// Most repeated asks end here, without a write transaction.
	if used, err := check(db.pool, ""); err != nil || used {
		return false, err
	}
	recorded := false
	err := db.withTx(ctx, func(tx pgx.Tx, now time.Time) error {
		recorded = false
		// Locked like a move, so a hint and the move at its ply take turns.
		if used, err := check(tx, " FOR UPDATE"); err != nil || used {
			return err
		}
		// The check's EXISTS may be stale: a statement that waited for the
		// lock sees the game row as its holder left it, but the hints
		// table as of when it began (READ COMMITTED). The same hint
		// recorded meanwhile is a conflict, and changes nothing.
		tag, err := tx.Exec(ctx, `INSERT INTO hints (game_id, ply, user_id, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			h.GameID, h.Ply, h.UserID, toMillis(now))
		if err != nil || tag.RowsAffected() == 0 {
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

// HintUsed reports whether userID recorded a hint for the game at ply.
func (db *DB) HintUsed(ctx context.Context, gameID int64, ply int, userID string) (bool, error) {
	var used bool
	err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM hints WHERE game_id = $1 AND ply = $2 AND user_id = $3)`,
		gameID, ply, userID).Scan(&used)
	return used, err
}

// Response returns the response saved for an interaction, or
// match.ErrNotFound.
func (db *DB) Response(ctx context.Context, interactionID string) ([]byte, error) {
	var resp []byte
	err := db.pool.QueryRow(ctx, `SELECT response FROM interactions WHERE id = $1`, interactionID).Scan(&resp)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("interaction %s: %w", interactionID, match.ErrNotFound)
	}
	if resp == nil && err == nil {
		resp = []byte{}
	}
	return resp, err
}

// SaveResponse records the response to an interaction that committed
// nothing else. match.ErrDuplicate if the interaction already has one; the
// first stays.
func (db *DB) SaveResponse(ctx context.Context, interactionID string, response []byte) error {
	return db.withTx(ctx, func(tx pgx.Tx, now time.Time) error {
		return saveResponse(ctx, tx, interactionID, 0, response, now)
	})
}

// pruneLock is the advisory lock key PruneInteractions holds: any value
// unique to nimbot in the database.
const pruneLock = 0x6e696d626f74 // "nimbot"

// PruneInteractions forgets interactions answered before before and returns
// how many, as store.DB.PruneInteractions: in statements of at most
// match.PruneBatch rows, oldest first, each its own transaction, so no
// statement holds locks for long; an error or ctx ending keeps the batches
// already deleted.
//
// One instance prunes at a time: the batches run on one connection holding
// a session advisory lock, and another instance calling meanwhile finds the
// lock taken and returns 0 at once rather than deleting the same rows.
func (db *DB) PruneInteractions(ctx context.Context, before time.Time) (int64, error) {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, int64(pruneLock)).Scan(&got); err != nil || !got {
		return 0, err
	}
	defer func() {
		// The lock belongs to the session: a connection that cannot say
		// unlock must not go back to the pool still holding it.
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := conn.Exec(uctx, `SELECT pg_advisory_unlock($1)`, int64(pruneLock)); err != nil {
			conn.Conn().Close(uctx)
		}
	}()
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		tag, err := conn.Exec(ctx, `DELETE FROM interactions WHERE id IN
			(SELECT id FROM interactions WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
			toMillis(before), match.PruneBatch)
		if err != nil {
			return total, err
		}
		total += tag.RowsAffected()
		if tag.RowsAffected() < match.PruneBatch {
			return total, nil
		}
	}
}
